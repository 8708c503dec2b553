"""αμ against PIMC in duplicate card play: each deal played twice, αμ sitting E then D.

Random deals (``Deal.random`` of seeds drawn from ``--seed``), the turn-up suit trump,
E leads, no declarations: only the card play differs. In leg 0 αμ
(:class:`analysis.alphamu.AlphaMu`, ``--worlds``, ``--depth``) sits E and PIMC
(:class:`analysis.play.Pimc`, ``--pimc-worlds``) D; in leg 1 they swap. Both legs have
the same cards, so αμ's gain on a deal is its card points as E minus PIMC's as E (the
total is fixed, so the D seats give the same figure). The CPU time of every searched
decision of each player is summed, so "equal time per card" can be checked.

Writes one CSV row a deal (``--out``) and prints the mean gain a deal with its 95 %
interval (normal, deals independent) and each player's CPU time a decision.

    nice -n 10 python tools/alphamu_duplicate.py --deals 300 --seed 1 --pimc-worlds 250 \\
        --out /tmp/alphamu-duplicate.csv
"""

from __future__ import annotations

import argparse
import csv
import math
import random
import statistics
import sys
import time

from analysis.alphamu import AlphaMu
from analysis.play import Pimc, PlayState, play_deal
from solver.klabberjass.deal import Deal


class Timed:
    """A policy whose searched decisions are timed (CPU)."""

    def __init__(self, player):
        self.player = player
        self.seconds = 0.0
        self.decisions = 0

    def choose(self, state: PlayState) -> int:
        before = self.player.stats.decisions
        start = time.process_time()
        card = self.player.choose(state)
        if self.player.stats.decisions > before:
            self.seconds += time.process_time() - start
            self.decisions += 1
        return card


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--worlds", type=int, default=20, help="alphamu worlds")
    ap.add_argument("--depth", type=int, default=2, help="alphamu depth")
    ap.add_argument("--pimc-worlds", type=int, default=20)
    ap.add_argument("--out", required=True, help="CSV file, one row a deal")
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    gains = []
    times = {"alphamu": [0.0, 0], "pimc": [0.0, 0]}
    with open(args.out, "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["deal", "seed", "alphamu_e", "pimc_e", "gain", "alphamu_s", "alphamu_n",
                      "pimc_s", "pimc_n"])  # fmt: skip
        for k in range(args.deals):
            seed = rng.getrandbits(64)
            deal = Deal.random(seed)
            e_points = []
            row_times = [0.0, 0, 0.0, 0]
            for leg in (0, 1):
                a = Timed(AlphaMu(args.worlds, args.depth, seed=seed + 1))
                p = Timed(Pimc(args.pimc_worlds, seed=seed + 2))
                seats = (a, p) if leg == 0 else (p, a)
                played = play_deal(deal.hands, deal.turn_suit, deal.turn, seats)
                e_points.append(played.points[0])
                row_times[0] += a.seconds
                row_times[1] += a.decisions
                row_times[2] += p.seconds
                row_times[3] += p.decisions
            gain = e_points[0] - e_points[1]
            gains.append(gain)
            times["alphamu"][0] += row_times[0]
            times["alphamu"][1] += row_times[1]
            times["pimc"][0] += row_times[2]
            times["pimc"][1] += row_times[3]
            out.writerow([k, seed, e_points[0], e_points[1], gain,
                          round(row_times[0], 4), row_times[1], round(row_times[2], 4),
                          row_times[3]])  # fmt: skip
            f.flush()
    n = len(gains)
    mean = statistics.fmean(gains)
    half = 1.96 * statistics.stdev(gains) / math.sqrt(n) if n > 1 else float("nan")
    print(
        f"alphamu ({args.worlds} worlds, depth {args.depth}) against PIMC "
        f"({args.pimc_worlds} worlds), {n} deals (seed {args.seed}), duplicate card play: "
        f"gain {mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}] card points a deal; "
        f"deals won {sum(g > 0 for g in gains)}, lost {sum(g < 0 for g in gains)}, "
        f"tied {sum(g == 0 for g in gains)}"
    )
    for name, (sec, dec) in times.items():
        print(f"  {name}: {1e3 * sec / max(dec, 1):.2f} ms CPU a searched decision ({dec})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
