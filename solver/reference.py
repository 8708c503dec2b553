"""Slow, obviously correct minimax solvers used to check the fast engines.

Plain minimax with a memo dict over whole positions; no pruning, no ordering.
"""

from __future__ import annotations

from functools import lru_cache

from solver.klabberjass import SEED, Position, Rules


def klabberjass_points(position: Position, rules: Rules = SEED) -> tuple[int, int]:
    """Points (E, D) each seat takes from ``position`` on under optimal play.

    Each seat maximises its own card points plus the last-trick bonus; the unfinished
    trick counts for whoever wins it.
    """

    @lru_cache(maxsize=None)
    def value_e(p: Position) -> int:
        if p.is_over:
            return 0
        values = []
        for card in p.legal_moves():
            nxt, winner, pts = p.step(card, rules)
            values.append(value_e(nxt) + (pts if winner == 0 else 0))
        return max(values) if p.to_move == 0 else min(values)

    e = value_e(position)
    return e, position.points_left(rules) - e


def klabberjass_moves(position: Position, rules: Rules = SEED) -> dict[int, int]:
    """For each legal card, the points the player to move takes from here if he plays it."""
    mover = position.to_move
    out = {}
    for card in position.legal_moves():
        nxt, winner, pts = position.step(card, rules)
        out[card] = klabberjass_points(nxt, rules)[mover] + (pts if winner == mover else 0)
    return out
