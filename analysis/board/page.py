"""The board's HTML: one self-contained page, served or written to a file.

Both forms inline the one front-end module (``board.js``, shared with the JupyterLab
widget) and a small JSON configuration: the served page carries the server's token
(every API request must present it); the file carries the state of every position of
the line it shows, so it plays back offline with no server at all.
"""

from __future__ import annotations

import html
import json
from importlib.resources import files
from typing import Any

from analysis.board.state import BoardState


def front_end() -> str:
    """The text of ``board.js``."""
    return files("analysis.board").joinpath("board.js").read_text(encoding="utf-8")


def _script_json(data: Any) -> str:
    # JSON inside <script>: "</" and "<!--" must not appear, nor the line separators
    text = json.dumps(data, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def _page(title: str, config: dict) -> str:
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>{html.escape(title)}</title>
</head>
<body>
<div id="board"></div>
<script type="application/json" id="tricklab-config">{_script_json(config)}</script>
<script type="module">
{front_end()}
const config = JSON.parse(document.getElementById("tricklab-config").textContent);
const backend = config.states ? staticBackend(config.states) : httpBackend(config.token);
window.tricklabBoard = mount(document.getElementById("board"), backend);
</script>
</body>
</html>
"""


def served_html(board: BoardState, token: str) -> str:
    """The page :mod:`analysis.board.server` serves (its state comes from the API)."""
    return _page(f"tricklab board: {board.game.name}", {"token": token})


def static_html(board: BoardState) -> str:
    """A self-contained page of the optimal line from the board's current position.

    The line played so far is kept (the cards after the cursor dropped), then the principal variation is played to the end;
    the page holds the state of every position of that line (each legal card's value,
    the principal variation, the points) and steps through it with no server: undo,
    redo, jump to a trick and play the best card; a card off the line is refused with a
    message. The board is left at the position it was at.
    """
    ply = board.ply
    board.cut().best_line()
    states = []
    for i in range(len(board.line) + 1):
        board.jump(i)
        states.append(board.to_json())
    board.jump(ply)
    title = f"tricklab board: {board.game.name}, {board.game.key(board.start)}"
    return _page(title, {"states": states})
