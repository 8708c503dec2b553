"""Carabin αμ: depth 1 is PIMC, full depth is the best pure strategy (an enumeration of
the mover's strategies, every other seat seeing the cards), budgets checked."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.carabin_alphamu import CarabinAlphaMu, check_budget, search
from analysis.play import (
    CarabinPimc,
    CarabinState,
    carabin_classes,
    carabin_hidden,
    carabin_worlds,
    play_carabin,
)
from solver.carabin import Contract
from solver.carabin import Deal as CDeal
from solver.cards import cards_of, suit_of
from solver.errors import RulesError

from .test_play import carabin_state


@settings(max_examples=25, deadline=None)
@given(
    st.integers(0, 2**32),
    st.integers(3, 4),
    st.integers(0, 31),
    st.integers(0, 2**32),
    st.booleans(),
    st.integers(1, 8),
    st.integers(0, 2**32),
)
def test_depth_one_is_pimc(deal_seed, players, cards, play_seed, chelem, worlds, seed):
    state = carabin_state(deal_seed, players, cards, play_seed, chelem)
    pimc = CarabinPimc(worlds, seed=seed).choose(state)
    # the search itself at depth 1 (every=True: not the compiled shortcut) and the policy
    searched = CarabinAlphaMu(worlds, depth=1, seed=seed).decide(state, every=True)
    assert searched.card == pimc
    assert CarabinAlphaMu(worlds, depth=1, seed=seed).choose(state) == pimc


def _vectors(state, worlds, points, lost) -> set[tuple[bool, ...]]:
    """The per-world results of every pure strategy of the mover from ``worlds`` (one
    public state), every other seat playing seeing every card (his partners for him,
    his opponents against him): built bottom-up without the engine, a strategy being a
    card at each history he may see, so at his node the union over his cards, and at
    another seat's node every choice of one vector per card combined world by world.
    Vectors are kept whole (a set of distinct ones: no front, no cut)."""
    first = worlds[0]
    me, bidder = state.position.to_move, first.bidder
    if first.is_over:
        made = not lost if state.chelem else 2 * points > state.points_in_play
        return {(made == (me == bidder),) * len(worlds)}

    def child(card: int, keep: list[int]) -> tuple[list[int], set[tuple[bool, ...]]]:
        out = []
        for i in keep:
            nxt, winner, pts = worlds[i].step(card)
            out.append(nxt)
        p2 = points + (pts if winner == bidder else 0)
        l2 = lost or (winner is not None and winner != bidder)
        return keep, _vectors(state, out, p2, l2)

    seat = first.to_move
    if seat == me:
        every = list(range(len(worlds)))
        return set().union(*(child(c, every)[1] for c in first.legal_moves()))
    friend = seat != bidder and me != bidder
    cards = sorted({c for w in worlds for c in w.legal_moves()})
    kids = [child(c, [i for i, w in enumerate(worlds) if w.legal_set() >> c & 1]) for c in cards]
    combos: set[tuple[bool, ...]] = {(not friend,) * len(worlds)}
    for keep, vecs in kids:
        nxt = set()
        for row in combos:
            for v in vecs:
                r = list(row)
                for j, i in enumerate(keep):
                    r[i] = (r[i] or v[j]) if friend else (r[i] and v[j])
                nxt.add(tuple(r))
        combos = nxt
    return combos


def best_strategies(state: CarabinState, worlds) -> dict[int, int]:
    """Per legal card of the mover, the most worlds his side wins over every pure
    strategy that starts with it."""
    best = {}
    for card in state.position.legal_moves():
        out, points, lost = [], state.bidder_points, state.bidder_lost
        for w in worlds:
            nxt, winner, pts = w.step(card)
            out.append(nxt)
        if winner is not None:
            points += pts if winner == w.bidder else 0
            lost = lost or winner != w.bidder
        best[card] = max(sum(v) for v in _vectors(state, out, points, lost))
    return best


@settings(max_examples=15, deadline=None)
@given(
    st.integers(0, 2**32),
    st.integers(0, 2**32),
    st.booleans(),
    st.integers(12, 14),
    st.integers(2, 4),
    st.integers(0, 2**32),
)
def test_full_depth_is_the_best_strategy(deal_seed, play_seed, chelem, cards, count, seed):
    # 3 players, two cards in each hand (less the cards of the trick): at most two
    # real decisions of the mover, then forced cards
    state = carabin_state(deal_seed, 3, cards, play_seed, chelem)
    pool, _ = carabin_hidden(state)
    cands = [k[0] for k in carabin_classes(state.position, pool)]
    worlds = carabin_worlds(state, count, seed)
    d = search(state, cands, worlds, None, every=True)
    best = best_strategies(state, worlds)
    assert list(d.values) == [best[c] for c in cands]
    top = max(best.values())
    assert d.card == next(c for c in state.position.legal_moves() if best[c] == top)
    # without every: the same card (the cuts keep the choice)
    assert search(state, cands, worlds, None).card == d.card


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 2**32), st.integers(0, 2**32))
def test_deeper_is_never_worth_more(deal_seed, play_seed, seed):
    state = carabin_state(deal_seed, 3, 12, play_seed, False)
    pool, _ = carabin_hidden(state)
    cands = [k[0] for k in carabin_classes(state.position, pool)]
    worlds = carabin_worlds(state, 4, seed)
    shallow = search(state, cands, worlds, 1, every=True).values
    deep = search(state, cands, worlds, None, every=True).values
    assert all(
        b is not None and a is not None and b <= a for a, b in zip(shallow, deep, strict=True)
    )


@pytest.mark.parametrize(("players", "worlds"), [(3, 4), (4, 2)])
def test_whole_contracts_are_played_legally(players, worlds):
    """Every card legal (play_carabin refuses others), the same play for the same seeds."""
    deal = CDeal.random(players=players, rng=random.Random(players))
    contract = Contract(1, suit_of(deal.turn))

    def play():
        pols = [CarabinAlphaMu(worlds, 2, seed=s, time_limit=None) for s in range(players)]
        return play_carabin(deal, contract, pols)

    a = play()
    assert sorted(a.cards) == sorted(cards_of(sum(x | y for x, y in deal.hands)))
    if players == 3:
        assert play() == a


def test_time_limit_gives_a_finished_iteration():
    state = carabin_state(3, 3, 0, 3, False)
    p = CarabinAlphaMu(20, depth=None, seed=1, time_limit=0.01)
    d = p.decide(state)
    assert state.position.legal_set() >> d.card & 1
    assert d.depth >= 1 and p.stats.timeouts == 1


@pytest.mark.parametrize(
    ("kwargs", "quoted"),
    [
        ({"worlds": 0}, "invalid worlds 0"),
        ({"depth": 0}, "invalid depth 0"),
        ({"time_limit": 0}, "invalid time_limit 0"),
    ],
)
def test_bad_budget_is_one_clear_error(kwargs, quoted):
    with pytest.raises(RulesError, match=quoted):
        CarabinAlphaMu(**kwargs)
    with pytest.raises(RulesError, match=quoted):
        check_budget(**{"worlds": 20, "depth": 2, "time_limit": None, **kwargs})
