"""``tricklab advise <game> "<view>"``: single-dummy advice from one player's view.

The player to move is advised by PIMC: his average double-dummy points for each legal
card over ``--samples`` worlds consistent with what he knows (the same ``--seed``,
the same worlds, whatever ``--workers``). ``--json`` prints ``{"moves": {card:
{"mean", ...}}, "best", "samples", ...}``; otherwise the inferences and a table. In
Carabin the cards are ranked by the share of worlds where the contract is made (or, for
the others, fails), then the chelem, then the mean points.
"""

from __future__ import annotations

import argparse
import json
import sys

from analysis.advice import advise
from analysis.cli.common import (
    Progress,
    add_game,
    add_rules,
    count,
    game_of,
    read,
    seconds,
    whole,
)
from solver.limits import MAX_SAMPLES, max_workers

HELP = "single-dummy advice (PIMC) from one player's view"

#: Runnable examples, shown under ``tricklab advise --help`` (and run by the tests).
EXAMPLES = (
    'tricklab advise klabberjass "seat=E trump=H turn=QD hand=AT7.KJ9.7.A8 played=" --samples 50 --seed 1',
    'tricklab advise klabberjass "seat=D trump=H turn=JH hand=AT9.KQ.A.AQT played=7S" --samples 50 --seed 1 --json',
)
_SAMPLES = count("--samples", 1, MAX_SAMPLES)
_WORKERS = count("--workers", 1, max_workers(), "four per core")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``tricklab advise``."""
    add_game(parser)
    parser.add_argument(
        "view",
        help='what the player to move knows, e.g. "seat=E trump=H turn=QD hand=AT7.KJ9.7.A8 '
        'played=" (played= lists the cards played so far in order, comma-separated: 7S,8D)',
    )
    parser.add_argument("--samples", type=_SAMPLES, default=200, help="worlds to draw")
    parser.add_argument("--seed", type=whole("--seed"), default=None, help="seed of the draw")
    parser.add_argument(
        "--workers", type=_WORKERS, default=None, help="processes (default: all cores)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--time-limit",
        type=seconds,
        default=None,
        metavar="SECONDS",
        help="solve the worlds one by one and stop after SECONDS: the advice then rests "
        "on the worlds finished (a note on stderr says how many)",
    )
    add_rules(parser)


def run(args: argparse.Namespace) -> int:
    """Run ``tricklab advise``."""
    game = game_of(args)
    view = read(game, args.view, game.parse_view)
    progress = Progress("advise", "worlds")
    try:
        result = advise(
            view,
            args.samples,
            args.seed,
            args.workers,
            game.rules,
            time_limit=args.time_limit,
            progress=progress,
        )
    finally:
        progress.done()
    if result.samples < args.samples:
        print(
            f"tricklab: note: the time limit ({args.time_limit:g} s) ran out: the advice "
            f"rests on {result.samples} of the {args.samples} worlds drawn",
            file=sys.stderr,
        )
    if args.json:
        print(json.dumps(result.to_json()))
        return 0
    inf = view.inference()
    print(f"Single-dummy advice for {view}")
    for reason in inf.reasons:
        print(f"  inferred: {reason}")
    print(f"  {result.samples} worlds drawn (seed {result.seed}) of {result.worlds} consistent")
    for card in result.ranked:
        m = result.moves[card]
        rates = ""
        if "make_rate" in m:
            rates = (
                f"made in {100 * m['make_rate']:.0f}%, chelem in {100 * m['chelem_rate']:.0f}%, "
            )
        print(
            f"  {card}: {rates}mean {m['mean']:.2f}, best in {100 * m['best_rate']:.0f}% "
            f"(min {m['min']}, max {m['max']})"
        )
    print(f"  best: {result.best}")
    return 0
