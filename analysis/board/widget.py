"""The analysis board as a JupyterLab widget (anywidget), on the page's front end.

>>> board = Board("trump=H lead=E E=A.7.. D=K.8..")   # doctest: +SKIP
>>> board                                             # doctest: +SKIP

Clicking a card plays it; ``board.position`` and ``board.history`` read the board from
Python, and :meth:`Board.play`, :meth:`Board.undo`, :meth:`Board.redo`,
:meth:`Board.jump` and :meth:`Board.best` move it from Python (the view follows).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from analysis.board.server import apply
from analysis.board.state import BoardState, guess_game
from solver.cards import Card
from solver.errors import TricklabError
from solver.games import Game, get_game


class Board(anywidget.AnyWidget):
    """An analysis board in a notebook.

    Args:
        start: a position, or a deal with its contract (``trump=``, and ``bidder=`` for
            Carabin).
        game: ``klabberjass``, ``carabin`` or a game object; by default guessed from
            the seats of ``start`` (``E``/``D``: Klabberjass).
        rules: the game's rules (see :func:`solver.games.get_game`).

    Raises:
        NotationError, RulesError: ``start`` does not parse (nothing is displayed).
    """

    _esm = Path(__file__).with_name("board.js")
    state = traitlets.Unicode("{}").tag(sync=True)

    def __init__(
        self, start: str, game: str | Game | None = None, rules: Any = None, **kwargs: Any
    ) -> None:
        if not isinstance(start, str):
            raise TricklabError(f"a board starts from a position or deal as text, not {start!r}")
        g = game if isinstance(game, Game) else get_game(game or guess_game(start), rules)
        self.board = BoardState.from_text(g, start)  # refuses bad input before any display
        super().__init__(**kwargs)
        self._sync()
        self.on_msg(self._on_message)

    # ------------------------------------------------------------------ Python side
    @property
    def position(self) -> Any:
        """The current position (``str()`` gives its notation)."""
        return self.board.position

    @property
    def history(self) -> list[Card]:
        """The cards played to reach the current position."""
        return self.board.history

    def play(self, card: int | str) -> Board:
        """Play a card (see :meth:`BoardState.play`); the view follows."""
        self.board.play(card)
        return self._sync()

    def undo(self) -> Board:
        self.board.undo()
        return self._sync()

    def redo(self) -> Board:
        self.board.redo()
        return self._sync()

    def jump(self, ply: int) -> Board:
        self.board.jump(ply)
        return self._sync()

    def best(self) -> Board:
        self.board.best()
        return self._sync()

    def _sync(self) -> Board:
        self.state = json.dumps(self.board.to_json())
        return self

    def _on_message(self, widget: Any, content: Any, buffers: Any) -> None:
        """An action from the view: apply it, then answer with the state and any error."""
        msg_id = content.get("id") if isinstance(content, dict) else None
        error = ""
        try:
            apply(self.board, {k: v for k, v in content.items() if k != "id"})
        except TricklabError as err:
            error = str(err)
        self._sync()
        self.send({"id": msg_id, "state": self.state, "error": error})
