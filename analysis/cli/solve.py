"""``tricklab solve <game> "<position>"``: the double-dummy value of a play position.

``--json`` prints one object per position (``points``, ``best``, and ``pv`` for
Klabberjass or ``all_tricks`` for Carabin; ``--moves`` adds every legal card's value);
otherwise a diagram and the answer. ``-`` reads one position per stdin line.
"""

from __future__ import annotations

import argparse
from typing import Any

from analysis.cli.common import (
    Progress,
    add_game,
    add_rules,
    add_time_limit,
    add_workers,
    count,
    game_of,
    note_bounds,
    read,
    workers_of,
)
from analysis.cli.textio import answer_inputs, result_text
from solver import carabin, klabberjass
from solver.games import Game
from solver.limits import TT_WHY, max_tt_mb

HELP = "solve a play position double-dummy"

#: Runnable examples, shown under ``tricklab solve --help`` (and run by the tests).
EXAMPLES = (
    'tricklab solve klabberjass "trump=H lead=E E=A... D=K..." --json',
    'tricklab solve klabberjass "trump=H lead=E E=AT7.KJ9.7.A8 D=K.AT8.KT9.Q7" --moves',
    'tricklab solve carabin "trump=H bidder=2 lead=1 next=L 0=.5..J/6.J.. 1=KJ.../A4... 2=Q..A./..K8." --json',
)
_TT_MB = count("--tt-mb", 1, max_tt_mb(), TT_WHY)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``tricklab solve``."""
    add_game(parser)
    parser.add_argument(
        "position",
        help='a position, e.g. "trump=H lead=E E=A... D=K...", or "-" to read one per line',
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object per position")
    parser.add_argument("--moves", action="store_true", help="add the value of every legal card")
    parser.add_argument("--tt-mb", type=_TT_MB, default=None, help="transposition table size in MB")
    add_workers(
        parser,
        "Carabin: threads searching at once, the others helping each card's search with its table",
    )
    add_time_limit(parser)
    add_rules(parser)


def solve(
    game: Game,
    position: Any,
    moves: bool,
    tt_mb: int | None,
    time_limit: float | None = None,
    workers: int = 1,
) -> Any:
    """``game.solve(position, moves)``, with a transposition table of ``tt_mb`` MB if
    given, within ``time_limit`` seconds if given; a Carabin search on ``workers``
    threads."""
    if game.name == "carabin" and workers > 1:
        return carabin.solve(
            position, moves=moves, tt_mb=tt_mb, time_limit=time_limit, workers=workers
        )
    if tt_mb is None:
        return game.solve(position, moves=moves, time_limit=time_limit)
    # the protocol's solve keeps the default table; another size is the engine's option
    if game.name == "klabberjass":
        return klabberjass.solve(
            position, game.rules, moves=moves, tt_mb=tt_mb, time_limit=time_limit
        )
    return carabin.solve(position, moves=moves, tt_mb=tt_mb, time_limit=time_limit)


def run(args: argparse.Namespace) -> int:
    """Run ``tricklab solve``; in batch mode every line gets its answer or its error."""
    game = game_of(args)
    workers = workers_of(args)

    def answer(position: Any) -> Any:
        progress = Progress("solve", ticking=True)
        progress.say(
            "searching"
            if args.time_limit is not None
            else "searching (--time-limit SECONDS answers with proven bounds)"
        )
        try:
            result = solve(game, position, args.moves, args.tt_mb, args.time_limit, workers)
        finally:
            progress.done()
        if not result.exact:
            note_bounds("the points", args.time_limit)
        return result.to_json() if args.json else result_text(game, result)

    return answer_inputs(
        args.position, lambda text: read(game, text, game.parse_position), answer, args.json
    )
