"""Klabberjass as a :class:`~solver.protocol.Game`: what analysis needs, in one object.

>>> game = Klabberjass()
>>> p = game.parse_position("trump=H lead=E E=A... D=K...")
>>> game.value(p), game.move_values(p)
((25, 0), {AS: 25})
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from solver.cards import SUITS, card_str, format_holding, text_arg
from solver.errors import NotationError, TricklabError
from solver.klabberjass import engine
from solver.klabberjass.deal import Deal
from solver.klabberjass.position import Position
from solver.klabberjass.rules import (
    SEED,
    Rules,
    beats,
    card_points,
    card_power,
    points_of,
)
from solver.klabberjass.table import deal_table
from solver.klabberjass.view import View
from solver.limits import check_count, max_workers
from solver.protocol import DealTable, FlatTree, Game


@lru_cache(maxsize=1 << 16)
def _holding(mask: int) -> str:
    return format_holding(mask)


class Klabberjass(Game):
    """Klabberjass: sides ``E`` and ``D`` (a side is a seat).

    Args:
        rules: the rules (only the last-trick bonus matters to card play).
    """

    name = "klabberjass"
    sides = ("E", "D")

    def __init__(self, rules: Rules | str | None = None) -> None:
        self.rules = Rules.preset(rules) if isinstance(rules, str) else rules or SEED
        # For each trump, each suit's cards from the strongest down, and every card's points.
        self._order = [
            [
                sorted(range(16 * s + 5, 16 * s + 13), key=lambda c: -card_power(c, t))
                for s in range(4)
            ]
            for t in range(4)
        ]
        self._points = [
            [card_points(c, t) if c & 15 >= 5 else 0 for c in range(64)] for t in range(4)
        ]

    def parse_position(self, text: str) -> Position:
        return Position.parse(text)

    def parse_deal(self, text: str) -> Deal:
        return Deal.parse(text)

    def random_deal(self, seed: int | None = None, players: int | None = None) -> Deal:
        return Deal.random(seed, 2 if players is None else players)

    def parse_view(self, text: str) -> View:
        return View.parse(text)

    def parse_start(self, text: str) -> Any:
        """A position, or a deal with ``trump=`` (E leads the first trick).

        Raises:
            NotationError: unreadable text, or a deal without ``trump=``.
        """
        fields = {tok.partition("=")[0] for tok in text_arg(text, "a position or deal").split()}
        if "lead" in fields or "turn" not in fields:
            return Position.parse(text)
        deal = Deal.parse(text)
        if deal.trump is None:
            raise NotationError(f'a deal to play needs trump=<suit> in "{text}"')
        return deal.position()

    def key(self, position: Any) -> str:
        text = (
            f"trump={SUITS[position.trump]} lead={'ED'[position.lead]} "
            f"E={_holding(position.hands[0])} D={_holding(position.hands[1])}"
        )
        if position.trick is not None:
            text += f" trick={card_str(position.trick)}"
        return text

    def seat_label(self, seat: int) -> str:
        return "ED"[seat]

    def side_of(self, position: Any, seat: int) -> int:
        return seat

    def step(self, position: Any, card: int) -> tuple[Any, int | None, int]:
        # The rules' own step, less its legality check: trees play only legal cards.
        mover = position.to_move
        hands = [position.hands[0], position.hands[1]]
        hands[mover] &= ~(1 << card)
        trump = position.trump
        if position.trick is None:
            return (
                Position(trump, position.lead, (hands[0], hands[1]), card, _checked=True),
                None,
                0,
            )
        lead_card = position.trick
        winner = (position.lead, mover)[beats(card, lead_card, trump)]
        pts = self._points[trump][lead_card] + self._points[trump][card]
        if not (hands[0] | hands[1]):
            pts += self.rules.last_trick
        return Position(trump, winner, (hands[0], hands[1]), None, _checked=True), winner, pts

    def equivalence_classes(self, position: Any, cards: Sequence[int]) -> list[list[int]]:
        # Same classes as Game.equivalence_classes, by walking each suit's power order.
        wanted = 0
        for c in cards:
            wanted |= 1 << c
        mover = position.to_move
        others = self.cards_in_play(position) & ~position.hands[mover]
        points = self._points[position.trump]
        classes: list[list[int]] = []
        for suit in range(4):
            if not wanted >> (16 * suit) & 0xFFFF:
                continue
            current: list[int] = []
            for c in self._order[position.trump][suit]:
                if others >> c & 1:
                    if current:
                        classes.append(current)
                        current = []
                elif wanted >> c & 1:
                    if current and points[current[-1]] != points[c]:
                        classes.append(current)
                        current = []
                    current.append(c)
            if current:
                classes.append(current)
        return classes

    def points_left(self, position: Any) -> int:
        cards = position.hands[0] | position.hands[1]
        if position.trick is not None:
            cards |= 1 << position.trick
        if not cards:
            return 0
        return points_of(cards, position.trump) + self.rules.last_trick

    def _args(self, position: Any) -> tuple[int, int, int, int, int, int]:
        trick = -1 if position.trick is None else position.trick
        h = position.hands
        return (h[0], h[1], position.trump, position.lead, trick, self.rules.last_trick)

    def move_values(self, position: Any) -> dict[int, int]:
        if position.is_over:
            return {}
        return engine.move_values(position, self.rules)

    def value(self, position: Any) -> tuple[int, int]:
        if position.is_over:
            return (0, 0)
        e = engine.value(position, self.rules)
        return (e, self.points_left(position) - e)

    def values(self, positions: Sequence[Any]) -> list[tuple[int, int]]:
        es = engine.values(positions, self.rules)
        return [(e, self.points_left(p) - e) for e, p in zip(es, positions, strict=True)]

    def optimal_flat(
        self,
        position: Any,
        per_class: bool,
        max_nodes: int,
        *,
        time_limit: float | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> FlatTree | None:
        # well under a second for a full deal: the time limit and progress are not needed
        raw = engine.core().optimal_tree(*self._args(position), per_class, max_nodes)
        if raw is None:
            return FlatTree(False)
        prefix = [f"trump={SUITS[position.trump]} lead={seat} E=" for seat in ("E", "D")]
        holding: dict[int, str] = {}
        keys = []
        for e, d, lead, trick in zip(raw["e"], raw["d"], raw["lead"], raw["trick"], strict=True):
            he = holding.get(e)
            if he is None:
                he = holding[e] = format_holding(e)
            hd = holding.get(d)
            if hd is None:
                hd = holding[d] = format_holding(d)
            if trick < 0:
                keys.append(f"{prefix[lead]}{he} D={hd}")
            else:
                keys.append(f"{prefix[lead]}{he} D={hd} trick={card_str(trick)}")
        value0 = raw["value"]
        value1 = [r - v for r, v in zip(raw["rem"], value0, strict=True)]
        start = raw["mstart"]
        mover = [  # a position with no legal card is finished
            (lead if t < 0 else 1 - lead) if a < b else -1
            for lead, t, a, b in zip(raw["lead"], raw["trick"], start[:-1], start[1:], strict=True)
        ]
        edge_cards = None
        if per_class:
            order = self._order[position.trump]
            members: dict[int, list[int]] = {}
            edge_cards = []
            for mask in raw["cls"]:
                cards = members.get(mask)
                if cards is None:
                    suit = (mask & -mask).bit_length() - 1 >> 4
                    cards = members[mask] = [c for c in order[suit] if mask >> c & 1]
                edge_cards.append(cards)
        return FlatTree(
            complete=True,
            keys=keys,
            value0=value0,
            value1=value1,
            mover=mover,
            side=mover,  # a Klabberjass side is a seat
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
        return card_points(card, position.trump)

    # ---------------------------------------------------------------- the rest of the protocol
    def no_choice(self, position: Any, side: int) -> bool:
        return position.hands[side].bit_count() <= 1

    def solve(
        self, position: Any, moves: bool = False, time_limit: float | None = None
    ) -> engine.Result:
        return engine.solve(position, self.rules, moves=moves, time_limit=time_limit)

    def all_tricks(self, position: Any, side: int) -> bool:
        return engine.all_tricks(position, side)

    def deal_table(
        self,
        deal: Any,
        time_limit: float | None = None,
        progress: Callable[[int, int], None] | None = None,
        workers: int = 1,
    ) -> DealTable:
        """The table (milliseconds: ``progress`` is called once, at the end, and the
        rows are solved in one batch whatever ``workers`` asks). A time limit that runs
        out before it is done raises TricklabError."""
        check_count(workers, "workers", 1, max_workers(), "four per core")
        if time_limit is None:
            table = deal_table(deal, self.rules)
        else:
            engine_core = engine.core()
            engine_core.set_time_limit(time_limit)
            try:
                table = deal_table(deal, self.rules)
            except TimeoutError:
                raise TricklabError(
                    f"the deal table was not finished within the time limit ({time_limit} s)"
                ) from None
            finally:
                engine_core.set_time_limit(None)
        if progress is not None:
            progress(len(table), len(table))
        return table

    def cards_in_play(self, position: Any) -> int:
        cards = position.hands[0] | position.hands[1]
        return cards | (1 << position.trick if position.trick is not None else 0)

    def cards_of_seat(self, position: Any, seat: int) -> int:
        return position.hands[seat]
