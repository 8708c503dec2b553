"""What the verbs share: the game, rules and player options, and checks of numbers.

Every verb that takes a game reads it with :func:`game_of`, so ``--rules`` means the
same everywhere: a Klabberjass rules preset (``seed``, ``classic``), or the Carabin
trick order (``alternate``, also called ``seed``, or ``left_then_right``).

Every number option is read by one of the argparse ``type=`` functions here
(:func:`count`, :func:`whole`, :func:`finite`): ASCII digits only, within the bounds
of :mod:`solver.limits`, the bounds in the message.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from solver.carabin.rules import TRICK_ORDERS
from solver.carabin.rules import Rules as CarabinRules
from solver.errors import RulesError, UsageError
from solver.games import GAMES, Game, get_game
from solver.limits import check_count, max_workers

T = TypeVar("T")

#: The games, as the command line names them.
GAME_NAMES = tuple(GAMES)


#: Digits at most in a number option (more is refused before int() reads it).
MAX_DIGITS = 40


def _ascii_int(text: str) -> int | None:
    """The int ``text`` writes in ASCII (an optional ``-`` then digits), else None."""
    digits = text.removeprefix("-")
    if not 0 < len(digits) <= MAX_DIGITS or not (digits.isascii() and digits.isdigit()):
        return None
    return int(text)


def count(
    option: str, least: int = 1, most: int | None = None, why: str = ""
) -> Callable[[str], int]:
    """An argparse ``type=``: a whole number from ``least`` to ``most`` (``why`` says
    where ``most`` comes from).

    >>> count("--samples", 1, 10)("3")
    3
    >>> count("--samples", 1, 10)("٣")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: invalid --samples '٣' (a whole number from 1 to 10)
    """

    def read(text: str) -> int:
        value = _ascii_int(text)
        try:
            return check_count(text if value is None else value, option, least, most, why)
        except UsageError as err:
            raise argparse.ArgumentTypeError(str(err)) from None

    return read


def whole(option: str) -> Callable[[str], int]:
    """An argparse ``type=``: any whole number (a seed), in ASCII digits.

    >>> whole("--seed")("-7")
    -7
    """

    def read(text: str) -> int:
        value = _ascii_int(text)
        if value is None:
            raise argparse.ArgumentTypeError(
                f"invalid {option} '{text}' (a whole number of at most {MAX_DIGITS} digits)"
            )
        return value

    return read


def finite(option: str) -> Callable[[str], float]:
    """An argparse ``type=``: a finite decimal number, in ASCII.

    >>> finite("--min-rating")("2.5")
    2.5
    """

    def read(text: str) -> float:
        try:
            value = float(text) if text.isascii() and len(text) <= MAX_DIGITS else None
        except ValueError:
            value = None
        if value is None or value != value or value in (float("inf"), float("-inf")):
            raise argparse.ArgumentTypeError(f"invalid {option} '{text}' (a finite number)")
        return value

    return read


#: ``--players``: 2 (Klabberjass) to 6; each game checks its own count.
PLAYERS = count("--players", 2, 6)


def add_game(parser: argparse.ArgumentParser) -> None:
    """The ``game`` argument."""
    parser.add_argument("game", choices=GAME_NAMES, help=" or ".join(GAME_NAMES))


def add_rules(parser: argparse.ArgumentParser) -> None:
    """The ``--rules`` option (see the module docstring)."""
    parser.add_argument(
        "--rules",
        default="seed",
        help="rules: seed (default) or classic for klabberjass; "
        "the trick order alternate or left_then_right for carabin",
    )


def add_players(parser: argparse.ArgumentParser) -> None:
    """The ``--players`` option (Carabin only)."""
    parser.add_argument(
        "--players", type=PLAYERS, default=None, help="carabin: number of players, 3-6 (default 4)"
    )


def carabin_trick_order(name: str | None) -> str:
    """The Carabin trick order named by ``--rules`` (``seed`` is ``alternate``).

    >>> carabin_trick_order("seed"), carabin_trick_order("left_then_right")
    ('alternate', 'left_then_right')

    Raises:
        RulesError: any other name.
    """
    if name in (None, "seed"):
        return "alternate"
    if name in TRICK_ORDERS:
        return str(name)
    raise RulesError(f"unknown Carabin rules '{name}' (expected seed, {' or '.join(TRICK_ORDERS)})")


def game_of(args: argparse.Namespace) -> Game:
    """The game of ``args.game`` under ``--rules`` (and ``--players`` for Carabin).

    Raises:
        RulesError: unknown rules, a player count outside 3-6, or ``--players`` for
            Klabberjass (always two players).
    """
    rules = getattr(args, "rules", None) or "seed"
    players = getattr(args, "players", None)
    if args.game == "carabin":
        order = carabin_trick_order(rules)
        players = 4 if players is None else players
        return get_game("carabin", CarabinRules(players=players, trick_order=order))
    if players not in (None, 2):
        raise RulesError(f"invalid --players {players} (klabberjass is played by two)")
    return get_game(args.game, rules)


def read(game: Game, text: str, parse: Callable[[str], T]) -> T:
    """``parse(text)``, under the trick order of ``--rules`` unless the text names one.

    ``parse`` is one of the game's readers (a position, a start, a view); their text
    form names a Carabin trick order other than alternate with ``order=``.
    """
    value = parse(text)
    order = getattr(game.rules, "trick_order", None)
    current: Any = getattr(value, "trick_order", order)
    if order is None or current == order or "order=" in text:
        return value
    return parse(f"{value} order={order}")


def at_least(value: int | None, option: str, least: int = 1) -> None:
    """Refuse a count below ``least`` (for options read as plain ints; the others use
    :func:`count`, which also bounds them above).

    Raises:
        UsageError: ``invalid --deals 0 (at least 1)``.
    """
    if value is not None and value < least:
        raise UsageError(f"invalid {option} {value} (at least {least})")


#: Longest error message printed whole; a longer one keeps its start and end.
MAX_MESSAGE = 400


def printable(message: str) -> str:
    """An error message safe to print on one line: every character that does not print
    (control characters, ESC, line and paragraph separators, format characters such as
    a byte-order mark or a direction override, lone surrogates) escaped, a very long
    text cut in the middle before it is escaped (so a 1 MB token costs little).

    >>> printable("bad card 'X\\x1b[31mH'\\r")
    "bad card 'X\\\\x1b[31mH'\\\\r"
    >>> printable("a\\u2028b\\u2029c\\u202ed\\x00\\ufeff")
    'a\\\\u2028b\\\\u2029c\\\\u202ed\\\\x00\\\\ufeff'
    >>> len(printable("x" * 10_000)) < 500, len(printable("\\x01" * 10_000)) < 500
    (True, True)
    """
    half = MAX_MESSAGE // 2
    if len(message) <= MAX_MESSAGE:
        text = _escaped(message)
        if len(text) <= MAX_MESSAGE:
            return text
    head, tail = _escaped(message[:half])[:half], _escaped(message[-half:])[-half:]
    cut = len(message) - 2 * half
    return f"{head} …[{cut} characters cut]… {tail}"


def _escaped(text: str) -> str:
    if text.isprintable():
        return text
    out = []
    for ch in text:
        if ch == " " or ch.isprintable():
            out.append(ch)
        elif ch in "\r\n\t":
            out.append(repr(ch)[1:-1])
        elif ord(ch) < 256:
            out.append(f"\\x{ord(ch):02x}")
        elif ord(ch) < 0x10000:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(f"\\U{ord(ch):08x}")
    return "".join(out)


def require(*modules: str) -> None:
    """Import the optional packages a verb needs before it starts work, so that a
    missing one is reported (by the command line's one-line message naming the extra)
    before anything is written or any worker started.

    Raises:
        ModuleNotFoundError: one of them is not installed.
    """
    import importlib

    for name in modules:
        importlib.import_module(name)


def seconds(text: str) -> float:
    """An ``argparse`` type: a number of seconds, more than 0.

    >>> seconds("2.5")
    2.5
    """
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: '{text}'") from None
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"expected seconds > 0, got '{text}'")
    return value


def add_time_limit(parser: argparse.ArgumentParser) -> None:
    """The ``--time-limit`` option."""
    parser.add_argument(
        "--time-limit",
        type=seconds,
        default=None,
        metavar="SECONDS",
        help="stop searching after SECONDS; unfinished values are then given as proven "
        'bounds [lo, hi] ("exact": false) and a note goes to stderr',
    )


def add_workers(parser: argparse.ArgumentParser, what: str) -> None:
    """The ``--workers`` option of the Carabin searches on several threads (``what``
    they do; see :func:`workers_of` for the default)."""
    parser.add_argument(
        "--workers",
        type=count("--workers", 1, max_workers(), "four per core"),
        default=None,
        help=f"{what} (default: the machine's cores, at most 8)",
    )


def workers_of(args: argparse.Namespace) -> int:
    """``--workers``, or the machine's cores (at most 8) when not given."""
    return args.workers if args.workers is not None else min(os.cpu_count() or 1, 8)


def note_bounds(what: str, time_limit: float | None) -> None:
    """One line on stderr: the time limit ran out and ``what`` are bounds."""
    print(
        f"tricklab: note: the time limit ({time_limit:g} s) ran out: {what} are proven "
        "bounds, not exact values",
        file=sys.stderr,
    )


class Progress:
    """``label: done/total unit`` (or ``done unit`` with no total, or the text given to
    :meth:`say`) on stderr once a job has run for ``after`` seconds; :meth:`done` clears
    it. On a terminal the line is redrawn in place; ``ticking``: also every ``after``
    seconds with the seconds elapsed, so that a long step between two counts (one slow
    row of a table, one hard position) still shows the job alive. When stderr is not a
    terminal (a log) a ticking job writes a plain line every ``quiet_every`` seconds
    instead, so a short job leaves the log clean and a long one never runs silent.
    """

    def __init__(
        self,
        label: str,
        unit: str = "rows",
        after: float = 1.0,
        ticking: bool = False,
        quiet_every: float = 30.0,
    ) -> None:
        self.label = label
        self.unit = unit
        self.start = time.monotonic()
        self.after = after
        self.shown = False
        self.ticking = ticking
        self.count: str | None = None
        self.terminal = sys.stderr.isatty()
        self._lock = threading.Lock()
        self._over = threading.Event()
        if ticking:
            every = after if self.terminal else quiet_every
            threading.Thread(target=self._tick, args=(every,), daemon=True).start()

    def _tick(self, every: float) -> None:
        while not self._over.wait(every):
            self._show()

    def _line(self) -> str:
        parts = [self.count] if self.count is not None else []
        if self.ticking:
            parts.append(f"{time.monotonic() - self.start:.0f} s")
        return f"{self.label}: {', '.join(parts)}"

    def _show(self) -> None:
        with self._lock:
            if self._over.is_set() or (self.count is None and not self.ticking):
                return
            if not self.terminal:
                print(self._line(), file=sys.stderr, flush=True)
                return
            self.shown = True
            print(f"\r{self._line()}\033[K", end="", file=sys.stderr, flush=True)

    def __call__(self, done: int, total: int | None = None) -> None:
        count = f"{done}/{total}" if total is not None else str(done)
        self.count = f"{count} {self.unit}"
        if time.monotonic() - self.start < self.after or not self.terminal:
            return
        self._show()

    def say(self, text: str) -> None:
        """Show ``text`` where the count goes (what the job is doing)."""
        self.count = text

    def done(self) -> None:
        with self._lock:
            self._over.set()
            if self.shown:
                print("\r\033[K", end="", file=sys.stderr, flush=True)
                self.shown = False
