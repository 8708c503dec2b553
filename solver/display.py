"""HTML card diagrams for notebooks: plain strings, no heavy imports.

>>> from solver.klabberjass import Position
>>> html = klabberjass_position_html(Position.parse("trump=H lead=E E=A... D=K..."))
>>> html.startswith("<table") and "&spades;" not in html and "♠" in html
True
"""

from __future__ import annotations

from typing import Any

from solver.cards import RANKS, SUIT_SYMBOLS, SUITS, format_holding

_RED = {1, 2}


def suit_html(suit: int) -> str:
    """A suit symbol, red for hearts and diamonds."""
    colour = "#c00" if suit in _RED else "#000"
    return f'<span style="color:{colour}">{SUIT_SYMBOLS[suit]}</span>'


def card_html(card: int) -> str:
    """A card as rank and coloured suit symbol."""
    return f"{RANKS[card & 15]}{suit_html(card >> 4)}"


def holding_html(mask: int) -> str:
    """A holding, one suit after the other, a void as a dash."""
    parts = format_holding(mask).split(".")
    return " ".join(f"{suit_html(s)}{parts[s] or '&mdash;'}" for s in range(4))


def _table(rows: list[str], caption: str) -> str:
    return (
        '<table style="font-family:monospace">'
        f'<caption style="text-align:left">{caption}</caption>' + "".join(rows) + "</table>"
    )


def klabberjass_position_html(position: Any) -> str:
    """A Klabberjass position as an HTML diagram: both hands, trump, trick, seat to move."""
    rows = []
    for seat, name in ((0, "E (elder)"), (1, "D (dealer)")):
        mark = " &#9664;" if not position.is_over and position.to_move == seat else ""
        rows.append(f"<tr><th>{name}</th><td>{holding_html(position.hands[seat])}{mark}</td></tr>")
    if position.trick is not None:
        led = "ED"[position.lead]
        rows.append(f"<tr><th>trick</th><td>{led} led {card_html(position.trick)}</td></tr>")
    return _table(rows, f"Klabberjass, trump {suit_html(position.trump)} {SUITS[position.trump]}")


def klabberjass_deal_html(deal: Any) -> str:
    """A Klabberjass deal as an HTML diagram: both hands, the turn-up, the contract."""
    rows = [
        f"<tr><th>{name}</th><td>{holding_html(deal.hands[seat])}</td></tr>"
        for seat, name in ((0, "E (elder)"), (1, "D (dealer)"))
    ]
    notes = [f"turn-up {card_html(deal.turn)}"]
    if deal.bottom is not None:
        notes.append(f"bottom {card_html(deal.bottom)}")
    if deal.trump is not None:
        notes.append(f"trump {suit_html(deal.trump)}")
    if deal.bidder is not None:
        notes.append(f"bidder {'ED'[deal.bidder]}")
    return _table(rows, f"Klabberjass deal, {', '.join(notes)}")


def carabin_position_html(position: Any) -> str:
    """A Carabin position as an HTML diagram: every seat's left and right hands."""
    rows = ["<tr><th></th><th>left (L)</th><th>right (R)</th></tr>"]
    for seat, (left, right) in enumerate(position.hands):
        name = f"{seat}{' bidder' if seat == position.bidder else ''}"
        mark = " &#9664;" if not position.is_over and position.to_move == seat else ""
        rows.append(
            f"<tr><th>{name}{mark}</th><td>{holding_html(left)}</td><td>{holding_html(right)}</td></tr>"
        )
    if position.trick:
        cards = " ".join(card_html(c) for c in position.trick)
        rows.append(f"<tr><th>trick</th><td colspan=2>seat {position.lead} led: {cards}</td></tr>")
    hand = "LR"[position.hand]
    return _table(
        rows, f"Carabin, trump {suit_html(position.trump)} {SUITS[position.trump]}, {hand} trick"
    )


def carabin_deal_html(deal: Any) -> str:
    """A Carabin deal as an HTML diagram."""
    rows = ["<tr><th></th><th>left (L)</th><th>right (R)</th></tr>"]
    for seat, (left, right) in enumerate(deal.hands):
        rows.append(
            f"<tr><th>{seat}</th><td>{holding_html(left)}</td><td>{holding_html(right)}</td></tr>"
        )
    notes = [f"turn-up {card_html(deal.turn)}"]
    if deal.trump is not None:
        notes.append(f"trump {suit_html(deal.trump)}")
    if deal.bidder is not None:
        notes.append(f"bidder {deal.bidder}")
    return _table(rows, f"Carabin deal, {', '.join(notes)}")


def records_html(records: list[dict], caption: str) -> str:
    """Rows of flat records (the same keys each) as an HTML table; a ``trump`` column
    shows the suit symbol."""
    if not records:
        return _table(["<tr><td>no rows</td></tr>"], caption)
    keys = list(records[0])
    rows = ["<tr>" + "".join(f"<th>{k}</th>" for k in keys) + "</tr>"]
    for rec in records:
        cells = []
        for k in keys:
            v = rec[k]
            if k == "trump" and isinstance(v, str) and v in SUITS:
                v = f"{suit_html(SUITS.index(v))} {v}"
            cells.append(f"<td>{v}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return _table(rows, caption)
