"""When should the bidder sink points (decline his sequences and Bella)?

A bate bidder hands everything he declared to the opponent (docs/rules-klabberjass.md), so with a thin
margin he may do better to declare nothing. Two ways to decide:

- **Double dummy** (the deal table): the bidder sees every card and declares the
  subset that maximises his net. The ``sink_*`` columns of the ``klabberjass-bidding``
  study give what that is worth over always declaring everything.
- **From the bidder's information** (:func:`sinking_chunk`, the ``klabberjass-sinking``
  study): before the first trick he knows his nine cards, the trump and the turn-up;
  the opponent's nine cards are any nine of the 22 unseen cards. He samples
  ``samples`` such worlds (uniformly: inferences from the bidding are ignored), solves
  each double dummy, and picks the declaration with the best mean net. The chosen
  declaration is then scored in the real deal.

The decision is made once, before the first trick, for the sequences *and* Bella
(Bella is announced later, on the second of K/Q, when the bidder knows more; deciding
it early is a simplification that can only understate the value of sinking Bella).
The rule of thumb derived from the study is a threshold on the bidder's estimated
margin (:func:`best_threshold`). It is fitted and scored under double-dummy play over
every contract, bid or not; :mod:`analysis.bidding.sinking_realplay` asks the question
again in real play (PIMC on both sides, Bella decided when played, the contracts the
auction reaches, held-out threshold), where the threshold does not hold (notebook 03).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

import random
import sys
from typing import Any

import numpy as np

from analysis.bidding.equilibrium import write_tables
from analysis.bidding.klabberjass import rules_of
from analysis.studies import read_manifest, read_study
from solver.cards import cards_of
from solver.klabberjass import PACK, Rules
from solver.klabberjass.deal import Deal, Run, has_bella, runs
from solver.klabberjass.rules import points_of
from solver.klabberjass.table import engine_solver


def option_nets(
    bidder: int,
    trump: int,
    card_points: tuple[int, int],
    hands_runs: tuple[list[Run], list[Run]],
    bellas: tuple[bool, bool],
    rules: Rules,
) -> dict[tuple[int, bool], tuple[int, int]]:
    """Every declaration of the bidder and what it gives.

    Returns:
        For each (subset of his runs as a bit mask, Bella announced): (his net, his
        total B minus the opponent's total O). The opponent declares all he holds.

    >>> from solver.cards import parse_holding
    >>> hr = (runs(parse_holding("AKQ...")), [])
    >>> option_nets(0, 1, (70, 92), hr, (False, False), Rules())
    {(0, False): (-162, -22), (1, False): (-182, -2)}
    """
    o = 1 - bidder
    own, opp = hands_runs[bidder], hands_runs[o]
    opp_key = max((r.key(trump, rules) for r in opp), default=None)
    opp_seq = sum(r.value(rules) for r in opp)
    opp_bella = rules.bella if bellas[o] else 0
    out = {}
    for subset in range(1 << len(own)):
        chosen = [r for i, r in enumerate(own) if subset >> i & 1]
        if not chosen:
            b_seq, o_seq = 0, opp_seq
        else:
            key = max(r.key(trump, rules) for r in chosen)
            if opp_key is None or key > opp_key:
                b_seq, o_seq = sum(r.value(rules) for r in chosen), 0
            elif key == opp_key:
                b_seq, o_seq = 0, 0
            else:
                b_seq, o_seq = 0, opp_seq
        for bella in (False, True) if bellas[bidder] else (False,):
            big_b = card_points[bidder] + b_seq + (rules.bella if bella else 0)
            big_o = card_points[o] + o_seq + opp_bella
            if big_b > big_o:
                net = big_b - big_o
            elif big_b < big_o:
                net = -(big_b + big_o)
            else:
                net = -big_o
            out[(subset, bella)] = (net, big_b - big_o)
    return out


def sampled_option_nets(
    own: int, bidder: int, trump: int, turn: int, samples: int, rng: random.Random, rules: Rules
) -> list[dict[tuple[int, bool], tuple[int, int]]]:
    """:func:`option_nets` in ``samples`` worlds drawn from the bidder's information
    before the first trick: his nine cards ``own`` and the turn-up; the opponent holds
    any nine of the unseen cards (``rng.sample``, one world after another), each world
    solved double dummy."""
    unseen = list(cards_of(PACK & ~own & ~(1 << turn)))
    worlds = []
    for _ in range(samples):
        opp = sum(1 << c for c in rng.sample(unseen, 9))
        worlds.append((own, opp) if bidder == 0 else (opp, own))
    values = engine_solver([(h[0], h[1], trump) for h in worlds], rules)
    out = []
    for h, e in zip(worlds, values, strict=True):
        total = points_of(h[0] | h[1], trump) + rules.last_trick
        out.append(
            option_nets(
                bidder,
                trump,
                (e, total - e),
                (runs(h[0]), runs(h[1])),
                (has_bella(h[0], trump), has_bella(h[1], trump)),
                rules,
            )
        )
    return out


def _full(bidder_runs: list[Run], bella: bool) -> tuple[int, bool]:
    return ((1 << len(bidder_runs)) - 1, bella)


def sinking_chunk(
    rng: random.Random, start: int, count: int, params: dict[str, Any]
) -> dict[str, list]:
    """The ``klabberjass-sinking`` study.

    One row per deal, bidder and trump where the bidder holds something he could sink
    (a sequence or Bella in his nine cards). Columns: ``deal``, ``bidder``, ``trump``,
    ``declarable`` (points he could declare), ``dd_best`` (net with the double-dummy
    best declaration), ``dd_all`` (declaring everything), ``dd_none`` (declaring
    nothing), ``view`` (net of the declaration chosen by sampling his view),
    ``view_sinks`` (whether that choice declines something), ``est_margin`` (his mean
    B - O over the sampled worlds when declaring everything), ``est_bate`` (share of
    worlds where declaring everything is bate).
    """
    rules = rules_of(params.get("rules", "seed"))
    samples = int(params.get("samples", 24))
    deals = [Deal.random(rng.getrandbits(64)) for _ in range(count)]
    # (deal index, bidder, trump, world hands or None for the real deal)
    cases = []
    for i, deal in enumerate(deals):
        for b in (0, 1):
            own_runs = runs(deal.hands[b])
            for t in range(4):
                if own_runs or has_bella(deal.hands[b], t):
                    cases.append((i, b, t))
    jobs: list[tuple[int, int, int]] = []
    worlds: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for deal in deals:
        jobs.extend((deal.hands[0], deal.hands[1], t) for t in range(4))
    for i, b, _t in cases:
        if (i, b) in worlds:
            continue
        deal = deals[i]
        own = deal.hands[b]
        unseen = list(cards_of(PACK & ~own & ~(1 << deal.turn)))
        hs = []
        for _ in range(samples):
            opp = sum(1 << c for c in rng.sample(unseen, 9))
            hs.append((own, opp) if b == 0 else (opp, own))
        worlds[(i, b)] = hs
    for i, b, t in cases:
        jobs.extend((h[0], h[1], t) for h in worlds[(i, b)])
    values = dict(zip(jobs, engine_solver(jobs, rules), strict=True))

    def nets(hands: tuple[int, int], b: int, t: int):
        e = values[(hands[0], hands[1], t)]
        total = points_of(hands[0] | hands[1], t) + rules.last_trick
        return option_nets(
            b,
            t,
            (e, total - e),
            (runs(hands[0]), runs(hands[1])),
            (has_bella(hands[0], t), has_bella(hands[1], t)),
            rules,
        )

    cols: dict[str, list] = {
        k: []
        for k in (
            "deal",
            "bidder",
            "trump",
            "declarable",
            "dd_best",
            "dd_all",
            "dd_none",
            "view",
            "view_sinks",
            "est_margin",
            "est_bate",
        )
    }
    for i, b, t in cases:
        deal = deals[i]
        real = nets(deal.hands, b, t)
        own_runs = runs(deal.hands[b])
        full = _full(own_runs, has_bella(deal.hands[b], t))
        sampled = [nets(h, b, t) for h in worlds[(i, b)]]
        mean = {k: sum(w[k][0] for w in sampled) / samples for k in real}
        # best mean; on equal means declare more (the natural default)
        choice = max(real, key=lambda k: (mean[k], k[0].bit_count() + k[1]))
        cols["deal"].append(start + i)
        cols["bidder"].append(b)
        cols["trump"].append(t)
        cols["declarable"].append(
            sum(r.value(rules) for r in own_runs) + (rules.bella if full[1] else 0)
        )
        cols["dd_best"].append(max(v[0] for v in real.values()))
        cols["dd_all"].append(real[full][0])
        cols["dd_none"].append(real[(0, False)][0])
        cols["view"].append(real[choice][0])
        cols["view_sinks"].append(choice != full)
        cols["est_margin"].append(sum(w[full][1] for w in sampled) / samples)
        cols["est_bate"].append(sum(w[full][1] < 0 for w in sampled) / samples)
    return cols


def threshold_values(df, thresholds) -> np.ndarray:
    """Mean net per case of the rule "declare nothing when the estimated margin
    (declaring everything) is below θ, else declare everything", for each θ."""
    m = df["est_margin"].to_numpy()
    all_, none = df["dd_all"].to_numpy(), df["dd_none"].to_numpy()
    return np.array([np.where(m < th, none, all_).mean() for th in thresholds])


def best_threshold(df, thresholds=None) -> tuple[float, float]:
    """The margin threshold with the best mean net, and that mean."""
    if thresholds is None:
        thresholds = np.arange(-80, 81, 2)
    vals = threshold_values(df, thresholds)
    k = int(vals.argmax())
    return float(thresholds[k]), float(vals[k])


def summary(df) -> dict[str, tuple[float, float, float]]:
    """Mean net per case of each way of deciding, with 95 % intervals of its gain over
    always declaring (paired on the same cases)."""
    th, _ = best_threshold(df)
    m = df["est_margin"].to_numpy()
    ways = {
        "double dummy best": df["dd_best"].to_numpy(),
        "never sink (declare all)": df["dd_all"].to_numpy(),
        "always sink (declare none)": df["dd_none"].to_numpy(),
        "sampled view": df["view"].to_numpy(),
        f"threshold: sink if est. margin < {th:+.0f}": np.where(
            m < th, df["dd_none"].to_numpy(), df["dd_all"].to_numpy()
        ),
    }
    base = ways["never sink (declare all)"]
    out = {}
    for name, v in ways.items():
        g = v - base
        half = 1.96 * g.std(ddof=1) / np.sqrt(len(g)) if len(g) > 1 else float("nan")
        out[name] = (float(v.mean()), float(g.mean() - half), float(g.mean() + half))
    return out


def sinking_tables(df: pd.DataFrame, bidding: pd.DataFrame | None = None) -> dict:
    """The tables notebook 03 shows.

    Args:
        df: rows of the ``klabberjass-sinking`` study.
        bidding: optionally rows of the ``klabberjass-bidding`` study (double-dummy
            sinking over every contract).
    """
    import pandas as pd

    summ = pd.DataFrame(
        [
            {"way": k, "mean_net": v[0], "gain_low": v[1], "gain_high": v[2]}
            for k, v in summary(df).items()
        ]
    )
    thresholds = np.arange(-80, 81, 2)
    curve = pd.DataFrame({"threshold": thresholds, "mean_net": threshold_values(df, thresholds)})
    edges = np.arange(-100, 101, 10)
    m = df["est_margin"].to_numpy()
    diff = (df["dd_none"] - df["dd_all"]).to_numpy(dtype=float)
    best = (df["dd_best"] - df["dd_all"]).to_numpy(dtype=float)
    rows = []
    for lo_e, hi_e in zip(edges[:-1], edges[1:], strict=True):
        sel = (m >= lo_e) & (m < hi_e)
        if sel.sum() < 10:
            continue
        d = diff[sel]
        half = 1.96 * d.std(ddof=1) / np.sqrt(sel.sum())
        rows.append(
            {
                "margin": (lo_e + hi_e) / 2,
                "cases": int(sel.sum()),
                "sink_all_gain": float(d.mean()),
                "low": float(d.mean() - half),
                "high": float(d.mean() + half),
                "dd_best_gain": float(best[sel].mean()),
                "view_sinks": float(df["view_sinks"].to_numpy()[sel].mean()),
            }
        )
    out = {
        "summary": summ,
        "threshold_curve": curve,
        "by_margin": pd.DataFrame(rows),
        "cases": len(df),
        "deals_with_a_case": int(df["deal"].nunique()),
        "dd_sinking_helps_share": float((df["dd_best"] > df["dd_all"]).mean()),
        "view_sinks_share": float(df["view_sinks"].mean()),
        "threshold": best_threshold(df)[0],
    }
    if bidding is not None:
        s = bidding[[c for c in bidding.columns if c.startswith("sink_")]].to_numpy()
        out["bidding_deals"] = len(bidding)
        out["bidding_contracts_sinking_helps"] = float((s > 0).mean())
        out["bidding_mean_sink_gain"] = float(s.mean())
        out["bidding_mean_gain_when_it_helps"] = float(s[s > 0].mean())
    return out


def main(argv: list[str] | None = None) -> int:
    """``python -m analysis.bidding.sinking SINKING_DIR OUT_DIR [BIDDING_DIR]``: notebook 03's tables."""

    args = sys.argv[1:] if argv is None else argv
    if len(args) not in (2, 3):
        print(
            "usage: python -m analysis.bidding.sinking SINKING_DIR OUT_DIR [BIDDING_DIR]",
            file=sys.stderr,
        )
        return 2
    bidding = read_study(args[2]) if len(args) == 3 else None
    tables = sinking_tables(read_study(args[0]), bidding)
    tables["study"] = read_manifest(args[0])
    write_tables(tables, args[1])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
