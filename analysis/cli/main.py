"""The ``tricklab`` command line: ``tricklab <verb> <game> ...`` (see docs/ and the README).

One module per verb (``analysis.cli.solve``, ``analysis.cli.deal``, …), each with its
``HELP``, ``add_arguments(parser)`` and ``run(args) -> int``; this module builds the
parser from them and turns every tricklab error into one line on stderr and exit
status 2 (Ctrl-C: status 130).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any, NoReturn

from analysis.cli import advise, bench, deal, demo, puzzles, review, solve, study, tree
from analysis.cli.common import UsageError, printable
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

# A field (trump=H), a holding (AJ9.K7..T87, Carabin A.../K...) or a card (AS, 10h).
_FIELD = re.compile(r"[^-=\s][^=\s]*=\S*")
_HOLDING = re.compile(r"[0-9tjqka/]*(\.[0-9tjqka/]*){3,}", re.I)
_CARD = re.compile(r"(10|[2-9tjqka])[shdc♠♥♦♣]|[shdc♠♥♦♣](10|[2-9tjqka])", re.I)


def looks_like_notation(word: str) -> bool:
    """Whether a stray argument looks like a piece of a position, deal or card list.

    >>> [looks_like_notation(w) for w in ("lead=E", "A...", "KQ.J../T9...", "7h", "--bogus")]
    [True, True, True, True, False]
    """
    return any(p.fullmatch(word) for p in (_FIELD, _HOLDING, _CARD))


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        where = "" if self.prog == "tricklab" else f"{self.prog.removeprefix('tricklab ')}: "
        # a number option's own message already names it: "invalid --tt-mb 0 (...)"
        message = re.sub(r"^argument (\S+): (invalid \1 )", r"\2", message)
        stray = message.removeprefix("unrecognized arguments: ")
        if stray != message and any(looks_like_notation(w) for w in stray.split()):
            message += " (a position, deal or list of cards has spaces: put it in quotes)"
        raise UsageError(f"{where}{message}")


class _Version(argparse.Action):
    """``--version``: the installed package's version, looked up only when asked."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, help="print the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> NoReturn:
        from importlib.metadata import PackageNotFoundError, version

        try:
            text = version("tricklab")
        except PackageNotFoundError:
            text = "unknown (not installed)"
        print(f"tricklab {text}")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    """The parser of every verb."""
    parser = _Parser(
        prog="tricklab",
        description="Exact double-dummy analysis of Klabberjass and Carabin.",
        epilog="tricklab <verb> --help describes a verb. Positions, deals and views are "
        "written in the notation of docs/notation.md; quote them (they contain spaces).",
    )
    parser.add_argument("--version", action=_Version)
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

    Bad input of any kind gives one line on stderr and status 2; no arguments at all
    print the usage on stderr (status 2).
    """
    args_in = list(sys.argv[1:] if argv is None else argv)
    for stream in (sys.stdout, sys.stderr):  # a narrow locale escapes what it cannot show
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    parser = build_parser()
    if not args_in:
        parser.print_help(sys.stderr)
        return 2
    try:
        try:
            args = parser.parse_args(args_in)
        except SystemExit as done:  # --help, --version
            return done.code if isinstance(done.code, int) else 0
        return int(args.run(args))
    except TricklabError as err:
        print(f"tricklab: error: {printable(str(err))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("tricklab: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as err:  # a file or folder option that cannot be used
        where = f" '{err.filename}'" if err.filename is not None else ""
        print(f"tricklab: error: {printable(f'{err.strerror or err}{where}')}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
