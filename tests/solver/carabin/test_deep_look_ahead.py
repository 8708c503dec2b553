"""The look-ahead two tricks deep of the Carabin core (cb_deep in _core.h) changes no answer.

From 5 players, at a trick boundary with three cards a hand to play in the world of the
next trick and two or three in the other, where the one-trick look-ahead falls short of the
target, the core plays that trick out and values every boundary it reaches by its
single-world bounds or, where they fall short, by that boundary's own look-ahead, before
it searches. These tests compare the search with it and without it, with the
single-world bounds (which it starts with) from the first node, on boundaries of that
shape and on whole deals.
"""

from __future__ import annotations

import random
from contextlib import AbstractContextManager

from hypothesis import given, settings
from hypothesis import strategies as st

from solver import carabin
from solver.carabin import Deal, Position
from solver.carabin import engine as carabin_engine
from tests.solver.carabin.test_world_bounds import check_same_answers, check_same_probes, switched


def deep(on: bool, after: int | None = 0) -> AbstractContextManager:
    """The shared core with the deep look-ahead on or off, the single-world bounds from
    node ``after`` (None: the core's default), its table cleared."""
    return switched("set_deep_look_ahead", on, after)


def tricks_in(rng: random.Random, players: int, tricks: int = 3) -> Position:
    """A random deal, tricks alternating, after ``tricks`` tricks of random play: three
    tricks in, three cards a hand of the right-hand world to play next and two of the
    left; two tricks in, three of each, the left to play; one trick in, four of the
    right to play and three of the left."""
    deal = Deal.random(players=players, rng=rng)
    p = deal.position(bidder=rng.randrange(players), trump=rng.randrange(4))
    for _ in range(tricks * players):
        p = p.play(rng.choice(p.legal_moves()))
    left = 4 - (tricks + 1) // 2  # the left hand plays the first trick
    right = 4 - tricks // 2
    assert p.hand == tricks % 2 and all(
        (r.bit_count(), lh.bit_count()) == (right, left) for lh, r in p.hands
    ), str(p)
    return p


def test_boundaries_of_its_shape_get_the_same_answers_with_and_without_it():
    """120 five- and six-player boundaries of its shape: the exact value, and the make
    probe at every target."""
    rng = random.Random(17)
    for i in range(120):
        check_same_probes(tricks_in(rng, 5 + i % 2), lambda: deep(False), lambda: deep(True))


def test_boundaries_of_three_cards_a_hand_get_the_same_answers():
    """60 five- and six-player boundaries two tricks in: the exact value, and the make
    probe at every target."""
    rng = random.Random(23)
    for i in range(60):
        check_same_probes(tricks_in(rng, 5 + i % 2, 2), lambda: deep(False), lambda: deep(True))


def test_boundaries_one_trick_in_get_the_same_answers():
    """24 five- and six-player boundaries one trick in (four cards a hand of the world to
    play, three of the other), where it is tried before the search: the exact value,
    and the make probe at every target."""
    rng = random.Random(29)
    for i in range(24):
        check_same_probes(tricks_in(rng, 5 + i % 2, 1), lambda: deep(False), lambda: deep(True))


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 4), st.integers(0, 3))
def test_five_player_deals_get_the_same_answers_with_and_without_it(seed, bidder, trump):
    start = Deal.random(seed=seed, players=5).position(bidder=bidder, trump=trump)
    check_same_answers(start, lambda: deep(False), lambda: deep(True))


def test_it_settles_boundaries_the_search_would_search():
    """On 40 five- and six-player boundaries of its shape, the make probes one point on
    either side of the value: the same answers in fewer nodes in all (node counts do
    not depend on the machine)."""
    rng = random.Random(5)
    positions = [tricks_in(rng, 5 + i % 2) for i in range(40)]
    with deep(True):
        values = [carabin.value(p) for p in positions]
    core = carabin_engine.core()
    nodes, answers = {}, {}
    for on in (False, True):
        with deep(on):
            before = core.nodes
            answers[on] = [
                (carabin.make(p, v), carabin.make(p, v + 1))
                for p, v in zip(positions, values, strict=True)
            ]
            nodes[on] = core.nodes - before
    assert answers[True] == answers[False] == [(True, False)] * len(positions)
    assert nodes[True] < nodes[False], nodes
