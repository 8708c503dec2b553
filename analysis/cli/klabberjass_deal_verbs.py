"""``tricklab deal klabberjass`` and ``tricklab bench klabberjass --what table``.

``deal`` prints the double-dummy deal table (SPEC §4): one JSON object per deal with
``--json`` (``deal``, ``rules`` and ``table``, each row as
:meth:`solver.klabberjass.table.TableRow.to_json` gives it), a readable table
otherwise. ``-`` reads one deal per stdin line; ``--random [--seed S]`` deals one.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Sequence

from solver.cards import SUIT_SYMBOLS, SUITS, card_str, format_holding
from solver.errors import NotationError
from solver.klabberjass import SEATS, Rules
from solver.klabberjass.deal import Deal, exchange_dix, has_bella, runs
from solver.klabberjass.table import TableRow, deal_table, engine_solver

# ---------------------------------------------------------------- readable output


def _holding(mask: int) -> str:
    parts = format_holding(mask).split(".")
    return "  ".join(f"{SUIT_SYMBOLS[i]} {p or '-'}" for i, p in enumerate(parts))


def _pair(values: tuple[int, int]) -> str:
    return f"{values[0]}-{values[1]}"


def _declared(row: TableRow, deal: Deal) -> tuple[str, str]:
    """What the bidder declares and what he sinks, as short texts."""
    b = row.bidder
    shown = [str(r) for r in row.declared[b]] + (["Bella"] if row.bella_declared[b] else [])
    hand = deal.hands[b]
    if row.dix == b:
        hand = exchange_dix(deal.hands, deal.turn, b)[b]
    held = [str(r) for r in runs(hand)]
    sunk = [r for r in held if r not in shown]
    if not row.bella_declared[b] and has_bella(hand, row.trump):
        sunk.append("Bella")
    return " ".join(shown) or "-", " ".join(sunk) or "-"


def table_text(deal: Deal, rules: Rules, rows: Sequence[TableRow]) -> str:
    """The readable deal table."""
    lines = [f"Deal {deal}  (rules: {rules.name})"]
    names = ("E (elder) ", "D (dealer)")
    for seat in (0, 1):
        line = f"  {names[seat]}  {_holding(deal.hands[seat])}"
        if deal.first is not None:
            line += f"   (first six: {format_holding(deal.first[seat])})"
        lines.append(line)
    extra = f"  Turn-up {card_str(deal.turn)}"
    if deal.bottom is not None:
        extra += f", bottom card {card_str(deal.bottom)}"
    lines.append(extra)
    header = (
        f"  {'Trump':<6}{'Bidder':<7}{'Cards E-D':<11}{'Seq E-D':<9}{'Bella E-D':<11}"
        f"{'Dix':<5}{'Score E-D':<11}{'Result':<8}{'Bidder declares':<17}Sinks"
    )
    lines += ["", header]
    for row in rows:
        shown, sunk = _declared(row, deal)
        lines.append(
            f"  {SUIT_SYMBOLS[row.trump] + ' ' + SUITS[row.trump]:<6}{SEATS[row.bidder]:<7}"
            f"{_pair(row.card_points):<11}{_pair(row.sequences):<9}{_pair(row.bella):<11}"
            f"{SEATS[row.dix] if row.dix is not None else '-':<5}{_pair(row.score):<11}"
            f"{row.result:<8}{shown:<17}{sunk}"
        )
    return "\n".join(lines)


def table_json(deal: Deal, rules: Rules, rows: Sequence[TableRow]) -> dict:
    """The SPEC §4 object, with the deal and the rules named as in the golden file."""
    return {"deal": str(deal), "rules": rules.name, "table": [r.to_json() for r in rows]}


# ---------------------------------------------------------------- verbs


def _deals(args: argparse.Namespace) -> list[Deal]:
    if args.random:
        if args.deal is not None:
            raise NotationError(
                f'give either a deal or --random, not both (got "{args.deal}" and --random)'
            )
        return [Deal.random(args.seed)]
    if args.seed is not None:
        raise NotationError("--seed goes with --random (it seeds the random deal)")
    if args.deal is None:
        raise NotationError('no deal given (a deal in SPEC notation, "-" for stdin, or --random)')
    from analysis.cli.textio import parse_inputs

    return parse_inputs(args.deal, Deal.parse, "deal")


def deal(args: argparse.Namespace) -> int:
    """``tricklab deal klabberjass``: the double-dummy table of each deal.

    Every input is read and checked before anything is printed, so bad input prints
    only its error (exit status 2 from :func:`analysis.cli.main.main`).
    """
    rules = Rules.preset(args.rules)
    deals = _deals(args)
    out = sys.stdout
    for d in deals:
        rows = deal_table(d, rules)
        if args.json:
            out.write(json.dumps(table_json(d, rules, rows)) + "\n")
        else:
            out.write(table_text(d, rules, rows) + "\n\n")
    return 0


def bench_table(args: argparse.Namespace) -> int:
    """``tricklab bench klabberjass --what table``: milliseconds per full deal table.

    Deals ``--deals`` random deals (seeded by ``--seed``), computes the whole table of
    each (every trump, both bidders, the dix under ``classic``) and reports the median,
    mean, 90th percentile and maximum wall time per table, and the share spent in the
    compiled card-play solver.
    """
    if args.deals < 1:
        raise NotationError(f"invalid --deals {args.deals} (at least 1)")
    rules = Rules.preset(args.rules)
    rng = random.Random(args.seed)
    deals = [Deal.random(rng.getrandbits(64)) for _ in range(args.deals)]
    clock = time.perf_counter
    solve_time = [0.0]

    def timed_solver(jobs, r):
        start = clock()
        try:
            return engine_solver(jobs, r)
        finally:
            solve_time[0] += clock() - start

    deal_table(deals[0], rules)  # load the engine before timing
    from solver.klabberjass.engine import klabberjass_core

    klabberjass_core().clear()  # start from an empty transposition table
    times, solves = [], []
    for d in deals:
        solve_time[0] = 0.0
        start = clock()
        deal_table(d, rules, solver=timed_solver)
        times.append(clock() - start)
        solves.append(solve_time[0])
    times_sorted = sorted(times)
    report = {
        "what": "table",
        "deals": args.deals,
        "seed": args.seed,
        "rules": rules.name,
        "median_ms": round(1e3 * statistics.median(times), 4),
        "mean_ms": round(1e3 * statistics.fmean(times), 4),
        "p90_ms": round(1e3 * times_sorted[int(0.9 * (len(times) - 1))], 4),
        "max_ms": round(1e3 * max(times), 4),
        "engine_median_ms": round(1e3 * statistics.median(solves), 4),
        "tables_per_second": round(len(times) / sum(times), 1),
    }
    if args.json:
        print(json.dumps(report))
        return 0
    print(
        f"Klabberjass deal tables (4 trumps x 2 bidders), {args.deals} random deals "
        f"(seed {args.seed}), rules {rules.name}"
    )
    print(
        f"  per table: median {report['median_ms']:.3f} ms, mean {report['mean_ms']:.3f} ms, "
        f"90% {report['p90_ms']:.3f} ms, max {report['max_ms']:.3f} ms"
    )
    print(
        f"  card-play solves: median {report['engine_median_ms']:.3f} ms a table; "
        f"{report['tables_per_second']:.0f} tables/s"
    )
    return 0
