"""Klabberjass (two players, 32 cards): rules, positions, deals, deal tables, views, engine.

Every module of this package has a namesake in :mod:`solver.carabin`; the names most
often needed are re-exported here:

>>> from solver.klabberjass import Position, solve
>>> solve(Position.parse("trump=H lead=E E=A... D=K...")).points
(25, 0)
"""

from solver.klabberjass.deal import Bidding, Deal, Match
from solver.klabberjass.engine import (
    KlabberjassResult,
    klabberjass_core,
    klabberjass_move_values,
    klabberjass_value,
    klabberjass_values,
    solve_klabberjass,
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

solve = solve_klabberjass

__all__ = [
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
    "KlabberjassResult",
    "Match",
    "Position",
    "Rules",
    "TableRow",
    "beats",
    "card_points",
    "card_power",
    "deal_table",
    "klabberjass_core",
    "klabberjass_move_values",
    "klabberjass_value",
    "klabberjass_values",
    "legal_replies",
    "points_of",
    "seat_of",
    "solve",
    "solve_klabberjass",
    "trick_winner",
]
