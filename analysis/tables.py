"""Deal tables as plain text: the readable form of ``game.deal_table(deal)`` in both games.

>>> from solver.games import get_game
>>> game = get_game("carabin")
>>> deal = game.parse_deal("0=AKQJ.../T987... 1=6543.../2...AKQ 2=.AKQJ../.T987.. "
...                        "turn=6H bidder=0 trump=S")
>>> print(table_text(game.deal_table(deal)))
Deal: 0=AKQJ.../T987... 1=6543.../2...AKQ 2=.AKQJ../.T987.. turn=6H trump=S bidder=0
  0  L ♠ AKQJ  ♥ -  ♦ -  ♣ -         R ♠ T987  ♥ -  ♦ -  ♣ -
  1  L ♠ 6543  ♥ -  ♦ -  ♣ -         R ♠ 2  ♥ -  ♦ -  ♣ AKQ
  2  L ♠ -  ♥ AKQJ  ♦ -  ♣ -         R ♠ -  ♥ T987  ♦ -  ♣ -
Points in play: 27; a contract is made with 14 or more
  bidder  trump  points  made  chelem
       0  ♠ S       27   yes     yes
Best contract for each seat: 0 ♠ S (chelem, 27 points)
"""

from __future__ import annotations

from solver.carabin.table import TableRow as CarabinRow
from solver.cards import SUIT_SYMBOLS, SUITS, card_str, format_holding
from solver.klabberjass.deal import Deal as KlabberjassDeal
from solver.klabberjass.deal import exchange_dix, has_bella, runs
from solver.klabberjass.rules import SEATS
from solver.klabberjass.table import TableRow as KlabberjassRow
from solver.protocol import DealTable


def table_text(table: DealTable) -> str:
    """The readable deal table of either game: the deal, then one line a row.

    Args:
        table: what ``game.deal_table(deal)`` returns.
    """
    if table.game == "klabberjass":
        return _klabberjass_text(table)
    return _carabin_text(table)


# ---------------------------------------------------------------- klabberjass


def _holding(mask: int) -> str:
    parts = format_holding(mask).split(".")
    return "  ".join(f"{SUIT_SYMBOLS[i]} {p or '-'}" for i, p in enumerate(parts))


def _pair(values: tuple[int, int]) -> str:
    return f"{values[0]}-{values[1]}"


def _declared(row: KlabberjassRow, deal: KlabberjassDeal) -> tuple[str, str]:
    """What the bidder declares and what he sinks, as short texts."""
    b = row.bidder
    shown = [str(r) for r in row.declared[b]] + (["Bella"] if row.bella_declared[b] else [])
    hand = deal.hands[b]
    if row.dix == b:
        hand = exchange_dix(deal.hands, deal.turn, b)[b]
    held = [str(r) for r in runs(hand)]
    sunk = [r for r in held if r not in shown]
    if not row.bella_declared[b] and has_bella(hand, row.trump):
        sunk.append("Bella")
    return " ".join(shown) or "-", " ".join(sunk) or "-"


def _klabberjass_text(table: DealTable) -> str:
    deal = table.deal
    lines = [f"Deal {deal}  (rules: {table.extra['rules']})"]
    names = ("E (elder) ", "D (dealer)")
    for seat in (0, 1):
        line = f"  {names[seat]}  {_holding(deal.hands[seat])}"
        if deal.first is not None:
            line += f"   (first six: {format_holding(deal.first[seat])})"
        lines.append(line)
    extra = f"  Turn-up {card_str(deal.turn)}"
    if deal.bottom is not None:
        extra += f", bottom card {card_str(deal.bottom)}"
    lines.append(extra)
    header = (
        f"  {'Trump':<6}{'Bidder':<7}{'Cards E-D':<11}{'Seq E-D':<9}{'Bella E-D':<11}"
        f"{'Dix':<5}{'Score E-D':<11}{'Result':<8}{'Bidder declares':<17}Sinks"
    )
    lines += ["", header]
    for row in table:
        shown, sunk = _declared(row, deal)
        lines.append(
            f"  {SUIT_SYMBOLS[row.trump] + ' ' + SUITS[row.trump]:<6}{SEATS[row.bidder]:<7}"
            f"{_pair(row.card_points):<11}{_pair(row.sequences):<9}{_pair(row.bella):<11}"
            f"{SEATS[row.dix] if row.dix is not None else '-':<5}{_pair(row.score):<11}"
            f"{row.result:<8}{shown:<17}{sunk}"
        )
    return "\n".join(lines)


# ---------------------------------------------------------------- carabin


def _yes(flag: bool | None) -> str:
    return "?" if flag is None else "yes" if flag else "no"


def _carabin_points(row: CarabinRow) -> str:
    return str(row.points) if row.bounds is None else f"{row.bounds[0]}-{row.bounds[1]}"


def _carabin_rank(row: CarabinRow, upper: bool) -> tuple[bool, bool, int]:
    """How good a contract is for its bidder (a chelem, then made, then more points),
    at worst or, ``upper``, at best of what a time limit left undecided."""
    if upper:
        hi = row.points if row.bounds is None else row.bounds[1]
        return row.chelem is not False, row.made is not False, hi
    lo = row.points if row.bounds is None else row.bounds[0]
    return row.chelem is True, row.made is True, lo


def _carabin_contract(row: CarabinRow) -> str:
    return f"{SUIT_SYMBOLS[row.trump]} {SUITS[row.trump]}"


def _carabin_outcome(row: CarabinRow) -> str:
    what = (
        "chelem"
        if row.chelem
        else "made"
        if row.made
        else "failed"
        if row.made is False
        else "undecided"
    )
    return f"{what}, {_carabin_points(row)} points"


def _carabin_best(seat: int, rows: list[CarabinRow]) -> str:
    """A seat's best contract; under a time limit that left the choice open, every
    contract that may still be the best, the surest first."""
    sure = max(rows, key=lambda r: _carabin_rank(r, upper=False))
    floor = _carabin_rank(sure, upper=False)
    open_ = [r for r in rows if r is not sure and _carabin_rank(r, upper=True) > floor]
    if not open_:
        return f"{seat} {_carabin_contract(sure)} ({_carabin_outcome(sure)})"
    rows = [sure, *open_]
    return (
        f"{seat} "
        + " or ".join(_carabin_contract(r) for r in rows)
        + " (undecided in the time limit: "
        + "; ".join(f"{_carabin_contract(r)} {_carabin_outcome(r)}" for r in rows)
        + ")"
    )


def _carabin_text(table: DealTable) -> str:
    deal = table.deal
    total = deal.points_in_play
    lines = [f"Deal: {deal}"]
    for seat, (left, right) in enumerate(deal.hands):
        lines.append(f"  {seat}  L {_holding(left):28}  R {_holding(right)}")
    lines.append(f"Points in play: {total}; a contract is made with {total // 2 + 1} or more")
    lines.append("  bidder  trump  points  made  chelem")
    for row in table:
        lines.append(
            f"  {row.bidder:>6}  {SUIT_SYMBOLS[row.trump]} {SUITS[row.trump]}"
            f"  {_carabin_points(row):>7}  {_yes(row.made):>4}  {_yes(row.chelem):>6}"
        )
    best = [
        _carabin_best(seat, [r for r in table if r.bidder == seat])
        for seat in sorted({row.bidder for row in table})
    ]
    lines.append("Best contract for each seat: " + "; ".join(best))
    if any(row.bounds is not None for row in table):
        lines.append("(a-b: the time limit ran out; the points are proven to lie in that range)")
    return "\n".join(lines)
