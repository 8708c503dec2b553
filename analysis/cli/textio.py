"""Text input and output shared by the command-line modules of both games."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TypeVar

from solver.cards import SUIT_SYMBOLS, format_holding
from solver.errors import NotationError

T = TypeVar("T")


def parse_inputs(text: str, parse: Callable[[str], T], what: str = "position") -> list[T]:
    """``text`` parsed, or every non-blank stdin line when it is ``-``.

    Every line is read and parsed before any answer is printed, so bad input prints
    nothing but its error, which names the line in batch mode.

    Raises:
        TricklabError: the first bad line (prefixed with its number), or no input.
    """
    if text != "-":
        return [parse(text)]
    out = []
    for number, line in enumerate(sys.stdin, 1):
        if not line.strip():
            continue
        try:
            out.append(parse(line.strip()))
        except ValueError as err:
            raise type(err)(f"line {number}: {err}") from None
    if not out:
        raise NotationError(f"no {what} given on standard input")
    return out


def holding_diagram(mask: int) -> str:
    """One hand as ``♠ AJ9  ♥ K7  ♦ —  ♣ T87``.

    >>> from solver.cards import parse_holding
    >>> holding_diagram(parse_holding("AJ9.K7..T87"))
    '♠ AJ9  ♥ K7  ♦ —  ♣ T87'
    """
    parts = format_holding(mask).split(".")
    return "  ".join(f"{SUIT_SYMBOLS[i]} {p or '—'}" for i, p in enumerate(parts))
