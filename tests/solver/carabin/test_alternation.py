"""Probes that alternate two orders of the coalition's cards change no answer.

At 6 players a probe of the Carabin core searches under node budgets that double every
two rounds, alternately with the coalition's cards of the first trick in the move order
and in its reverse (cb_probe in _core.h); each order finds in the table what the other
finished. Probes alternate only once they cost 100,000 nodes, so these tests also set
tiny first budgets, at every player count, under which every probe is stopped and taken
up again many times.
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
from solver.carabin._core import MAX_PLAYERS
from tests.solver.carabin.test_engine import _bench_start, check_against_reference, positions
from tests.solver.carabin.test_world_bounds import check_same_answers, check_same_probes, switched


def alternation(on: bool, budget: int | None = None) -> AbstractContextManager:
    """The shared core with alternating probes on (first budget ``budget``, None: the
    core's) or off, the single-world bounds as the core has them, its table cleared."""
    return switched("set_alternation", on, None, budget=budget)


@settings(max_examples=120, deadline=None)
@given(players=st.integers(3, MAX_PLAYERS), budget=st.sampled_from([2, 3, 40]), data=st.data())
def test_alternating_from_tiny_budgets_the_engine_matches_the_reference(players, budget, data):
    """Points, make probes, all tricks and every card's value, against the reference."""
    p = data.draw(positions(players))
    with alternation(True, budget):
        check_against_reference(p)


@settings(max_examples=12, deadline=None)
@given(
    st.integers(0, 10**6),
    st.integers(4, MAX_PLAYERS),
    st.integers(0, 5),
    st.integers(0, 3),
    st.sampled_from([2, 50, 2000]),
)
def test_full_deals_get_the_same_answers_with_and_without_it(seed, players, bidder, trump, budget):
    start = Deal.random(seed=seed, players=players).position(
        bidder=bidder % players, trump=trump, trick_order="alternate"
    )
    check_same_answers(start, lambda: alternation(False), lambda: alternation(True, budget))


def test_first_tricks_under_way_get_the_same_probes():
    """30 deals of 4 to 6 players with one to four cards of the first trick played: the
    orders alternate in the trick under way. The exact value and the make probe at
    every target."""
    rng = random.Random(47)
    for i in range(30):
        players = 4 + i % 3
        deal = Deal.random(players=players, rng=rng)
        p = deal.position(bidder=rng.randrange(players), trump=rng.randrange(4))
        for _ in range(1 + i % 4):
            p = p.play(rng.choice(p.legal_moves()))
        budget = 2 + i % 5
        check_same_probes(p, lambda: alternation(False), lambda b=budget: alternation(True, b))


@settings(max_examples=15, deadline=None)
@given(
    st.integers(0, 10**6),
    st.integers(4, 6),
    st.integers(0, 5),
    st.sampled_from([1e-4, 1e-3, 1e-2]),
)
def test_bounds_under_a_time_limit_contain_the_exact_value(seed, players, bidder, limit):
    """A time limit that stops an alternating probe stops it (the probe takes up only
    its own budgets' stops): the bounds proved by then hold, and nothing false is left
    in the table."""
    start = Deal.random(seed=seed, players=players).position(
        bidder=bidder % players, trump=seed % 4
    )
    with alternation(True, 7):
        lo, hi = carabin_engine.bounds(start, time_limit=limit)
        exact = carabin.value(start)
    with alternation(False):
        assert carabin.value(start) == exact
    assert lo <= exact <= hi, (lo, hi, exact)


def test_bad_budgets_are_refused():
    core = carabin_engine.core()
    for bad in (1, 0, -5, 2.5, "many"):
        with pytest.raises((ValueError, TypeError), match="budget"):
            core.set_alternation(True, bad)
    with pytest.raises(ValueError, match="True or False"):
        core.set_alternation(1)


@pytest.mark.parametrize(("seed", "index", "answer", "factor"), [(3103, 134, False, 3), (3102, 129, False, 1.5)])
def test_it_cuts_the_slow_six_player_make_probes(seed, index, answer, factor):
    """The make/fail probes of 6-player deals #134 of seed 3103 and #129 of seed 3102,
    which the bidder fails: the move order puts the coalition's refutation in the first
    trick late in the first, the reverse order late in the second. The same answer in a
    fraction of the nodes (node counts do not depend on the machine)."""
    start = _bench_start(seed, index, players=6)
    target = start.points_left() // 2 + 1
    core = carabin_engine.core(None, 6)
    nodes, answers = {}, {}
    for on in (False, True):
        with alternation(on):
            before = core.nodes
            answers[on] = carabin.make(start, target)
            nodes[on] = core.nodes - before
    assert answers[True] is answers[False] is answer
    assert factor * nodes[True] < nodes[False], nodes
