"""Two cores on one Carabin search: a helper's value, the shared table, the stops.

A helper (``Core.help``) searches the position that another core is searching, with
that core's table (``Core.share``), its coalition trying its cards in the reverse order
in the first three tricks. Whatever either stores the other reads, so a wrong entry, a
half-written one read across threads or a stop that outlives its search would give a
wrong value or a search that ends at once. These tests compare with the reference
minimax and with one core alone, on small positions (where every trick is reversed)
and on full deals searched on two threads at once.
"""

from __future__ import annotations

import random
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.carabin import Deal, Position, engine, team
from solver.carabin._core import MAX_PLAYERS
from solver.carabin.table import deal_table
from solver.errors import UsageError
from solver.reference import carabin_points
from tests.solver.carabin.test_engine import hard_start, positions


def shared_core() -> object:
    core = engine.new_core(1)
    core.share(True)
    return core


def other_trump(p: Position) -> Position:
    """The same cards with another trump: a search of it loads the deal (its cards) into
    a core's table without leaving entries that settle ``p``."""
    return Position((p.trump + 1) % 4, p.bidder, p.lead, p.hand, p.hands, p.trick, p.trick_order)


@settings(max_examples=150, deadline=None)
@given(players=st.integers(3, MAX_PLAYERS), data=st.data())
def test_a_helper_alone_finds_the_reference_value(players, data):
    """The helper's search (every coalition card reversed: these positions are under
    three tricks) and then the main core's, reading the helper's entries."""
    p = data.draw(positions(players))
    main = shared_core()
    main.value(*engine._args(other_trump(p)), 0)
    expected = carabin_points(p)[0]
    helper = engine.new_core(1)
    assert helper.help(main, *engine._args(p), engine._guess(p)) == expected, str(p)
    assert main.value(*engine._args(p), engine._guess(p)) == expected, str(p)


def full_starts(count: int, players: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        deal = Deal.random(rng.randrange(10**6), players)
        out.append(deal.position(bidder=rng.randrange(players), trump=rng.randrange(4)))
    return out


def on_two_threads(start: Position) -> tuple[int, bool]:
    """The value of ``start`` found by a core and its helper at once (each stops the
    other once it has it), and whether the helper took part."""
    t = team.Team()
    out: dict[str, int] = {}
    helped: list[bool] = []
    main_started = threading.Event()

    def main() -> None:
        main_started.set()
        out["value"] = t.value(start)

    def helper() -> None:
        main_started.wait()
        while t.waiting() is None and "value" not in out:
            pass  # until the search is registered (or over)
        helped.append(t.help_one())

    threads = [threading.Thread(target=main), threading.Thread(target=helper)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return out["value"], helped[0]


@pytest.mark.parametrize("players", [4, 5, 6])
def test_full_deals_on_two_threads_get_the_value_of_one(players, monkeypatch):
    """Deals whose search alone takes 100,000 nodes or more (so that the helper has
    time to join, even on a loaded machine), helped at once (HELP_AFTER 0)."""
    monkeypatch.setattr(team, "HELP_AFTER", 0.0)
    core = engine.core()
    chosen: list[tuple[Position, int]] = []
    for p in full_starts(200, players, seed=players):
        core.clear()
        before = core.nodes
        value = engine.value(p)
        if core.nodes - before >= 100_000:
            chosen.append((p, value))
            if len(chosen) == 4:
                break
    assert len(chosen) == 4
    helped = 0
    for p, expected in chosen:
        core.clear()
        value, took_part = on_two_threads(p)
        assert value == expected, str(p)
        helped += took_part
    assert helped >= 1
    # no stop outlives its search: both of the team's cores search again to the end
    q = Position.parse("trump=S bidder=0 lead=1 next=R 0=.../A... 1=.../K... 2=.../.3..")
    assert engine.value(q) == 7


def test_a_long_search_is_helped_and_both_cores_search_again():
    """The slow 6-player row, helped after a moment: the same value as alone (known),
    and afterwards each core's next search runs to the end."""
    p = hard_start()
    t = team.Team()
    out: dict[str, int] = {}
    worker = threading.Thread(target=lambda: out.setdefault("value", t.value(p, tt_mb=64)))
    worker.start()
    helped = False
    while worker.is_alive():
        helped = t.help_one() or helped
    worker.join()
    assert helped
    assert out["value"] == 2  # HARD: bidder 5 of seed 4's 6-player deal, clubs
    q = Position.parse("trump=S bidder=0 lead=1 next=R 0=.../A... 1=.../K... 2=.../.3..")
    assert engine.value(q, tt_mb=64) == 7
    assert t._helper_core().value(*engine._args(q), 1) == 7


def test_help_is_refused_where_the_table_cannot_serve():
    p = full_starts(1, 5, seed=1)[0]
    args, guess = engine._args(p), engine._guess(p)
    helper = engine.new_core(1)
    plain = engine.new_core(1)
    plain.value(*args, guess)
    assert helper.help(plain, *args, guess) is None  # not shared
    main = shared_core()
    assert helper.help(main, *args, guess) is None  # no deal searched in it yet
    assert main.help(main, *args, guess) is None  # itself
    main.value(*args, guess)
    other = full_starts(1, 5, seed=2)[0]
    assert helper.help(main, *engine._args(other), engine._guess(other)) is None
    assert helper.help(main, *args, guess) == engine.value(p)
    with pytest.raises(TypeError):
        helper.help(None, *args, guess)
    odd = engine._carabin.Core(1, rank_points=[1] * 16)
    assert odd.help(main, *args, guess) is None  # other card rules


def test_a_helped_table_cannot_be_cleared_or_unshared_while_helped():
    p = hard_start()
    main = shared_core()
    args, guess = engine._args(p), engine._guess(p)
    main.value(*engine._args(other_trump(p)), 0)
    helper = engine.new_core(1)
    started = threading.Event()

    def run() -> None:
        started.set()
        with pytest.raises(KeyboardInterrupt):
            helper.help(main, *args, guess)

    thread = threading.Thread(target=run)
    thread.start()
    started.wait()
    try:
        for _ in range(1000):  # until the helper has registered
            try:
                main.clear()
            except RuntimeError as error:
                assert "helps" in str(error)
                with pytest.raises(RuntimeError, match="helps"):
                    main.share(False)
                break
        else:
            pytest.fail("the helper never ran")
    finally:
        helper.stop()
        thread.join()
    main.share(False)
    assert not main.is_shared


@pytest.mark.parametrize("seed", [1, 3, 5])
def test_deal_tables_with_helpers_are_those_of_one_worker(seed, monkeypatch):
    """5 players, every row helped as soon as a worker is free (HELP_AFTER 0)."""
    monkeypatch.setattr(team, "HELP_AFTER", 0.0)
    deal = Deal.random(seed, 5)
    one = deal_table(deal).to_json()
    calls: list[tuple[int, int]] = []
    two = deal_table(deal, workers=2, progress=lambda d, t: calls.append((d, t)))
    assert two.to_json() == one
    assert calls == [(i, 20) for i in range(21)]


def test_bounds_of_a_helped_search_under_a_time_limit_contain_the_value():
    """The slow 6-player row cut at 1 s: what the search and its helper proved by then
    (the helper's stop leaves its bounds) holds."""
    p = hard_start()
    t = team.Team()
    out: dict[str, tuple[int, int]] = {}
    worker = threading.Thread(
        target=lambda: out.setdefault("bounds", t.bounds(p, time_limit=1.0, tt_mb=64))
    )
    worker.start()
    while worker.is_alive():
        t.help_one()
    worker.join()
    lo, hi = out["bounds"]
    assert 0 <= lo <= 2 <= hi <= p.points_left()  # HARD's value: 2


@pytest.mark.parametrize("limit", [0.3, 1.0])
def test_deal_tables_with_helpers_under_a_time_limit_contain_the_exact_values(limit, monkeypatch):
    monkeypatch.setattr(team, "HELP_AFTER", 0.0)
    deal = Deal.random(4, 5)
    exact = deal_table(deal)
    bounded = deal_table(deal, workers=2, time_limit=limit)
    for row, ref in zip(bounded, exact, strict=True):
        lo, hi = row.bounds or (row.points, row.points)
        assert lo <= ref.points <= hi
        assert row.made in (None, ref.made)


@pytest.mark.parametrize("players", [4, 5, 6])
def test_solve_on_two_threads_is_solve_on_one(players, monkeypatch):
    """Every card's value, the best card and the chelem, full deals and tricks under
    way, every search helped at once (HELP_AFTER 0), 4 players too."""
    monkeypatch.setattr(team, "HELP_AFTER", 0.0)
    monkeypatch.setattr(team, "SOLVE_MIN_PLAYERS", 3)
    rng = random.Random(players)
    starts = full_starts(4, players, seed=10 + players)
    for p, played in zip(starts, [0, 1, players - 1, players + 1], strict=True):
        for _ in range(played):  # n - 1: each card completes the trick
            p = p.play(rng.choice(p.legal_moves()))
        engine.core().clear()
        one = engine.solve(p, moves=True)
        engine.core().clear()
        assert engine.solve(p, moves=True, workers=2) == one, str(p)


def test_solve_refuses_bad_workers():
    p = full_starts(1, 4, seed=3)[0]
    for workers in (0, 1.5, "2", 10**6):
        with pytest.raises(UsageError, match="workers"):
            engine.solve(p, workers=workers)


@pytest.mark.parametrize("limit", [0.05, 0.5, 30.0])
def test_solve_on_two_threads_under_a_time_limit_holds(limit, monkeypatch):
    """The slow 6-player row cut early (bounds that contain the value, no best card) or
    given time enough (the exact answer of one thread)."""
    monkeypatch.setattr(team, "HELP_AFTER", 0.0)
    p = full_starts(1, 5, seed=8)[0] if limit == 30.0 else hard_start()
    r = engine.solve(p, time_limit=limit, workers=2)
    if limit == 30.0:
        assert r == engine.solve(p)
        return
    lo, hi = r.bounds
    assert not r.exact and r.best is None
    assert lo <= 2 <= hi  # HARD's value
