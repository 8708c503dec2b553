"""Klabberjass commands of the ``tricklab`` command line (SPEC §4)."""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time

from analysis.cli.textio import holding_diagram, parse_inputs
from solver.cards import SUIT_SYMBOLS, SUITS, card_str, mask_of
from solver.errors import NotationError
from solver.klabberjass import PACK, SEATS, Position, Rules

# ---------------------------------------------------------------- diagrams


def position_diagram(position: Position) -> str:
    """A readable, plain-text diagram of a Klabberjass position."""
    names = {0: "E (elder) ", 1: "D (dealer)"}
    lines = [f"Trump {SUIT_SYMBOLS[position.trump]} {SUITS[position.trump]}"]
    for seat in (0, 1):
        lines.append(f"  {names[seat]}  {holding_diagram(position.hands[seat])}")
    if position.trick is not None:
        lines.append(f"  Trick: {SEATS[position.lead]} led {card_str(position.trick)}")
    lines.append(f"  To play: {SEATS[position.to_move]}")
    return "\n".join(lines)


def result_text(result) -> str:
    """The readable answer of ``solve`` without ``--json``."""
    lines = [position_diagram(result.position)]
    e, d = result.points
    lines.append(f"Double-dummy points from here: E {e}, D {d}")
    if result.best is not None:
        lines.append(f"Best card: {card_str(result.best)}")
        tricks = []
        line = list(result.pv)
        first = 1 if result.position.trick is not None else 0
        if first:
            tricks.append(f"…{card_str(line[0])}")
        for i in range(first, len(line), 2):
            tricks.append(" ".join(card_str(c) for c in line[i : i + 2]))
        lines.append("Optimal line: " + " | ".join(tricks))
    if result.moves:
        lines.append(
            "Card values (points for the player to move): "
            + ", ".join(f"{card_str(c)} {v}" for c, v in result.moves.items())
        )
    return "\n".join(lines)


# ---------------------------------------------------------------- verbs


def solve(args: argparse.Namespace) -> int:
    """``tricklab solve klabberjass``."""
    from solver.klabberjass.engine import solve_klabberjass

    rules = Rules.preset(args.rules)
    positions = parse_inputs(args.position, Position.parse)
    if args.tt_mb is not None and args.tt_mb < 1:
        raise NotationError(f"invalid --tt-mb {args.tt_mb} (a size in MB, at least 1)")
    out = sys.stdout
    for position in positions:
        result = solve_klabberjass(position, rules, moves=args.moves, tt_mb=args.tt_mb)
        if args.json:
            out.write(json.dumps(result.to_json()) + "\n")
        else:
            out.write(result_text(result) + "\n\n")
    return 0


def deal(args: argparse.Namespace) -> int:
    """``tricklab deal klabberjass``."""
    from analysis.cli.klabberjass_deal_verbs import deal as run

    return run(args)


def random_positions(count: int, seed: int, cards: int = 9) -> list[Position]:
    """Random full deals as play positions: ``cards`` cards each, random trump, E leads."""
    rng = random.Random(seed)
    pack = [c for c in range(64) if PACK >> c & 1]
    out = []
    for _ in range(count):
        hand = rng.sample(pack, 2 * cards)
        out.append(Position(rng.randrange(4), 0, (mask_of(hand[:cards]), mask_of(hand[cards:]))))
    return out


def _ms(seconds: list[float]) -> str:
    return f"median {1e3 * statistics.median(seconds):.3f} ms, mean {1e3 * statistics.fmean(seconds):.3f} ms, max {1e3 * max(seconds):.3f} ms"


def bench(args: argparse.Namespace) -> int:
    """``tricklab bench klabberjass``: engine and reference speed on random full deals."""
    if args.what == "table":
        from analysis.cli.klabberjass_deal_verbs import bench_table

        return bench_table(args)
    if args.what in ("advice", "tree"):
        from analysis.cli.analysis_verbs import bench as bench_analysis

        return bench_analysis(args)
    if args.what not in (None, "solve"):
        raise NotationError(
            f"unknown --what '{args.what}' for klabberjass (solve, table, advice or tree)"
        )
    if args.deals < 1:
        raise NotationError(f"invalid --deals {args.deals} (at least 1)")
    from solver.klabberjass.engine import klabberjass_core, klabberjass_values
    from solver.reference import klabberjass_points

    rules = Rules.preset(args.rules)
    positions = random_positions(args.deals, args.seed)
    core = klabberjass_core()
    core.clear()  # no help from earlier solves: every figure is for a first solve
    bonus = rules.last_trick
    engine_times = []
    values = []
    clock = time.perf_counter
    start_all = clock()
    for p in positions:
        start = clock()
        values.append(core.value(p.hands[0], p.hands[1], p.trump, 0, -1, bonus))
        engine_times.append(clock() - start)
    total = clock() - start_all

    core.clear()
    start = clock()
    batch = klabberjass_values(positions, rules)
    batch_total = clock() - start
    if batch != values:
        raise RuntimeError("batch and single solves disagree")  # a bug, never bad input
    # The same batch again: every position is now one table hit, so what is left is
    # the cost of the batch call itself (building the arrays, the loop in C).
    start = clock()
    klabberjass_values(positions, rules)
    overhead = clock() - start

    n_ref = args.reference_deals if args.reference_deals is not None else min(args.deals, 10)
    ref_times = []
    for p in positions[:n_ref]:
        start = clock()
        e_ref, _ = klabberjass_points(p, rules)
        ref_times.append(clock() - start)
        if e_ref != values[len(ref_times) - 1]:
            raise RuntimeError(f"engine and reference disagree on {p}")
    report = {
        "deals": args.deals,
        "seed": args.seed,
        "engine_solves_per_second": round(args.deals / total, 1),
        "engine_median_ms": round(1e3 * statistics.median(engine_times), 4),
        "engine_mean_ms": round(1e3 * statistics.fmean(engine_times), 4),
        "engine_max_ms": round(1e3 * max(engine_times), 4),
        "batch_us_per_position": round(1e6 * batch_total / args.deals, 2),
        "batch_overhead_us_per_position": round(1e6 * overhead / args.deals, 3),
        "single_call_us_per_position": round(1e6 * total / args.deals, 2),
    }
    if ref_times:
        same = engine_times[: len(ref_times)]
        report.update(
            {
                "reference_deals": len(ref_times),
                "reference_median_ms": round(1e3 * statistics.median(ref_times), 2),
                "speedup_median_same_deals": round(
                    statistics.median(ref_times) / statistics.median(same), 1
                ),
            }
        )
    if args.json:
        print(json.dumps(report))
        return 0
    print(
        f"Klabberjass, {args.deals} random full 9-card deals (seed {args.seed}), random trump, E leads"
    )
    print(f"  engine:    {report['engine_solves_per_second']:.0f} solves/s; {_ms(engine_times)}")
    print(
        f"  batch call: {report['batch_us_per_position']:.1f} µs a position "
        f"(single calls: {report['single_call_us_per_position']:.1f} µs); "
        f"cost of the batch call itself: {report['batch_overhead_us_per_position']:.2f} µs a position"
    )
    if ref_times:
        print(f"  reference: {len(ref_times)} deals; {_ms(ref_times)}")
        print(
            f"  speed-up on the same deals (median / median): {report['speedup_median_same_deals']:.0f}×"
        )
    return 0


DEMO_DEAL = "E=7..JT87.9/KQ.K.. D=AT.QJT9../J..9.K turn=AH bottom=TC"


def demo(args: argparse.Namespace) -> int:
    """``tricklab demo``: a built-in deal, its double-dummy table and an optimal line."""
    from analysis.cli.klabberjass_deal_verbs import table_text
    from solver.klabberjass.deal import Deal
    from solver.klabberjass.engine import solve_klabberjass
    from solver.klabberjass.table import deal_table

    rules = Rules.preset(getattr(args, "rules", "seed"))
    deal = Deal.parse(DEMO_DEAL)
    rows = deal_table(deal, rules)
    print(f"A Klabberjass deal ({rules.name} rules), every bidder and trump double-dummy:\n")
    print(table_text(deal, rules, rows))
    best = max(rows, key=lambda r: r.score[r.bidder] - r.score[1 - r.bidder])
    print(
        f"\nBest contract: {SEATS[best.bidder]} takes {SUIT_SYMBOLS[best.trump]} "
        f"({best.result}, scores E {best.score[0]}, D {best.score[1]}). The card play:\n"
    )
    hands = deal.hands
    if best.dix is not None:
        from solver.klabberjass.deal import exchange_dix

        hands = exchange_dix(hands, deal.turn, best.dix)
    position = Position(best.trump, 0, hands)
    print(result_text(solve_klabberjass(position, rules, moves=True)))
    return 0
