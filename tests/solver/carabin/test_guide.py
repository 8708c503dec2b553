"""The search of a trick guided by its graph (cb_guide in _core.h) gives the values the
search gives without it.

Where the look-ahead two tricks deep from a boundary (three cards a hand to play, two or
three of the other kind) was valued by the graph of its trick and fell short, the search
plays that trick card by card; at the coalition's nodes of it the core first takes the
graph's minimax below that node, the outcomes valued as the look-ahead values them, and
a result at least the node's target ends that node's search (at 6 players). These tests
compare the values and make probes of 6-player boundaries and positions with and without
it, with the graphs made the first time a boundary is met and the guide from the trick's
second card on (its first, third or fourth in some), so that it is asked as often as it
can be; check that it is not asked at 5 players; and that it saves nodes on a long proof
of the bidder's.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import carabin
from solver.carabin import Deal
from solver.carabin import engine as carabin_engine
from tests.solver.carabin.test_deep_look_ahead import tricks_in
from tests.solver.carabin.test_world_bounds import check_same_answers, check_same_probes


@contextmanager
def guided(on: bool, start: int = 1) -> Iterator[None]:
    """The shared core with the graphs made the first time a boundary is met, the
    single-world bounds from the first node, and the guide on from ``start`` cards of a
    trick (or off), its table cleared; the core's defaults again afterwards."""
    core = carabin_engine.core()
    core.set_deep_graphs(True, first=True)
    core.set_guide(on, start)
    core.set_world_bounds(3, 0)
    core.clear()
    try:
        yield
    finally:
        core.set_deep_graphs(True)
        core.set_guide(True)
        core.set_world_bounds()
        core.clear()


def check_boundaries(seed: int, count: int, tricks: int, start: int) -> None:
    """``count`` six-player boundaries ``tricks`` tricks in (the guide works at 6 players):
    the exact value and the make probe at every target, with and without the guide."""
    rng = random.Random(seed)
    for _ in range(count):
        p = tricks_in(rng, 6, tricks)
        check_same_probes(p, lambda: guided(False), lambda: guided(True, start))


def test_boundaries_two_tricks_in_get_the_same_answers_with_and_without_the_guide():
    """Three cards a hand of both kinds: the guide is asked inside their searches' first
    trick and at the boundaries a trick later."""
    check_boundaries(61, 30, 2, 1)


def test_boundaries_three_tricks_in_get_the_same_answers_with_and_without_the_guide():
    check_boundaries(67, 40, 3, 2)


def test_boundaries_one_trick_in_get_the_same_answers_with_and_without_the_guide():
    """Four cards a hand to play: the guide works below, inside the tricks of the
    boundaries their searches reach."""
    check_boundaries(71, 8, 1, 3)


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 5), st.integers(0, 3))
def test_six_player_positions_two_tricks_in_get_the_same_answers(seed, bidder, trump):
    """Random 6-player deals played at random for two tricks: the value and the probes
    at it and one above, with and without the guide."""
    rng = random.Random(seed)
    p = Deal.random(players=6, rng=rng).position(bidder=bidder, trump=trump)
    for _ in range(12):
        p = p.play(rng.choice(p.legal_moves()))
    check_same_answers(p, lambda: guided(False), lambda: guided(True))


def test_the_guide_waits_for_six_players():
    """At 5 players the same nodes with and without it (it is not asked)."""
    rng = random.Random(79)
    positions = [tricks_in(rng, 5, 2) for _ in range(6)]
    core = carabin_engine.core()
    nodes = {}
    for on in (False, True):
        with guided(on):
            before = core.nodes
            for p in positions:
                carabin.value(p)
            nodes[on] = core.nodes - before
    assert nodes[True] == nodes[False]


#: The slowest 6-player make/fail probe of the 4,800 deals of bench seeds 3101-3124
#: (seed 3114, deal #29: the bidder makes 19 of the pack's 36 points, value 20), a long
#: proof of the bidder's: core alone, 128 MB, 22.8 M nodes without the guide, 17.4 M with.
SLOW_PROOF = (
    "trump=D bidder=5 lead=0 next=L 0=2..2.K3/AK...T7 1=.QT.T.2/5.K.4.8 2=7.2.KJ./T8.4..Q "
    "3=.A9..J6/9.3.3.A 4=3.75..4/6.6.6.9 5=Q4.J.Q./..A875."
)


def test_the_guide_saves_nodes():
    """The make probe of SLOW_PROOF with the core's own settings (graphs made the second
    time their boundary is met, in a search grown past 200,000 nodes; the guide from the
    trick's fourth card): the same answer in fewer nodes with the guide (node counts do
    not depend on the machine)."""
    p = carabin.Position.parse(SLOW_PROOF)
    core = carabin_engine.core()
    nodes, answers = {}, {}
    for on in (False, True):
        core.set_guide(on)
        core.clear()
        try:
            before = core.nodes
            answers[on] = carabin.make(p, 19)
            nodes[on] = core.nodes - before
        finally:
            core.set_guide(True)
            core.clear()
    assert answers[True] is answers[False] is True
    assert nodes[True] < nodes[False], nodes


@pytest.mark.parametrize("start", [0, 6, True, 2.0])
def test_the_guide_refuses_a_bad_start(start):
    with pytest.raises(ValueError, match="invalid on"):
        carabin_engine.core().set_guide(True, start)
