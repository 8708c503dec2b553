"""CPU time of Carabin card-play decisions: αμ and PIMC at several world counts, timed
on the same decisions (for matches at equal CPU time a decision).

Contracts of random deals (random bidder, turn-up suit trump) are played by PIMC (20
worlds) at every seat; at each searched decision of seat 0 (his own decisions, any side)
the αμ choice (``--worlds``, ``--depth``, no time limit) and the PIMC choice at each of
``--pimc`` world counts are timed (CPU seconds, ``time.process_time``), each from a
fresh policy of the same seed. Prints one JSON object: per method, decisions, mean and
median milliseconds; and ``same_card_as_pimc``: how many of αμ's searched decisions
chose the card PIMC chooses on the same worlds (PIMC at ``--worlds``, the same seed).

    python tools/carabin_alphamu_cost.py --players 3 --deals 10 --seed 1
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from analysis.carabin_alphamu import CarabinAlphaMu
from analysis.play import CarabinPimc, CarabinState
from solver.carabin import Contract
from solver.carabin import Deal as CDeal
from solver.cards import suit_of


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--deals", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--worlds", type=int, default=20)
    ap.add_argument("--depth", type=int, default=2)
    ap.add_argument("--pimc", default="20,50,100,200")
    args = ap.parse_args()
    counts = [int(x) for x in args.pimc.split(",")]
    rng = random.Random(args.seed)
    times: dict[str, list[float]] = {"alphamu": [], **{f"pimc{w}": [] for w in counts}}
    depths = []
    same = 0
    for i in range(args.deals):
        deal = CDeal.random(players=args.players, rng=random.Random(rng.getrandbits(64)))
        contract = Contract(rng.randrange(args.players), suit_of(deal.turn))
        pos = deal.position(bidder=contract.bidder, trump=contract.trump)
        state = CarabinState(pos, deal.turn, False, deal.points_in_play)
        play = CarabinPimc(20, seed=i)
        k = 0
        while not state.position.is_over:
            if state.position.to_move == 0:
                k += 1
                a = CarabinAlphaMu(args.worlds, args.depth, seed=k, time_limit=None)
                t = time.process_time()
                card = a.choose(state)
                dt = time.process_time() - t
                if a.stats.decisions:  # searched (not forced)
                    times["alphamu"].append(dt)
                    depths.append(a.stats.depth_reached)
                    same += card == CarabinPimc(args.worlds, seed=k).choose(state)
                    for w in counts:
                        p = CarabinPimc(w, seed=k)
                        t = time.process_time()
                        p.choose(state)
                        times[f"pimc{w}"].append(time.process_time() - t)
            state.step(play.choose(state))
    out = {
        "players": args.players, "deals": args.deals, "seed": args.seed,
        "alphamu_worlds": args.worlds, "depth": args.depth,
        "mean_depth_reached": round(statistics.fmean(depths), 2) if depths else None,
        "same_card_as_pimc": {"same": same, "decisions": len(depths)},
    }  # fmt: skip
    for name, ts in times.items():
        out[name] = {
            "decisions": len(ts),
            "mean_ms": round(1e3 * statistics.fmean(ts), 2),
            "median_ms": round(1e3 * statistics.median(ts), 2),
            "max_ms": round(1e3 * max(ts), 1),
        }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
