"""``tricklab deal <game> "<deal>"``: the double-dummy table of a whole deal.

One row per bidder and trump (only the fixed ones when the deal gives ``bidder=`` /
``trump=``). ``--json`` prints one object per deal: for Klabberjass ``deal``, ``rules``
and ``table``; for Carabin ``points_in_play`` and ``table`` (and ``deal`` with
``--random``). ``-`` reads one deal per stdin line; ``--random [--seed S]`` deals one.
"""

from __future__ import annotations

import argparse
from typing import Any

from analysis.cli.common import (
    Progress,
    UsageError,
    add_game,
    add_players,
    add_rules,
    add_time_limit,
    add_workers,
    game_of,
    note_bounds,
    whole,
    workers_of,
)
from analysis.cli.textio import answer_inputs
from analysis.tables import table_text

HELP = "double-dummy table of a whole deal"

#: Runnable examples, shown under ``tricklab deal --help`` (and run by the tests).
EXAMPLES = (
    'tricklab deal klabberjass "E=AK.K.K8.A/T9..J. D=8.QT8.9.8/..A.KJ turn=7C"',
    "tricklab deal klabberjass --random --seed 7 --rules classic --json",
    "tricklab deal carabin --random --seed 3 --players 3",
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``tricklab deal``."""
    add_game(parser)
    parser.add_argument(
        "deal",
        nargs="?",
        help='a deal, e.g. "E=AK.K.K8.A/T9..J. D=8.QT8.9.8/..A.KJ turn=7C", or "-" to '
        "read one per line",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object per deal")
    parser.add_argument("--random", action="store_true", help="deal one at random")
    parser.add_argument(
        "--seed", type=whole("--seed"), default=None, help="seed of the random deal"
    )
    add_players(parser)
    add_time_limit(parser)
    add_rules(parser)
    add_workers(
        parser,
        "rows solved at once, one thread and table each, a free one helping the rows "
        "still searching; the rows are the same whatever the number",
    )


def run(args: argparse.Namespace) -> int:
    """Run ``tricklab deal``; in batch mode every line gets its table or its error."""
    game = game_of(args)
    workers = workers_of(args)

    def answer(deal: Any) -> Any:
        progress = Progress("deal", ticking=True)
        try:
            table = game.deal_table(
                deal, time_limit=args.time_limit, progress=progress, workers=workers
            )
        finally:
            progress.done()
        if any(not getattr(row, "exact", True) for row in table):
            note_bounds("the points of some rows", args.time_limit)
        if not args.json:
            return table_text(table)
        obj = table.to_json()
        if args.random and "deal" not in obj:
            obj = {"deal": str(deal), **obj}
        return obj

    if args.random:
        if args.deal is not None:
            raise UsageError(
                f'give either a deal or --random, not both (got "{args.deal}" and --random)'
            )
        deal = game.random_deal(args.seed)
        return answer_inputs(str(deal), lambda _: deal, answer, args.json, "deal")
    if args.seed is not None:
        raise UsageError("--seed goes with --random (it seeds the random deal)")
    if args.players is not None:
        raise UsageError("--players goes with --random (a deal says how many play)")
    if args.deal is None:
        raise UsageError('no deal given (a deal, "-" to read one per line from stdin, or --random)')
    return answer_inputs(args.deal, game.parse_deal, answer, args.json, "deal")
