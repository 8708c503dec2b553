"""The Carabin double-dummy deal table: every bidder and trump, made or not, chelem or not.

One row per bidder and trump suit (only the fixed ones when the deal gives
``bidder=``/``trump=``): the bidder's points with seat 0 leading the first trick,
whether the trump contract is made (strictly more than half the points in play) and
whether a chelem (all eight tricks) is made. Within a deal every opponent gains the
same, so the play is the bidder against the coalition of all the others.

>>> d = Deal.parse("0=AKQJ.../T987... 1=6543.../2...AKQ 2=.AKQJ../.T987.. turn=6H "
...                "bidder=0 trump=S")
>>> deal_table(d).to_json()
{'points_in_play': 27, 'table': [{'bidder': 0, 'trump': 'S', 'points': 27, 'made': True, 'chelem': True}]}
"""

from __future__ import annotations

from dataclasses import dataclass

from solver.carabin import engine
from solver.carabin.deal import Deal, contract_made
from solver.carabin.rules import Rules
from solver.cards import SUITS
from solver.protocol import DealTable


@dataclass(frozen=True)
class TableRow:
    """One row of the deal table: a bidder and a trump, played double dummy.

    Attributes:
        bidder: the bidder's seat.
        trump: the trump suit (0..3).
        points: the bidder's points under optimal play.
        made: the trump contract is made (more than half the points in play).
        chelem: the bidder can win every trick.
    """

    bidder: int
    trump: int
    points: int
    made: bool
    chelem: bool

    def to_json(self) -> dict:
        """The command line's row."""
        return {
            "bidder": self.bidder,
            "trump": SUITS[self.trump],
            "points": self.points,
            "made": self.made,
            "chelem": self.chelem,
        }

    def record(self) -> dict:
        """The row as one flat dict, seats and suits by name (a DataFrame row)."""
        return self.to_json()


def deal_table(deal: Deal, rules: Rules | None = None, tt_mb: int | None = None) -> DealTable:
    """The double-dummy table of a deal.

    Args:
        deal: the deal.
        rules: the rules (the trick order matters; the number of players is the deal's).
        tt_mb: transposition table size in MB.

    Returns:
        The rows, bidder by bidder, trump by trump (a list with ``to_json()``,
        ``records()`` and an HTML display).
    """
    order = rules.trick_order if rules is not None else "alternate"
    total = deal.points_in_play
    bidders = [deal.bidder] if deal.bidder is not None else range(deal.players)
    trumps = [deal.trump] if deal.trump is not None else range(4)
    rows = []
    for bidder in bidders:
        for trump in trumps:
            start = deal.position(bidder=bidder, trump=trump, trick_order=order)
            points = engine.value(start, tt_mb=tt_mb)
            # winning every trick takes every point, so only then is a chelem possible
            chelem = points == total and engine.all_tricks(start, tt_mb=tt_mb)
            rows.append(TableRow(bidder, trump, points, contract_made(points, total), chelem))
    return DealTable(rows, deal, "carabin", {"points_in_play": total})
