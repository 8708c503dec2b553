"""Carabin (3 to 6 players, 52 cards): rules, positions, deals, deal tables, views, engine.

Every module of this package has a namesake in :mod:`solver.klabberjass`; the names
most often needed are re-exported here:

>>> from solver.carabin import Position, solve
>>> solve(Position.parse("trump=S bidder=0 lead=1 next=R 0=.../A... 1=.../K... 2=.../.3..")).points
(7, 0)
"""

from solver.carabin.deal import (
    Bidding,
    Call,
    Contract,
    Deal,
    Match,
    contract_made,
    score_deal,
)
from solver.carabin.engine import (
    DEFAULT_TT_MB,
    SIX_PLAYER_TT_MB,
    Result,
    all_tricks,
    core,
    make,
    move_values,
    solve,
    value,
    values,
)
from solver.carabin.position import Position
from solver.carabin.rules import (
    GAME_POINTS,
    HAND_SIZE,
    HANDS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PACK,
    TRICK_ORDERS,
    L,
    R,
    Rules,
    beats,
    card_points,
    card_power,
    check_players,
    check_trick_order,
    format_two_hands,
    hand_of,
    legal_replies,
    next_hand,
    parse_two_hands,
    points_of,
    seat_of,
    trick_winner,
)
from solver.carabin.table import TableRow, deal_table
from solver.carabin.view import View

__all__ = [
    "DEFAULT_TT_MB",
    "SIX_PLAYER_TT_MB",
    "Result",
    "all_tricks",
    "core",
    "make",
    "move_values",
    "value",
    "values",
    "GAME_POINTS",
    "HAND_SIZE",
    "HANDS",
    "L",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "PACK",
    "R",
    "TRICK_ORDERS",
    "Bidding",
    "Call",
    "Contract",
    "Deal",
    "Match",
    "Position",
    "Rules",
    "TableRow",
    "View",
    "beats",
    "card_points",
    "card_power",
    "check_players",
    "check_trick_order",
    "contract_made",
    "score_deal",
    "deal_table",
    "format_two_hands",
    "hand_of",
    "legal_replies",
    "next_hand",
    "parse_two_hands",
    "points_of",
    "seat_of",
    "solve",
    "trick_winner",
]
