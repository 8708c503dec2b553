"""One small adapter per game, so trees, reviews and advice are written once.

An adapter knows, for its game: how to read a position (or a deal, for a review),
the legal cards and the result of playing one, the double-dummy value of every legal
card, the canonical text that keys a position, and which of the two *sides* a seat
belongs to. Klabberjass has the sides ``E`` and ``D``; Carabin has ``bidder`` and
``others`` (every seat but the bidder plays for the coalition, SPEC §3).

Values are always *points from here on*, the unfinished trick included: a node's
value is what each side takes from that position on under optimal play, and a card's
value is what the mover's side takes from here if he plays it.

>>> game = get_game("klabberjass")
>>> p = game.parse_position("trump=H lead=E E=A... D=K...")
>>> game.value(p), game.move_values(p)
((25, 0), {12: 25})
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from solver.cards import SUITS, card_str, cards_of, format_holding, rank_of, suit_mask, suit_of
from solver.errors import NotationError, RulesError


@lru_cache(maxsize=1 << 16)
def _holding(mask: int) -> str:
    return format_holding(mask)


@dataclass
class FlatTree:
    """An optimal trick tree as flat lists, built by a game's compiled core.

    Nodes are numbered in breadth-first order of discovery (0 is the root); node ``i``
    has the key ``keys[i]``, the points ``value0[i]`` / ``value1[i]`` of side 0 / 1 from
    there, the seat ``mover[i]`` and side ``side[i]`` to move (-1 once the play is
    over), its ``depth`` and its ``critical`` flag; its legal cards are
    ``move_card[move_start[i]:move_start[i + 1]]`` in ascending order, with the mover's
    side's points ``move_value`` (none for a finished position). Edge ``j`` goes from
    node ``edge_u[j]`` to ``edge_v[j]`` by ``edge_card[j]``, worth ``edge_value[j]`` to
    the mover's side, losing ``edge_loss[j]``; it completes a trick won by seat
    ``edge_won[j]`` (-1 if none) worth ``edge_points[j]``; ``edge_cards[j]`` is the
    card's class of equivalent cards, strongest first (only with ``per_class``).
    Edges are in the order of their parent, then the order of
    :meth:`Game.equivalence_classes`. ``complete`` is False when the tree has more
    nodes than allowed (the lists are then empty).
    """

    complete: bool
    keys: list[str] = field(default_factory=list)
    value0: list[int] = field(default_factory=list)
    value1: list[int] = field(default_factory=list)
    mover: list[int] = field(default_factory=list)
    side: list[int] = field(default_factory=list)
    depth: list[int] = field(default_factory=list)
    critical: list[int] = field(default_factory=list)
    move_start: list[int] = field(default_factory=list)
    move_card: list[int] = field(default_factory=list)
    move_value: list[int] = field(default_factory=list)
    edge_u: list[int] = field(default_factory=list)
    edge_v: list[int] = field(default_factory=list)
    edge_card: list[int] = field(default_factory=list)
    edge_value: list[int] = field(default_factory=list)
    edge_loss: list[int] = field(default_factory=list)
    edge_won: list[int] = field(default_factory=list)
    edge_points: list[int] = field(default_factory=list)
    edge_cards: list[list[int]] | None = None


class Game:
    """The interface every game adapter follows (see the module docstring).

    Attributes:
        name: the game's name on the command line.
        sides: labels of the two sides, side 0 first.
    """

    name: str = ""
    sides: tuple[str, str] = ("", "")

    # ---------------------------------------------------------------- reading
    def parse_position(self, text: str) -> Any:
        """Read a play position in the game's notation."""
        raise NotImplementedError

    def parse_start(self, text: str) -> Any:
        """Read a position, or a deal with a fixed contract, as the start of a review."""
        raise NotImplementedError

    def key(self, position: Any) -> str:
        """The canonical text of a position (equal to ``str(position)``)."""
        return str(position)

    # ---------------------------------------------------------------- play
    def seat_label(self, seat: int) -> str:
        """The text of a seat."""
        return str(seat)

    def side_of(self, position: Any, seat: int) -> int:
        """The side (0 or 1) a seat plays for."""
        raise NotImplementedError

    def mover_side(self, position: Any) -> int:
        """The side of the player to move."""
        return self.side_of(position, position.to_move)

    def step(self, position: Any, card: int) -> tuple[Any, int | None, int]:
        """Play a legal card: the new position, the trick's winner (or None), its points."""
        return position.step(card)

    def points_left(self, position: Any) -> int:
        """Points still to be won from here, the unfinished trick included."""
        return position.points_left()

    # ---------------------------------------------------------------- values
    def move_values(self, position: Any) -> dict[int, int]:
        """For each legal card, the points of the mover's side from here if he plays it."""
        raise NotImplementedError

    def value(self, position: Any) -> tuple[int, int]:
        """Points (side 0, side 1) taken from here under optimal play."""
        raise NotImplementedError

    def values(self, positions: Sequence[Any]) -> list[tuple[int, int]]:
        """The :meth:`value` of many positions (games may batch this)."""
        return [self.value(p) for p in positions]

    def optimal_flat(self, position: Any, per_class: bool, max_nodes: int) -> FlatTree | None:
        """The optimal tree from ``position`` in one compiled call, or None if the game
        has no such fast path (trees are then built move by move)."""
        return None

    def value_from_moves(self, position: Any, moves: dict[int, int]) -> tuple[int, int]:
        """The node value implied by the values of its legal cards."""
        total = self.points_left(position)
        if not moves:
            return (0, 0)
        best = max(moves.values())
        side = self.mover_side(position)
        return (best, total - best) if side == 0 else (total - best, best)

    # ---------------------------------------------------------------- equivalence
    def power(self, position: Any, card: int) -> int:
        """Order of a card within its suit for winning tricks (higher wins)."""
        raise NotImplementedError

    def card_points(self, position: Any, card: int) -> int:
        """Points of a card in this position (the trump matters in Klabberjass)."""
        raise NotImplementedError

    def cards_in_play(self, position: Any) -> int:
        """Every card still held or lying in the unfinished trick, as a set."""
        raise NotImplementedError

    def cards_of_seat(self, position: Any, seat: int) -> int:
        """Every card a seat still holds, as a set."""
        raise NotImplementedError

    def equivalence_classes(self, position: Any, cards: Sequence[int]) -> list[list[int]]:
        """Split cards of the mover into classes of equivalent cards.

        Two cards are equivalent when they are of one suit, worth the same points and
        no card held by another seat or lying in the trick ranks between them: playing
        either gives the same result, so double-dummy play never separates them.
        """
        mover = position.to_move
        others = self.cards_in_play(position) & ~self.cards_of_seat(position, mover)
        classes: list[list[int]] = []
        by_suit: dict[int, list[int]] = {}
        for c in cards:
            by_suit.setdefault(suit_of(c), []).append(c)
        for suit, group in sorted(by_suit.items()):
            group.sort(key=lambda c: -self.power(position, c))
            blockers = [self.power(position, c) for c in cards_of(others & suit_mask(suit))]
            current = [group[0]]
            for c in group[1:]:
                prev = current[-1]
                hi, lo = self.power(position, prev), self.power(position, c)
                touching = not any(lo < b < hi for b in blockers)
                same = self.card_points(position, c) == self.card_points(position, prev)
                if touching and same:
                    current.append(c)
                else:
                    classes.append(current)
                    current = [c]
            classes.append(current)
        return classes


# ====================================================================== Klabberjass


class KlabberjassGame(Game):
    """Klabberjass: sides ``E`` and ``D`` (a side is a seat).

    Args:
        rules: the rules (only the last-trick bonus matters to card play).
    """

    name = "klabberjass"
    sides = ("E", "D")

    def __init__(self, rules: Any = None) -> None:
        from solver.klabberjass import SEED, card_points, card_power

        self.rules = rules if rules is not None else SEED
        self._card_points = card_points
        self._card_power = card_power
        # Points of an 8-bit rank field (ranks 7..A, bit 0 = the 7) of a plain / trump suit.
        self._plain = [
            sum(card_points(5 + i, 1) for i in range(8) if f >> i & 1) for f in range(256)
        ]
        self._trump = [
            sum(card_points(5 + i, 0) for i in range(8) if f >> i & 1) for f in range(256)
        ]
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

    def _mask_points(self, mask: int, trump: int) -> int:
        total = 0
        for s in range(4):
            f = mask >> (16 * s + 5) & 0xFF
            if f:
                total += (self._trump if s == trump else self._plain)[f]
        return total

    def parse_position(self, text: str) -> Any:
        from solver.klabberjass import Position

        return Position.parse(text)

    def parse_start(self, text: str) -> Any:
        """A position, or a deal with ``trump=`` (E leads the first trick).

        Raises:
            NotationError: unreadable text, or a deal without ``trump=``.
        """
        from solver.klabberjass import Position
        from solver.klabberjass.deal import Deal

        fields = {tok.partition("=")[0] for tok in text.split()}
        if "lead" in fields or "turn" not in fields:
            return Position.parse(text)
        deal = Deal.parse(text)
        if deal.trump is None:
            raise NotationError(f'a deal to play needs trump=<suit> in "{text}"')
        return Position(deal.trump, 0, deal.hands)

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
        from solver.klabberjass import Position, trick_winner

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
        winner = (position.lead, mover)[trick_winner(lead_card, card, trump)]
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
        return self._mask_points(cards, position.trump) + self.rules.last_trick

    def _args(self, position: Any) -> tuple[int, int, int, int, int, int]:
        trick = -1 if position.trick is None else position.trick
        h = position.hands
        return (h[0], h[1], position.trump, position.lead, trick, self.rules.last_trick)

    def move_values(self, position: Any) -> dict[int, int]:
        from solver.klabberjass.engine import klabberjass_core

        if position.is_over:
            return {}
        mover = position.to_move
        total = self.points_left(position)
        pairs = klabberjass_core().moves(*self._args(position))
        out = {c: (e if mover == 0 else total - e) for c, e in pairs}
        return dict(sorted(out.items()))

    def value(self, position: Any) -> tuple[int, int]:
        from solver.klabberjass.engine import klabberjass_core

        if position.is_over:
            return (0, 0)
        e = klabberjass_core().value(*self._args(position))
        return (e, self.points_left(position) - e)

    def values(self, positions: Sequence[Any]) -> list[tuple[int, int]]:
        from solver.klabberjass.engine import klabberjass_values

        es = klabberjass_values(positions, self.rules)
        return [(e, self.points_left(p) - e) for e, p in zip(es, positions, strict=True)]

    def optimal_flat(self, position: Any, per_class: bool, max_nodes: int) -> FlatTree | None:
        from solver.klabberjass.engine import klabberjass_core

        raw = klabberjass_core().optimal_tree(*self._args(position), per_class, max_nodes)
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
        return self._card_power(card, position.trump)

    def card_points(self, position: Any, card: int) -> int:
        return self._card_points(card, position.trump)

    def cards_in_play(self, position: Any) -> int:
        cards = position.hands[0] | position.hands[1]
        return cards | (1 << position.trick if position.trick is not None else 0)

    def cards_of_seat(self, position: Any, seat: int) -> int:
        return position.hands[seat]


# ====================================================================== Carabin


class CarabinGame(Game):
    """Carabin: sides ``bidder`` and ``others`` (every seat but the bidder)."""

    name = "carabin"
    sides = ("bidder", "others")

    def parse_position(self, text: str) -> Any:
        from solver.carabin import Position

        return Position.parse(text)

    def parse_start(self, text: str) -> Any:
        """A position, or a deal with ``trump=`` and ``bidder=`` (seat 0 leads).

        Raises:
            NotationError: unreadable text, or a deal without trump or bidder.
        """
        from solver.carabin import Deal, Position

        fields = {tok.partition("=")[0] for tok in text.split()}
        if "lead" in fields or "turn" not in fields:
            return Position.parse(text)
        deal = Deal.parse(text)
        if deal.trump is None or deal.bidder is None:
            raise NotationError(f'a deal to play needs trump=<suit> and bidder=<seat> in "{text}"')
        return deal.position(deal.bidder, deal.trump)

    def side_of(self, position: Any, seat: int) -> int:
        return 0 if seat == position.bidder else 1

    def move_values(self, position: Any) -> dict[int, int]:
        from solver.carabin.engine import carabin_move_values

        return carabin_move_values(position)

    def value(self, position: Any) -> tuple[int, int]:
        from solver.carabin.engine import carabin_value

        b = carabin_value(position)
        return (b, position.points_left() - b)

    def power(self, position: Any, card: int) -> int:
        return rank_of(card)

    def card_points(self, position: Any, card: int) -> int:
        from solver.carabin import card_points

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


GAMES = ("klabberjass", "carabin")


def get_game(name: str, rules: str | Any = None) -> Game:
    """The adapter of a game by name.

    Args:
        name: ``klabberjass`` or ``carabin``.
        rules: Klabberjass rules, a preset name or a ``Rules`` value (default ``seed``).

    Raises:
        RulesError: an unknown game or rules preset.
    """
    if name == "klabberjass":
        if isinstance(rules, str):
            from solver.klabberjass import Rules

            rules = Rules.preset(rules)
        return KlabberjassGame(rules)
    if name == "carabin":
        return CarabinGame()
    raise RulesError(f"unknown game '{name}' (expected one of: {', '.join(GAMES)})")
