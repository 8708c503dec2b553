"""How fast the analysis board answers a click: random lines through random deals.

Serves each board with ``analysis.board.server.BoardServer`` and plays random legal
cards through its HTTP API (``POST /api/act``), timing each request from send to the
last byte of the answer (the new state: every legal card's value, the principal
variation, the critical decisions...). The first request of a deal (``GET
/api/state``, a cold start of the search) is reported apart.

With ``--single-dummy`` the board is first set to single-dummy mode for seat 0 (E)
with the server's defaults (20 worlds, at most 5 seconds a decision): seat 0 plays a
random legal card, the others their best card (``"best"``), and each answer in which
seat 0 is to play holds his sampled values (``analysis.advice.advise``).

    python tools/board_speed.py [--deals 20] [--seed 1] [--single-dummy]
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout first

from analysis.board.server import BoardServer
from analysis.board.state import BoardState
from solver.carabin.rules import Rules as CarabinRules
from solver.games import get_game


def _start(name: str, players: int, rng: random.Random) -> tuple[object, str]:
    suit = rng.choice("SHDC")
    if name == "klabberjass":
        game = get_game("klabberjass")
        deal = game.random_deal(rng.randrange(1 << 30))
        return game, f"{deal} trump={suit}"
    game = get_game("carabin", CarabinRules(players=players))
    deal = game.random_deal(rng.randrange(1 << 30), players)
    return game, f"{deal} trump={suit} bidder={rng.randrange(players)}"


def measure(
    name: str, players: int, deals: int, seed: int, single_dummy: bool = False
) -> tuple[list[float], list[float]]:
    """(first-request times, click times) in milliseconds."""
    rng = random.Random(seed)
    first, clicks = [], []
    for _ in range(deals):
        game, text = _start(name, players, rng)
        board = BoardState.from_text(game, text)  # type: ignore[arg-type]
        with BoardServer(board) as server:
            conn = http.client.HTTPConnection("127.0.0.1", server.port)
            headers = {"X-Tricklab-Token": server.token, "Content-Type": "application/json"}
            t = time.perf_counter()
            conn.request("GET", "/api/state", headers=headers)
            state = json.loads(conn.getresponse().read())["state"]
            first.append((time.perf_counter() - t) * 1000)
            conn.close()
            if single_dummy:
                conn = http.client.HTTPConnection("127.0.0.1", server.port)
                t = time.perf_counter()
                body = json.dumps({"action": "view", "seat": game.seat_label(0)})  # type: ignore[attr-defined]
                conn.request("POST", "/api/act", body=body, headers=headers)
                state = json.loads(conn.getresponse().read())["state"]
                clicks.append((time.perf_counter() - t) * 1000)
                conn.close()
            while not state["over"]:
                if state["moves"]:
                    card = rng.choice(state["moves"])["card"]
                    body = json.dumps({"action": "play", "card": card})
                else:  # single dummy, a hidden seat to play
                    body = json.dumps({"action": "best"})
                conn = http.client.HTTPConnection("127.0.0.1", server.port)
                t = time.perf_counter()
                conn.request("POST", "/api/act", body=body, headers=headers)
                state = json.loads(conn.getresponse().read())["state"]
                clicks.append((time.perf_counter() - t) * 1000)
                conn.close()
    return first, clicks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--single-dummy", action="store_true", help="seat 0's view")
    args = parser.parse_args()
    mode = ", single dummy for seat 0" if args.single_dummy else ""
    print(f"{args.deals} random deals each, random legal cards to the end{mode} (milliseconds)")
    print(
        f"{'game':<16}{'clicks':>7}{'median':>8}{'p95':>8}{'max':>8}{'>100ms':>8}   first request median/max"
    )
    for name, players in (("klabberjass", 2), ("carabin", 3), ("carabin", 4)):
        first, clicks = measure(name, players, args.deals, args.seed, args.single_dummy)
        p95 = statistics.quantiles(clicks, n=20)[-1]
        slow = sum(c > 100 for c in clicks)
        label = name if name == "klabberjass" else f"carabin {players}p"
        print(
            f"{label:<16}{len(clicks):>7}{statistics.median(clicks):>8.1f}{p95:>8.1f}"
            f"{max(clicks):>8.1f}{slow:>8}   {statistics.median(first):.1f}/{max(first):.1f}"
        )


if __name__ == "__main__":
    main()
