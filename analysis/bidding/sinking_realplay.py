"""Sinking asked properly: the bidder's declare-or-sink decision paid out in real play.

The ``klabberjass-sinking`` study (:mod:`analysis.bidding.sinking`) scores the bidder's
choice with the real deal played double dummy (DD: both players see every card), and
decides Bella before the first trick. Here (the ``klabberjass-sinking-realplay`` study):

- **Cases.** Every contract (deal, bidder, trump) where the bidder holds a sequence or
  Bella, with the probability ``reach`` that the derived (equilibrium) auction of
  :mod:`analysis.matches` reaches it (both seats bidding by the derived rule; its mixed
  strategies give a probability, not a yes/no) and one draw of that auction
  (``reached``). Summaries report the contracts the auction reaches (rows weighted by
  ``reach``) and all contracts (unweighted). The derived rule is solved for the seed
  rules; under other rules (``rules=classic``) the auction is both seats bidding by the
  published scorecard of those rules (:func:`analysis.bidding.scorecard.load`, its first
  seed: the real-play rule as a point count), which is deterministic: ``reach`` is then 0
  or 1 and ``reached`` the same. The rules' ``bella``, runs and last trick score the
  options; the dix and the shown bottom card of the classic rules are not modelled here
  (nobody exchanges the trump 7, the bottom card stays unseen).
- **Card play.** The contract is played card by card by the study's ``play`` on both
  sides, ``samples`` worlds a decision: ``pimc`` (the default,
  :class:`analysis.play.Pimc`) or ``alphamu`` (:class:`analysis.alphamu.AlphaMu`,
  ``depth`` decisions of the player searched, default 2), each from the player's own
  information (:func:`analysis.play.hidden_of`: the cards shown and not yet played are
  in every world of the other hand; the turn-up, the cards played and the voids the
  play showed are in none), once per option:

  (a) *declare*: the bidder declares all his runs; their cards are shown to the
      opponent, whose worlds hold them;
  (b) *sink*: he declares no run; nothing is shown.

  The opponent declares all his runs (shown) and announces his Bella. The same
  contract is also played double dummy (:class:`analysis.play.DoubleDummy`), where
  what is shown changes nothing.
- **Bella** (when the bidder holds K and Q of trump) is decided at the moment he plays
  the second of them (:class:`BellaDecision`, a hook of
  :func:`analysis.play.play_deal`): from his information then (his hand, the cards
  played and what they show, the opponent's shown runs) he draws ``samples`` worlds
  uniformly, solves the rest of the play double dummy in each (after his card), adds
  the card points already taken, and announces when the mean net of announcing is at
  least that of not announcing (sequences as declared; the opponent's Bella as the
  world holds it). Card play is for card points, so announcing does not change the
  play; it changes the score. The decision is the same under either ``play`` (double
  dummy over the sampled worlds, not an αμ search).
- **The sequences' decision** is taken before the first trick from the bidder's
  information (his nine cards and the turn-up, the opponent any nine of the 22 unseen
  cards, ``sink_samples`` worlds solved double dummy): he sinks his runs when the mean
  net of sinking beats declaring them, each with Bella chosen best in the world (he
  decides Bella later, knowing more). Only all-or-none of the runs is considered.

Per case the option nets under real play (the ``pimc_`` columns, whichever ``play``
made them: the manifest says which), under DD play, and the clairvoyant best (DD
play, best subset and Bella knowing every card) are recorded. ``hide_value`` = the
bidder's real-play card points of (b) minus (a): what keeping his runs hidden is worth
in the play. Under DD play it is 0 by construction (the tests check it). Only the
card play depends on ``play``: on the same seed the cases, the decisions before the
play and the DD columns are the same, and so are the worlds of each player's first
searched decision.

:func:`sinking_realplay_tables` summarises one or more studies (intervals clustered by
deal, weighted by ``reach`` for the reached contracts); ``python -m
analysis.bidding.sinking_realplay STUDY_DIR... OUT_DIR`` writes them.

**αμ against PIMC.** Under PIMC the information the runs give away is worth little to
the opponent (about +1.3 card points a contract to the bidder who hides them, against
the 20 or more points of a run), perhaps because PIMC cannot plan to exploit it: it
assumes it will see every card later. :func:`play_comparison` asks the question again
with αμ on both sides: it pairs a ``play=alphamu`` study with a ``play=pimc`` one on the
same seed (the same contracts) and gives ``hide_value`` and the nets of sinking under
each, and their difference contract by contract (``python -m
analysis.bidding.sinking_realplay --compare STUDY_DIR... OUT_DIR``; the published
tables are ``alphamu-hiding.csv`` and ``alphamu-summary.json`` in
``data/studies/klabberjass-sinking-realplay``, read by notebook 06).
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from analysis.bidding.sinking import option_nets, sampled_option_nets
from analysis.bidding.verdicts import seeds_verdict, sign_verdict
from analysis.play import DoubleDummy, Pimc, PlayState, Policy, hidden_of, play_deal
from analysis.studies import StudyError, read_manifest, read_study
from solver.errors import RulesError
from solver.klabberjass import SEED, Rules, engine
from solver.klabberjass._core import sample_hands
from solver.klabberjass.deal import Deal, has_bella, runs
from solver.klabberjass.position import Position
from solver.klabberjass.rules import points_of

if TYPE_CHECKING:
    import pandas as pd

_KING, _QUEEN = 11, 10  # rank indices of K and Q (solver.cards.RANKS)


def _bella_cards(trump: int) -> int:
    return (1 << _KING | 1 << _QUEEN) << (16 * trump)


# ---------------------------------------------------------------------- Bella, when played


class BellaDecision:
    """The bidder's Bella, decided when he plays the second of the trump K and Q.

    Pass :meth:`observe` as ``on_card`` to :func:`analysis.play.play_deal`. At that card
    the bidder (the seat to move) draws ``samples`` worlds from what he knows
    (:func:`analysis.play.hidden_of`), plays the card in each, solves the rest double
    dummy, and announces when the mean net announcing is at least the mean net not
    announcing.

    Args:
        hands: the real hands (E, D) at the start of play (only the bidder's is used
            for his decision; the public card points taken so far come from replaying
            the cards played).
        bidder: the bidder's seat.
        trump: the trump suit.
        subset: the runs he declared, as a bit mask over ``runs(hands[bidder])``.
        samples: worlds of the decision.
        seed: seed of the worlds.
        rules: the rules (Bella, sequences, last trick).

    Attributes:
        announced: None until the decision, then whether he announced.
        worlds_net: (mean net announcing, mean net not announcing) at the decision.
    """

    def __init__(
        self,
        hands: tuple[int, int],
        bidder: int,
        trump: int,
        subset: int,
        samples: int,
        seed: int,
        rules: Rules = SEED,
    ):
        if samples < 1:
            raise RulesError(f"invalid samples {samples} (at least 1)")
        if not has_bella(hands[bidder], trump):
            raise RulesError("the bidder holds no Bella (K and Q of trump)")
        self.hands = hands
        self.bidder = bidder
        self.trump = trump
        self.subset = subset
        self.samples = samples
        self.seed = seed
        self.rules = rules
        self.announced: bool | None = None
        self.worlds_net: tuple[float, float] | None = None

    def observe(self, state: PlayState, card: int) -> None:
        """The ``on_card`` hook: decide when the bidder plays his second K/Q of trump."""
        p = state.position
        if self.announced is not None or p.to_move != self.bidder:
            return
        kq = _bella_cards(self.trump)
        if not (kq >> card & 1) or p.hands[self.bidder] & kq != 1 << card:
            return
        self.decide(state, card)

    def _points_so_far(self, played: Sequence[int]) -> list[int]:
        pos = Position(self.trump, 0, self.hands)
        pts = [0, 0]
        for c in played:
            pos, winner, got = pos.step(c, self.rules)
            if winner is not None:
                pts[winner] += got
        return pts

    def decide(self, state: PlayState, card: int) -> bool:
        """Announce or not, from the bidder's information when he plays ``card``."""
        p = state.position
        b, o, t, rules = self.bidder, 1 - self.bidder, self.trump, self.rules
        hidden = hidden_of(state)
        so_far = self._points_so_far(state.played)
        played = 0
        for c in state.played:
            played |= 1 << c
        opp_played = played & ~self.hands[b]
        own_runs = runs(self.hands[b])
        core = engine.core()
        sums = {True: 0.0, False: 0.0}
        for drawn in sample_hands(hidden.pool, hidden.need, self.samples, self.seed):
            opp_now = hidden.known | drawn
            hands = [0, 0]
            hands[b], hands[o] = p.hands[b], opp_now
            world = Position(t, p.lead, (hands[0], hands[1]), p.trick)
            child, winner, got = world.step(card, rules)
            cp = list(so_far)
            if winner is not None:
                cp[winner] += got
            if not child.is_over:
                trick = -1 if child.trick is None else child.trick
                e = core.value(
                    child.hands[0], child.hands[1], t, child.lead, trick, rules.last_trick
                )
                left = points_of(child.hands[0] | child.hands[1], t) + rules.last_trick
                if child.trick is not None:
                    left += points_of(1 << child.trick, t)
                cp[0] += e
                cp[1] += left - e
            opp_hand = opp_now | opp_played
            hr = [own_runs, own_runs]
            hr[o] = runs(opp_hand)
            bl = [False, False]
            bl[b], bl[o] = True, has_bella(opp_hand, t)
            nets = option_nets(b, t, (cp[0], cp[1]), (hr[0], hr[1]), (bl[0], bl[1]), rules)
            sums[True] += nets[(self.subset, True)][0]
            sums[False] += nets[(self.subset, False)][0]
        yes, no = sums[True] / self.samples, sums[False] / self.samples
        self.worlds_net = (yes, no)
        self.announced = yes >= no
        return self.announced


# ---------------------------------------------------------------------- the auction


def reach_probabilities(deal: Deal) -> dict[tuple[int, int], float]:
    """The probability that the derived auction (both seats bidding by the equilibrium
    rule of ``data/studies/klabberjass-matches/derived_rule.json``, as
    :func:`analysis.matches.klabberjass_auction` plays it) ends in each (bidder, trump).

    The missing mass is the annulled deal.
    """
    from analysis.matches import KLABBERJASS_POLICIES, _one_hand_arrays, load_klabberjass_rule

    assert deal.first is not None
    assert KLABBERJASS_POLICIES["derived"].bidding == "equilibrium"
    classifier, probs = load_klabberjass_rule()
    ts = deal.turn >> 4
    take, name, suit = [0.0, 0.0], [0.0, 0.0], [0, 0]
    for s in (0, 1):
        cls, _k1, _k2, best, _e1, _e2 = classifier.classify(
            _one_hand_arrays(deal.first[s], s, deal.turn)
        )
        c = int(cls[0, s])
        who = "e" if s == 0 else "d"
        take[s] = float(probs[f"{who}_take"][c])
        name[s] = float(probs[f"{who}_name"][c]) if int(best[0, s]) != ts else 0.0
        suit[s] = int(best[0, s])
    out = {(b, t): 0.0 for b in (0, 1) for t in range(4)}
    out[(0, ts)] = take[0]
    out[(1, ts)] = (1 - take[0]) * take[1]
    round2 = (1 - take[0]) * (1 - take[1])
    if name[0]:
        out[(0, suit[0])] += round2 * name[0]
    if name[1]:
        out[(1, suit[1])] += round2 * (1 - name[0]) * name[1]
    return out


def scorecard_auction(deal: Deal, rules: str) -> tuple[int, int] | None:
    """(bidder, trump) that both seats bidding by the published scorecard of ``rules``
    (its first seed) reach, or None if every seat passes twice.

    >>> [scorecard_auction(Deal.random(i), "classic") for i in (1, 2, 6)]
    [(1, 1), None, (0, 3)]
    """
    from analysis.matches import auction_calls, call_odds

    assert deal.first is not None
    intents = []
    for seat in (0, 1):
        take, name, suit = call_odds("scorecard", deal.first[seat], seat, deal.turn, rules)
        intents.append((take == 1.0, name == 1.0, suit))  # the scorecard is pure
    return auction_calls(intents, deal.turn >> 4)[0]


# ---------------------------------------------------------------------- one case


def sequence_choice(
    own: int, bidder: int, trump: int, turn: int, samples: int, rng: random.Random, rules: Rules
) -> tuple[bool, float, float]:
    """The bidder's runs decision before the first trick, from his information.

    Returns:
        (sink his runs, estimated margin B - O declaring everything, share of worlds
        where declaring everything is bate). Each option is valued with Bella chosen
        best in the world (he decides it later, knowing more).
    """
    own_runs = runs(own)
    full = (1 << len(own_runs)) - 1
    bella = has_bella(own, trump)
    declare = sink = margin = 0.0
    bate = 0
    for nets in sampled_option_nets(own, bidder, trump, turn, samples, rng, rules):
        declare += max(nets[(full, x)][0] for x in (False, True) if x <= bella)
        sink += max(nets[(0, x)][0] for x in (False, True) if x <= bella)
        margin += nets[(full, bella)][1]
        bate += nets[(full, bella)][1] < 0
    return bool(own_runs) and sink > declare, margin / samples, bate / samples


def _played(
    deal: Deal,
    bidder: int,
    trump: int,
    subset: int,
    policies: Sequence[Policy],
    bella_seed: int,
    samples: int,
    rules: Rules,
) -> tuple[tuple[int, int], bool | None]:
    """Card points (E, D) of the contract played with the bidder declaring the runs of
    ``subset`` (shown), and his Bella decided when played (None without Bella)."""
    b, o = bidder, 1 - bidder
    shown = [0, 0]
    for i, r in enumerate(runs(deal.hands[b])):
        if subset >> i & 1:
            shown[b] |= r.cards
    for r in runs(deal.hands[o]):
        shown[o] |= r.cards
    hook: BellaDecision | None = None
    if has_bella(deal.hands[b], trump):
        hook = BellaDecision(deal.hands, b, trump, subset, samples, bella_seed, rules)
    played = play_deal(
        deal.hands,
        trump,
        deal.turn,
        policies,
        rules=rules,
        shown=(shown[0], shown[1]),
        on_card=hook.observe if hook is not None else None,
    )
    return played.points, (hook.announced if hook is not None else None)


def case_seed(seed: int, bidder: int, trump: int) -> str:
    """The seed of one case from its deal's seed: any case replays alone."""
    return f"sinking-realplay:{seed}:{bidder}:{trump}"


COLUMNS = (
    "deal",
    "bidder",
    "trump",
    "reach",
    "reached",
    "run_points",
    "bella",
    "est_margin",
    "est_bate",
    "sinks",
    "dd_cp",
    "dd_bella_declare",
    "dd_bella_sink",
    "dd_all",
    "dd_none",
    "dd_declare",
    "dd_sink",
    "dd_info",
    "dd_best",
    "pimc_cp_declare",
    "pimc_cp_sink",
    "pimc_bella_declare",
    "pimc_bella_sink",
    "pimc_all",
    "pimc_none",
    "pimc_declare",
    "pimc_sink",
    "pimc_info",
    "hide_value",
)


#: The card plays of the real-play columns (the study's ``play``).
PLAYS = ("pimc", "alphamu")


def real_play(params: dict[str, Any]) -> Callable[[str], Policy]:
    """The card play of the real-play columns, built from a seed text: ``play`` is
    ``pimc`` (:class:`analysis.play.Pimc`, the default) or ``alphamu``
    (:class:`analysis.alphamu.AlphaMu`, ``depth`` decisions searched, default 2), each
    over ``samples`` worlds a decision (default 20). The same seed text draws the same
    worlds at the first searched decision under either play.

    Raises:
        RulesError: an unknown ``play`` (the message quotes it).

    >>> real_play({"play": "minimax"})
    Traceback (most recent call last):
    ...
    solver.errors.RulesError: invalid play 'minimax' (expected pimc or alphamu)
    """
    play = str(params.get("play", "pimc"))
    samples = int(params.get("samples", 20))
    if play not in PLAYS:
        raise RulesError(f"invalid play '{play}' (expected {' or '.join(PLAYS)})")
    if play == "alphamu":
        from analysis.alphamu import AlphaMu

        depth = int(params.get("depth", 2))
        AlphaMu(samples, depth)  # checks the budget before any card is played
        return lambda text: AlphaMu(samples, depth, seed=random.Random(text))
    return lambda text: Pimc(samples, seed=random.Random(text))


def play_case(
    deal: Deal,
    bidder: int,
    trump: int,
    seed: str,
    params: dict[str, Any],
    policy: Callable[[str], Policy] | None = None,
) -> dict[str, Any]:
    """One case: every column of :data:`COLUMNS` but ``deal``, ``reach``, ``reached``.

    Args:
        deal: the deal.
        bidder: the bidder's seat.
        trump: the trump suit.
        seed: the case's seed (:func:`case_seed`).
        params: ``samples``, ``sink_samples``, ``rules``, ``play``, ``depth`` (see the
            study).
        policy: the card play of the real-play (``pimc_``) columns, built from a seed
            text (default :func:`real_play` of ``params``); the tests pass double dummy.

    Raises:
        RulesError: the bidder holds no sequence and no Bella, or an unknown ``play``.
    """
    rules = Rules.preset(str(params.get("rules", "seed")))
    samples = int(params.get("samples", 20))
    sink_samples = int(params.get("sink_samples", 20))
    if policy is None:
        policy = real_play(params)

    b = bidder
    own = deal.hands[b]
    own_runs = runs(own)
    bella = has_bella(own, trump)
    if not own_runs and not bella:
        raise RulesError(f"bidder {'ED'[b]} holds no sequence and no Bella with trump {trump}")
    full = (1 << len(own_runs)) - 1
    sinks, margin, bate = sequence_choice(
        own, b, trump, deal.turn, sink_samples, random.Random(seed + ":view"), rules
    )
    bella_seed = random.Random(seed + ":bella").getrandbits(64)

    def nets_of(cp: tuple[int, int]):
        return option_nets(
            b,
            trump,
            cp,
            (runs(deal.hands[0]), runs(deal.hands[1])),
            (has_bella(deal.hands[0], trump), has_bella(deal.hands[1], trump)),
            rules,
        )

    row: dict[str, Any] = {
        "bidder": b,
        "trump": trump,
        "run_points": sum(r.value(rules) for r in own_runs),
        "bella": bella,
        "est_margin": margin,
        "est_bate": bate,
        "sinks": sinks,
    }
    for kind in ("dd", "pimc"):
        cps: dict[str, tuple[int, int]] = {}
        announced: dict[str, bool | None] = {}
        for option, subset in (("declare", full), ("sink", 0)):
            if option == "sink" and not own_runs:
                cps[option], announced[option] = cps["declare"], announced["declare"]
                continue
            pols: Sequence[Policy]
            if kind == "dd":
                d = DoubleDummy()
                pols = (d, d)
            else:
                p = policy(seed + ":play")
                pols = (p, p)
            cps[option], announced[option] = _played(
                deal, b, trump, subset, pols, bella_seed, samples, rules
            )
        nd, ns = nets_of(cps["declare"]), nets_of(cps["sink"])
        bd, bs = bool(announced["declare"]), bool(announced["sink"])
        values = {
            "all": nd[(full, bella)][0],
            "none": ns[(0, False)][0],
            "declare": nd[(full, bd)][0],
            "sink": ns[(0, bs)][0],
        }
        values["info"] = values["sink" if sinks else "declare"]
        for k, v in values.items():
            row[f"{kind}_{k}"] = v
        if kind == "dd":
            row["dd_cp"] = cps["declare"][b]
            row["dd_best"] = max(v[0] for v in nd.values())
            assert cps["declare"] == cps["sink"], "double-dummy play ignores what is shown"
        else:
            row["pimc_cp_declare"] = cps["declare"][b]
            row["pimc_cp_sink"] = cps["sink"][b]
            row["hide_value"] = cps["sink"][b] - cps["declare"][b]
        row[f"{kind}_bella_declare"] = bd
        row[f"{kind}_bella_sink"] = bs
    return row


def sinking_realplay_chunk(
    rng: random.Random, start: int, count: int, params: dict[str, Any]
) -> dict[str, list]:
    """The ``klabberjass-sinking-realplay`` study (columns: :data:`COLUMNS`, docs/data.md).

    Deal ``i`` is ``Deal.random(s_i)``, ``s_i`` the i-th ``rng.getrandbits(64)``; its
    cases (bidder E before D, trumps S H D C) take their seeds from :func:`case_seed`
    of ``s_i``, so any case replays alone with :func:`play_case`.
    """
    rules_name = str(params.get("rules", "seed"))
    rules = Rules.preset(rules_name)
    policy = real_play(params)
    seeds = [rng.getrandbits(64) for _ in range(count)]
    cols: dict[str, list] = {k: [] for k in COLUMNS}
    from analysis.matches import KLABBERJASS_POLICIES, klabberjass_auction

    derived = KLABBERJASS_POLICIES["derived"]
    for i, s in enumerate(seeds):
        deal = Deal.random(s)
        if rules == SEED:
            reach = reach_probabilities(deal)
            drawn = klabberjass_auction(deal, (derived, derived), random.Random(f"auction:{s}"))
        else:
            drawn = scorecard_auction(deal, rules_name)
            reach = {(b, t): float(drawn == (b, t)) for b in (0, 1) for t in range(4)}
        for b in (0, 1):
            for t in range(4):
                if not runs(deal.hands[b]) and not has_bella(deal.hands[b], t):
                    continue
                row = play_case(deal, b, t, case_seed(s, b, t), params, policy)
                row["deal"] = start + i
                row["reach"] = reach[(b, t)]
                row["reached"] = drawn == (b, t)
                for k in COLUMNS:
                    cols[k].append(row[k])
    return cols


# ---------------------------------------------------------------------- summaries


def clustered_mean(
    values: np.ndarray, clusters: np.ndarray, weights: np.ndarray | None = None
) -> tuple[float, float, float, int]:
    """A (weighted) mean with its 95 % interval clustered by ``clusters``.

    The ratio estimator Σ w·x / Σ w with the linearised variance
    n/(n−1) · Σ_c (Σ_{i∈c} w_i (x_i − mean))² / (Σ w)², n the clusters with weight.

    Returns:
        (mean, low, high, clusters with positive weight).

    >>> clustered_mean(np.array([1.0, 3.0, 5.0]), np.array([0, 1, 2]))[:3]
    (3.0, 0.7367..., 5.263...)
    """
    x = np.asarray(values, dtype=float)
    w = np.ones_like(x) if weights is None else np.asarray(weights, dtype=float)
    keep = w > 0
    x, w, g = x[keep], w[keep], np.asarray(clusters)[keep]
    if len(x) == 0:
        return float("nan"), float("nan"), float("nan"), 0
    mean = float((w * x).sum() / w.sum())
    _, inv = np.unique(g, return_inverse=True)
    z = np.bincount(inv, weights=w * (x - mean))
    n = len(z)
    if n < 2:
        return mean, float("nan"), float("nan"), n
    se = float(np.sqrt(n / (n - 1) * (z**2).sum()) / w.sum())
    return mean, mean - 1.96 * se, mean + 1.96 * se, n


def threshold_net(df: pd.DataFrame, theta: float, kind: str = "pimc") -> np.ndarray:
    """Net per case of "declare nothing (runs and Bella) when the estimated margin is
    below ``theta``, else declare everything" under ``kind`` play."""
    m = df["est_margin"].to_numpy()
    return np.where(m < theta, df[f"{kind}_none"].to_numpy(), df[f"{kind}_all"].to_numpy())


THRESHOLDS = np.arange(-100, 41, 5)


def fit_threshold(df: pd.DataFrame, weights: np.ndarray | None = None) -> float:
    """The threshold of :func:`threshold_net` (PIMC) with the best (weighted) mean gain
    over declaring everything; ties to the lowest threshold (sinking least)."""
    w = np.ones(len(df)) if weights is None else np.asarray(weights, dtype=float)
    base = df["pimc_all"].to_numpy()
    gains = [float((w * (threshold_net(df, float(th)) - base)).sum()) for th in THRESHOLDS]
    return float(THRESHOLDS[int(np.argmax(gains))])


def _gains(df: pd.DataFrame, weights: np.ndarray | None, theta: float | None) -> list[dict]:
    rows = []
    deal = df["deal"].to_numpy()

    def add(model: str, way: str, x: np.ndarray, base: np.ndarray) -> None:
        mean, lo, hi, n = clustered_mean(x - base, deal, weights)
        rows.append({"play": model, "way": way, "gain": mean, "low": lo, "high": hi, "deals": n})

    for kind, model in (("pimc", "PIMC (real play)"), ("dd", "double dummy")):
        base = df[f"{kind}_all"].to_numpy()
        add(model, "from information (runs before trick 1, Bella when played)",
            df[f"{kind}_info"].to_numpy(), base)  # fmt: skip
        add(model, "runs from information, over declaring them (Bella when played in both)",
            df[f"{kind}_info"].to_numpy(), df[f"{kind}_declare"].to_numpy())  # fmt: skip
        add(model, "declare runs, Bella when played", df[f"{kind}_declare"].to_numpy(), base)
        add(model, "sink runs, Bella when played", df[f"{kind}_sink"].to_numpy(), base)
        add(model, "sink everything", df[f"{kind}_none"].to_numpy(), base)
        if theta is not None:
            add(model, f"threshold: sink everything if est. margin < {theta:+.0f}",
                threshold_net(df, theta, kind), base)  # fmt: skip
    for way, col in (
        ("from information (runs before trick 1, Bella when played)", "info"),
        ("sink everything", "none"),
    ):
        add("PIMC minus double dummy", way,
            (df[f"pimc_{col}"] - df["pimc_all"]).to_numpy(),
            (df[f"dd_{col}"] - df["dd_all"]).to_numpy())  # fmt: skip
    add("clairvoyant bound", "double-dummy best declaration",
        df["dd_best"].to_numpy(), df["dd_all"].to_numpy())  # fmt: skip
    return rows


def reach_weights(df: pd.DataFrame) -> np.ndarray:
    """The weight of each case among the contracts the auction reaches: ``reach`` with
    the float rounding of the stored rule (probabilities such as 1 - 1 = 2e-16) removed."""
    return np.clip(np.round(df["reach"].to_numpy(dtype=float), 9), 0.0, 1.0)


def _share(flags: np.ndarray, weights: np.ndarray | None) -> float:
    w = np.ones(len(flags)) if weights is None else weights
    return float((w * flags).sum() / w.sum()) if w.sum() > 0 else float("nan")


def sinking_realplay_tables(frames: Sequence[pd.DataFrame], manifests: Sequence[dict]) -> dict:
    """The summary tables of one or more ``klabberjass-sinking-realplay`` studies.

    For each study (its seed) and each set of cases (``reached``: weighted by the
    probability that the derived auction reaches the contract; ``all``: every case):
    the gain of each way of deciding over declaring everything, under PIMC play, DD
    play, and the clairvoyant bound, 95 % intervals clustered by deal; the value of
    hiding information (cases with runs); and a sinking threshold fitted on the deals
    of even index and measured on the odd ones.
    """
    import pandas as pd

    gains, hiding, held_out = [], [], []
    for df, man in zip(frames, manifests, strict=True):
        seed = man["seed"]
        even = (df["deal"].to_numpy() % 2) == 0
        for cases, w in (("reached", reach_weights(df)), ("all", None)):
            theta = fit_threshold(df[even], None if w is None else w[even])
            for r in _gains(df, w, None):
                gains.append({"seed": seed, "cases": cases, **r})
            has_runs = (df["run_points"] > 0).to_numpy()
            sub = df[has_runs]
            ws = None if w is None else w[has_runs]
            for col, what in (
                ("hide_value", "PIMC card points, sink runs minus declare runs"),
                ("dd_hide", "double-dummy card points, sink minus declare (0 by construction)"),
            ):
                x = sub["hide_value"].to_numpy() if col == "hide_value" else np.zeros(len(sub))
                mean, lo, hi, n = clustered_mean(x, sub["deal"].to_numpy(), ws)
                hiding.append(
                    {"seed": seed, "cases": cases, "what": what, "mean": mean, "low": lo,
                     "high": hi, "deals": n}
                )  # fmt: skip
            test = df[~even]
            wt = None if w is None else w[~even]
            for kind in ("pimc", "dd"):
                x = threshold_net(test, theta, kind) - test[f"{kind}_all"].to_numpy()
                mean, lo, hi, n = clustered_mean(x, test["deal"].to_numpy(), wt)
                held_out.append(
                    {"seed": seed, "cases": cases, "play": kind, "threshold": theta,
                     "gain": mean, "low": lo, "high": hi, "deals": n,
                     "sinks_share": _share(test["est_margin"].to_numpy() < theta, wt)}
                )  # fmt: skip
    g = pd.DataFrame(gains)
    margins = []
    edges = np.arange(-120, 141, 20)
    for df, man in zip(frames, manifests, strict=True):
        m = df["est_margin"].to_numpy()
        for lo_e, hi_e in zip(edges[:-1], edges[1:], strict=True):
            sel = (m >= lo_e) & (m < hi_e)
            if sel.sum() < 20:
                continue
            sub = df[sel]
            row: dict[str, Any] = {
                "seed": man["seed"],
                "margin": (lo_e + hi_e) / 2,
                "cases": int(sel.sum()),
            }
            for kind in ("pimc", "dd"):
                x = (sub[f"{kind}_none"] - sub[f"{kind}_all"]).to_numpy()
                mean, lo, hi, _ = clustered_mean(x, sub["deal"].to_numpy())
                row.update({f"{kind}_sink_gain": mean, f"{kind}_low": lo, f"{kind}_high": hi})
            margins.append(row)
    out: dict[str, Any] = {
        "gains": g,
        "hiding": pd.DataFrame(hiding),
        "held_out": pd.DataFrame(held_out),
        "by_margin": pd.DataFrame(
            margins,
            columns=["seed", "margin", "cases"]
            + [f"{k}_{c}" for k in ("pimc", "dd") for c in ("sink_gain", "low", "high")],
        ),
        "studies": list(manifests),
    }
    out["counts"] = pd.DataFrame(
        [
            {
                "seed": m["seed"],
                "deals": m["deals"],
                "cases": len(df),
                "deals_with_a_case": int(df["deal"].nunique()),
                "reached_weight": float(reach_weights(df).sum()),
                "reached_drawn": int(df["reached"].sum()),
                "with_runs": int((df["run_points"] > 0).sum()),
                "info_sinks_share": float(df["sinks"].mean()),
                "bella_held": int(df["bella"].sum()),
                "bella_withheld_share_pimc": float(
                    (~df.loc[df["bella"], "pimc_bella_declare"].astype(bool)).mean()
                ),
            }
            for df, m in zip(frames, manifests, strict=True)
        ]
    )
    return out


# ---------------------------------------------------------------------- αμ against PIMC


def done_deals(manifest: dict) -> int:
    """The deals of a study folder's longest run of whole chunks from the first (a
    study stopped part way keeps the chunks it finished)."""
    done = set()
    for name in manifest.get("files", {}):
        digits = name.removeprefix("chunk-").removesuffix(".parquet")
        if digits.isdigit():
            done.add(int(digits))
    k = 0
    while k in done:
        k += 1
    return min(k * int(manifest["chunk_size"]), int(manifest["deals"]))


#: The columns that do not depend on the card play (equal under ``play=pimc`` and
#: ``play=alphamu`` on the same seed).
SHARED = ("deal", "bidder", "trump", "reach", "reached", "run_points", "bella", "est_margin",
          "est_bate", "sinks", "dd_cp", "dd_bella_declare", "dd_bella_sink", "dd_all",
          "dd_none", "dd_declare", "dd_sink", "dd_info", "dd_best")  # fmt: skip

#: What :func:`play_comparison` measures (over contracts whose bidder holds runs).
COMPARED = {
    "hide_value": "bidder's card points, sink runs minus declare runs (hide_value)",
    "sink_over_declare": "net, sink runs minus declare runs (Bella when played in both)",
    "info_over_declare": "net, runs decided from information minus declare runs",
}


def play_comparison(frames: Sequence[pd.DataFrame], manifests: Sequence[dict]) -> dict:
    """The value of hiding the runs under αμ play and under PIMC play on the same
    contracts: for each seed, a study with ``play=alphamu`` and one with ``play=pimc``
    (the same seed and other parameters), each read up to the deals both finished.

    For each seed and pooled over them (clusters: seed and deal), each set of cases
    (``reached``: weighted by ``reach``; ``all``), and each measure of :data:`COMPARED`
    on the contracts whose bidder holds runs: its mean under αμ, under PIMC, and the
    paired difference αμ − PIMC contract by contract, 95 % intervals clustered by
    deal.

    Returns:
        ``table`` (rows: seed, cases, what, play, mean, low, high, deals, contracts)
        and ``studies`` (the manifests, without their file lists, ``deals`` the deals
        used).

    Raises:
        StudyError: a seed without exactly one study of each play, other parameters
            that differ, or contracts that differ (not the same cases).
    """
    import pandas as pd

    by_seed: dict[int, dict[str, tuple[pd.DataFrame, dict]]] = {}
    for df, man in zip(frames, manifests, strict=True):
        params = {"play": "pimc", "depth": 2, **man["params"]}
        play = str(params["play"])
        if play in by_seed.setdefault(int(man["seed"]), {}):
            raise StudyError(f"two studies with play={play} for seed {man['seed']}")
        by_seed[int(man["seed"])][play] = (df, {**man, "params": params})
    rows: list[dict[str, Any]] = []
    pooled: list[pd.DataFrame] = []
    studies = []
    for seed, plays in sorted(by_seed.items()):
        if sorted(plays) != ["alphamu", "pimc"]:
            raise StudyError(f"seed {seed} needs one study with play=alphamu and one with "
                             f"play=pimc (found: {', '.join(sorted(plays))})")  # fmt: skip
        (a, ma), (b, mb) = plays["alphamu"], plays["pimc"]
        other = {k: v for k, v in ma["params"].items() if k not in ("play", "depth")}
        if other != {k: v for k, v in mb["params"].items() if k not in ("play", "depth")}:
            raise StudyError(f"seed {seed}: the two studies differ in more than play")
        n = min(done_deals(ma), done_deals(mb))
        a = a[a["deal"] < n].reset_index(drop=True)
        b = b[b["deal"] < n].reset_index(drop=True)
        if len(a) != len(b) or not a[list(SHARED)].equals(b[list(SHARED)]):
            raise StudyError(f"seed {seed}: the two studies do not hold the same contracts")
        for m in (ma, mb):
            studies.append({**{k: v for k, v in m.items() if k != "files"}, "deals": n})
        both = a[list(SHARED)].copy()
        both["seed"] = seed
        for play, df in (("alphamu", a), ("pimc", b)):
            both[f"{play}:hide_value"] = df["hide_value"]
            both[f"{play}:sink_over_declare"] = df["pimc_sink"] - df["pimc_declare"]
            both[f"{play}:info_over_declare"] = df["pimc_info"] - df["pimc_declare"]
        pooled.append(both)
    everything = pd.concat(pooled, ignore_index=True)
    groups = [(str(s), everything[everything["seed"] == s]) for s in sorted(by_seed)]
    if len(by_seed) > 1:
        groups.append(("pooled", everything))
    for label, df in groups:
        df = df[df["run_points"] > 0]
        clusters = (df["seed"].astype(np.int64) * (1 << 40) + df["deal"]).to_numpy()
        for cases, w in (("reached", reach_weights(df)), ("all", None)):
            for what in COMPARED:
                xa = df[f"alphamu:{what}"].to_numpy(dtype=float)
                xp = df[f"pimc:{what}"].to_numpy(dtype=float)
                for play, x in (("alphamu", xa), ("pimc", xp), ("alphamu minus pimc", xa - xp)):
                    mean, lo, hi, deals = clustered_mean(x, clusters, w)
                    rows.append(
                        {"seed": label, "cases": cases, "what": what, "play": play,
                         "mean": mean, "low": lo, "high": hi, "deals": deals,
                         "contracts": int(len(df) if w is None else (w > 0).sum())}
                    )  # fmt: skip
    return {"table": pd.DataFrame(rows), "studies": studies}


def write_comparison(result: dict, out: str | Path, command: str) -> None:
    """``alphamu-hiding.csv`` (the table of :func:`play_comparison`) and
    ``alphamu-summary.json`` (the studies, what each measure is, the commands)."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    result["table"].to_csv(out / "alphamu-hiding.csv", index=False, float_format="%.4g")
    data = {
        "studies": result["studies"],
        "what": COMPARED,
        "cases": "contracts whose bidder holds runs; 'reached' weighted by reach",
        "intervals": "95 %, clustered by deal (pooled: by seed and deal); 'alphamu minus "
        "pimc' paired contract by contract",
        "command": command,
        "regenerate": [
            f"tricklab study klabberjass-sinking-realplay --deals {m['deals']} --seed "
            f"{m['seed']} --out DIR_{m['params']['play']}_{m['seed']} --workers 1 "
            f"--param play={m['params']['play']}"
            + (f" --param depth={m['params']['depth']}" if m["params"]["play"] == "alphamu" else "")
            for m in result["studies"]
        ],
    }
    (out / "alphamu-summary.json").write_text(json.dumps(data, indent=1, default=str) + "\n")


def read_comparison(folder: str | Path | None = None) -> dict:
    """What :func:`write_comparison` wrote (default: the published tables): ``table``
    and the summary's keys."""
    import pandas as pd

    folder = Path(PUBLISHED if folder is None else folder)
    out: dict[str, Any] = json.loads((folder / "alphamu-summary.json").read_text())
    out["table"] = pd.read_csv(folder / "alphamu-hiding.csv", dtype={"seed": str})
    return out


def _fmt(rows) -> str:
    return ", ".join(
        f"{r.gain:+.2f} [{r.low:+.2f}, {r.high:+.2f}] (seed {r.seed})" for r in rows.itertuples()
    )


def _way(tables: dict, start: str, cases: str = "reached", play: str = "PIMC (real play)"):
    g = tables["gains"]
    return g[(g["cases"] == cases) & (g["play"] == play) & g["way"].str.startswith(start)]


#: Where the published tables live (the rule the match policies follow is read there).
PUBLISHED = Path(__file__).resolve().parents[2] / "data/studies/klabberjass-sinking-realplay"
#: The same study under the classic rules (Bella 20; reached by the classic scorecard).
PUBLISHED_CLASSIC = PUBLISHED.with_name("klabberjass-sinking-realplay-classic")


@dataclass(frozen=True)
class SinkingRule:
    """What the bidder should declare, as the real-play study finds it.

    Attributes:
        kind: ``threshold`` (declare nothing, runs and Bella, when the estimated margin
            with everything declared is below ``threshold``, else everything),
            ``bella-when-played`` (always declare the runs; announce Bella when playing
            the second of the trump K and Q if, from what he knows then, announcing
            nets at least as much as not, :class:`BellaDecision`) or ``declare``
            (declare everything).
        threshold: the margin threshold of ``threshold`` (None otherwise).
    """

    kind: str
    threshold: float | None = None


def _measurable(rows) -> bool:
    return len(rows) > 0 and bool((rows["low"] > 0).all())


def sinking_rule(tables: dict) -> SinkingRule:
    """The rule the tables support: PIMC play (real play), the contracts the auction
    reaches, every seed must agree (the interval of each seed above 0) before a gain is
    called measurable.

    - the held-out threshold rule gains on every seed (and sinks somewhere on each):
      ``threshold`` at the median of the seeds' fitted thresholds;
    - else deciding Bella when played gains on every seed and sinking the runs does
      not: ``bella-when-played``;
    - else: ``declare``.
    """
    h = tables["held_out"]
    held = h[(h["cases"] == "reached") & (h["play"] == "pimc")]
    if _measurable(held) and (held["threshold"] > float(THRESHOLDS[0])).all():
        return SinkingRule("threshold", float(held["threshold"].median()))
    runs_only = _way(tables, "runs from information")
    bella = _way(tables, "declare runs, Bella when played")
    if _measurable(bella) and not _measurable(runs_only):
        return SinkingRule("bella-when-played")
    return SinkingRule("declare")


def published_rule(folder: str | Path = PUBLISHED) -> SinkingRule:
    """:func:`sinking_rule` of the published tables (``folder``)."""
    return sinking_rule(read_summary(folder))


def rule_sentence(tables: dict) -> str:
    """The sinking rule of :func:`sinking_rule` in one sentence, with the figures it
    rests on (computed from the tables)."""
    h = tables["held_out"]
    held = h[(h["cases"] == "reached") & (h["play"] == "pimc")]
    info = _way(tables, "from information")
    runs_only = _way(tables, "runs from information")
    bella = _way(tables, "declare runs, Bella when played")
    lowest = float(THRESHOLDS[0])
    held_txt = ", ".join(
        (
            f"θ = {r.threshold:+.0f} sinks in {r.sinks_share:.1%} of held-out contracts"
            if r.threshold > lowest
            else "fitted θ never sinks"
        )
        + f": {r.gain:+.2f} [{r.low:+.2f}, {r.high:+.2f}] (seed {r.seed})"
        for r in held.itertuples()
    )
    tail = (
        f"(PIMC play, contracts {auction_words(tables)} reaches, points a contract: sampled "
        f"decision {_fmt(info)}; sinking the runs from information over declaring them "
        f"{_fmt(runs_only)}; Bella decided when played over always announcing "
        f"{_fmt(bella)}; held-out threshold {held_txt})"
    )
    return f"{rule_advice(sinking_rule(tables))} {tail}."


def auction_words(tables: dict) -> str:
    """Which auction picks the reached contracts of the studies in ``tables``: the
    derived (equilibrium) auction for the seed rules, the scorecard's for others.

    >>> auction_words({"studies": [{"params": {"rules": "classic"}}]})
    'the classic scorecard auction'
    """
    rules = {str(m["params"].get("rules", "seed")) for m in tables.get("studies", [])}
    if rules <= {"seed"}:
        return "the derived auction"
    return " and ".join(f"the {r} scorecard auction" for r in sorted(rules))


def rule_advice(rule: SinkingRule) -> str:
    """What the bidder should do under ``rule``, in words (no figures).

    >>> rule_advice(SinkingRule("threshold", -30.0))
    'Declare nothing when your estimated margin with everything declared is below -30 points, otherwise declare everything'
    """
    if rule.kind == "threshold":
        return (
            f"Declare nothing when your estimated margin with everything declared is below "
            f"{rule.threshold:+.0f} points, otherwise declare everything"
        )
    if rule.kind == "bella-when-played":
        return (
            "Always declare your sequences, and announce Bella when you play the second of "
            "the trump K and Q unless you then expect to be bate even with its points; "
            "sinking sequences gains nothing measurable"
        )
    return "Declare everything: sinking gains nothing measurable in real play"


def revisited(earlier: dict, tables: dict) -> list[str]:
    """What real play makes of each figure of the earlier double-dummy study
    (``klabberjass-sinking``, ``earlier`` as read by
    :func:`analysis.bidding.equilibrium.read_tables`), in sentences computed from this
    study's tables (``tables``, :func:`read_summary`).

    Each figure's claim is a direction (a gain above 0, or a loss below it), so its
    verdict is :func:`analysis.bidding.verdicts.sign_verdict` of the matching real-play
    interval on each seed, combined by :func:`~analysis.bidding.verdicts.seeds_verdict`;
    the earlier study scored every contract where the bidder holds something (*all*),
    so that set is judged first and the contracts the derived auction reaches beside it.
    """
    pimc, dd, bound = "PIMC (real play)", "double dummy", "clairvoyant bound"
    s = earlier["summary"].set_index("way")
    never = float(s.loc["never sink (declare all)", "mean_net"])
    view = s.loc["sampled view"]
    none_ = float(s.loc["always sink (declare none)", "mean_net"])

    def judged(start: str, claim: float, cases: str, play: str = pimc) -> str:
        rows = _way(tables, start, cases, play)
        verdict = seeds_verdict(
            {int(r.seed): sign_verdict(claim, r.low, r.high) for r in rows.itertuples()}
        )
        return f"{_fmt(rows)}: {verdict}"

    out = [
        f"**The clairvoyant bound.** Double dummy (earlier study, "
        f"{earlier['bidding_deals']:,} deals), sinking pays in "
        f"{earlier['bidding_contracts_sinking_helps']:.1%} of contracts "
        f"({earlier['bidding_mean_sink_gain']:+.2f} points a contract). The best "
        "declaration seeing every card, over declaring everything, on all contracts "
        + judged("double-dummy best", 1.0, "all", bound)
        + "; on the contracts the auction reaches "
        + judged("double-dummy best", 1.0, "reached", bound)
        + ". A bound no player can reach: he does not see the cards.",
        f"**The sampled decision.** The earlier study's gain of deciding from the bidder's "
        f"view over declaring everything, {view['mean_net'] - never:+.2f} "
        f"[{view['gain_low']:+.2f}, {view['gain_high']:+.2f}] points a contract (one seed, "
        "all contracts, double-dummy play). In real play, all contracts: "
        + judged("from information", 1.0, "all")
        + "; of it, sinking the runs from information "
        + judged("runs from information", 1.0, "all")
        + " (double dummy "
        + _fmt(_way(tables, "runs from information", "all", dd))
        + ") and deciding Bella when played "
        + judged("declare runs, Bella when played", 1.0, "all")
        + ". On the contracts the auction reaches: "
        + judged("from information", 1.0, "reached")
        + "; sinking the runs from information "
        + judged("runs from information", 1.0, "reached")
        + "; deciding Bella when played "
        + judged("declare runs, Bella when played", 1.0, "reached")
        + ".",
    ]
    h = tables["held_out"]
    lowest = float(THRESHOLDS[0])

    def held(cases: str) -> str:
        rows = h[(h["cases"] == cases) & (h["play"] == "pimc")].sort_values("seed")
        verdict = seeds_verdict(
            {int(r.seed): sign_verdict(1.0, r.low, r.high) for r in rows.itertuples()}
        )
        return (
            "; ".join(
                f"seed {r.seed}: fitted θ {r.threshold:+.0f}"
                + (" (never sinks)" if r.threshold <= lowest else "")
                + f", held out {r.gain:+.2f} [{r.low:+.2f}, {r.high:+.2f}]"
                for r in rows.itertuples()
            )
            + f": {verdict}"
        )

    out.append(
        f"**The threshold rule** 'declare nothing below an estimated margin of "
        f"{earlier['threshold']:+.0f}' (fitted in sample, double dummy), refitted under "
        "PIMC on even deals and measured on odd ones, gain over declaring everything: "
        f"all contracts {held('all')}; contracts the auction reaches {held('reached')}."
    )
    out.append(
        f"**Always sinking** nets {none_ - never:+.1f} points a contract against never "
        "sinking in the earlier study (double dummy); in real play sinking everything "
        "nets, all contracts "
        + judged("sink everything", none_ - never, "all")
        + "; contracts the auction reaches "
        + judged("sink everything", none_ - never, "reached")
        + "."
    )
    return out


TABLES = ("gains", "hiding", "held_out", "by_margin", "counts")


def write_summary(tables: dict, out: str | Path, command: str) -> None:
    """CSV tables and ``summary.json`` (manifests, counts, the rule, the command)."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    for name in TABLES:
        tables[name].to_csv(out / f"{name}.csv", index=False, float_format="%.4g")
    data = {
        "studies": tables["studies"],
        "rule": rule_sentence(tables),
        "play_models": {
            "PIMC (real play)": "each card by PIMC from the player's own information, both "
            "sides (params.samples worlds a decision); declared runs shown to the opponent",
            "double dummy": "both players see every card (the model of klabberjass-sinking)",
            "clairvoyant bound": "double-dummy play and the best declaration seeing every card",
        },
        "intervals": "95 %, clustered by deal; 'reached' rows weighted by reach (0 or 1 for "
        "the stored rule)",
        "command": command,
        "regenerate": [
            f"tricklab study klabberjass-sinking-realplay --deals {m['deals']} --seed {m['seed']} "
            f"--out DIR_{m['seed']} --workers 1"
            + (
                f" --param rules={m['params']['rules']}"
                if m["params"].get("rules", "seed") != "seed"
                else ""
            )
            for m in tables["studies"]
        ],
    }
    (out / "summary.json").write_text(json.dumps(data, indent=1, default=str) + "\n")


def read_summary(folder: str | Path) -> dict:
    """The tables :func:`write_summary` wrote (for notebook 03)."""
    import pandas as pd

    folder = Path(folder)
    out: dict[str, Any] = json.loads((folder / "summary.json").read_text())
    for name in TABLES:
        out[name] = pd.read_csv(folder / f"{name}.csv")
    return out


def main(argv: list[str] | None = None) -> int:
    """``python -m analysis.bidding.sinking_realplay [--compare] STUDY_DIR... OUT_DIR``.

    Without ``--compare``: the summary tables of :func:`sinking_realplay_tables`. With
    it: :func:`play_comparison` of studies with ``play=alphamu`` and ``play=pimc`` on
    the same seeds, written by :func:`write_comparison`."""
    args = sys.argv[1:] if argv is None else argv
    compare = bool(args) and args[0] == "--compare"
    if compare:
        args = args[1:]
    if len(args) < 2:
        print(
            "usage: python -m analysis.bidding.sinking_realplay [--compare] STUDY_DIR... OUT_DIR",
            file=sys.stderr,
        )
        return 2
    frames, manifests = [], []
    for d in args[:-1]:
        try:
            man = read_manifest(d, files=compare)
        except StudyError as err:
            print(err, file=sys.stderr)
            return 2
        if man.get("study") != "klabberjass-sinking-realplay":
            print(f"not a klabberjass-sinking-realplay study: '{d}'", file=sys.stderr)
            return 2
        manifests.append(man if compare else {k: v for k, v in man.items() if k != "files"})
        frames.append(read_study(d))
    if compare:
        try:
            result = play_comparison(frames, manifests)
        except StudyError as err:
            print(err, file=sys.stderr)
            return 2
        dirs = " ".join(
            f"DIR_{m['params'].get('play', 'pimc')}_{m['seed']}" for m in manifests
        )  # the study folders, by play and seed
        write_comparison(
            result,
            args[-1],
            f"python -m analysis.bidding.sinking_realplay --compare {dirs} {args[-1]}",
        )
        print(result["table"].to_string(index=False))
        return 0
    tables = sinking_realplay_tables(frames, manifests)
    dirs = " ".join(f"DIR_{m['seed']}" for m in manifests)  # the study folders, by seed
    command = f"python -m analysis.bidding.sinking_realplay {dirs} {args[-1]}"
    write_summary(tables, args[-1], command)
    print(rule_sentence(tables))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
