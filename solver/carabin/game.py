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
from solver.carabin.rules import HANDS, Rules, card_points, card_power
from solver.carabin.table import deal_table
from solver.carabin.view import View
from solver.cards import SUITS, card_str, cards_of, format_holding, text_arg
from solver.errors import NotationError, RulesError
from solver.protocol import DealTable, FlatTree, Game


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

    def optimal_flat(
        self,
        position: Any,
        per_class: bool,
        max_nodes: int,
        *,
        time_limit: float | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> FlatTree | None:
        """The compiled enumeration (``_tree.h``); ``time_limit`` bounds it all, and a
        limit that runs out raises TimeoutError."""
        engine_core = engine.core()
        args = engine._args(position)
        engine_core.set_time_limit(time_limit)
        try:
            raw = engine_core.optimal_tree(
                *args, engine._guess(position), per_class, max_nodes, progress
            )
        finally:
            engine_core.set_time_limit(None)
        if raw is None:
            return FlatTree(False)
        keys = _FlatKeys(position).keys(raw["held"], raw["trick"], raw["lead"], raw["h"])
        n, bidder = position.players, position.bidder
        value0 = raw["value"]
        value1 = [r - v for r, v in zip(raw["rem"], value0, strict=True)]
        start = raw["mstart"]
        mover = [  # a position with no legal card is finished
            (lead + trick.bit_count()) % n if a < b else -1
            for lead, trick, a, b in zip(
                raw["lead"], raw["trick"], start[:-1], start[1:], strict=True
            )
        ]
        side = [-1 if m < 0 else 0 if m == bidder else 1 for m in mover]
        edge_cards = None
        if per_class:
            members: dict[int, list[int]] = {}
            edge_cards = []
            for mask in raw["cls"]:
                cards = members.get(mask)
                if cards is None:
                    cards = members[mask] = sorted(
                        cards_of(mask), key=lambda c: -card_power(c, position.trump)
                    )
                edge_cards.append(cards)
        return FlatTree(
            complete=True,
            keys=keys,
            value0=value0,
            value1=value1,
            mover=mover,
            side=side,
            depth=raw["depth"],
            critical=raw["critical"],
            move_start=start,
            move_card=raw["mcard"],
            move_value=raw["mvalue"],
            edge_u=raw["u"],
            edge_v=raw["v"],
            edge_card=raw["card"],
            edge_value=raw["evalue"],
            edge_loss=raw["loss"],
            edge_won=raw["won"],
            edge_points=raw["points"],
            edge_cards=edge_cards,
        )

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
        workers: int = 1,
    ) -> DealTable:
        return deal_table(
            deal, self.rules, time_limit=time_limit, progress=progress, workers=workers
        )


class _FlatKeys:
    """The canonical text (``str(Position)``) of the positions of one tree, from the
    cards still held and the cards of the trick: every card's owner is that of the
    root, so the text of each half of the table is made once for each of its holdings
    (a card played changes one half)."""

    def __init__(self, root: Position) -> None:
        self.root = root
        self.players = n = root.players
        self.prefix = f"trump={SUITS[root.trump]} bidder={root.bidder} lead="
        self.suffix = "" if root.trick_order == "alternate" else f" order={root.trick_order}"
        seat_cards = [left | right for left, right in root.hands]
        self.owner: dict[int, int] = {c: s for s in range(n) for c in cards_of(seat_cards[s])}
        self.owner.update({c: (root.lead + j) % n for j, c in enumerate(root.trick)})
        half = (n + 1) // 2
        self.halves = [range(half), range(half, n)]
        self.half_cards = [sum(seat_cards[s] for s in seats) for seats in self.halves]
        self.half_text: list[dict[int, str]] = [{}, {}]

    def _half(self, k: int, held: int) -> str:
        hands = self.root.hands
        return " ".join(
            f"{s}={format_holding(hands[s][0] & held)}/{format_holding(hands[s][1] & held)}"
            for s in self.halves[k]
        )

    def hands(self, held: int) -> str:
        out = []
        for k in (0, 1):
            mine = held & self.half_cards[k]
            text = self.half_text[k].get(mine)
            if text is None:
                text = self.half_text[k][mine] = self._half(k, mine)
            out.append(text)
        return " ".join(out)

    def trick(self, cards: int, lead: int) -> str:
        n, owner = self.players, self.owner
        played = sorted(cards_of(cards), key=lambda c: (owner[c] - lead) % n)
        return " trick=" + ",".join(card_str(c) for c in played)

    def keys(
        self, held: list[int], trick: list[int], lead: list[int], hand: list[int]
    ) -> list[str]:
        hands: dict[int, str] = {}
        tricks: dict[tuple[int, int], str] = {}
        out = []
        for h, t, ld, k in zip(held, trick, lead, hand, strict=True):
            ht = hands.get(h)
            if ht is None:
                ht = hands[h] = self.hands(h)
            tt = ""
            if t:
                tt = tricks.get((t, ld)) or tricks.setdefault((t, ld), self.trick(t, ld))
            out.append(f"{self.prefix}{ld} next={HANDS[k]} {ht}{tt}{self.suffix}")
        return out
