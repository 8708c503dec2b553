"""The analysis board: play through a deal with every card's double-dummy value in view,
or one seat's view with the sampled (PIMC) values; the deal table and the tree of
optimal lines beside it.

:class:`BoardState` is the model (pure Python, the engine's values); ``tricklab board``
serves it as a page (:mod:`analysis.board.server`) or writes a self-contained HTML file
(:func:`analysis.board.page.static_html`); :class:`Board` is the same board as a
JupyterLab widget (needs anywidget, loaded only when ``Board`` is first used). The page
and the widget share one front-end module, ``board.js``.
"""

from __future__ import annotations

from typing import Any

from analysis.board.state import BoardState, guess_game

__all__ = ["Board", "BoardState", "guess_game"]


def __getattr__(name: str) -> Any:
    if name == "Board":  # anywidget is optional: imported only when the widget is asked for
        from analysis.board.widget import Board

        return Board
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
