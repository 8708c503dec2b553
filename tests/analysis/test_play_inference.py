"""Auction inference in Klabberjass PIMC (analysis.play.auction_worlds, Pimc(inference=…)):
every kept world makes the observed calls under the assumed policy, the kept worlds are
drawn from the exact posterior, the draw depends only on the seed, the fallback is
counted, and without inference every card is played as before."""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter

import pytest

from analysis.matches import (
    KLABBERJASS_POLICIES,
    auction_calls,
    auction_inference,
    bid_intent,
    call_odds,
    call_odds_many,
    klabberjass_bidding,
    klabberjass_matches_chunk,
)
from analysis.play import (
    Auction,
    AuctionInference,
    Hidden,
    Pimc,
    PlayState,
    auction_worlds,
    calls_probability,
    hidden_of,
    play_deal,
)
from solver.cards import card_count, cards_of
from solver.errors import RulesError
from solver.klabberjass import Position, engine
from solver.klabberjass._core import sample_hands
from solver.klabberjass.deal import Deal

P = KLABBERJASS_POLICIES


def contracts(policies, n: int, seed: int = 1):
    """(deal, contract, auction) of deals the policies bid (annulled ones skipped)."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        deal = Deal.random(rng.getrandbits(64))
        contract, calls = klabberjass_bidding(deal, policies, random.Random(rng.getrandbits(64)))
        if contract is not None:
            out.append((deal, contract, calls))
    return out


def states(deal: Deal, trump: int, auction: Auction, cards: int, seed: int) -> list[PlayState]:
    """The states of a deal after 0..cards cards played at random."""
    rng = random.Random(seed)
    state = PlayState(Position(trump, 0, deal.hands), deal.turn, auction=auction)
    out = [dataclasses.replace(state, played=[], void=[0, 0], played_by=[0, 0])]
    for _ in range(cards):
        state.step(rng.choice(list(cards_of(state.position.legal_set()))))
        out.append(
            dataclasses.replace(
                state,
                played=list(state.played),
                void=list(state.void),
                played_by=list(state.played_by),
            )
        )
    return out


@pytest.mark.parametrize("bidding", ["thumb", "equilibrium", "scorecard", "always"])
def test_odds_of_many_hands_are_the_odds_of_each(bidding):
    rng = random.Random(5)
    for seat in (0, 1):
        turn = rng.choice(range(32))
        turn = 16 * (turn // 8) + [5, 6, 7, 8, 9, 10, 11, 12][turn % 8]
        hands = []
        while len(hands) < 60:
            h = sum(
                1 << c
                for c in rng.sample([c for c in range(64) if c != turn and 5 <= c % 16 <= 12], 6)
            )
            hands.append(h)
        assert call_odds_many(bidding, hands, seat, turn) == [
            call_odds(bidding, h, seat, turn) for h in hands
        ]


def test_calls_of_an_auction_are_those_the_intents_make():
    # E passes, D takes
    assert auction_calls([(False, True, 2), (True, False, 0)], 1) == (
        (1, 1),
        Auction(((0, 1, None), (1, 1, 1))),
    )
    # both pass twice: annulled; a round-2 name of the turn-up suit is a pass
    assert auction_calls([(False, True, 1), (False, False, 3)], 1)[0] is None


@pytest.mark.parametrize("policy", ["thumb", "scorecard", "derived"])
def test_every_kept_world_makes_the_calls_heard(policy):
    """For every kept world, the six cards the sampler dealt him first are in his nine
    cards and, fed to the policy's own bidding (bid_intent, auction_calls), make the
    calls he made (with certainty for the pure policies, possibly for the mixed one)."""
    pols = (P[policy], P[policy])
    reading = auction_inference(pols)
    seen = 0
    for k, (deal, (_bidder, trump), auction) in enumerate(contracts(pols, 6, seed=2)):
        for state in states(deal, trump, auction, 9, seed=k)[::3]:
            me = state.position.to_move
            opp = 1 - me
            calls = auction.calls_of(opp)
            if not calls:
                continue
            hidden = hidden_of(state)
            worlds, firsts, drawn = auction_worlds(
                hidden, state.played_by[opp], opp, deal.turn, calls, reading.odds, 20, 7 + k, 50
            )
            assert worlds is not None and len(worlds) == len(firsts) == 20 <= drawn
            for w, first in zip(worlds, firsts, strict=True):
                nine = hidden.known | w | state.played_by[opp]
                assert card_count(nine) == 9 and first & ~nine == 0 and card_count(first) == 6
                assert w & ~hidden.pool == 0
                odds = call_odds(pols[opp].bidding, first, opp, deal.turn)
                assert calls_probability(odds, calls, deal.turn >> 4) > 0
                if policy != "derived":  # pure: the policy itself makes exactly these calls
                    intents = [(False, False, 0), (False, False, 0)]
                    intents[opp] = bid_intent(pols[opp], first, opp, deal.turn, random.Random())
                    intents[me] = (False, False, deal.turn >> 4)  # silent unless he called
                    heard = auction_calls(intents, deal.turn >> 4)[1].calls_of(opp)
                    assert heard[: len(calls)] == calls
                seen += 1
    assert seen > 100


def test_kept_worlds_follow_the_exact_posterior():
    """Late in a deal (a few hundred candidate worlds) the kept worlds' frequencies fit
    the exact posterior, each world weighted by the mean over its 84 first-six hands of
    the probability of the calls (a mixed policy), and not the uniform draw: a
    chi-square test of each."""
    pols = (P["derived"], P["derived"])
    reading = auction_inference(pols)
    for k, (deal, (_b, trump), auction) in enumerate(contracts(pols, 60, seed=3)):
        state = states(deal, trump, auction, 12, seed=k)[-1]
        opp = 1 - state.position.to_move
        calls = auction.calls_of(opp)
        hidden = hidden_of(state)
        if not calls or not 50 <= len(space := possible(hidden)) <= 600:
            continue
        played = state.played_by[opp]
        exact = {}
        for w in space:
            nine = sorted(cards_of(hidden.known | w | played))
            sixes = [sum(1 << c for c in s) for s in itertools.combinations(nine, 6)]
            odds = call_odds_many(pols[opp].bidding, sixes, opp, deal.turn)
            exact[w] = sum(calls_probability(o, calls, deal.turn >> 4) for o in odds) / len(sixes)
        if max(exact.values()) > 3 * min(exact.values()):  # the calls say something
            break
    else:
        pytest.fail("no state where the calls tell something")
    total = sum(exact.values())
    counts: Counter[int] = Counter()
    n = 0
    for seed in range(600):
        worlds, _, _ = auction_worlds(
            hidden, played, opp, deal.turn, calls, reading.odds, 20, seed, 50
        )
        assert worlds is not None
        counts.update(worlds)
        n += len(worlds)

    assert all(counts[w] == 0 for w, p in exact.items() if p == 0)

    def chi2(expected: dict[int, float]) -> float:
        return sum((counts[w] - n * q) ** 2 / (n * q) for w, q in expected.items() if q > 0)

    df = len(space) - 1
    limit = df + 5 * (2 * df) ** 0.5
    assert chi2({w: p / total for w, p in exact.items()}) < limit
    assert chi2(dict.fromkeys(space, 1 / len(space))) > limit


def possible(hidden: Hidden) -> list[int]:
    pool = list(cards_of(hidden.pool))
    return [sum(1 << c for c in s) for s in itertools.combinations(pool, hidden.need)]


def test_the_draw_depends_only_on_the_seed():
    pols = (P["thumb"], P["thumb"])
    deal, (_b, trump), auction = contracts(pols, 1, seed=4)[0]
    state = states(deal, trump, auction, 0, seed=0)[0]
    opp = 1 - state.position.to_move
    calls = auction.calls_of(opp) or auction.calls_of(1 - opp)
    who = opp if auction.calls_of(opp) else 1 - opp
    args = (hidden_of(state), 0, who, deal.turn, calls, auction_inference(pols).odds, 20)
    if who != opp:
        pytest.skip("the mover's opponent made no call in this deal")
    a = auction_worlds(*args, 11, 50)
    assert a == auction_worlds(*args, 11, 50)
    # the cache of probabilities changes nothing
    cache: dict[int, float] = {}
    assert a == auction_worlds(*args, 11, 50, cache) == auction_worlds(*args, 11, 50, cache)
    assert a != auction_worlds(*args, 12, 50)
    # unconditioned candidates are the worlds Core.pimc draws from the same seed
    hidden = args[0]
    assert set(a[0]) <= set(sample_hands(hidden.pool, hidden.need, 1000, 11))


def test_impossible_calls_fall_back_to_unconditioned_worlds_and_are_counted():
    deal = Deal.random(8)
    auction = Auction(((0, 1, None), (1, 1, deal.turn >> 4)))
    never = AuctionInference(lambda seat, hands, turn: [(0.0, 0.0, 0)] * len(hands), draws=3)
    state = PlayState(Position(deal.turn >> 4, 0, deal.hands), deal.turn, auction=auction)
    hidden = hidden_of(state)
    worlds, firsts, drawn = auction_worlds(
        hidden, 0, 1, deal.turn, auction.calls_of(1), never.odds, 20, 5, 3
    )
    assert worlds is None and firsts == [] and drawn == 60
    played = play_deal(deal.hands, deal.turn >> 4, deal.turn,
                       (Pimc(20, seed=9, inference=never), Pimc(20, seed=10)), auction=auction)  # fmt: skip
    plain = play_deal(deal.hands, deal.turn >> 4, deal.turn, (Pimc(20, seed=9), Pimc(20, seed=10)))
    assert played == plain  # every fallback plays on the worlds of the seed
    e = Pimc(20, seed=9, inference=never)
    play_deal(deal.hands, deal.turn >> 4, deal.turn, (e, Pimc(20, seed=10)), auction=auction)
    assert e.stats.fallbacks == e.stats.inferred == e.stats.decisions > 0
    assert e.stats.kept == 0 and e.stats.drawn == 60 * e.stats.inferred
    with pytest.raises(RulesError, match="draws"):
        AuctionInference(never.odds, draws=0)


def test_without_inference_or_without_calls_every_card_is_as_before():
    pols = (P["derived"], P["derived"])
    for k, (deal, (_b, trump), auction) in enumerate(contracts(pols, 8, seed=6)):
        plain = play_deal(deal.hands, trump, deal.turn, (Pimc(20, seed=k), Pimc(20, seed=k + 50)))
        # the auction heard, but nobody reads it
        assert plain == play_deal(
            deal.hands, trump, deal.turn, (Pimc(20, seed=k), Pimc(20, seed=k + 50)), auction=auction
        )
        # E reads it: D's cards are unchanged (his worlds come from the same seeds),
        # and E's only where D made a call
        reading = auction_inference(pols)
        e = Pimc(20, seed=k, inference=reading)
        inferred = play_deal(
            deal.hands, trump, deal.turn, (e, Pimc(20, seed=k + 50)), auction=auction
        )
        if not auction.calls_of(1):
            assert inferred == plain and e.stats.inferred == 0
        else:
            assert e.stats.inferred > 0


def test_core_pimc_on_preset_worlds_is_pimc_on_the_seeds_worlds():
    deal = Deal.random(3)
    state = PlayState(Position(deal.turn >> 4, 0, deal.hands), deal.turn)
    h = hidden_of(state)
    cands = sorted(cards_of(deal.hands[0]))
    core = engine.core()
    args = (deal.hands[0], h.known, h.pool, h.need, 20)
    rest = (deal.turn >> 4, 0, -1, 10, cands)
    worlds = sample_hands(h.pool, h.need, 20, 5)
    assert core.pimc(*args, 5, *rest, exact=True) == core.pimc(
        *args, 99, *rest, exact=True, worlds=worlds
    )
    with pytest.raises(ValueError, match="worlds given"):
        core.pimc(*args, 5, *rest, worlds=worlds[:3])
    with pytest.raises(ValueError, match="is not"):
        core.pimc(*args, 5, *rest, worlds=[deal.hands[0]] * 20)


def test_match_study_inference_parameter():
    base = {"a": "thumb", "b": "thumb", "samples": 4, "format": "duplicate"}
    plain = klabberjass_matches_chunk(random.Random(3), 0, 1, base)
    assert plain == klabberjass_matches_chunk(random.Random(3), 0, 1, {**base, "inference": "none"})
    read = klabberjass_matches_chunk(random.Random(3), 0, 1, {**base, "inference": "a"})
    assert set(read) == set(plain) | {"inf_decisions", "inf_drawn", "inf_kept", "inf_fallbacks"}
    assert all(d > 0 for d in read["inf_decisions"])
    assert all(k <= d for k, d in zip(read["inf_kept"], read["inf_drawn"], strict=True))
    with pytest.raises(ValueError, match="unknown inference 'x'"):
        klabberjass_matches_chunk(random.Random(3), 0, 1, {**base, "inference": "x"})
