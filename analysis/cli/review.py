"""``tricklab review <game> "<position or deal>" --play "<cards>"``: the loss of every card.

The start is a position, or a deal with its contract (``trump=``, and ``bidder=`` for
Carabin); the whole line is checked before any search. ``--time-limit`` bounds the
review (a line not reviewed in time is one error line). ``--json`` prints ``{"plays": [{"card", "loss", "best", ...}, ...], ...}``,
one row per card played; otherwise a table of the plays.
"""

from __future__ import annotations

import argparse
import json

from analysis.cli.common import Progress, add_game, add_rules, game_of, read, seconds
from analysis.review import review

HELP = "loss of every card of a line of play"

#: Runnable examples, shown under ``tricklab review --help`` (and run by the tests).
EXAMPLES = ('tricklab review klabberjass "trump=H lead=E E=A.7.. D=K.8.." --play "AS KS 7H 8H"',)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``tricklab review``."""
    add_game(parser)
    parser.add_argument(
        "start",
        help='a position, or a deal with trump= (and bidder= for Carabin), e.g. "trump=H lead=E E=A.7.. D=K.8.."',
    )
    parser.add_argument("--play", required=True, help='the cards played, in order: "AS KS 7H"')
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--time-limit",
        type=seconds,
        default=None,
        metavar="SECONDS",
        help="give up after SECONDS with one error line (a whole deal of five or six "
        "players can take long to solve)",
    )
    add_rules(parser)


def run(args: argparse.Namespace) -> int:
    """Run ``tricklab review``."""
    game = game_of(args)
    start = read(game, args.start, game.parse_start)
    progress = Progress("review", "cards", ticking=True)
    try:
        result = review(game, start, args.play, time_limit=args.time_limit, progress=progress)
    finally:
        progress.done()
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(result.text())
    return 0
