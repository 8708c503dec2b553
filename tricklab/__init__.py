"""tricklab: exact analysis of Klabberjass and Carabin.

The top-level names of the toolkit in one place; the code lives in two packages,
:mod:`solver` (cards, rules, engines; light to import) and :mod:`analysis` (trees,
studies, bidding, puzzles, the command line; needs the ``analysis`` extra).

>>> import tricklab
>>> game = tricklab.get_game("klabberjass")
>>> game.value(game.parse_position("trump=H lead=E E=A... D=K..."))
(25, 0)
>>> tricklab.klabberjass.solve(tricklab.klabberjass.Position.parse("trump=H lead=E E=A... D=K...")).points
(25, 0)
>>> tricklab.__version__ == tricklab.solver.__version__
True
"""

import solver
from solver import (
    IllegalBidError,
    IllegalPlayError,
    NotationError,
    RulesError,
    TricklabError,
    __version__,
    carabin,
    klabberjass,
)
from solver.games import GAMES, get_game

__all__ = [
    "GAMES",
    "IllegalBidError",
    "IllegalPlayError",
    "NotationError",
    "RulesError",
    "TricklabError",
    "__version__",
    "carabin",
    "get_game",
    "klabberjass",
    "solver",
]
