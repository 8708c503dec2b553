"""The rows of a Carabin deal table solved one after the other in one search context, as
``tricklab deal carabin`` does with one worker: nodes and CPU seconds a row, to see what
earlier rows leave in the table for later ones.

    python tools/carabin_table_rows.py --players 6 --seed 3            # rows in order
    python tools/carabin_table_rows.py --players 6 --seed 3 --clear    # table cleared a row
    python tools/carabin_table_rows.py --players 6 --seed 3 --only 5,3 # one row: bidder,trump

Rows over ``--show`` seconds (default 1) are printed, then the total.
"""

from __future__ import annotations

import argparse
import time

from solver.carabin import Deal, engine


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=6)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--clear", action="store_true", help="clear the table before each row")
    ap.add_argument("--only", help="one row, as BIDDER,TRUMP")
    ap.add_argument("--show", type=float, default=1.0, help="print rows over this many s")
    args = ap.parse_args()
    deal = Deal.random(args.seed, args.players)
    core = engine.core()
    core.clear()
    rows = [(b, t) for b in range(args.players) for t in range(4)]
    if args.only:
        b, t = map(int, args.only.split(","))
        rows = [(b, t)]
    total = 0.0
    for bidder, trump in rows:
        if args.clear:
            core.clear()
        start = deal.position(bidder=bidder, trump=trump, trick_order="alternate")
        nodes, cpu = core.nodes, time.process_time()
        value = engine.value(start)
        cpu = time.process_time() - cpu
        total += cpu
        if cpu > args.show or args.only:
            print(
                f"bidder {bidder} trump {trump}: {value} points, "
                f"{core.nodes - nodes:,} nodes, {cpu:.2f} s"
            )
    print(f"{len(rows)} rows, {total:.1f} s of CPU")


if __name__ == "__main__":
    main()
