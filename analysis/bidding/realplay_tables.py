"""Klabberjass bidding with real card play beside double dummy: notebook 02's tables.

The ``klabberjass-realplay`` study gives, for every deal, the net of each of the 8
contracts twice: played double dummy (DD, both players see every card: the
clairvoyant bound) and played by PIMC on both sides (each player from his own
information). The bidding game of :mod:`analysis.bidding.equilibrium` is solved on each
payoff, **on the same deals**, and everything is measured on held-out deals:

- **the bias**: the bidder's net under PIMC minus DD, by contract kind (intervals over
  deals, so the 8 contracts of a deal count as one cluster);
- **the two equilibria**: fitted on the first half of the deals (estimate, hand
  classes, sequence-form LP), the rule in words, the value of the game for E;
- **head to head on the held-out half, scored with real-play (PIMC) payoffs**: the
  rule derived from real play against the one derived from double dummy, the greedy
  rule and the rule of thumb (each seat played equally often, paired by deal);
- **exploitability**: how much each seat gains by a best response to the other's
  equilibrium strategy. The best response is fitted on one half of the held-out deals
  and measured on the other, then the halves are swapped (cross-fitting), so the
  figure is not flattered by fitting and scoring on the same deals. The sum of both
  seats' gains is the equilibrium's exploitability (0 for an exact equilibrium of the
  real game);
- **the scorecard** (:mod:`analysis.bidding.scorecard`): the real-play rule as a point
  count, and what it loses against the equilibrium.

``python -m analysis.bidding.realplay_tables STUDY_DIR [STUDY_DIR ...] OUT_DIR``
writes the tables of each study folder (one run: a seed of a set of rules) to
``OUT_DIR``, every table with ``seed`` and ``rules`` columns; :func:`findings` gives each
figure for every run, so each set of rules is read beside its second seed. The published
tables (``data/studies/klabberjass-realplay``) hold the seed rules and the classic rules,
seeds 1 and 2 of each (the commands are in ``summary.json``).
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from analysis.bidding.equilibrium import (
    Classifier,
    DealArrays,
    Decisions,
    Equilibrium,
    Policy,
    deal_arrays,
    describe_rule,
    equilibrium_policy,
    expected_e_net,
    greedy_policy,
    head_to_head,
    interval,
    make_classifier,
    solve_bidding_game,
    split,
    thumb_policy,
)
from analysis.bidding.klabberjass import column
from analysis.studies import read_manifest, read_study

PLAYS = ("dd", "pimc")
#: Where the published tables live (writing there also updates the packaged scorecard).
PUBLISHED = "data/studies/klabberjass-realplay"


def with_classifier(policy: Policy, classifier: Classifier) -> Policy:
    """``policy`` reading hands with its own ``classifier`` whatever it is given, so
    rules fitted on different payoffs can meet on the same deals."""

    def bound(arrays: DealArrays, _other: Classifier) -> Decisions:
        return policy(arrays, classifier)

    return bound


@dataclass(frozen=True)
class Fitted:
    """A bidding game solved on one payoff (``dd`` or ``pimc``) of the training deals."""

    play: str
    classifier: Classifier
    eq: Equilibrium

    @property
    def policy(self) -> Policy:
        """The equilibrium as a policy with its own hand classes."""
        return with_classifier(equilibrium_policy(self.eq), self.classifier)


def fit(arrays: DealArrays, play: str) -> Fitted:
    """Estimate, classes and equilibrium on ``arrays`` (the training deals)."""
    classifier = make_classifier(arrays)
    return Fitted(play, classifier, solve_bidding_game(arrays, classifier))


# ---------------------------------------------------------------- best responses


def _classes(arrays: DealArrays, classifier: Classifier) -> np.ndarray:
    return classifier.classify(arrays)[0]


def best_response(arrays: DealArrays, fitted: Fitted, seat: int) -> Policy:
    """The best pure response of ``seat`` (0 E, 1 D) to the other seat's equilibrium
    strategy, per hand class, on ``arrays`` (class of the responder by the same
    classifier as the equilibrium). The other seat keeps its equilibrium decisions.

    E chooses per class among take / pass then name / pass twice; D (after E passed)
    among take / pass then name / pass twice, minimising E's net.
    """
    eq, c = fitted.eq, fitted.classifier
    k = c.classes
    dec = equilibrium_policy(eq)(arrays, c)
    cls = _classes(arrays, c)[:, seat]
    n = len(arrays)
    i = np.arange(n)
    ts = arrays.turn_suit
    v1 = arrays.net[i, 0, ts].astype(float)
    v2 = -arrays.net[i, 1, ts].astype(float)
    v3 = arrays.net[i, 0, dec.suit[:, 0]].astype(float)
    v4 = -arrays.net[i, 1, dec.suit[:, 1]].astype(float)
    if seat == 0:
        td, nd = dec.take[:, 1], dec.name[:, 1]
        options = np.stack(
            [v1, td * v2 + (1 - td) * v3, td * v2 + (1 - td) * nd * v4], axis=1
        )  # take, pass+name, pass+pass
        sign = 1.0
    else:
        te, ne = dec.take[:, 0], dec.name[:, 0]
        options = np.stack(
            [
                te * v1 + (1 - te) * v2,
                te * v1 + (1 - te) * (ne * v3 + (1 - ne) * v4),
                te * v1 + (1 - te) * ne * v3,
            ],
            axis=1,
        )  # take, pass+name, pass+pass (E's net)
        sign = -1.0
    totals = np.zeros((k, 3))
    np.add.at(totals, cls, sign * options)
    choice = totals.argmax(axis=1)  # per class; 0 where a class is unseen (take)
    take_c = (choice == 0).astype(float)
    name_c = (choice == 1).astype(float)

    def policy(a: DealArrays, _other: Classifier) -> Decisions:
        base = equilibrium_policy(eq)(a, c)
        cl = _classes(a, c)[:, seat]
        take = base.take.copy()
        name = base.name.copy()
        take[:, seat] = take_c[cl]
        name[:, seat] = name_c[cl]
        return Decisions(take, name, base.suit)

    return policy


def exploitability(arrays: DealArrays, fitted: Fitted) -> dict[str, tuple[float, float, float]]:
    """Each seat's gain from a best response to the other's equilibrium strategy on
    held-out ``arrays``, cross-fitted (fit on one half, measure on the other, both ways),
    and their sum, as (mean, low, high) points a deal."""
    n = len(arrays)
    halves = (np.arange(n) < n // 2, np.arange(n) >= n // 2)
    eq_policy = fitted.policy
    gains: dict[str, list[np.ndarray]] = {"E": [], "D": [], "total": []}
    for fit_on, score_on in (halves, halves[::-1]):
        part_fit, part = arrays.subset(fit_on), arrays.subset(score_on)
        base = expected_e_net(part, eq_policy(part, None), eq_policy(part, None))  # type: ignore[arg-type]
        ge = (
            expected_e_net(
                part,
                best_response(part_fit, fitted, 0)(part, None),  # type: ignore[arg-type]
                eq_policy(part, None),  # type: ignore[arg-type]
            )
            - base
        )
        dec_d = best_response(part_fit, fitted, 1)(part, None)  # type: ignore[arg-type]
        gd = base - expected_e_net(part, eq_policy(part, None), dec_d)  # type: ignore[arg-type]
        gains["E"].append(ge)
        gains["D"].append(gd)
        gains["total"].append(ge + gd)
    return {k: interval(np.concatenate(v)) for k, v in gains.items()}


# ---------------------------------------------------------------- bias


def bias_table(df) -> list[dict[str, Any]]:
    """The bidder's net under PIMC minus double dummy, per contract kind, with the
    mean of each and a 95 % interval over deals (a deal's contracts are averaged first
    where a kind holds several)."""
    turn_suit = df["turn"].to_numpy() >> 4
    n = len(df)
    i = np.arange(n)

    def nets(kind: str) -> np.ndarray:
        return np.stack(
            [
                np.stack([df[column(f"{kind}_net", b, t)].to_numpy() for t in range(4)], axis=1)
                for b in (0, 1)
            ],
            axis=1,
        ).astype(float)  # (n, 2, 4)

    dd, pi = nets("dd"), nets("pimc")
    rows = []
    other = np.ones((n, 4), dtype=bool)
    other[i, turn_suit] = False
    kinds = {
        "all contracts": (np.ones((n, 2, 4), dtype=bool)),
        "E takes the turn-up suit": _mask(n, 0, turn_suit),
        "D takes the turn-up suit": _mask(n, 1, turn_suit),
        "E names another suit": np.stack([other, np.zeros_like(other)], axis=1),
        "D names another suit": np.stack([np.zeros_like(other), other], axis=1),
    }
    for name, mask in kinds.items():
        cnt = mask.sum(axis=(1, 2))
        per_dd = (dd * mask).sum(axis=(1, 2)) / cnt
        per_pi = (pi * mask).sum(axis=(1, 2)) / cnt
        m_dd, _, _ = interval(per_dd)
        m_pi, _, _ = interval(per_pi)
        d, lo, hi = interval(per_pi - per_dd)
        rows.append(
            {
                "contracts": name,
                "deals": n,
                "dd_net": m_dd,
                "pimc_net": m_pi,
                "difference": d,
                "low": lo,
                "high": hi,
            }
        )
    return rows


def _mask(n: int, seat: int, turn_suit: np.ndarray) -> np.ndarray:
    m = np.zeros((n, 2, 4), dtype=bool)
    m[np.arange(n), seat, turn_suit] = True
    return m


# ---------------------------------------------------------------- tables


def seed_tables(df) -> dict[str, Any]:
    """Every figure of one study folder (one seed): see the module docstring."""
    from analysis.bidding import scorecard

    arrays = {p: deal_arrays(df, f"{p}_net") for p in PLAYS}
    train = {p: split(arrays[p])[0] for p in PLAYS}
    test = {p: split(arrays[p])[1] for p in PLAYS}
    fitted = {p: fit(train[p], p) for p in PLAYS}
    card = scorecard.fit_scorecard(train["pimc"], fitted["pimc"])
    real = test["pimc"]  # real-play payoffs on held-out deals: the judge of every rule
    policies: dict[str, Policy] = {
        "real-play equilibrium": fitted["pimc"].policy,
        "double-dummy equilibrium": fitted["dd"].policy,
        "scorecard": card.policy,
        "greedy (real-play estimate)": with_classifier(greedy_policy, fitted["pimc"].classifier),
        "rule of thumb": thumb_policy,
    }
    h2h = []
    names = list(policies)
    for a_i, a in enumerate(names):
        for b in names[a_i + 1 :]:
            for p in PLAYS:
                m, lo, hi = head_to_head(test[p], None, policies[a], policies[b])  # type: ignore[arg-type]
                h2h.append(
                    {
                        "policy": a,
                        "against": b,
                        "payoffs": p,
                        "gain": m,
                        "low": lo,
                        "high": hi,
                        "deals": len(test[p]),
                    }
                )
    expl = []
    for p in PLAYS:  # each equilibrium against best responses on its own payoffs
        for seat, (m, lo, hi) in exploitability(test[p], fitted[p]).items():
            expl.append(
                {
                    "equilibrium": p,
                    "payoffs": p,
                    "best_response_of": seat,
                    "gain": m,
                    "low": lo,
                    "high": hi,
                    "deals": len(test[p]),
                }
            )
    # the double-dummy rule at a real table: exploitable by a real-play best response
    ex = exploitability(real, Fitted("dd", fitted["dd"].classifier, fitted["dd"].eq))
    for seat, (m, lo, hi) in ex.items():
        expl.append(
            {
                "equilibrium": "dd",
                "payoffs": "pimc",
                "best_response_of": seat,
                "gain": m,
                "low": lo,
                "high": hi,
                "deals": len(real),
            }
        )
    held_out_value = {}
    for p in PLAYS:
        pol = fitted[p].policy
        v = expected_e_net(real, pol(real, None), pol(real, None))  # type: ignore[arg-type]
        held_out_value[p] = interval(v)
    return {
        "bias": bias_table(df),
        "head_to_head": h2h,
        "exploitability": expl,
        "rule_words": {p: describe_rule(fitted[p].eq) for p in PLAYS},
        "game_value": {p: fitted[p].eq.value for p in PLAYS},
        "held_out_value_real_play": held_out_value,
        "scorecard": card.as_dict(),
        "scorecard_words": card.words(),
        "rule": {p: _rule_rows(fitted[p].eq) for p in PLAYS},
        "deals": len(df),
        "train": len(train["pimc"]),
        "test": len(real),
    }


def _rule_rows(eq: Equilibrium) -> list[dict[str, Any]]:
    from analysis.bidding.equilibrium import rule_table

    return rule_table(eq).to_dict(orient="records")


def realplay_tables(folders: Sequence[str | Path]) -> dict[str, Any]:
    """:func:`seed_tables` of each study folder, with its manifest, and the tables
    stacked with a ``seed`` column (pandas DataFrames)."""
    import pandas as pd

    per_seed = []
    for folder in folders:
        manifest = read_manifest(folder)
        df = read_study(folder)
        if not (df["deal"].to_numpy() == np.arange(len(df))).all():
            raise ValueError(f"{folder}: the deals read are not 0 to {len(df) - 1} in order")
        t = seed_tables(df)
        t["study"] = {k: manifest[k] for k in ("study", "params", "seed", "chunk_size")}
        # the deals read: a folder stopped early holds exactly what `--deals` this many makes
        t["study"]["deals"] = len(df)
        t["folder"] = str(folder)
        per_seed.append(t)
    out: dict[str, Any] = {"seeds": per_seed}
    for key in ("bias", "head_to_head", "exploitability"):
        frames = []
        for t in per_seed:
            f = pd.DataFrame(t[key])
            f.insert(0, "rules", rules_of_study(t))
            f.insert(0, "seed", t["study"]["seed"])
            frames.append(f)
        out[key] = pd.concat(frames, ignore_index=True)
    rules = []
    for t in per_seed:
        for p in PLAYS:
            f = pd.DataFrame(t["rule"][p])
            f.insert(0, "payoffs", p)
            f.insert(0, "rules", rules_of_study(t))
            f.insert(0, "seed", t["study"]["seed"])
            rules.append(f)
    out["rule"] = pd.concat(rules, ignore_index=True)
    return out


def write(
    tables: dict[str, Any], out: str | Path, command: str, package_copy: bool = False
) -> None:
    """CSV for the stacked tables, ``summary.json`` for the rest (per seed),
    ``scorecard.json`` the scorecards (and, with ``package_copy``, the copy that ships
    with the package, :data:`analysis.bidding.scorecard.SCORECARD`)."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    for key in ("bias", "head_to_head", "exploitability", "rule"):
        tables[key].to_csv(out / f"{key}.csv", index=False, float_format="%.4g")
    seeds = []
    for t in tables["seeds"]:
        seeds.append(
            {
                k: v
                for k, v in t.items()
                if k not in ("bias", "head_to_head", "exploitability", "rule")
            }
        )
    summary = {"command": command, "study_commands": study_commands(tables), "seeds": seeds}
    (out / "summary.json").write_text(json.dumps(summary, indent=1, default=_json) + "\n")
    cards = {
        "command": command,
        "scorecards": [
            {
                "seed": t["study"]["seed"],
                "rules": rules_of_study(t),
                "words": t["scorecard_words"],
                **t["scorecard"],
            }
            for t in tables["seeds"]
        ],
    }
    text = json.dumps(cards, indent=1) + "\n"
    (out / "scorecard.json").write_text(text)
    if package_copy:
        from analysis.bidding.scorecard import SCORECARD

        SCORECARD.write_text(text)


def study_commands(tables: dict[str, Any]) -> list[str]:
    """The ``tricklab study`` commands that make exactly the rows of each seed."""
    out = []
    for t in tables["seeds"]:
        st = t["study"]
        params = "".join(
            f" --param {k}={v}"
            for k, v in sorted(st["params"].items())
            if (k, v) != ("rules", "seed")
        )
        out.append(
            f"tricklab study {st['study']} --deals {st['deals']} --seed {st['seed']}{params} "
            f"--out {t.get('folder', 'DIR')}"
        )
    return out


def _json(x: Any) -> Any:
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, np.ndarray):
        return x.tolist()
    raise TypeError(f"not JSON: {type(x).__name__}")


def read(folder: str | Path) -> dict[str, Any]:
    """The tables written by :func:`write` (CSV as DataFrames, ``summary`` as a dict)."""
    import pandas as pd

    folder = Path(folder)
    out: dict[str, Any] = {"summary": json.loads((folder / "summary.json").read_text())}
    for p in sorted(folder.glob("*.csv")):
        out[p.stem] = pd.read_csv(p)
    return out


def fmt(m: float, lo: float, hi: float, unit: str = "") -> str:
    """``+1.2 [+0.3, +2.1]`` (with ``unit`` after the mean).

    >>> fmt(1.23, 0.3, 2.1, " points")
    '+1.2 points [+0.3, +2.1]'
    """
    return f"{m:+.1f}{unit} [{lo:+.1f}, {hi:+.1f}]"


def _row(frame, **where: Any):
    sel = frame
    for k, v in where.items():
        sel = sel[sel[k] == v]
    if len(sel) != 1:
        raise KeyError(f"{len(sel)} rows for {where}")
    return sel.iloc[0]


def rules_of_study(t: dict[str, Any]) -> str:
    """The rules preset of one seed's tables (``seed`` unless the study said otherwise)."""
    return str(t["study"]["params"].get("rules", "seed"))


def run_label(rules: str, seed: int) -> str:
    """``seed 2``, or ``classic rules, seed 1`` for other rules than the seed rules."""
    return f"seed {seed}" if rules == "seed" else f"{rules} rules, seed {seed}"


def _runs(frame) -> list[tuple[str, int]]:
    pairs = {(str(r), int(s)) for r, s in zip(frame["rules"], frame["seed"], strict=True)}
    return sorted(pairs, key=lambda p: (p[0] != "seed", p[0], p[1]))


def _by_seed(frame, what: str, **where: Any) -> str:
    """One figure on every run: ``+1.2 [..] (seed 1), +0.9 [..] (seed 2)``."""
    parts = []
    for rules, seed in _runs(frame):
        r = _row(frame, seed=seed, rules=rules, **where)
        parts.append(f"{fmt(r[what], r['low'], r['high'])} ({run_label(rules, seed)})")
    return ", ".join(parts)


def _share_words(h2h, rules: str, seed: int) -> str:
    """The scorecard's gain over the rule of thumb as a share of the real-play
    equilibrium's (real-play payoffs), when the equilibrium's gain is measurable."""
    where = {"seed": seed, "rules": rules, "against": "rule of thumb", "payoffs": "pimc"}
    card = _row(h2h, policy="scorecard", **where)
    eq = _row(h2h, policy="real-play equilibrium", **where)
    label = run_label(rules, seed)
    if eq["low"] <= 0:
        return f"not measurable, the equilibrium's own gain holds 0 ({label})"
    return f"{card['gain'] / eq['gain']:.0%} ({label})"


#: The scorecard's budget: it may give up at most this fraction of the equilibrium's
#: value (the value of the game for E with real play, training deals), judged by the
#: upper end of the 95 % interval of its loss against the equilibrium on held-out deals.
SCORECARD_BUDGET = 0.25


def scorecard_budget(tables: dict[str, Any]) -> dict[tuple[str, int], float]:
    """Per run (rules, seed): the upper end of the 95 % interval of what the scorecard
    gives up against the real-play equilibrium (real-play payoffs, held-out deals), as a
    fraction of the equilibrium's value; within budget when at most
    :data:`SCORECARD_BUDGET` (infinite, so over, when that value is not positive)."""
    h2h = tables["head_to_head"]
    value = {
        (rules_of_study(s), int(s["study"]["seed"])): s["game_value"]["pimc"]
        for s in tables["summary"]["seeds"]
    }
    out = {}
    for rules, seed in _runs(h2h):
        loss = _row(
            h2h,
            seed=seed,
            rules=rules,
            policy="real-play equilibrium",
            against="scorecard",
            payoffs="pimc",
        )
        v = value[(rules, seed)]
        out[(rules, seed)] = max(0.0, float(loss["high"])) / v if v > 0 else math.inf
    return out


def _budget_words(tables: dict[str, Any]) -> str:
    shares = scorecard_budget(tables)
    over = [run_label(r, s) for (r, s), f in shares.items() if f > SCORECARD_BUDGET]
    verdict = (
        "within the budget on every run" if not over else "over the budget on " + ", ".join(over)
    )
    return (
        f"**The scorecard's budget**: it may give up at most {SCORECARD_BUDGET:.0%} of the "
        "equilibrium's value (the value of the game for E with real play). The upper end "
        "of its loss's 95 % interval is "
        + ", ".join(
            (f"{f:.0%} of that value" if f < math.inf else "beyond a value that is not positive")
            + f" ({run_label(r, s)})"
            for (r, s), f in shares.items()
        )
        + f": {verdict}."
    )


def agreement(frame, what: str, rules: str, **where: Any) -> str:
    """Whether one figure of ``rules`` is measurable (its interval clear of 0) on every
    seed of those rules, in the same direction.

    >>> import pandas as pd
    >>> f = pd.DataFrame({"seed": [1, 2], "rules": ["seed"] * 2, "gain": [2.0, 0.5],
    ...                   "low": [1.0, -0.4], "high": [3.0, 1.4]})
    >>> agreement(f, "gain", "seed")
    'measurable on seed 1 only'
    """
    rows = frame[frame["rules"] == rules]
    for k, v in where.items():
        rows = rows[rows[k] == v]
    rows = rows.sort_values("seed")
    signs = [int(r.low > 0) - int(r.high < 0) for r in rows.itertuples()]
    seeds = [int(x) for x in rows["seed"]]
    if len(seeds) < 2:
        return f"on one seed only (seed {', '.join(map(str, seeds))}), not replicated"
    if all(x == 0 for x in signs):
        return "measurable on no seed"
    if all(x == signs[0] for x in signs):
        return f"measurable on every seed ({'above' if signs[0] > 0 else 'below'} 0)"
    if 1 in signs and -1 in signs:
        return "measurable on several seeds but in opposite directions"
    found = [str(s) for s, x in zip(seeds, signs, strict=True) if x != 0]
    return f"measurable on seed {', '.join(found)} only"


#: The headline figures whose replication on a second seed :func:`findings` states.
HEADLINES = (
    ("the bias of double-dummy play", "bias", "difference", {"contracts": "all contracts"}),
    (
        "the real-play rule over the double-dummy rule",
        "head_to_head",
        "gain",
        {"policy": "real-play equilibrium", "against": "double-dummy equilibrium"},
    ),
    (
        "the real-play equilibrium over the rule of thumb",
        "head_to_head",
        "gain",
        {"policy": "real-play equilibrium", "against": "rule of thumb"},
    ),
    (
        "the scorecard over the rule of thumb",
        "head_to_head",
        "gain",
        {"policy": "scorecard", "against": "rule of thumb"},
    ),
    (
        "the equilibrium over the scorecard",
        "head_to_head",
        "gain",
        {"policy": "real-play equilibrium", "against": "scorecard"},
    ),
)


def _replication(tables: dict[str, Any]) -> str:
    """One sentence: each headline's replication on the second seed, per set of rules."""
    parts = []
    for rules in dict.fromkeys(r for r, _ in _runs(tables["bias"])):
        said = []
        for name, table, what, where in HEADLINES:
            extra = {"payoffs": "pimc"} if table == "head_to_head" else {}
            said.append(f"{name}: {agreement(tables[table], what, rules, **where, **extra)}")
        parts.append(f"{rules} rules: " + "; ".join(said))
    return (
        "**Replication on the second seed** (measurable: the 95 % interval clear of 0; "
        "rules compared on held-out deals with real-play payoffs): "
        + ". ".join(p[0].upper() + p[1:] for p in parts)
        + "."
    )


def findings(tables: dict[str, Any]) -> list[str]:
    """Notebook 02's findings as sentences computed from the tables (as read by
    :func:`read`), so the words cannot drift from the numbers."""
    bias, h2h, ex = tables["bias"], tables["head_to_head"], tables["exploitability"]
    seeds = tables["summary"]["seeds"]
    deals = ", ".join(
        f"{s['deals']:,} deals ({run_label(rules_of_study(s), s['study']['seed'])})" for s in seeds
    )
    out = [
        f"Data: {deals}; each rule fitted on the first half of its seed's deals and "
        "judged on the other half. Intervals are 95 %, over deals.",
        "**The bias of double-dummy play.** The bidder's net with real play (PIMC) minus "
        "double dummy, points a contract: all contracts "
        + _by_seed(bias, "difference", contracts="all contracts")
        + "; E taking the turn-up suit "
        + _by_seed(bias, "difference", contracts="E takes the turn-up suit")
        + "; D taking it "
        + _by_seed(bias, "difference", contracts="D takes the turn-up suit")
        + ".",
        "**Value of the game for E** (equilibrium, training deals): "
        + ", ".join(
            f"{s['game_value']['pimc']:+.1f} with real play against "
            f"{s['game_value']['dd']:+.1f} double dummy "
            f"({run_label(rules_of_study(s), s['study']['seed'])})"
            for s in seeds
        )
        + "; on the held-out deals, E's net when both seats bid by the real-play "
        "equilibrium and play by PIMC: "
        + ", ".join(
            f"{fmt(*s['held_out_value_real_play']['pimc'])} "
            f"({run_label(rules_of_study(s), s['study']['seed'])})"
            for s in seeds
        )
        + ".",
        "**The rule derived from real play against the one derived from double dummy**, "
        "both judged with real-play payoffs on held-out deals (points a deal): "
        + _by_seed(
            h2h,
            "gain",
            policy="real-play equilibrium",
            against="double-dummy equilibrium",
            payoffs="pimc",
        )
        + ".",
        "**Against the Jass/Menel rule of thumb** (real-play payoffs, held out): the "
        "real-play equilibrium gains "
        + _by_seed(
            h2h, "gain", policy="real-play equilibrium", against="rule of thumb", payoffs="pimc"
        )
        + "; the scorecard gains "
        + _by_seed(h2h, "gain", policy="scorecard", against="rule of thumb", payoffs="pimc")
        + ".",
        "**What the scorecard gives up** against the real-play equilibrium (real-play "
        "payoffs, held out): "
        + _by_seed(h2h, "gain", policy="real-play equilibrium", against="scorecard", payoffs="pimc")
        + " points a deal. Its gain over the rule of thumb, as a share of the "
        "equilibrium's: "
        + ", ".join(_share_words(h2h, rules, seed) for rules, seed in _runs(h2h))
        + ".",
        _budget_words(tables),
        "**Exploitability** of the real-play equilibrium (both seats' best responses "
        "within the hand classes, cross-fitted on held-out deals, points a deal): "
        + _by_seed(ex, "gain", equilibrium="pimc", payoffs="pimc", best_response_of="total")
        + "; of the double-dummy rule at a real table: "
        + _by_seed(ex, "gain", equilibrium="dd", payoffs="pimc", best_response_of="total")
        + ".",
        _replication(tables),
    ]
    return out


def main(argv: list[str] | None = None) -> int:
    """``python -m analysis.bidding.realplay_tables STUDY_DIR [STUDY_DIR ...] OUT_DIR``."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) < 2:
        print(
            "usage: python -m analysis.bidding.realplay_tables STUDY_DIR [STUDY_DIR ...] OUT_DIR",
            file=sys.stderr,
        )
        return 2
    *folders, out = args
    command = "python -m analysis.bidding.realplay_tables " + " ".join(args)
    tables = realplay_tables(folders)
    published = Path(out).resolve() == (Path(__file__).resolve().parents[2] / PUBLISHED)
    write(tables, out, command, package_copy=published)
    for t in tables["seeds"]:
        print(f"{run_label(rules_of_study(t), t['study']['seed'])}: {t['rule_words']['pimc']}")
        print(f"  scorecard: {t['scorecard_words']}")
    return 0


__all__ = [
    "Fitted",
    "agreement",
    "findings",
    "fmt",
    "best_response",
    "bias_table",
    "exploitability",
    "fit",
    "read",
    "realplay_tables",
    "seed_tables",
    "with_classifier",
    "write",
]

if __name__ == "__main__":
    raise SystemExit(main())
