"""``tricklab review <game> "<position or deal>" --play "<cards>"``: the loss of every card.

The start is a position, or a deal with its contract (``trump=``, and ``bidder=`` for
Carabin). ``--json`` prints ``{"plays": [{"card", "loss", "best", ...}, ...], ...}``,
one row per card played; otherwise a table of the plays.
"""

from __future__ import annotations

import argparse
import json

from analysis.cli.common import add_game, add_rules, game_of, read
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
    add_rules(parser)


def run(args: argparse.Namespace) -> int:
    """Run ``tricklab review``."""
    game = game_of(args)
    start = read(game, args.start, game.parse_start)
    result = review(game, start, args.play)
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print(result.text())
    return 0
