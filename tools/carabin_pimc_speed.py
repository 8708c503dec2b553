"""Carabin PIMC decisions in the compiled core against the loop in Python, on the
contracts of ``tricklab bench carabin --what pimc`` (same seed, deals, bidders and
policy seeds): the same cards played, and per contract the CPU milliseconds and the
search nodes each way, back to back on each contract (the compiled one first). The
compiled decisions draw their worlds in the core, the loop in Python
(``carabin_worlds``): the same cards played also says the same worlds were drawn.

CPU time rather than the wall clock: on a shared machine the wall clock counts the
time other jobs took. With a time limit (on the wall clock) the searches left undecided
differ from run to run, and so may the cards played.

    PYTHONPATH=. python tools/carabin_pimc_speed.py --players 4 --deals 20 --seed 1 [--time-limit S]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from analysis.play import CarabinPimc, play_carabin
from solver.carabin import engine
from solver.carabin.deal import Contract, Deal
from solver.cards import suit_of


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--samples", type=int, default=20)
    parser.add_argument("--time-limit", type=float, default=None)
    args = parser.parse_args()
    n = args.players
    rng = random.Random(args.seed)
    cpu: dict[bool, list[float]] = {True: [], False: []}
    nodes = {True: 0, False: 0}
    undecided = {True: 0, False: 0}
    searches, same = 0, 0
    core = engine.core()
    for i in range(args.deals):
        d = Deal.random(players=n, rng=rng)
        contract = Contract(rng.randrange(n), suit_of(d.turn))
        played = {}
        for compiled in (True, False):
            policies = [
                CarabinPimc(args.samples, seed=n * i + s, time_limit=args.time_limit,
                            compiled=compiled)
                for s in range(n)
            ]  # fmt: skip
            n0, t0 = core.nodes, time.process_time()
            played[compiled] = play_carabin(d, contract, policies)
            cpu[compiled].append(time.process_time() - t0)
            nodes[compiled] += core.nodes - n0
            undecided[compiled] += sum(p.stats.undecided for p in policies)
            if compiled:
                searches += sum(p.stats.searches for p in policies)
        same += played[True] == played[False]
    print(
        f"Carabin PIMC, {n} players, {args.deals} contracts (seed {args.seed}), "
        f"{args.samples} worlds a decision, time limit {args.time_limit}: "
        f"{same} of {args.deals} played card for card the same; "
        f"{searches / args.deals:.1f} worlds evaluated a contract"
    )
    for compiled, name in ((True, "compiled"), (False, "Python loop")):
        ms = [1e3 * t for t in cpu[compiled]]
        print(
            f"  {name:12} CPU ms a contract: median {statistics.median(ms):.1f}, "
            f"mean {statistics.fmean(ms):.1f}, max {max(ms):.1f}; "
            f"nodes a contract {nodes[compiled] / args.deals:,.0f}; "
            f"{undecided[compiled]} searches undecided"
        )
    ratio = sum(cpu[False]) / sum(cpu[True])
    print(f"  total CPU: Python loop / compiled = {ratio:.2f}")


if __name__ == "__main__":
    main()
