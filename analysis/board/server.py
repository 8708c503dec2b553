"""The board's local server: the page and a JSON API on 127.0.0.1, for one board.

Only the page it serves may use it: the server listens on 127.0.0.1 only, on a port the
system picks; every request must name the server in its ``Host`` header
(``127.0.0.1:<port>`` or ``localhost:<port>``, which defeats DNS rebinding) and carry
the random token of the page's address (``?token=`` for the page,
``X-Tricklab-Token`` for the API; a header a page of another origin cannot send without
the server's consent, which it never gives). Anything else gets 403.

API (JSON):
    ``GET /api/state``: ``{"state": <BoardState.to_json()>}``.
    ``POST /api/act`` with ``{"action": "play", "card": "AS"}``, ``{"action": "undo"}``,
    ``redo``, ``best``, ``{"action": "jump", "ply": 3}``, ``{"action": "view", "seat":
    "E"}``, ``table``, ``tree``, ``{"action": "expand", "path": ["AS"]}``, ``collapse``
    or ``follow`` (see :func:`apply`): ``{"state": ..., "error": ""}``;
    an action the board refuses (an illegal card) leaves it unchanged and answers 400
    with the unchanged state and the error message.
"""

from __future__ import annotations

import hmac
import json
import secrets
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from analysis.board.page import served_html
from analysis.board.state import BoardState
from solver.errors import TricklabError

#: Largest request body accepted (an action is a few dozen bytes).
MAX_BODY = 4096

#: Seconds the page's requests may search: the single-dummy worlds of one decision,
#: the deal table, the tree of optimal lines (whose size is capped too). Past them the
#: answer rests on what was done (worlds solved, rows bounded) or is refused.
SINGLE_DUMMY_SECONDS = 5.0
TABLE_SECONDS = 10.0
TREE_SECONDS = 10.0
TREE_MAX_NODES = 50_000

ACTIONS = "play, undo, redo, best, jump, view, table, tree, expand, collapse, follow"


def apply(board: BoardState, action: Any) -> None:
    """Apply one API action to the board.

    Besides playing (``play``, ``undo``, ``redo``, ``best``, ``jump``): ``view`` with a
    ``seat`` (or null) sets single-dummy mode (optional ``samples``, ``seed``);
    ``table`` makes the deal table; ``tree`` builds the tree of optimal lines from the
    current position; ``expand``/``collapse`` a node of it and ``follow`` (put the board
    at it) take the node's ``path``, its cards from the tree's root.

    Raises:
        TricklabError: an unknown action, or one the board refuses (it is unchanged).
    """
    if not isinstance(action, dict):
        raise TricklabError('an action is a JSON object like {"action": "undo"}')
    name = action.get("action")
    if name == "play":
        card = action.get("card")
        if not isinstance(card, str):
            raise TricklabError('play needs a card, like {"action": "play", "card": "AS"}')
        board.play(card)
    elif name == "undo":
        board.undo()
    elif name == "redo":
        board.redo()
    elif name == "best":
        board.best()
    elif name == "jump":
        board.jump(action.get("ply"))  # type: ignore[arg-type]
    elif name == "view":
        seed = action.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise TricklabError(f"invalid seed {seed!r} (a whole number)")
        board.set_viewer(
            action.get("seat"), action.get("samples"), seed, time_limit=SINGLE_DUMMY_SECONDS
        )
    elif name == "table":
        board.deal_table(time_limit=TABLE_SECONDS)
    elif name == "tree":
        if board.viewer is not None:
            raise TricklabError(
                "the tree of optimal lines shows every hand: leave single-dummy mode first"
            )
        board.build_tree(TREE_MAX_NODES, time_limit=TREE_SECONDS)
    elif name in ("expand", "collapse"):
        board.open_node(action.get("path"), expand=name == "expand")  # type: ignore[arg-type]
    elif name == "follow":
        board.follow(action.get("path"))  # type: ignore[arg-type]
    else:
        raise TricklabError(f"unknown action {name!r} ({ACTIONS})")


class BoardServer:
    """Serve one board on ``127.0.0.1`` in a background thread.

    Args:
        board: the board (the server owns it from now on; requests are served one at a
            time under a lock).
        port: 0 for a port the system picks.

    Attributes:
        token: the secret every request must present.
        url: the page's address, token included.
    """

    def __init__(self, board: BoardState, port: int = 0) -> None:
        self.board = board
        self.token = secrets.token_urlsafe(24)
        self.lock = threading.Lock()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", port), _handler(self))
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/?token={self.token}"
        self._thread: threading.Thread | None = None

    def start(self) -> BoardServer:
        """Serve in a daemon thread; returns at once."""
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and close the socket."""
        self.httpd.shutdown()
        self.httpd.server_close()

    def __enter__(self) -> BoardServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ------------------------------------------------------------------ checks
    def host_ok(self, host: str | None) -> bool:
        return host in (f"127.0.0.1:{self.port}", f"localhost:{self.port}")

    def token_ok(self, token: str | None) -> bool:
        return token is not None and hmac.compare_digest(token.encode(), self.token.encode())


def _handler(server: BoardServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "tricklab-board"
        sys_version = ""

        def log_message(self, format: str, *args: Any) -> None:  # quiet
            pass

        def _send(self, status: int, body: bytes, kind: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.send_header("X-Content-Type-Options", "nosniff")
            self.send_header("X-Frame-Options", "DENY")
            self.end_headers()
            self.wfile.write(body)

        def _json(self, status: int, data: dict) -> None:
            self._send(status, json.dumps(data).encode(), "application/json")

        def _allowed(self, token: str | None) -> bool:
            if not server.host_ok(self.headers.get("Host")) or not server.token_ok(token):
                self._json(403, {"error": "forbidden"})
                return False
            return True

        def do_GET(self) -> None:
            url = urlsplit(self.path)
            if url.path == "/":
                token = parse_qs(url.query).get("token", [None])[0]
                if self._allowed(token):
                    page = served_html(server.board, server.token).encode()
                    self._send(200, page, "text/html; charset=utf-8")
            elif url.path == "/api/state":
                if self._allowed(self.headers.get("X-Tricklab-Token")):
                    with server.lock:
                        state = server.board.to_json()
                    self._json(200, {"state": state, "error": ""})
            else:
                self._json(404, {"error": "not found"})

        def do_POST(self) -> None:
            if urlsplit(self.path).path != "/api/act":
                self._json(404, {"error": "not found"})
                return
            if not self._allowed(self.headers.get("X-Tricklab-Token")):
                return
            try:
                length = int(self.headers.get("Content-Length") or 0)
            except ValueError:
                length = -1
            if not 0 < length <= MAX_BODY:
                self._json(400, {"error": "bad request body"})
                return
            try:
                action = json.loads(self.rfile.read(length))
            except ValueError:
                self._json(400, {"error": "the request body is not JSON"})
                return
            with server.lock:
                try:
                    apply(server.board, action)
                    status, error = 200, ""
                except TricklabError as err:
                    status, error = 400, str(err)
                state = server.board.to_json()
            self._json(status, {"state": state, "error": error})

    return Handler
