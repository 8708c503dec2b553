"""``tricklab bench <game> --what …``: every benchmark of tricklab, on seeded random deals.

Klabberjass, ``--what``:

- ``solve`` (default): the exact value of ``--deals`` random full 9-card deals (random
  trump, E leads), one call each and as one batch, the table cleared first; with
  ``--reference-deals K`` the first K also by the reference minimax, as a check and
  for the speed-up.
- ``table``: the whole deal table (4 trumps x 2 bidders, the dix under ``classic``).
- ``tree``: the full optimal trick tree of a random 9-card position.
- ``advice``: PIMC over 200 worlds at the first trick (E to lead, turn-up suit trump).
- ``pimc``: whole contracts played card by card by PIMC on both sides
  (:class:`analysis.play.Pimc`, 20 worlds a decision, one core; turn-up suit trump, E
  leads): milliseconds a contract (wall clock, and the mean CPU time), decisions
  searched, worlds and child searches, and the same contracts played double dummy;
  with ``--reference-deals K`` the first K also by :func:`analysis.advice.advise` at
  every decision (the general way), for the speed-up. The table is cleared once, not
  per contract.
- ``alphamu``: whole contracts played card by card by αμ on both sides
  (:class:`analysis.alphamu.AlphaMu` at its default budget, ``--depth`` to change
  its depth, one core; turn-up suit trump, E leads): the CPU time of each searched decision, at the first trick and at
  the later ones (median, max), decisions a second, the depth reached.
- ``realplay``: the ``klabberjass-realplay`` study's work for ``--deals`` deals, one
  core: each deal's table (double dummy) and its 8 contracts played by PIMC on both
  sides, 20 worlds a decision, exactly as the study plays them
  (:func:`analysis.bidding.realplay.realplay_deals` from ``--seed``): milliseconds a
  played contract, deals a second (wall clock and CPU time, which differ on a shared
  machine), decisions searched, child searches and nodes a contract. The table is
  cleared once, as a study's worker starts with an empty one.

With ``--persist`` (``pimc``, ``realplay``) each player keeps his worlds from one
decision to his next within a contract (:class:`analysis.play.Pimc` ``persist=True``):
other worlds, so other cards, than the study plays.

Carabin, ``--what`` is a comma-separated list of ``exact`` (the bidder's exact points
of a full deal), ``make`` (one make/fail probe at half the points in play plus one) and
``chelem`` (the all-tricks search), by default ``exact,make`` (``make`` for six
players); a random bidder, the turn-up suit trump, seat 0 leading. ``--what pimc``
alone plays whole (plain) contracts card by card by PIMC at every seat
(:class:`analysis.play.CarabinPimc`, 20 worlds a decision, one core). ``--reference-deals
K`` also checks the engine against the reference minimax on K deals cut down to one
card a hand. ``--what tree`` and ``--what advice`` alone measure, as for Klabberjass,
the full optimal trick tree (the compiled enumeration) and the advice of PIMC over 200
worlds (one core), from a position with ``--tricks`` tricks left (default 4; 8 is the
whole deal): a random deal, bidder and trump as above, its first tricks played at
random; the advice is for the seat to move there, from his view.

``--what alphamu`` alone plays whole (plain) contracts card by card by αμ at every seat
(:class:`analysis.carabin_alphamu.CarabinAlphaMu` at its default budget, ``--depth`` to
change its depth, one core; random bidder, turn-up suit trump): the CPU time of each
searched decision, at the first trick and at the later ones (median, max), decisions a
second, the depth reached.

``--what tree``, ``advice`` and ``alphamu`` run 20 deals unless ``--deals`` says otherwise
(the other benchmarks 1000).

The transposition table is cleared before every timed deal, so every figure is for a
first solve. ``--json`` prints the figures as one object.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from analysis.advice import advise
from analysis.cli.common import (
    Progress,
    UsageError,
    add_game,
    add_players,
    add_rules,
    count,
    game_of,
    seconds,
    whole,
)
from analysis.samples import random_positions
from solver import carabin, klabberjass
from solver.carabin.deal import Deal as CarabinDeal
from solver.carabin.position import Position as CarabinPosition
from solver.cards import SUITS, card_str, format_holding, suit_of
from solver.errors import TricklabError
from solver.games import Game
from solver.klabberjass.deal import Deal as KlabberjassDeal
from solver.klabberjass.rules import Rules
from solver.klabberjass.table import deal_table, engine_solver
from solver.limits import MAX_BENCH_DEALS, MAX_REFERENCE_DEALS
from solver.reference import carabin_points, klabberjass_points

HELP = "measure the speed of the engines and analyses"

#: Runnable examples, shown under ``tricklab bench --help`` (and run by the tests).
EXAMPLES = (
    "tricklab bench klabberjass --what table --deals 300 --seed 1",
    "tricklab bench carabin --players 3 --deals 20 --what exact,make",
)
_DEALS = count("--deals", 1, MAX_BENCH_DEALS)
_REFERENCE = count("--reference-deals", 0, MAX_REFERENCE_DEALS)
_TRICKS = count("--tricks", 1, 8)
_DEPTH = count("--depth", 1, 9, "a player makes at most nine decisions")

KLABBERJASS_WHAT = ("solve", "table", "tree", "advice", "pimc", "alphamu", "realplay")
CARABIN_WHAT = ("exact", "make", "chelem")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``tricklab bench``."""
    add_game(parser)
    parser.add_argument(
        "--deals",
        type=_DEALS,
        default=None,
        help="number of random deals (default 20 for tree and advice, else 1000)",
    )
    parser.add_argument(
        "--seed", type=whole("--seed"), default=1, help="seed of the deals (default 1)"
    )
    parser.add_argument(
        "--reference-deals", type=_REFERENCE, default=None, help="deals for the reference check"
    )
    add_players(parser)
    parser.add_argument(
        "--what",
        default=None,
        help=f"what to measure: klabberjass {', '.join(KLABBERJASS_WHAT)} (default solve); "
        f"carabin a comma-separated list of {', '.join(CARABIN_WHAT)} "
        "(default exact,make; make for 6 players), or one of pimc, tree, advice",
    )
    parser.add_argument(
        "--tricks",
        type=_TRICKS,
        default=None,
        help="carabin --what tree or advice: tricks left in the position (default 4; "
        "8 is the whole deal)",
    )
    parser.add_argument(
        "--depth",
        type=_DEPTH,
        default=None,
        help="--what alphamu: decisions searched (default: alphamu's default)",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--time-limit",
        type=seconds,
        default=None,
        metavar="SECONDS",
        help="carabin: give each timed search at most SECONDS; one that runs out counts "
        "SECONDS (so the figures are lower bounds) and is reported",
    )
    parser.add_argument(
        "--persist",
        action="store_true",
        help="klabberjass --what pimc or realplay: each player keeps his worlds from one "
        "decision to his next within a contract (analysis.play.Pimc persist=True)",
    )
    parser.add_argument(
        "--shared-play",
        action="store_true",
        help="klabberjass --what realplay: the rows of a deal played from the same "
        "information share one play (the study's play_seed=shared)",
    )
    add_rules(parser)


def run(args: argparse.Namespace) -> int:
    """Run ``tricklab bench``."""
    game = game_of(args)
    if args.deals is None:
        args.deals = 20 if args.what in ("tree", "advice", "alphamu") else 1000
    if args.tricks is not None and (game.name != "carabin" or args.what not in ("tree", "advice")):
        raise UsageError("--tricks goes with carabin --what tree or advice")
    if args.persist and (game.name != "klabberjass" or args.what not in ("pimc", "realplay")):
        raise UsageError("--persist goes with klabberjass --what pimc or realplay")
    if args.shared_play and (game.name != "klabberjass" or args.what != "realplay"):
        raise UsageError("--shared-play goes with klabberjass --what realplay")
    if args.depth is not None and args.what != "alphamu":
        raise UsageError(f"--depth {args.depth} goes with --what alphamu")
    if game.name == "carabin":
        report, lines = _carabin(game, args)
    else:
        what = args.what or "solve"
        runs: dict[str, Callable[[Game, argparse.Namespace], tuple[dict, list[str]]]] = {
            "solve": _klabberjass_solve,
            "table": _klabberjass_table,
            "tree": _klabberjass_tree,
            "advice": _klabberjass_advice,
            "pimc": _klabberjass_pimc,
            "alphamu": _klabberjass_alphamu,
            "realplay": _klabberjass_realplay,
        }
        if what not in runs:
            raise UsageError(
                f"unknown --what '{what}' for klabberjass "
                "(solve, table, advice, tree, pimc, alphamu or realplay)"
            )
        report, lines = runs[what](game, args)
    if args.json:
        print(json.dumps(report))
    else:
        print("\n".join(lines))
    return 0


def _ms(seconds: list[float]) -> str:
    return (
        f"median {1e3 * statistics.median(seconds):.3f} ms, "
        f"mean {1e3 * statistics.fmean(seconds):.3f} ms, max {1e3 * max(seconds):.3f} ms"
    )


# ---------------------------------------------------------------- klabberjass


def _klabberjass_solve(game: Game, args: argparse.Namespace) -> tuple[dict, list[str]]:
    rules = game.rules
    positions = random_positions(args.deals, args.seed)
    core = klabberjass.core()
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
    batch = klabberjass.values(positions, rules)
    batch_total = clock() - start
    if batch != values:
        raise RuntimeError("batch and single solves disagree")  # a bug, never bad input
    # The same batch again: every position is now one table hit, so what is left is
    # the cost of the batch call itself (building the arrays, the loop in C).
    start = clock()
    klabberjass.values(positions, rules)
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
    lines = [
        f"Klabberjass, {args.deals} random full 9-card deals (seed {args.seed}), random trump, E leads",
        f"  engine:    {report['engine_solves_per_second']:.0f} solves/s; {_ms(engine_times)}",
        f"  batch call: {report['batch_us_per_position']:.1f} µs a position "
        f"(single calls: {report['single_call_us_per_position']:.1f} µs); "
        f"cost of the batch call itself: {report['batch_overhead_us_per_position']:.2f} µs a position",
    ]
    if ref_times:
        lines += [
            f"  reference: {len(ref_times)} deals; {_ms(ref_times)}",
            "  speed-up on the same deals (median / median): "
            f"{report['speedup_median_same_deals']:.0f}×",
        ]
    return report, lines


def _klabberjass_table(game: Game, args: argparse.Namespace) -> tuple[dict, list[str]]:
    """Milliseconds per full deal table, and the share spent in card-play solves."""
    rules = game.rules
    rng = random.Random(args.seed)
    deals = [KlabberjassDeal.random(rng.getrandbits(64)) for _ in range(args.deals)]
    clock = time.perf_counter
    solve_time = [0.0]

    def timed_solver(jobs: Sequence[tuple[int, int, int]], r: Rules) -> list[int]:
        start = clock()
        try:
            return engine_solver(jobs, r)
        finally:
            solve_time[0] += clock() - start

    deal_table(deals[0], rules)  # load the engine before timing
    klabberjass.core().clear()  # start from an empty transposition table
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
    lines = [
        f"Klabberjass deal tables (4 trumps x 2 bidders), {args.deals} random deals "
        f"(seed {args.seed}), rules {rules.name}",
        f"  per table: median {report['median_ms']:.3f} ms, mean {report['mean_ms']:.3f} ms, "
        f"90% {report['p90_ms']:.3f} ms, max {report['max_ms']:.3f} ms",
        f"  card-play solves: median {report['engine_median_ms']:.3f} ms a table; "
        f"{report['tables_per_second']:.0f} tables/s",
    ]
    return report, lines


def _klabberjass_tree(game: Game, args: argparse.Namespace) -> tuple[dict, list[str]]:
    # networkx is heavy: loaded only for this benchmark
    from analysis.trees import optimal_tree

    times, sizes = [], []
    for p in random_positions(args.deals, args.seed):
        klabberjass.core().clear()
        start = time.perf_counter()
        graph = optimal_tree(game, p)
        times.append(time.perf_counter() - start)
        sizes.append(graph.number_of_nodes())
    return _seconds_report(args, "full optimal tree of a random 9-card position", times, sizes)


def _klabberjass_advice(game: Game, args: argparse.Namespace) -> tuple[dict, list[str]]:
    times = []
    for i in range(args.deals):
        deal = KlabberjassDeal.random(args.seed + i)
        view = klabberjass.View.parse(
            f"seat=E trump={SUITS[deal.turn_suit]} turn={card_str(deal.turn)} "
            f"hand={format_holding(deal.hands[0])}"
        )
        klabberjass.core().clear()
        start = time.perf_counter()
        advise(view, 200, seed=i, workers=None, rules=game.rules)
        times.append(time.perf_counter() - start)
    return _seconds_report(args, "advice over 200 worlds, first trick, E to lead", times, [])


def _klabberjass_pimc(game: Game, args: argparse.Namespace) -> tuple[dict, list[str]]:
    """Milliseconds a contract played by PIMC on both sides (20 worlds a decision)."""
    from analysis.play import PIMC_TT_MB, Advised, DoubleDummy, Pimc, play_deal

    rules, samples = game.rules, 20
    rng = random.Random(args.seed)
    deals = [KlabberjassDeal.random(rng.getrandbits(64)) for _ in range(args.deals)]
    clock = time.perf_counter
    cpu_times: list[float] = []  # of the last run

    def run(
        make: Callable[[int], tuple], count: int, tt_mb: int | None = None
    ) -> tuple[list[float], list[tuple]]:
        cpu_times.clear()
        times, stats = [], []
        core = klabberjass.core(tt_mb)  # the table the policies search with
        core.clear()  # each way starts from an empty table
        for i, d in enumerate(deals[:count]):
            policies = make(i)
            nodes = core.nodes
            start, cpu_start = clock(), time.process_time()
            play_deal(d.hands, d.turn_suit, d.turn, policies, rules=rules)
            times.append(clock() - start)
            cpu_times.append(time.process_time() - cpu_start)
            s = [p.stats for p in policies]
            stats.append(
                (
                    sum(x.decisions for x in s),
                    sum(x.worlds for x in s),
                    sum(x.searches for x in s),
                    core.nodes - nodes,
                )
            )
        return times, stats

    def pimc(i: int) -> tuple:
        return (
            Pimc(samples, seed=2 * i, persist=args.persist),
            Pimc(samples, seed=2 * i + 1, persist=args.persist),
        )

    times, stats = run(pimc, args.deals, PIMC_TT_MB)
    cpu_ms = 1e3 * sum(cpu_times) / args.deals
    dd_times, _ = run(lambda i: (DoubleDummy(), DoubleDummy()), args.deals)
    n = args.deals
    report: dict = {
        "what": "pimc",
        "deals": n,
        "seed": args.seed,
        "samples": samples,
        "persist": args.persist,
        "median_ms": round(1e3 * statistics.median(times), 3),
        "mean_ms": round(1e3 * statistics.fmean(times), 3),
        "max_ms": round(1e3 * max(times), 3),
        "cpu_ms_per_contract": round(cpu_ms, 3),
        "decisions_per_contract": round(sum(s[0] for s in stats) / n, 2),
        "worlds_per_contract": round(sum(s[1] for s in stats) / n, 1),
        "searches_per_contract": round(sum(s[2] for s in stats) / n, 1),
        "nodes_per_contract": round(sum(s[3] for s in stats) / n),
        "dd_median_ms": round(1e3 * statistics.median(dd_times), 3),
        "dd_mean_ms": round(1e3 * statistics.fmean(dd_times), 3),
    }
    lines = [
        f"Klabberjass contracts played by PIMC on both sides, {samples} worlds a decision, "
        f"{n} random deals (seed {args.seed}), turn-up suit trump, E leads, one core"
        + (", persistent worlds" if args.persist else ""),
        f"  per contract: {_ms(times)}; CPU time {cpu_ms:.3f} ms a contract",
        f"  per contract: {report['decisions_per_contract']:.1f} decisions searched (of 18 "
        f"cards), {report['worlds_per_contract']:.0f} worlds solved, "
        f"{report['searches_per_contract']:.0f} child searches, "
        f"{report['nodes_per_contract']} nodes",
        f"  double-dummy play of the same contracts: {_ms(dd_times)}",
    ]
    k = min(args.reference_deals or 0, n)
    if k:
        ref_times, _ = run(lambda i: (Advised(samples, 2 * i), Advised(samples, 2 * i + 1)), k)
        report["reference_deals"] = k
        report["reference_median_ms"] = round(1e3 * statistics.median(ref_times), 3)
        report["speedup_median_same_deals"] = round(
            statistics.median(ref_times) / statistics.median(times[:k]), 1
        )
        lines.append(
            f"  the general way (advise at every decision), first {k} deals: {_ms(ref_times)}; "
            f"speed-up (median / median) {report['speedup_median_same_deals']:.1f}x"
        )
    return report, lines


def alphamu_times(
    deals: int, seed: int, rules: Rules, worlds: int | None = None, depth: int | None = 0
) -> list[tuple[int, float, float, int]]:
    """Every searched decision of contracts played by αμ on both sides: (trick, CPU
    seconds, wall seconds, depth reached). ``worlds`` and ``depth`` (0: the defaults)
    set the budget. The table is cleared once, not per contract."""
    from analysis.alphamu import DEFAULT_DEPTH, DEFAULT_WORLDS, AlphaMu
    from analysis.play import PIMC_TT_MB, PlayState, play_deal

    worlds = DEFAULT_WORLDS if worlds is None else worlds
    depth = DEFAULT_DEPTH if depth == 0 else depth
    rng = random.Random(seed)
    cards = [KlabberjassDeal.random(rng.getrandbits(64)) for _ in range(deals)]
    klabberjass.core(PIMC_TT_MB).clear()
    out: list[tuple[int, float, float, int]] = []

    class Timed:
        def __init__(self, player: AlphaMu):
            self.player = player

        def choose(self, state: PlayState) -> int:
            s = self.player.stats
            before, reached = s.decisions, s.depth_reached
            cpu, wall = time.process_time(), time.perf_counter()
            card = self.player.choose(state)
            if s.decisions > before:
                out.append((len(state.played) // 2, time.process_time() - cpu,
                            time.perf_counter() - wall, s.depth_reached - reached))  # fmt: skip
            return card

    for i, d in enumerate(cards):
        pols = (
            Timed(AlphaMu(worlds, depth, seed=2 * i)),
            Timed(AlphaMu(worlds, depth, seed=2 * i + 1)),
        )
        play_deal(d.hands, d.turn_suit, d.turn, pols, rules=rules)
    return out


def _decision_times(times: list[tuple[int, float, int]]) -> tuple[dict, list[str]]:
    """Report entries and lines of αμ decision times: (trick, CPU seconds, depth
    reached) a searched decision, the first trick apart from the later ones."""
    first = [t for k, t, _ in times if k == 0]
    later = [t for k, t, _ in times if k > 0]
    cpu = sum(t for _, t, _ in times)
    report: dict = {
        "decisions": len(times),
        "first_trick_decisions": len(first),
        "first_median_s": round(statistics.median(first), 4) if first else None,
        "first_max_s": round(max(first), 4) if first else None,
        "later_median_s": round(statistics.median(later), 4) if later else None,
        "later_max_s": round(max(later), 4) if later else None,
        "mean_s": round(cpu / len(times), 4) if times else None,
        "decisions_per_second": round(len(times) / cpu, 2) if cpu > 0 else None,
        "mean_depth": round(statistics.fmean(d for _, _, d in times), 2) if times else None,
    }
    lines = [
        f"  first trick: {len(first)} decisions, median {report['first_median_s']} s, "
        f"max {report['first_max_s']} s",
        f"  later tricks: {len(later)} decisions, median {report['later_median_s']} s, "
        f"max {report['later_max_s']} s",
        f"  mean {report['mean_s']} s, {report['decisions_per_second']} decisions/s; mean "
        f"depth reached {report['mean_depth']}",
    ]
    return report, lines


def _klabberjass_alphamu(game: Game, args: argparse.Namespace) -> tuple[dict, list[str]]:
    """CPU time of an αμ decision at the first trick and later (default budget)."""
    from analysis.alphamu import DEFAULT_DEPTH, DEFAULT_WORLDS

    depth = DEFAULT_DEPTH if args.depth is None else args.depth
    rows = alphamu_times(args.deals, args.seed, game.rules, depth=depth)
    times, lines = _decision_times([(r[0], r[1], r[3]) for r in rows])
    report: dict = {
        "what": "alphamu",
        "deals": args.deals,
        "seed": args.seed,
        "worlds": DEFAULT_WORLDS,
        "depth": depth,
        **times,
    }
    head = (
        f"Klabberjass contracts played by alphamu on both sides, {DEFAULT_WORLDS} worlds, "
        f"depth {depth} a decision, {args.deals} random deals (seed {args.seed}), "
        "turn-up suit trump, E leads, one core (CPU time a searched decision)"
    )
    return report, [head, *lines]


def _klabberjass_realplay(game: Game, args: argparse.Namespace) -> tuple[dict, list[str]]:
    """Milliseconds a contract and deals a second of the ``klabberjass-realplay`` study."""
    from analysis.bidding.klabberjass import deal_tables
    from analysis.bidding.realplay import (
        pimc_policy,
        play_key,
        played_row,
        realplay_deals,
        row_play,
        score_row,
        shared_policy,
    )
    from analysis.play import DEFAULT_SAMPLES, PIMC_TT_MB, play_deal

    rules, samples, n = game.rules, DEFAULT_SAMPLES, args.deals
    _, deals, play_seeds = realplay_deals(random.Random(args.seed), n)
    # the deal table's and the players' tables (one if of one size)
    cores = list({id(c): c for c in (klabberjass.core(), klabberjass.core(PIMC_TT_MB))}.values())
    clock, cpu = time.perf_counter, time.process_time
    for core in cores:
        core.clear()  # a study's worker starts with empty tables
    times, deal_times = [], []
    decisions = searches = rows = 0
    nodes, cpu_start = sum(c.nodes for c in cores), cpu()
    for deal, seed in zip(deals, play_seeds, strict=True):
        start = clock()
        (table,) = deal_tables([deal], rules)
        plays: dict[tuple, tuple[int, int]] = {}
        for j, row in enumerate(table):
            rows += 1
            if not args.shared_play:
                policy = pimc_policy(samples, seed, j)
                policy.persist = args.persist
                t0 = clock()
                played_row(deal, row, (policy, policy), rules)
            else:  # as realplay_table(..., "shared") plays them, one play a key
                kw = row_play(deal, row, rules)
                key = play_key(row, kw)
                if key in plays:
                    score_row(row, plays[key])
                    continue
                policy = shared_policy(samples, seed, key)
                policy.persist = args.persist
                t0 = clock()
                plays[key] = play_deal(
                    kw["hands"], kw["trump"], kw["turn"], (policy, policy),
                    rules=rules, shown=kw["shown"], bottom=kw["bottom"],
                ).points  # fmt: skip
                score_row(row, plays[key])
            times.append(clock() - t0)
            decisions += policy.stats.decisions
            searches += policy.stats.searches
        deal_times.append(clock() - start)
    cpu_seconds = cpu() - cpu_start
    contracts = len(times)
    report: dict = {
        "what": "realplay",
        "deals": n,
        "seed": args.seed,
        "rules": rules.name,
        "samples": samples,
        "persist": args.persist,
        "shared_play": args.shared_play,
        "rows": rows,
        "contracts": contracts,
        "median_ms": round(1e3 * statistics.median(times), 3),
        "mean_ms": round(1e3 * statistics.fmean(times), 3),
        "max_ms": round(1e3 * max(times), 3),
        "deals_per_second": round(n / sum(deal_times), 2),
        "cpu_ms_per_contract": round(1e3 * cpu_seconds / contracts, 3),
        "cpu_deals_per_second": round(n / cpu_seconds, 2) if cpu_seconds > 0 else None,
        "decisions_per_contract": round(decisions / contracts, 2),
        "searches_per_contract": round(searches / contracts, 1),
        "nodes_per_contract": round((sum(c.nodes for c in cores) - nodes) / contracts),
    }
    lines = [
        f"Klabberjass realplay study: {n} random deals (seed {args.seed}), rules "
        f"{rules.name}, each deal's {rows // n} contracts played by PIMC on both sides, "
        f"{samples} worlds a decision, one core" + (", persistent worlds" if args.persist else ""),
        *(
            [f"  shared play: {contracts} contracts played for {rows} rows"]
            if args.shared_play
            else []
        ),
        f"  per played contract: {_ms(times)}",
        f"  {report['deals_per_second']:.2f} deals/s (deal table included); CPU time "
        f"{report['cpu_ms_per_contract']:.3f} ms a contract, "
        f"{report['cpu_deals_per_second']} deals/s",
        f"  per contract: {report['decisions_per_contract']:.1f} decisions searched, "
        f"{report['searches_per_contract']:.0f} child searches, "
        f"{report['nodes_per_contract']} nodes",
    ]
    return report, lines


def _seconds_report(
    args: argparse.Namespace, what: str, times: list[float], sizes: list[int]
) -> tuple[dict, list[str]]:
    """The report of the analysis benchmarks (seconds a deal; positions a tree)."""
    report: dict = {
        "what": args.what,
        "deals": args.deals,
        "seed": args.seed,
        "median_s": round(statistics.median(times), 4),
        "mean_s": round(statistics.fmean(times), 4),
        "max_s": round(max(times), 4),
    }
    lines = [
        f"Klabberjass {what}, {args.deals} random deals (seed {args.seed}):",
        f"  median {report['median_s']:.3f} s, mean {report['mean_s']:.3f} s, "
        f"max {report['max_s']:.3f} s",
    ]
    if sizes:
        report["median_nodes"] = int(statistics.median(sizes))
        report["max_nodes"] = max(sizes)
        lines.append(
            f"  positions per tree: median {report['median_nodes']}, max {report['max_nodes']}"
        )
    return report, lines


# ---------------------------------------------------------------- carabin

_CARABIN_NAMES = {
    "exact": "exact bidder points, full deal",
    "make": "make/fail probe (half the points + 1)",
    "chelem": "all-tricks (chelem) search",
}


def _stats(ms: list[float]) -> dict:
    return {
        "median_ms": round(statistics.median(ms), 3),
        "mean_ms": round(statistics.mean(ms), 3),
        "max_ms": round(max(ms), 3),
    }


def _timed(search: Callable[[], Any], limit: float | None, core: Any) -> tuple[Any, float, bool]:
    """``search()``'s answer on ``core``, its milliseconds, and whether it ran out of time
    (the answer is then None and the time the limit)."""
    core.set_time_limit(limit)
    t0 = time.perf_counter()
    try:
        return search(), 1000 * (time.perf_counter() - t0), False
    except TimeoutError:
        return None, 1000 * float(limit or 0), True
    finally:
        core.set_time_limit(None)


def _carabin(game: Game, args: argparse.Namespace) -> tuple[dict, list[str]]:
    if args.what == "pimc":
        return _carabin_pimc(game, args)
    if args.what == "alphamu":
        return _carabin_alphamu(game, args)
    if args.what in ("tree", "advice"):
        return _carabin_analysis(game, args)
    n = game.rules.players
    order = game.rules.trick_order
    kinds = (args.what or ("make" if n == 6 else "exact,make")).split(",")
    for k in kinds:
        if k not in CARABIN_WHAT:
            raise UsageError(
                f"unknown --what '{k}' for carabin "
                "(expected exact, make, chelem, or one of pimc, alphamu, tree, advice alone)"
            )
    rng = random.Random(args.seed)
    core = carabin.core(None, n)  # the searches' default table: 128 MB at 6 players
    times: dict[str, list[float]] = {k: [] for k in kinds}
    over = dict.fromkeys(kinds, 0)
    made = chelems = 0
    progress = Progress("bench", "deals", ticking=True)
    for i in range(args.deals):
        d = CarabinDeal.random(players=n, rng=rng)
        start = d.position(bidder=rng.randrange(n), trump=suit_of(d.turn), trick_order=order)
        for k in kinds:
            core.clear()
            searches: dict[str, Callable[[], Any]] = {
                "exact": partial(carabin.value, start),
                "make": partial(carabin.make, start, d.points_in_play // 2 + 1),
                "chelem": partial(carabin.all_tricks, start),
            }
            answer, ms, ran_out = _timed(searches[k], args.time_limit, core)
            times[k].append(ms)
            over[k] += ran_out
            made += k == "make" and bool(answer)
            chelems += k == "chelem" and bool(answer)
        progress(i + 1, args.deals)
    progress.done()
    report: dict = {
        "game": "carabin",
        "players": n,
        "deals": args.deals,
        "seed": args.seed,
        "trick_order": order,
        "tt_mb": core.tt_bytes >> 20,
    }
    for k in kinds:
        report[k] = _stats(times[k])
        if args.time_limit is not None:
            report[k]["time_limit_s"] = args.time_limit
            report[k]["over_limit"] = over[k]
    if "make" in kinds:
        report["make"]["made"] = made
    if "chelem" in kinds:
        report["chelem"]["chelems"] = chelems
    if args.reference_deals:
        report["reference"] = _carabin_reference(n, args.reference_deals, rng, order)
    lines = [
        f"Carabin, {n} players, {args.deals} random deals (seed {args.seed}), random bidder, "
        f"turn-up suit trump, seat 0 leads, {order}; table {core.tt_bytes >> 20} MB cleared per deal"
    ]
    for k in kinds:
        s = report[k]
        extra = f", made {s['made']}" if k == "make" else ""
        extra += f", chelems {s['chelems']}" if k == "chelem" else ""
        if over[k]:
            extra += (
                f"; {over[k]} of {args.deals} ran out of the {args.time_limit:g} s limit "
                "(counted at the limit: the figures are lower bounds)"
            )
        lines.append(
            f"  {_CARABIN_NAMES[k]:40} median {s['median_ms']:.3f} ms  mean {s['mean_ms']:.3f} ms  "
            f"max {s['max_ms']:.3f} ms{extra}"
        )
    if "reference" in report:
        r = report["reference"]
        lines.append(
            f"  reference check on {r['positions']} small positions: {r['disagreements']} disagree"
        )
    return report, lines


def _carabin_pimc(game: Game, args: argparse.Namespace) -> tuple[dict, list[str]]:
    """Milliseconds a Carabin contract played by PIMC at every seat (20 worlds)."""
    from analysis.play import CarabinPimc, play_carabin
    from solver.carabin.deal import Contract

    n, samples = game.rules.players, 20
    rng = random.Random(args.seed)
    times, made = [], 0
    decisions = worlds = searches = undecided = 0
    for i in range(args.deals):
        d = CarabinDeal.random(players=n, rng=rng)
        contract = Contract(rng.randrange(n), suit_of(d.turn))
        policies = [
            CarabinPimc(samples, seed=n * i + s, time_limit=args.time_limit) for s in range(n)
        ]
        start = time.perf_counter()
        made += play_carabin(d, contract, policies).made
        times.append(time.perf_counter() - start)
        decisions += sum(p.stats.decisions for p in policies)
        worlds += sum(p.stats.worlds for p in policies)
        searches += sum(p.stats.searches for p in policies)
        undecided += sum(p.stats.undecided for p in policies)
    k = args.deals
    report = {
        "game": "carabin",
        "what": "pimc",
        "players": n,
        "deals": k,
        "seed": args.seed,
        "samples": samples,
        "median_ms": round(1e3 * statistics.median(times), 3),
        "mean_ms": round(1e3 * statistics.fmean(times), 3),
        "max_ms": round(1e3 * max(times), 3),
        "decisions_per_contract": round(decisions / k, 2),
        "worlds_per_contract": round(worlds / k, 1),
        "probes_per_contract": round(searches / k, 1),
        "made": made,
        "time_limit": args.time_limit,
        "undecided": undecided,
    }
    lines = [
        f"Carabin contracts played by PIMC at every seat, {n} players, {samples} worlds a "
        f"decision, {k} random deals (seed {args.seed}), random bidder, turn-up suit trump",
        f"  per contract: {_ms(times)}",
        f"  per contract: {report['decisions_per_contract']:.1f} decisions searched (of "
        f"{8 * n} cards), {report['worlds_per_contract']:.0f} worlds drawn, "
        f"{report['probes_per_contract']:.0f} make/chelem probes; made {made} of {k}",
    ]
    if args.time_limit is not None:
        lines.append(
            f"  time limit {args.time_limit} s a search: {undecided} searches undecided "
            "(each counts half a failure for its card)"
        )
    return report, lines


def carabin_alphamu_times(
    players: int, deals: int, seed: int, depth: int | None = None
) -> list[tuple[int, float, int]]:
    """Every searched decision of plain Carabin contracts played by αμ at every seat
    (default budget; ``depth``: its depth): (trick, CPU seconds, depth reached)."""
    from analysis.carabin_alphamu import DEFAULT_DEPTH, CarabinAlphaMu
    from analysis.play import CarabinState, play_carabin
    from solver.carabin.deal import Contract

    depth = DEFAULT_DEPTH if depth is None else depth
    rng = random.Random(seed)
    out: list[tuple[int, float, int]] = []

    class Timed:
        def __init__(self, player: CarabinAlphaMu):
            self.player = player

        def choose(self, state: CarabinState) -> int:
            s = self.player.stats
            before, reached = s.decisions, s.depth_reached
            cpu = time.process_time()
            card = self.player.choose(state)
            if s.decisions > before:
                out.append((len(state.played) // players, time.process_time() - cpu,
                            s.depth_reached - reached))  # fmt: skip
            return card

    for i in range(deals):
        d = CarabinDeal.random(players=players, rng=rng)
        contract = Contract(rng.randrange(players), suit_of(d.turn))
        pols = [Timed(CarabinAlphaMu(depth=depth, seed=players * i + s)) for s in range(players)]
        play_carabin(d, contract, pols)  # type: ignore[arg-type]
    return out


def _carabin_alphamu(game: Game, args: argparse.Namespace) -> tuple[dict, list[str]]:
    """CPU time of a Carabin αμ decision at the first trick and later (default budget)."""
    from analysis.carabin_alphamu import DEFAULT_DEPTH, DEFAULT_TIME_LIMIT, DEFAULT_WORLDS

    n = game.rules.players
    depth = DEFAULT_DEPTH if args.depth is None else args.depth
    rows = carabin_alphamu_times(n, args.deals, args.seed, depth)
    times, lines = _decision_times([(r[0], r[1], r[2]) for r in rows])
    report: dict = {
        "game": "carabin",
        "what": "alphamu",
        "players": n,
        "deals": args.deals,
        "seed": args.seed,
        "worlds": DEFAULT_WORLDS,
        "depth": depth,
        "time_limit": DEFAULT_TIME_LIMIT,
        **times,
    }
    head = (
        f"Carabin contracts played by alphamu at every seat, {n} players, {DEFAULT_WORLDS} "
        f"worlds, depth {depth} a decision (at most {DEFAULT_TIME_LIMIT:g} s), {args.deals} "
        f"random deals (seed {args.seed}), random bidder, turn-up suit trump, one core "
        "(CPU time a searched decision)"
    )
    return report, [head, *lines]


def _carabin_reference(n: int, count: int, rng: random.Random, order: str) -> dict:
    bad = 0
    for _ in range(count):
        d = CarabinDeal.random(players=n, rng=rng)
        # keep the lowest card of every hand
        hands = tuple((left & -left, right & -right) for left, right in d.hands)
        p = CarabinPosition(suit_of(d.turn), rng.randrange(n), 0, 0, hands, (), order)
        if carabin.value(p) != carabin_points(p)[0]:
            bad += 1
    return {"positions": count, "disagreements": bad}


#: Worlds of the Carabin advice benchmark, as for Klabberjass.
ADVICE_SAMPLES = 200


def _carabin_start(
    n: int, order: str, tricks: int, rng: random.Random
) -> tuple[CarabinPosition, str]:
    """A random deal, bidder and turn-up trump, seat 0 leading, played at random until
    ``tricks`` tricks are left: that position, and the view of the seat to move there."""
    d = CarabinDeal.random(players=n, rng=rng)
    p = d.position(bidder=rng.randrange(n), trump=suit_of(d.turn), trick_order=order)
    line = []
    for _ in range((8 - tricks) * n):
        line.append(rng.choice(p.legal_moves()))
        p = p.play(line[-1])
    me = p.to_move
    view = (
        f"players={n} seat={me} bidder={p.bidder} trump={SUITS[p.trump]} "
        f"turn={card_str(d.turn)} hand={format_holding(p.hands[me][0])}/"
        f"{format_holding(p.hands[me][1])} played={','.join(map(card_str, line))}"
    )
    if order != "alternate":
        view += f" order={order}"
    return p, view


def _carabin_analysis(game: Game, args: argparse.Namespace) -> tuple[dict, list[str]]:
    """Seconds a Carabin optimal tree (and its positions) or a PIMC advice, ``--tricks``
    tricks from the end; a time limit that runs out counts the limit."""
    from analysis.trees import MAX_NODES, TreeTimeoutError, TreeTooLargeError, optimal_tree

    n, order = game.rules.players, game.rules.trick_order
    tricks = 4 if args.tricks is None else args.tricks
    limit = args.time_limit
    rng = random.Random(args.seed)
    core = carabin.core(None, n)  # the context the trees and advice search with
    times: list[float] = []
    sizes: list[int] = []
    worlds: list[int] = []
    over = too_large = 0
    progress = Progress("bench", "deals", ticking=True)
    for i in range(args.deals):
        start, view_text = _carabin_start(n, order, tricks, rng)
        core.clear()  # every figure is for a first solve
        t0 = time.perf_counter()
        if args.what == "tree":
            try:
                sizes.append(optimal_tree(game, start, time_limit=limit).number_of_nodes())
            except TreeTimeoutError:
                over += 1
            except TreeTooLargeError:
                too_large += 1
        else:
            view = game.parse_view(view_text)
            try:
                solved = advise(view, ADVICE_SAMPLES, i, 1, time_limit=limit).samples
            except TricklabError:  # not one world within the limit
                solved = 0
            worlds.append(solved)
            over += solved < ADVICE_SAMPLES
        times.append(time.perf_counter() - t0)
        progress(i + 1, args.deals)
    progress.done()
    what = (
        "full optimal tree"
        if args.what == "tree"
        else f"advice over {ADVICE_SAMPLES} worlds (one core)"
    )
    report: dict = {
        "game": "carabin",
        "what": args.what,
        "players": n,
        "deals": args.deals,
        "seed": args.seed,
        "tricks": tricks,
        "trick_order": order,
        "median_s": round(statistics.median(times), 4),
        "mean_s": round(statistics.fmean(times), 4),
        "max_s": round(max(times), 4),
    }
    lines = [
        f"Carabin {what}, {n} players, {args.deals} random deals (seed {args.seed}), "
        f"{tricks} tricks left"
        + (f" (the first {8 - tricks} played at random)" if tricks < 8 else " (a whole deal)")
        + f", random bidder, turn-up suit trump, {order}; table cleared per deal",
        f"  median {report['median_s']:.3f} s, mean {report['mean_s']:.3f} s, "
        f"max {report['max_s']:.3f} s",
    ]
    if args.what == "tree":
        report["too_large"] = too_large
        if sizes:
            report["median_nodes"] = int(statistics.median(sizes))
            report["max_nodes"] = max(sizes)
            lines.append(
                f"  positions per tree: median {report['median_nodes']}, "
                f"max {report['max_nodes']} ({len(sizes)} trees finished)"
            )
        if too_large:
            lines.append(
                f"  {too_large} of {args.deals} trees have more than {MAX_NODES} positions "
                "(counted at the time it took to find out)"
            )
    else:
        report["samples"] = ADVICE_SAMPLES
        report["median_worlds"] = int(statistics.median(worlds))
    if limit is not None:
        report["time_limit_s"] = limit
        report["over_limit"] = over
        if over:
            lines.append(
                f"  {over} of {args.deals} ran out of the {limit:g} s limit (stopped there: "
                "the figures are lower bounds"
                + (
                    f"; median worlds solved {report['median_worlds']}"
                    if args.what == "advice"
                    else ""
                )
                + ")"
            )
    return report, lines
