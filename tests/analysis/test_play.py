"""Card play by PIMC (analysis.play) against slow, obviously correct references: the
choice of a per-world ``move_values`` loop over the same worlds, the view's own
inference, double-dummy play when nothing is hidden, the full evaluation of every
legal card in every world."""

from __future__ import annotations

import random
from collections import defaultdict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.play import (
    DoubleDummy,
    Hidden,
    Pimc,
    PlayState,
    classes,
    hidden_of,
    play_deal,
)
from solver.cards import card_count, cards_of, in_notation_order
from solver.errors import RulesError
from solver.klabberjass import SEED, Position, engine
from solver.klabberjass._core import sample_hands
from solver.klabberjass.deal import Deal
from solver.klabberjass.rules import points_of

BONUS = SEED.last_trick


def reference_choice(state: PlayState, samples: int, seed: int) -> int:
    """PIMC the slow way: the worlds from the view's inference, every legal card of
    every world by engine.move_values, the greatest total, ties to notation order."""
    view = state.view()
    inf = view.inference()
    _, _, size, known, _ = inf.hidden[0]
    base = inf.position
    totals: dict[int, int] = defaultdict(int)
    for drawn in sample_hands(inf.pool, size - card_count(known), samples, seed):
        hands = list(base.hands)
        hands[1 - view.seat] = known | drawn
        world = Position(base.trump, base.lead, (hands[0], hands[1]), base.trick)
        for card, v in engine.move_values(world, SEED).items():
            totals[card] += v
    order = in_notation_order(totals)
    return max(order, key=lambda c: (totals[c], -order.index(c)))


def random_state(deal_seed: int, cards: int, play_seed: int, show: int) -> PlayState:
    """A deal after ``cards`` random legal cards; ``show`` 1: E showed some cards,
    2: D did, 3: both, each a random part of his hand (as declared sequences would be)."""
    rng = random.Random(play_seed)
    deal = Deal.random(deal_seed)
    trump = rng.randrange(4)
    shown = [0, 0]
    for seat in (0, 1):
        if show >> seat & 1:
            shown[seat] = sum(1 << c for c in cards_of(deal.hands[seat]) if rng.random() < 0.4)
    state = PlayState(Position(trump, 0, deal.hands), deal.turn, (shown[0], shown[1]))
    for _ in range(cards):
        state.step(rng.choice(state.position.legal_moves()))
    return state


positions = st.tuples(
    st.integers(0, 2**32),
    st.integers(0, 17),
    st.integers(0, 2**32),
    st.integers(0, 3),
)


@settings(max_examples=300, deadline=None)
@given(positions, st.integers(1, 12), st.integers(0, 2**32))
def test_fast_choice_is_the_reference_pimc_choice(pos, samples, seed):
    state = random_state(*pos)
    fast = Pimc(samples, seed=seed).choose(state)
    first_seed = random.Random(seed).getrandbits(64)  # the worlds of its first search
    assert fast == reference_choice(state, samples, first_seed)


@settings(max_examples=60, deadline=None)
@given(positions, st.integers(1, 8), st.integers(0, 2**32))
def test_a_view_is_played_as_the_state_it_comes_from(pos, samples, seed):
    state = random_state(*pos)
    view = state.view()
    assert Pimc(samples, seed=seed).choose_view(view) == Pimc(samples, seed=seed).choose(state)


@settings(max_examples=80, deadline=None)
@given(positions)
def test_what_the_mover_knows_is_what_the_view_infers(pos):
    state = random_state(*pos)
    inf = state.view().inference()
    _, _, size, known, _ = inf.hidden[0]
    assert hidden_of(state) == Hidden(known, inf.pool, size - card_count(known))
    p, q = state.position, inf.position
    me = p.to_move
    assert (q.trump, q.lead, q.trick, q.hands[me]) == (p.trump, p.lead, p.trick, p.hands[me])


@settings(max_examples=60, deadline=None)
@given(positions, st.integers(1, 10), st.integers(0, 2**32))
def test_the_early_stop_never_changes_the_choice(pos, samples, seed):
    state = random_state(*pos)
    p = state.position
    h = hidden_of(state)
    cands = [k[0] for k in classes(p, h)]
    trick = -1 if p.trick is None else p.trick
    args = (p.hands[p.to_move], h.known, h.pool, h.need, samples, seed, p.trump, p.lead, trick)
    core = engine.core()
    fast, fast_sums, _, _ = core.pimc(*args, BONUS, cands)
    full, full_sums, _, rows = core.pimc(*args, BONUS, cands, exact=True)
    assert fast == full
    assert fast_sums[fast] == full_sums[full] == max(full_sums)
    assert rows is not None and [sum(col) for col in zip(*rows, strict=True)] == full_sums
    # a total the early stop completed is the true total
    assert all(s in (-1, t) for s, t in zip(fast_sums, full_sums, strict=True))


@settings(max_examples=60, deadline=None)
@given(positions, st.integers(1, 8), st.integers(0, 2**32))
def test_equivalent_cards_have_equal_values_in_every_world(pos, samples, seed):
    state = random_state(*pos)
    p = state.position
    h = hidden_of(state)
    ks = classes(p, h)
    assert sorted(c for k in ks for c in k) == sorted(p.legal_moves())
    legal = in_notation_order(p.legal_moves())
    trick = -1 if p.trick is None else p.trick
    args = (p.hands[p.to_move], h.known, h.pool, h.need, samples, seed, p.trump, p.lead, trick)
    _, sums, _, rows = engine.core().pimc(*args, BONUS, legal, exact=True)
    assert rows is not None
    for k in ks:
        for row in rows:
            assert len({row[legal.index(c)] for c in k}) == 1
    # choosing among the classes' first cards picks the card that choosing among all
    # legal cards picks: the greatest total, first in notation order
    reps = [k[0] for k in ks]
    i, _, _, _ = engine.core().pimc(*args, BONUS, reps)
    first_best = next(c for c, s in zip(legal, sums, strict=True) if s == max(sums))
    assert reps[i] == first_best


def test_classes_follow_the_cards_played():
    # E: T, 9, 7 of spades; the 8 may be D's (pool), so 9 and 7 are apart
    p = Position.parse("trump=H lead=E E=T97.A.. D=AK8.K..")
    ks = classes(p, Hidden(0, p.hands[1], 4))
    assert [len(k) for k in ks] == [1, 1, 1, 1]
    # with the 8 out of the pool, the 9 and the 7 are one class; T (10 points) stays apart
    ks = classes(p, Hidden(0, p.hands[1] & ~(1 << 6), 3))
    assert sorted(len(k) for k in ks) == [1, 1, 2]
    # the card led separates: 9 and 7 of spades around a led 8
    q = Position.parse("trump=H lead=D E=97.A.. D=A.K.. trick=8S")
    assert [len(k) for k in classes(q, Hidden(0, q.hands[1], 2))] == [1, 1]


@pytest.mark.parametrize("deal_seed", range(12))
def test_nothing_hidden_plays_as_double_dummy(deal_seed):
    deal = Deal.random(deal_seed)
    trump = deal_seed % 4
    shown = (deal.hands[0], deal.hands[1])  # every card shown: one world, the true one
    pimc = play_deal(deal.hands, trump, deal.turn, (Pimc(5, seed=1), Pimc(3, seed=2)), shown=shown)
    dd = play_deal(deal.hands, trump, deal.turn, (DoubleDummy(), DoubleDummy()))
    assert pimc == dd
    assert dd.points[0] == engine.value(Position(trump, 0, deal.hands))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 2**32), st.integers(1, 20))
def test_double_dummy_policy_plays_a_best_card_first_in_notation(deal_seed, play_seed, k):
    state = random_state(deal_seed, min(k, 17), play_seed, 0)
    values = engine.move_values(state.position, SEED)
    card = DoubleDummy().choose(state)
    best = max(values.values())
    assert card == next(c for c, v in values.items() if v == best)


@pytest.mark.parametrize("deal_seed", range(8))
def test_contract_is_legal_complete_and_deterministic(deal_seed):
    deal = Deal.random(100 + deal_seed)
    trump = deal.turn_suit

    def play(seed_e, seed_d):
        return play_deal(deal.hands, trump, deal.turn, (Pimc(8, seed=seed_e), Pimc(8, seed=seed_d)))

    a = play(1, 2)
    # every card once, each legal where it was played (replayed through Position.step)
    assert sorted(a.cards) == sorted(cards_of(deal.hands[0] | deal.hands[1]))
    pos, points = Position(trump, 0, deal.hands), [0, 0]
    for card in a.cards:
        pos, winner, pts = pos.step(card)
        if winner is not None:
            points[winner] += pts
    assert tuple(points) == a.points
    assert sum(a.points) == points_of(deal.hands[0] | deal.hands[1], trump) + BONUS
    assert play(1, 2) == a


def test_policy_seed_from_a_random_generator_is_reproducible():
    deal = Deal.random(5)
    runs = []
    for _ in range(2):
        rng = random.Random(11)
        p = Pimc(6, seed=rng)
        runs.append(play_deal(deal.hands, deal.turn_suit, deal.turn, (p, p)))
        runs.append(rng.random())
    assert runs[:2] == runs[2:]
    assert p.stats.decisions > 0 and p.stats.worlds == 6 * p.stats.decisions


def test_sampler_is_seeded_within_the_pool_and_even():
    pool = sum(1 << c for c in cards_of(0x1FE0_1FE0_1FE0))  # 24 cards
    a = sample_hands(pool, 7, 30000, 99)
    assert a == sample_hands(pool, 7, 30000, 99)
    assert a != sample_hands(pool, 7, 30000, 100)
    assert all(h & ~pool == 0 and card_count(h) == 7 for h in a)
    counts = defaultdict(int)
    for h in a:
        for c in cards_of(h):
            counts[c] += 1
    # each card is drawn with probability 7/24: 8750 times expected, sd about 79
    assert all(abs(counts[c] - 8750) < 500 for c in cards_of(pool))


def test_bad_arguments_are_refused():
    with pytest.raises(RulesError):
        Pimc(0)
    core = engine.core()
    p = Position.parse("trump=H lead=E E=A... D=K...")
    with pytest.raises(ValueError):  # a candidate not in the hand
        core.pimc(p.hands[0], 0, p.hands[1], 1, 4, 1, 1, 0, -1, BONUS, [12 + 16])
    with pytest.raises(ValueError):  # more cards needed than the pool has
        core.pimc(p.hands[0], 0, p.hands[1], 2, 4, 1, 1, 0, -1, BONUS, [12])
    with pytest.raises(ValueError):  # the pool overlaps the hand
        core.pimc(p.hands[0], 0, p.hands[0], 1, 4, 1, 1, 0, -1, BONUS, [12])
