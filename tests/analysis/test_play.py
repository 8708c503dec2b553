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
    CarabinPimc,
    CarabinState,
    DoubleDummy,
    Hidden,
    Pimc,
    PlayState,
    carabin_hidden,
    carabin_worlds,
    classes,
    hidden_of,
    play_carabin,
    play_deal,
)
from solver.carabin import Contract
from solver.carabin import Deal as CDeal
from solver.carabin import engine as carabin_engine
from solver.cards import card_count, cards_of, in_notation_order, suit_of
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
    q = Position.parse("trump=H lead=D E=A.K.. D=.A.. trick=QS")
    with pytest.raises(ValueError, match="not a legal card"):  # E must follow with AS
        core.pimc(q.hands[0], 0, q.hands[1], 1, 4, 1, 1, 1, q.trick, BONUS, [27])
    assert core.pimc(q.hands[0], 0, q.hands[1], 1, 4, 1, 1, 1, q.trick, BONUS, [12])[0] == 0
    with pytest.raises(ValueError):  # the pool overlaps the hand
        core.pimc(p.hands[0], 0, p.hands[0], 1, 4, 1, 1, 0, -1, BONUS, [12])


# ---------------------------------------------------------------- Carabin


def carabin_state(deal_seed: int, players: int, cards: int, play_seed: int, chelem: bool):
    """A Carabin contract after ``cards`` random cards (random bidder, turn-up suit trump)."""
    rng = random.Random(play_seed)
    deal = CDeal.random(players=players, rng=random.Random(deal_seed))
    contract = Contract(rng.randrange(players), suit_of(deal.turn), chelem)
    pos = deal.position(bidder=contract.bidder, trump=contract.trump)
    state = CarabinState(pos, deal.turn, chelem, deal.points_in_play)
    for _ in range(min(cards, 8 * players - 1)):
        state.step(rng.choice(state.position.legal_moves()))
    return state


def carabin_reference(state: CarabinState, samples: int, seed: int) -> int:
    """Every legal card in every world (the same worlds), success counted for the
    mover's side, the most successes, ties to notation order."""
    p = state.position
    worlds = carabin_worlds(state, samples, seed)
    bidder_moves = p.to_move == p.bidder
    wins = {}
    for card in p.legal_moves():  # notation order
        wins[card] = sum(state.succeeds(w, card) == bidder_moves for w in worlds)
    return max(wins, key=lambda c: (wins[c], -p.legal_moves().index(c)))


def test_carabin_success_is_the_double_dummy_outcome():
    # the make probe and the all-tricks search against the exact value of the child
    for i in range(30):
        state = carabin_state(i, 3 + i % 2, i % 17, i, i % 3 == 0)
        p = state.position
        for card in p.legal_moves():
            child, winner, pts = p.step(card)
            won = state.bidder_points + (pts if winner == p.bidder else 0)
            lost = state.bidder_lost or (winner is not None and winner != p.bidder)
            if child.is_over:
                final, sweep = won, not lost
            else:
                final = won + carabin_engine.value(child)
                sweep = not lost and carabin_engine.all_tricks(child)
            expected = sweep if state.chelem else 2 * final > state.points_in_play
            assert state.succeeds(p, card) == expected


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 2**32),
    st.integers(3, 4),
    st.integers(0, 31),
    st.integers(0, 2**32),
    st.booleans(),
    st.integers(1, 6),
    st.integers(0, 2**32),
)
def test_carabin_choice_is_the_full_evaluation_choice(
    deal_seed, players, cards, play_seed, chelem, samples, seed
):
    state = carabin_state(deal_seed, players, cards, play_seed, chelem)
    fast = CarabinPimc(samples, seed=seed).choose(state)
    assert fast == carabin_reference(state, samples, random.Random(seed).getrandbits(64))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(3, 6), st.integers(0, 47), st.integers(0, 2**32))
def test_carabin_knowledge_is_what_the_view_infers(deal_seed, players, cards, play_seed):
    state = carabin_state(deal_seed, players, cards, play_seed, False)
    inf = state.view().inference()
    pool, hidden = carabin_hidden(state)
    assert pool == inf.pool
    assert hidden == [(s, k, size) for s, k, size, _, _ in inf.hidden]
    for w in carabin_worlds(state, 3, 1):
        me = state.position.to_move
        assert w.hands[me] == state.position.hands[me]
        others = [h for s, pair in enumerate(w.hands) if s != me for h in pair]
        assert sum(others) & ~pool == 0  # drawn from the pool, no card twice
        assert card_count(sum(others)) == sum(size for _, _, size in hidden)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(3, 6), st.integers(0, 47), st.integers(0, 2**64 - 1))
def test_carabin_worlds_drawn_in_the_core_are_carabin_worlds(deal_seed, players, cards, seed):
    # CarabinPimc decides over the worlds the core draws: card for card these
    state = carabin_state(deal_seed, players, cards, deal_seed, False)
    pool, hidden = carabin_hidden(state)
    drawn = carabin_engine.draw_worlds(state.position, pool, hidden, 7, seed)
    assert [w.hands for w in drawn] == [w.hands for w in carabin_worlds(state, 7, seed)]


@pytest.mark.parametrize("players", [3, 4])
def test_carabin_contract_is_legal_and_deterministic(players):
    deal = CDeal.random(players=players, rng=random.Random(players))
    contract = Contract(1, suit_of(deal.turn))
    a = play_carabin(deal, contract, [CarabinPimc(4, seed=s) for s in range(players)])
    assert sorted(a.cards) == sorted(cards_of(sum(x | y for x, y in deal.hands)))
    assert a == play_carabin(deal, contract, [CarabinPimc(4, seed=s) for s in range(players)])
    # the result is the one the cards played give
    pos, points = deal.position(bidder=1, trump=contract.trump), 0
    for card in a.cards:
        pos, winner, pts = pos.step(card)
        points += pts if winner == 1 else 0
    assert a.made == (2 * points > deal.points_in_play)


def test_carabin_sure_chelem_is_made_and_hopeless_contract_fails():
    deal = CDeal.parse("0=AKQJ.../T987... 1=6543.../2...AKQ 2=.AKQJ../.T987.. turn=6H")
    assert play_carabin(deal, Contract(0, 0, True), [CarabinPimc(3, seed=1)] * 3).made
    assert not play_carabin(deal, Contract(1, 0), [CarabinPimc(3, seed=1)] * 3).made


def carabin_random_states(count: int, seed: int):
    """(state, samples, seed) for ``count`` decisions: 3 to 6 players, any number of
    cards played (often inside a trick), a third of them chelem contracts."""
    rng = random.Random(seed)
    for i in range(count):
        players = 3 + i % 4
        # deals of 5 and 6 players from a few tricks in: a full one can take minutes
        first = 0 if players < 5 else 2 * players
        cards = rng.randrange(first, 8 * players)
        state = carabin_state(rng.getrandbits(32), players, cards, rng.getrandbits(32), i % 3 == 0)
        yield state, rng.randrange(1, 21), rng.getrandbits(32)


def test_carabin_compiled_decision_is_the_python_loop():
    # the same choice, worlds evaluated and undecided searches as the loop in Python
    for state, samples, seed in carabin_random_states(160, 1):
        fast = CarabinPimc(samples, seed=seed)
        slow = CarabinPimc(samples, seed=seed, compiled=False)
        assert fast.choose(state) == slow.choose(state), str(state.position)
        assert fast.stats == slow.stats, str(state.position)


def test_carabin_compiled_decision_counts_undecided_as_the_python_loop():
    # a time limit that has passed before a search starts: every search is undecided,
    # half a failure, in both
    undecided = 0
    for state, samples, seed in carabin_random_states(24, 2):
        fast = CarabinPimc(samples, seed=seed, time_limit=1e-9)
        slow = CarabinPimc(samples, seed=seed, time_limit=1e-9, compiled=False)
        assert fast.choose(state) == slow.choose(state), str(state.position)
        assert fast.stats == slow.stats, str(state.position)
        undecided += fast.stats.undecided
    assert undecided > 0


@pytest.mark.parametrize("players", [3, 4])
def test_carabin_compiled_play_is_the_python_play(players):
    # whole contracts (a chelem in four), card for card
    rng = random.Random(players)
    for i in range(24):
        deal = CDeal.random(players=players, rng=rng)
        contract = Contract(rng.randrange(players), suit_of(deal.turn), i % 4 == 3)
        played, stats = [], []
        for compiled in (True, False):
            policies = [
                CarabinPimc(20, seed=players * i + s, compiled=compiled) for s in range(players)
            ]
            played.append(play_carabin(deal, contract, policies))
            stats.append([p.stats for p in policies])
        assert played[0] == played[1] and stats[0] == stats[1], str(deal)
