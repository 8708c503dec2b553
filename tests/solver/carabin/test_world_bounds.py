"""The single-world bounds of the Carabin core (see _core.h) change no answer.

The core uses them only once a search has grown (``Core.set_world_bounds``); these tests
turn them on from the first node, so that small positions, which the reference minimax
can solve, go through them.
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
from tests.solver.carabin.test_engine import check_against_reference, positions


@contextmanager
def world_bounds(cards: int, after: int = 0) -> Iterator[None]:
    """The shared core with the single-world bounds set so, its table cleared."""
    core = carabin_engine.core()
    core.set_world_bounds(cards, after)
    core.clear()
    try:
        yield
    finally:
        core.set_world_bounds()
        core.clear()


@settings(max_examples=150, deadline=None)
@given(players=st.integers(3, MAX_PLAYERS), data=st.data())
def test_with_world_bounds_from_the_start_the_engine_matches_the_reference(players, data):
    """Points, make probes, all tricks and every card's value, against the reference."""
    p = data.draw(positions(players))
    with world_bounds(4):
        check_against_reference(p)


def _start(seed: int, players: int, bidder: int, trump: int) -> carabin.Position:
    deal = Deal.random(seed=seed, players=players)
    return deal.position(bidder=bidder % players, trump=trump)


@settings(max_examples=30, deadline=None)
@given(
    st.integers(0, 10**6),
    st.sampled_from([3, 4]),
    st.integers(0, 5),
    st.integers(0, 3),
    st.sampled_from([2, 3, 4]),
)
def test_full_deals_get_the_same_points_with_and_without_world_bounds(
    seed, players, bidder, trump, cards
):
    start = _start(seed, players, bidder, trump)
    check_same_answers(start, lambda: world_bounds(0), lambda: world_bounds(cards))


@contextmanager
def switched(
    setting: str, on: bool, after: int | None = 0, **options: int | None
) -> Iterator[None]:
    """The shared core with ``Core.<setting>`` (one that changes no answer) on or off
    (with ``options``), the single-world bounds (with which the settings tested this way
    start) from node ``after`` (None: the core's default), its table cleared."""
    core = carabin_engine.core()
    getattr(core, setting)(on, **options)
    core.set_world_bounds(3, after)
    core.clear()
    try:
        yield
    finally:
        getattr(core, setting)(True)
        core.set_world_bounds()
        core.clear()


def check_same_answers(
    start: carabin.Position,
    without: Callable[[], AbstractContextManager],
    with_: Callable[[], AbstractContextManager],
) -> None:
    """The exact value, and make probes at the value and one above, the same in the
    setting ``with_`` as in ``without`` (each a fresh context manager, entered apart for
    the value and for the probes)."""
    with without():
        plain = carabin.value(start)
        plain_make = carabin.make(start, plain + 1)
    with with_():
        assert carabin.value(start) == plain, str(start)
    with with_():
        assert carabin.make(start, plain) and carabin.make(start, plain + 1) == plain_make


def check_same_probes(
    p: carabin.Position,
    without: Callable[[], AbstractContextManager],
    with_: Callable[[], AbstractContextManager],
) -> None:
    """The exact value, and the make probe at every target, the same in the setting
    ``with_`` as in ``without``."""
    targets = range(p.points_left() + 2)
    with without():
        expected = carabin.value(p), [carabin.make(p, t) for t in targets]
    with with_():
        assert (carabin.value(p), [carabin.make(p, t) for t in targets]) == expected, str(p)


@settings(max_examples=25, deadline=None)
@given(
    st.integers(0, 10**6),
    st.sampled_from([3, 4]),
    st.integers(0, 5),
    st.integers(0, 3),
    st.sampled_from([0.0, 1e-5, 1e-4, 1e-3]),
)
def test_bounds_under_a_time_limit_contain_the_exact_value(seed, players, bidder, trump, limit):
    start = _start(seed, players, bidder, trump)
    with world_bounds(3):
        lo, hi = carabin_engine.bounds(start, time_limit=limit)
        # the stopped search left nothing false behind in either table
        exact = carabin.value(start)
    with world_bounds(0):
        assert carabin.value(start) == exact
    assert 0 <= lo <= exact <= hi <= start.points_left(), (str(start), lo, hi, exact)


@pytest.mark.parametrize(
    ("cards", "after", "match"),
    [(5, 0, "invalid cards 5"), (-1, 0, "invalid cards -1"), (3, -2, "invalid after -2")],
)
def test_bad_settings_are_refused(cards: int, after: int, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        carabin_engine.core().set_world_bounds(cards, after)


def _boundary(rng: random.Random, players: int, tricks: int, order: str = "alternate"):
    """A random deal of ``players`` after ``tricks`` tricks of random play: a trick
    boundary where the hand to play has 4 - tricks // 2 cards left."""
    deal = Deal.random(players=players, rng=rng)
    p = deal.position(bidder=rng.randrange(players), trump=rng.randrange(4), trick_order=order)
    for _ in range(tricks * players):
        p = p.play(rng.choice(p.legal_moves()))
    return p


def _bounds_and_value(p: carabin.Position) -> tuple[int, int | None, int]:
    """The plain and the coupled single-world bounds at p, and p's exact value by the
    search without any single-world bound."""
    plain, coupled, _upper = carabin_engine.core().world_bounds(*carabin_engine._args(p)[:7])
    with world_bounds(0):
        return plain, coupled, carabin.value(p)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(3, MAX_PLAYERS), st.sampled_from([2, 3]))
def test_the_coupled_single_world_bound_never_exceeds_the_value(seed, players, tricks):
    """Where three tricks are left in the world to play (so the coupled pair applies)."""
    p = _boundary(random.Random(seed), players, tricks)
    plain, coupled, value = _bounds_and_value(p)
    assert plain <= value, (str(p), plain, value)
    assert coupled is None or coupled <= value, (str(p), coupled, value)


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 10**6), st.integers(3, MAX_PLAYERS), st.sampled_from([2, 3, 4, 5]))
def test_the_single_world_upper_bound_is_never_below_the_value(seed, players, tricks):
    """The games in which the bidder chooses every later leader, against the exact value
    by the search without any single-world bound, in either trick order."""
    rng = random.Random(seed)
    order = rng.choice(["alternate", "left_then_right"])
    p = _boundary(rng, players, tricks, order=order)
    plain, _coupled, upper = carabin_engine.core().world_bounds(*carabin_engine._args(p)[:7])
    with world_bounds(0):
        value = carabin.value(p)
    assert plain <= value <= upper, (str(p), plain, value, upper)


def test_the_upper_bound_is_often_below_the_points_left():
    """It is tight enough to matter: below what a bound by the points left allows on
    many random boundaries three tricks in (so that it can settle a probe)."""
    rng = random.Random(2)
    below = 0
    for i in range(60):
        p = _boundary(rng, 3 + i % 4, 3)
        upper = carabin_engine.core().world_bounds(*carabin_engine._args(p)[:7])[2]
        below += upper < p.points_left()
    assert below >= 30


def test_the_coupled_bound_is_sometimes_above_the_plain_one_and_only_where_tricks_alternate():
    rng = random.Random(1)
    above = 0
    for i in range(150):
        p = _boundary(rng, 3 + i % 4, 2 + (i // 4) % 2)
        plain, coupled, value = _bounds_and_value(p)
        assert plain <= value and (coupled is None or coupled <= value), str(p)
        above += coupled is not None and coupled > plain
    assert above >= 3  # 8 of these 150: it is rarely the larger, but then often decisive
    # a fresh deal, whose alternating play has the coupled bound, played left then right
    bounds = carabin_engine.core().world_bounds
    assert bounds(*carabin_engine._args(_boundary(random.Random(5), 4, 0))[:7])[1] is not None
    p = _boundary(random.Random(5), 4, 0, order="left_then_right")
    assert bounds(*carabin_engine._args(p)[:7])[1] is None


@contextmanager
def lanes(on: bool) -> Iterator[None]:
    """The shared core solving the single-world games of two cards a hand on lanes or
    by the search."""
    core = carabin_engine.core()
    core.set_lanes(on)
    try:
        yield
    finally:
        core.set_lanes(True)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**6), st.integers(3, MAX_PLAYERS), st.sampled_from([2, 3, 4, 5]))
def test_single_world_games_on_lanes_are_valued_as_by_the_search(seed, players, tricks):
    """Both bounds (the coupled pair's ducking game included) at boundaries where the
    world to play or the other holds two cards a hand, or whose games come down to
    such games, both ways."""
    p = _boundary(random.Random(seed), players, tricks)
    args = carabin_engine._args(p)[:7]
    with lanes(False):
        by_search = carabin_engine.core().world_bounds(*args)
    with lanes(True):
        assert carabin_engine.core().world_bounds(*args) == by_search, str(p)


def test_the_lanes_switch_refuses_what_is_not_a_bool() -> None:
    with pytest.raises(ValueError, match="invalid on 1"):
        carabin_engine.core().set_lanes(1)


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 10**6), st.integers(3, MAX_PLAYERS), st.sampled_from([3, 4]))
def test_the_last_four_tricks_on_lanes_give_what_the_search_gives(seed, players, tricks):
    """Boundaries four tricks from the end (two cards a hand of each kind) and one trick
    before, the single-world bounds on from the first node: the exact value and the make
    probe at every target with the last four tricks on lanes and by the search."""
    p = _boundary(random.Random(seed), players, tricks)
    targets = range(p.points_left() + 2)
    with world_bounds(4):
        with lanes(False):
            by_search = carabin.value(p), [carabin.make(p, t) for t in targets]
        with lanes(True):
            assert (carabin.value(p), [carabin.make(p, t) for t in targets]) == by_search, str(p)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10**6), st.integers(3, MAX_PLAYERS))
def test_the_lanes_of_the_last_four_tricks_alone_agree_with_the_search(seed, players):
    """cb_last4 asked directly, without the bounds that settle most boundaries before the
    search asks it, at every target of boundaries four tricks from the end, against make
    probes by the search (lanes off)."""
    p = _boundary(random.Random(seed), players, 4)
    args = carabin_engine._args(p)[:7]
    targets = range(-1, p.points_left() + 2)
    with lanes(False):
        by_search = [carabin.make(p, t) for t in targets]
    core = carabin_engine.core()
    assert [core.last_four(*args, t) for t in targets] == by_search, str(p)


def test_the_lanes_of_the_last_four_tricks_refuse_other_boundaries():
    p = _boundary(random.Random(3), 4, 3)  # three cards a hand of one kind
    with pytest.raises(ValueError, match="not a boundary with two cards a hand"):
        carabin_engine.core().last_four(*carabin_engine._args(p)[:7], 1)
    p = _boundary(random.Random(3), 4, 4, order="left_then_right")
    with pytest.raises(ValueError, match="alternating tricks"):
        carabin_engine.core().last_four(*carabin_engine._args(p)[:7], 1)
