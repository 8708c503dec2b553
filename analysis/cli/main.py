"""The ``tricklab`` command line (SPEC §4): ``tricklab <verb> <game> ...``.

Each game keeps its commands in a module of its own (``analysis.cli.klabberjass_verbs``,
``analysis.cli.carabin_verbs``) exposing one function per verb, ``solve(args) -> int`` and so
on; this module builds the parser and turns every tricklab error into one line on
stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from solver.errors import TricklabError

GAMES = ("klabberjass", "carabin")


class UsageError(TricklabError):
    """A command line that cannot be understood."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # type: ignore[override]
        where = "" if self.prog == "tricklab" else f"{self.prog.removeprefix('tricklab ')}: "
        if message.startswith("unrecognized arguments"):
            message += " (a position or deal has spaces: put it in quotes)"
        raise UsageError(f"{where}{message}")


def _game(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("game", choices=GAMES, help="klabberjass or carabin")


def _rules(sub: argparse.ArgumentParser) -> None:
    sub.add_argument(
        "--rules", default="seed", help="rules preset: seed (default) or classic (Klabberjass)"
    )


def build_parser() -> argparse.ArgumentParser:
    """The argparse parser of every verb."""
    parser = _Parser(prog="tricklab", description="Exact analysis of Klabberjass and Carabin.")
    verbs = parser.add_subparsers(dest="verb", metavar="<verb>", parser_class=_Parser)
    verbs.required = True

    p = verbs.add_parser("demo", help="solve a built-in example deal and show it")
    p.add_argument("game", nargs="?", choices=GAMES, default="klabberjass")

    p = verbs.add_parser("solve", help="solve a play position double-dummy")
    _game(p)
    p.add_argument("position", help='a position (SPEC notation) or "-" to read one per line')
    p.add_argument("--json", action="store_true", help="print one JSON object per position")
    p.add_argument("--moves", action="store_true", help="add the value of every legal card")
    p.add_argument("--tt-mb", type=int, default=None, help="transposition table size in MB")
    _rules(p)

    p = verbs.add_parser("deal", help="double-dummy table of a whole deal")
    _game(p)
    p.add_argument("deal", nargs="?", help='a deal (SPEC notation) or "-" to read one per line')
    p.add_argument("--json", action="store_true")
    p.add_argument("--random", action="store_true", help="deal one at random")
    p.add_argument("--seed", type=int, default=None, help="seed of the random deal")
    p.add_argument("--players", type=int, default=4, help="Carabin: number of players (3-6)")
    _rules(p)

    p = verbs.add_parser("bench", help="measure the engine's speed")
    _game(p)
    p.add_argument("--deals", type=int, default=1000, help="number of random deals")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--reference-deals", type=int, default=None, help="deals for the reference")
    p.add_argument("--players", type=int, default=4, help="Carabin: number of players (3-6)")
    p.add_argument("--what", default=None, help="what to measure (game-specific, see --help)")
    p.add_argument("--json", action="store_true")
    _rules(p)

    p = verbs.add_parser("tree", help="trick tree of a position (networkx node-link JSON)")
    _game(p)
    p.add_argument("position", help="a position (SPEC notation)")
    p.add_argument("--json", action="store_true", help="print networkx node-link JSON")
    p.add_argument("--all", action="store_true", help="every legal line, not only optimal ones")
    p.add_argument("--depth", type=int, default=None, help="with --all: cards to look ahead")
    p.add_argument("--per-class", action="store_true", help="one edge per equivalent cards")
    p.add_argument("--max-nodes", type=int, default=200_000, help="refuse larger trees")
    _rules(p)

    p = verbs.add_parser("review", help="loss of every card of a line of play")
    _game(p)
    p.add_argument("start", help="a position, or a deal with trump= (and bidder= for Carabin)")
    p.add_argument("--play", required=True, help='the cards played, in order: "AS KS 7H"')
    p.add_argument("--json", action="store_true")
    _rules(p)

    p = verbs.add_parser("advise", help="single-dummy advice (PIMC) from one player's view")
    _game(p)
    p.add_argument("view", help="what the player to move knows (SPEC view notation)")
    p.add_argument("--samples", type=int, default=200, help="worlds to draw")
    p.add_argument("--seed", type=int, default=None, help="seed of the draw")
    p.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    p.add_argument("--json", action="store_true")
    _rules(p)

    p = verbs.add_parser("study", help="run a strategy study into Parquet files")
    p.add_argument("name", nargs="?", help="the study (see --list)")
    p.add_argument("--list", action="store_true", help="name the studies")
    p.add_argument("--deals", type=int, default=None, help="number of random deals")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", default=None, help="output folder (resumed if begun)")
    p.add_argument("--workers", type=int, default=None, help="local processes (default: cores)")
    p.add_argument("--scheduler", default=None, help="Dask scheduler tcp://HOST:PORT")
    p.add_argument("--param", action="append", help="study parameter NAME=VALUE")
    p.add_argument("--rules", default=None, help="Klabberjass rules preset (seed, classic)")
    p.add_argument("--chunk-size", type=int, default=None, help="deals a chunk (default: study's)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")

    p = verbs.add_parser("puzzles", help="generate verified double-dummy puzzles")
    importlib.import_module("analysis.cli.puzzles").add_arguments(p)
    return parser


def _dispatch(args: argparse.Namespace) -> int:
    if args.verb == "study":
        return int(importlib.import_module("analysis.cli.study").study(args))
    if args.verb == "puzzles":
        return int(importlib.import_module("analysis.cli.puzzles").puzzles(args))
    game = getattr(args, "game", None) or "klabberjass"
    if args.verb in ("tree", "review", "advise"):
        return int(getattr(importlib.import_module("analysis.cli.analysis_verbs"), args.verb)(args))
    module = importlib.import_module(f"analysis.cli.{game}_verbs")
    handler = getattr(module, args.verb, None)
    if handler is None:
        raise UsageError(f"'{args.verb}' is not available for {game}")
    return int(handler(args) or 0)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status.

    Bad input of any kind gives one line on stderr and status 2.
    """
    parser = build_parser()
    try:
        args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
        return _dispatch(args)
    except TricklabError as err:
        print(f"tricklab: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("tricklab: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
