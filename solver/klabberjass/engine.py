"""Public solving functions: validate, convert, dispatch to the compiled cores.

>>> from solver.klabberjass import Position
>>> r = solve_klabberjass(Position.parse("trump=H lead=E E=A... D=K..."))
>>> r.points, card_str(r.best)
((25, 0), 'AS')
"""

from __future__ import annotations

import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from solver.cards import card_str
from solver.klabberjass import _core as _klabberjass
from solver.klabberjass.position import Position
from solver.klabberjass.rules import (
    PLAIN_POWER,
    PLAIN_RANK_POINTS,
    SEATS,
    SEED,
    TRUMP_POWER,
    TRUMP_RANK_POINTS,
    Rules,
)

DEFAULT_TT_MB = 32

_cores: dict[int, _klabberjass.Core] = {}


def klabberjass_core(tt_mb: int | None = None) -> _klabberjass.Core:
    """The shared Klabberjass search context with a ``tt_mb`` MB transposition table.

    One context per size is kept for the life of the process: its table stays valid
    across positions (entries are keyed on trump, leader and both hands), so later
    solves reuse earlier work. The core plays by the card tables of
    :mod:`solver.klabberjass.rules`.
    """
    size = DEFAULT_TT_MB if tt_mb is None else tt_mb
    core = _cores.get(size)
    if core is None:
        core = _cores[size] = _klabberjass.Core(
            size,
            plain_power=PLAIN_POWER,
            trump_power=TRUMP_POWER,
            plain_points=PLAIN_RANK_POINTS,
            trump_points=TRUMP_RANK_POINTS,
        )
    return core


@dataclass(frozen=True)
class KlabberjassResult:
    """The double-dummy answer for one Klabberjass position.

    Attributes:
        position: the position solved.
        points: points (E, D) each seat takes from here, unfinished trick included.
        best: an optimal card for the player to move (None if the play is over).
        pv: a principal variation, every card to the end of the play.
        moves: for each legal card, the points the player to move takes with it
            (only when asked for).
    """

    position: Position
    points: tuple[int, int]
    best: int | None
    pv: tuple[int, ...]
    moves: dict[int, int] | None = None

    def to_json(self) -> dict:
        """The SPEC §4 JSON object."""
        out: dict = {
            "points": {"E": self.points[0], "D": self.points[1]},
            "best": card_str(self.best) if self.best is not None else None,
            "pv": [card_str(c) for c in self.pv],
        }
        if self.moves is not None:
            out["moves"] = {card_str(c): v for c, v in self.moves.items()}
        return out


def _args(position: Position, rules: Rules) -> tuple[int, int, int, int, int, int]:
    trick = -1 if position.trick is None else position.trick
    return (
        position.hands[0],
        position.hands[1],
        position.trump,
        position.lead,
        trick,
        rules.last_trick,
    )


def klabberjass_value(position: Position, rules: Rules = SEED, tt_mb: int | None = None) -> int:
    """E's exact points from ``position`` on (the fastest call: value only)."""
    return klabberjass_core(tt_mb).value(*_args(position, rules))


def klabberjass_move_values(
    position: Position, rules: Rules = SEED, tt_mb: int | None = None
) -> dict[int, int]:
    """For each legal card, the points the player to move takes from here with it."""
    mover = position.to_move
    total = position.points_left(rules)
    out = {}
    for card, e_points in klabberjass_core(tt_mb).moves(*_args(position, rules)):
        out[card] = e_points if mover == 0 else total - e_points
    return dict(sorted(out.items()))


def solve_klabberjass(
    position: Position, rules: Rules = SEED, moves: bool = False, tt_mb: int | None = None
) -> KlabberjassResult:
    """Solve a Klabberjass position exactly (double dummy).

    Args:
        position: any play position, an unfinished trick included.
        rules: the rules (only the last-trick bonus matters to card play).
        moves: also give the value of every legal card.
        tt_mb: transposition table size in MB (default 32).

    Returns:
        Points of both seats from here, an optimal card and a principal variation.
    """
    core = klabberjass_core(tt_mb)
    e_points, pv = core.pv(*_args(position, rules))
    total = position.points_left(rules)
    move_values = klabberjass_move_values(position, rules, tt_mb) if moves else None
    return KlabberjassResult(
        position=position,
        points=(e_points, total - e_points),
        best=pv[0] if pv else None,
        pv=tuple(pv),
        moves=move_values,
    )


def klabberjass_values(
    positions: Sequence[Position] | Iterable[Position],
    rules: Rules = SEED,
    tt_mb: int | None = None,
) -> list[int]:
    """E's exact points for many positions in one compiled call (the GIL is released)."""
    positions = list(positions)
    n = len(positions)
    e = array.array("Q", (p.hands[0] for p in positions))
    d = array.array("Q", (p.hands[1] for p in positions))
    trump = array.array("b", (p.trump for p in positions))
    lead = array.array("b", (p.lead for p in positions))
    trick = array.array("b", (-1 if p.trick is None else p.trick for p in positions))
    out = array.array("i", bytes(4 * n))
    if n:
        klabberjass_core(tt_mb).values(e, d, trump, lead, trick, rules.last_trick, out)
    return list(out)


__all__ = [
    "KlabberjassResult",
    "SEATS",
    "klabberjass_core",
    "klabberjass_move_values",
    "klabberjass_value",
    "klabberjass_values",
    "solve_klabberjass",
]
