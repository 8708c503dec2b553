"""Persistent worlds against fresh worlds in Klabberjass card play, in duplicate: does a
player who keeps his worlds from one decision to the next (``Pimc(persist=True)``) take
more or fewer card points than one who draws new worlds at every decision?

    PYTHONPATH=. python tools/pimc_persist_match.py --deals 1000 --seed 1

Each random deal (turn-up suit trump, E leads, no declarations) is played twice, the
persistent player as E, then as D, against the default player, 20 worlds a decision;
each seat keeps its seed at both tables, so the first decisions are the same. The
figure is a quarter of the persistent player's card points less the default player's
over the two tables: what keeping the worlds is worth to one seat (the other seat
loses as much), with a 95% interval (normal, one value a deal); the CPU time and
nodes a contract of each player's own decisions; and the share of the carried worlds
that come through whole (the cards played aside), the others having had a card drawn
anew.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

import analysis.play as play
from analysis.play import DEFAULT_SAMPLES, PIMC_TT_MB, Pimc, PlayState, play_deal
from solver.klabberjass import engine
from solver.klabberjass.deal import Deal


class Timed:
    """A policy whose CPU time and nodes are added up."""

    def __init__(self, inner: Pimc):
        self.inner = inner
        self.cpu = 0.0
        self.nodes = 0

    def choose(self, state: PlayState) -> int:
        core = engine.core(PIMC_TT_MB)
        n, t = core.nodes, time.process_time()
        card = self.inner.choose(state)
        self.cpu += time.process_time() - t
        self.nodes += core.nodes - n
        return card


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES)
    a = parser.parse_args(argv)
    carried = [0, 0]  # worlds carried, of them whole
    carry = play.carry_hands

    def counted(worlds: list[int], pool: int, need: int, seed: int) -> list[int]:
        out = carry(worlds, pool, need, seed)
        carried[0] += len(out)
        carried[1] += sum(w & pool == x for w, x in zip(worlds, out, strict=True))
        return out

    play.carry_hands = counted  # type: ignore[assignment]
    rng = random.Random(a.seed)
    diffs = []
    cost = {True: [0.0, 0], False: [0.0, 0]}  # persist: [CPU s, nodes]
    for _ in range(a.deals):
        deal = Deal.random(rng.getrandbits(64))
        seeds = (rng.getrandbits(64), rng.getrandbits(64))
        net = 0
        for persistent_seat in (0, 1):
            players = tuple(
                Timed(Pimc(a.samples, seed=seeds[s], persist=s == persistent_seat)) for s in (0, 1)
            )
            engine.core(PIMC_TT_MB).clear()  # each table from an empty table
            out = play_deal(deal.hands, deal.turn_suit, deal.turn, players)
            net += out.points[persistent_seat] - out.points[1 - persistent_seat]
            for s, p in enumerate(players):
                cost[s == persistent_seat][0] += p.cpu
                cost[s == persistent_seat][1] += p.nodes
        diffs.append(net / 4)
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / len(diffs) ** 0.5
    print(
        f"{a.deals} deals (seed {a.seed}), {a.samples} worlds a decision: persistent worlds "
        f"{mean:+.2f} card points a deal a seat against fresh worlds, 95% [{mean - half:+.2f}, "
        f"{mean + half:+.2f}]; {sum(d != 0 for d in diffs)} deals differ"
    )
    for persist in (True, False):
        cpu, nodes = cost[persist]
        print(
            f"  {'persistent' if persist else 'fresh':10} player's decisions: "
            f"{1e3 * cpu / (2 * a.deals):.2f} ms CPU, {nodes / (2 * a.deals):.0f} nodes a contract"
        )
    print(f"  carried worlds: {carried[0]}, {100 * carried[1] / max(carried[0], 1):.0f}% whole")
    return 0


if __name__ == "__main__":
    sys.exit(main())
