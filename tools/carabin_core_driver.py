"""The Carabin core without Python: dump bench deals as the core's arguments, and a C
driver (``carabin_core_driver.c``) that solves them, for callgrind and node counts.

    python tools/carabin_core_driver.py dump --players 4 --seed 101 --deals 200 > p4.txt
    python tools/carabin_core_driver.py dump --players 6 --seed 3 --table > t6.txt
    python tools/carabin_core_driver.py build          # -> build/carabin_core_driver
    build/carabin_core_driver exact < p4.txt           # one line a deal, then a summary
    CB_HELP=1 build/carabin_core_driver exact < t6.txt # each search helped on a 2nd thread
    python tools/carabin_core_driver.py build --march x86-64-v2   # valgrind: no AVX-512
    valgrind --tool=callgrind build/carabin_core_driver exact < p4.txt
    python tools/carabin_core_driver.py build --stats  # -> build/carabin_core_stats
    CB_PROBES=1 build/carabin_core_stats exact < p4.txt
    python tools/carabin_core_driver.py build --order-stats  # -> build/carabin_core_order
    build/carabin_core_order exact < p4.txt             # move order: which card cut
    python tools/carabin_core_driver.py build --settle-stats # -> build/carabin_core_settle
    build/carabin_core_settle exact < t6.txt            # how boundaries were settled
    python tools/carabin_core_driver.py build --deep-stats   # -> build/carabin_core_deep
    build/carabin_core_deep exact < t6.txt              # where the deep look-ahead's nodes go
    python tools/carabin_core_driver.py build --share-stats  # -> build/carabin_core_share
    build/carabin_core_share exact < t6.txt             # boundaries a partition search could share
    python tools/carabin_core_driver.py build --waste-stats  # -> build/carabin_core_waste
    CB_RACE=0 build/carabin_core_waste make < t6.txt    # what the move order costs
    python tools/carabin_core_driver.py build --graph-stats  # -> build/carabin_core_graph
    CB_DSHAPE=0 build/carabin_core_graph exact < t6.txt # the deep look-aheads' worlds, outcomes
    python tools/carabin_core_driver.py build --shape-stats  # -> build/carabin_core_shape
    CB_RACE=0 build/carabin_core_shape make < t6.txt    # nodes by boundary shape and bound
    python tools/carabin_core_driver.py build --patch tools/tried/suit_symmetry.patch
    build/carabin_core_suit_symmetry exact < t6.txt     # an idea tried, and dropped

``--stats`` builds the core patched with ``tools/carabin_core_stats.patch`` (counters:
boundaries by how they were settled, nodes inside tricks, cuts by the card that made
them, completed tricks equal up to ranks to an earlier one from the same boundary);
the patch applies to the core of the commit that added it. ``--order-stats`` builds the
core patched with ``tools/carabin_core_order.patch``: at every node inside a trick where
a card cut, the class of the card tried first and of the card that cut (a sure win of a
trick with or without points, a discard, a coalition card that settles the trick, ...),
for each side; and the trick boundaries searched although the single-world bounds were
computed there, by trick, outcome and how many points those bounds fell short, with
the nodes their searches visited; it applies to the core of the commit that changed it
last. ``--settle-stats`` builds the core patched with ``tools/carabin_core_settle.patch``:
by tricks played, how the trick boundaries the search entered were settled (sure
points, the table, each single-world bound, the look-ahead one and two tricks deep, the
last four tricks on lanes, or searched), and for those searched the outcome and how far
the lower bound fell short; it applies to the core of the commit that changed it last.
``--deep-stats`` builds the core patched with ``tools/carabin_core_deep.patch``: the
nodes of the bounds' own searches (single-world games, one-trick and deep look-aheads),
the deep look-aheads by tricks played and outcome with their nodes, how their leaves
were valued, and for each side, in the deep look-ahead and in the search, its nodes and
which card (first, second, ...) cut; it applies to the core of the commit that added it.
``--gap-stats`` builds the core patched with ``tools/carabin_core_gap.patch``: one in 100
of the boundaries two tricks in (three cards a hand of each kind) that a zero-window
search proves at least its beta is solved exactly in a context of its own, and the
driver prints histograms of the exact value against beta, the single-world lower bound,
the coupled bound, the upper bound, the single-world games in which the bidder
never leads again (not a bound) and the lead-budget pair of
``tools/tried/lead_budget_bound.patch``; it applies to the core of the commit that added it.
``--share-stats`` builds the core patched with ``tools/carabin_core_share.patch``: how many
of the boundaries two tricks in that a search searches are distinct by their cards, up to
the cards gone, and under coarser keys that forget the ranks (and then the holders) of the
coalition's 0-point cards of plain suits: a ceiling on what a partition search sharing
proofs among such positions could share. ``--waste-stats`` builds the core patched with
``tools/carabin_core_waste.patch``: the nodes of the cards tried before the one that cut,
at every node inside a trick and every boundary's lead, each counted once at the highest
node where it happened, by side, trick and the kinds of the two cards (what a perfect
move order would save, the table's help aside; run it with ``CB_RACE=0``).
``--graph-stats`` builds the core patched with ``tools/carabin_core_graph.patch``: the
look-aheads two tricks deep from boundaries of three cards a hand to play and two of the
other kind, over how many distinct worlds to play (with their leader) they are taken, and
how many distinct outcomes (winner, gain, the single-world values by leader of what is
left of that world) their leaves reach (what ``cb_deep_shape`` merges); run it with
``CB_DSHAPE=0``, the tricks played out. ``--shape-stats`` builds the core patched with
``tools/carabin_core_shape.patch``: by the shape of the trick boundaries (cards a hand of
the kind to play and of the other), every boundary entered with the nodes below it, and
each bound's calls and nodes there (the single-world pair, the coupled and upper bounds,
the look-aheads one and two tricks deep, the no-lead bound, the reverse pair) and the
tricks searched; run it with ``CB_RACE=0``, or a search stopped by a race's budget is
left out of its line. A patch of your own that counts (defines ``cb_stats_print``) builds with ``--patch FILE --counters``.

The deals are those of ``tools/carabin_nodes.py bench`` (and ``tricklab bench
carabin``): the same generator, random bidder, the turn-up suit trump, seat 0 leads.
With ``--table``, the rows (every bidder and trump) of the deal table of ``tricklab deal
carabin --random --seed S --players N`` instead. The driver clears the table before each search and prints the
answer and the nodes; its time limit is CPU seconds.
"""

from __future__ import annotations

import argparse
import random
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # this checkout first

from solver.carabin import engine  # noqa: E402
from solver.carabin.deal import Deal  # noqa: E402
from solver.carabin.rules import POWER, RANK_POINTS  # noqa: E402
from solver.cards import suit_of  # noqa: E402


def dump(players: int, seed: int, deals: int, table: bool) -> None:
    """One line a deal: the rules' tables once, then n, 2n hands, trump, bidder, leader,
    h, order, guess, points in play. ``table``: the rows of the deal table of
    ``tricklab deal carabin --random --seed S --players N`` (every bidder, every trump)."""
    print(" ".join(map(str, POWER)))
    print(" ".join(map(str, RANK_POINTS)))
    rng = random.Random(seed)
    starts = []
    if table:
        d = Deal.random(seed, players)
        for bidder in range(players):
            for trump in range(4):
                starts.append((d, d.position(bidder=bidder, trump=trump, trick_order="alternate")))
    for _ in range(0 if table else deals):
        d = Deal.random(players=players, rng=rng)
        bidder = rng.randrange(players)
        starts.append(
            (d, d.position(bidder=bidder, trump=suit_of(d.turn), trick_order="alternate"))
        )
    for d, start in starts:
        n, hands, trump, b, lead, h, order, _trick = engine._args(start)
        guess = engine._guess(start)
        fields = [n, *hands, trump, b, lead, h, order, guess, d.points_in_play]
        print(" ".join(map(str, fields)))


def build(
    out: Path, stats: str | None, march: str, patch: Path | None = None, counters: bool = False
) -> None:
    """Compile the driver; ``stats``: "stats", "order", "settle", "deep", "gap", "share", "waste", "graph" or "shape", the core patched with
    ``tools/carabin_core_<stats>.patch``; ``patch``: the core patched with that file instead
    (an idea tried on a copy of the core, as those under ``tools/tried/``); ``counters``:
    that patch counts, as the counting cores do (the driver prints its cb_stats_print)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    core = ROOT / "solver" / "carabin"
    flags = []
    if stats or patch:
        if patch is None:
            patch = ROOT / "tools" / f"carabin_core_{stats}.patch"
            flags = ["-DCB_STATS"]
        elif counters:
            flags = ["-DCB_STATS"]
        patch = patch.resolve()
        core = out.parent / f"carabin_{stats or patch.stem}"
        core.mkdir(exist_ok=True)
        shutil.copy(ROOT / "solver" / "carabin" / "_core.h", core / "_core.h")
        subprocess.run(["patch", "-s", "-p3", "-d", str(core), "-i", str(patch)], check=True)
    cmd = [
        "gcc", "-O3", f"-march={march}", "-g", "-pthread", *flags, "-o", str(out),
        str(ROOT / "tools" / "carabin_core_driver.c"),
        f"-I{core}", f"-I{ROOT / 'solver' / '_c'}",
    ]  # fmt: skip
    subprocess.run(cmd, check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("verb", choices=("dump", "build"))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=101)
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--table", action="store_true", help="dump: the rows of a deal table")
    parser.add_argument("--out", default=None, help="build: the program (default under build/)")
    parser.add_argument("--stats", action="store_true", help="build: the counting core")
    parser.add_argument(
        "--settle-stats",
        action="store_true",
        help="build: the core counting how trick boundaries were settled",
    )
    parser.add_argument(
        "--order-stats", action="store_true", help="build: the core counting which card cut"
    )
    parser.add_argument(
        "--deep-stats",
        action="store_true",
        help="build: the core counting where the deep look-ahead's nodes go",
    )
    parser.add_argument(
        "--gap-stats",
        action="store_true",
        help="build: the core comparing bounds with exact values two tricks in",
    )
    parser.add_argument(
        "--waste-stats",
        action="store_true",
        help="build: the core counting the nodes of the tries before the card that cut",
    )
    parser.add_argument(
        "--share-stats",
        action="store_true",
        help="build: the core counting distinct boundaries two tricks in, under coarser keys",
    )
    parser.add_argument(
        "--graph-stats",
        action="store_true",
        help="build: the core counting the deep look-aheads' worlds and outcomes (run it with CB_DSHAPE=0)",
    )
    parser.add_argument(
        "--shape-stats",
        action="store_true",
        help="build: the core counting nodes by boundary shape and by bound (run it with CB_RACE=0)",
    )
    parser.add_argument(
        "--patch",
        type=Path,
        default=None,
        help="build: the core patched with this file (-> build/carabin_core_<its stem>)",
    )
    parser.add_argument(
        "--counters",
        action="store_true",
        help="build: with --patch, a patch that counts (defines cb_stats_print, as the counting cores)",
    )
    parser.add_argument("--march", default="native", help="build: gcc -march (default native)")
    args = parser.parse_args()
    if args.verb == "dump":
        dump(args.players, args.seed, args.deals, args.table)
    else:
        stats = (
            "stats"
            if args.stats
            else "order"
            if args.order_stats
            else "settle"
            if args.settle_stats
            else "deep"
            if args.deep_stats
            else "gap"
            if args.gap_stats
            else "share"
            if args.share_stats
            else "waste"
            if args.waste_stats
            else "graph"
            if args.graph_stats
            else "shape"
            if args.shape_stats
            else None
        )
        if args.patch is not None and stats:
            parser.error("--patch replaces the counting cores' patches: give one or the other")
        if args.patch is not None and not args.patch.is_file():
            parser.error(f"--patch: no such file: {args.patch}")
        tag = stats or (args.patch.stem if args.patch is not None else None)
        name = f"carabin_core_{tag}" if tag else "carabin_core_driver"
        if args.counters and args.patch is None:
            parser.error("--counters goes with --patch")
        build(Path(args.out or ROOT / "build" / name), stats, args.march, args.patch, args.counters)


if __name__ == "__main__":
    main()
