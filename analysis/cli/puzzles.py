"""``tricklab puzzles generate <game> --count N --seed S [--cards K] …``: verified puzzles.

With ``--json`` one JSON line per puzzle: ``{"position", "goal", "solution", "rating"}``
and the extra keys of :meth:`analysis.puzzles.Puzzle.to_json`; otherwise a readable
diagram per puzzle. ``--out DIR`` also writes ``puzzles.jsonl``, one diagram per puzzle
(``--render svg`` by default, or ``png``) and the printable ``sheet.html``. Finding
fewer puzzles than asked within ``--max-candidates`` (or ``--time-limit``, which stops
the searches at the deadline and keeps the puzzles found) is exit status 1.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from analysis.advice import _engine_core
from analysis.cli.common import GAME_NAMES, UsageError, count, finite, seconds, whole
from analysis.cli.textio import position_diagram
from analysis.puzzles.generate import Puzzle, default_min_decisions, iter_puzzles
from analysis.puzzles.render import puzzle_title, solution_text, write_diagrams
from solver.games import get_game
from solver.limits import MAX_CANDIDATES, MAX_PUZZLES

HELP = "generate verified double-dummy puzzles"

#: Runnable examples, shown under ``tricklab puzzles --help`` (and run by the tests).
EXAMPLES = ("tricklab puzzles generate klabberjass --count 2 --seed 1 --cards 4 --json",)
_COUNT = count("--count", 1, MAX_PUZZLES)
_CARDS = count("--cards", 2, 9)
_PLAYERS = count("--players", 3, 6)
_DECISIONS = count("--min-decisions", 0, 100)
_CANDIDATES = count("--max-candidates", 1, MAX_CANDIDATES)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``tricklab puzzles``."""
    p = parser
    p.add_argument("action", choices=("generate",), help="generate")
    p.add_argument("game", choices=GAME_NAMES, help=" or ".join(GAME_NAMES))
    p.add_argument("--count", type=_COUNT, default=10, help="number of puzzles")
    p.add_argument("--seed", type=whole("--seed"), default=0, help="seed (same seed, same puzzles)")
    p.add_argument(
        "--cards", type=_CARDS, default=4, help="cards left per hand (Carabin: per seat)"
    )
    p.add_argument("--goal", default="max", help="max (default), contract or all-tricks")
    p.add_argument("--theme", action="append", default=[], help="deal theme (repeatable)")
    p.add_argument(
        "--in-trick",
        action="store_true",
        help="start inside a trick: the defenders before the side to move have played",
    )
    p.add_argument("--players", type=_PLAYERS, default=4, help="Carabin: number of players (3-6)")
    p.add_argument("--min-decisions", type=_DECISIONS, default=None, help="fewest unique decisions")
    p.add_argument(
        "--min-rating", type=finite("--min-rating"), default=0.0, help="lowest rating kept"
    )
    p.add_argument(
        "--max-candidates", type=_CANDIDATES, default=None, help="give up after this many"
    )
    p.add_argument(
        "--time-limit",
        type=seconds,
        default=None,
        metavar="SECONDS",
        help="stop after SECONDS, keeping the puzzles found by then",
    )
    p.add_argument("--json", action="store_true", help="one JSON line per puzzle")
    p.add_argument("--out", default=None, help="folder for puzzles.jsonl, diagrams and sheet")
    p.add_argument("--render", choices=("svg", "png"), default=None, help="diagram format")


def _text(puzzle: Puzzle, number: int) -> str:
    game = get_game(puzzle.game)
    diagram = position_diagram(game, game.parse_position(puzzle.position))
    lines = [puzzle_title(puzzle, number), f"  {puzzle.position}"]
    lines += ["  " + x for x in diagram.splitlines()]
    lines.append(f"  solution: {solution_text(puzzle)}")
    return "\n".join(lines)


def _write(found: list[Puzzle], folder: Path, render: str, game: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "puzzles.jsonl", "w", encoding="utf-8") as fh:
        for p in found:
            fh.write(json.dumps(p.to_json()) + "\n")
    write_diagrams(found, folder, render, title=f"{game} puzzles")


def run(args: argparse.Namespace) -> int:
    """Run ``tricklab puzzles generate``."""
    if args.render is not None and args.out is None:
        raise UsageError("--render needs --out DIR (where to write the diagrams)")
    if args.out is not None:  # a folder that cannot be made fails now, not after the search
        try:
            Path(args.out).mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise UsageError(f"invalid --out '{args.out}' ({err.strerror or err})") from None
    min_decisions = args.min_decisions
    if min_decisions is None:
        min_decisions = default_min_decisions(args.game, args.cards, args.goal)
    themes = tuple(args.theme) + (
        ("in-trick",) if args.in_trick and "in-trick" not in args.theme else ()
    )
    limit = args.max_candidates if args.max_candidates is not None else 2000 * args.count
    show = sys.stderr.isatty() and not args.json
    start = time.monotonic()
    shown = [start]  # when the progress line was last written
    tried = [0]

    def progress(count: int, found: int) -> None:
        tried[0] = count
        now = time.monotonic()
        if show and now - start >= 1.0 and now - shown[0] >= 0.2:
            shown[0] = now
            print(f"\r{found}/{args.count} puzzles, {count} candidates", end="", file=sys.stderr)

    found: list[Puzzle] = []
    it = iter_puzzles(
        args.game,
        seed=args.seed,
        cards=args.cards,
        goal=args.goal,
        themes=themes,
        players=args.players,
        min_decisions=min_decisions,
        min_rating=args.min_rating,
        max_candidates=limit,
        progress=progress,
    )
    core = _engine_core(get_game(args.game), args.players) if args.time_limit is not None else None
    timed_out = False
    if core is not None:
        core.set_time_limit(args.time_limit)  # a deadline for every search from now on
    try:
        for p in it:
            found.append(p)
            print(json.dumps(p.to_json()) if args.json else _text(p, len(found)), flush=True)
            if len(found) >= args.count:
                break
    except TimeoutError:
        timed_out = True
    finally:
        if core is not None:
            core.set_time_limit(None)
    if show and shown[0] > start:
        print(file=sys.stderr)
    if args.out is not None:
        _write(found, Path(args.out), args.render or "svg", args.game)
    if len(found) < args.count and timed_out:
        print(
            f"tricklab: error: found {len(found)} of {args.count} puzzles within the time "
            f"limit ({args.time_limit:g} s, {tried[0]} candidates tried; try fewer cards, "
            "players or themes, or allow more time)",
            file=sys.stderr,
        )
        return 1
    if len(found) < args.count:
        print(
            f"tricklab: error: found {len(found)} of {args.count} puzzles in {limit} candidates "
            "(try more cards, another goal or fewer themes)",
            file=sys.stderr,
        )
        return 1
    return 0
