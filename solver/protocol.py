"""The one game protocol: what every game offers, so that analysis is written once.

A game is an object of a subclass of :class:`Game` (``solver.klabberjass.game.Klabberjass``,
``solver.carabin.game.Carabin``; the registry is :mod:`solver.games`). It knows, for
its game: the rules, how to read positions, deals and views, the legal cards and the
result of playing one, the double-dummy engine calls, the deal table, the worlds
consistent with a view, and which of the two *sides* a seat belongs to. Klabberjass
has the sides ``E`` and ``D``; Carabin has ``bidder`` and ``others`` (every seat but
the bidder plays for the coalition).

Words used the same way for both games:

- *seat*: a player, as the game numbers him (Klabberjass 0 = E, 1 = D; Carabin 0..N-1);
  ``seat_label`` gives the game's name for it.
- *side*: 0 or 1, the two parties that share points (a Klabberjass side is a seat).
- *value*: points from here on, the unfinished trick included; a position's value is
  what each side takes under optimal play, a card's value what the mover's side takes
  from here if he plays it.
- *view*: what one player knows; a *world* is a position consistent with a view (the
  hidden hands filled in).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from solver.cards import card_str, cards_of, parse_card_list, suit_mask, suit_of
from solver.display import records_html
from solver.errors import RulesError


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


class DealTable(list):
    """The double-dummy table of one deal: its rows (a list), in both games alike.

    Each row has ``bidder`` and ``trump`` (ints), ``to_json()`` (the command line's
    row) and ``record()`` (one flat dict, seats and suits as the game names them).

    Attributes:
        deal: the deal.
        game: the game's name.
        extra: fields the game adds to the JSON object (Carabin: ``points_in_play``).
    """

    def __init__(
        self, rows: Sequence[Any], deal: Any, game: str, extra: dict | None = None
    ) -> None:
        super().__init__(rows)
        self.deal = deal
        self.game = game
        self.extra = dict(extra or {})

    def to_json(self) -> dict:
        """``{"table": [row, ...], ...}``: the command line's object for the deal."""
        return {**self.extra, "table": [row.to_json() for row in self]}

    def records(self) -> list[dict]:
        """One flat dict a row (what ``pandas.DataFrame`` takes)."""
        return [row.record() for row in self]

    def to_frame(self) -> Any:
        """The rows as a pandas DataFrame (needs pandas)."""
        import pandas as pd  # heavy and optional: only when asked for

        return pd.DataFrame.from_records(self.records())

    def _repr_html_(self) -> str:
        return self.deal._repr_html_() + records_html(self.records(), f"{self.game} deal table")


class Game:
    """The interface every game follows (see the module docstring).

    Attributes:
        name: the game's name on the command line.
        sides: labels of the two sides, side 0 first.
    """

    name: str = ""
    sides: tuple[str, str] = ("", "")

    def __init__(self, rules: Any = None) -> None:
        self.rules = rules

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
        """Play a legal card: the new position, the trick's winner (or None), its points.

        The card must be a legal :class:`~solver.cards.Card` of the position: this is the
        fast path of trees and samples, and a game may skip the check here. To play a
        card given by a caller, use :meth:`play` (or the position's ``play``), which
        checks it and raises the documented errors.
        """
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

    def optimal_flat(
        self,
        position: Any,
        per_class: bool,
        max_nodes: int,
        *,
        time_limit: float | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> FlatTree | None:
        """The optimal tree from ``position`` in one compiled call, or None if the game
        has no such fast path (trees are then built move by move).

        ``time_limit`` (seconds) and ``progress`` (called now and then with the number
        of positions found) as for :func:`analysis.trees.optimal_tree`; a game whose
        enumeration takes well under a second may ignore them. A time limit that runs
        out raises TimeoutError.
        """
        return None

    def value_from_moves(self, position: Any, moves: dict[int, int]) -> tuple[int, int]:
        """The node value implied by the values of its legal cards."""
        total = self.points_left(position)
        if not moves:
            return (0, 0)
        best = max(moves.values())
        side = self.mover_side(position)
        return (best, total - best) if side == 0 else (total - best, best)

    # ---------------------------------------------------------------- the rest of the protocol
    # Every game implements these; see the module docstring for the words.

    def parse_deal(self, text: str) -> Any:
        """Read a whole deal in the game's notation."""
        raise NotImplementedError

    def random_deal(self, seed: int | None = None, players: int | None = None) -> Any:
        """A deal dealt at random (``players`` only for games that have a choice)."""
        raise NotImplementedError

    def parse_view(self, text: str) -> Any:
        """Read what one player knows (a view); ``view.sample_worlds(n, seed)`` gives worlds."""
        raise NotImplementedError

    def legal_moves(self, position: Any) -> list[int]:
        """The legal cards of the player to move."""
        return position.legal_moves()

    def play(self, position: Any, card: int) -> Any:
        """The position after a card (a Card, its number or its notation), checked.

        Raises:
            IllegalPlayError: the card may not be played (an int that is no card included).
            NotationError: text that is not a card.
            UsageError: an argument that is not a card at all.
        """
        return position.play(card)

    def no_choice(self, position: Any, side: int) -> bool:
        """True when every turn of ``side`` from here is forced (one card in each hand)."""
        raise NotImplementedError

    def solve(self, position: Any, moves: bool = False, time_limit: float | None = None) -> Any:
        """The engine's full answer (points, best card, principal variation, ...); under
        a ``time_limit`` (seconds) that runs out, proven bounds (``exact`` False)."""
        raise NotImplementedError

    def side_move_values(self, position: Any, side: int) -> dict[int, int]:
        """For each legal card, the points ``side`` takes from here if it is played."""
        moves = self.move_values(position)
        if self.mover_side(position) == side:
            return moves
        total = self.points_left(position)
        return {c: total - v for c, v in moves.items()}

    def makes(self, position: Any, side: int, need: int) -> bool:
        """Whether ``side`` can take at least ``need`` points from here."""
        return need <= 0 or self.value(position)[side] >= need

    def reaching(self, position: Any, side: int, need: int) -> dict[int, bool]:
        """For each legal card of ``side`` (to move): does it keep ``need`` points in reach?"""
        return {c: v >= need for c, v in self.side_move_values(position, side).items()}

    def all_tricks(self, position: Any, side: int) -> bool:
        """Whether ``side`` can win every remaining trick (the unfinished one included)."""
        raise NotImplementedError

    def deal_table(
        self,
        deal: Any,
        time_limit: float | None = None,
        progress: Callable[[int, int], None] | None = None,
        workers: int = 1,
    ) -> Any:
        """The double-dummy table of a deal: one row per bidder and trump.

        Args:
            deal: the deal.
            time_limit: seconds for the whole table; rows not solved by then give
                proven bounds (``exact`` False) where the game can, else
                :class:`~solver.errors.TricklabError`.
            progress: called with (rows done, rows) as the table fills.
            workers: rows solved at once (threads, one search context each) where
                the game's rows are worth it; the rows do not depend on it.
        """
        raise NotImplementedError

    def html(self, obj: Any) -> str:
        """An HTML diagram of a position, deal or deal table (for notebooks)."""
        return obj._repr_html_()

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


# ====================================================================== views


def played_cards(fields: dict[str, str], text: str) -> tuple[int, ...]:
    value = fields.get("played", "")
    if value in ("", "-"):
        return ()
    return tuple(parse_card_list(value, text, sep=","))


def check_played_unique(played: tuple[int, ...], pack: int, where: str) -> int:
    seen = 0
    for i, c in enumerate(played, 1):
        if not pack >> c & 1:
            raise RulesError(f"played card {i} {card_str(c)} is not in the pack{where}")
        if seen >> c & 1:
            raise RulesError(f"card {card_str(c)} is played twice{where}")
        seen |= 1 << c
    return seen


@dataclass
class Inference:
    """What a view implies about the hidden hands.

    Attributes:
        position: the current position with the hidden hands empty (only the view's
            own hand, the leader and the unfinished trick are real).
        hidden: one entry per hidden hand, ``(seat, hand kind or None, size, known,
            forbidden)``: its number of cards, the cards known to be in it and the cards
            it cannot hold.
        pool: every card that may be in a hidden hand (unseen, not out of play).
        reasons: the inferences in words, in the order they were made.
    """

    position: Any
    hidden: list[tuple[int, int | None, int, int, int]]
    pool: int
    reasons: list[str] = field(default_factory=list)
