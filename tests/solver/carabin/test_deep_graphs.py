"""The look-ahead two tricks deep valued by the graph of its trick (cb_deep_shape in
_core.h) gives what playing that trick out gives.

From a boundary of three cards a hand to play and two or three of the other kind, the
look-ahead two tricks deep plays the next trick out and values each way it can end by
bounds that read only the trick's winner, the bidder's gain and the single-world games
of what is left of that world (their values by leader; with three cards a hand in the
other world, also its ducking game and whether the bidder can avoid all its tricks).
The core makes that trick into a graph once (its ways merged by those outcomes) and
takes the graph's minimax whenever the same cards with the same leader come back beside
other cards of the other kind. These tests compare the look-ahead itself with and
without the graph at every target, and the search with the graphs made at the first
meeting against the search without them.
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
from tests.solver.carabin.test_world_bounds import check_same_answers, check_same_probes, switched


def graphs(on: bool, after: int | None = 0) -> AbstractContextManager:
    """The shared core with the graphs on (made the first time a boundary is met) or
    off, the single-world bounds from node ``after``, its table cleared."""
    return switched("set_deep_graphs", on, after, first=True)


def check_graph_against_played_out(positions: list[carabin.Position]) -> None:
    """Every target from 0 to one past the points of the pack (36), at each position: the
    same answer from the graph of the look-ahead's trick as from the trick played out,
    and both answers occur."""
    core = carabin_engine.core()
    seen = set()
    for p in positions:
        args = carabin_engine._args(p)[:7]
        for target in range(0, 38):
            core.clear()
            by_graph = core.deep_look_ahead(*args, target, True)
            core.clear()
            played = core.deep_look_ahead(*args, target, False)
            assert by_graph == played, (str(p), target)
            seen.add(by_graph)
    assert seen == {True, False}


def test_the_look_ahead_by_its_graph_three_tricks_in():
    """60 five- and six-player boundaries three tricks in (three cards a hand to play, two
    of the other kind)."""
    rng = random.Random(41)
    check_graph_against_played_out([tricks_in(rng, 5 + i % 2) for i in range(60)])


def test_the_look_ahead_by_its_graph_two_tricks_in():
    """24 five- and six-player boundaries two tricks in (three cards a hand of both
    kinds), where the outcomes also carry the ducking game and whether the bidder can
    avoid every trick (the 20th needs them)."""
    rng = random.Random(41)
    check_graph_against_played_out([tricks_in(rng, 5 + i % 2, 2) for i in range(24)])


def test_the_look_ahead_refuses_other_boundaries():
    p = tricks_in(random.Random(3), 6, 1)  # four cards a hand to play, three of the other
    with pytest.raises(ValueError, match="three cards a hand to play and two or three of"):
        carabin_engine.core().deep_look_ahead(*carabin_engine._args(p)[:7], 5, True)


def check_boundaries_alike(seed: int, count: int, tricks: int) -> None:
    """``count`` five- and six-player boundaries ``tricks`` tricks in (random
    ``seed``): the exact value and the make probe at every target, with and without
    the graphs."""
    rng = random.Random(seed)
    for i in range(count):
        p = tricks_in(rng, 5 + i % 2, tricks)
        check_same_probes(p, lambda: graphs(False), lambda: graphs(True))


def test_boundaries_three_tricks_in_get_the_same_answers_with_and_without_graphs():
    check_boundaries_alike(43, 60, 3)


def test_boundaries_two_tricks_in_get_the_same_answers_with_and_without_graphs():
    """Their searches meet boundaries three tricks in again and again."""
    check_boundaries_alike(47, 30, 2)


@settings(max_examples=6, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 4), st.integers(0, 3))
def test_five_player_deals_get_the_same_answers_with_and_without_graphs(seed, bidder, trump):
    start = Deal.random(seed=seed, players=5).position(bidder=bidder, trump=trump)
    check_same_answers(start, lambda: graphs(False), lambda: graphs(True))


def test_graphs_save_nodes():
    """16 six-player boundaries one trick in, with the core's own settings (a graph made
    the second time its boundary is met, the single-world bounds from the core's node
    count): the same exact values in fewer nodes with the graphs (node counts do not
    depend on the machine)."""
    rng = random.Random(53)
    positions = [tricks_in(rng, 6, 1) for _ in range(16)]
    core = carabin_engine.core()
    nodes, values = {}, {}
    for on in (False, True):
        with switched("set_deep_graphs", on, None):
            before = core.nodes
            values[on] = [carabin.value(p) for p in positions]
            nodes[on] = core.nodes - before
    assert values[True] == values[False]
    assert nodes[True] < nodes[False], nodes
