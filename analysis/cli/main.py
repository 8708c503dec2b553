"""The ``tricklab`` command line: ``tricklab <verb> <game> ...`` (see docs/ and the README).

One module per verb (``analysis.cli.solve``, ``analysis.cli.deal``, …), each with its
``HELP``, ``add_arguments(parser)`` and ``run(args) -> int``; this module builds the
parser from them and turns every tricklab error into one line on stderr and exit
status 2 (Ctrl-C: status 130).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import NoReturn

from analysis.cli import advise, bench, deal, demo, puzzles, review, solve, study, tree
from analysis.cli.common import UsageError
from solver.errors import TricklabError

#: The verbs in the order ``tricklab --help`` lists them.
VERBS: dict[str, ModuleType] = {
    "demo": demo,
    "solve": solve,
    "deal": deal,
    "tree": tree,
    "review": review,
    "advise": advise,
    "puzzles": puzzles,
    "study": study,
    "bench": bench,
}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        where = "" if self.prog == "tricklab" else f"{self.prog.removeprefix('tricklab ')}: "
        if message.startswith("unrecognized arguments"):
            message += " (a position or deal has spaces: put it in quotes)"
        raise UsageError(f"{where}{message}")


def build_parser() -> argparse.ArgumentParser:
    """The parser of every verb."""
    parser = _Parser(
        prog="tricklab",
        description="Exact double-dummy analysis of Klabberjass and Carabin.",
        epilog="tricklab <verb> --help describes a verb. Positions, deals and views are "
        "written in the notation of docs/notation.md; quote them (they contain spaces).",
    )
    verbs = parser.add_subparsers(dest="verb", metavar="<verb>", parser_class=_Parser)
    verbs.required = True
    for name, module in VERBS.items():
        doc = (module.__doc__ or "").replace("``", "")
        sub = verbs.add_parser(name, help=module.HELP, description=doc)
        sub.formatter_class = argparse.RawDescriptionHelpFormatter
        module.add_arguments(sub)
        sub.set_defaults(run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status.

    Bad input of any kind gives one line on stderr and status 2.
    """
    args_in = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    try:
        try:
            args = parser.parse_args(args_in)
        except SystemExit as done:  # --help
            return done.code if isinstance(done.code, int) else 0
        return int(args.run(args))
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
