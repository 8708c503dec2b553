"""Puzzle diagrams: SVG (hand-written) or PNG (matplotlib), and a printable sheet.

A diagram shows every hand with suit symbols in their colours (spades and clubs black,
hearts and diamonds red), the trump, who is to move, the goal, the cards already played
to the trick (a puzzle that starts inside one) and, for Carabin, which hand (left or
right) the trick is played from. The sheet is one HTML page with the
diagrams in a grid, ready to print, and the solutions at the end.

Why the SVG is written by hand: a diagram is a few dozen ``<text>`` elements in fixed
rows, which plain string formatting writes exactly, with no dependency, byte-for-byte
stable (the collections under ``data/puzzles`` are committed and diffed) and as text a
browser can select and search. An SVG library (svgwrite, drawsvg) would add a dependency for no
gain here; the PNG, which needs a rasteriser, is drawn by matplotlib.

>>> from analysis.puzzles.generate import Puzzle, Goal
>>> p = Puzzle("klabberjass", "trump=H lead=E E=A.7.. D=K.8..", Goal("E", 25), ("AS",), 1.0)
>>> svg = puzzle_svg(p)
>>> svg.startswith("<svg") and "♠" in svg and "#c8102e" in svg
True
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from pathlib import Path

from analysis.puzzles.generate import Puzzle
from solver.cards import SUIT_SYMBOLS, SUITS

RED = "#c8102e"
BLACK = "#111111"
COLOURS = (BLACK, RED, RED, BLACK)
WIDTH = 300
LINE = 17


def _holdings(puzzle: Puzzle) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """The position's fields and its hands as (label, PBN holding) rows."""
    fields = dict(f.split("=", 1) for f in puzzle.position.split())
    rows: list[tuple[str, str]] = []
    if puzzle.game == "klabberjass":
        names = {"E": "E (elder)", "D": "D (dealer)"}
        for seat in ("E", "D"):
            mark = " ◀" if fields["lead"] == seat else ""
            rows.append((names[seat] + mark, fields[seat]))
    else:
        seats = sorted((k for k in fields if k.isascii() and k.isdigit()), key=int)
        for s in seats:
            left, right = fields[s].split("/")
            who = " bidder" if s == fields["bidder"] else ""
            mark = " ◀" if s == fields["lead"] else ""
            rows.append((f"{s}{who} L{mark}", left))
            rows.append((f"{s}{who} R", right))
    return fields, rows


def _to_move(puzzle: Puzzle, fields: dict[str, str]) -> str:
    """Who is to move: the goal side (the bidder's seat in Carabin)."""
    if puzzle.game == "klabberjass":
        return puzzle.goal.side
    return fields["bidder"]


def _trick_text(fields: dict[str, str]) -> str:
    """The cards already played to the trick, or an empty string."""
    return " ".join(fields["trick"].split(",")) if "trick" in fields else ""


def _svg_cards(x: int, y: int, cards: list[str]) -> str:
    parts = []
    for card in cards:
        suit = SUITS.index(card[-1])
        parts.append(
            f'<tspan fill="{BLACK}">{html.escape(card[:-1])}</tspan>'
            f'<tspan fill="{COLOURS[suit]}">{SUIT_SYMBOLS[suit]}</tspan><tspan> </tspan>'
        )
    return f'<text x="{x}" y="{y}" font-size="14">{"".join(parts)}</text>'


def _svg_holding(x: int, y: int, holding: str) -> str:
    parts = []
    pos = x
    for suit, ranks in enumerate(holding.split(".")):
        parts.append(
            f'<tspan x="{pos}" fill="{COLOURS[suit]}">{SUIT_SYMBOLS[suit]}</tspan>'
            f'<tspan fill="{BLACK}">{html.escape(ranks or "—")}</tspan>'
        )
        pos += 14 + 9 * max(1, len(ranks))
    return f'<text y="{y}" font-size="14">{"".join(parts)}</text>'


def puzzle_title(puzzle: Puzzle, number: int | None = None) -> str:
    """One line naming the puzzle: its number, goal and rating."""
    fields = dict(f.split("=", 1) for f in puzzle.position.split())
    trump = SUITS.index(fields["trump"])
    if puzzle.goal.all_tricks:
        what = "to win every trick"
    else:
        what = f"to take {puzzle.goal.points} points"
    head = f"#{number} " if number is not None else ""
    return (
        f"{head}{puzzle.goal.side} {what}, trump {SUIT_SYMBOLS[trump]} (rating {puzzle.rating:g})"
    )


def puzzle_svg(puzzle: Puzzle, number: int | None = None) -> str:
    """The diagram of one puzzle as an SVG document."""
    fields, rows = _holdings(puzzle)
    trump = SUITS.index(fields["trump"])
    trick = _trick_text(fields)
    height = 58 + LINE * (len(rows) + bool(trick)) + 8
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="DejaVu Sans, Arial, sans-serif">',
        f'<rect x="0.5" y="0.5" width="{WIDTH - 1}" height="{height - 1}" fill="white" '
        'stroke="#888" rx="6"/>',
        f'<text x="10" y="20" font-size="13" font-weight="bold">'
        f"{html.escape(puzzle_title(puzzle, number))}</text>",
    ]
    sub = f"{puzzle.game}: trump "
    extra = ""
    if puzzle.game == "carabin":
        extra = f", {'left' if fields['next'] == 'L' else 'right'} hands in use"
    who = f"{fields['lead']} to lead" if not trick else f"{_to_move(puzzle, fields)} to play"
    out.append(
        f'<text x="10" y="40" font-size="12">{sub}<tspan fill="{COLOURS[trump]}" '
        f'font-size="14">{SUIT_SYMBOLS[trump]}</tspan>, {who}{extra}</text>'
    )
    y = 60
    for label, holding in rows:
        out.append(f'<text x="10" y="{y}" font-size="12" fill="#444">{html.escape(label)}</text>')
        out.append(_svg_holding(120, y, holding))
        y += LINE
    if trick:
        led = f"trick (led by {fields['lead']})"
        out.append(f'<text x="10" y="{y}" font-size="12" fill="#444">{html.escape(led)}</text>')
        out.append(_svg_cards(120, y, trick.split()))
    out.append("</svg>")
    return "\n".join(out)


def puzzle_png(puzzle: Puzzle, path: str | Path, number: int | None = None) -> Path:
    """Draw one puzzle with matplotlib into a PNG file."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fields, rows = _holdings(puzzle)
    fig = plt.figure(figsize=(4.2, 0.9 + 0.25 * len(rows)), dpi=100)
    fig.text(0.03, 0.92, puzzle_title(puzzle, number), fontsize=10, weight="bold", va="top")
    trick = _trick_text(fields)
    sub = f"{puzzle.game}, {fields['lead']} to lead"
    if trick:
        sub = f"{puzzle.game}, {fields['lead']} led: {trick}; {_to_move(puzzle, fields)} to play"
    if puzzle.game == "carabin":
        sub += f", {'left' if fields['next'] == 'L' else 'right'} hands in use"
    fig.text(0.03, 0.92 - 0.6 / (len(rows) + 3), sub, fontsize=8, va="top")
    step = 1.0 / (len(rows) + 3)
    for i, (label, holding) in enumerate(rows):
        y = 1 - (i + 2.5) * step
        fig.text(0.03, y, label, fontsize=9, color="#444")
        x = 0.40
        for suit, ranks in enumerate(holding.split(".")):
            fig.text(x, y, SUIT_SYMBOLS[suit], fontsize=10, color=COLOURS[suit])
            fig.text(x + 0.035, y, ranks or "—", fontsize=10)
            x += 0.05 + 0.028 * max(1, len(ranks))
    path = Path(path)
    fig.savefig(path)
    plt.close(fig)
    return path


def solution_text(puzzle: Puzzle) -> str:
    """The solution line with the goal side's decisions starred."""
    marks = set(puzzle.decision_plies)
    return " ".join(f"{c}*" if i in marks else c for i, c in enumerate(puzzle.solution))


def sheet_html(puzzles: Sequence[Puzzle], title: str = "tricklab puzzles") -> str:
    """A printable HTML page: the diagrams in a grid, then the solutions."""
    cells = "\n".join(
        f'<div class="cell">{puzzle_svg(p, i)}</div>' for i, p in enumerate(puzzles, 1)
    )
    answers = "\n".join(f"<li><code>{html.escape(solution_text(p))}</code></li>" for p in puzzles)
    return f"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>
body {{ font-family: DejaVu Sans, Arial, sans-serif; margin: 1.5em; }}
.grid {{ display: flex; flex-wrap: wrap; gap: 10px; }}
.cell {{ break-inside: avoid; }}
.answers {{ break-before: page; columns: 2; font-size: 11px; }}
</style></head><body>
<h1>{html.escape(title)}</h1>
<p>Double dummy: every card is visible. The side named in each diagram is to move and
must reach its goal against any defence; at each of its decisions exactly one card
succeeds. Solutions (decisions starred) are at the end.</p>
<div class="grid">
{cells}
</div>
<div class="answers"><h2>Solutions</h2><ol>
{answers}
</ol></div>
</body></html>
"""


def write_diagrams(
    puzzles: Sequence[Puzzle], out: str | Path, render: str = "svg", title: str | None = None
) -> list[Path]:
    """Write one diagram per puzzle (``puzzle-001.svg`` …) and ``sheet.html`` into ``out``."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for i, p in enumerate(puzzles, 1):
        path = folder / f"puzzle-{i:03d}.{render}"
        if render == "svg":
            path.write_text(puzzle_svg(p, i), encoding="utf-8")
        else:
            puzzle_png(p, path, i)
        written.append(path)
    sheet = folder / "sheet.html"
    sheet.write_text(sheet_html(puzzles, title or "tricklab puzzles"), encoding="utf-8")
    written.append(sheet)
    return written


__all__ = [
    "puzzle_png",
    "puzzle_svg",
    "puzzle_title",
    "sheet_html",
    "solution_text",
    "write_diagrams",
]
