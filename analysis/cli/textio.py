"""Text in and out: inputs from the command line or stdin, diagrams of positions and answers."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from analysis.cli.common import printable
from solver.cards import SUIT_SYMBOLS, SUITS, card_str, format_holding
from solver.errors import NotationError, TricklabError
from solver.games import Game

T = TypeVar("T")

_HANDS = ("L", "R")


def answer_inputs(
    text: str,
    parse: Callable[[str], T],
    answer: Callable[[T], Any],
    as_json: bool,
    what: str = "position",
) -> int:
    """Answer ``text``, or every line of stdin when it is ``-`` (batch mode).

    ``answer`` returns a JSON object (with ``as_json``) or a text to print. In batch
    mode every input line gets exactly one answer, in order: a bad or blank line gets
    ``{"error": "...", "line": N}`` (or, without ``--json``, nothing on stdout) and the
    same message on stderr, the other lines are still answered, and the status is 2 at
    the end if any line was bad. Stdin is read as bytes and each line decoded as UTF-8
    whatever the locale (a line that is not UTF-8 is a bad line); a byte-order mark
    at the start is skipped.

    Returns:
        The exit status.

    Raises:
        TricklabError: a single bad input (not in batch mode), or no input at all.
    """
    if text != "-":
        _print(answer(parse(text)), as_json, first=True)
        return 0
    status, answered, number = 0, 0, 0
    for number, line in enumerate(stdin_lines(), 1):
        try:
            if isinstance(line, UnicodeDecodeError):
                raise NotationError(_not_utf8(line))
            if not line.strip():
                raise NotationError(f"blank line (one {what} a line is expected)")
            result = answer(parse(line.strip()))
        except TricklabError as err:
            status = 2
            message = printable(str(err))
            print(f"tricklab: error: line {number}: {message}", file=sys.stderr, flush=True)
            if as_json:
                print(json.dumps({"error": message, "line": number}), flush=True)
            continue
        _print(result, as_json, first=not answered)
        answered += 1
    if number == 0:
        raise NotationError(f"no {what} given on standard input")
    return status


def stdin_lines() -> Iterator[str | UnicodeDecodeError]:
    """The lines of stdin, decoded as UTF-8 one by one (a line that is not UTF-8 is
    given as its decoding error); a UTF-8 byte-order mark on the first line is skipped.

    Stdin is read as bytes when it has them (a real stream), so the locale does not
    matter; a text stream (tests, embedding) is taken as it is.
    """
    raw = getattr(sys.stdin, "buffer", None)
    if raw is None:
        for number, text in enumerate(sys.stdin):
            yield text.removeprefix("\ufeff") if number == 0 else text
        return
    for number, data in enumerate(raw):
        if number == 0:
            data = data.removeprefix(b"\xef\xbb\xbf")
        try:
            yield data.decode("utf-8")
        except UnicodeDecodeError as err:
            yield err


def _not_utf8(err: UnicodeDecodeError) -> str:
    bad = err.object[err.start : err.end]
    return (
        f"invalid UTF-8 at byte {err.start + 1} of the line "
        f"(bytes {bad.hex(' ')}: {err.reason}); lines are UTF-8 text"
    )


def _print(result: Any, as_json: bool, first: bool) -> None:
    if as_json:
        print(json.dumps(result), flush=True)
    else:
        print(("" if first else "\n") + result, flush=True)


def holding_diagram(mask: int) -> str:
    """One hand as ``♠ AJ9  ♥ K7  ♦ —  ♣ T87``.

    >>> from solver.cards import parse_holding
    >>> holding_diagram(parse_holding("AJ9.K7..T87"))
    '♠ AJ9  ♥ K7  ♦ —  ♣ T87'
    """
    parts = format_holding(mask).split(".")
    return "  ".join(f"{SUIT_SYMBOLS[i]} {p or '—'}" for i, p in enumerate(parts))


def position_diagram(game: Game, position: Any) -> str:
    """A plain-text diagram of a position: the trump, every hand, the trick, who plays.

    >>> from solver.games import get_game
    >>> game = get_game("klabberjass")
    >>> print(position_diagram(game, game.parse_position("trump=H lead=E E=A... D=K...")))
    Trump ♥ H
      E (elder)   ♠ A  ♥ —  ♦ —  ♣ —
      D (dealer)  ♠ K  ♥ —  ♦ —  ♣ —
      To play: E
    """
    if game.name == "klabberjass":
        return _klabberjass_diagram(position)
    return _carabin_diagram(position)


def _klabberjass_diagram(p: Any) -> str:
    names = ("E (elder) ", "D (dealer)")
    lines = [f"Trump {SUIT_SYMBOLS[p.trump]} {SUITS[p.trump]}"]
    for seat in (0, 1):
        lines.append(f"  {names[seat]}  {holding_diagram(p.hands[seat])}")
    if p.trick is not None:
        lines.append(f"  Trick: {'ED'[p.lead]} led {card_str(p.trick)}")
    lines.append(f"  To play: {'ED'[p.to_move]}")
    return "\n".join(lines)


def _carabin_diagram(p: Any) -> str:
    lines = [
        f"Carabin, {p.players} players, trump {SUIT_SYMBOLS[p.trump]} {SUITS[p.trump]}, "
        f"bidder {p.bidder}" + ("" if p.trick_order == "alternate" else f" ({p.trick_order})")
    ]
    for s, (left, right) in enumerate(p.hands):
        tag = "bidder" if s == p.bidder else ""
        lines.append(f"  {s} {tag:6}  L {holding_diagram(left):24}  R {holding_diagram(right)}")
    if p.trick:
        played = ", ".join(
            f"{(p.lead + i) % p.players}:{card_str(c)}" for i, c in enumerate(p.trick)
        )
        lines.append(f"  {_HANDS[p.hand]} trick led by {p.lead}: {played}")
    if not p.is_over:
        lines.append(f"  To play: seat {p.to_move}, {_HANDS[p.hand]} hand")
    return "\n".join(lines)


def result_text(game: Game, result: Any, line: list[int] | None = None) -> str:
    """The readable answer of ``tricklab solve``: the diagram, the points, the best card.

    Args:
        game: the game.
        result: what ``game.solve(position)`` returns.
        line: an optimal line to show, when the result has none of its own.
    """
    p = result.position
    if getattr(result, "exact", True):
        points = ", ".join(f"{side} {v}" for side, v in zip(game.sides, result.points, strict=True))
    else:  # a time limit ran out: the proven ranges, as the JSON gives them
        ranges = result.to_json()["points"]
        by_side = zip(game.sides, ranges.values(), strict=True)
        points = ", ".join(f"{side} {lo}-{hi}" for side, (lo, hi) in by_side)
        points += " (proven bounds: the time limit ran out)"
    lines = [position_diagram(game, p), f"Double-dummy points from here: {points}"]
    if result.best is not None:
        lines.append(f"Best card: {card_str(result.best)}")
    if game.name == "carabin":
        lines.append(f"Bidder takes every remaining trick: {'yes' if result.all_tricks else 'no'}")
    pv = list(getattr(result, "pv", None) or line or [])
    if pv:
        lines.append("Optimal line: " + line_text(game, p, pv))
    if result.moves:
        shown = [f"{card_str(c)} {v}" for c, v in result.moves.items()]
        if game.name == "klabberjass":
            lines.append("Card values (points for the player to move): " + ", ".join(shown))
        else:
            side = game.sides[game.mover_side(p)]
            lines.append(f"Points of the {side} by card: " + "  ".join(shown))
    return "\n".join(lines)


def line_text(game: Game, position: Any, cards: list[int]) -> str:
    """A line of play from ``position``, tricks separated by ``|`` (``…`` inside a trick).

    >>> from solver.games import get_game
    >>> game = get_game("klabberjass")
    >>> p = game.parse_position("trump=H lead=E E=A... D=T.J.. trick=7H")
    >>> line_text(game, p, game.solve(p).pv)
    '…JH | TS AS'
    """
    inside = position.trick not in (None, ())  # Klabberjass: a card or None; Carabin: a tuple
    groups: list[list[str]] = [[]]
    for card in cards:
        groups[-1].append(card_str(card))
        position, winner, _ = game.step(position, card)
        if winner is not None:
            groups.append([])
    return ("…" if inside else "") + " | ".join(" ".join(g) for g in groups if g)
