"""``tricklab board <game> "<deal or position>"``: an analysis board in the browser.

The start is a position, or a deal with its contract (``trump=``, and ``bidder=`` for
Carabin). The board is served on 127.0.0.1 (a port the system picks) as one page: the
hands, the trick in progress, the points, every legal card of the player to move with
its double-dummy value (or its loss against the best card), the principal variation,
the line played with its mistakes and critical decisions. Click a card to play it;
undo, redo, jump to a trick, play the best card, copy the position. A board started
from a deal also shows the deal table and has single-dummy mode (one seat's view: the
other hands hidden, each card's PIMC value over ``--samples`` worlds drawn with
``--seed``); the tree of optimal lines from any position opens node by node. The command prints
the page's address (it holds a secret token: only that page may use the server), opens
the browser unless ``--no-browser`` and serves until Ctrl-C, e.g.

  tricklab board klabberjass "E=AK.K.K8.A/T9..J. D=8.QT8.9.8/..A.KJ turn=7C trump=S"

``--html FILE`` instead writes one self-contained HTML file of the optimal line from
the start, every position's values in it, that plays back offline.
"""

from __future__ import annotations

import argparse
import sys
import threading
from pathlib import Path

from analysis.cli.common import UsageError, add_game, add_rules, count, game_of, read, whole
from solver.limits import MAX_SAMPLES

HELP = "analysis board: play a deal with every card's value in view (browser)"

#: Runnable examples, shown under ``tricklab board --help`` (and run by the tests).
EXAMPLES = (
    'tricklab board klabberjass "E=AK.K.K8.A/T9..J. D=8.QT8.9.8/..A.KJ turn=7C trump=S" --html board.html',
    'tricklab board carabin "0=K2.8..3/Q.6.7.2 1=.K.9.87/T.5.A.K 2=..64.Q6/A.JT.5. 3=3..QJ.5/9.7..AJ turn=3H trump=S bidder=1" --html board.html',
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``tricklab board``."""
    add_game(parser)
    parser.add_argument(
        "start",
        help='a position, or a deal with trump= (and bidder= for Carabin), e.g. "trump=H lead=E E=A.7.. D=K.8.."',
    )
    parser.add_argument("--no-browser", action="store_true", help="print the address only")
    parser.add_argument(
        "--html",
        metavar="FILE",
        default=None,
        help="write a self-contained HTML file of the optimal line instead of serving",
    )
    parser.add_argument(
        "--port", type=int, default=0, help="port on 127.0.0.1 (default: any free port)"
    )
    parser.add_argument(
        "--samples",
        type=count("--samples", 1, MAX_SAMPLES),
        default=20,
        help="worlds drawn for each single-dummy value (default 20)",
    )
    parser.add_argument(
        "--seed", type=whole("--seed"), default=1, help="seed of the single-dummy draw (default 1)"
    )
    add_rules(parser)


def run(args: argparse.Namespace) -> int:
    """Run ``tricklab board``."""
    from analysis.board.state import BoardState  # the board's modules load only here

    game = game_of(args)
    if not 0 <= args.port <= 65535:
        raise UsageError(f"invalid --port {args.port} (0 to 65535; 0 picks a free port)")
    from analysis.board.state import deal_of

    board = BoardState(game, read(game, args.start, game.parse_start), deal_of(game, args.start))
    board.samples, board.seed = args.samples, args.seed
    if args.html is not None:
        from analysis.board.page import static_html

        text = static_html(board)
        try:
            Path(args.html).write_text(text, encoding="utf-8")
        except OSError as err:
            raise UsageError(f"cannot write {args.html}: {err.strerror}") from None
        plies = len(board.line)
        print(f"wrote {args.html}: the optimal line of {plies} cards, {plies + 1} positions")
        return 0
    from analysis.board.server import BoardServer

    try:
        server = BoardServer(board, args.port)
    except OSError as err:
        raise UsageError(f"cannot listen on 127.0.0.1:{args.port}: {err.strerror}") from None
    board.to_json()  # solve the start now, so that the page's first request is answered at once
    with server:
        print(server.url, flush=True)
        print("tricklab: serving the board; Ctrl-C stops", file=sys.stderr, flush=True)
        if not args.no_browser:
            import webbrowser

            webbrowser.open(server.url)
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            print("tricklab: stopped", file=sys.stderr)
    return 0
