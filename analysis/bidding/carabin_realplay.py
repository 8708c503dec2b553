"""Carabin contracts played for real: the ``carabin-realplay`` study and its summary.

The ``carabin-bidding`` study settles every contract double dummy (DD): the bidder and
the coalition of all other seats see every card, so DD is the clairvoyant bound, and
it favours the coalition (four or five defenders who never misdefend). Here each
contract is also played card by card by :class:`analysis.play.CarabinPimc` on every
seat (PIMC: each seat chooses from its own information; the bidder plays for making,
the others against), and once more as a chelem (the bidder plays for every trick, the
others against), by :func:`analysis.play.play_carabin`.

Two contracts a deal:

- the **auction** contract: the one the seats reach bidding by ``policy``
  (:func:`analysis.bidding.carabin.auction`; none when all pass). It answers "how often
  are the contracts people bid made?", but it only shows hands the policy bids;
- the **probe** contract: seat ``deal % players`` takes the turn-up suit, whatever his
  hand. The probe's hand is not chosen by any policy and every seat is probed equally
  often, so the make rate it gives, hand by hand, is what a bidding rule must predict
  ("should this hand take?"); the rule of this module is fitted on it. Taking the
  turn-up suit is the round-1 decision every seat faces first; a named suit (round 2)
  is not probed.

Each contract's PIMC play draws its worlds from the deal's play seed and the contract
only (:func:`play_policy`), so any row replays alone with :func:`played`.

:func:`evaluate_bids_pimc` is ``tricklab bid carabin`` (its default play, ``--play
pimc``): the bid options of one hand over sampled deals, each contract played so.

:func:`realplay_tables` gives the summary tables (``python -m
analysis.bidding.carabin_realplay OUT_DIR STUDY_DIR...``).
"""

from __future__ import annotations

import json
import math
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from analysis.bidding.carabin import (
    FEATURES,
    POLICIES,
    BidValue,
    CarabinBidView,
    LogisticRule,
    Policy,
    auction,
    carabin_features,
    contract_result,
    evaluate_worlds,
    fit_rule,
    sample_deals,
    thumb_policy,
)
from analysis.bidding.equilibrium import write_tables
from analysis.bidding.klabberjass import Estimate, proportion
from analysis.bidding.verdicts import level_verdict, seeds_verdict, sign_verdict
from analysis.play import DEFAULT_SAMPLES, CarabinPimc, play_carabin
from analysis.studies import read_manifest, read_study
from solver.carabin import Call, Contract, Deal, check_players
from solver.errors import RulesError

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True)
class Played:
    """One contract settled double dummy and by PIMC on every seat.

    Attributes:
        dd_made: the contract is made double dummy (a chelem contract: every trick).
        dd_chelem: the bidder can take every trick double dummy.
        pimc_made: the contract is made when every seat plays by PIMC.
        pimc_chelem: the bidder takes every trick when he plays for it by PIMC (the
            others against).
        undecided: PIMC searches stopped by the time limit in the two plays.
    """

    dd_made: bool
    dd_chelem: bool
    pimc_made: bool
    pimc_chelem: bool
    undecided: int


def play_policy(
    play_seed: int, contract: Contract, samples: int, time_limit: float | None
) -> CarabinPimc:
    """The PIMC policy (every seat's) of one contract of a deal: its worlds come from the
    deal's ``play_seed`` and the contract only."""
    key = f"carabin-realplay:{play_seed}:{contract.bidder}:{contract.trump}:{int(contract.chelem)}"
    return CarabinPimc(samples, seed=random.Random(key), time_limit=time_limit)


def pimc_played(
    deal: Deal,
    contract: Contract,
    play_seed: int,
    samples: int = DEFAULT_SAMPLES,
    time_limit: float | None = None,
    trick_order: str = "alternate",
) -> tuple[bool, bool, int]:
    """``contract`` of ``deal`` played by PIMC on every seat: (made, chelem, undecided).

    PIMC plays the contract as bid (the bidder for making it, or for every trick if it
    is a chelem), and as a chelem (the bidder for every trick, the others against); a
    chelem contract is played once. ``undecided`` counts the searches of the two plays
    stopped by ``time_limit``.
    """
    slam = Contract(contract.bidder, contract.trump, True)
    policy = play_policy(play_seed, slam, samples, time_limit)
    chelem = play_carabin(deal, slam, [policy] * deal.players, trick_order).made
    undecided = policy.stats.undecided
    if contract.chelem:
        return chelem, chelem, undecided
    policy = play_policy(play_seed, contract, samples, time_limit)
    made = play_carabin(deal, contract, [policy] * deal.players, trick_order).made
    return made, chelem, undecided + policy.stats.undecided


def played(
    deal: Deal,
    contract: Contract,
    play_seed: int,
    samples: int = DEFAULT_SAMPLES,
    time_limit: float | None = None,
    trick_order: str = "alternate",
) -> Played:
    """``contract`` of ``deal`` double dummy (:func:`contract_result`) and by PIMC
    (:func:`pimc_played`)."""
    made, chelem = contract_result(deal, contract.bidder, contract.trump, trick_order)
    pimc = pimc_played(deal, contract, play_seed, samples, time_limit, trick_order)
    if contract.chelem:
        made = chelem
    return Played(made, chelem, *pimc)


#: Seconds a PIMC search at 5 and 6 players (a rare one takes minutes), as the
#: published ``carabin-realplay`` studies; 3 and 4 players have no limit.
BID_TIME_LIMIT = 0.5


def evaluate_bids_pimc(
    view: CarabinBidView,
    samples: int = 50,
    seed: int = 0,
    policy: Policy | None = None,
    trick_order: str = "alternate",
    play_samples: int = DEFAULT_SAMPLES,
    time_limit: float | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, BidValue]:
    """:func:`analysis.bidding.carabin.evaluate_bids` with every contract played by PIMC
    on every seat (:func:`pimc_played`, ``play_samples`` worlds a decision) instead of
    double dummy: the bidder plays to make it, the others to beat it, and once more for
    every trick (its ``chelem``). The same worlds as double dummy for the same ``seed``;
    each world's play seed is drawn after them.

    ``time_limit``: seconds a search (None: none; :data:`BID_TIME_LIMIT` for 5 and 6
    players when not given).
    """
    if samples < 1:
        raise RulesError(f"invalid samples {samples} (at least 1)")
    if time_limit is None and view.players >= 5:
        time_limit = BID_TIME_LIMIT
    rng = random.Random(seed)
    worlds = sample_deals(view, samples, rng)
    play_seeds = [rng.getrandbits(64) for _ in worlds]

    def settle(i: int, deal: Deal, contract: Contract) -> tuple[bool, bool]:
        made, chelem, _ = pimc_played(
            deal, contract, play_seeds[i], play_samples, time_limit, trick_order
        )
        return made, chelem

    return evaluate_worlds(view, worlds, settle, policy, progress)


_RESULTS = ("dd_made", "dd_chelem", "pimc_made", "pimc_chelem", "undecided")

STUDY_COLUMNS = (
    "deal",
    "players",
    "cards",
    "turn",
    "bidder",
    "trump",
    "round",
    "contract_chelem",
    *FEATURES,
    *_RESULTS,
    "probe_seat",
    "probe_thumb",
    *(f"probe_{f}" for f in FEATURES),
    *(f"probe_{r}" for r in _RESULTS),
)


def realplay_params(params: dict[str, Any]) -> tuple[int, int, str, str, float | None]:
    """(players, samples, policy, trick_order, time_limit) of the study's ``params``.

    Raises:
        RulesError: a value out of range (quoted).
    """
    players = check_players(int(params.get("players", 4)))
    samples = int(params.get("samples", DEFAULT_SAMPLES))
    if samples < 1:
        raise RulesError(f"invalid samples {samples} (at least 1)")
    policy = str(params.get("policy", "thumb"))
    if policy not in POLICIES:
        raise RulesError(f"invalid policy '{policy}' (expected {', '.join(POLICIES)})")
    order = str(params.get("trick_order", "alternate"))
    if order not in ("alternate", "left_then_right"):
        raise RulesError(f"invalid trick_order '{order}' (expected alternate or left_then_right)")
    limit = float(params.get("time_limit", 0))
    if not limit >= 0:
        raise RulesError(f"invalid time_limit {limit} (seconds, 0 for none)")
    return players, samples, policy, order, (limit or None)


def realplay_chunk(
    rng: random.Random, start: int, count: int, params: dict[str, Any]
) -> dict[str, list]:
    """The ``carabin-realplay`` study: ``count`` random deals, one row each.

    Deal ``i`` is ``Deal.random(rng=Random(s))`` with ``s`` the next
    ``rng.getrandbits(64)``, then the next 64 bits are its play seed. Columns (see
    docs/data.md): the deal (``cards``, its notation), the auction contract reached by
    ``policy`` (``bidder`` -1 when all pass), the bidder's features for its trump, its
    results double dummy and by PIMC; the same for the probe contract (``probe_``).
    """
    players, samples, policy_name, order, limit = realplay_params(params)
    policy = POLICIES[policy_name]()
    cols: dict[str, list] = {k: [] for k in STUDY_COLUMNS}
    for i in range(count):
        deal = Deal.random(players=players, rng=random.Random(rng.getrandbits(64)))
        play_seed = rng.getrandbits(64)
        ts = deal.turn >> 4
        contract = auction(deal, policy)
        row: dict[str, Any] = {
            "deal": start + i,
            "players": players,
            "cards": str(deal),
            "turn": deal.turn,
        }
        cache: dict[Contract, Played] = {}

        def settle(c: Contract, deal: Deal = deal, seed: int = play_seed, cache=cache) -> Played:
            if c not in cache:  # the probe may be the auction's contract
                cache[c] = played(deal, c, seed, samples, limit, order)
            return cache[c]

        if contract is None:
            row.update(bidder=-1, trump=-1, round=0, contract_chelem=False)
            row.update(dict.fromkeys(FEATURES, -1))
            row.update(dict.fromkeys(_RESULTS[:4], False), undecided=0)
        else:
            hand = deal.hands[contract.bidder]
            row.update(
                bidder=contract.bidder,
                trump=contract.trump,
                round=1 if contract.trump == ts else 2,
                contract_chelem=contract.chelem,
            )
            row.update(zip(FEATURES, carabin_features(*hand, contract.trump), strict=True))
            row.update(settle(contract).__dict__)
        seat = (start + i) % players
        hand = deal.hands[seat]
        view = CarabinBidView(players, seat, hand, deal.turn)
        row["probe_seat"] = seat
        row["probe_thumb"] = thumb_policy(view, 1, None).kind != "pass"
        for f, v in zip(FEATURES, carabin_features(*hand, ts), strict=True):
            row[f"probe_{f}"] = v
        for r, v in settle(Contract(seat, ts)).__dict__.items():
            row[f"probe_{r}"] = v
        for k in STUDY_COLUMNS:
            cols[k].append(row[k])
    return cols


# ---------------------------------------------------------------- summaries


def _rates(part: pd.DataFrame, prefix: str) -> dict[str, Any]:
    """Make rate DD and PIMC (Wilson 95 %), and the paired difference PIMC - DD (normal
    95 % interval over deals: one contract a deal, so deals are the clusters)."""
    dd = part[f"{prefix}dd_made"].astype(int)
    pm = part[f"{prefix}pimc_made"].astype(int)
    a, b = proportion(int(dd.sum()), len(part)), proportion(int(pm.sum()), len(part))
    diff = Estimate.of((pm - dd).tolist())
    dc = int(part[f"{prefix}dd_chelem"].sum())
    pc = int(part[f"{prefix}pimc_chelem"].sum())
    return {
        "contracts": len(part),
        "dd_made": int(dd.sum()),
        "dd_rate": a.mean,
        "dd_low": a.low,
        "dd_high": a.high,
        "pimc_made": int(pm.sum()),
        "pimc_rate": b.mean,
        "pimc_low": b.low,
        "pimc_high": b.high,
        "diff": diff.mean,
        "diff_low": diff.low,
        "diff_high": diff.high,
        "dd_chelems": dc,
        "pimc_chelems": pc,
        "undecided": int(part[f"{prefix}undecided"].sum()),
    }


#: The contract sets of the summary: (name, column prefix, which rows).
SETS = (
    ("auction", "", "bidder >= 0"),
    ("probe", "probe_", None),
    ("probe_thumb", "probe_", "probe_thumb"),
)


def make_rates(df: pd.DataFrame, by: tuple[str, ...] = ("players", "seed")) -> pd.DataFrame:
    """Make rates DD vs PIMC per group of ``by`` and contract set (:data:`SETS`):
    ``auction`` (the contracts the policy bid), ``probe`` (every probed hand taking the
    turn-up suit), ``probe_thumb`` (the probed hands the rule of thumb would take with)."""
    import pandas as pd

    rows = []
    for name, prefix, query in SETS:
        sub = df.query(query) if query else df
        for key, part in sub.groupby(list(by)):
            keys = key if isinstance(key, tuple) else (key,)
            rows.append({**dict(zip(by, keys, strict=True)), "set": name, **_rates(part, prefix)})
    return pd.DataFrame(rows)


def by_seat(df: pd.DataFrame) -> pd.DataFrame:
    """Make rates DD vs PIMC of the auction contracts per bidder seat, and of the probes
    per probed seat: per seed, and all seeds together (``seed`` 0)."""
    import pandas as pd

    both = pd.concat([df, df.assign(seed=0)], ignore_index=True)
    by = ("players", "seed", "seat")
    bid = both[both["bidder"] >= 0]
    auction_rows = make_rates(bid.assign(seat=bid["bidder"]), by).query("set == 'auction'")
    probe_rows = make_rates(both.assign(seat=both["probe_seat"]), by).query("set != 'auction'")
    return pd.concat([auction_rows, probe_rows], ignore_index=True)


def probe_frame(df: pd.DataFrame, outcome: str = "pimc") -> pd.DataFrame:
    """The probe rows as a :func:`analysis.bidding.carabin.features_frame` (round 1,
    the probed seat, ``made``/``chelem`` from ``outcome`` play: ``pimc`` or ``dd``)."""
    out = df[["deal", "players", "turn"]].copy()
    out["seat"] = df["probe_seat"]
    out["trump"] = df["turn"] // 16
    out["round"] = 1
    for f in FEATURES:
        out[f] = df[f"probe_{f}"]
    out["made"] = df[f"probe_{outcome}_made"].astype(bool)
    out["chelem"] = df[f"probe_{outcome}_chelem"].astype(bool)
    return out


def _probabilities(rule: LogisticRule, frame: pd.DataFrame) -> list[float]:
    out = []
    for r in frame.itertuples(index=False):
        n = int(r.players)
        w = rule.made[f"{n}-1"]
        x = (1.0, *(float(getattr(r, f)) for f in FEATURES), int(r.seat) / (n - 1))
        z = sum(a * b for a, b in zip(w, x, strict=True))
        out.append(1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z)))))
    return out


def _net(bids: list[bool], made: list[bool]) -> Estimate:
    """Net a hand of a bidding rule against always passing (passing counted 0): +1 a
    bid made, -1 a bid failed, 0 a pass; mean over hands with a 95 % interval."""
    return Estimate.of(
        [(1.0 if m else -1.0) if b else 0.0 for b, m in zip(bids, made, strict=True)]
    )


#: Candidate thresholds of the simple rule: trumps + trump honours (A, K, Q); 12 is
#: more than any hand counts (never take).
COUNTS = (*range(2, 11), 12)
#: Candidate make-probability thresholds of the logistic rule.
THRESHOLDS = tuple(round(0.05 * k, 2) for k in range(4, 17))


def fit_and_measure(train: pd.DataFrame, test: pd.DataFrame) -> dict[str, Any]:
    """Refit the bidding rule on ``train`` probes, measure it on the held-out ``test``.

    Two rules for taking the turn-up suit, fitted on PIMC outcomes (:func:`probe_frame`):

    - the logistic make-probability rule (:func:`analysis.bidding.carabin.fit_rule`)
      and the probability threshold that maximises the training net (bid: +1 made,
      -1 failed; pass: 0);
    - the table rule "take with at least ``k`` counting trumps plus trump A, K, Q", the
      ``k`` that maximises the training net.

    Returns per player count: the fitted ``k`` and threshold, and on the test hands
    their bid rate, make rate (Wilson) and net a hand with intervals, beside always
    passing (0) and the rule of thumb.
    """
    tr, te = probe_frame(train), probe_frame(test)
    rule = fit_rule(tr)
    # only round 1 (the take) is probed: the round-2 weights are fitted on nothing
    rule = LogisticRule(
        {k: w for k, w in rule.made.items() if k.endswith("-1")},
        {k: w for k, w in rule.chelem.items() if k.endswith("-1")},
        rule.deals,
    )
    out: dict[str, Any] = {"rule": rule.to_json(), "players": {}}
    p_tr, p_te = _probabilities(rule, tr), _probabilities(rule, te)
    tr = tr.assign(p=p_tr, count=tr["trumps"] + tr["honours"])
    te = te.assign(p=p_te, count=te["trumps"] + te["honours"])
    thumb = test["probe_thumb"].astype(bool).to_numpy()
    te = te.assign(thumb=thumb)
    for n, part in tr.groupby("players"):
        made = part["made"].tolist()
        best_t = max(THRESHOLDS, key=lambda t: (_net((part["p"] >= t).tolist(), made).mean, t))
        best_k = max(COUNTS, key=lambda k: (_net((part["count"] >= k).tolist(), made).mean, k))
        held = te[te["players"] == n]
        res: dict[str, Any] = {
            "train_hands": len(part),
            "test_hands": len(held),
            "threshold": best_t,
            "count": best_k,
        }
        measured: dict[str, Any] = {}
        for name, bids in (
            ("logistic", (held["p"] >= best_t).tolist()),
            ("count", (held["count"] >= best_k).tolist()),
            ("thumb", held["thumb"].tolist()),
        ):
            hm = held["made"].tolist()
            net = _net(bids, hm)
            k = sum(bids)
            won = sum(m for b, m in zip(bids, hm, strict=True) if b)
            pr = proportion(won, k)
            measured[name] = {
                "bid_rate": k / len(held) if len(held) else math.nan,
                "bids": k,
                "made": won,
                "make_rate": pr.mean,
                "make_low": pr.low,
                "make_high": pr.high,
                "net": net.mean,
                "net_low": net.low,
                "net_high": net.high,
            }
        res["measured"] = measured
        res["sentence"] = rule_sentence(int(n), res)
        out["players"][str(n)] = res
    return out


def rule_sentence(players: int, res: dict[str, Any]) -> str:
    """The refitted rule in one sentence a player can use at the table, from ``res``
    (one player count of :func:`fit_and_measure`).

    >>> res = {"count": 6, "test_hands": 100, "measured": {"count": {"bid_rate": 0.3,
    ...        "make_rate": 0.62, "net": 0.07, "net_low": 0.01, "net_high": 0.13}}}
    >>> rule_sentence(4, res)  # doctest: +NORMALIZE_WHITESPACE
    'At 4 players, take the turn-up suit when your trumps plus your trump A, K and Q
    number 6 or more (held out: bids 30% of hands, makes 62%, net +0.07 [+0.01, +0.13]
    a hand against passing, 100 hands).'
    """
    m = res["measured"]["count"]
    if res["count"] > 11:
        return (
            f"At {players} players, do not take the turn-up suit: no count of trumps plus "
            f"trump A, K and Q gained against passing on the training hands (held out: "
            f"{res['test_hands']} hands)."
        )
    if not m.get("bids", 1):
        return (
            f"At {players} players, take the turn-up suit only when your trumps plus your "
            f"trump A, K and Q number {res['count']} or more (held out: none of "
            f"{res['test_hands']} hands did, so the rule is untested)."
        )
    return (
        f"At {players} players, take the turn-up suit when your trumps plus your trump A, K "
        f"and Q number {res['count']} or more (held out: bids {m['bid_rate']:.0%} of hands, "
        f"makes {m['make_rate']:.0%}, net {m['net']:+.2f} [{m['net_low']:+.2f}, "
        f"{m['net_high']:+.2f}] a hand against passing, {res['test_hands']} hands)."
    )


#: Made contracts under PIMC play a player count needs before its rule is trusted.
BAR = 200


def _split(df: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame, str]:
    """(train, test, how): the first seed's deals against the others' when there are
    several seeds, else the first half of the deals against the second."""
    seeds = sorted(df["seed"].unique())
    if len(seeds) > 1:
        first = df["seed"] == seeds[0]
        return (
            df[first],
            df[~first],
            f"fitted on seed {seeds[0]}, measured on seed(s) "
            + (", ".join(str(s) for s in seeds[1:])),
        )
    parts = [
        (p[p["deal"] < p["deal"].median()], p[p["deal"] >= p["deal"].median()])
        for _, p in df.groupby("players")
    ]
    import pandas as pd

    train = pd.concat([a for a, _ in parts], ignore_index=True)
    test = pd.concat([b for _, b in parts], ignore_index=True)
    return train, test, "fitted on the first half of the deals, measured on the second"


def realplay_tables(frames: list[pd.DataFrame]) -> dict[str, Any]:
    """The ``carabin-realplay`` summary from studies (each frame one study, with a
    ``seed`` column added).

    Returns:
        ``make_rates`` (:func:`make_rates`, per players, seed and contract set),
        ``by_seat`` (:func:`by_seat`), ``rule`` (:func:`fit_and_measure` on PIMC
        outcomes, plus the count rule a DD fit would choose, measured on PIMC) and
        ``summary`` (per player count: deals, made contracts under PIMC and DD, whether
        the bar of :data:`BAR` made auction contracts under PIMC is met, the sentence).
    """
    import pandas as pd

    df = pd.concat(frames, ignore_index=True)
    rates = make_rates(df)
    seats = by_seat(df)
    train, test, how = _split(df)
    fitted = fit_and_measure(train, test)
    dd_tr = probe_frame(train, "dd")
    te = probe_frame(test)
    for n, part in dd_tr.groupby("players"):
        count = part["trumps"] + part["honours"]
        made = part["made"].tolist()
        k = max(COUNTS, key=lambda k: (_net((count >= k).tolist(), made).mean, k))
        held = te[te["players"] == n]
        bids = (held["trumps"] + held["honours"] >= k).tolist()
        net = _net(bids, held["made"].tolist())
        fitted["players"][str(n)]["dd_fit"] = {
            "count": k,
            "bid_rate": sum(bids) / len(held) if len(held) else math.nan,
            "net": net.mean,
            "net_low": net.low,
            "net_high": net.high,
        }
    fitted["split"] = how
    summary: dict[str, Any] = {}
    for n, part in df.groupby("players"):
        bid = part[part["bidder"] >= 0]
        made = int(bid["pimc_made"].sum())
        res = fitted["players"].get(str(n), {})
        summary[str(n)] = {
            "deals": {
                str(s): int((part["seed"] == s).sum()) for s in sorted(part["seed"].unique())
            },
            "auction_contracts": len(bid),
            "auction_made_pimc": made,
            "auction_made_dd": int(bid["dd_made"].sum()),
            "probe_made_pimc": int(part["probe_pimc_made"].sum()),
            "probe_made_dd": int(part["probe_dd_made"].sum()),
            "undecided_searches": int(part["undecided"].sum() + part["probe_undecided"].sum()),
            "bar_met": made >= BAR,
            "bar": (
                f"{made} auction contracts made under PIMC play at {n} players, seeds together "
                + (
                    f"(the bar of {BAR} is met)."
                    if made >= BAR
                    else f"(fewer than the bar of {BAR}: the make rate and the rule at {n} "
                    f"players are not settled yet; at this rate about "
                    f"{math.ceil(BAR * len(part) / max(1, made)):,} deals would give {BAR}, "
                    "and each deal costs engine time)."
                )
                + f" Probes (hands taking the turn-up suit), seeds together: "
                f"{int(part['probe_pimc_made'].sum())} made of {len(part)}, the sample the "
                "rule is fitted (first seed) and measured (the others) on."
            ),
            "sentence": (
                ("" if made >= BAR else f"Not settled ({made} made contracts): ")
                + res.get("sentence", "")
            ),
        }
    return {"make_rates": rates, "by_seat": seats, "rule": fitted, "summary": summary}


#: Where the published tables live; writing there also updates :data:`RULE_COPY`.
PUBLISHED = "data/studies/carabin-realplay"
#: The published ``rule.json``, shipped with the package for ``tricklab bid carabin``.
RULE_COPY = Path(__file__).resolve().parent / "carabin_rule.json"


#: The installed rule's players table, with the file's (path, modification time) it was
#: read from: a policy asks for every hand, so the file is read again only when it changes.
_RULES: dict[str, Any] = {}


def _installed_rules() -> dict[str, Any] | None:
    """The ``players`` table of :data:`RULE_COPY` (None if the rule is not installed)."""
    try:
        stamp = (str(RULE_COPY), RULE_COPY.stat().st_mtime_ns)
    except FileNotFoundError:
        return None
    if _RULES.get("stamp") != stamp:
        _RULES.update(stamp=stamp, players=json.loads(RULE_COPY.read_text())["players"])
    return _RULES["players"]


def rule_advice(players: int, left: int, right: int, trump: int) -> dict[str, Any] | None:
    """What the published real-play rule says for a hand taking ``trump``: the count
    (trumps plus trump A, K, Q), the mark for ``players``, whether to take, and the
    rule's net a hand against passing on the held-out hands, with its interval and the
    number of held-out bids behind it (None if the rule is not installed).

    >>> from solver.cards import parse_holding
    >>> a = rule_advice(3, parse_holding("AK2.A.."), parse_holding("3..K.K"), 0)
    >>> a["count"], a["mark"] == a["mark"], isinstance(a["take"], bool)
    (6, True, True)
    """
    rules = _installed_rules()
    if rules is None:
        return None
    rule = rules.get(str(players))
    if rule is None:
        return None
    f = carabin_features(left, right, trump)
    count = f[0] + f[1]
    mark = int(rule["count"])
    m = rule["measured"]["count"]
    return {
        "count": count,
        "mark": mark,
        "take": count >= mark,
        "held_out_net": {"mean": m["net"], "low": m["net_low"], "high": m["net_high"]},
        "held_out_bids": m.get("bids"),
        "sentence": rule["sentence"],
    }


def realplay_policy(view: Any, round_: int, standing: Contract | None) -> Call:
    """The bidding rule derived from real play as an auction policy (``realplay`` in
    :data:`analysis.bidding.carabin.POLICIES`): take the turn-up suit in round 1 when the
    count of :func:`rule_advice` reaches the player count's mark; otherwise pass (the
    rule does not cover naming a suit in round 2, nor chelems).

    >>> from analysis.bidding.carabin import CarabinBidView
    >>> v = CarabinBidView.parse("players=3 seat=0 hand=AKQ2.../7.9.2.3 turn=5S")
    >>> str(realplay_policy(v, 1, None)), str(realplay_policy(v, 2, None))
    ('take', 'pass')
    """
    if standing is not None or round_ != 1:
        return Call("pass")
    advice = rule_advice(view.players, view.hand[0], view.hand[1], view.turn >> 4)
    return Call("take") if advice is not None and advice["take"] else Call("pass")


def replication(frames: list[pd.DataFrame]) -> dict[str, Any]:
    """The bidding rule refitted the other way round: on the probes of the second seed of
    ``frames`` (each frame one study with a ``seed`` column) and measured on the first,
    as :func:`fit_and_measure` does it. The published rule is fitted on the first seed;
    this says whether a second seed finds the same rule and whether it holds on the
    first seed's hands."""
    import pandas as pd

    df = pd.concat(frames, ignore_index=True)
    seeds = sorted(int(s) for s in df["seed"].unique())
    if len(seeds) < 2:
        raise ValueError(f"replication needs two seeds, got {seeds}")
    first, second = seeds[0], seeds[1]
    fitted = fit_and_measure(df[df["seed"] == second], df[df["seed"] == first])
    fitted["fitted_on_seed"], fitted["measured_on_seed"] = second, first
    return fitted


# ---------------------------------------------------------------- findings


def findings_tables(root: str | Path) -> dict[str, Any]:
    """The published tables notebook 04's findings are computed from, read from the
    project folder ``root``: ``realplay`` (this study's summary and csv files, and
    ``rule.json`` as ``rule``), ``bidding`` (the double-dummy ``carabin-bidding`` tables
    and ``derived_rule.json`` as ``derived_rule``), ``duplicate`` (the duplicate games of
    the double-dummy rule against the rule of thumb) and ``seating`` (the real-play rule
    at the table, every player count)."""
    import pandas as pd

    from analysis.bidding.equilibrium import read_tables

    root = Path(root)
    studies = root / "data/studies"
    realplay = read_tables(studies / "carabin-realplay")
    realplay["rule"] = json.loads((studies / "carabin-realplay/rule.json").read_text())
    again = studies / "carabin-realplay/replication.json"
    realplay["replication"] = json.loads(again.read_text()) if again.exists() else None
    bidding = read_tables(studies / "carabin-bidding")
    bidding["derived_rule"] = json.loads(
        (studies / "carabin-bidding/derived_rule.json").read_text()
    )
    matches = studies / "carabin-matches"
    seating = pd.concat(
        [pd.read_csv(matches / f"realplay-seating{x}.csv") for x in ("", "-p56")],
        ignore_index=True,
    )
    return {
        "realplay": realplay,
        "bidding": bidding,
        "duplicate": pd.read_csv(matches / "duplicate.csv"),
        "seating": seating,
    }


def _and(items: list[Any]) -> str:
    """``3``, ``3 and 4``, ``3, 4 and 5``."""
    words = [str(x) for x in items]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _by_count(verdicts: dict[int, str]) -> str:
    """Player counts grouped by verdict: ``changed at 3, 4 and 5 players; at 6 players
    changed on seeds 1, 2, kept on seed 4``."""
    groups: dict[str, list[int]] = {}
    for n, v in sorted(verdicts.items()):
        groups.setdefault(v, []).append(n)
    return "; ".join(
        f"{v} at {_and(ns)} players" if " on seed" not in v else f"at {_and(ns)} players {v}"
        for v, ns in groups.items()
    )


def _pc(e: Estimate) -> str:
    """A rate with its interval in per cent: ``48.8 % [45.6, 52.0]``."""
    return f"{100 * e.mean:.1f} % [{100 * e.low:.1f}, {100 * e.high:.1f}]"


def _pts(m: float, lo: float, hi: float) -> str:
    """A difference of rates in percentage points: ``+23.1 points [+20.0, +26.2]``."""
    return f"{100 * m:+.1f} points [{100 * lo:+.1f}, {100 * hi:+.1f}]"


def _iv(m: float, lo: float, hi: float) -> str:
    """A net with its interval: ``+0.012 [+0.002, +0.022]``."""
    return f"{m:+.3f} [{lo:+.3f}, {hi:+.3f}]"


def pooled_rates(rows: pd.DataFrame) -> dict[str, Estimate]:
    """Rows of ``make_rates`` (one contract set and player count, one row a seed) with
    the seeds together: the DD and PIMC make rates (Wilson 95 % on the summed counts)
    and the paired difference PIMC − DD, the seeds' paired means weighted by their
    contracts with the normal interval of that weighted mean (the seeds are independent
    samples; each seed's standard error is read off its 95 % interval)."""
    n = int(rows["contracts"].sum())
    weights = rows["contracts"] / n
    se = (rows["diff_high"] - rows["diff_low"]) / (2 * 1.96)
    diff = float((weights * rows["diff"]).sum())
    half = 1.96 * math.sqrt(float((weights**2 * se**2).sum()))
    return {
        "dd": proportion(int(rows["dd_made"].sum()), n),
        "pimc": proportion(int(rows["pimc_made"].sum()), n),
        "diff": Estimate(diff, diff - half, diff + half, n),
    }


def gap(made_a: int, n_a: int, made_b: int, n_b: int) -> Estimate:
    """The difference of two make rates on different hands (``a`` − ``b``) with its
    normal 95 % interval (independent samples).

    >>> e = gap(60, 100, 40, 100)
    >>> round(e.mean, 2), round(e.low, 3), round(e.high, 3)
    (0.2, 0.064, 0.336)
    """
    pa, pb = made_a / n_a, made_b / n_b
    half = 1.96 * math.sqrt(pa * (1 - pa) / n_a + pb * (1 - pb) / n_b)
    return Estimate(pa - pb, pa - pb - half, pa - pb + half, n_a + n_b)


def _seat_gap(rows: pd.DataFrame, model: str, made: str = "made", n: str = "contracts") -> Estimate:
    """Dealer minus eldest make rate of ``rows`` (one player count, one row a seat)."""
    rows = rows.sort_values("seat")
    first, last = rows.iloc[0], rows.iloc[-1]
    return gap(
        int(round(last[f"{model}_{made}"])),
        int(last[n]),
        int(round(first[f"{model}_{made}"])),
        int(first[n]),
    )


def findings(tables: dict[str, Any]) -> list[str]:
    """Notebook 04's findings as sentences computed from the published tables (as read
    by :func:`findings_tables`), so the words cannot drift from the numbers.

    Real play (PIMC on every seat) leads each finding; double dummy (the clairvoyant
    bound) stands beside it with the paired difference PIMC − DD where the same
    contracts were played both ways. The bidding rule comes from real play. Each
    double-dummy claim gets a verdict by explicit rules on the real-play intervals:
    :func:`analysis.bidding.verdicts.sign_verdict` for a direction,
    :func:`~analysis.bidding.verdicts.level_verdict` for a make rate,
    :func:`~analysis.bidding.verdicts.seeds_verdict` across seeds; a figure published without an interval gets
    none.
    """
    real, dd = tables["realplay"], tables["bidding"]
    summary = {int(n): s for n, s in real["summary"].items()}
    counts = sorted(summary)
    rates, seats, rule = real["make_rates"], real["by_seat"], real["rule"]
    limits = {
        int(m["params"]["players"]): float(m["params"].get("time_limit", 0))
        for m in real["studies"]
    }
    out = []

    def deals(n: int) -> str:
        per = summary[n]["deals"]
        return f"{n} players {sum(per.values()):,} ({' + '.join(f'{v:,}' for v in per.values())})"

    out.append(
        "**Data and play models.** Real play: every seat chooses each card by PIMC from "
        "its own information; double dummy (every seat sees every card) is the "
        "clairvoyant bound beside it, on the same deals. Deals, seeds together (each "
        f"seed's in brackets): {', '.join(deals(n) for n in counts)}. The bidding rule is "
        f"derived from real play: {rule['split']}, on the probes' PIMC outcomes. Intervals are 95 %."
    )

    # how much the sample holds: auction contracts against probes, against the bar
    def held(n: int) -> str:
        s = summary[n]
        probes = sum(s["deals"].values())
        return (
            f"{n} players: {s['auction_made_pimc']:,} of {s['auction_contracts']:,} "
            f"auction contracts made ({'bar met' if s['auction_made_pimc'] >= BAR else 'below the bar'}), "
            f"{s['probe_made_pimc']:,} of {probes:,} probes "
            f"({'bar met' if s['probe_made_pimc'] >= BAR else 'below the bar'})"
        )

    below = [n for n in counts if summary[n]["probe_made_pimc"] < BAR]
    limited = [n for n in counts if limits.get(n)]
    text = (
        f"**How much the sample holds.** The bar is {BAR} contracts made under real play. "
        "It is counted on the contracts the rule of thumb bids (the auction contracts); "
        "the rule is fitted and measured on the probes (every probed hand taking the "
        "turn-up suit), which hold far fewer made contracts. Made by PIMC, seeds "
        f"together: {'; '.join(held(n) for n in counts)}."
    )
    if below:
        text += f" The rule at {_and(below)} players rests on probes below the bar."
    if limited:
        text += (
            f" At {_and(limited)} players every PIMC search was cut at "
            + " and ".join(sorted({f"{limits[n]:g} s" for n in limited}))
            + " (a world still undecided counts as half a failure for the card it was asked "
            "about): "
            + "searches cut: "
            + _and([f"{summary[n]['undecided_searches']:,} at {n} players" for n in limited])
            + ", so those rows depend on the machine's speed and load."
        )
    out.append(text)

    # make rates: the contracts the rule of thumb bids, and every probed hand
    def level(set_: str, n: int) -> tuple[str, str]:
        rows = rates[(rates["set"] == set_) & (rates["players"] == n)]
        p = pooled_rates(rows)
        verdict = seeds_verdict(
            {int(r.seed): level_verdict(r.diff_low, r.diff_high) for r in rows.itertuples()}
        )
        words = (
            f"{n} players {_pc(p['pimc'])} by PIMC, {_pc(p['dd'])} double dummy, "
            f"PIMC − DD {_pts(p['diff'].mean, p['diff'].low, p['diff'].high)}"
        )
        return words, verdict

    for set_, what in (
        ("auction", "contracts the rule of thumb bids"),
        ("probe", "hands taking the turn-up suit whatever they hold (probes)"),
    ):
        levels = [level(set_, n) for n in counts]
        out.append(
            f"**Made, {what}** (seeds together; PIMC − DD paired by deal): "
            + "; ".join(w for w, _ in levels)
            + ". The double-dummy make rate (changed when the paired difference lies "
            "clear of 0, kept when it holds 0): "
            + _by_count({n: v for n, (_, v) in zip(counts, levels, strict=True)})
            + "."
        )
    probes = {
        n: pooled_rates(rates[(rates["set"] == "probe") & (rates["players"] == n)]) for n in counts
    }
    lo_n, hi_n = counts[0], counts[-1]
    a, b = probes[lo_n]["pimc"], probes[hi_n]["pimc"]
    trend = "kept" if b.high < a.low else "changed" if b.low > a.high else "withdrawn"
    out.append(
        f"**Fewer contracts made with more players**: by PIMC the probes make {_pc(a)} at "
        f"{lo_n} players and {_pc(b)} at {hi_n}; double dummy {_pc(probes[lo_n]['dd'])} and "
        f"{_pc(probes[hi_n]['dd'])}. Double-dummy claim {trend} (kept when the interval "
        f"at {hi_n} players lies wholly below the one at {lo_n})."
    )

    # seat: dealer against eldest
    dd_seat = dd["by_seat"]
    parts = []
    for n in counts:
        rows = seats.query(f"set == 'probe' and seed == 0 and players == {n}")
        pimc, ddp = _seat_gap(rows, "pimc"), _seat_gap(rows, "dd")
        big = dd_seat[(dd_seat["players"] == n) & (dd_seat["round"] == 1)].assign(
            dd_made=lambda d: (d["make_rate"] * d["hands"]).round(), contracts=lambda d: d["hands"]
        )
        claim = _seat_gap(big, "dd") if len(big) else None
        words = (
            f"{n} players {_pts(pimc.mean, pimc.low, pimc.high)} by PIMC, "
            f"{_pts(ddp.mean, ddp.low, ddp.high)} double dummy on the same probes"
        )
        if claim is not None and (claim.low > 0 or claim.high < 0):
            words += (
                f"; the double-dummy study's {_pts(claim.mean, claim.low, claim.high)} "
                f"is {sign_verdict(claim.mean, pimc.low, pimc.high)}"
            )
        else:
            words += "; no double-dummy direction to test"
        parts.append(words)
    out.append(
        "**Seat: the dealer against the eldest**, make rate of the probes, dealer minus "
        "eldest (seeds together): " + "; ".join(parts) + "."
    )

    # hand features: weights without intervals
    names = ("trumps", "honours", "side_aces", "split")
    wr, wd = rule["rule"], dd["derived_rule"]

    def weights(r: dict[str, Any], n: int) -> str | None:
        w = r["made"].get(f"{n}-1")
        if w is None:
            return None
        return ", ".join(f"{k.replace('_', ' ')} {w[r['features'].index(k)]:+.2f}" for k in names)

    parts = []
    for n in counts:
        a_w, d_w = weights(wr, n), weights(wd, n)
        if a_w is not None:
            parts.append(f"{n} players {a_w}" + (f" (double dummy {d_w})" if d_w else ""))
    out.append(
        "**Hand features** (log-odds of making a take, a unit of each; the rule refitted "
        "on real play, beside the double-dummy fit): "
        + "; ".join(parts)
        + ". These weights are published without intervals, so they carry no verdict; "
        "the rule below uses trumps plus trump A, K and Q only."
    )

    # the rule derived from real play, the rule of thumb, and never bidding
    pol = dd["policies"]
    parts = []
    for n in counts:
        res = rule["players"].get(str(n))
        if res is None:
            continue
        m, t, f = res["measured"]["count"], res["measured"]["thumb"], res["dd_fit"]
        thumb_dd = pol[(pol["players"] == n) & (pol["policy"] == "thumb")]
        thumb_net = float(
            (thumb_dd["net_per_hand"] * thumb_dd["hands"]).sum() / thumb_dd["hands"].sum()
        )
        derived = pol[(pol["players"] == n) & (pol["policy"] == "derived")]
        never = bool(len(derived)) and bool((derived["bid_rate"] == 0).all())
        text = (
            f"{n} players: take with {res['count']} or more"
            if res["count"] <= 11
            else f"{n} players: never take"
        )
        text += (
            f", held out on {res['test_hands']:,} hands ({m['bids']} bids, {m['made']} made): "
            f"net {_iv(m['net'], m['net_low'], m['net_high'])} a hand against passing; the "
            f"rule of thumb {_iv(t['net'], t['net_low'], t['net_high'])} (double dummy "
            f"{thumb_net:+.3f} a hand, a {'loss' if thumb_net < 0 else 'gain'}: "
            f"{sign_verdict(thumb_net, t['net_low'], t['net_high'])})"
        )
        if never:
            text += "; the double-dummy rule never takes: " + (
                "kept (the real-play fit never takes either)"
                if res["count"] > 11
                else f"{'changed' if m['net_low'] > 0 else 'withdrawn'} (the real-play "
                f"rule takes, its held-out net {'clear of' if m['net_low'] > 0 else 'holds'} 0)"
            )
        text += (
            "; a double-dummy fit would never take"
            if f["count"] > 11
            else f"; a double-dummy fit would take with {f['count']} or more (held out by "
            f"PIMC: net {_iv(f['net'], f['net_low'], f['net_high'])})"
        )
        parts.append(text)
    out.append(
        f"**The rule derived from real play** ({rule['split']}; net: +1 a take made, −1 "
        "failed, 0 a pass): " + "; ".join(parts) + "."
    )

    # games to 10: the double-dummy rule against the rule of thumb, in duplicate
    dup = tables["duplicate"]
    dup = dup[dup["figure"] == "difference: derived - thumb"]
    parts = []
    for n, part in dup.groupby("players"):
        pimc = part[part["play"] == "pimc"].sort_values("seed")
        ddr = part[part["play"] == "dd"].sort_values("seed")
        if pimc.empty or ddr.empty:
            continue
        dd_mean = float(ddr["estimate"].mean())
        verdict = seeds_verdict(
            {int(r.seed): sign_verdict(dd_mean, r.low, r.high) for r in pimc.itertuples()}
        )
        parts.append(
            f"{n} players "
            + ", ".join(
                f"{_iv(r.estimate, r.low, r.high)} (seed {int(r.seed)}, {int(r.n)} sets)"
                for r in pimc.itertuples()
            )
            + f" by PIMC ({_and(sorted({int(x) for x in pimc['samples']}))} worlds a card), "
            + ", ".join(f"{_iv(r.estimate, r.low, r.high)}" for r in ddr.itertuples())
            + f" double dummy: {verdict}"
        )
    again = real.get("replication")
    if again:
        said = []
        for n, res in sorted(again["players"].items(), key=lambda kv: int(kv[0])):
            c = res["measured"]["count"]
            published = rule["players"].get(n, {}).get("count")
            same = "the same mark" if published == res["count"] else f"published: {published}"
            said.append(
                f"{n} players take with {res['count']} or more ({same}); on seed "
                f"{again['measured_on_seed']}'s {res['test_hands']:,} hands {c['bids']} bids, "
                f"{c['made']} made, net {_iv(c['net'], c['net_low'], c['net_high'])} a hand "
                "against passing"
            )
        out.append(
            f"**The rule on a second seed**: refitted on seed {again['fitted_on_seed']} and "
            f"measured on seed {again['measured_on_seed']} (the published rule is fitted on "
            f"seed {again['measured_on_seed']}): " + "; ".join(said) + "."
        )
    out.append(
        "**Games to 10 in duplicate, the double-dummy rule against the rule of thumb** "
        "(games won a seat, derived minus thumb; the double-dummy claim: derived ahead): "
        + "; ".join(parts)
        + "."
    )

    # the real-play rule at the table
    seat_t = tables["seating"]
    pooled = seat_t[
        (seat_t["seating"] == "pooled")
        & (seat_t["measure"] == "games won a seat")
        & (seat_t["b"] == "thumb")
    ]
    parts = []
    for n, part in pooled.groupby("players"):
        both = part[part["seed"].astype(str) == "both"]
        use = both if len(both) else part
        for r in use.itertuples():
            label = "seeds together" if str(r.seed) == "both" else f"seed {r.seed}"
            clear = "clear of 0" if r.low > 0 or r.high < 0 else "holds 0"
            parts.append(
                f"{n} players {_iv(r.estimate, r.low, r.high)} ({label}, {int(r.n)} sets, {clear})"
            )
    out.append(
        "**The real-play rule at the table** against the rule of thumb (duplicate, PIMC "
        "on every seat, games won a seat, its player minus the others in the same seats; "
        "no double-dummy counterpart): " + "; ".join(parts) + "."
    )
    return out


def main(argv: list[str] | None = None) -> int:
    """``python -m analysis.bidding.carabin_realplay OUT_DIR STUDY_DIR...``: the summary
    tables (``make_rates.csv``, ``by_seat.csv``, ``rule.json``, ``summary.json`` with the
    studies' manifests) from ``carabin-realplay`` study folders. With ``--replicate``
    first: only ``replication.json`` (:func:`replication`: the rule fitted on the second
    seed's folders and measured on the first's)."""

    args = sys.argv[1:] if argv is None else argv
    replicate = bool(args) and args[0] == "--replicate"
    if replicate:
        args = args[1:]
    if len(args) < 2:
        print(
            "usage: python -m analysis.bidding.carabin_realplay [--replicate] OUT_DIR STUDY_DIR...",
            file=sys.stderr,
        )
        return 2
    out = Path(args[0])
    frames, manifests = [], []
    for d in args[1:]:
        manifest = read_manifest(d)
        if manifest.get("study") != "carabin-realplay":
            print(f"{d}: not a carabin-realplay study ({manifest.get('study')})", file=sys.stderr)
            return 2
        manifests.append(manifest)
        frames.append(read_study(d).assign(seed=int(manifest["seed"])))
    if replicate:
        result = replication(frames)
        result["studies"] = manifests
        result["commands"] = regenerate_commands(manifests, str(out))
        result["commands"][-1] = result["commands"][-1].replace(
            "carabin_realplay ", "carabin_realplay --replicate ", 1
        )
        out.mkdir(parents=True, exist_ok=True)
        (out / "replication.json").write_text(json.dumps(result, indent=1) + "\n")
        print(json.dumps({n: r["sentence"] for n, r in result["players"].items()}, indent=1))
        return 0
    tables = realplay_tables(frames)
    rule = tables.pop("rule")
    tables["play_models"] = {
        "dd": "double dummy: every seat sees every card (the clairvoyant bound)",
        "pimc": "PIMC on every seat: each chooses from its own information, samples worlds a "
        "decision; the bidder for the contract, the others against",
    }
    tables["rule_from"] = "pimc (probe contracts: " + rule["split"] + ")"
    tables["studies"] = manifests
    tables["commands"] = regenerate_commands(manifests, str(out))
    write_tables(tables, out)
    text = json.dumps(rule, indent=1) + "\n"
    (out / "rule.json").write_text(text)
    if out.resolve() == Path(__file__).resolve().parents[2] / PUBLISHED:
        RULE_COPY.write_text(text)  # the copy tricklab bid reads, shipped with the package
    print(json.dumps(tables["summary"], indent=1))
    return 0


def regenerate_commands(manifests: list[dict[str, Any]], out: str) -> list[str]:
    """The commands that rebuild the study folders (under ``runs/``) and the summary."""
    cmds, dirs = [], []
    for m in manifests:
        p = m["params"]
        d = f"runs/carabin-realplay/p{p['players']}-s{m['seed']}"
        dirs.append(d)
        params = " ".join(f"--param {k}={v}" for k, v in p.items())
        cmds.append(
            f"tricklab study carabin-realplay --deals {m['deals']} --seed {m['seed']} "
            f"--out {d} --workers 1 {params}"
        )
    cmds.append(f"python -m analysis.bidding.carabin_realplay {out} {' '.join(dirs)}")
    return cmds


if __name__ == "__main__":
    raise SystemExit(main())


__all__ = [
    "BAR",
    "Played",
    "BID_TIME_LIMIT",
    "by_seat",
    "evaluate_bids_pimc",
    "findings",
    "findings_tables",
    "fit_and_measure",
    "replication",
    "gap",
    "make_rates",
    "pimc_played",
    "play_policy",
    "played",
    "pooled_rates",
    "probe_frame",
    "realplay_chunk",
    "realplay_params",
    "realplay_tables",
    "rule_sentence",
]
