"""The Klabberjass engine: exact double-dummy values from the compiled core.

The same functions as :mod:`solver.carabin.engine`: :func:`solve`, :func:`value`,
:func:`values` (a batch in one compiled call), :func:`move_values`, :func:`make`,
:func:`all_tricks` and :func:`core`. Side 0 is E.

>>> from solver.klabberjass import Position
>>> r = solve(Position.parse("trump=H lead=E E=A.7.. D=K.8.."), moves=True)
>>> r.points, r.best, r.pv, r.moves
((25, 0), 7H, (7H, 8H, KS, AS), {AS: 15, 7H: 25})
"""

from __future__ import annotations

import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from solver.cards import CARDS, Card, card_str, cards_of, in_notation_order
from solver.contexts import Contexts
from solver.errors import UsageError
from solver.klabberjass import _core as _klabberjass
from solver.klabberjass.position import Position
from solver.klabberjass.rules import (
    PLAIN_POWER,
    PLAIN_RANK_POINTS,
    SEED,
    TRUMP_POWER,
    TRUMP_RANK_POINTS,
    Rules,
    beats,
    legal_replies,
)

DEFAULT_TT_MB = 32


def _new_core(megabytes: int) -> _klabberjass.Core:
    return _klabberjass.Core(
        megabytes,
        plain_power=PLAIN_POWER,
        trump_power=TRUMP_POWER,
        plain_points=PLAIN_RANK_POINTS,
        trump_points=TRUMP_RANK_POINTS,
    )


_contexts = Contexts(_new_core, DEFAULT_TT_MB)


def core(tt_mb: int | None = None) -> _klabberjass.Core:
    """The calling thread's Klabberjass search context with a ``tt_mb`` MB transposition
    table.

    In each thread the default context and the context of the last size asked
    are kept (:class:`solver.contexts.Contexts`: threads never share a table): a table
    stays valid across positions (entries are keyed on trump, leader and both hands),
    so later solves reuse earlier work. The core plays by the card tables of
    :mod:`solver.klabberjass.rules`.
    """
    return _contexts.get(tt_mb)


@dataclass(frozen=True)
class Result:
    """The double-dummy answer for one Klabberjass position.

    Attributes:
        position: the position solved.
        points: points (E, D) each seat takes from here, unfinished trick included.
        best: an optimal card for the player to move (None if the play is over).
        pv: a principal variation, every card to the end of the play.
        moves: for each legal card, the points the player to move takes with it
            (only when asked for).
        exact: False when a time limit stopped the search before it finished:
            ``points`` are then what each seat is proven to take at least (the full
            search is a single one, so that is 0 and 0), ``best`` None and ``pv`` empty.
    """

    position: Position
    points: tuple[int, int]
    best: Card | None
    pv: tuple[Card, ...]
    moves: dict[int, int] | None = None
    exact: bool = True
    total: int | None = None

    def to_json(self) -> dict:
        """The JSON object of ``tricklab solve`` (docs/cli.md); when not exact the points
        are ``[lo, hi]`` ranges and ``"exact": false``."""
        points: dict = {"E": self.points[0], "D": self.points[1]}
        if not self.exact:
            total = self.total if self.total is not None else sum(self.points)
            e, d = self.points
            points = {"E": [e, total - d], "D": [d, total - e]}
        out: dict = {
            "points": points,
            "best": card_str(self.best) if self.best is not None else None,
            "pv": [card_str(c) for c in self.pv],
        }
        if not self.exact:
            out["exact"] = False
        if self.moves is not None:
            out["moves"] = {card_str(c): v for c, v in self.moves.items()}
        return out


def _checked(position: object) -> Position:
    """``position`` if it is a Klabberjass Position.

    Raises:
        UsageError: anything else (a text: parse it with ``Position.parse``).
    """
    if not isinstance(position, Position):
        raise UsageError(
            f"expected a Klabberjass Position, not {type(position).__name__} {position!r:.80} "
            "(read a text with Position.parse)"
        )
    return position


def _args(position: Position, rules: Rules) -> tuple[int, int, int, int, int, int]:
    _checked(position)
    trick = -1 if position.trick is None else position.trick
    return (
        position.hands[0],
        position.hands[1],
        position.trump,
        position.lead,
        trick,
        rules.last_trick,
    )


def value(position: Position, rules: Rules = SEED, *, tt_mb: int | None = None) -> int:
    """E's exact points from ``position`` on (the fastest call: value only)."""
    return core(tt_mb).value(*_args(position, rules))


def values(
    positions: Sequence[Position] | Iterable[Position],
    rules: Rules = SEED,
    *,
    tt_mb: int | None = None,
) -> list[int]:
    """E's exact points for many positions in one compiled call (the GIL is released);
    the same as :func:`value` on each."""
    positions = [_checked(p) for p in positions]
    n = len(positions)
    e = array.array("Q", (p.hands[0] for p in positions))
    d = array.array("Q", (p.hands[1] for p in positions))
    trump = array.array("b", (p.trump for p in positions))
    lead = array.array("b", (p.lead for p in positions))
    trick = array.array("b", (-1 if p.trick is None else p.trick for p in positions))
    out = array.array("i", bytes(4 * n))
    if n:
        core(tt_mb).values(e, d, trump, lead, trick, rules.last_trick, out)
    return list(out)


def move_values(
    position: Position, rules: Rules = SEED, *, tt_mb: int | None = None
) -> dict[int, int]:
    """For each legal card (in notation order), the points the player to move takes
    from here with it."""
    mover = _checked(position).to_move
    total = position.points_left(rules)
    out = {}
    for card, e_points in core(tt_mb).moves(*_args(position, rules)):
        out[card] = e_points if mover == 0 else total - e_points
    ordered: dict[int, int] = {c: out[c] for c in in_notation_order(out)}
    return ordered


def make(position: Position, target: int, rules: Rules = SEED, *, tt_mb: int | None = None) -> bool:
    """Whether E takes at least ``target`` points from here."""
    return target <= 0 or value(position, rules, tt_mb=tt_mb) >= target


def solve(
    position: Position,
    rules: Rules = SEED,
    moves: bool = False,
    *,
    tt_mb: int | None = None,
    time_limit: float | None = None,
) -> Result:
    """Solve a Klabberjass position exactly (double dummy).

    Args:
        position: any play position, an unfinished trick included.
        rules: the rules (only the last-trick bonus matters to card play).
        moves: also give the value of every legal card.
        tt_mb: transposition table size in MB (default 32).
        time_limit: seconds; a search not finished by then gives ``exact`` False (see
            :class:`Result`). A whole deal takes milliseconds.

    Returns:
        Points of both seats from here, an optimal card and a principal variation.

    Raises:
        UsageError: ``tt_mb`` is not a whole number from 1 to
            :func:`solver.limits.max_tt_mb`, or the table cannot be allocated.
        KeyboardInterrupt: the search was interrupted (Ctrl-C).
    """
    if time_limit is not None:
        engine_core = core(tt_mb)
        engine_core.set_time_limit(time_limit)
        try:
            return solve(position, rules, moves, tt_mb=tt_mb)
        except TimeoutError:
            total = position.points_left(rules)
            return Result(position, (0, 0), None, (), None, exact=False, total=total)
        finally:
            engine_core.set_time_limit(None)
    e_points, pv = core(tt_mb).pv(*_args(position, rules))
    total = position.points_left(rules)
    line = tuple(CARDS[c] for c in pv)
    return Result(
        position=position,
        points=(e_points, total - e_points),
        best=line[0] if line else None,  # type: ignore[arg-type]
        pv=line,  # type: ignore[arg-type]
        moves=move_values(position, rules, tt_mb=tt_mb) if moves else None,
    )


def all_tricks(position: Position, side: int) -> bool:
    """Whether ``side`` (0 = E, 1 = D) can win every remaining trick.

    The unfinished trick counts; a trick of no points counts as much as any other, so
    this is not the same question as taking every point. An exact search memoised on
    the hands, the leader and the card led (quick for up to six cards a hand).

    >>> all_tricks(Position.parse("trump=H lead=E E=A.J.. D=K.7.."), 0)
    True
    >>> all_tricks(Position.parse("trump=H lead=E E=7.J.. D=8.7.."), 0)
    False
    """
    if _checked(position).is_over:
        return True
    if side not in (0, 1):
        raise UsageError(f"invalid side {side!r} (0 for E or 1 for D)")
    trick = -1 if position.trick is None else position.trick
    e, d = position.hands
    return _sweep(e, d, position.trump, position.lead, trick, side)


@lru_cache(maxsize=1 << 20)
def _sweep(e: int, d: int, trump: int, lead: int, trick: int, seat: int) -> bool:
    hands = (e, d)
    if trick < 0:
        if not (e | d):
            return True
        results = (
            _sweep(e & ~(1 << c), d, trump, lead, c, seat)
            if lead == 0
            else _sweep(e, d & ~(1 << c), trump, lead, c, seat)
            for c in cards_of(hands[lead])
        )
        return any(results) if lead == seat else all(results)
    mover = 1 - lead
    out = []
    for c in cards_of(legal_replies(hands[mover], trick, trump)):
        winner = (lead, mover)[beats(c, trick, trump)]
        if winner != seat:
            out.append(False)
        else:
            rest = (e & ~(1 << c), d) if mover == 0 else (e, d & ~(1 << c))
            out.append(_sweep(rest[0], rest[1], trump, winner, -1, seat))
        if (mover == seat) == out[-1]:  # a winning card found / a defence that wins
            return out[-1]
    return mover != seat


__all__ = [
    "DEFAULT_TT_MB",
    "Result",
    "all_tricks",
    "core",
    "make",
    "move_values",
    "solve",
    "value",
    "values",
]
