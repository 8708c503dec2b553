"""Equivalent cards (runs, see cb_moves_of in _core.h) in dense suits, mid-trick.

A card already played to the unfinished trick that does not win it is compared with
nothing again, so two cards of the mover that only it separates are equivalent; the
card winning the trick still separates them. The engine must agree with the reference
minimax on positions dealt from two suits around the point cards (such cards are
common there) stopped inside a trick, on positions of real deals played down at
random, and on three positions where the card winning the trick matters.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.carabin import TRICK_ORDERS, Deal, Position
from solver.carabin._core import MAX_PLAYERS
from tests.solver.carabin.test_engine import check_against_reference
from tests.solver.carabin.test_world_bounds import world_bounds

#: Positions of a random 3-player deal (seed 5, the 22nd of tools/carabin_core_driver.py
#: dump --players 3 --seed 5) played down at random: a search that let the mover's
#: cards on either side of the card winning the trick count as one run gets them wrong.
WINNING_CARD_SEPARATES = [
    "trump=H bidder=0 lead=2 next=L 0=Q..8./8...K 1=.85../2...2 2=.6.5./.2..Q",
    "trump=H bidder=0 lead=2 next=L 0=..8.9/K...K 1=.85../3...2 2=.6.J./.J..5",
    "trump=H bidder=0 lead=2 next=L 0=.A.8./8..T. 1=.85../2..4. 2=.6.5./...Q5",
]


@st.composite
def dense_positions(draw, players: int) -> Position:
    """Hands of 1 or 2 cards (3 at three players) from two suits of ranks 3 to A, an
    unfinished trick of at least one card."""
    m = draw(st.integers(1, 3 if players == 3 else 2))
    suits = draw(st.lists(st.integers(0, 3), min_size=2, max_size=2, unique=True))
    pool = [16 * s + r for s in suits for r in range(1, 13)]
    cards = draw(st.permutations(pool))[: 2 * players * m]
    hands = tuple(
        (
            sum(1 << c for c in cards[2 * m * s : 2 * m * s + m]),
            sum(1 << c for c in cards[2 * m * s + m : 2 * m * s + 2 * m]),
        )
        for s in range(players)
    )
    p = Position(
        draw(st.sampled_from([*suits, draw(st.integers(0, 3))])),
        draw(st.integers(0, players - 1)),
        draw(st.integers(0, players - 1)),
        0,
        hands,
        (),
        draw(st.sampled_from(TRICK_ORDERS)),
    )
    tricks = draw(st.integers(0, 2 * m - 1))
    for _ in range(tricks * players + draw(st.integers(1, players - 1))):
        p = p.play(draw(st.sampled_from(p.legal_moves())))
    return p


@settings(max_examples=300, deadline=None)
@given(players=st.integers(3, MAX_PLAYERS), data=st.data())
def test_dense_positions_inside_a_trick_match_the_reference(players, data):
    """Points, every card's value, the make probe and all tricks."""
    check_against_reference(data.draw(dense_positions(players)))


@settings(max_examples=100, deadline=None)
@given(players=st.integers(3, MAX_PLAYERS), data=st.data())
def test_dense_positions_with_world_bounds_match_the_reference(players, data):
    p = data.draw(dense_positions(players))
    with world_bounds(4):
        check_against_reference(p)


@pytest.mark.parametrize("text", WINNING_CARD_SEPARATES)
def test_the_card_winning_the_trick_still_separates_a_run(text):
    check_against_reference(Position.parse(text))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 2), st.integers(12, 15))
def test_real_deals_played_down_match_the_reference(seed, bidder, cards_left):
    """Three-player deals played at random down to a few cards, inside a trick or not."""
    rng = random.Random(seed)
    p = Deal.random(seed=seed, players=3).position(bidder=bidder, trump=rng.randrange(4))
    while _held(p) > cards_left:
        p = p.play(rng.choice(p.legal_moves()))
    check_against_reference(p)


def _held(p: Position) -> int:
    return sum(bin(left).count("1") + bin(right).count("1") for left, right in p.hands)
