"""Naming a suit in round 2, played for real: the ``carabin-realplay-name`` study.

The ``carabin-realplay`` study probes round 1 only (a seat takes the turn-up suit,
whatever his hand). This study probes round 2 the same way: on each deal seat
``deal % players`` **names** a suit other than the turn-up suit, whatever his hand,
and the contract is settled double dummy (the clairvoyant bound) and by PIMC on every
seat (:class:`analysis.play.CarabinPimc`: each seat from its own information, the
bidder for the contract, the others against it).

The suit named is :func:`named_suit`: the seat's longest other suit, ties broken by
more of its A, K, Q, then by the lower suit — the suit the rule of thumb names when it
names one, so the rule of thumb's round-2 decision is measured on these rows exactly.
The named contract is not played as a chelem (the naming rule scores made or failed).

Deals and play seeds are drawn as in ``carabin-realplay`` (deal ``i`` is
``Deal.random(rng=Random(s))`` with ``s`` the next ``rng.getrandbits(64)``, then the
next 64 bits are its play seed), so with the same seed and chunk size both studies
hold the same deals, and the same seat is probed: the probe of round 1 and the probe
of round 2 are the same hand. A contract's PIMC worlds come from the play seed and the
contract only (:func:`analysis.bidding.carabin_realplay.play_policy`).

:func:`naming_tables` fits the naming rule on the first seed and measures it on the
others (``python -m analysis.bidding.carabin_naming OUT_DIR STUDY_DIR...``).
"""

from __future__ import annotations

import json
import math
import random
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from analysis.bidding.carabin import (
    FEATURES,
    CarabinBidView,
    LogisticRule,
    auction,
    carabin_features,
    contract_result,
    fit_rule,
    thumb_policy,
)
from analysis.bidding.carabin_realplay import COUNTS, THRESHOLDS, _net, play_policy
from analysis.bidding.equilibrium import write_tables
from analysis.bidding.klabberjass import Estimate, proportion
from analysis.play import DEFAULT_SAMPLES, play_carabin
from analysis.studies import read_manifest, read_study
from solver.carabin import Call, Contract, Deal, check_players
from solver.errors import RulesError

if TYPE_CHECKING:
    import pandas as pd


def named_suit(left: int, right: int, turn_suit: int) -> int:
    """The suit a seat names in round 2: of the three suits other than ``turn_suit``,
    the one where he holds most cards, ties broken by more of its A, K, Q, then by the
    lower suit (the order :func:`analysis.bidding.carabin.thumb_policy` names by).

    >>> from solver.cards import parse_holding
    >>> named_suit(parse_holding(".AQ.K4."), parse_holding(".2.J3."), 0)  # spades turned up
    2
    >>> named_suit(parse_holding(".AQ.J4."), parse_holding("7.2.3."), 0)  # 3 and 3: honours
    1
    """
    others = [s for s in range(4) if s != turn_suit]
    return max(others, key=lambda s: (*carabin_features(left, right, s)[:2], -s))


_RESULTS = ("dd_made", "dd_chelem", "pimc_made", "undecided")

STUDY_COLUMNS = (
    "deal",
    "players",
    "cards",
    "turn",
    "probe_seat",
    "trump",
    "thumb_names",
    "thumb_round1_passed",
    *FEATURES,
    *_RESULTS,
)


def naming_params(params: dict[str, Any]) -> tuple[int, int, str, float | None]:
    """(players, samples, trick_order, time_limit) of the study's ``params``.

    Raises:
        RulesError: a value out of range (quoted).
    """
    players = check_players(int(params.get("players", 4)))
    samples = int(params.get("samples", DEFAULT_SAMPLES))
    if samples < 1:
        raise RulesError(f"invalid samples {samples} (at least 1)")
    order = str(params.get("trick_order", "alternate"))
    if order not in ("alternate", "left_then_right"):
        raise RulesError(f"invalid trick_order '{order}' (expected alternate or left_then_right)")
    limit = float(params.get("time_limit", 0))
    if not limit >= 0:
        raise RulesError(f"invalid time_limit {limit} (seconds, 0 for none)")
    return players, samples, order, (limit or None)


def naming_chunk(
    rng: random.Random, start: int, count: int, params: dict[str, Any]
) -> dict[str, list]:
    """The ``carabin-realplay-name`` study: ``count`` random deals, one row each.

    Seat ``deal % players`` names :func:`named_suit`. Columns (see docs/data.md): the
    deal (``cards``), the probed seat and the suit named (``trump``), whether the rule
    of thumb would name that suit in round 2 (``thumb_names``) and whether every seat
    passes round 1 by the rule of thumb (``thumb_round1_passed``: the auction would
    reach round 2), the seat's features for the suit named, and the contract's results
    double dummy (made, chelem) and by PIMC on every seat (made).
    """
    players, samples, order, limit = naming_params(params)
    cols: dict[str, list] = {k: [] for k in STUDY_COLUMNS}
    for i in range(count):
        deal = Deal.random(players=players, rng=random.Random(rng.getrandbits(64)))
        play_seed = rng.getrandbits(64)
        ts = deal.turn >> 4
        seat = (start + i) % players
        left, right = deal.hands[seat]
        suit = named_suit(left, right, ts)
        view = CarabinBidView(players, seat, (left, right), deal.turn)
        reached = auction(deal, thumb_policy)
        contract = Contract(seat, suit)
        made, chelem = contract_result(deal, seat, suit, order)
        policy = play_policy(play_seed, contract, samples, limit)
        pimc = play_carabin(deal, contract, [policy] * players, order).made
        row: dict[str, Any] = {
            "deal": start + i,
            "players": players,
            "cards": str(deal),
            "turn": deal.turn,
            "probe_seat": seat,
            "trump": suit,
            "thumb_names": thumb_policy(view, 2, None) == Call("name", suit),
            "thumb_round1_passed": reached is None or reached.trump != ts,
            **dict(zip(FEATURES, carabin_features(left, right, suit), strict=True)),
            "dd_made": made,
            "dd_chelem": chelem,
            "pimc_made": pimc,
            "undecided": policy.stats.undecided,
        }
        for k in STUDY_COLUMNS:
            cols[k].append(row[k])
    return cols


# ---------------------------------------------------------------- summaries


def naming_rates(df: pd.DataFrame) -> pd.DataFrame:
    """Make rate of the named contracts DD and PIMC (Wilson 95 %) and the paired
    difference PIMC − DD (normal 95 % interval over deals, one contract a deal), per
    players, seed and set: ``all`` (every probe), ``thumb`` (the rule of thumb names
    that suit), ``round1_passed`` (the rule of thumb passes round 1 on the deal)."""
    import pandas as pd

    rows = []
    both = pd.concat([df, df.assign(seed=0)], ignore_index=True)
    for name, query in (
        ("all", None),
        ("thumb", "thumb_names"),
        ("round1_passed", "thumb_round1_passed"),
    ):
        sub = both.query(query) if query else both
        for (n, seed), part in sub.groupby(["players", "seed"]):
            dd = part["dd_made"].astype(int)
            pm = part["pimc_made"].astype(int)
            a = proportion(int(dd.sum()), len(part))
            b = proportion(int(pm.sum()), len(part))
            diff = Estimate.of((pm - dd).tolist())
            rows.append(
                {
                    "players": n,
                    "seed": seed,
                    "set": name,
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
                    "undecided": int(part["undecided"].sum()),
                }
            )
    return pd.DataFrame(rows)


def naming_frame(df: pd.DataFrame, outcome: str = "pimc") -> pd.DataFrame:
    """The rows as a :func:`analysis.bidding.carabin.features_frame` of round 2 (the
    probed seat, ``made`` from ``outcome`` play: ``pimc`` or ``dd``; ``chelem`` from
    double dummy, unused by the naming rule)."""
    out = df[["deal", "players", "turn", "trump", *FEATURES]].copy()
    out["seat"] = df["probe_seat"]
    out["round"] = 2
    out["made"] = df[f"{outcome}_made"].astype(bool)
    out["chelem"] = df["dd_chelem"].astype(bool)
    out["count"] = df["trumps"] + df["honours"]
    return out


def _probabilities(weights: dict[str, tuple[float, ...]], frame: pd.DataFrame) -> list[float]:
    out = []
    for r in frame.itertuples(index=False):
        n = int(r.players)
        x = (1.0, *(float(getattr(r, f)) for f in FEATURES), int(r.seat) / (n - 1))
        z = sum(a * b for a, b in zip(weights[f"{n}-2"], x, strict=True))
        out.append(1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z)))))
    return out


def _measured(bids: list[bool], made: list[bool]) -> dict[str, Any]:
    """Bid rate, make rate (Wilson) and net a hand against passing (+1 made, −1
    failed, 0 pass) with its 95 % interval, of ``bids`` on hands whose named contract
    is ``made`` or not."""
    net = _net(bids, made)
    k = sum(bids)
    won = sum(m for b, m in zip(bids, made, strict=True) if b)
    pr = proportion(won, k)
    return {
        "bid_rate": k / len(bids) if bids else math.nan,
        "bids": k,
        "made": won,
        "make_rate": pr.mean,
        "make_low": pr.low,
        "make_high": pr.high,
        "net": net.mean,
        "net_low": net.low,
        "net_high": net.high,
    }


def fit_naming(train: pd.DataFrame, test: pd.DataFrame) -> dict[str, Any]:
    """Fit the round-2 naming rule on the ``train`` rows, measure it on ``test``.

    As for round 1 (:func:`analysis.bidding.carabin_realplay.fit_and_measure`), on PIMC
    outcomes: the count rule "name the suit of :func:`named_suit` when its trumps plus
    its A, K, Q number at least ``k``" (the ``k`` of :data:`COUNTS` with the best
    training net; 12 is never) and the logistic make-probability rule with the
    threshold of best training net. Each is measured on the held-out rows (all of them,
    and those where the rule of thumb passes round 1, where round 2 is reached), beside
    the rule of thumb's naming and passing (0).

    Returns per player count: the fitted ``count`` and ``threshold``, ``measured`` (per
    rule: bid rate, make rate, net a hand with its interval), ``measured_round1_passed``
    and the ``sentence``; and ``curve``, per count ``k`` the training and held-out net.
    """
    tr, te = naming_frame(train), naming_frame(test)
    rule = fit_rule(tr)
    made_w = {k: w for k, w in rule.made.items() if k.endswith("-2")}
    out: dict[str, Any] = {
        "rule": LogisticRule(
            made_w, {k: w for k, w in rule.chelem.items() if k.endswith("-2")}, rule.deals
        ).to_json(),
        "players": {},
        "curve": [],
    }
    tr = tr.assign(p=_probabilities(made_w, tr))
    te = te.assign(
        p=_probabilities(made_w, te),
        thumb=test["thumb_names"].astype(bool).to_numpy(),
        passed=test["thumb_round1_passed"].astype(bool).to_numpy(),
    )
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
        for key, rows in (("measured", held), ("measured_round1_passed", held[held["passed"]])):
            hm = rows["made"].tolist()
            res[key] = {
                "logistic": _measured((rows["p"] >= best_t).tolist(), hm),
                "count": _measured((rows["count"] >= best_k).tolist(), hm),
                "thumb": _measured(rows["thumb"].tolist(), hm),
            }
            res[key]["hands"] = len(rows)
        res["sentence"] = naming_sentence(int(n), res)
        out["players"][str(n)] = res
        for k in COUNTS[:-1]:
            a = _net((part["count"] >= k).tolist(), made)
            b = _net((held["count"] >= k).tolist(), held["made"].tolist())
            out["curve"].append(
                {
                    "players": int(n),
                    "count": k,
                    "train_net": a.mean,
                    "train_low": a.low,
                    "train_high": a.high,
                    "test_bid_rate": float((held["count"] >= k).mean()),
                    "test_net": b.mean,
                    "test_low": b.low,
                    "test_high": b.high,
                    "train_hands": len(part),
                    "test_hands": len(held),
                }
            )
    return out


def naming_sentence(players: int, res: dict[str, Any]) -> str:
    """The fitted naming rule in one sentence, from ``res`` (one player count of
    :func:`fit_naming`).

    >>> m = {"bids": 30, "bid_rate": 0.3, "make_rate": 0.6, "net": 0.06, "net_low": 0.01,
    ...      "net_high": 0.11}
    >>> naming_sentence(3, {"count": 6, "test_hands": 100, "measured": {"count": m}})
    ... # doctest: +NORMALIZE_WHITESPACE
    'At 3 players, in round 2 name your longest other suit when its cards plus its A, K
    and Q number 6 or more (held out: names in 30% of hands, makes 60%, net +0.06 [+0.01,
    +0.11] a hand against passing, 100 hands).'
    >>> naming_sentence(4, {"count": 12, "test_hands": 80, "measured": {"count": m}})
    ... # doctest: +NORMALIZE_WHITESPACE
    'At 4 players, do not name a suit in round 2: no count of cards plus A, K and Q in the
    suit gained against passing on the training hands (held out: 80 hands).'
    """
    m = res["measured"]["count"]
    if res["count"] > 11:
        return (
            f"At {players} players, do not name a suit in round 2: no count of cards plus A, K "
            f"and Q in the suit gained against passing on the training hands (held out: "
            f"{res['test_hands']} hands)."
        )
    if not m["bids"]:
        return (
            f"At {players} players, in round 2 name your longest other suit only when its "
            f"cards plus its A, K and Q number {res['count']} or more (held out: none of "
            f"{res['test_hands']} hands did, so the rule is untested)."
        )
    return (
        f"At {players} players, in round 2 name your longest other suit when its cards plus "
        f"its A, K and Q number {res['count']} or more (held out: names in "
        f"{m['bid_rate']:.0%} of hands, makes {m['make_rate']:.0%}, net {m['net']:+.2f} "
        f"[{m['net_low']:+.2f}, {m['net_high']:+.2f}] a hand against passing, "
        f"{res['test_hands']} hands)."
    )


def _split(df: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame, str]:
    seeds = sorted(df["seed"].unique())
    if len(seeds) < 2:
        raise ValueError(
            f"the naming rule is fitted on one seed and measured on another: got seed(s) {seeds}"
        )
    first = df["seed"] == seeds[0]
    how = f"fitted on seed {seeds[0]}, measured on seed(s) " + ", ".join(map(str, seeds[1:]))
    return df[first], df[~first], how


def naming_tables(frames: list[pd.DataFrame]) -> dict[str, Any]:
    """The ``carabin-realplay-name`` summary from studies (each frame one study, with a
    ``seed`` column; two seeds at least).

    Returns:
        ``rates`` (:func:`naming_rates`), ``curve`` (the net of each count, training
        and held out), ``rule`` (:func:`fit_naming` plus the count a DD fit would choose,
        measured on PIMC) and ``summary`` (per player count: deals per seed, the
        fitted count, the sentence).
    """
    import pandas as pd

    df = pd.concat(frames, ignore_index=True)
    train, test, how = _split(df)
    fitted = fit_naming(train, test)
    dd_tr, te = naming_frame(train, "dd"), naming_frame(test)
    for n, part in dd_tr.groupby("players"):
        made = part["made"].tolist()
        k = max(COUNTS, key=lambda k: (_net((part["count"] >= k).tolist(), made).mean, k))
        held = te[te["players"] == n]
        fitted["players"][str(n)]["dd_fit"] = {
            "count": k,
            **_measured((held["count"] >= k).tolist(), held["made"].tolist()),
        }
    fitted["split"] = how
    curve = pd.DataFrame(fitted.pop("curve"))
    summary = {
        str(n): {
            "deals": {
                str(s): int((part["seed"] == s).sum()) for s in sorted(part["seed"].unique())
            },
            "count": fitted["players"][str(n)]["count"],
            "sentence": fitted["players"][str(n)]["sentence"],
        }
        for n, part in df.groupby("players")
    }
    return {"rates": naming_rates(df), "curve": curve, "rule": fitted, "summary": summary}


def regenerate_commands(manifests: list[dict[str, Any]], out: str) -> list[str]:
    """The commands that rebuild the study folders (under ``runs/``) and the summary."""
    cmds, dirs = [], []
    for m in manifests:
        p = m["params"]
        d = f"runs/carabin-realplay-name/p{p['players']}-s{m['seed']}"
        dirs.append(d)
        params = " ".join(f"--param {k}={v}" for k, v in p.items())
        cmds.append(
            f"tricklab study carabin-realplay-name --deals {m['deals']} --seed {m['seed']} "
            f"--out {d} --workers 1 {params}"
        )
    cmds.append(f"python -m analysis.bidding.carabin_naming {out} {' '.join(dirs)}")
    return cmds


#: The published naming study, whose ``rule.json`` :func:`realplay_name_policy` follows.
PUBLISHED = "data/studies/carabin-realplay-name"
_RULE = Path(__file__).resolve().parents[2] / PUBLISHED / "rule.json"
_MARKS: dict[str, Any] = {}


def naming_mark(players: int) -> int | None:
    """The count (cards plus A, K, Q of the suit) from which the published naming rule
    names a suit at ``players`` (None: no rule for that count, or 12: never).

    >>> naming_mark(3)
    6
    """
    if not _MARKS:
        rules = json.loads(_RULE.read_text())["players"]
        _MARKS.update({n: int(r["count"]) for n, r in rules.items()})
    return _MARKS.get(str(players))


def realplay_name_policy(view: CarabinBidView, round_: int, standing: Contract | None) -> Call:
    """The real-play rules of both rounds as an auction policy (``realplay-name`` in
    :data:`analysis.bidding.carabin.POLICIES`): round 1 as
    :func:`analysis.bidding.carabin_realplay.realplay_policy` (take the turn-up suit when
    its count reaches the mark), round 2 as the naming rule of the
    ``carabin-realplay-name`` study (:func:`naming_mark`): name the suit of
    :func:`named_suit` when its cards plus its A, K and Q reach the player count's mark,
    else pass. Never a chelem.

    >>> v = CarabinBidView.parse("players=3 seat=1 hand=.AKQ2../.97.3.2 turn=5S")
    >>> str(realplay_name_policy(v, 1, None)), str(realplay_name_policy(v, 2, None))
    ('pass', 'H')
    >>> str(realplay_name_policy(v, 2, Contract(0, 2)))
    'pass'
    """
    from analysis.bidding.carabin_realplay import realplay_policy

    if round_ == 1:
        return realplay_policy(view, round_, standing)
    if standing is not None:
        return Call("pass")
    suit = named_suit(view.hand[0], view.hand[1], view.turn >> 4)
    mark = naming_mark(view.players)
    trumps, honours = carabin_features(view.hand[0], view.hand[1], suit)[:2]
    return Call("name", suit) if mark is not None and trumps + honours >= mark else Call("pass")


def main(argv: list[str] | None = None) -> int:
    """``python -m analysis.bidding.carabin_naming OUT_DIR STUDY_DIR...``: the summary
    tables (``rates.csv``, ``curve.csv``, ``rule.json``, ``summary.json`` with the
    studies' manifests and commands) from ``carabin-realplay-name`` study folders of two
    seeds or more (the first seed fits, the others measure)."""

    args = sys.argv[1:] if argv is None else argv
    if len(args) < 2:
        print(
            "usage: python -m analysis.bidding.carabin_naming OUT_DIR STUDY_DIR...", file=sys.stderr
        )
        return 2
    out = Path(args[0])
    frames, manifests = [], []
    for d in args[1:]:
        manifest = read_manifest(d)
        if manifest.get("study") != "carabin-realplay-name":
            print(
                f"{d}: not a carabin-realplay-name study ({manifest.get('study')})", file=sys.stderr
            )
            return 2
        manifests.append(manifest)
        frames.append(read_study(d).assign(seed=int(manifest["seed"])))
    try:
        tables = naming_tables(frames)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    rule = tables.pop("rule")
    tables["play_models"] = {
        "dd": "double dummy: every seat sees every card (the clairvoyant bound)",
        "pimc": "PIMC on every seat: each chooses from its own information, samples worlds a "
        "decision; the bidder for the contract, the others against",
    }
    tables["rule_from"] = "pimc (named-suit probes: " + rule["split"] + ")"
    tables["studies"] = manifests
    tables["commands"] = regenerate_commands(manifests, str(out))
    write_tables(tables, out)
    (out / "rule.json").write_text(json.dumps(rule, indent=1) + "\n")
    print(json.dumps(tables["summary"], indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


__all__ = [
    "PUBLISHED",
    "STUDY_COLUMNS",
    "fit_naming",
    "named_suit",
    "naming_mark",
    "naming_chunk",
    "naming_frame",
    "naming_params",
    "naming_rates",
    "naming_sentence",
    "naming_tables",
    "realplay_name_policy",
]
