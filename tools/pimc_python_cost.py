"""CPU time of the ``klabberjass-realplay`` study's card play spent in Python, outside
the compiled decision (``Core.pimc``): the contracts of ``--deals`` study deals played
with :meth:`analysis.play.Pimc.decide` replaced by a stub that takes the first class
(so the play differs from the study's; the Python work per card is the same kind:
hidden hand, classes, the position stepped, the policy called).

    python tools/pimc_python_cost.py --deals 30 --seed 1

Compare with ``tricklab bench klabberjass --what realplay`` (CPU ms a contract) for the
share of Python in a played contract.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import analysis.play as play
from analysis.bidding.klabberjass import deal_tables
from analysis.bidding.realplay import realplay_deals, row_play
from solver.klabberjass import SEED


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5)
    a = parser.parse_args(argv)
    play.Pimc.decide = lambda self, p, hidden, ks, bonus: (ks[0][0], 0)  # type: ignore[method-assign]
    _, deals, _seeds = realplay_deals(random.Random(a.seed), a.deals)
    jobs = [
        row_play(d, r, SEED)
        for d, t in zip(deals, deal_tables(deals, SEED), strict=True)
        for r in t
    ]
    best = None
    for _ in range(a.repeat):
        start = time.process_time()
        for kw in jobs:
            p = play.Pimc(seed=1)
            play.play_deal(
                kw["hands"], kw["trump"], kw["turn"], (p, p),
                rules=SEED, shown=kw["shown"], bottom=kw["bottom"],
            )  # fmt: skip
        cpu = time.process_time() - start
        best = cpu if best is None else min(best, cpu)
    assert best is not None
    print(
        f"{len(jobs)} contracts: {1e3 * best / len(jobs):.3f} ms CPU a contract in Python "
        f"outside the search (best of {a.repeat})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
