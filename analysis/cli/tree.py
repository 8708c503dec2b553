"""``tricklab tree <game> "<position>"``: the trick tree of a position.

By default every line of optimal play, transpositions merged; ``--all --depth N``
every legal line to N cards. ``--json`` prints the tree as networkx node-link JSON,
each edge with its ``card`` and ``loss``; otherwise a summary and the critical
decisions (where only one card, or class of cards, keeps the value). ``--random
[--seed S] [--players N]`` starts from a random deal instead: its turn-up suit trump,
seat 0 (E) leading and, in Carabin, bidding.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from analysis.cli.common import (
    Progress,
    UsageError,
    add_game,
    add_players,
    add_rules,
    add_time_limit,
    count,
    game_of,
    read,
    whole,
)
from solver.cards import suit_of
from solver.limits import MAX_DEPTH, max_tree_nodes

HELP = "trick tree of a position (networkx node-link JSON)"

#: Runnable examples, shown under ``tricklab tree --help`` (and run by the tests).
EXAMPLES = (
    'tricklab tree klabberjass "trump=H lead=E E=A.7.. D=K.8.."',
    'tricklab tree klabberjass "trump=H lead=E E=A.7.. D=K.8.." --json --all --depth 2',
    "tricklab tree carabin --random --seed 3 --players 3 --all --depth 2",
)

_DEPTH = count("--depth", 1, MAX_DEPTH)
_NODES = count("--max-nodes", 1, max_tree_nodes(), "what this machine's memory holds")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``tricklab tree``."""
    add_game(parser)
    parser.add_argument(
        "position", nargs="?", help='a position, e.g. "trump=H lead=E E=A.7.. D=K.8.."'
    )
    parser.add_argument(
        "--random",
        action="store_true",
        help="start from a random deal (turn-up suit trump, seat 0 leads and bids)",
    )
    parser.add_argument(
        "--seed", type=whole("--seed"), default=None, help="seed of the random deal"
    )
    add_players(parser)
    parser.add_argument("--json", action="store_true", help="print networkx node-link JSON")
    parser.add_argument(
        "--all", action="store_true", help="every legal line, not only optimal ones"
    )
    parser.add_argument(
        "--depth", type=_DEPTH, default=None, help="with --all: cards to look ahead"
    )
    parser.add_argument("--per-class", action="store_true", help="one edge per equivalent cards")
    parser.add_argument("--max-nodes", type=_NODES, default=200_000, help="refuse larger trees")
    add_time_limit(parser)
    add_rules(parser)


def run(args: argparse.Namespace) -> int:
    """Run ``tricklab tree``."""
    # networkx is heavy: loaded only when a tree is asked for
    from analysis.trees import critical_decisions, full_tree, optimal_tree, tree_json, tree_summary

    game = game_of(args)
    if args.depth is not None and not args.all:
        raise UsageError("--depth goes with --all (the optimal tree always runs to the end)")
    if args.all and args.depth is None:
        raise UsageError("--all needs --depth N (every legal line to N cards)")
    position = _start(game, args)
    progress = Progress("tree", "positions", ticking=True)
    limits = {"max_nodes": args.max_nodes, "time_limit": args.time_limit, "progress": progress}
    try:
        if args.all:
            graph = full_tree(game, position, args.depth, per_class=args.per_class, **limits)
        else:
            graph = optimal_tree(game, position, per_class=args.per_class, **limits)
    finally:
        progress.done()
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


def _start(game: Any, args: argparse.Namespace) -> Any:
    """The root: the position given, or (``--random``) a random deal's first card."""
    if args.random:
        if args.position is not None:
            raise UsageError(
                f'give either a position or --random, not both (got "{args.position}" and --random)'
            )
        deal = game.random_deal(args.seed)
        start = read(game, str(deal), game.parse_deal)
        return start.position(bidder=0, trump=suit_of(deal.turn), **_order(game))
    if args.seed is not None:
        raise UsageError("--seed goes with --random (it seeds the random deal)")
    if args.players is not None:
        raise UsageError("--players goes with --random (a position says how many play)")
    if args.position is None:
        raise UsageError("no position given (a position, or --random)")
    return read(game, args.position, game.parse_position)


def _order(game: Any) -> dict:
    order = getattr(game.rules, "trick_order", None)
    return {} if order is None else {"trick_order": order}
