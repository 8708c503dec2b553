"""Text in and out: inputs from the command line or stdin, diagrams of positions and answers."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TypeVar

from solver.cards import SUIT_SYMBOLS, SUITS, card_str, format_holding
from solver.errors import NotationError
from solver.games import Game

T = TypeVar("T")

_HANDS = ("L", "R")


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
    points = ", ".join(f"{side} {v}" for side, v in zip(game.sides, result.points, strict=True))
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
