"""Nodes and time of the Carabin core's exact value and make probe, deal by deal.

Two sets of deals, each solved with the table cleared first (a first solve):

- ``bench``: the deals of ``tricklab bench carabin --players N --deals D --seed S``
  (the same random generator: random bidder, turn-up suit trump, seat 0 leads);
- ``table``: the deal tables of ``tricklab deal carabin --random --seed S --players N``
  (every bidder and trump), the known slow deals of 5 and 6 players.

Each search gets at most ``--limit`` seconds; one that runs out is reported as ``>``
(its nodes are those searched until then). Prints one line a search and a summary a
set (median and max of nodes and milliseconds); ``--out`` also writes every row as CSV.

    python tools/carabin_nodes.py bench --players 5 --seeds 1 --deals 30
    python tools/carabin_nodes.py table --players 5 --seeds 1,2,3,4 --limit 60
"""

from __future__ import annotations

import argparse
import csv
import random
import statistics
import sys
import time
import zlib
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout first

from solver.carabin import engine
from solver.carabin.deal import Deal
from solver.cards import suit_of


def _positions(kind: str, players: int, seed: int, deals: int) -> list[tuple[str, object]]:
    out = []
    if kind == "bench":
        rng = random.Random(seed)
        for i in range(deals):
            d = Deal.random(players=players, rng=rng)
            bidder = rng.randrange(players)
            start = d.position(bidder=bidder, trump=suit_of(d.turn), trick_order="alternate")
            out.append((f"bench p{players} s{seed} #{i}", (start, d.points_in_play)))
    else:
        d = Deal.random(seed, players)
        for bidder in range(players):
            for trump in range(4):
                start = d.position(bidder=bidder, trump=trump, trick_order="alternate")
                name = f"table p{players} s{seed} b{bidder} t{trump}"
                out.append((name, (start, d.points_in_play)))
    return out


def _run(core, search, limit: float) -> tuple[object, int, float, bool]:
    core.clear()
    core.set_time_limit(limit)
    n0 = core.nodes
    t0 = time.perf_counter()
    try:
        answer, over = search(), False
    except TimeoutError:
        answer, over = None, True
    ms = 1e3 * (time.perf_counter() - t0)
    core.set_time_limit(None)
    return answer, core.nodes - n0, ms, over


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=("bench", "table"))
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--seeds", default="1", help="comma-separated seeds")
    parser.add_argument("--deals", type=int, default=30, help="bench: deals a seed")
    parser.add_argument("--limit", type=float, default=30.0, help="seconds a search")
    parser.add_argument("--what", default="exact,make", help="exact, make or both")
    parser.add_argument("--out", default=None, help="CSV of every row")
    parser.add_argument("--quiet", action="store_true", help="summary lines only")
    parser.add_argument(
        "--world", default=None, help="CARDS,AFTER for Core.set_world_bounds (default: the core's)"
    )
    parser.add_argument("--only", default=None, help="bench: comma-separated deal numbers")
    args = parser.parse_args()
    core = engine.core()
    if args.world:
        core.set_world_bounds(*map(int, args.world.split(",")))
    rows = []
    for seed in [int(s) for s in args.seeds.split(",")]:
        only = None if args.only is None else {f"#{i}" for i in args.only.split(",")}
        for name, (start, total) in _positions(args.kind, args.players, seed, args.deals):
            if only is not None and name.split()[-1] not in only:
                continue
            for what in args.what.split(","):
                if what == "exact":
                    search = partial(engine.value, start)
                else:
                    search = partial(engine.make, start, total // 2 + 1)
                answer, nodes, ms, over = _run(core, search, args.limit)
                rows.append((name, what, answer, nodes, ms, over))
                if not args.quiet:
                    mark = ">" if over else " "
                    print(
                        f"{name:28} {what:5} {answer!s:>5} {nodes:>11} {mark}{ms:10.1f} ms",
                        flush=True,
                    )
    for what in args.what.split(","):
        sel = [r for r in rows if r[1] == what]
        if not sel:
            continue
        nodes = [r[3] for r in sel]
        ms = [r[4] for r in sel]
        print(
            f"{args.kind} p{args.players} seeds {args.seeds} {what}: {len(sel)} searches, "
            f"nodes median {statistics.median(nodes):.0f} max {max(nodes)} total {sum(nodes)}; "
            f"ms median {statistics.median(ms):.2f} max {max(ms):.1f}; "
            f"over {args.limit:g} s: {sum(r[5] for r in sel)}; "
            f"answers crc {zlib.crc32(repr([r[2] for r in sel]).encode()):08x}"
        )
    if args.out:
        with open(args.out, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["name", "what", "answer", "nodes", "ms", "over"])
            w.writerows(rows)


if __name__ == "__main__":
    main()
