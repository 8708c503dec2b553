"""Record and replay the PIMC decisions of the ``klabberjass-realplay`` study, to
measure and check the compiled decision (``Core.pimc``) alone.

    PYTHONPATH=. python tools/pimc_decisions.py record --deals 20 --seed 5 --out /tmp/dec.json [--persist]
    PYTHONPATH=. python tools/pimc_decisions.py replay /tmp/dec.json [--exact] [--repeat 3] [--by-size]
    PYTHONPATH=. python tools/pimc_decisions.py export /tmp/dec.json /tmp/dec.txt
    PYTHONPATH=. python tools/pimc_decisions.py replay /tmp/dec.json --first-leads

``record`` plays every contract of ``--deals`` random deals as the study does
(:func:`analysis.bidding.realplay.realplay_chunk`) and saves the arguments, the worlds
when they were given (with ``--persist`` the players keep their worlds,
``Pimc(persist=True)``) and the choice of every searched decision, in order. ``replay`` makes the same calls on a fresh
table (so the table's history is the study's; ``--tt-mb``, default the players'
:data:`analysis.play.PIMC_TT_MB`), reports seconds, child searches and nodes, and fails if a choice differs from the recorded one; with ``--exact`` it also
solves every candidate in every world (``exact=True``) and checks the choice is the
argmax of the totals, ties to the first. ``export`` writes the record as text for
``tools/pimc_replay.c``, which makes the same calls in C alone. ``--first-leads``
compares, at each contract's first lead (nine cards, from an empty table), the nodes
of the decision with those of solving its worlds alone (``Core.value``, each once). Under callgrind:

    valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.out \\
        python tools/pimc_decisions.py replay /tmp/dec.json
    callgrind_annotate /tmp/cg.out | head -40
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time

from analysis.play import PIMC_TT_MB
from solver.klabberjass import engine
from solver.klabberjass._core import sample_hands


def record(deals: int, seed: int, out: str, persist: bool = False) -> None:
    from analysis.bidding.realplay import realplay_chunk

    core = engine.core()
    calls: list[list] = []
    original = type(core).pimc

    class Recording:
        def __init__(self, inner):
            self.inner = inner

        def pimc(self, *args, **kw):
            result = self.inner.pimc(*args, **kw)
            worlds = kw.get("worlds")
            calls.append([list(args[:10]), list(args[10]), result[0], worlds and list(worlds)])
            return result

        def __getattr__(self, name):
            return getattr(self.inner, name)

    import analysis.play as play

    real_core = play.engine.core
    play.engine.core = lambda tt_mb=None: Recording(real_core(tt_mb))  # type: ignore[assignment]
    real_init = play.Pimc.__init__
    if persist:

        def init(self, *args, **kw):
            kw.setdefault("persist", True)
            real_init(self, *args, **kw)

        play.Pimc.__init__ = init  # type: ignore[method-assign]
    try:
        core.clear()
        start = time.perf_counter()
        realplay_chunk(random.Random(seed), 0, deals, {})
        elapsed = time.perf_counter() - start
    finally:
        play.engine.core = real_core  # type: ignore[assignment]
        play.Pimc.__init__ = real_init  # type: ignore[method-assign]
    del original
    with open(out, "w") as f:
        json.dump({"deals": deals, "seed": seed, "persist": persist, "calls": calls}, f)
    print(f"{len(calls)} decisions recorded in {elapsed:.2f} s ({deals} deals) -> {out}")


def replay(
    path: str, exact: bool, repeat: int, tt_mb: int | None = None, by_size: bool = False
) -> int:
    with open(path) as f:
        data = json.load(f)
    calls = data["calls"]
    core = engine.core(PIMC_TT_MB if tt_mb is None else tt_mb)
    best = None
    sizes: dict[tuple[int, str], list[int]] = {}  # (cards in hand, leads/replies): [n, nodes]
    for _ in range(repeat):
        core.clear()
        nodes = core.nodes
        searches = 0
        bad = 0
        start, cpu = time.perf_counter(), time.process_time()
        for args, cands, chosen, *given in calls:
            before = core.nodes
            i, _sums, s, _ = core.pimc(*args, cands, worlds=given[0] if given else None)
            searches += s
            bad += i != chosen
            if by_size:
                key = (bin(args[0]).count("1"), "leads" if args[8] == -1 else "replies")
                acc = sizes.setdefault(key, [0, 0])
                acc[0] += 1
                acc[1] += core.nodes - before
        elapsed = time.perf_counter() - start
        cpu = time.process_time() - cpu
        best = elapsed if best is None else min(best, elapsed)
        print(
            f"{len(calls)} decisions: {elapsed:.3f} s ({cpu:.3f} s CPU), "
            f"{1e3 * cpu / len(calls):.3f} ms CPU a decision, {searches} child searches, {core.nodes - nodes} nodes, "
            f"{bad} choices differ from the record"
        )
        if bad:
            return 1
    if by_size:
        total = sum(a[1] for a in sizes.values())
        print("nodes by decision (cards in the mover's hand, leads or replies):")
        for (cards, kind), (n, nodes) in sorted(sizes.items(), reverse=True):
            print(
                f"  {cards} cards, {kind:7}: {n:5} decisions, {nodes:10} nodes "
                f"({100 * nodes / total:4.1f}%), {nodes // n} a decision"
            )
    if exact:
        wrong = 0
        for args, cands, chosen, *given in calls:
            worlds = given[0] if given else None
            _i, sums, _s, _rows = core.pimc(*args, cands, exact=True, worlds=worlds)
            top = max(sums)
            wrong += sums.index(top) != chosen
        print(f"exact check: {wrong} of {len(calls)} choices are not the argmax of the totals")
        return 1 if wrong else 0
    return 0


def first_leads(calls: list) -> None:
    core = engine.core(PIMC_TT_MB)
    firsts = [c for c in calls if bin(c[0][0]).count("1") == 9 and c[0][8] == -1]
    decision = values = 0
    for args, cands, _chosen, *given in firsts:
        mine, known, pool, need, count, seed, trump, leader, trick, bonus = args
        worlds = given[0] if given and given[0] else sample_hands(pool, need, count, seed)
        core.clear()
        before = core.nodes
        core.pimc(*args, cands, worlds=given[0] if given else None)
        decision += core.nodes - before
        core.clear()
        before = core.nodes
        for w in worlds:
            e, d = (mine, known | w) if leader == 0 else (known | w, mine)
            core.value(e, d, trump, leader, trick, bonus)
        values += core.nodes - before
    n = max(len(firsts), 1)
    print(
        f"{len(firsts)} first leads: {decision / n:.0f} nodes a decision, "
        f"{values / n:.0f} to solve its worlds alone"
    )


def export(path: str, out: str) -> None:
    from solver.klabberjass import rules

    with open(path) as f:
        calls = json.load(f)["calls"]
    tables = (
        rules.PLAIN_POWER,
        rules.TRUMP_POWER,
        rules.PLAIN_RANK_POINTS,
        rules.TRUMP_RANK_POINTS,
    )
    with open(out, "w") as f:
        for t in tables:
            f.write(" ".join(map(str, t)) + "\n")
        f.write(f"{len(calls)}\n")
        for args, cands, chosen, *given in calls:
            worlds = given[0] if given else None
            tail = f"1 {' '.join(map(str, worlds))}" if worlds else "0"
            f.write(
                f"{' '.join(map(str, args))} {len(cands)} {' '.join(map(str, cands))} {chosen} {tail}\n"
            )
    print(f"{len(calls)} decisions -> {out}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("record")
    r.add_argument("--deals", type=int, default=20)
    r.add_argument("--seed", type=int, default=5)
    r.add_argument("--out", required=True)
    r.add_argument("--persist", action="store_true", help="players keep their worlds")
    p = sub.add_parser("replay")
    p.add_argument("path")
    p.add_argument("--exact", action="store_true")
    p.add_argument("--repeat", type=int, default=1)
    p.add_argument("--tt-mb", type=int, default=None)
    p.add_argument("--by-size", action="store_true", help="nodes by size of decision")
    p.add_argument("--first-leads", action="store_true", help="first leads against their worlds")
    x = sub.add_parser("export")
    x.add_argument("path")
    x.add_argument("out")
    a = parser.parse_args(argv)
    if a.cmd == "record":
        record(a.deals, a.seed, a.out, a.persist)
        return 0
    if a.cmd == "export":
        export(a.path, a.out)
        return 0
    if a.first_leads:
        with open(a.path) as f:
            first_leads(json.load(f)["calls"])
        return 0
    return replay(a.path, a.exact, a.repeat, a.tt_mb, a.by_size)


if __name__ == "__main__":
    sys.exit(main())
