"""Carabin as a :class:`~solver.protocol.Game`: what analysis needs, in one object.

>>> game = Carabin()
>>> p = game.parse_position("trump=S bidder=0 lead=1 next=R 0=.../A... 1=.../K... 2=.../.3..")
>>> game.value(p), game.move_values(p)
((7, 0), {KS: 0})
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from solver.carabin import engine
from solver.carabin.deal import Deal
from solver.carabin.position import Position
from solver.carabin.rules import Rules, card_points, card_power
from solver.carabin.table import deal_table
from solver.carabin.view import View
from solver.cards import text_arg
from solver.errors import NotationError, RulesError
from solver.protocol import DealTable, Game


class Carabin(Game):
    """Carabin: sides ``bidder`` and ``others`` (every seat but the bidder)."""

    name = "carabin"
    sides = ("bidder", "others")

    def __init__(self, rules: Rules | None = None) -> None:
        self.rules = rules or Rules()

    def parse_position(self, text: str) -> Position:
        return Position.parse(text)

    def parse_deal(self, text: str) -> Deal:
        return Deal.parse(text)

    def random_deal(self, seed: int | None = None, players: int | None = None) -> Deal:
        return Deal.random(seed, self.rules.players if players is None else players)

    def parse_view(self, text: str) -> View:
        return View.parse(text)

    def parse_start(self, text: str) -> Any:
        """A position, or a deal with ``trump=`` and ``bidder=`` (seat 0 leads).

        Raises:
            NotationError: unreadable text, or a deal without trump or bidder.
        """
        fields = {tok.partition("=")[0] for tok in text_arg(text, "a position or deal").split()}
        if "lead" in fields or "turn" not in fields:
            return Position.parse(text)
        deal = Deal.parse(text)
        if deal.trump is None or deal.bidder is None:
            raise NotationError(f'a deal to play needs trump=<suit> and bidder=<seat> in "{text}"')
        return deal.position(trick_order=self.rules.trick_order)

    def side_of(self, position: Any, seat: int) -> int:
        return 0 if seat == position.bidder else 1

    def move_values(self, position: Any) -> dict[int, int]:
        return engine.move_values(position)

    def value(self, position: Any) -> tuple[int, int]:
        b = engine.value(position)
        return (b, position.points_left() - b)

    def values(self, positions: Sequence[Any]) -> list[tuple[int, int]]:
        bs = engine.values(positions)
        return [(b, p.points_left() - b) for b, p in zip(bs, positions, strict=True)]

    def power(self, position: Any, card: int) -> int:
        return card_power(card, position.trump)

    def card_points(self, position: Any, card: int) -> int:
        return card_points(card)

    def cards_in_play(self, position: Any) -> int:
        cards = 0
        for left, right in position.hands:
            cards |= left | right
        for c in position.trick:
            cards |= 1 << c
        return cards

    def cards_of_seat(self, position: Any, seat: int) -> int:
        left, right = position.hands[seat]
        return left | right

    # ---------------------------------------------------------------- the rest of the protocol
    def no_choice(self, position: Any, side: int) -> bool:
        seats = (
            [position.bidder]
            if side == 0
            else [s for s in range(position.players) if s != position.bidder]
        )
        return all(
            left.bit_count() <= 1 and right.bit_count() <= 1
            for left, right in (position.hands[s] for s in seats)
        )

    def solve(
        self, position: Any, moves: bool = False, time_limit: float | None = None
    ) -> engine.Result:
        return engine.solve(position, moves=moves, time_limit=time_limit)

    def makes(self, position: Any, side: int, need: int) -> bool:
        """One zero-window make/fail probe, not the exact value."""
        if need <= 0:
            return True
        if side == 0:
            return engine.make(position, need)
        # the others take >= need  <=>  the bidder takes < total - need + 1
        return not engine.make(position, position.points_left() - need + 1)

    def reaching(self, position: Any, side: int, need: int) -> dict[int, bool]:
        """One make/fail probe per card instead of every card's exact value."""
        out = {}
        for card in position.legal_moves():
            nxt, winner, pts = position.step(card)
            gained = winner is not None and self.side_of(position, winner) == side
            out[card] = self.makes(nxt, side, need - pts if gained else need)
        return out

    def all_tricks(self, position: Any, side: int) -> bool:
        if side != 0:
            raise RulesError("the all-tricks goal in carabin is the bidder's (the chelem)")
        return engine.all_tricks(position, side)

    def deal_table(
        self,
        deal: Any,
        time_limit: float | None = None,
        progress: Callable[[int, int], None] | None = None,
    ) -> DealTable:
        return deal_table(deal, self.rules, time_limit=time_limit, progress=progress)
