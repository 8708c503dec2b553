"""``tricklab demo [game]``: a built-in deal, its double-dummy table and an optimal play.

The contract shown is the best one for its bidder: in Klabberjass the widest score
margin, in Carabin the most points.
"""

from __future__ import annotations

import argparse
from typing import Any

from analysis.cli.common import GAME_NAMES, add_rules, game_of
from analysis.cli.textio import result_text
from analysis.tables import table_text
from solver.cards import SUIT_SYMBOLS
from solver.games import Game
from solver.klabberjass.deal import exchange_dix
from solver.klabberjass.position import Position as KlabberjassPosition

HELP = "solve a built-in example deal and show it"

#: Runnable examples, shown under ``tricklab demo --help`` (and run by the tests).
EXAMPLES = (
    "tricklab demo",
    "tricklab demo carabin",
)

#: The built-in deals (Carabin: three players, so the table takes milliseconds).
DEALS = {
    "klabberjass": "E=7..JT87.9/KQ.K.. D=AT.QJT9../J..9.K turn=AH bottom=TC",
    "carabin": "0=..Q3.Q6/KJ.7.A. 1=.6.874./.A..AJ3 2=A64..2./.T983.. turn=KC",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``tricklab demo``."""
    parser.add_argument(
        "game", nargs="?", choices=GAME_NAMES, default="klabberjass", help="default klabberjass"
    )
    add_rules(parser)


def _klabberjass_start(game: Game, deal: Any, rows: list[Any]) -> tuple[str, Any]:
    best = max(rows, key=lambda r: r.score[r.bidder] - r.score[1 - r.bidder])
    about = (
        f"Best contract: {'ED'[best.bidder]} takes {SUIT_SYMBOLS[best.trump]} "
        f"({best.result}, scores E {best.score[0]}, D {best.score[1]})"
    )
    hands = deal.hands
    if best.dix is not None:
        hands = exchange_dix(hands, deal.turn, best.dix)
    return about, KlabberjassPosition(best.trump, 0, hands)


def _carabin_start(game: Game, deal: Any, rows: list[Any]) -> tuple[str, Any]:
    best = max(rows, key=lambda r: r.points)
    about = (
        f"Best contract: seat {best.bidder} takes {SUIT_SYMBOLS[best.trump]} "
        f"({'made' if best.made else 'not made'}, {best.points} of "
        f"{deal.points_in_play} points)"
    )
    order = getattr(game.rules, "trick_order", "alternate")
    return about, deal.position(bidder=best.bidder, trump=best.trump, trick_order=order)


def optimal_line(game: Game, position: Any) -> list[int]:
    """An optimal line to the end: the engine's best card at every turn."""
    line = []
    while not position.is_over:
        card = game.solve(position).best
        line.append(card)
        position = game.step(position, card)[0]
    return line


def run(args: argparse.Namespace) -> int:
    """Run ``tricklab demo``."""
    game = game_of(args)
    deal = game.parse_deal(DEALS[game.name])
    table = game.deal_table(deal)
    rules = f"{game.rules.name} rules" if game.name == "klabberjass" else f"{deal.players} players"
    print(f"A {game.name.capitalize()} deal ({rules}), every bidder and trump double-dummy:\n")
    print(table_text(table))
    start = _klabberjass_start if game.name == "klabberjass" else _carabin_start
    about, position = start(game, deal, table)
    print(f"\n{about}. The card play:\n")
    result = game.solve(position, moves=True)
    line = None if getattr(result, "pv", None) else optimal_line(game, position)
    print(result_text(game, result, line))
    return 0
