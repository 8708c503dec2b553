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

from analysis.cli import advise, bench, bid, deal, demo, puzzles, review, solve, study, tree
from analysis.cli import board as board_verb
from analysis.cli.common import UsageError, printable
from solver.errors import TricklabError

#: Optional packages, by the import name a missing one raises, and the extra that installs it.
EXTRAS: dict[str, str] = {
    name: "analysis"
    for name in (
        "networkx",
        "matplotlib",
        "numpy",
        "pandas",
        "pyarrow",
        "tqdm",
        "ortools",
        "dask",
        "distributed",
        "anywidget",
        "traitlets",
    )
}


def missing_extra(err: ModuleNotFoundError, verb: str | None) -> str | None:
    """The one-line message for an optional package that is not installed, else None.

    >>> missing_extra(ModuleNotFoundError("No module named 'pyarrow'", name="pyarrow"), "study")
    'tricklab study needs pyarrow, which is not installed: pip install "tricklab[analysis]"'
    >>> missing_extra(ModuleNotFoundError("No module named 'x'", name="x"), "study") is None
    True
    """
    root = (err.name or "").partition(".")[0]
    if root not in EXTRAS:
        return None
    what = f"tricklab {verb}" if verb else "this feature"
    return f'{what} needs {root}, which is not installed: pip install "tricklab[{EXTRAS[root]}]"'


#: The verbs in the order ``tricklab --help`` lists them.
VERBS: dict[str, ModuleType] = {
    "demo": demo,
    "solve": solve,
    "deal": deal,
    "tree": tree,
    "review": review,
    "advise": advise,
    "bid": bid,
    "puzzles": puzzles,
    "study": study,
    "bench": bench,
    "board": board_verb,
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


#: The notation in brief, at the end of ``tricklab --help`` (the full description is the
#: notation page of the documentation).
NOTATION = """\
notation:
  card      rank then suit: AS, TH (or 10H), 7C; ranks 2-9 T J Q K A, suits S H D C
  holding   the suits in the order S.H.D.C, ranks high to low, a void empty: AT7.KJ9..A8
  Carabin   a seat holds a left and a right hand: A.K.Q.J/...5432
  position  key=value fields separated by spaces, in quotes:
            "trump=H lead=E E=A.7.. D=K.8.." (Klabberjass, seats E and D)
            "trump=H bidder=2 lead=1 next=L 0=.5..J/6.J.. 1=KJ.../A4... 2=Q..A./..K8."
  card list played=, trick= and the like: comma-separated, no spaces: played=7S,8D
  -         in place of a position, deal or view: read one per stdin line

tricklab <verb> --help describes a verb, with examples."""

_ROLE = re.compile(r":(?:mod|meth|func|class|attr):`~?([^`]+)`")


def _help_text(doc: str) -> str:
    """A module docstring as help text: reST roles and double backquotes dropped."""
    return _ROLE.sub(r"\1", doc).replace("``", "")


def _examples(module: ModuleType) -> str:
    lines = getattr(module, "EXAMPLES", ())
    return "examples:\n" + "\n".join(f"  {line}" for line in lines) if lines else ""


def build_parser() -> argparse.ArgumentParser:
    """The parser of every verb."""
    parser = _Parser(
        prog="tricklab",
        description="Exact double-dummy analysis of Klabberjass and Carabin.",
        epilog=NOTATION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action=_Version)
    verbs = parser.add_subparsers(dest="verb", metavar="<verb>", parser_class=_Parser)
    verbs.required = True
    for name, module in VERBS.items():
        sub = verbs.add_parser(
            name,
            help=module.HELP,
            description=_help_text(module.__doc__ or ""),
            epilog=_examples(module),
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        module.add_arguments(sub)
        sub.set_defaults(run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status.

    Bad input of any kind gives one line on stderr and status 2, and so does a verb
    whose optional dependency is not installed (the line names the extra to install);
    no arguments at all print the usage on stderr (status 2).
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
    except ModuleNotFoundError as err:
        message = missing_extra(err, next((a for a in args_in if a in VERBS), None))
        if message is None:
            raise
        print(f"tricklab: error: {message}", file=sys.stderr)
        return 2
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
