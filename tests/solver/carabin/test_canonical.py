"""The canonical look-ups of the Carabin core (cb_canon in _core.h) change no answer.

At a trick boundary about to be searched the core also looks the position up by its
canonical cards: for each world and suit, the seats holding its live cards in order of
rank and their points, written with the lowest cards the deal gave those seats. These
tests check the claim it rests on (positions alike in that are alike in value) with the
search that does not use it, and then that the search gives the same answers with the
look-ups as without.
"""

from __future__ import annotations

import random
from contextlib import AbstractContextManager

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver import carabin
from solver.carabin import Deal, Position
from solver.carabin import engine as carabin_engine
from solver.carabin._core import MAX_PLAYERS
from solver.carabin.rules import card_points
from solver.cards import rank_of, suit_of
from tests.solver.carabin.test_world_bounds import check_same_answers, check_same_probes, switched


def canonical(on: bool, after: int | None = 0) -> AbstractContextManager:
    """The shared core with the canonical look-ups on or off, the single-world bounds
    (and so the look-ups, which start with them) from node ``after``, its table
    cleared."""
    return switched("set_canonical", on, after)


def _cards(mask: int) -> list[int]:
    return [c for c in range(64) if mask >> c & 1]


def canonical_position(p: Position, dealt: Position) -> Position:
    """p with each world's live cards replaced, suit by suit in order of rank, by the
    lowest card above the one taken before that the same seat was dealt in that world
    and that is worth the same points (the definition of cb_canon, written apart)."""
    owner = {c: (s, k) for s, pair in enumerate(p.hands) for k in (0, 1) for c in _cards(pair[k])}
    new: dict[int, int] = {}
    for k in (0, 1):
        for suit in range(4):
            below = -1
            live = sorted(c for c, (_s, kind) in owner.items() if kind == k and suit_of(c) == suit)
            for c in live:
                seat = owner[c][0]
                z = min(
                    d
                    for d in _cards(dealt.hands[seat][k])
                    if suit_of(d) == suit
                    and rank_of(d) > below
                    and card_points(d) == card_points(c)
                )
                new[c] = z
                below = rank_of(z)
    hands = tuple(
        tuple(sum(1 << new[c] for c in _cards(pair[k])) for k in (0, 1)) for pair in p.hands
    )
    return Position(
        trump=p.trump,
        bidder=p.bidder,
        lead=p.lead,
        hand=p.hand,
        hands=hands,
        trick_order=p.trick_order,
    )


def _boundary(rng: random.Random, players: int, tricks: int) -> tuple[Position, Position]:
    """A random deal of ``players`` (either trick order) and the trick boundary after
    ``tricks`` tricks of random play."""
    deal = Deal.random(players=players, rng=rng)
    order = rng.choice(["alternate", "left_then_right"])
    dealt = deal.position(bidder=rng.randrange(players), trump=rng.randrange(4), trick_order=order)
    p = dealt
    for _ in range(tricks * players):
        p = p.play(rng.choice(p.legal_moves()))
    return p, dealt


def test_canonical_positions_are_valued_alike_by_the_search_without_them():
    """The claim the look-ups rest on, checked by the search with them off: 120 random
    boundaries two to five tricks in and their canonical forms, exact value and every
    card's value; most canonical forms are other positions."""
    rng = random.Random(11)
    moved = 0
    with canonical(False, after=None):
        for i in range(120):
            p, dealt = _boundary(rng, 3 + i % 4, 2 + i % 4)
            c = canonical_position(p, dealt)
            moved += c != p
            assert carabin.value(c) == carabin.value(p), (str(p), str(c))
            # the cards differ, their values by place in the hand do not
            pv = sorted(carabin_engine.move_values(p).values())
            assert sorted(carabin_engine.move_values(c).values()) == pv, (str(p), str(c))
    assert moved >= 60


def test_a_canonical_position_is_its_own_canonical_form():
    rng = random.Random(12)
    for i in range(60):
        p, dealt = _boundary(rng, 3 + i % 4, 1 + i % 5)
        c = canonical_position(p, dealt)
        assert canonical_position(c, dealt) == c


def _core_canonical(p: Position, dealt: Position) -> int:
    args = carabin_engine._args(p)[:7]
    return carabin_engine.core().canonical(*args, carabin_engine._args(dealt)[1])


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10**6), st.integers(3, MAX_PLAYERS), st.integers(0, 7))
def test_the_core_computes_the_canonical_form_as_defined(seed, players, tricks):
    """cb_canon against canonical_position, at boundaries 0 to 7 tricks in, 3 to 6
    players, either trick order."""
    p, dealt = _boundary(random.Random(seed), players, tricks)
    c = canonical_position(p, dealt)
    expected = sum(left | right for left, right in c.hands)
    assert _core_canonical(p, dealt) == expected, str(p)


def test_the_canonical_form_refuses_hands_not_dealt():
    p, dealt = _boundary(random.Random(3), 4, 2)
    core = carabin_engine.core()
    args = carabin_engine._args(p)[:7]
    other = carabin_engine._args(dealt)[1]
    other[0], other[1] = other[1], other[0]  # seat 0's left hand dealt to seat 1
    with pytest.raises(ValueError, match="not within the dealt hand"):
        core.canonical(*args, other)
    twice = carabin_engine._args(dealt)[1]
    twice[5] |= twice[0]
    with pytest.raises(ValueError, match="a card twice"):
        core.canonical(*args, twice)
    with pytest.raises(ValueError, match="no card"):
        core.canonical(*args, [h | 1 << 13 for h in carabin_engine._args(dealt)[1]])


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 10**6),
    st.sampled_from([3, 4]),
    st.integers(0, 5),
    st.integers(0, 3),
)
def test_full_deals_get_the_same_answers_with_and_without_canonical_look_ups(
    seed, players, bidder, trump
):
    """Exact value, and make probes at the value and one above, the look-ups from the
    first node."""
    deal = Deal.random(seed=seed, players=players)
    start = deal.position(bidder=bidder % players, trump=trump)
    check_same_answers(start, lambda: canonical(False), lambda: canonical(True))


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 10**6), st.integers(3, MAX_PLAYERS), st.sampled_from([1, 2, 3]))
def test_boundaries_get_the_same_answers_with_and_without_canonical_look_ups(seed, players, tricks):
    """Boundaries one to three tricks in, 3 to 6 players, either trick order: the exact
    value and the make probe at every target, the look-ups from the first node."""
    p, _dealt = _boundary(random.Random(seed), players, tricks)
    check_same_probes(p, lambda: canonical(False), lambda: canonical(True))


def test_the_look_ups_cut_searches_and_change_no_value():
    """30 four-player deals, every bidder, the look-ups from the first node: the same
    values, in fewer nodes in all (node counts do not depend on the machine)."""
    core = carabin_engine.core()
    nodes, values = {}, {}
    for on in (False, True):
        with canonical(on):
            before = core.nodes
            values[on] = [
                carabin.value(deal.position(bidder=bidder, trump=suit_of(deal.turn)))
                for deal in (Deal.random(seed=seed, players=4) for seed in range(30))
                for bidder in range(4)
            ]
            nodes[on] = core.nodes - before
    assert values[True] == values[False]
    assert nodes[True] < nodes[False], nodes


def test_the_canonical_switch_refuses_what_is_not_a_bool() -> None:
    with pytest.raises(ValueError, match="invalid on 1"):
        carabin_engine.core().set_canonical(1)
