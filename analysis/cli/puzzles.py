"""``tricklab puzzles generate <game> --count N --seed S [--cards K] …`` (SPEC §4).

With ``--json`` one JSON line per puzzle: ``{"position", "goal", "solution", "rating"}``
and the extra keys of :meth:`analysis.puzzles.Puzzle.to_json`; otherwise a readable
diagram per puzzle. ``--out DIR`` also writes ``puzzles.jsonl``, one diagram per puzzle
(``--render svg`` by default, or ``png``) and the printable ``sheet.html``.
"""

from __future__ import annotations

import argparse
import json
import sys

from solver.errors import TricklabError


class PuzzleUsageError(TricklabError):
    """Bad options of ``tricklab puzzles``."""


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``tricklab puzzles`` (called by :func:`analysis.cli.main.build_parser`)."""
    p.add_argument("action", choices=("generate",), help="generate")
    p.add_argument("game", choices=("klabberjass", "carabin"), help="klabberjass or carabin")
    p.add_argument("--count", type=int, default=10, help="number of puzzles")
    p.add_argument("--seed", type=int, default=0, help="seed (same seed, same puzzles)")
    p.add_argument("--cards", type=int, default=4, help="cards left per hand (Carabin: per seat)")
    p.add_argument("--goal", default="max", help="max (default), contract or all-tricks")
    p.add_argument("--theme", action="append", default=[], help="deal theme (repeatable)")
    p.add_argument(
        "--in-trick",
        action="store_true",
        help="start inside a trick: the defenders before the side to move have played",
    )
    p.add_argument("--players", type=int, default=4, help="Carabin: number of players (3-6)")
    p.add_argument("--min-decisions", type=int, default=None, help="fewest unique decisions")
    p.add_argument("--min-rating", type=float, default=0.0, help="lowest rating kept")
    p.add_argument("--max-candidates", type=int, default=None, help="give up after this many")
    p.add_argument("--json", action="store_true", help="one JSON line per puzzle")
    p.add_argument("--out", default=None, help="folder for puzzles.jsonl, diagrams and sheet")
    p.add_argument("--render", choices=("svg", "png"), default=None, help="diagram format")


def _text(puzzle, number: int) -> str:
    from analysis.puzzles.render import puzzle_title, solution_text

    lines = [puzzle_title(puzzle, number), f"  {puzzle.position}"]
    if puzzle.game == "klabberjass":
        from analysis.cli.klabberjass_verbs import position_diagram
        from solver.klabberjass import Position

        lines += ["  " + x for x in position_diagram(Position.parse(puzzle.position)).splitlines()]
    lines.append(f"  solution: {solution_text(puzzle)}")
    return "\n".join(lines)


def puzzles(args: argparse.Namespace) -> int:
    """Run ``tricklab puzzles generate``."""
    from analysis.puzzles.generate import iter_puzzles

    if args.count < 1:
        raise PuzzleUsageError(f"invalid --count {args.count} (expected 1 or more)")
    if args.max_candidates is not None and args.max_candidates < 1:
        raise PuzzleUsageError(
            f"invalid --max-candidates {args.max_candidates} (expected 1 or more)"
        )
    if args.render is not None and args.out is None:
        raise PuzzleUsageError("--render needs --out DIR (where to write the diagrams)")
    from analysis.puzzles.generate import default_min_decisions

    min_decisions = args.min_decisions
    if min_decisions is None:
        min_decisions = default_min_decisions(args.game, args.cards, args.goal)
    themes = tuple(args.theme) + (
        ("in-trick",) if args.in_trick and "in-trick" not in args.theme else ()
    )
    limit = args.max_candidates if args.max_candidates is not None else 2000 * args.count
    show = sys.stderr.isatty() and not args.json

    def progress(tried: int, found: int) -> None:
        if show and tried % 50 == 0:
            print(f"\r{found}/{args.count} puzzles, {tried} candidates", end="", file=sys.stderr)

    found = []
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
    for p in it:
        found.append(p)
        if args.json:
            print(json.dumps(p.to_json()), flush=True)
        else:
            print(_text(p, len(found)), flush=True)
        if len(found) >= args.count:
            break
    if show:
        print(file=sys.stderr)
    if args.out is not None:
        from pathlib import Path

        from analysis.puzzles.render import write_diagrams

        folder = Path(args.out)
        folder.mkdir(parents=True, exist_ok=True)
        with open(folder / "puzzles.jsonl", "w", encoding="utf-8") as fh:
            for p in found:
                fh.write(json.dumps(p.to_json()) + "\n")
        write_diagrams(found, folder, args.render or "svg", title=f"{args.game} puzzles")
    if len(found) < args.count:
        print(
            f"tricklab: error: found {len(found)} of {args.count} puzzles in {limit} candidates "
            "(try more cards, another goal or fewer themes)",
            file=sys.stderr,
        )
        return 1
    return 0


__all__ = ["add_arguments", "puzzles"]
