"""Persistent worlds in Klabberjass PIMC (analysis.play.Pimc(persist=True),
solver.klabberjass._core.carry_hands): a carried world is distributed as a fresh draw
given the cards seen (chi-square against the uniform law, and a biased carry that the
test catches), the player still plays legal, complete, reproducible contracts, and the
default player draws fresh worlds from its seed at every decision, as before."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from analysis.play import Auction as CallList
from analysis.play import (
    AuctionInference,
    Pimc,
    PlayState,
    hidden_of,
    play_deal,
)
from solver.cards import card_count, cards_of, parse_card, parse_holding
from solver.klabberjass import PACK, Position
from solver.klabberjass._core import carry_hands, sample_hands
from solver.klabberjass.deal import Deal
from solver.klabberjass.rules import points_of

BONUS = 10


def chi2_limit(df: int) -> float:
    """Far in the upper tail of the chi-square law with ``df`` degrees of freedom (its
    mean plus six standard deviations), as in tests/solver/test_views.py."""
    return df + 6 * (2 * df) ** 0.5


def chi2_uniform(sets: list[int], pool: int, need: int) -> tuple[float, int]:
    """(chi-square of ``sets`` against the uniform law on the ``need``-card sets of
    ``pool``, degrees of freedom); a set outside that support fails at once."""
    space = [sum(1 << c for c in s) for s in itertools.combinations(cards_of(pool), need)]
    counts = Counter(sets)
    assert set(counts) <= set(space)
    expected = len(sets) / len(space)
    return sum((counts[h] - expected) ** 2 / expected for h in space), len(space) - 1


POOL = parse_holding("AT98.K7..QJ")  # 8 cards

# (the smaller pool, the cards the other hand draws from it): a card of the old
# sets played (fewer cards kept), a void shown (cards to add), both, the same size
CARRIES = [
    (POOL & ~parse_holding("8..."), 3),
    (POOL & ~parse_holding(".K7.."), 4),
    (POOL & ~parse_holding("9.K7.."), 3),
    (POOL & ~parse_holding("A..."), 4),
    (POOL & ~parse_holding("AT..."), 2),
]


@pytest.mark.parametrize(("pool", "need"), CARRIES)
def test_carried_sets_are_uniform_sets_of_the_smaller_pool(pool, need):
    before = sample_hands(POOL, 4, 30000, 7)
    after = carry_hands(before, pool, need, 8)
    assert all(h & ~pool == 0 and card_count(h) == need for h in after)
    chi2, df = chi2_uniform(after, pool, need)
    assert chi2 < chi2_limit(df)
    # fresh draws from the smaller pool pass the same test
    chi2, df = chi2_uniform(sample_hands(pool, need, 30000, 9), pool, need)
    assert chi2 < chi2_limit(df)


def test_a_biased_carry_is_caught():
    # keeping the cards of the old set that are still in the pool and dropping the
    # lowest ones (not uniformly chosen) to the size: the test rejects it
    pool, need = CARRIES[0]
    before = sample_hands(POOL, 4, 30000, 7)
    biased = []
    for h in before:
        k = h & pool
        while card_count(k) > need:
            k &= k - 1
        while card_count(k) < need:
            k |= pool & ~k & -(pool & ~k)
        biased.append(k)
    chi2, df = chi2_uniform(biased, pool, need)
    assert chi2 > chi2_limit(df)


def test_carry_is_seeded_and_checked():
    before = sample_hands(POOL, 4, 50, 1)
    pool, need = CARRIES[2]
    assert carry_hands(before, pool, need, 5) == carry_hands(before, pool, need, 5)
    assert carry_hands(before, pool, need, 5) != carry_hands(before, pool, need, 6)
    # a world already fitting the pool is kept as it is
    fitting = sample_hands(pool, need, 50, 2)
    assert carry_hands(fitting, pool, need, 5) == fitting
    assert carry_hands([], pool, need, 5) == []
    with pytest.raises(ValueError, match="need 9 cards from a pool of 5"):
        carry_hands(before, pool, 9, 5)
    with pytest.raises((ValueError, OverflowError, TypeError)):
        carry_hands([-1], pool, need, 5)


class Recorder:
    """A core whose PIMC decisions are noted: (arguments, preset worlds)."""

    def __init__(self, inner):
        self.inner = inner
        self.calls: list[tuple[tuple, list[int] | None]] = []

    def pimc(self, *args, worlds=None, **kw):
        self.calls.append((args, worlds))
        return self.inner.pimc(*args, worlds=worlds, **kw)


# A four-card ending: E holds AS KS AD 7C, D 7S 8S 8C 9C, hearts are trump (turn-up
# 8H); nine other cards are unseen by E (D's four and 9S QD 7H TC of the stock), the
# rest were played. E leads the ace, then D plays; E wins the trick and leads again.
E_HAND, D_HAND = parse_holding("AK..A.7"), parse_holding("87...98")
TURN = parse_card("8H")
UNSEEN = parse_holding("9..Q.T") | parse_holding(".7..")


def ending(lead: str) -> PlayState:
    played = PACK & ~(E_HAND | D_HAND | UNSEEN | 1 << TURN)
    state = PlayState(Position(2, 0, (E_HAND, D_HAND)), TURN, played=list(cards_of(played)))
    assert hidden_of(state).pool == D_HAND | UNSEEN and hidden_of(state).need == 4
    return state


@pytest.mark.parametrize(
    ("lead", "reply"),
    [("AS", "7S"), ("AD", "8C")],  # D follows; D shows he holds no diamond, no trump
)
def test_carried_worlds_are_fresh_draws_given_the_play(lead, reply):
    worlds: list[int] = []
    for seed in range(400):
        state = ending(lead)
        player = Pimc(20, seed=seed, persist=True)
        player.core = Recorder(player.core)
        player.choose(state)  # draws and keeps its worlds; the card played is fixed
        state.step(parse_card(lead))
        state.step(parse_card(reply))
        assert state.position.to_move == 0
        player.choose(state)
        calls = player.core.calls
        assert len(calls) == 2 and calls[0][1] is None and calls[1][1] is not None
        assert player.stats.carried == 1
        worlds += calls[1][1]
    hidden = hidden_of(state)
    chi2, df = chi2_uniform(worlds, hidden.pool, hidden.need)
    assert chi2 < chi2_limit(df)


def replayed_points(deal: Deal, trump: int, cards: tuple[int, ...]) -> tuple[int, int]:
    """The points of a card sequence replayed through Position.step (each card legal)."""
    pos, points = Position(trump, 0, deal.hands), [0, 0]
    for card in cards:
        pos, winner, pts = pos.step(card)
        if winner is not None:
            points[winner] += pts
    return points[0], points[1]


@pytest.mark.parametrize("deal_seed", range(6))
def test_persistent_player_plays_legal_complete_reproducible_contracts(deal_seed):
    deal = Deal.random(300 + deal_seed)
    trump = deal.turn_suit
    rng = random.Random(deal_seed)
    shown = tuple(
        sum(1 << c for c in cards_of(h) if rng.random() < 0.3) for h in deal.hands
    )  # cards declared before the play

    def play(one_player: bool):
        e = Pimc(8, seed=deal_seed, persist=True)
        d = e if one_player else Pimc(8, seed=deal_seed + 1, persist=True)
        out = play_deal(deal.hands, trump, deal.turn, (e, d), shown=shown)  # type: ignore[arg-type]
        return out, e.stats

    for one_player in (False, True):
        a, stats = play(one_player)
        assert sorted(a.cards) == sorted(cards_of(deal.hands[0] | deal.hands[1]))
        assert replayed_points(deal, trump, a.cards) == a.points
        assert sum(a.points) == points_of(deal.hands[0] | deal.hands[1], trump) + BONUS
        assert play(one_player)[0] == a
        assert 0 < stats.carried < stats.decisions


def test_first_decision_is_the_default_one_and_contracts_do_not_share_worlds():
    deal = Deal.random(41)
    state = PlayState(Position(deal.turn_suit, 0, deal.hands), deal.turn)
    for seed in range(5):
        assert Pimc(10, seed=seed, persist=True).choose(state) == Pimc(10, seed=seed).choose(state)
    # one player for two contracts: his worlds are carried within each, never across
    player = Pimc(6, seed=3, persist=True)
    player.core = Recorder(player.core)
    for _ in range(2):
        play_deal(deal.hands, deal.turn_suit, deal.turn, (player, player))  # type: ignore[arg-type]
    firsts = [
        i
        for i, (args, _) in enumerate(player.core.calls)
        if args[8] == -1 and card_count(args[0]) == 9
    ]
    assert len(firsts) == 2 and all(player.core.calls[i][1] is None for i in firsts)


@pytest.mark.parametrize("deal_seed", range(3))
def test_default_player_draws_fresh_worlds_from_its_seed_at_every_decision(deal_seed):
    deal = Deal.random(500 + deal_seed)
    rng = random.Random(deal_seed)
    player = Pimc(6, seed=rng)
    player.core = Recorder(player.core)
    seeds = random.Random(deal_seed)
    a = play_deal(deal.hands, deal.turn_suit, deal.turn, (player, player))  # type: ignore[arg-type]
    assert player.stats.carried == 0 and len(player.core.calls) == player.stats.decisions > 0
    for args, worlds in player.core.calls:
        assert worlds is None and args[5] == seeds.getrandbits(64)
    # persist=False is the default
    again = play_deal(
        deal.hands,
        deal.turn_suit,
        deal.turn,
        (Pimc(6, seed=random.Random(deal_seed), persist=False),) * 2,
    )
    assert again == a


def test_worlds_conditioned_on_the_auction_are_not_carried():
    deal = Deal.random(8)
    trump = deal.turn_suit

    def odds(seat, hands, turn):
        return [(0.5, 0.5, ((turn >> 4) + 1) % 4) for _ in hands]

    calls = CallList(((0, 1, None), (1, 1, trump)))
    player = Pimc(6, seed=1, persist=True, inference=AuctionInference(odds, draws=20))
    play_deal(deal.hands, trump, deal.turn, (player, player), auction=calls)
    assert player.stats.decisions > 0 and player.stats.inferred == player.stats.decisions
    assert player.stats.carried == 0
