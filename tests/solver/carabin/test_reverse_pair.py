"""The coupled bound's reverse pair (cb_coupled_bound in _core.h) changes no answer.

At a trick boundary with tricks alternating, the coupled bound adds to the first pair
(the game of the world to play in which the coalition leads after every trick it took
there, plus the other world's ducking game) the reverse one: the world to play's ducking
game plus the other world's game in which the coalition leads after every trick it took
there (its first trick led by a seat of the coalition where one leads the trick to play
and the bidder ducks it). These tests check that the bound never exceeds the exact value
at boundaries of every shape where it applies, that the reverse pair is sometimes the
larger, that answers are the same with and without it, what it does to a slow
five-player search, and that at 6 players a grown search takes it at the first trick's
boundary.
"""

from __future__ import annotations

import random
from contextlib import AbstractContextManager

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import carabin
from solver.carabin import Deal
from solver.carabin import engine as carabin_engine
from tests.solver.carabin.test_deep_look_ahead import tricks_in
from tests.solver.carabin.test_engine import _bench_start
from tests.solver.carabin.test_world_bounds import (
    _boundary,
    check_same_answers,
    check_same_probes,
    switched,
    world_bounds,
)


def reverse(on: bool, after: int | None = 0) -> AbstractContextManager:
    """The shared core with the reverse pair on or off, the single-world bounds (which it
    comes with) from node ``after`` (None: the core's default), its table cleared."""
    return switched("set_reverse_pair", on, after)


def _coupled(p: carabin.Position, on: bool) -> int | None:
    """The coupled bound at boundary p, with the reverse pair or without."""
    core = carabin_engine.core()
    core.set_reverse_pair(on)
    try:
        return core.world_bounds(*carabin_engine._args(p)[:7])[1]
    finally:
        core.set_reverse_pair(True)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(3, 6), st.integers(0, 4))
def test_the_coupled_bound_with_it_never_exceeds_the_value(seed, players, tricks):
    """Boundaries from the first trick to four tricks in (where the other world still has
    two tricks: the reverse pair applies from there), against the exact value by the
    search without any single-world bound; the first two tricks only at 3-4 players,
    whose whole deals are cheap to solve."""
    if players >= 5 and tricks < 2:
        tricks += 2
    p = _boundary(random.Random(seed), players, tricks)
    coupled = _coupled(p, True)
    with world_bounds(0):
        value = carabin.value(p)
    assert coupled is None or coupled <= value, (str(p), coupled, value)


def test_the_reverse_pair_is_often_the_larger():
    """Over 120 random boundaries one to four tricks in (4-6 players), the bound with the
    reverse pair is never below the one without, above it at many, and never above the
    exact value."""
    rng = random.Random(7)
    above = 0
    for i in range(120):
        players = 4 + i % 3
        p = _boundary(rng, players, 1 + (i // 3) % 4 if players == 4 else 2 + (i // 3) % 3)
        without, with_ = _coupled(p, False), _coupled(p, True)
        assert without is None or (with_ is not None and with_ >= without), str(p)
        if with_ is not None and (without is None or with_ > without):
            above += 1
            with world_bounds(0):
                assert with_ <= carabin.value(p), str(p)
    assert above >= 20, above


def test_boundaries_one_to_three_tricks_in_get_the_same_answers_with_and_without_it():
    """60 four- to six-player boundaries: the exact value, and the make probe at every
    target."""
    rng = random.Random(61)
    for i in range(60):
        p = tricks_in(rng, 4 + i % 3, 3 - (i // 3) % 3 if i % 3 == 0 else 2 + (i // 3) % 2)
        check_same_probes(p, lambda: reverse(False), lambda: reverse(True))


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10**6), st.integers(4, 6), st.integers(0, 5), st.integers(0, 3))
def test_whole_deals_get_the_same_answers_with_and_without_it(seed, players, bidder, trump):
    start = Deal.random(seed=seed, players=players).position(bidder=bidder % players, trump=trump)
    check_same_answers(start, lambda: reverse(False, None), lambda: reverse(True, None))


def test_the_switch_refuses_what_is_not_a_bool() -> None:
    with pytest.raises(ValueError, match="True or False"):
        carabin_engine.core().set_reverse_pair(1)  # type: ignore[arg-type]


def test_it_cuts_a_slow_five_player_search():
    """Deal #145 of seed 3101 at 5 players (`tricklab bench carabin --players 5 --seed
    3101`), exact value: 3.7 M nodes without the reverse pair, 1.2 M with it (core alone,
    128 MB); since the deep look-ahead's graphs (cb_deep_shape), 2.04 M and 1.16 M.
    Asserted: under 60%, the same value (node counts do not depend on the machine; the
    core's default table, as the bench's)."""
    start = _bench_start(3101, 145, players=5)
    core = carabin_engine.core(None, 5)
    nodes, values = {}, {}
    for on in (False, True):
        with reverse(on, None):
            before = core.nodes
            values[on] = carabin.value(start)
            nodes[on] = core.nodes - before
    assert values[True] == values[False]
    assert 5 * nodes[True] < 3 * nodes[False], nodes


def test_it_settles_the_first_trick_of_a_slow_six_player_search():
    """Deal #60 of seed 3101 at 6 players: at its first trick's boundary the reverse pair
    is 8 and so is the single-world upper bound, which pins the value; the search takes
    the pair there once it has grown past a million nodes (cb_first_pair_after): 8.4 M
    nodes, against 341 M for the proof by search (core alone, 128 MB). Asserted: the
    value, under 30 M nodes, and a make probe above it failing."""
    start = _bench_start(3101, 60, players=6)
    core = carabin_engine.core(None, 6)
    plain, coupled, upper = core.world_bounds(*carabin_engine._args(start)[:7])
    assert plain < coupled == upper == 8
    core.clear()
    before = core.nodes
    assert carabin.value(start) == 8
    assert core.nodes - before < 30_000_000, core.nodes - before
    assert not carabin.make(start, 9)
