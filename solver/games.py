"""The game registry: every game of tricklab, by name, behind one protocol.

>>> game = get_game("klabberjass")
>>> p = game.parse_position("trump=H lead=E E=A... D=K...")
>>> game.value(p), game.move_values(p)
((25, 0), {AS: 25})
>>> [g for g in GAMES]
['klabberjass', 'carabin']
"""

from __future__ import annotations

from typing import Any

from solver.carabin.game import Carabin
from solver.errors import RulesError
from solver.klabberjass.game import Klabberjass
from solver.protocol import FlatTree, Game, Inference

#: The games by name, in the order the command line lists them.
GAMES: dict[str, type[Game]] = {"klabberjass": Klabberjass, "carabin": Carabin}


def get_game(name: str, rules: Any = None) -> Game:
    """The game of that name.

    Args:
        name: ``klabberjass`` or ``carabin``.
        rules: the game's rules: a ``Rules`` value, or a preset name for Klabberjass
            (``seed``, ``classic``); None for the default rules.

    Raises:
        RulesError: an unknown game or rules preset.
    """
    game = GAMES.get(name) if isinstance(name, str) else None
    if game is None:
        raise RulesError(f"unknown game {name!r} (expected one of: {', '.join(GAMES)})")
    if isinstance(rules, str) and game is Carabin:
        if rules != "seed":
            raise RulesError(f"unknown rules '{rules}' for carabin (its variants are options)")
        rules = None
    return game(rules)


def parse_view(game: str, text: str) -> Any:
    """Read a view of ``game``: what one player knows.

    Raises:
        NotationError, RulesError, IllegalPlayError: see the views' ``parse``.
    """
    return get_game(game).parse_view(text)


__all__ = ["GAMES", "FlatTree", "Game", "Inference", "get_game", "parse_view"]
