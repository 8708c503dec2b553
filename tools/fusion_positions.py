"""Search for Klabberjass endings that show strategy fusion, and write them as test data.

    python tools/fusion_positions.py --seed 1 --count 24 --out tests/data/fusion-positions.jsonl

For each attempt (seeded, so the same arguments give the same file): a random deal
(:meth:`solver.klabberjass.Deal.random`), a random trump, random legal cards played up
to an ending of 3 or 4 cards a hand (half of the time one more card, so that the player
to move follows to a lead), the view of the player to move, and 2 to 12 of the worlds
consistent with it (the true one among them, the others drawn uniformly), equally
likely. The ending is kept when :func:`analysis.endings.solve_ending` finds that PIMC's
card over those worlds differs from the exact strategy's first card, is provably worse
(:attr:`analysis.endings.Ending.fusion`: even played on perfectly it scores less), and
is strictly preferred by PIMC (more double-dummy points over the worlds than the exact
card: no tie-break decides).

Output: one JSON object a line; the first line (``"about"``) says how the file was made
and the command that regenerates it; then one ending a line (:meth:`Ending.to_json`
plus ``n_worlds``). A summary (attempts, endings kept) goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import random
import sys

from analysis.endings import solve_ending
from analysis.play import PlayState
from solver.cards import format_holding
from solver.klabberjass import Deal, Position


def attempt(rng: random.Random) -> tuple[object, list[str]]:
    """One random view of a small ending and a few of its worlds (holdings)."""
    deal = Deal.random(rng.getrandbits(32))
    trump = rng.randrange(4)
    state = PlayState(Position(trump, 0, deal.hands), deal.turn)
    cards_left = rng.choice((3, 4))
    extra = rng.random() < 0.5
    while state.position.tricks_left > cards_left or (
        extra and state.position.trick is None and state.position.tricks_left == cards_left
    ):
        state.step(rng.choice(state.position.legal_moves()))
    view = state.view()
    me = state.position.to_move
    truth = state.position.hands[1 - me]
    inf = view.inference()
    _, _, size, known, _ = inf.hidden[0]
    need = size - bin(known).count("1")
    pool = [c for c in range(64) if inf.pool >> c & 1]
    worlds = {truth}
    k = rng.randint(2, 12)
    for _ in range(50 * k):
        if len(worlds) == k:
            break
        worlds.add(known | sum(1 << c for c in rng.sample(pool, need)))
    ordered = sorted(worlds)
    rng.shuffle(ordered)
    return view, [format_holding(w) for w in ordered]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=24, help="endings to keep")
    ap.add_argument("--attempts", type=int, default=5000, help="attempts at most")
    ap.add_argument("--out", default="-")
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    kept = []
    tried = 0
    differ = 0
    while len(kept) < args.count and tried < args.attempts:
        tried += 1
        view, worlds = attempt(rng)
        ending = solve_ending(view, worlds)  # type: ignore[arg-type]
        if ending.card != ending.pimc_card:
            differ += 1
        dd = ending.dd_totals
        if (
            ending.card != ending.pimc_card
            and ending.fusion
            and dd[ending.pimc_card] > dd[ending.card]
        ):
            row = ending.to_json()
            row["n_worlds"] = len(worlds)
            kept.append(row)
    about = {
        "about": (
            "Klabberjass endings where PIMC's card over the listed worlds (equally likely) "
            "is provably worse than the exact strategy's first card (and PIMC strictly prefers it): "
            f"made by tools/fusion_positions.py (seed {args.seed}, {tried} attempts, "
            f"{differ} with another card, {len(kept)} kept)"
        ),
        "regenerate": (
            f"python tools/fusion_positions.py --seed {args.seed} --count {args.count} "
            f"--attempts {args.attempts} --out tests/data/fusion-positions.jsonl"
        ),
    }
    lines = [json.dumps(about)] + [json.dumps(r) for r in kept]
    text = "\n".join(lines) + "\n"
    if args.out == "-":
        sys.stdout.write(text)
    else:
        with open(args.out, "w") as f:
            f.write(text)
    print(
        f"{tried} attempts, {differ} with PIMC's card not the exact one, {len(kept)} kept",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
