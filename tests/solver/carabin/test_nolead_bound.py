"""The no-lead bound of the Carabin core (cb_nolead_bound in _core.h) changes no answer.

From 5 players, at a trick boundary where the world to play (X) has three tricks or more
and one more than the other (Y), and where the bidder can avoid taking any trick of Y,
the core takes as a lower bound X's single-world game in which he never leads again; it
also values the deep look-ahead's leaves so. Its two games are new variants of the
single-world games (CB_NOBID, CB_NOWIN, also solved on lanes at two cards a hand), so
these tests compare every answer with and without it, on boundaries of the shapes where
it is taken and on whole deals, its games on lanes with their search, and check what it
does to the slowest make/fail probe of fifteen 6-player samples.
"""

from __future__ import annotations

import random
from contextlib import AbstractContextManager

from hypothesis import given, settings
from hypothesis import strategies as st

from solver import carabin
from solver.carabin import Deal
from solver.carabin import engine as carabin_engine
from tests.solver.carabin.test_deep_look_ahead import tricks_in
from tests.solver.carabin.test_engine import _bench_start
from tests.solver.carabin.test_world_bounds import check_same_answers, check_same_probes, switched


def nolead(on: bool, after: int | None = 0) -> AbstractContextManager:
    """The shared core with the no-lead bound on or off, the single-world bounds (which
    it comes with) from node ``after`` (None: the core's default), its table cleared."""
    return switched("set_nolead_bound", on, after)


def test_boundaries_three_tricks_in_get_the_same_answers_with_and_without_it():
    """80 five- and six-player boundaries three tricks in (three cards a hand of the world
    to play, two of the other): the exact value, and the make probe at every target."""
    rng = random.Random(41)
    for i in range(80):
        check_same_probes(tricks_in(rng, 5 + i % 2), lambda: nolead(False), lambda: nolead(True))


def test_boundaries_two_and_one_tricks_in_get_the_same_answers():
    """30 five- and six-player boundaries two tricks in and 10 one trick in, whose
    searches and deep look-aheads reach boundaries of its shape."""
    rng = random.Random(43)
    for i in range(40):
        p = tricks_in(rng, 5 + i % 2, 2 if i < 30 else 1)
        check_same_probes(p, lambda: nolead(False), lambda: nolead(True))


def test_its_games_on_lanes_agree_with_their_search():
    """Its games of two cards a hand are solved on lanes (cb_world2), its others by
    search; with the lanes off every game is searched. 40 five- and six-player boundaries
    three tricks in: the same answers either way, with the bound."""
    rng = random.Random(53)
    for i in range(40):
        p = tricks_in(rng, 5 + i % 2)
        core = carabin_engine.core(None, p.players)
        with nolead(True):
            expected = carabin.value(p), [carabin.make(p, t) for t in range(p.points_left() + 2)]
        with nolead(True):
            core.set_lanes(False)
            try:
                core.clear()
                got = carabin.value(p), [carabin.make(p, t) for t in range(p.points_left() + 2)]
            finally:
                core.set_lanes(True)
                core.clear()
        assert got == expected, str(p)


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10**6), st.integers(5, 6), st.integers(0, 5), st.integers(0, 3))
def test_five_and_six_player_deals_get_the_same_answers_with_and_without_it(
    seed, players, bidder, trump
):
    start = Deal.random(seed=seed, players=players).position(bidder=bidder % players, trump=trump)
    check_same_answers(start, lambda: nolead(False, None), lambda: nolead(True, None))


def test_it_cuts_the_slowest_six_player_make_probe_of_fifteen_seeds():
    """Deal #29 of seed 3114 at 6 players, a make/fail probe the bidder makes (19 of 36):
    53.5 M nodes without the bound, 26.9 M with it; asserted: under two thirds (node
    counts do not depend on the machine; the core's default table, as the bench's)."""
    start = _bench_start(3114, 29, players=6)
    target = start.points_left() // 2 + 1
    core = carabin_engine.core(None, 6)
    nodes, answers = {}, {}
    for on in (False, True):
        with nolead(on, None):
            before = core.nodes
            answers[on] = carabin.make(start, target)
            nodes[on] = core.nodes - before
    assert answers[True] is answers[False] is True
    assert 3 * nodes[True] < 2 * nodes[False], nodes
