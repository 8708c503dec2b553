"""The analysis board as a JupyterLab widget (anywidget), on the page's front end.

>>> board = Board("trump=H lead=E E=A.7.. D=K.8..")   # doctest: +SKIP
>>> board                                             # doctest: +SKIP

Clicking a card plays it; ``board.position`` and ``board.history`` read the board from
Python, and :meth:`Board.play`, :meth:`Board.undo`, :meth:`Board.redo`,
:meth:`Board.jump` and :meth:`Board.best` move it from Python (the view follows);
:meth:`Board.view` sets single-dummy mode, :meth:`Board.table` and :meth:`Board.tree`
show the deal table and the tree of optimal lines.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from analysis.board.server import (
    SINGLE_DUMMY_SECONDS,
    TABLE_SECONDS,
    TREE_MAX_NODES,
    TREE_SECONDS,
    apply,
)
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

    def view(
        self,
        seat: int | str | None,
        samples: int | None = None,
        seed: int | None = None,
        time_limit: float | None = SINGLE_DUMMY_SECONDS,
    ) -> Board:
        """Single-dummy mode for ``seat`` (None: leave it); see :meth:`BoardState.set_viewer`
        (``time_limit`` None: every world solved, however long). ``board.single_dummy``
        then reads the sampled values from Python."""
        self.board.set_viewer(seat, samples, seed, time_limit=time_limit)
        return self._sync()

    @property
    def single_dummy(self) -> Any:
        """The viewer's PIMC advice here (:meth:`BoardState.single_dummy`), or None."""
        return self.board.single_dummy()

    def table(self) -> Any:
        """Show the deal table in the view; returns it (:meth:`BoardState.deal_table`)."""
        table = self.board.deal_table(time_limit=TABLE_SECONDS)
        self._sync()
        return table

    def tree(self) -> Any:
        """Show the tree of optimal lines from here; returns it (a networkx graph,
        :meth:`BoardState.build_tree`)."""
        graph = self.board.build_tree(TREE_MAX_NODES, time_limit=TREE_SECONDS)
        self._sync()
        return graph

    def expand(self, path: list[str], expand: bool = True) -> Board:
        """Open (or close) the tree's node reached by ``path`` (:meth:`BoardState.open_node`)."""
        self.board.open_node(path, expand)
        return self._sync()

    def follow(self, path: list[str]) -> Board:
        """Put the board at the tree's node reached by ``path`` (:meth:`BoardState.follow`)."""
        self.board.follow(path)
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
