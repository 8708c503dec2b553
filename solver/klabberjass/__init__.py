"""Klabberjass (two players, 32 cards): rules, positions, deals, deal tables, views, engine.

Every module of this package has a namesake in :mod:`solver.carabin`; the names most
often needed are re-exported here:

>>> from solver.klabberjass import Position, solve
>>> solve(Position.parse("trump=H lead=E E=A... D=K...")).points
(25, 0)
"""

from solver.klabberjass.deal import Bidding, Deal, Match
from solver.klabberjass.engine import (
    DEFAULT_TT_MB,
    Result,
    all_tricks,
    core,
    make,
    move_values,
    solve,
    value,
    values,
)
from solver.klabberjass.position import Position
from solver.klabberjass.rules import (
    CLASSIC,
    DEAL_SIZE,
    HAND_SIZE,
    PACK,
    SEATS,
    SEED,
    D,
    E,
    Rules,
    beats,
    card_points,
    card_power,
    legal_replies,
    points_of,
    seat_of,
    trick_winner,
)
from solver.klabberjass.table import TableRow, deal_table
from solver.klabberjass.view import View

__all__ = [
    "DEFAULT_TT_MB",
    "Result",
    "all_tricks",
    "core",
    "make",
    "move_values",
    "value",
    "values",
    "CLASSIC",
    "D",
    "DEAL_SIZE",
    "E",
    "HAND_SIZE",
    "PACK",
    "SEATS",
    "SEED",
    "Bidding",
    "Deal",
    "Match",
    "Position",
    "Rules",
    "TableRow",
    "View",
    "beats",
    "card_points",
    "card_power",
    "deal_table",
    "legal_replies",
    "points_of",
    "seat_of",
    "solve",
    "trick_winner",
]
