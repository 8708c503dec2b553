"""Slow, obviously correct minimax solvers used to check the fast engines.

Plain minimax with a memo dict over whole positions; no pruning, no ordering.
"""

from __future__ import annotations

from functools import cache

from solver.klabberjass import SEED, Position, Rules


def klabberjass_points(position: Position, rules: Rules = SEED) -> tuple[int, int]:
    """Points (E, D) each seat takes from ``position`` on under optimal play.

    Each seat maximises its own card points plus the last-trick bonus; the unfinished
    trick counts for whoever wins it.
    """

    @cache
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


# ----------------------------------------------------------------------------- Carabin
from solver import carabin as _carabin  # noqa: E402


def carabin_points(position: _carabin.Position) -> tuple[int, int]:
    """Points (bidder, others) taken from ``position`` on under optimal play.

    The bidder maximises his points, every other seat minimises them; the unfinished
    trick counts for whoever wins it.
    """

    @cache
    def value(p: _carabin.Position) -> int:
        if p.is_over:
            return 0
        values = []
        for card in p.legal_moves():
            nxt, winner, pts = p.step(card)
            values.append(value(nxt) + (pts if winner == p.bidder else 0))
        return max(values) if p.to_move == p.bidder else min(values)

    b = value(position)
    return b, position.points_left() - b


def carabin_all_tricks(position: _carabin.Position) -> bool:
    """True if the bidder can win every remaining trick (the unfinished one included)."""

    @cache
    def wins_all(p: _carabin.Position) -> bool:
        if p.is_over:
            return True
        results = []
        for card in p.legal_moves():
            nxt, winner, _ = p.step(card)
            results.append(winner in (None, p.bidder) and wins_all(nxt))
        return any(results) if p.to_move == p.bidder else all(results)

    return wins_all(position)


def carabin_moves(position: _carabin.Position) -> dict[int, int]:
    """For each legal card, the points of the mover's side (bidder or the others) from
    here if he plays it."""
    side = int(position.to_move != position.bidder)
    out = {}
    for card in position.legal_moves():
        nxt, winner, pts = position.step(card)
        gained = pts if winner is not None and (winner != position.bidder) == bool(side) else 0
        out[card] = carabin_points(nxt)[side] + gained
    return out
