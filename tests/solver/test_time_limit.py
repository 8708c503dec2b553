"""Searches under a time limit: what they return must be proven, and stopping one must
not spoil the transposition table for the searches after it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import carabin, klabberjass
from solver.carabin import Deal
from solver.carabin import engine as carabin_engine
from solver.carabin.deal import contract_made
from solver.carabin.table import deal_table
from solver.errors import TricklabError
from solver.games import get_game


def _start(seed: int, players: int, bidder: int, trump: int) -> carabin.Position:
    deal = Deal.random(seed=seed, players=players)
    return deal.position(bidder=bidder % players, trump=trump)


@settings(max_examples=25, deadline=None)
@given(
    st.integers(0, 10**6),
    st.sampled_from([3, 4]),
    st.integers(0, 5),
    st.integers(0, 3),
    st.sampled_from([0.0, 1e-5, 1e-4, 1e-3, 1e-2]),
)
def test_carabin_bounds_contain_the_exact_value(seed, players, bidder, trump, limit) -> None:
    start = _start(seed, players, bidder, trump)
    engine_core = carabin_engine.core()
    engine_core.clear()
    lo, hi = carabin_engine.bounds(start, time_limit=limit)
    exact = carabin.value(start)
    assert 0 <= lo <= exact <= hi <= start.points_left(), (str(start), lo, hi, exact)
    # the stopped search left nothing false behind: a fresh table agrees
    engine_core.clear()
    assert carabin.value(start) == exact


def test_a_zero_limit_proves_nothing_and_clears() -> None:
    start = _start(5, 4, 1, 2)
    total = start.points_left()
    assert carabin_engine.bounds(start, time_limit=0) == (0, total)
    r = carabin.solve(start, time_limit=0)
    assert (r.exact, r.bounds, r.best, r.moves) == (False, (0, total), None, None)
    data = r.to_json()
    assert data["exact"] is False and data["points"] == {
        "bidder": [0, total],
        "others": [0, total],
    }
    # the limit does not outlive the call
    assert carabin.solve(start).exact and carabin.solve(start).points[0] == carabin.value(start)


def test_core_time_limit_raises_timeout_then_clears() -> None:
    engine_core = carabin_engine.core()
    start = _start(11, 4, 0, 0)
    engine_core.set_time_limit(0)
    with pytest.raises(TimeoutError):
        engine_core.value(*carabin_engine._args(start), 1)
    engine_core.set_time_limit(None)
    assert engine_core.value(*carabin_engine._args(start), 1) == carabin.value(start)
    for bad in (-1, float("nan"), float("inf")):
        with pytest.raises(ValueError):
            engine_core.set_time_limit(bad)


@pytest.mark.parametrize("seed", [1, 2])
def test_a_generous_limit_changes_nothing(seed: int) -> None:
    deal = Deal.random(seed=seed, players=3)
    assert deal_table(deal, time_limit=60).to_json() == deal_table(deal).to_json()
    start = deal.position(bidder=0, trump=1)
    assert carabin.solve(start, moves=True, time_limit=60) == carabin.solve(start, moves=True)


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([1e-4, 1e-3, 2e-2]))
def test_carabin_table_rows_under_a_limit_are_proven(seed: int, limit: float) -> None:
    deal = Deal.random(seed=seed, players=4)
    total = deal.points_in_play
    calls = []
    rows = deal_table(deal, time_limit=limit, progress=lambda i, n: calls.append((i, n)))
    assert calls == [(i, len(rows)) for i in range(len(rows) + 1)]  # before and after each row
    exact = {(r.bidder, r.trump): r for r in deal_table(deal)}
    for row in rows:
        true = exact[row.bidder, row.trump]
        lo, hi = row.bounds or (row.points, row.points)
        assert lo <= true.points <= hi and row.points == lo
        assert row.made in (None, true.made) and row.chelem in (None, true.chelem)
        if row.exact:
            assert row == true
        else:
            assert lo < hi
            # what the bounds decide is given
            if lo > total // 2 or hi <= total // 2:
                assert row.made == contract_made(lo, total)
            assert row.to_json()["points"] == [lo, hi] and row.to_json()["exact"] is False


def test_klabberjass_under_a_limit() -> None:
    p = klabberjass.Deal.random(seed=4).position(bidder=0, trump=1)
    r = klabberjass.solve(p, time_limit=0)
    total = p.points_left()
    assert not r.exact and r.best is None and r.pv == ()
    assert r.to_json()["points"] == {"E": [0, total], "D": [0, total]}
    assert klabberjass.solve(p, time_limit=30) == klabberjass.solve(p)
    game = get_game("klabberjass")
    deal = klabberjass.Deal.random(seed=4)
    with pytest.raises(TricklabError, match="time limit"):
        game.deal_table(deal, time_limit=1e-9)
    assert game.deal_table(deal, time_limit=30).to_json() == game.deal_table(deal).to_json()


def test_advice_within_a_limit_rests_on_a_prefix_of_the_draw() -> None:
    from analysis.advice import advise

    view = carabin.View.parse(
        "players=5 seat=1 bidder=0 trump=H turn=2C hand=AKQJ.../T987... played=5H"
    )
    part = advise(view, 200, seed=4, workers=1, time_limit=0.3)
    assert 1 <= part.samples <= 200
    whole = advise(view, part.samples, seed=4, workers=1)
    assert (part.moves, part.best, part.ranked) == (whole.moves, whole.best, whole.ranked)
    with pytest.raises(TricklabError, match="no world was solved"):
        advise(view, 10, seed=4, workers=1, time_limit=1e-9)
    kview = klabberjass.View.parse("seat=E trump=H turn=JH hand=AT9.KQ.A.AT played=7S,8D")
    assert advise(kview, 30, seed=2, workers=1, time_limit=60) == advise(
        kview, 30, seed=2, workers=1
    )
