"""The compiled Carabin optimal tree against the tree built move by move in Python, on
the positions of ``tricklab bench carabin --what tree`` (same seed and size): the same
graph, and the seconds each way, back to back on each position (the table cleared
before each build).

    PYTHONPATH=. python tools/carabin_tree_speed.py --players 5 --deals 5 --seed 1 [--tricks 4]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from analysis.cli.bench import _carabin_start
from analysis.trees import _build, optimal_tree
from solver import carabin
from solver.carabin.rules import Rules
from solver.games import get_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deals", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tricks", type=int, default=4)
    args = parser.parse_args()
    game = get_game("carabin", Rules(players=args.players))
    rng = random.Random(args.seed)
    fast, slow, sizes = [], [], []
    for _ in range(args.deals):
        start, _ = _carabin_start(args.players, "alternate", args.tricks, rng)
        carabin.core().clear()
        t0 = time.perf_counter()
        a = optimal_tree(game, start)
        fast.append(time.perf_counter() - t0)
        carabin.core().clear()
        t0 = time.perf_counter()
        b = _build(game, start, depth=None, per_class=False, follow="optimal", max_nodes=10**7)
        slow.append(time.perf_counter() - t0)
        if list(a.nodes(data=True)) != list(b.nodes(data=True)) or list(a.edges(data=True)) != list(
            b.edges(data=True)
        ):
            raise SystemExit(f"the two trees differ from {start}")
        sizes.append(a.number_of_nodes())
    print(
        f"Carabin optimal trees, {args.players} players, {args.deals} positions with "
        f"{args.tricks} tricks left (seed {args.seed}); the same graphs both ways"
    )
    print(f"  positions: median {statistics.median(sizes)}, max {max(sizes)}")
    print(f"  compiled: median {statistics.median(fast):.3f} s, total {sum(fast):.2f} s")
    print(f"  Python:   median {statistics.median(slow):.3f} s, total {sum(slow):.2f} s")
    print(f"  speed-up (total / total): {sum(slow) / sum(fast):.1f}x")


if __name__ == "__main__":
    main()
