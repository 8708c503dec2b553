"""What reading the auction costs a Klabberjass PIMC decision, and how many candidate
worlds it rejects.

    python tools/inference_cost.py --deals 40 --seed 1 --policy derived [--csv OUT]

(from the repository root, with it on the path: ``PYTHONPATH=. python tools/…``).

Deals are drawn as the match studies draw them and bid by ``--policy`` for both seats
(:func:`analysis.matches.klabberjass_bidding`); each contract is played by PIMC (20
worlds) without inference. At every searched decision whose mover's opponent made a
call, the same decision (same state, same seed) is made twice back to back, by
:class:`analysis.play.Pimc` without and with ``inference`` (the order alternating, both
on the shared table), and timed. Reported: decisions, candidate worlds drawn a
decision (also among the decisions that did not fall back), the fraction rejected
(candidates not kept, those of fallback decisions included), fallbacks, mean milliseconds a decision without and
with inference (wall clock: noisy on a loaded machine), the extra milliseconds and
how many decisions chose another card.
"""

from __future__ import annotations

import argparse
import csv
import random
import sys
import time

from analysis.matches import KLABBERJASS_POLICIES, auction_inference, klabberjass_bidding
from analysis.play import Pimc, PlayState, Stats, classes, hidden_of
from solver.klabberjass import Position
from solver.klabberjass.deal import Deal


def measure(deals: int, seed: int, policy: str, samples: int = 20) -> dict:
    pols = (KLABBERJASS_POLICIES[policy], KLABBERJASS_POLICIES[policy])
    reading = auction_inference(pols)
    rng = random.Random(seed)
    plain_s = infer_s = 0.0
    n = changed = 0
    totals = Stats()
    done = 0
    while done < deals:
        deal = Deal.random(rng.getrandbits(64))
        stream = random.Random(rng.getrandbits(64))
        contract, auction = klabberjass_bidding(deal, pols, stream)
        if contract is None:
            continue
        done += 1
        state = PlayState(Position(contract[1], 0, deal.hands), deal.turn, auction=auction)
        player = Pimc(samples, seed=stream)
        inferred = Pimc(samples, inference=reading)  # one a deal, as in the matches
        while not state.position.is_over:
            p = state.position
            opp = 1 - p.to_move
            searched = len(classes(p, hidden_of(state))) > 1
            if searched and auction.calls_of(opp):
                s = stream.getrandbits(64)
                times = {}
                for which in ("plain", "infer") if n % 2 == 0 else ("infer", "plain"):
                    pol = Pimc(samples, seed=s) if which == "plain" else inferred
                    if which == "infer":
                        pol.rng = random.Random(s)  # the same decision seed as the plain one
                    t = time.perf_counter()
                    times[which] = (pol.choose(state), time.perf_counter() - t)
                plain_s += times["plain"][1]
                infer_s += times["infer"][1]
                changed += times["plain"][0] != times["infer"][0]
                n += 1
            state.step(player.choose(state))
        for k in ("inferred", "drawn", "kept", "fallbacks"):
            setattr(totals, k, getattr(totals, k) + getattr(inferred.stats, k))
    st = totals
    return {
        "policy": policy,
        "deals": deals,
        "seed": seed,
        "samples": samples,
        "decisions": n,
        "drawn_per_decision": round(st.drawn / max(1, st.inferred), 2),
        "rejected_fraction": round(1 - st.kept / max(1, st.drawn), 4),
        "fallbacks": st.fallbacks,
        "fallback_fraction": round(st.fallbacks / max(1, st.inferred), 4),
        # a fallback draws every candidate allowed: samples * AuctionInference.draws
        "drawn_per_decision_no_fallback": round(
            (st.drawn - st.fallbacks * samples * reading.draws)
            / max(1, st.inferred - st.fallbacks),
            2,
        ),
        "ms_plain": round(1000 * plain_s / max(1, n), 2),
        "ms_inference": round(1000 * infer_s / max(1, n), 2),
        "ms_extra": round(1000 * (infer_s - plain_s) / max(1, n), 2),
        "other_card": changed,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--policy", default="derived", choices=sorted(KLABBERJASS_POLICIES))
    ap.add_argument("--csv", help="append the row to this CSV file")
    args = ap.parse_args(argv)
    row = measure(args.deals, args.seed, args.policy)
    print(row)
    if args.csv:
        with open(args.csv, "a", newline="") as fh:
            w = csv.DictWriter(fh, fieldnames=list(row))
            if fh.tell() == 0:
                w.writeheader()
            w.writerow(row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
