"""The race of the coalition's cards in the Carabin core's first trick changes no answer,
nor does the race of its leads in the second and third.

In the first trick of a search, a seat of the coalition with two cards or more searches
them under node budgets that grow round by round (cb_trick_race in _core.h), and the
first card that refutes the bidder ends the race. Searches race only once a card has
cost 100,000 nodes, so these tests also set tiny first budgets, under which every
search of a first trick races, stops and takes up its cards again many times. A seat
of the coalition leading the search's second or third trick races its leads the same
way, each under the same budget, a tenth of the first trick's (cb_boundary).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import carabin
from solver.carabin import Deal
from solver.carabin import engine as carabin_engine
from solver.carabin._core import MAX_PLAYERS
from tests.solver.carabin.test_engine import _bench_start, check_against_reference, positions
from tests.solver.carabin.test_world_bounds import check_same_answers, check_same_probes, switched


def race(on: bool, budget: int | None = None) -> AbstractContextManager:
    """The shared core with the race on (first budget ``budget``, None: the core's) or
    off, the single-world bounds as the core has them, its table cleared."""
    return switched("set_race", on, None, budget=budget)


@contextmanager
def lead_race(on: bool, budget: int | None = None, after: int | None = 0) -> Iterator[None]:
    """The shared core with the first trick's race on (first budget ``budget``, None: the
    core's) and the race of the later leads on or off, the single-world bounds from node
    ``after`` (None: the core's default), its table cleared."""
    core = carabin_engine.core()
    core.set_race(True, budget=budget)
    core.set_lead_race(on)
    core.set_world_bounds(3, after)
    core.clear()
    try:
        yield
    finally:
        core.set_race(True)
        core.set_lead_race(True)
        core.set_world_bounds()
        core.clear()


#: A full deal (seed, players, bidder, trump) and a first budget of the race.
full_deals = given(
    st.integers(0, 10**6),
    st.integers(4, MAX_PLAYERS),
    st.integers(0, 5),
    st.integers(0, 3),
    st.sampled_from([1, 50, 2000]),
)


def full_deal(seed: int, players: int, bidder: int, trump: int) -> carabin.Position:
    return Deal.random(seed=seed, players=players).position(
        bidder=bidder % players, trump=trump, trick_order="alternate"
    )


def probe_both_ways(
    start: carabin.Position, switch: Callable[[bool], AbstractContextManager]
) -> tuple[dict[bool, bool], dict[bool, int]]:
    """The make/fail probe of ``start`` (half its points + 1) with ``switch`` off and on:
    the answers and the nodes searched, by on."""
    target = start.points_left() // 2 + 1
    core = carabin_engine.core()
    nodes, answers = {}, {}
    for on in (False, True):
        with switch(on):
            before = core.nodes
            answers[on] = carabin.make(start, target)
            nodes[on] = core.nodes - before
    return answers, nodes


#: The races as the tests against the reference set them, from a tiny first budget.
TINY_RACES: dict[str, Callable[[int], AbstractContextManager]] = {
    "both races": lambda budget: race(True, budget),
    "the later leads in order": lambda budget: lead_race(False, budget),
}


@pytest.mark.parametrize("races", TINY_RACES)
@settings(max_examples=90, deadline=None)
@given(players=st.integers(3, MAX_PLAYERS), budget=st.sampled_from([1, 3, 40]), data=st.data())
def test_racing_from_tiny_budgets_the_engine_matches_the_reference(races, players, budget, data):
    """Points, make probes, all tricks and every card's value, against the reference:
    the first trick's cards and the later leads raced, or the first trick's alone."""
    p = data.draw(positions(players))
    with TINY_RACES[races](budget):
        check_against_reference(p)


@settings(max_examples=12, deadline=None)
@full_deals
def test_full_deals_get_the_same_answers_with_and_without_it(seed, players, bidder, trump, budget):
    start = full_deal(seed, players, bidder, trump)
    check_same_answers(start, lambda: race(False), lambda: race(True, budget))


def test_first_tricks_under_way_get_the_same_probes():
    """40 deals of 4 to 6 players with one to four cards of the first trick played: the
    race is of the trick under way. The exact value and the make probe at every target."""
    rng = random.Random(31)
    for i in range(40):
        players = 4 + i % 3
        deal = Deal.random(players=players, rng=rng)
        p = deal.position(bidder=rng.randrange(players), trump=rng.randrange(4))
        for _ in range(1 + i % 4):
            p = p.play(rng.choice(p.legal_moves()))
        budget = 1 + i % 5
        check_same_probes(p, lambda: race(False), lambda b=budget: race(True, b))


@settings(max_examples=15, deadline=None)
@given(
    st.integers(0, 10**6),
    st.integers(4, 5),
    st.integers(0, 4),
    st.sampled_from([1e-4, 1e-3, 1e-2]),
)
def test_bounds_under_a_time_limit_contain_the_exact_value(seed, players, bidder, limit):
    """A time limit that stops a search inside a race stops it (the race keeps only its
    own budgets' stops): the bounds proved by then hold, and nothing false is left in
    the table."""
    start = Deal.random(seed=seed, players=players).position(
        bidder=bidder % players, trump=seed % 4
    )
    with race(True, 5):
        lo, hi = carabin_engine.bounds(start, time_limit=limit)
        exact = carabin.value(start)
    with race(False):
        assert carabin.value(start) == exact
    assert lo <= exact <= hi, (lo, hi, exact)


def test_it_finds_the_cheap_refutation_of_a_slow_make_probe():
    """The make/fail probe of 5-player deal #1 of seed 2030 (the value 11, 13 to make):
    the coalition's first cards in the order do not refute the bidder cheaply, a later
    one does. The same answer in under half the nodes (node counts do not depend on the
    machine)."""
    answers, nodes = probe_both_ways(_bench_start(2030, 1, players=5), race)
    assert answers[True] is answers[False] is False
    assert 2 * nodes[True] < nodes[False], nodes


@settings(max_examples=12, deadline=None)
@full_deals
def test_racing_the_later_leads_changes_no_answer(seed, players, bidder, trump, budget):
    """Full deals, the exact value and make probes at the value and one above, with the
    leads of the second and third tricks raced (from tiny budgets: every such lead races,
    stops and is taken up again) and not."""
    start = full_deal(seed, players, bidder, trump)
    check_same_answers(start, lambda: lead_race(False, budget), lambda: lead_race(True, budget))


def test_the_leads_race_finds_the_refutation_of_a_slow_fail_probe():
    """The make/fail probe of 6-player deal #23 of seed 3116, which the bidder fails: the
    coalition's first lead in the move order at many boundaries of the second trick (a
    card of no points he can beat) does not refute him, and its proof that he reaches
    the target after it costs far more than the lead (with points) that does. The same
    answer in under a third of the nodes (22.5 M -> 3.9 M; node counts do not depend on
    the machine)."""
    start = _bench_start(3116, 23, players=6)
    answers, nodes = probe_both_ways(start, lambda on: lead_race(on, after=None))
    assert answers[True] is answers[False] is False
    assert 3 * nodes[True] < nodes[False], nodes
