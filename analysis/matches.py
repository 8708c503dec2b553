"""Simulated matches between bidding (and sinking) policies: Klabberjass to 500, Carabin to 10.

The derived rules of the studies are checked *in play*, against simple ones:

**Klabberjass** (two players, :func:`klabberjass_match`). A policy bids from its six
cards and the turn-up, and, as bidder, decides before the first trick whether to
declare his sequences and Bella:

- ``derived``: the equilibrium bidding rule of :mod:`analysis.bidding.equilibrium` (hand
  classes, mixed strategies sampled); as bidder he declares as ``sinking=`` says:

  - ``realplay`` (default): the rule of the real-play sinking study
    (:func:`analysis.bidding.sinking_realplay.published_rule`, read from
    ``data/studies/klabberjass-sinking-realplay``, the rule of notebook 03). Its finding
    now: always declare the runs, and decide Bella when playing the second of the trump K
    and Q (:class:`analysis.bidding.sinking_realplay.BellaDecision` over
    ``sink_samples`` worlds, the play then card by card in both play models); should the
    tables support a margin threshold instead, he sinks by it, and if neither, he
    declares everything;
  - ``margin``: the withdrawn double-dummy rule of :mod:`analysis.bidding.sinking`:
    declare nothing when the estimated margin (his mean total minus the opponent's,
    declaring everything, over ``sink_samples`` sampled worlds) is below the threshold
    of ``data/studies/klabberjass-sinking/summary.json`` (−42), else declare
    everything. The published single and duplicate matches were played so (their
    manifests, written before the parameter, are read with it);
- ``derived-declare``: the same bidding, always declaring (isolates the sinking rule);
- ``thumb``: take with the Jass and another trump or the Menel and two others
  (:func:`analysis.bidding.equilibrium.thumb_policy`), always declare;
- ``always``: E always takes the turn-up suit (D, after a pass, too), always declare.

The opponent of the bidder always declares. The derived rule is read from
``data/studies/klabberjass-matches/derived_rule.json`` (:func:`save_klabberjass_rule`
writes it from a ``klabberjass-bidding`` study). Only the ``seed`` rules (no dix, no
schmeiss) are simulated.

**Card play**, ``play=``:

- ``pimc`` (default): each card is chosen by single-dummy sampling (PIMC,
  :class:`analysis.play.Pimc`) from the mover's view (his hand, every card played and
  the voids it shows, the turn-up out of play), over ``samples`` worlds. Few worlds
  keep a match fast; that makes play weaker and noisier than the engine's advice with
  hundreds of worlds, equally so for both sides. The view carries no inference from
  the bidding or the declarations (uniform over the cards not seen).
- ``alphamu``: each card by αμ search (:class:`analysis.alphamu.AlphaMu`) over
  ``samples`` worlds, ``depth`` decisions of the player searched (default 2), from
  the same view as PIMC (no auction inference).
- ``dd``: the cheaper, clearly different option: the deal is played double dummy
  (the engine's exact card points), as in the deal table.

``play_a`` / ``play_b`` (``pimc`` or ``alphamu``; default ``same``, the match's
``play``) give one player another card play, the rest of the match unchanged: in
duplicate, policies that differ only by their card play compare the card play.

**Carabin** (3-6 players, :func:`carabin_match`). Policies of
:mod:`analysis.bidding.carabin` (``derived``, ``realplay``, ``realplay-name``, ``thumb``,
``always``) are dealt to the players in turn (``policies="derived,thumb"`` with 4
players: players 0 and 2 derived, 1 and 3 thumb). Play is ``dd`` (default: the make probe and the chelem search decide
the contract, exactly what double-dummy play gives) or ``pimc`` (PIMC card by card
from each seat's view, :class:`analysis.play.CarabinPimc`: each card by how often the
contract is made or failed over the worlds, not by points). With ``inference`` some
players read the auction in that play (:class:`analysis.play.CarabinInference`: their
worlds agree with every call heard under the seats' policies, public in a match).

The studies ``klabberjass-matches`` and ``carabin-matches`` run matches through the
study runner (one row per match; ``--deals`` is the number of matches).
"""

from __future__ import annotations

import dataclasses
import json
import math
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from analysis.bidding.carabin import POLICIES, auction_bidding, contract_result
from analysis.bidding.equilibrium import (
    Classifier,
    DealArrays,
    deal_arrays,
    make_classifier,
    solve_bidding_game,
    split,
    thumb_policy,
)
from analysis.bidding.klabberjass import (
    FEATURES,
    Estimate,
    LinearEstimate,
    hand_features,
    proportion,
)
from analysis.bidding.sinking import sampled_option_nets
from analysis.bidding.sinking_realplay import BellaDecision, SinkingRule, published_rule
from analysis.play import (
    Auction,
    AuctionInference,
    CarabinInference,
    CarabinPimc,
    DoubleDummy,
    Pimc,
    Stats,
    play_carabin,
    play_deal,
)
from analysis.studies import read_manifest, read_study
from solver.carabin import Bidding
from solver.carabin import Deal as CDeal
from solver.carabin import Match as CGame
from solver.carabin import Rules as CRules
from solver.cards import RANKS, make_card, suit_mask
from solver.klabberjass import SEED, Rules
from solver.klabberjass.deal import (
    Deal,
    Match,
    has_bella,
    runs,
    score_deal,
    sequence_points,
)
from solver.klabberjass.rules import points_of
from solver.klabberjass.table import engine_solver

ROOT = Path(__file__).resolve().parent.parent
KLABBERJASS_RULE = ROOT / "data/studies/klabberjass-matches/derived_rule.json"
SINKING_SUMMARY = ROOT / "data/studies/klabberjass-sinking/summary.json"
#: How a sinking policy (``derived``) decides its declarations as bidder (``sinking=``).
SINKING = ("realplay", "margin")

# ====================================================================== Klabberjass policies


@dataclass(frozen=True)
class KlabberjassPolicy:
    """A Klabberjass player: how he bids and whether he may sink.

    Attributes:
        name: the policy's name.
        bidding: ``equilibrium``, ``scorecard`` (the point count derived from real play,
            :mod:`analysis.bidding.scorecard`), ``thumb`` or ``always``.
        sink: as bidder, decide the declarations by the sinking rule of the match
            (``sinking=``: the real-play finding or the withdrawn margin threshold);
            else always declare everything.
        infer: in PIMC card play, read the auction: the worlds are drawn consistent
            with the other player's calls under his bidding policy (assumed known;
            :class:`analysis.play.AuctionInference`).
        play: his card play (``pimc`` or ``alphamu``) when not the match's (None).
    """

    name: str
    bidding: str
    sink: bool = False
    infer: bool = False
    play: str | None = None


KLABBERJASS_POLICIES = {
    p.name: p
    for p in (
        KlabberjassPolicy("derived", "equilibrium", True),
        KlabberjassPolicy("derived-declare", "equilibrium", False),
        KlabberjassPolicy("scorecard", "scorecard", False),
        KlabberjassPolicy("thumb", "thumb"),
        KlabberjassPolicy("always", "always"),
    )
}


def save_klabberjass_rule(df, path: str | Path = KLABBERJASS_RULE) -> dict:
    """Solve the bidding game on the training half of a ``klabberjass-bidding`` study
    (as :func:`analysis.bidding.equilibrium.bidding_tables` does) and write the rule as JSON."""

    train, _test = split(deal_arrays(df))
    classifier = make_classifier(train)
    eq = solve_bidding_game(train, classifier)
    est = classifier.est
    data = {
        "deals_used": len(train),
        "coef": {str(k): list(v) for k, v in est.coef.items()},
        "intercept": {str(k): v for k, v in est.intercept.items()},
        "cuts1": list(classifier.cuts1),
        "cuts2": list(classifier.cuts2),
        "e_take": eq.e_take.tolist(),
        "d_take": eq.d_take.tolist(),
        "e_name": eq.e_name.tolist(),
        "d_name": eq.d_name.tolist(),
        "game_value": eq.value,
    }
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1) + "\n")
    return data


@lru_cache(maxsize=4)
def load_klabberjass_rule(path: str = str(KLABBERJASS_RULE)):
    """The derived bidding rule as (classifier, equilibrium-like policy arrays)."""

    d = json.loads(Path(path).read_text())
    est = LinearEstimate(
        {int(k): tuple(v) for k, v in d["coef"].items()},
        {int(k): float(v) for k, v in d["intercept"].items()},
    )
    classifier = Classifier(est, tuple(d["cuts1"]), tuple(d["cuts2"]))
    probs = {k: np.asarray(d[k]) for k in ("e_take", "d_take", "e_name", "d_name")}
    return classifier, probs


def sinking_threshold(path: str | Path = SINKING_SUMMARY) -> float:
    """The margin threshold of the double-dummy sinking study (withdrawn; ``sinking=margin``)."""
    return float(json.loads(Path(path).read_text())["threshold"])


@lru_cache(maxsize=1)
def realplay_sinking_rule() -> SinkingRule:
    """The declaring rule of the real-play sinking study's published tables
    (``sinking=realplay``), read once."""
    return published_rule()


def _one_hand_arrays(hand6: int, seat: int, turn: int):

    feats = np.zeros((1, 2, 4, len(hand_features(hand6, 0, turn))), dtype=np.int16)
    for t in range(4):
        feats[0, seat, t] = hand_features(hand6, t, turn)
    return DealArrays(np.array([turn >> 4]), np.zeros((1, 2, 4), dtype=np.int32), feats)


@lru_cache(maxsize=1 << 18)
def call_odds(
    bidding: str, hand6: int, seat: int, turn: int, rules: str = "seed"
) -> tuple[float, float, int]:
    """A bidding policy's odds on one hand: (probability that the seat takes the
    turn-up suit in round 1 if asked, that he names a suit in round 2 if asked, the
    suit he would name). ``bidding`` is :attr:`KlabberjassPolicy.bidding`; ``rules``
    picks the published scorecard of those rules (the other policies are the seed
    rules').

    The policies of :mod:`analysis.bidding.equilibrium` are used on the one hand.
    """

    if bidding == "scorecard":
        from analysis.bidding.scorecard import load

        advice = load(rules=rules).advise(seat, hand6, turn)
        take, name = float(advice["take"]["bid"]), float(advice["name"]["bid"])
        return take, name, int(advice["name"]["suit"])
    arrays = _one_hand_arrays(hand6, seat, turn)
    if bidding in ("thumb", "always"):
        dec = thumb_policy(arrays, None)  # type: ignore[arg-type]
        take, name, suit = dec.take[0, seat], dec.name[0, seat], dec.suit[0, seat]
        if bidding == "always":
            take = name = 1.0  # always bid; a round-2 suit as the rule of thumb picks it
    else:
        classifier, probs = load_klabberjass_rule()
        cls, _k1, _k2, best, _e1, _e2 = classifier.classify(arrays)
        c = int(cls[0, seat])
        who = "e" if seat == 0 else "d"
        take, name, suit = probs[f"{who}_take"][c], probs[f"{who}_name"][c], best[0, seat]
    return float(take), float(name), int(suit)


def _features_many(hands: Sequence[int], turn: int) -> np.ndarray:
    """features[i, t]: :func:`analysis.bidding.klabberjass.hand_features` of six-card
    hand ``hands[i]`` for trump ``t`` (the same numbers, computed for all at once)."""
    h = np.asarray(hands, dtype=np.uint64)

    def bit(card: int) -> np.ndarray:
        return ((h >> np.uint64(card)) & np.uint64(1)).astype(np.int16)

    rank = {r: RANKS.index(r) for r in "9TJQKA"}
    aces = [bit(make_card(s, rank["A"])) for s in range(4)]
    tens = [bit(make_card(s, rank["T"])) for s in range(4)]
    run = (h & (h >> np.uint64(1)) & (h >> np.uint64(2))) != 0
    out = np.zeros((len(h), 4, len(FEATURES)), dtype=np.int16)
    for t in range(4):
        trumps = np.bitwise_count(h & np.uint64(suit_mask(t))).astype(np.int16)
        turn_value = 0
        if turn >> 4 == t:
            turn_value = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3}.get(
                RANKS[turn & 15], 0
            )
        out[:, t] = np.stack(
            [
                bit(make_card(t, rank["J"])),
                bit(make_card(t, rank["9"])),
                aces[t],
                tens[t],
                trumps,
                sum(aces) - aces[t],
                sum(tens) - tens[t],
                bit(make_card(t, rank["K"])) & bit(make_card(t, rank["Q"])),
                run.astype(np.int16),
                np.full(len(h), turn_value, dtype=np.int16),
            ],
            axis=1,
        )
    return out


def call_odds_many(
    bidding: str, hands: Sequence[int], seat: int, turn: int
) -> list[tuple[float, float, int]]:
    """:func:`call_odds` of many six-card hands of one seat at once (the same numbers)."""
    n = len(hands)
    feats = np.zeros((n, 2, 4, len(FEATURES)), dtype=np.int16)
    feats[:, seat] = _features_many(hands, turn)
    arrays = DealArrays(np.full(n, turn >> 4), np.zeros((n, 2, 4), dtype=np.int32), feats)
    if bidding == "scorecard":
        from analysis.bidding.scorecard import load

        dec = load().decisions(arrays)
        take, name, suit = dec.take[:, seat], dec.name[:, seat], dec.suit[:, seat]
    elif bidding in ("thumb", "always"):
        dec = thumb_policy(arrays, None)  # type: ignore[arg-type]
        take, name, suit = dec.take[:, seat], dec.name[:, seat], dec.suit[:, seat]
        if bidding == "always":
            take = name = np.ones(n)
    else:
        classifier, probs = load_klabberjass_rule()
        cls, _k1, _k2, best, _e1, _e2 = classifier.classify(arrays)
        who = "e" if seat == 0 else "d"
        c = cls[:, seat]
        take, name, suit = probs[f"{who}_take"][c], probs[f"{who}_name"][c], best[:, seat]
    return [(float(a), float(b), int(c)) for a, b, c in zip(take, name, suit, strict=True)]


def bid_intent(
    policy: KlabberjassPolicy, hand6: int, seat: int, turn: int, rng: random.Random
) -> tuple[bool, bool, int]:
    """What a seat will do in the auction, drawn once per deal: (takes in round 1 if
    asked, names in round 2 if asked, the suit he would name).

    From :func:`call_odds`; a mixed strategy is sampled with ``rng`` (the scorecard is
    pure and draws nothing).
    """

    take, name, suit = call_odds(policy.bidding, hand6, seat, turn)
    if policy.bidding == "scorecard":
        return take == 1.0, name == 1.0, suit
    return rng.random() < take, rng.random() < name, suit


def auction_calls(
    intents: Sequence[tuple[bool, bool, int]], turn_suit: int
) -> tuple[tuple[int, int] | None, Auction]:
    """The auction the seats' intents make: ((bidder, trump) or None if annulled, the
    calls heard, in order; :class:`analysis.play.Auction`).

    >>> auction_calls([(False, True, 2), (False, False, 0)], 1)
    ((0, 2), Auction(calls=((0, 1, None), (1, 1, None), (0, 2, 2))))
    """
    calls: list[tuple[int, int, int | None]] = []
    for s in (0, 1):
        if intents[s][0]:
            calls.append((s, 1, turn_suit))
            return (s, turn_suit), Auction(tuple(calls))
        calls.append((s, 1, None))
    for s in (0, 1):
        if intents[s][1] and intents[s][2] != turn_suit:
            calls.append((s, 2, intents[s][2]))
            return (s, intents[s][2]), Auction(tuple(calls))
        calls.append((s, 2, None))
    return None, Auction(tuple(calls))


def klabberjass_auction(
    deal: Deal, policies: Sequence[KlabberjassPolicy], rng: random.Random
) -> tuple[int, int] | None:
    """(bidder, trump) reached by the seats' policies (index 0 = E), or None if annulled."""
    return klabberjass_bidding(deal, policies, rng)[0]


def klabberjass_bidding(
    deal: Deal, policies: Sequence[KlabberjassPolicy], rng: random.Random
) -> tuple[tuple[int, int] | None, Auction]:
    """The auction of the seats' policies (index 0 = E): ((bidder, trump) or None if
    annulled, the calls made)."""
    assert deal.first is not None
    intents = [bid_intent(policies[s], deal.first[s], s, deal.turn, rng) for s in (0, 1)]
    return auction_calls(intents, deal.turn >> 4)


def auction_inference(policies: Sequence[KlabberjassPolicy]) -> AuctionInference:
    """Reading the auction knowing the bidding policy of each seat (index 0 = E)."""
    biddings = tuple(p.bidding for p in policies)
    return AuctionInference(
        lambda seat, hands, turn: call_odds_many(biddings[seat], hands, seat, turn)
    )


# ====================================================================== Klabberjass deals


def estimated_margin(
    own: int, bidder: int, trump: int, turn: int, samples: int, rng: random.Random, rules: Rules
) -> float:
    """The bidder's mean total minus the opponent's, both declaring everything, over
    ``samples`` worlds of the opponent's nine cards (as in :mod:`analysis.bidding.sinking`)."""

    full = ((1 << len(runs(own))) - 1, has_bella(own, trump))
    nets = sampled_option_nets(own, bidder, trump, turn, samples, rng, rules)
    return sum(n[full][1] for n in nets) / samples


def declarations(
    hands: tuple[int, int],
    bidder: int,
    trump: int,
    bidder_sinks: bool,
    rules: Rules,
    bidder_bella: bool | None = None,
) -> tuple[tuple[int, int], tuple[int, int]]:
    """(sequence points, Bella points) scored, each (E, D): the opponent declares all he
    holds; the bidder all or, if he sinks, nothing. ``bidder_bella``, when given and he
    does not sink, says whether the bidder announced the Bella he holds."""
    declared = [runs(hands[0]), runs(hands[1])]
    bella = [rules.bella if has_bella(h, trump) else 0 for h in hands]
    if bidder_sinks:
        declared[bidder] = []
        bella[bidder] = 0
    elif bidder_bella is not None and not bidder_bella:
        bella[bidder] = 0
    seqs = sequence_points(declared[0], declared[1], trump, rules)
    return seqs, (bella[0], bella[1])


def play_pimc(
    hands: tuple[int, int],
    trump: int,
    turn: int,
    samples: int,
    rng: random.Random,
    rules: Rules,
    inference: tuple[AuctionInference | None, AuctionInference | None] = (None, None),
    auction: Auction | None = None,
    stats: list[Stats] | None = None,
    on_card: Callable[..., None] | None = None,
) -> tuple[int, int]:
    """Card points (E, D) of a deal played card by card by PIMC (E leads): both seats
    play :class:`analysis.play.Pimc` over ``samples`` worlds a decision, the worlds'
    seeds drawn from ``rng`` (one stream for both, in the order of the decisions).

    ``inference[s]``: how seat ``s`` reads ``auction`` (None: he ignores it). The
    seats' :class:`analysis.play.Stats` are appended to ``stats`` when given.
    ``on_card`` observes each card (as in :func:`analysis.play.play_deal`)."""

    if inference == (None, None):
        policy = Pimc(samples, seed=rng)
        pols = (policy, policy)
    else:
        pols = (Pimc(samples, seed=rng, inference=inference[0]),
                Pimc(samples, seed=rng, inference=inference[1]))  # fmt: skip
    played = play_deal(hands, trump, turn, pols, rules=rules, auction=auction, on_card=on_card)
    if stats is not None:
        stats.extend(p.stats for p in pols)
    return played.points


def play_mixed(
    hands: tuple[int, int],
    trump: int,
    turn: int,
    plays: tuple[str, str],
    samples: int,
    depth: int,
    rng: random.Random,
    rules: Rules,
    on_card: Callable[..., None] | None = None,
) -> tuple[int, int]:
    """Card points (E, D) of a deal played card by card (E leads), seat ``s`` by
    ``plays[s]``: ``pimc`` (:class:`analysis.play.Pimc`) or ``alphamu``
    (:class:`analysis.alphamu.AlphaMu`, ``depth`` decisions searched), ``samples`` worlds
    a decision, the worlds' seeds drawn from ``rng`` (one stream for both seats, in the
    order of the decisions)."""
    from analysis.alphamu import AlphaMu

    pols: list[Any] = []
    for p in plays:
        if p == "pimc":
            pols.append(Pimc(samples, seed=rng))
        elif p == "alphamu":
            pols.append(AlphaMu(samples, depth, seed=rng))
        else:
            raise ValueError(f"unknown play '{p}' (expected pimc or alphamu)")
    return play_deal(hands, trump, turn, pols, rules=rules, on_card=on_card).points


def play_dd(hands: tuple[int, int], trump: int, rules: Rules) -> tuple[int, int]:
    """Card points (E, D) of double-dummy play (E leads)."""

    e = engine_solver([(hands[0], hands[1], trump)], rules)[0]
    return e, points_of(hands[0] | hands[1], trump) + rules.last_trick - e


@dataclass(frozen=True)
class DealRecord:
    """One simulated Klabberjass deal: seats' scores (E, D), contract, sinking
    (``sank``: the bidder declared less than he held, his runs and Bella or his Bella
    alone), and the auction inference of its card play (decisions inferred, candidate
    worlds drawn, kept, fallbacks; summed over the seats that infer)."""

    score: tuple[int, int]
    bidder: int | None
    trump: int | None
    sank: bool
    result: str | None
    inference: tuple[int, int, int, int] = (0, 0, 0, 0)


def klabberjass_deal(
    deal: Deal,
    policies: Sequence[KlabberjassPolicy],
    rng: random.Random,
    play: str = "pimc",
    samples: int = 6,
    sink_samples: int = 12,
    rules: Rules = SEED,
    threshold: float | None = None,
    sinking: str = "realplay",
    depth: int = 2,
) -> DealRecord:
    """Bid, decide sinking, play and score one deal (``policies[0]`` sits E).

    ``sinking`` (``realplay`` or ``margin``, see the module) is how a sinking policy
    decides as bidder; ``threshold`` replaces the margin threshold of a threshold rule.
    ``play`` is the card play of a policy without its own (:attr:`KlabberjassPolicy.play`);
    ``depth`` the decisions αμ searches.
    """
    if sinking not in SINKING:
        raise ValueError(f"unknown sinking '{sinking}' (expected realplay or margin)")
    if play not in ("pimc", "dd", "alphamu"):
        raise ValueError(f"unknown play '{play}' (expected pimc, alphamu or dd)")
    plays = (policies[0].play or play, policies[1].play or play)
    if "dd" in plays and plays != ("dd", "dd"):
        raise ValueError("double-dummy play (dd) is for both players or neither")
    if "alphamu" in plays and any(p.infer for p in policies):
        raise ValueError("auction inference goes with PIMC card play, not alphamu")
    contract, calls = klabberjass_bidding(deal, policies, rng)
    if contract is None:
        return DealRecord((0, 0), None, None, False, None)
    b, t = contract
    sinks = False
    hook: BellaDecision | None = None
    holds = bool(runs(deal.hands[b])) or has_bella(deal.hands[b], t)
    if policies[b].sink and holds:
        rule = SinkingRule("threshold") if sinking == "margin" else realplay_sinking_rule()
        if rule.kind == "threshold":
            th = threshold if threshold is not None else rule.threshold
            th = sinking_threshold() if th is None else th
            margin = estimated_margin(deal.hands[b], b, t, deal.turn, sink_samples, rng, rules)
            sinks = margin < th
        elif rule.kind == "bella-when-played" and has_bella(deal.hands[b], t):
            full = (1 << len(runs(deal.hands[b]))) - 1
            seed = rng.getrandbits(64)
            hook = BellaDecision(deal.hands, b, t, full, sink_samples, seed, rules)
    on_card = None if hook is None else hook.observe  # he decides Bella when he plays it
    counts = (0, 0, 0, 0)
    if play == "dd":
        if hook is None:
            cp = play_dd(deal.hands, t, rules)
        else:  # card by card: the same card points, with the Bella decision on the way
            dd = DoubleDummy()
            played = play_deal(deal.hands, t, deal.turn, (dd, dd), rules=rules, on_card=on_card)
            cp = played.points
    elif plays != ("pimc", "pimc"):
        cp = play_mixed(deal.hands, t, deal.turn, plays, samples, depth, rng, rules, on_card)
    elif any(p.infer for p in policies):
        reading = auction_inference(policies)
        inference = (reading if policies[0].infer else None,
                     reading if policies[1].infer else None)  # fmt: skip
        stats: list[Stats] = []
        cp = play_pimc(
            deal.hands, t, deal.turn, samples, rng, rules, inference, calls, stats, on_card
        )
        counts = tuple(  # type: ignore[assignment]
            sum(getattr(st, k) for st in stats) for k in ("inferred", "drawn", "kept", "fallbacks")
        )
    else:
        cp = play_pimc(deal.hands, t, deal.turn, samples, rng, rules, on_card=on_card)
    announced = None if hook is None else bool(hook.announced)
    seqs, bella = declarations(deal.hands, b, t, sinks, rules, announced)
    s = score_deal(b, cp, seqs, bella)
    return DealRecord(s.score, b, t, sinks or announced is False, s.result, counts)


@dataclass(frozen=True)
class MatchResult:
    """A finished match between players A and B.

    Attributes:
        totals: final totals (A, B).
        winner: 0 (A) or 1 (B).
        deals: deals played (annulled ones included).
        records: each deal, seats E/D as they sat.
    """

    totals: tuple[int, int]
    winner: int
    deals: int
    records: tuple[DealRecord, ...]


class _Seeds:
    """Deal ``k``'s two seeds (its cards, then its random stream): the ``k``-th pair of
    64-bit numbers of ``random.Random(seed)``, made once and kept."""

    def __init__(self, seed: int):
        self._rng = random.Random(seed)
        self._seeds: list[tuple[int, int]] = []

    def _seed(self, k: int) -> tuple[int, int]:
        while len(self._seeds) <= k:
            self._seeds.append((self._rng.getrandbits(64), self._rng.getrandbits(64)))
        return self._seeds[k]

    def stream(self, k: int) -> random.Random:
        """A fresh generator for the bidding and play of deal ``k``."""
        return random.Random(self._seed(k)[1])


class KlabberjassBoards(_Seeds):
    """The sequence of deals of a duplicate pair: deal ``k`` (0, 1, …) is the same
    cards, and the same random stream for the bidding's mixed strategies and the card
    play, in both legs, whatever happened before it.

    Deal ``k`` is drawn from its own seed, the ``k``-th pair of 64-bit numbers of
    ``random.Random(seed)`` (the cards, then the stream of the deal), made once and
    kept, so a leg that lasts longer draws the same further deals as the other would.

    >>> boards = KlabberjassBoards(7)
    >>> str(boards.deal(3)) == str(KlabberjassBoards(7).deal(3))
    True
    """

    def deal(self, k: int) -> Deal:
        """The cards of deal ``k`` (E first: E is the elder hand, D the dealer)."""
        return Deal.random(self._seed(k)[0])


def klabberjass_match(
    a: KlabberjassPolicy,
    b: KlabberjassPolicy,
    rng: random.Random,
    a_first_seat: int = 0,
    deal_fn: Callable[..., DealRecord] = klabberjass_deal,
    max_deals: int = 200,
    boards: KlabberjassBoards | None = None,
    **kwargs: Any,
) -> MatchResult:
    """A match to ``rules.game`` (500) between A and B; the seats alternate each deal,
    A sitting E in the first deal when ``a_first_seat`` is 0.

    Args:
        deal_fn: plays one deal (the tests pass a scripted one).
        max_deals: a safety stop (a match of only annulled deals never ends).
        boards: the deals to play (:class:`KlabberjassBoards`, deal ``k`` with its own
            random stream; ``rng`` is then unused); None draws each deal and all play
            from ``rng``.
        kwargs: passed to ``deal_fn`` (play, samples, sink_samples, rules, threshold,
            sinking).
    """
    rules = kwargs.get("rules", SEED)
    game = Match(rules)
    records = []
    seat_a = a_first_seat
    while not game.is_over and game.deals < max_deals:
        if boards is None:
            deal, deal_rng = Deal.random(rng.getrandbits(64)), rng
        else:
            deal, deal_rng = boards.deal(game.deals), boards.stream(game.deals)
        pols = (a, b) if seat_a == 0 else (b, a)
        rec = deal_fn(deal, pols, deal_rng, **kwargs)
        records.append(rec)
        score_a, score_b = rec.score[seat_a], rec.score[1 - seat_a]
        game = game.add((score_a, score_b))
        seat_a = 1 - seat_a
    if not game.is_over:
        raise RuntimeError(f"no winner after {max_deals} deals")
    assert game.winner is not None
    return MatchResult(game.totals, game.winner, game.deals, tuple(records))


def klabberjass_pair(
    a: KlabberjassPolicy,
    b: KlabberjassPolicy,
    seed: int,
    deal_fn: Callable[..., DealRecord] = klabberjass_deal,
    **kwargs: Any,
) -> tuple[MatchResult, MatchResult]:
    """A duplicate pair: two matches on the same deals (:class:`KlabberjassBoards` of
    ``seed``), A sitting E in deal 0 of the first leg and D in deal 0 of the second.

    Deal ``k`` of both legs is the same cards with the same random stream, and player
    0 (E in deal 0, D in deal 1, …) holds the same cards in both legs: in the second
    leg B holds exactly the cards A held in the first, and A those B held. The legs
    may last a different number of deals; deal ``k`` is played in both only while both
    last (``k`` below the shorter leg's length).
    """
    leg0 = klabberjass_match(
        a, b, random.Random(0), 0, deal_fn, boards=KlabberjassBoards(seed), **kwargs
    )
    leg1 = klabberjass_match(
        a, b, random.Random(0), 1, deal_fn, boards=KlabberjassBoards(seed), **kwargs
    )
    return leg0, leg1


def deal_scores(m: MatchResult, a_first_seat: int) -> list[tuple[int, int]]:
    """(A's points, B's points) of each deal of a match, in order."""
    out = []
    seat_a = a_first_seat
    for rec in m.records:
        out.append((rec.score[seat_a], rec.score[1 - seat_a]))
        seat_a = 1 - seat_a
    return out


_KJ_NAMES = ("match", "a", "b", "a_first_seat", "deals", "total_a", "total_b", "a_wins")
_KJ_EXTRA = ("a_bids", "b_bids", "a_made", "b_made", "a_sank", "b_sank")
_KJ_DUPLICATE = ("leg", "common_deals", "common_a", "common_b")
_KJ_INFERENCE = ("inf_decisions", "inf_drawn", "inf_kept", "inf_fallbacks")


def _klabberjass_row(index: int, pa, pb, first: int, m: MatchResult) -> dict[str, Any]:
    stats = dict.fromkeys(_KJ_EXTRA, 0)
    for k, name in enumerate(_KJ_INFERENCE):
        stats[name] = sum(rec.inference[k] for rec in m.records)
    seat_a = first
    for rec in m.records:
        if rec.bidder is not None:
            who = "a" if rec.bidder == seat_a else "b"
            stats[f"{who}_bids"] += 1
            stats[f"{who}_made"] += rec.result == "made"
            stats[f"{who}_sank"] += rec.sank
        seat_a = 1 - seat_a
    row = (index, pa.name, pb.name, first, m.deals, *m.totals, m.winner == 0)
    return {**dict(zip(_KJ_NAMES, row, strict=True)), **stats}


def klabberjass_matches_chunk(
    rng: random.Random, start: int, count: int, params: dict[str, Any]
) -> dict[str, list]:
    """The ``klabberjass-matches`` study: ``count`` matches of policy ``a`` against ``b``.

    ``format=single`` (default): match ``i`` seats A as E in its first deal when ``i``
    is even, as D when odd. One row a match: ``match``, ``a``, ``b``,
    ``a_first_seat``, ``deals``, ``total_a``, ``total_b``, ``a_wins``, ``a_bids`` /
    ``b_bids`` (deals each was bidder), ``a_made`` / ``b_made`` (of those, made),
    ``a_sank`` / ``b_sank``.

    ``format=duplicate``: match ``i`` is a pair (:func:`klabberjass_pair`) on the
    deals of a seed drawn from ``rng``; two rows, ``leg`` 0 (A sits E in deal 0) and
    1 (A sits D in deal 0, so A holds B's cards of leg 0), with the columns above and
    ``common_deals`` (deals played in both legs: the shorter leg's length),
    ``common_a`` / ``common_b`` (A's and B's points in this leg over those deals).

    ``inference`` (``none``, ``a``, ``b`` or ``both``): which players read the auction
    in PIMC card play (:attr:`KlabberjassPolicy.infer`; each assumes the other's
    bidding policy). Unless ``none`` the rows also have ``inf_decisions`` (decisions
    whose worlds were conditioned on calls), ``inf_drawn`` / ``inf_kept`` (candidate
    worlds drawn, kept) and ``inf_fallbacks`` (decisions played on unconditioned worlds
    because too few were kept), over the match.
    """
    rules = Rules.preset(str(params.get("rules", "seed")))
    if rules != SEED:
        raise ValueError("matches simulate the seed rules only")
    pa = KLABBERJASS_POLICIES[str(params.get("a", "derived"))]
    pb = KLABBERJASS_POLICIES[str(params.get("b", "thumb"))]
    reads = str(params.get("inference", "none"))
    if reads not in ("none", "a", "b", "both"):
        raise ValueError(f"unknown inference '{reads}' (expected none, a, b or both)")
    if reads in ("a", "both"):
        pa = dataclasses.replace(pa, infer=True)
    if reads in ("b", "both"):
        pb = dataclasses.replace(pb, infer=True)
    fmt = str(params.get("format", "single"))
    if fmt not in ("single", "duplicate"):
        raise ValueError(f"unknown format '{fmt}' (expected single or duplicate)")
    for key in ("play_a", "play_b"):
        own = str(params.get(key, "same"))
        if own not in ("same", "pimc", "alphamu"):
            raise ValueError(f"unknown {key} '{own}' (expected same, pimc or alphamu)")
        if own != "same":
            if key == "play_a":
                pa = dataclasses.replace(pa, play=own)
            else:
                pb = dataclasses.replace(pb, play=own)
    kw: dict[str, Any] = {
        "play": str(params.get("play", "pimc")),
        "samples": int(params.get("samples", 6)),
        "sink_samples": int(params.get("sink_samples", 12)),
        "rules": rules,
        "sinking": str(params.get("sinking", "realplay")),
    }
    if "alphamu" in (kw["play"], pa.play, pb.play):
        kw["depth"] = int(params.get("depth", 2))
    keys = (*_KJ_NAMES, *_KJ_EXTRA) + (_KJ_DUPLICATE if fmt == "duplicate" else ())
    if reads != "none":
        keys += _KJ_INFERENCE
    cols: dict[str, list] = {k: [] for k in keys}
    for i in range(count):
        if fmt == "single":
            first = (start + i) % 2
            m = klabberjass_match(pa, pb, random.Random(rng.getrandbits(64)), first, **kw)
            rows = [_klabberjass_row(start + i, pa, pb, first, m)]
        else:
            legs = klabberjass_pair(pa, pb, rng.getrandbits(64), **kw)
            common = min(leg.deals for leg in legs)
            rows = []
            for leg, m in enumerate(legs):
                scores = deal_scores(m, leg)[:common]
                row = _klabberjass_row(start + i, pa, pb, leg, m)
                row.update(
                    leg=leg,
                    common_deals=common,
                    common_a=sum(x for x, _ in scores),
                    common_b=sum(y for _, y in scores),
                )
                rows.append(row)
        for row in rows:
            for k in keys:
                cols[k].append(row[k])
    return cols


# ====================================================================== Carabin


@dataclass(frozen=True)
class CarabinMatch:
    """A finished Carabin game: final scores by player, winners, deals played."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    deals: int
    bids: tuple[int, ...]
    made: tuple[int, ...]
    #: per player who read the auction: (decisions inferred, candidate worlds drawn,
    #: kept, fallbacks to unconditioned worlds) over the game; zeros for the others
    inference: tuple[tuple[int, int, int, int], ...] = ()


def carabin_play_pimc(
    deal,
    contract,
    samples: int,
    rng: random.Random,
    inference: Sequence[CarabinInference | None] | None = None,
    auction: Bidding | None = None,
    stats: list[Stats] | None = None,
) -> bool:
    """Whether the contract is made when every seat plays by PIMC
    (:class:`analysis.play.CarabinPimc`: made or failed in each world, the bidder for
    it, the others against it), the worlds' seeds drawn from ``rng``.

    ``inference[s]``: how seat ``s`` reads ``auction`` (None: he ignores it); the seats'
    :class:`analysis.play.Stats` are appended to ``stats`` when given. Every seat draws
    its worlds' seeds from the one stream, in the order of the decisions, whoever reads."""

    if inference is None or not any(inference):
        policy = CarabinPimc(samples, seed=rng)
        pols = [policy] * deal.players
    else:
        pols = [CarabinPimc(samples, seed=rng, inference=inf) for inf in inference]
    made = play_carabin(deal, contract, pols, auction=auction).made
    if stats is not None:
        stats.extend(p.stats for p in pols)
    return made


#: The card plays of Carabin matches (``dd`` is for every seat or none).
CARABIN_PLAYS = ("dd", "pimc", "alphamu")


def carabin_play_mixed(
    deal,
    contract,
    plays: Sequence[str],
    samples: int,
    rng: random.Random,
    depth: int = 2,
    alphamu_samples: int | None = None,
    time_limit: float | None = None,
    stats: list[Stats] | None = None,
) -> bool:
    """Whether the contract is made when seat ``s`` plays by ``plays[s]``: ``pimc``
    (:class:`analysis.play.CarabinPimc`, ``samples`` worlds) or ``alphamu``
    (:class:`analysis.carabin_alphamu.CarabinAlphaMu`, ``alphamu_samples`` worlds,
    default ``samples``; ``depth`` decisions searched; ``time_limit`` seconds a
    decision, None: none, so the play depends only on the seeds). The worlds' seeds
    come from ``rng``, one stream for every seat in the order of the decisions; the
    seats' :class:`analysis.play.Stats` are appended to ``stats`` when given.

    Raises:
        ValueError: an unknown play (the message quotes it).
    """
    from analysis.carabin_alphamu import CarabinAlphaMu

    pols: list[Any] = []
    for p in plays:
        if p == "pimc":
            pols.append(CarabinPimc(samples, seed=rng))
        elif p == "alphamu":
            worlds = samples if alphamu_samples is None else alphamu_samples
            pols.append(CarabinAlphaMu(worlds, depth, seed=rng, time_limit=time_limit))
        else:
            raise ValueError(f"unknown play '{p}' (expected pimc or alphamu)")
    made = play_carabin(deal, contract, pols).made
    if stats is not None:
        stats.extend(p.stats for p in pols)
    return made


class CarabinBoards(_Seeds):
    """The deals of a Carabin duplicate set: deal ``k`` of every game of the set is the
    same cards, seat by seat, with the same random stream for the card play.

    Every game starts with player ``N-1`` dealing and the deal passes to the left, so
    in deal ``k`` seat ``s`` is the same player in every game: player ``p`` holds the
    same cards in deal ``k`` of every game that lasts that long. Deal ``k``'s seeds are
    the ``k``-th pair of 64-bit numbers of ``random.Random(seed)``, made once and kept.
    """

    def __init__(self, seed: int, players: int):
        super().__init__(seed)
        self.players = players

    def deal(self, k: int) -> CDeal:
        """The cards of deal ``k`` (seat 0 is the eldest hand)."""
        return CDeal.random(players=self.players, rng=random.Random(self._seed(k)[0]))


def carabin_match(
    policies: Sequence[Any],
    rng: random.Random,
    play: str = "dd",
    samples: int = 4,
    max_deals: int = 500,
    boards: CarabinBoards | None = None,
    reads: Sequence[bool] | None = None,
    plays: Sequence[str] | None = None,
    depth: int = 2,
    alphamu_samples: int | None = None,
    time_limit: float | None = None,
) -> CarabinMatch:
    """A Carabin game to 10 between players ``0 .. N-1`` (``policies[p]`` is player p's).

    Player ``N-1`` deals first, so player 0 is eldest in the first deal; the deal passes
    to the left (:class:`solver.carabin.Match`). ``boards`` (:class:`CarabinBoards`)
    gives the deals and their play streams (``rng`` is then unused); None draws them
    from ``rng``. ``reads[p]``: player ``p`` reads the auction in PIMC card play
    (:class:`analysis.play.CarabinInference`, knowing every seat's bidding policy: in a
    match the policies are public).

    ``plays[p]`` (``pimc`` or ``alphamu``): player ``p``'s card play, overriding
    ``play`` (which must then not be ``dd``); αμ searches ``depth`` decisions over
    ``alphamu_samples`` worlds (default ``samples``) within ``time_limit`` seconds a
    decision (:func:`carabin_play_mixed`).
    """

    n = len(policies)
    if boards is not None and boards.players != n:
        raise ValueError(f"boards for {boards.players} players in a game of {n}")
    if play not in CARABIN_PLAYS:
        raise ValueError(f"unknown play '{play}' (expected dd, pimc or alphamu)")
    own = list(plays) if plays is not None else [play] * n
    if plays is not None:
        if len(own) != n or any(p not in CARABIN_PLAYS[1:] for p in own):
            raise ValueError(f"invalid plays {own} (pimc or alphamu for each of {n} players)")
        if play == "dd":
            raise ValueError("double-dummy play (dd) is for every player or none")
    game = CGame(CRules(players=n))
    bids, made = [0] * n, [0] * n
    inferred = [[0, 0, 0, 0] for _ in range(n)]
    deals = 0
    while not game.is_over and deals < max_deals:
        if boards is None:
            deal = CDeal.random(players=n, rng=random.Random(rng.getrandbits(64)))
            deal_rng = rng
        else:
            deal, deal_rng = boards.deal(deals), boards.stream(deals)
        seat_policies = [policies[game.player_of(s)] for s in range(n)]
        bidding = auction_bidding(deal, seat_policies)
        contract = bidding.contract
        ok = False
        if contract is not None:
            if play == "dd":
                m, c = contract_result(deal, contract.bidder, contract.trump)
                ok = c if contract.chelem else m
            elif play == "pimc" and reads is not None and any(reads):
                reading = CarabinInference(tuple(seat_policies))
                infs = [reading if reads[game.player_of(s)] else None for s in range(n)]
                stats: list[Stats] = []
                ok = carabin_play_pimc(deal, contract, samples, deal_rng, infs, bidding, stats)
                for s, st in enumerate(stats):
                    row = inferred[game.player_of(s)]
                    for k, v in enumerate((st.inferred, st.drawn, st.kept, st.fallbacks)):
                        row[k] += v
            elif set(own) == {"pimc"}:
                ok = carabin_play_pimc(deal, contract, samples, deal_rng)
            else:
                seat_plays = [own[game.player_of(s)] for s in range(n)]
                ok = carabin_play_mixed(
                    deal, contract, seat_plays, samples, deal_rng, depth, alphamu_samples,
                    time_limit,
                )  # fmt: skip
            p = game.player_of(contract.bidder)
            bids[p] += 1
            made[p] += ok
        game = game.record(contract, ok)
        deals += 1
    if not game.is_over:
        raise RuntimeError(f"no winner after {max_deals} deals")
    return CarabinMatch(
        game.scores, game.winners, deals, tuple(bids), tuple(made),
        tuple((a, b, c, d) for a, b, c, d in inferred) if reads is not None else (),
    )  # fmt: skip


def carabin_seatings(names: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """The seatings of a duplicate set: the policies dealt to the players in turn,
    starting from each policy, each rotated over the seats; distinct ones, in that order.

    >>> carabin_seatings(["derived", "thumb"], 4)
    [('derived', 'thumb', 'derived', 'thumb'), ('thumb', 'derived', 'thumb', 'derived')]
    >>> [",".join(x[0] for x in s) for s in carabin_seatings(["d", "t"], 3)]
    ['d,t,d', 't,d,d', 'd,d,t', 't,d,t', 'd,t,t', 't,t,d']
    """
    out: list[tuple[str, ...]] = []
    k = len(names)
    for r in range(k):
        base = [names[(p + r) % k] for p in range(players)]
        for s in range(players):
            seating = tuple(base[s:] + base[:s])
            if seating not in out:
                out.append(seating)
    return out


#: What the label of a player who reads the auction adds to his policy's name.
INFERENCE_MARK = "+inference"

_CB_INFERENCE = ("inf_decisions", "inf_drawn", "inf_kept", "inf_fallbacks")


def _reads(labels: Sequence[str], reads: str) -> list[bool] | None:
    """Per player, whether he reads the auction (None: nobody does)."""
    return None if reads == "none" else [x.endswith(INFERENCE_MARK) for x in labels]


def _entry_plays(params: dict[str, Any], play: str, entries: int) -> list[str]:
    """The card play of each entry of ``policies``: ``plays`` (comma separated, one per
    entry) or ``play`` for all.

    >>> _entry_plays({"plays": "alphamu,pimc"}, "pimc", 2)
    ['alphamu', 'pimc']
    >>> _entry_plays({"plays": "alphamu,dd"}, "pimc", 2)
    Traceback (most recent call last):
    ...
    ValueError: invalid plays 'alphamu,dd' (pimc or alphamu for each of the 2 policies)
    """
    if play not in CARABIN_PLAYS:
        raise ValueError(f"unknown play '{play}' (expected dd, pimc or alphamu)")
    if str(params.get("plays", "same")) == "same":
        return [play] * entries
    text = str(params["plays"])
    out = [x.strip() for x in text.split(",")]
    if len(out) != entries or any(x not in ("pimc", "alphamu") for x in out):
        raise ValueError(
            f"invalid plays '{text}' (pimc or alphamu for each of the {entries} policies)"
        )
    if play == "dd":
        raise ValueError(f"plays={text} needs play=pimc (double-dummy play is for every player)")
    return out


def carabin_matches_chunk(
    rng: random.Random, start: int, count: int, params: dict[str, Any]
) -> dict[str, list]:
    """The ``carabin-matches`` study: ``count`` games between the ``policies`` (comma
    separated, dealt to players in turn).

    ``format=single`` (default): the seating rotates with the match index (match ``i``
    gives player ``p`` the policy ``policies[(p + i) % k]``), so every policy sits in
    every seat equally often. One row per match and player: ``match``, ``player``,
    ``policy``, ``score``, ``win`` (1/k when k players share the win), ``bids``,
    ``made``, ``deals``.

    ``format=duplicate``: match ``i`` is a set of games on the same deals
    (:class:`CarabinBoards` of a seed drawn from ``rng``), one game per seating of
    :func:`carabin_seatings`; one row per game and player, the columns above and
    ``seating`` (the seating's index in that list).

    ``inference`` (``none``, ``a``, ``b`` or ``both``; with ``play=pimc``): which players
    read the auction in card play (:class:`analysis.play.CarabinInference`, each knowing
    every seat's bidding policy): ``a`` the players of the first entry of ``policies``,
    ``b`` those of every other entry. A reader's ``policy`` is its name and
    ``+inference`` (``policies=realplay,realplay,realplay inference=a``: one
    ``realplay+inference`` against two ``realplay``). Unless ``none`` the rows also have
    ``inf_decisions`` (the player's decisions whose worlds were conditioned on the
    calls), ``inf_drawn`` / ``inf_kept`` (candidate worlds drawn, kept) and
    ``inf_fallbacks`` (decisions played on unconditioned worlds because too few were
    kept), over the game. ``max_deals``: a game stops with an error after that many deals.
    """

    n = int(params.get("players", 4))
    entries = [s.strip() for s in str(params.get("policies", "derived,thumb")).split(",")]
    fmt = str(params.get("format", "single"))
    if fmt not in ("single", "duplicate"):
        raise ValueError(f"unknown format '{fmt}' (expected single or duplicate)")
    reads = str(params.get("inference", "none"))
    if reads not in ("none", "a", "b", "both"):
        raise ValueError(f"unknown inference '{reads}' (expected none, a, b or both)")
    play, samples = str(params.get("play", "dd")), int(params.get("samples", 4))
    if reads != "none" and play != "pimc":
        raise ValueError(f"inference={reads} needs play=pimc (double-dummy play sees every card)")
    max_deals = int(params.get("max_deals", 500))
    reading = {"none": (), "a": (0,), "b": range(1, len(entries)), "both": range(len(entries))}
    names = [f"{e}{INFERENCE_MARK}" if k in reading[reads] else e for k, e in enumerate(entries)]
    entry_plays = _entry_plays(params, play, len(entries))
    if reads != "none" and "alphamu" in entry_plays:
        raise ValueError(f"inference={reads} is for PIMC card play (not with alphamu)")
    labels = [x if q == play else f"{x}+{q}" for x, q in zip(names, entry_plays, strict=True)]
    bases = dict(zip(labels, names, strict=True))
    names = labels
    play_of = dict(zip(names, entry_plays, strict=True))
    mixed: dict[str, Any] = {}
    if "alphamu" in entry_plays or len(set(entry_plays)) > 1:
        mixed = {
            "depth": int(params.get("depth", 2)),
            "alphamu_samples": int(params.get("alphamu_samples", 0)) or None,
            "time_limit": float(params.get("time_limit", 0.0)) or None,
        }
    makers = {x: POLICIES[bases[x].removesuffix(INFERENCE_MARK)]() for x in set(names)}
    keys = ["match", "player", "policy", "score", "win", "bids", "made", "deals"]
    if fmt == "duplicate":
        keys.insert(1, "seating")
    if reads != "none":
        keys += _CB_INFERENCE
    cols: dict[str, list] = {k: [] for k in keys}
    seatings = carabin_seatings(names, n)
    for i in range(count):
        m_index = start + i
        if fmt == "single":
            seat_names = [names[(p + m_index) % len(names)] for p in range(n)]
            m = carabin_match(
                [makers[x] for x in seat_names],
                random.Random(rng.getrandbits(64)),
                play=play,
                samples=samples,
                max_deals=max_deals,
                reads=_reads(seat_names, reads),
                plays=[play_of[x] for x in seat_names] if mixed else None,
                **mixed,
            )
            games: list[tuple[int | None, Sequence[str], CarabinMatch]] = [(None, seat_names, m)]
        else:
            seed = rng.getrandbits(64)
            games = [
                (
                    j,
                    seating,
                    carabin_match(
                        [makers[x] for x in seating],
                        random.Random(0),
                        play=play,
                        samples=samples,
                        max_deals=max_deals,
                        boards=CarabinBoards(seed, n),
                        reads=_reads(seating, reads),
                        plays=[play_of[x] for x in seating] if mixed else None,
                        **mixed,
                    ),
                )
                for j, seating in enumerate(seatings)
            ]
        for j, seating_names, m in games:
            for p in range(n):
                row = {
                    "match": m_index,
                    "seating": j,
                    "player": p,
                    "policy": seating_names[p],
                    "score": m.scores[p],
                    "win": (1 / len(m.winners)) if p in m.winners else 0.0,
                    "bids": m.bids[p],
                    "made": m.made[p],
                    "deals": m.deals,
                }
                if m.inference:
                    row.update(zip(_CB_INFERENCE, m.inference[p], strict=True))
                for k in keys:
                    cols[k].append(row[k])
    return cols


# ====================================================================== summaries


def klabberjass_summary(df) -> dict[str, Any]:
    """Win rate of A with its 95 % (Wilson) interval, and what the matches looked like."""
    wins = int(df["a_wins"].sum())
    p = proportion(wins, len(df))
    return {
        "a": str(df["a"].iloc[0]),
        "b": str(df["b"].iloc[0]),
        "matches": len(df),
        "a_wins": wins,
        "a_win_rate": p.mean,
        "low": p.low,
        "high": p.high,
        "deals_per_match": float(df["deals"].mean()),
        "a_points_per_deal": float(df["total_a"].sum() / df["deals"].sum()),
        "b_points_per_deal": float(df["total_b"].sum() / df["deals"].sum()),
        "a_bids_made": float(df["a_made"].sum() / max(1, df["a_bids"].sum())),
        "b_bids_made": float(df["b_made"].sum() / max(1, df["b_bids"].sum())),
        "a_sank": int(df["a_sank"].sum()),
    }


def carabin_summary(df) -> list[dict[str, Any]]:
    """Per policy: its mean win per seat (a shared win counts 1/k) with a 95 % interval
    over the matches, the fair share (1 / players), bids per match and make rate."""
    out = []
    matches = df["match"].nunique()
    players = int(df.groupby("match")["player"].count().iloc[0])
    for name, part in df.groupby("policy"):
        seats = len(part)
        # seats of one match are not independent (two seats of a rule share its wins):
        # one value per match, the rule's mean win per seat in it; matches are independent
        per_match = part.groupby("match")["win"].mean()
        est = Estimate.of(per_match.to_list())
        out.append(
            {
                "policy": name,
                "matches": matches,
                "players": players,
                "seats": seats,
                "win_share": est.mean,
                "low": est.low,
                "high": est.high,
                "fair_share": 1 / players,
                "bids_per_match": float(part["bids"].sum() / matches),
                "make_rate": float(part["made"].sum() / max(1, part["bids"].sum())),
                "deals_per_match": float(part["deals"].mean()),
            }
        )
    return out


# ---------------------------------------------------------------- duplicate summaries


def t_quantile(df: int) -> float:
    """The 97.5 % quantile of Student's t with ``df`` degrees of freedom (Hill's
    expansion around the normal quantile; within 1e-3 of the exact value from 5 df on).

    >>> round(t_quantile(10), 3), round(t_quantile(1000), 3)
    (2.228, 1.962)
    """
    if df < 1:
        return math.inf
    z = 1.959963984540054
    v = float(df)
    return (
        z
        + (z**3 + z) / (4 * v)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * v**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * v**3)
        + (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / (92160 * v**4)
    )


def t_interval(values: Sequence[float]) -> Estimate:
    """Mean of independent ``values`` with its 95 % t-interval (n − 1 degrees of freedom).

    >>> e = t_interval([1, 2, 3, 4])
    >>> e.mean, round(e.low, 2), round(e.high, 2)
    (2.5, 0.45, 4.55)
    """
    return Estimate.of(values, t_quantile)


def clustered_mean(sums: Sequence[float], counts: Sequence[int]) -> Estimate:
    """The mean of per-deal values given per cluster (match) as the sum of its values
    and their number: ``Σ sums / Σ counts`` with a 95 % interval clustered by match
    (the ratio estimator's linearised variance, t with clusters − 1 degrees of
    freedom). ``n`` is the number of clusters.

    >>> e = clustered_mean([10, 30], [1, 3])   # every deal worth 10: no spread
    >>> e.mean, e.low, e.high
    (10.0, 10.0, 10.0)
    """
    n = len(sums)
    total = float(sum(counts))
    if n == 0 or total == 0:
        return Estimate(math.nan, math.nan, math.nan, n)
    mean = sum(sums) / total
    if n == 1:
        return Estimate(mean, -math.inf, math.inf, 1)
    resid = sum((s - mean * c) ** 2 for s, c in zip(sums, counts, strict=True))
    se = math.sqrt(n / (n - 1) * resid) / total
    half = t_quantile(n - 1) * se
    return Estimate(mean, mean - half, mean + half, n)


def _figure(est: Estimate, null: float = 0.0, **extra: Any) -> dict[str, Any]:
    """An estimate as a dict: ``null`` is the value of no effect (0 for a difference,
    1/2 or the fair share for a win rate) and ``contains_null`` says whether the
    interval holds it."""
    return {
        "estimate": est.mean,
        "low": est.low,
        "high": est.high,
        "n": est.n,
        "null": null,
        "contains_null": bool(est.low <= null <= est.high),
        **extra,
    }


def _legs(df) -> tuple[Any, Any]:
    """Rows of leg 0 and leg 1 of a duplicate Klabberjass study, aligned by match."""
    if "leg" not in df.columns:
        raise ValueError("not a duplicate study (no 'leg' column): run it with format=duplicate")
    leg0 = df[df["leg"] == 0].set_index("match").sort_index()
    leg1 = df[df["leg"] == 1].set_index("match").sort_index()
    if not leg0.index.equals(leg1.index):
        raise ValueError("a duplicate study needs both legs of every match")
    return leg0, leg1


def klabberjass_duplicate_summary(df) -> dict[str, Any]:
    """The figures of a ``klabberjass-matches`` study run with ``format=duplicate``.

    - ``a_win_rate``: A's wins over all legs, Wilson 95 % interval (it treats the two
      legs of a pair as independent; ``a_win_rate_pairs`` does not);
    - ``pair_difference``: per pair, A's result holding player 0's cards (leg 0) minus
      B's result holding the same cards (leg 1), i.e. ``a_wins(leg 0) + a_wins(leg 1)
      − 1`` in {−1, 0, 1}; mean with a t-interval over pairs;
    - ``a_win_rate_pairs``: ``(1 + pair_difference) / 2``, the same interval mapped;
    - ``deal_difference``: duplicate scoring, A's points minus B's on the same cards
      per deal, over the deals both legs played (``common_deals``): per pair
      ``((common_a − common_b)(leg 0) + (common_a − common_b)(leg 1)) / 2`` summed,
      divided by the deals; interval clustered by pair;
    - ``deal_difference_one_leg``: for comparison, A's points minus B's per deal in
      leg 0 alone (all its deals, not duplicated), clustered by match;
    - ``by_leg``: A's win rate in each leg (A sitting E, then D, in deal 0), Wilson;
    - ``inference`` (when a player read the auction): decisions whose worlds were
      conditioned on calls, candidate worlds drawn and kept, the fraction rejected,
      candidates drawn a decision and the decisions that fell back to unconditioned
      worlds.
    """
    leg0, leg1 = _legs(df)
    n = len(leg0)
    wins = int(df["a_wins"].sum())
    p = proportion(wins, 2 * n)
    d = (leg0["a_wins"].astype(int) + leg1["a_wins"].astype(int) - 1).to_list()
    diff = t_interval(d)
    pairs = Estimate((1 + diff.mean) / 2, (1 + diff.low) / 2, (1 + diff.high) / 2, n)
    sums = (
        (leg0["common_a"] - leg0["common_b"] + leg1["common_a"] - leg1["common_b"]) / 2
    ).to_list()
    deal = clustered_mean(sums, leg0["common_deals"].to_list())
    one_leg = clustered_mean((leg0["total_a"] - leg0["total_b"]).to_list(), leg0["deals"].to_list())
    extra: dict[str, Any] = {}
    if "inf_decisions" in df.columns:
        extra["inference"] = inference_counts(df)
    return {
        "a": str(df["a"].iloc[0]),
        "b": str(df["b"].iloc[0]),
        "pairs": n,
        "legs": 2 * n,
        "a_wins": wins,
        "a_win_rate": _figure(p, 0.5, interval="Wilson over legs"),
        "a_win_rate_pairs": _figure(pairs, 0.5, interval="t over pairs"),
        "pair_difference": _figure(diff, interval="t over pairs"),
        "deal_difference": _figure(
            deal,
            interval="t, clustered by pair",
            deals=int(leg0["common_deals"].sum()),
        ),
        "deal_difference_one_leg": _figure(
            one_leg, interval="t, clustered by match", deals=int(leg0["deals"].sum())
        ),
        "by_leg": [
            {
                "leg": k,
                "a_first_seat": "ED"[k],
                **_figure(proportion(int(leg["a_wins"].sum()), n), 0.5, interval="Wilson"),
            }
            for k, leg in enumerate((leg0, leg1))
        ],
        "deals_per_match": float(df["deals"].mean()),
        "common_deals_per_pair": float(leg0["common_deals"].mean()),
        "a_bids_made": float(df["a_made"].sum() / max(1, df["a_bids"].sum())),
        "b_bids_made": float(df["b_made"].sum() / max(1, df["b_bids"].sum())),
        "a_sank": int(df["a_sank"].sum()),
        **extra,
    }


def inference_counts(df) -> dict[str, Any]:
    """What the auction inference of a match study did, over its rows (``inf_*``
    columns): decisions whose worlds were conditioned, candidate worlds drawn and kept,
    the share rejected, candidates a decision, and fallbacks to unconditioned worlds."""
    dec, drawn, kept, falls = (
        int(df[k].sum()) for k in ("inf_decisions", "inf_drawn", "inf_kept", "inf_fallbacks")
    )
    return {
        "decisions": dec,
        "drawn": drawn,
        "kept": kept,
        "rejected_fraction": 1 - kept / drawn if drawn else 0.0,
        "drawn_per_decision": drawn / dec if dec else 0.0,
        "fallbacks": falls,
    }


def carabin_duplicate_summary(df) -> dict[str, Any]:
    """The figures of a ``carabin-matches`` study run with ``format=duplicate``.

    A set (``match``) is one game per seating on the same deals; sets are independent,
    so every interval is a t-interval over sets of one value a set:

    - ``overall``: per policy, its mean win per seat (a shared win counts 1/k) over
      every game and seat of the set, beside the fair share 1 / players;
    - ``difference``: with two policies, the first one's mean win per seat minus the
      second one's;
    - ``by_seat``: per policy and player (seat index: player 0 is the eldest of the
      first deal), its mean win there over the seatings that put it there;
    - ``by_seating``: per seating and player, the win of the policy sitting there (the
      players of a seating sum to 1).
    """
    if "seating" not in df.columns:
        raise ValueError(
            "not a duplicate study (no 'seating' column): run it with format=duplicate"
        )
    players = int(df["player"].max()) + 1
    sets = int(df["match"].nunique())
    names = list(dict.fromkeys(df.sort_values(["seating", "player"])["policy"]))
    first = df[df["match"] == df["match"].min()].sort_values("player")
    seatings = first.groupby("seating")["policy"].agg(",".join).to_dict()
    overall = []
    per_set: dict[str, Any] = {}
    for name in names:
        part = df[df["policy"] == name]
        per_set[name] = part.groupby("match")["win"].mean()
        overall.append(
            {
                "policy": name,
                **_figure(t_interval(per_set[name].to_list()), 1 / players, interval="t over sets"),
                "seats": len(part),
                "bids_per_game": float(
                    part["bids"].sum() / df.groupby(["match", "seating"]).ngroups
                ),
                "make_rate": float(part["made"].sum() / max(1, part["bids"].sum())),
            }
        )
    difference = None
    if len(names) == 2:
        both = (per_set[names[0]] - per_set[names[1]]).dropna()
        difference = {
            "policies": f"{names[0]} - {names[1]}",
            **_figure(t_interval(both.to_list()), interval="t over sets"),
        }
    by_seat = []
    for (name, player), part in df.groupby(["policy", "player"], sort=True):
        values = part.groupby("match")["win"].mean().to_list()
        by_seat.append(
            {
                "policy": name,
                "player": int(player),
                "games": len(part),
                **_figure(t_interval(values), 1 / players, interval="t over sets"),
            }
        )
    by_seating = []
    for (seating, player), part in df.groupby(["seating", "player"], sort=True):
        by_seating.append(
            {
                "seating": int(seating),
                "policies": seatings[seating],
                "player": int(player),
                "policy": str(part["policy"].iloc[0]),
                **_figure(t_interval(part["win"].to_list()), 1 / players, interval="t over sets"),
            }
        )
    return {
        "players": players,
        "sets": sets,
        "games": int(df.groupby(["match", "seating"]).ngroups),
        "seatings": [seatings[k] for k in sorted(seatings)],
        "deals_per_game": float(df.groupby(["match", "seating"])["deals"].first().mean()),
        "overall": overall,
        "difference": difference,
        "by_seat": by_seat,
        "by_seating": by_seating,
    }


def carabin_seating_summary(df) -> list[dict[str, Any]]:
    """Two policies in duplicate Carabin games, per seating and pooled: games won a
    seat and points a deal, each policy and their difference on the same cards.

    ``df``: the rows of ``carabin-matches`` studies run with ``format=duplicate`` and
    two policies (a ``seed`` column, when present, keeps the sets of several seeds
    apart). A is the policy of player 0 in seating 0 (the first of ``policies``), B the
    other. A player's *points a deal* is his final score over the deals of his game.

    For a seating, A's value is its mean over the seats A holds there (``a_seats``);
    B's is B's mean in the same seats over the other seatings (the same cards, deal by
    deal, while both games last), and ``estimate`` is A minus B. ``pooled``: A's mean
    over every seat and seating minus B's. One value a set (the games of a set share
    their deals; sets are independent), so every interval is a 95 % t-interval over
    sets: clustered by duplicate set. With one policy against a field of the other
    (``realplay,thumb,thumb``) each seating puts A in one seat.

    Returns:
        one row per seating and ``pooled``, and per measure (``games won a seat``,
        ``points a deal``): ``seating``, ``policies``, ``a_seats``, ``measure``, ``a``,
        ``b``, A's ``a_estimate, a_low, a_high`` (with ``a_null``: the fair share 1 /
        players for games won, else empty), B's ``b_estimate``, and the difference
        ``estimate, low, high, n`` (sets), ``contains_null`` (0 inside the interval).

    Raises:
        ValueError: not a duplicate study, or not two policies.
    """
    if "seating" not in df.columns:
        raise ValueError(
            "not a duplicate study (no 'seating' column): run it with format=duplicate"
        )
    names = list(dict.fromkeys(df.sort_values(["seating", "player"])["policy"]))
    if len(names) != 2:
        raise ValueError(f"a seating summary compares two policies, not {len(names)} ({names})")
    a, b = names
    players = int(df["player"].max()) + 1
    keys = ["seed", "match"] if "seed" in df.columns else ["match"]
    d = df.assign(points=df["score"] / df["deals"], set=df.groupby(keys).ngroup())
    first = d[d["set"] == 0].sort_values("player")
    seatings = first.groupby("seating")["policy"].agg(list).to_dict()
    rows = []
    for measure, col in (("games won a seat", "win"), ("points a deal", "points")):
        # per set, seat and policy: the mean over the seatings that put it in that seat
        cell = d.groupby(["set", "player", "policy"])[col].mean().unstack("policy")
        for j in sorted(seatings):
            held = [p for p, name in enumerate(seatings[j]) if name == a]
            part = d[(d["seating"] == j) & (d["player"].isin(held))]
            av = part.groupby("set")[col].mean()
            bv = cell.loc[(slice(None), held), b].groupby(level="set").mean()
            rows.append(_seating_row(j, seatings[j], held, measure, a, b, av, bv, players))
        av = d[d["policy"] == a].groupby("set")[col].mean()
        bv = d[d["policy"] == b].groupby("set")[col].mean()
        rows.append(_seating_row("pooled", None, None, measure, a, b, av, bv, players))
    return rows


def _seating_row(seating, names, held, measure, a, b, av, bv, players) -> dict[str, Any]:
    both = (av - bv).dropna()
    ae, de = t_interval(av.to_list()), t_interval(both.to_list())
    return {
        "seating": seating,
        "policies": "/".join(names) if names else "",
        "a_seats": ",".join(map(str, held)) if held else "all",
        "measure": measure,
        "a": a,
        "b": b,
        "a_estimate": ae.mean,
        "a_low": ae.low,
        "a_high": ae.high,
        "a_null": 1 / players if measure == "games won a seat" else "",
        "b_estimate": float(bv.mean()),
        "estimate": de.mean,
        "low": de.low,
        "high": de.high,
        "n": de.n,
        "contains_null": bool(de.low <= 0 <= de.high),
    }


def seating_summary(folders: Sequence[str | Path], out: str | Path, command: str) -> dict:
    """Summarise duplicate Carabin studies of two policies (:func:`carabin_seating_summary`)
    into ``OUT.csv`` (the rows of each run, then, for runs that differ only in their
    seed, the rows of their sets together: ``seed`` ``both``) and ``OUT.json`` (each
    run's manifest and the command that regenerates it, with ``inference``, the counts
    of :func:`inference_counts`, when a player read the auction; and ``command``, the
    one that wrote the summary)."""
    import pandas as pd

    runs: list[dict[str, Any]] = []
    rows: list[dict[str, Any]] = []
    groups: dict[str, list[tuple[str, dict[str, Any], Any]]] = {}
    for folder in folders:
        manifest = read_manifest(folder)
        if manifest["study"] != "carabin-matches":
            raise ValueError(f"{folder} holds a {manifest['study']} study, not carabin-matches")
        df = read_study(folder).assign(seed=manifest["seed"])
        params = manifest["params"]
        name = Path(folder).name
        base = {
            "run": name,
            "players": params["players"],
            "play": params["play"],
            "samples": params["samples"] if params["play"] == "pimc" else "",
        }
        if params.get("plays", "same") != "same" or params["play"] == "alphamu":
            # αμ card play: each entry's play and αμ's budget
            base.update(
                plays=params.get("plays", "same"),
                depth=params["depth"],
                alphamu_samples=params["alphamu_samples"] or params["samples"],
            )
        base |= {
            "seed": manifest["seed"],
            "sets": int(df["match"].nunique()),
            "deals_per_game": round(
                float(df.groupby(["match", "seating"])["deals"].first().mean()), 3
            ),
        }
        rows += [{**base, **r} for r in carabin_seating_summary(df)]
        run = {"run": name, "command": study_command(folder, manifest), "study": manifest}
        if "inf_decisions" in df.columns:
            run["inference"] = json.loads(
                json.dumps(inference_counts(df)), parse_float=lambda x: round(float(x), 5)
            )
        runs.append(run)
        key = json.dumps(params, sort_keys=True)
        groups.setdefault(key, []).append((name, base, df))
    for group in groups.values():
        if len(group) < 2:
            continue
        df = pd.concat([g[2] for g in group], ignore_index=True)
        base = {
            **group[0][1],
            "run": " + ".join(g[0] for g in group),
            "seed": "both",
            "sets": sum(g[1]["sets"] for g in group),
            "deals_per_game": round(
                float(df.groupby(["seed", "match", "seating"])["deals"].first().mean()), 3
            ),
        }
        rows += [{**base, **r} for r in carabin_seating_summary(df)]
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    data = {"command": command, "runs": runs}
    out.with_suffix(".json").write_text(json.dumps(data, indent=1) + "\n")
    _write_csv(out.with_suffix(".csv"), rows)
    return data


def study_command(folder: str | Path, manifest: dict[str, Any]) -> str:
    """The ``tricklab study`` command line that regenerates a study folder.

    >>> m = {"study": "carabin-matches", "seed": 2, "deals": 5, "chunk_size": 10,
    ...      "params": {"players": 3, "policies": "derived,thumb", "play": "dd",
    ...                 "samples": 4, "format": "duplicate"}}
    >>> study_command("runs/x", m)
    'tricklab study carabin-matches --deals 5 --seed 2 --out runs/x --workers 1 --param players=3 --param format=duplicate'
    """
    from analysis.studies import added_params, get_study

    study = get_study(manifest["study"])
    words = ["tricklab", "study", study.name, "--deals", str(manifest["deals"])]
    words += ["--seed", str(manifest["seed"]), "--out", str(folder), "--workers", "1"]
    if manifest.get("chunk_size") != study.chunk_size:
        words += ["--chunk-size", str(manifest["chunk_size"])]
    params = dict(manifest["params"])
    for key, value in added_params(study.name).items():
        params.setdefault(key, value)  # added since the folder was written: its rows' value
    for key, value in params.items():
        if study.params.get(key) != value:
            words += ["--param", f"{key}={value}"]
    return " ".join(words)


def _headline_rows(run: str, summ: dict[str, Any], manifest: dict[str, Any]) -> list[dict]:
    params = manifest["params"]
    base = {
        "run": run,
        "study": manifest["study"],
        "play": params["play"],
        "samples": params["samples"] if params["play"] == "pimc" else "",
        "players": params.get("players", 2),
        "seed": manifest["seed"],
    }
    rows = []
    if manifest["study"] == "klabberjass-matches":
        units = {
            "a_win_rate": "legs",
            "a_win_rate_pairs": "pairs",
            "pair_difference": "pairs",
            "deal_difference": "pairs",
            "deal_difference_one_leg": "matches",
        }
        reads = params.get("inference", "none")
        a = summ["a"] + (" reading the auction" if reads in ("a", "both") else "")
        b = summ["b"] + (" reading the auction" if reads in ("b", "both") else "")
        for name, unit in units.items():
            what = f"{a} vs {b}: {name}"
            rows.append({**base, "figure": what, "unit": unit} | summ[name])
    else:
        for f in summ["overall"]:
            rows.append({**base, "figure": f"win per seat: {f['policy']}", "unit": "sets"} | f)
        if summ["difference"] is not None:
            f = summ["difference"]
            rows.append({**base, "figure": f"difference: {f['policies']}", "unit": "sets"} | f)
    keep = "run study play samples players seed figure estimate low high n unit null contains_null"
    return [{k: r.get(k, "") for k in keep.split()} for r in rows]


def seed_rows(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """For each figure measured on two seeds with the same parameters: the second
    seed's estimate minus the first's, with a 95 % normal interval from the two
    standard errors (``contains_null`` true: the seeds agree), and the two pooled
    (their mean, the standard error halved in variance). Figures whose interval is
    a t-interval only (over pairs, matches or sets); the standard error of each is
    read back from its interval (half-width / t quantile).
    """
    out: list[dict[str, Any]] = []
    groups: dict[tuple, list[dict[str, Any]]] = {}
    for r in rows:
        if r["unit"] in ("pairs", "matches", "sets") and r["seed"] != "":
            key = (r["study"], r["play"], r["samples"], r["players"], r["figure"])
            groups.setdefault(key, []).append(r)
    z = 1.959963984540054
    for group in groups.values():
        if len(group) != 2:
            continue
        one, two = sorted(group, key=lambda r: r["seed"])
        se = [(r["high"] - r["low"]) / (2 * t_quantile(int(r["n"]) - 1)) for r in (one, two)]
        both = math.hypot(*se)
        for kind, est, half in (
            ("seed difference", two["estimate"] - one["estimate"], z * both),
            ("pooled", (one["estimate"] + two["estimate"]) / 2, z * both / 2),
        ):
            null = 0.0 if kind == "seed difference" else one["null"]
            out.append(
                {
                    **one,
                    "run": f"{one['run']} + {two['run']}",
                    "seed": f"{two['seed']} - {one['seed']}" if kind != "pooled" else "both",
                    "figure": f"{one['figure']} ({kind})",
                    "estimate": est,
                    "low": est - half,
                    "high": est + half,
                    "n": int(one["n"]) + int(two["n"]),
                    "null": null,
                    "contains_null": bool(est - half <= null <= est + half),
                }
            )
    return out


def _rounded(value: Any) -> Any:
    return round(value, 5) if isinstance(value, float) else value


def _write_csv(path: Path, rows: Sequence[dict[str, Any]]) -> None:
    import csv

    with path.open("w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows({k: _rounded(v) for k, v in r.items()} for r in rows)


def duplicate_summary(folders: Sequence[str | Path], out: str | Path, command: str) -> dict:
    """Summarise duplicate match studies into ``OUT.json`` (each run's figures, its
    manifest and the command that regenerates it, and ``command``, the one that wrote
    the summary), ``OUT.csv`` (the headline figures, one row each, then for runs that
    differ only in their seed the rows of :func:`seed_rows`) and, for Carabin,
    ``OUT-seats.csv`` (the ``by_seat`` and ``by_seating`` tables of
    :func:`carabin_duplicate_summary`, kept out of the JSON)."""
    runs = []
    rows: list[dict] = []
    seats: list[dict] = []
    for folder in folders:
        manifest = read_manifest(folder)
        df = read_study(folder)
        if manifest["study"] == "klabberjass-matches":
            summ: dict[str, Any] = klabberjass_duplicate_summary(df)
        elif manifest["study"] == "carabin-matches":
            summ = carabin_duplicate_summary(df)
        else:
            raise ValueError(f"{folder} holds a {manifest['study']} study, not a match study")
        name = Path(folder).name
        rows += _headline_rows(name, summ, manifest)
        base = {"run": name, "play": manifest["params"]["play"], "seed": manifest["seed"]}
        for table in ("by_seat", "by_seating"):
            for r in summ.pop(table, []):
                seats.append(
                    {
                        **base,
                        "players": summ["players"],
                        "table": table,
                        "seating": r.get("seating", ""),
                        "policies": r.get("policies", ""),
                        "player": r["player"],
                        "policy": r["policy"],
                        **{k: r[k] for k in ("estimate", "low", "high", "n", "null")},
                        "contains_null": r["contains_null"],
                    }
                )
        runs.append(
            {
                "run": name,
                "command": study_command(folder, manifest),
                "study": manifest,
                "summary": json.loads(json.dumps(summ), parse_float=lambda x: round(float(x), 5)),
            }
        )
    rows += seed_rows(rows)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    data = {"command": command, "runs": runs}
    out.with_suffix(".json").write_text(json.dumps(data, indent=1) + "\n")
    _write_csv(out.with_suffix(".csv"), rows)
    if seats:
        _write_csv(out.with_name(out.name + "-seats.csv"), seats)
    return data


def main(argv: list[str] | None = None) -> int:
    """``python -m analysis.matches rule BIDDING_DIR`` writes the derived Klabberjass rule;
    ``python -m analysis.matches summary MATCH_DIR OUT.json`` summarises a match study;
    ``python -m analysis.matches duplicate-summary OUT_STEM MATCH_DIR...`` summarises
    duplicate match studies into ``OUT_STEM.json`` and ``OUT_STEM.csv``
    (:func:`duplicate_summary`); ``python -m analysis.matches seating-summary OUT_STEM
    MATCH_DIR...`` gives two Carabin policies per seating and pooled, games won and
    points a deal (:func:`seating_summary`)."""

    args = sys.argv[1:] if argv is None else argv
    if len(args) == 2 and args[0] == "rule":
        data = save_klabberjass_rule(read_study(args[1]))
        data["study"] = read_manifest(args[1])
        KLABBERJASS_RULE.write_text(json.dumps(data, indent=1) + "\n")
        print(f"wrote {KLABBERJASS_RULE}")
        return 0
    # the summaries of several run folders: (function, the file named first)
    multi = {
        "duplicate-summary": (duplicate_summary, ".json"),
        "seating-summary": (seating_summary, ".csv"),
    }
    if len(args) >= 3 and args[0] in multi:
        summarise, first = multi[args[0]]
        command = "python -m analysis.matches " + " ".join(args)
        try:
            data = summarise(args[2:], args[1], command)
        except (ValueError, OSError) as err:  # StudyError is a ValueError
            print(f"error: {err}", file=sys.stderr)
            return 2
        other = ".csv" if first == ".json" else ".json"
        print(f"wrote {Path(args[1]).with_suffix(first)} and {other} ({len(data['runs'])} runs)")
        return 0
    if len(args) == 3 and args[0] == "summary":
        df = read_study(args[1])
        manifest = read_manifest(args[1])
        if manifest["params"].get("format") == "duplicate":
            summ: Any = (
                klabberjass_duplicate_summary(df)
                if manifest["study"] == "klabberjass-matches"
                else carabin_duplicate_summary(df)
            )
        elif manifest["study"] == "klabberjass-matches":
            summ = klabberjass_summary(df)
        else:
            summ = carabin_summary(df)
        Path(args[2]).parent.mkdir(parents=True, exist_ok=True)
        Path(args[2]).write_text(json.dumps({"summary": summ, "study": manifest}, indent=1) + "\n")
        print(json.dumps(summ, indent=1))
        return 0
    print(
        "usage: python -m analysis.matches rule BIDDING_DIR | summary MATCH_DIR OUT.json"
        " | duplicate-summary OUT_STEM MATCH_DIR... | seating-summary OUT_STEM MATCH_DIR...",
        file=sys.stderr,
    )
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
