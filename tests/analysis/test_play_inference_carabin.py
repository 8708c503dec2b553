"""Auction inference in Carabin PIMC (analysis.play.carabin_worlds with a
CarabinInference, CarabinPimc(inference=…)): every kept world makes every call heard
under the assumed policies, the kept worlds are uniform among the consistent ones, the
fallback is counted, without inference the worlds and cards are those of before, and
the match parameter is checked."""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter

import pytest

from analysis.bidding.carabin import POLICIES, auction_bidding, thumb_policy
from analysis.bidding.carabin_realplay import realplay_policy, rule_advice
from analysis.matches import carabin_match, carabin_matches_chunk
from analysis.play import (
    CarabinInference,
    CarabinPimc,
    CarabinState,
    Stats,
    carabin_hidden,
    carabin_played_from,
    carabin_worlds,
    play_carabin,
)
from solver.carabin import Call
from solver.carabin import Deal as CDeal
from solver.cards import cards_of
from solver.errors import RulesError


def bid_states(policy, players: int, contracts: int, cards: int, seed: int = 1):
    """(deal, auction, states after 0..cards random cards) of deals ``policy`` bids."""
    rng = random.Random(seed)
    out = []
    while len(out) < contracts:
        deal = CDeal.random(players=players, rng=random.Random(rng.getrandbits(64)))
        bidding = auction_bidding(deal, policy)
        c = bidding.contract
        if c is None:
            continue
        pos = deal.position(bidder=c.bidder, trump=c.trump)
        state = CarabinState(pos, deal.turn, c.chelem, deal.points_in_play, auction=bidding)
        states = [dataclasses.replace(state, played=[])]
        for _ in range(cards):
            state.step(rng.choice(state.position.legal_moves()))
            states.append(dataclasses.replace(state, played=list(state.played)))
        out.append((deal, bidding, states))
    return out


def dealt_hands(state: CarabinState, world) -> list[tuple[int, int]]:
    """Each seat's eight cards of the deal in ``world``: his hands there and what he played."""
    played = carabin_played_from(state)
    return [(h[0] | p[0], h[1] | p[1]) for h, p in zip(world.hands, played, strict=True)]


def test_cards_played_from_each_hand_are_the_deals():
    for deal, _bidding, states in bid_states(thumb_policy, 4, 4, 31, seed=3):
        state = states[-1]
        for seat, (left, right) in enumerate(carabin_played_from(state)):
            held = state.position.hands[seat]
            assert (left | held[0], right | held[1]) == deal.hands[seat]
            assert not (left | right) & (held[0] | held[1])


@pytest.mark.parametrize("name", ["realplay", "thumb", "derived"])
def test_every_kept_world_makes_every_call_heard(name):
    """The seats' dealt hands in a kept world, bid again by the policy, give the very
    auction heard; with the real-play rule a pass is below the mark and the bidder's
    hand reaches it."""
    policy = POLICIES[name]()
    reading = CarabinInference(policy)
    seen = 0
    for k, (deal, bidding, states) in enumerate(bid_states(policy, 3, 5, 20, seed=2)):
        for state in states[::4]:
            stats = Stats()
            worlds = carabin_worlds(state, 10, k, reading, stats)
            assert stats.inferred == 1 and stats.kept <= stats.drawn <= 10 * reading.draws
            if stats.fallbacks:
                continue
            me = state.position.to_move
            for w in worlds:
                hands = dealt_hands(state, w)
                assert hands[me] == deal.hands[me]
                assert auction_bidding(CDeal(tuple(hands), deal.turn), policy) == bidding
                if name == "realplay":
                    for seat, (left, right) in enumerate(hands):
                        advice = rule_advice(3, left, right, deal.turn >> 4)
                        assert advice is not None
                        took = seat == bidding.contract.bidder
                        assert (advice["count"] >= advice["mark"]) == took
                seen += 1
    assert seen > 100


def tiny_state() -> tuple[CarabinState, CarabinInference]:
    """A deal bid by the rule of thumb, one card before the end: few unseen cards, and
    some of the worlds they make contradict the auction."""
    for seed in itertools.count():
        [(_deal, _bidding, states)] = bid_states(thumb_policy, 3, 1, 22, seed=seed)
        state = states[-1]
        if carabin_hidden(state)[1] and _consistent(state, thumb_policy)[1]:
            return state, CarabinInference(thumb_policy)
    raise AssertionError("unreachable")


def _consistent(state: CarabinState, policy) -> tuple[dict[tuple, bool], int]:
    """Every world of ``state`` (by the hidden hands) and whether the policy, on the
    dealt hands, bids the auction heard; and how many do not."""
    pool, hidden = carabin_hidden(state)
    total = sum(size for _, _, size in hidden)
    out = {}
    for cards in itertools.permutations(cards_of(pool), total):
        hands = [list(h) for h in state.position.hands]
        i = 0
        for seat, kind, size in hidden:
            hands[seat][kind] = sum(1 << c for c in cards[i : i + size])
            i += size
        world = dataclasses.replace(state.position, hands=tuple(map(tuple, hands)))
        dealt = CDeal(tuple(dealt_hands(state, world)), state.turn)
        key = tuple(tuple(h) for h in hands)
        out[key] = auction_bidding(dealt, policy) == state.auction
    return out, sum(not ok for ok in out.values())


def test_kept_worlds_are_uniform_among_the_consistent_ones():
    state, reading = tiny_state()
    every, _ = _consistent(state, thumb_policy)
    consistent = [k for k, ok in every.items() if ok]
    assert 1 < len(consistent) < len(every)
    counts: Counter = Counter()
    for seed in range(400):
        stats = Stats()
        for w in carabin_worlds(state, 20, seed, reading, stats):
            counts[tuple(w.hands)] += 1
        assert stats.fallbacks == 0
    assert set(counts) <= set(consistent)  # never a world the auction rules out
    n = sum(counts.values())

    def chi2(worlds: list) -> float:
        return sum((counts[w] - n / len(worlds)) ** 2 / (n / len(worlds)) for w in worlds)

    df = len(consistent) - 1
    assert chi2(consistent) < df + 5 * (2 * df) ** 0.5


def test_without_inference_the_worlds_are_those_of_before():
    """The worlds drawn as before the auction could be read (the uniform shuffle of the
    unseen cards), with or without an auction on the state; and a reader's first
    candidates, when too few are kept, are those worlds."""
    for _deal, _bidding, states in bid_states(thumb_policy, 4, 3, 20, seed=4):
        for state in states[::5]:
            pool, hidden = carabin_hidden(state)
            rng = random.Random(77)
            before = []
            for _ in range(6):
                drawn = rng.sample(list(cards_of(pool)), sum(h[2] for h in hidden))
                hands = [list(h) for h in state.position.hands]
                i = 0
                for seat, kind, size in hidden:
                    hands[seat][kind] = sum(1 << c for c in drawn[i : i + size])
                    i += size
                before.append(tuple(map(tuple, hands)))
            plain = dataclasses.replace(state, auction=None)
            assert [w.hands for w in carabin_worlds(plain, 6, 77)] == before
            assert [w.hands for w in carabin_worlds(state, 6, 77)] == before
            assert carabin_worlds(state, 6, 77, None, Stats()) == carabin_worlds(plain, 6, 77)
            never = CarabinInference(lambda view, rnd, standing: Call("chelem"), draws=2)
            stats = Stats()
            assert carabin_worlds(state, 6, 77, never, stats) == carabin_worlds(plain, 6, 77)
            assert (stats.inferred, stats.drawn, stats.kept, stats.fallbacks) == (1, 12, 0, 1)


@pytest.mark.parametrize("players", [3, 4])
def test_without_inference_every_card_is_as_before(players):
    for deal, bidding, _states in bid_states(thumb_policy, players, 2, 0, seed=players):
        c = bidding.contract
        plain = play_carabin(deal, c, [CarabinPimc(6, seed=s) for s in range(players)])
        heard = play_carabin(
            deal, c, [CarabinPimc(6, seed=s) for s in range(players)], auction=bidding
        )
        assert heard == plain
        reader = CarabinPimc(6, seed=0, inference=CarabinInference(thumb_policy))
        play_carabin(deal, c, [reader] + [CarabinPimc(6, seed=s) for s in range(1, players)])
        assert reader.stats.inferred == 0  # no auction on the state: nothing to read
        reader = CarabinPimc(6, seed=0, inference=CarabinInference(thumb_policy))
        others = [CarabinPimc(6, seed=s) for s in range(1, players)]
        play_carabin(deal, c, [reader, *others], auction=bidding)
        assert reader.stats.inferred == reader.stats.decisions > 0
        assert all(p.stats.inferred == 0 for p in others)


def test_assumed_policies_per_seat():
    always_pass = lambda view, rnd, standing: Call("pass")  # noqa: E731
    reading = CarabinInference([thumb_policy, always_pass, thumb_policy])
    assert reading.policy_of(1) is always_pass and reading.policy_of(2) is thumb_policy
    assert CarabinInference(realplay_policy).policy_of(5) is realplay_policy
    with pytest.raises(RulesError, match="draws"):
        CarabinInference(thumb_policy, draws=0)


def test_match_inference_parameter():
    base = {"players": 3, "policies": "thumb,thumb,thumb", "play": "pimc", "samples": 2}
    base |= {"format": "duplicate"}
    plain = carabin_matches_chunk(random.Random(3), 0, 1, base)
    assert plain == carabin_matches_chunk(random.Random(3), 0, 1, {**base, "inference": "none"})
    assert set(plain["policy"]) == {"thumb"}
    read = carabin_matches_chunk(random.Random(3), 0, 1, {**base, "inference": "a"})
    assert set(read) == set(plain) | {"inf_decisions", "inf_drawn", "inf_kept", "inf_fallbacks"}
    assert set(read["policy"]) == {"thumb", "thumb+inference"}
    assert len(set(read["seating"])) == 3  # one reader in each seat
    keys = ("policy", "inf_decisions", "inf_drawn", "inf_kept")
    for policy, d, drawn, k in zip(*(read[key] for key in keys), strict=True):
        assert (d > 0) == (policy == "thumb+inference")
        assert k <= 2 * d and k <= drawn <= 2 * 50 * d
    both = carabin_matches_chunk(random.Random(3), 0, 1, {**base, "inference": "both"})
    assert set(both["policy"]) == {"thumb+inference"}
    with pytest.raises(ValueError, match="unknown inference 'x'"):
        carabin_matches_chunk(random.Random(3), 0, 1, {**base, "inference": "x"})
    with pytest.raises(ValueError, match="needs play=pimc"):
        carabin_matches_chunk(random.Random(3), 0, 1, {**base, "play": "dd", "inference": "a"})


def test_a_reader_in_a_match_knows_every_seats_policy():
    rng_policies = [thumb_policy, realplay_policy, thumb_policy]
    m = carabin_match(
        rng_policies, random.Random(4), play="pimc", samples=2, reads=[True, False, False]
    )
    assert m.inference[0][0] > 0 and m.inference[1] == m.inference[2] == (0, 0, 0, 0)
    plain = carabin_match(rng_policies, random.Random(4), play="pimc", samples=2)
    assert plain.inference == ()


def test_the_study_parameter_is_checked(tmp_path, capsys):
    from analysis.cli.main import main

    argv = ["study", "carabin-matches", "--deals", "1", "--out", str(tmp_path / "x"), "--quiet"]
    for bad in ("inference=x", "max_deals=0"):
        assert main([*argv, "--param", bad]) == 2
        err = capsys.readouterr().err
        assert bad.split("=")[0] in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "x").exists()


def test_seating_summary_of_a_reader_counts_what_the_inference_did(tmp_path):
    from analysis.matches import seating_summary
    from analysis.studies import run_study

    params = {"players": 3, "policies": "thumb,thumb,thumb", "play": "pimc", "samples": 2}
    params |= {"format": "duplicate", "inference": "a"}
    run_study("carabin-matches", 1, 2, tmp_path / "r", workers=1, progress=False, params=params)
    data = seating_summary([tmp_path / "r"], tmp_path / "out", "cmd")
    counts = data["runs"][0]["inference"]
    assert counts["decisions"] > 0 and 0 <= counts["kept"] <= counts["drawn"]
    assert counts["kept"] <= 2 * counts["decisions"]
    assert "--param inference=a" in data["runs"][0]["command"]
    text = (tmp_path / "out.csv").read_text()
    assert "thumb+inference" in text
