"""Handlers of ``tricklab tree``, ``tricklab review`` and ``tricklab advise`` (SPEC §4).

``analysis.cli.main`` builds the parser and imports this module only when one of these verbs
runs, so ``import solver`` and the other commands never load networkx.
"""

from __future__ import annotations

import argparse
import json
import time

from solver.errors import RulesError
from solver.games import get_game


def _game(args: argparse.Namespace):
    return get_game(args.game, getattr(args, "rules", None) or "seed")


def tree(args: argparse.Namespace) -> int:
    """``tricklab tree <game> "<position>" [--json] [--all --depth N] [--per-class]``."""
    from analysis.trees import critical_decisions, full_tree, optimal_tree, tree_json, tree_summary

    game = _game(args)
    if args.depth is not None and not args.all:
        raise RulesError("--depth goes with --all (the optimal tree always runs to the end)")
    if args.all and args.depth is None:
        raise RulesError("--all needs --depth N (every legal line to N cards)")
    if args.max_nodes < 1:
        raise RulesError(f"invalid --max-nodes {args.max_nodes} (at least 1)")
    position = game.parse_position(args.position)
    if args.all:
        graph = full_tree(
            game, position, args.depth, per_class=args.per_class, max_nodes=args.max_nodes
        )
    else:
        graph = optimal_tree(game, position, per_class=args.per_class, max_nodes=args.max_nodes)
    if args.json:
        print(json.dumps(tree_json(graph)))
        return 0
    s = tree_summary(graph)
    kind = f"every legal line to {args.depth} cards" if args.all else "every optimal line"
    print(f"Trick tree of {game.key(position)} ({kind})")
    print(f"  value: {', '.join(f'{k} {v}' for k, v in s['value'].items())}")
    print(f"  {s['nodes']} positions, {s['edges']} edges, {s['optimal_lines']} optimal lines")
    print(f"  principal variation: {' '.join(s['pv'])}")
    crit = critical_decisions(graph)
    print(f"  critical decisions: {len(crit)}")
    for c in crit[:10]:
        print(
            f"    card {c['depth'] + 1}: {c['seat']} must play {'/'.join(c['optimal'])} "
            f"(next best loses {c['margin']}) in {c['position']}"
        )
    return 0


def review(args: argparse.Namespace) -> int:
    """``tricklab review <game> "<position or deal>" --play "<cards>" [--json]``."""
    from analysis.review import review as run

    game = _game(args)
    start = game.parse_start(args.start)
    result = run(game, start, args.play)
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(result.text())
    return 0


def advise(args: argparse.Namespace) -> int:
    """``tricklab advise <game> "<view>" --samples N --seed S [--json] [--workers K]``."""
    from analysis.advice import advise as run
    from solver.games import parse_view

    view = parse_view(args.game, args.view)
    result = run(view, args.samples, args.seed, args.workers, getattr(args, "rules", None))
    if args.json:
        print(json.dumps(result.to_json()))
        return 0
    inf = view.inference()
    print(f"Single-dummy advice for {view}")
    for reason in inf.reasons:
        print(f"  inferred: {reason}")
    print(f"  {result.samples} worlds drawn (seed {result.seed}) of {result.worlds} consistent")
    for card, m in sorted(result.moves.items(), key=lambda kv: -kv[1]["mean"]):
        print(
            f"  {card}: mean {m['mean']:.2f}, best in {100 * m['best_rate']:.0f}% "
            f"(min {m['min']}, max {m['max']})"
        )
    print(f"  best: {result.best}")
    return 0


# ---------------------------------------------------------------------- benchmarks


def bench(args: argparse.Namespace) -> int:
    """``tricklab bench klabberjass --what advice|tree``: the analysis benchmarks.

    ``advice``: PIMC over 200 worlds at the first trick of ``--deals`` random deals
    (elder to lead, the turn-up suit trump), transposition table cleared before each.
    ``tree``: the full optimal tree of ``--deals`` random 9-card positions, likewise.
    """
    import statistics

    from analysis.advice import advise as run
    from analysis.cli.klabberjass_verbs import random_positions
    from analysis.trees import optimal_tree
    from solver.cards import SUITS, card_str, format_holding
    from solver.klabberjass.deal import Deal
    from solver.klabberjass.engine import klabberjass_core
    from solver.klabberjass.view import KlabberjassView

    if args.deals < 1:
        raise RulesError(f"invalid --deals {args.deals} (at least 1)")
    game = _game(args)
    clock = time.perf_counter
    times: list[float] = []
    sizes: list[int] = []
    if args.what == "advice":
        for i in range(args.deals):
            deal = Deal.random(args.seed + i)
            view = KlabberjassView.parse(
                f"seat=E trump={SUITS[deal.turn_suit]} turn={card_str(deal.turn)} "
                f"hand={format_holding(deal.hands[0])}"
            )
            klabberjass_core().clear()
            start = clock()
            run(view, 200, seed=i, workers=None, rules=game.rules)
            times.append(clock() - start)
        what = "advice over 200 worlds, first trick, E to lead"
    else:
        for p in random_positions(args.deals, args.seed):
            klabberjass_core().clear()
            start = clock()
            graph = optimal_tree(game, p)
            times.append(clock() - start)
            sizes.append(graph.number_of_nodes())
        what = "full optimal tree of a random 9-card position"
    report = {
        "what": args.what,
        "deals": args.deals,
        "seed": args.seed,
        "median_s": round(statistics.median(times), 4),
        "mean_s": round(statistics.fmean(times), 4),
        "max_s": round(max(times), 4),
    }
    if sizes:
        report["median_nodes"] = int(statistics.median(sizes))
        report["max_nodes"] = max(sizes)
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"Klabberjass {what}, {args.deals} random deals (seed {args.seed}):")
    print(
        f"  median {report['median_s']:.3f} s, mean {report['mean_s']:.3f} s, "
        f"max {report['max_s']:.3f} s"
    )
    if sizes:
        print(f"  positions per tree: median {report['median_nodes']}, max {report['max_nodes']}")
    return 0
