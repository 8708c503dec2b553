"""``tricklab advise <game> "<view>"``: single-dummy advice from one player's view.

The player to move is advised by PIMC: his average double-dummy points for each legal
card over ``--samples`` worlds consistent with what he knows (the same ``--seed``,
the same worlds, whatever ``--workers``). ``--json`` prints ``{"moves": {card:
{"mean", ...}}, "best", "samples", ...}``; otherwise the inferences and a table. In
Carabin the cards are ranked by the share of worlds where the contract is made (or, for
the others, fails), then the chelem, then the mean points.

``--method alphamu`` advises by αμ search instead (:mod:`analysis.alphamu`,
:mod:`analysis.carabin_alphamu`): ``--samples`` worlds (default 20), ``--depth``
decisions of the player searched (default 2), one process; each card's value is the
greatest mean over the worlds of a vector of its Pareto front, the best card the
greatest (ties: card order); ``--time-limit`` makes it anytime (the deepest finished
depth decides). In Klabberjass a vector holds the player's points in each world; in
Carabin (a plain contract) 1 where his side gets what it wants (the bidder: the
contract made; the others: failed), so a card's mean is the share of worlds won.
"""

from __future__ import annotations

import argparse
import json
import sys

from analysis.advice import advise
from analysis.cli.common import (
    Progress,
    add_game,
    add_rules,
    count,
    game_of,
    read,
    seconds,
    whole,
)
from solver.errors import UsageError
from solver.limits import MAX_SAMPLES, max_workers

HELP = "single-dummy advice (PIMC or alphamu) from one player's view"

#: Runnable examples, shown under ``tricklab advise --help`` (and run by the tests).
EXAMPLES = (
    'tricklab advise klabberjass "seat=E trump=H turn=QD hand=AT7.KJ9.7.A8 played=" --samples 50 --seed 1',
    'tricklab advise klabberjass "seat=D trump=H turn=JH hand=AT9.KQ.A.AQT played=7S" --samples 50 --seed 1 --json',
    'tricklab advise klabberjass "seat=E trump=H turn=JH hand=AT9.KQ.A.AT played=7S,8D" --method alphamu --depth 2 --seed 1',
    'tricklab advise carabin "players=3 seat=0 bidder=0 trump=S turn=2C hand=AKQJ.../T987..." --method alphamu --samples 8 --seed 1',
)
_SAMPLES = count("--samples", 1, MAX_SAMPLES)
_WORKERS = count("--workers", 1, max_workers(), "four per core")
_DEPTH = count("--depth", 1, 9, "a player makes at most nine decisions")
#: The budget of :mod:`analysis.alphamu` (not imported here: it loads numpy, which the
#: command line only loads when a verb needs it; a test checks they agree).
ALPHAMU_WORLDS, ALPHAMU_DEPTH, ALPHAMU_MAX_WORLDS = 20, 2, 1000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``tricklab advise``."""
    add_game(parser)
    parser.add_argument(
        "view",
        help='what the player to move knows, e.g. "seat=E trump=H turn=QD hand=AT7.KJ9.7.A8 '
        'played=" (played= lists the cards played so far in order, comma-separated: 7S,8D)',
    )
    parser.add_argument(
        "--samples",
        type=_SAMPLES,
        default=None,
        help=f"worlds to draw (default 200; alphamu {ALPHAMU_WORLDS}, at most "
        f"{ALPHAMU_MAX_WORLDS})",
    )
    parser.add_argument(
        "--method",
        choices=("pimc", "alphamu"),
        default="pimc",
        help="pimc (default): each world solved double dummy and averaged; alphamu: "
        "alphamu search over the worlds (see --depth)",
    )
    parser.add_argument(
        "--depth",
        type=_DEPTH,
        default=None,
        help=f"alphamu: decisions of the player searched (default {ALPHAMU_DEPTH}; 1 is PIMC)",
    )
    parser.add_argument("--seed", type=whole("--seed"), default=None, help="seed of the draw")
    parser.add_argument(
        "--workers", type=_WORKERS, default=None, help="processes (default: all cores)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--time-limit",
        type=seconds,
        default=None,
        metavar="SECONDS",
        help="solve the worlds one by one and stop after SECONDS: the advice then rests "
        "on the worlds finished (a note on stderr says how many)",
    )
    add_rules(parser)


def run(args: argparse.Namespace) -> int:
    """Run ``tricklab advise``."""
    game = game_of(args)
    if args.method == "alphamu":
        return _alphamu(args, game)
    if args.depth is not None:
        raise UsageError(f"--depth {args.depth} goes with --method alphamu")
    if args.samples is None:
        args.samples = 200
    view = read(game, args.view, game.parse_view)
    progress = Progress("advise", "worlds", ticking=True)
    try:
        result = advise(
            view,
            args.samples,
            args.seed,
            args.workers,
            game.rules,
            time_limit=args.time_limit,
            progress=progress,
        )
    finally:
        progress.done()
    if result.samples < args.samples:
        print(
            f"tricklab: note: the time limit ({args.time_limit:g} s) ran out: the advice "
            f"rests on {result.samples} of the {args.samples} worlds drawn",
            file=sys.stderr,
        )
    if args.json:
        print(json.dumps(result.to_json()))
        return 0
    inf = view.inference()
    print(f"Single-dummy advice for {view}")
    for reason in inf.reasons:
        print(f"  inferred: {reason}")
    print(f"  {result.samples} worlds drawn (seed {result.seed}) of {result.worlds} consistent")
    for card in result.ranked:
        m = result.moves[card]
        rates = ""
        if "make_rate" in m:
            rates = (
                f"made in {100 * m['make_rate']:.0f}%, chelem in {100 * m['chelem_rate']:.0f}%, "
            )
        print(
            f"  {card}: {rates}mean {m['mean']:.2f}, best in {100 * m['best_rate']:.0f}% "
            f"(min {m['min']}, max {m['max']})"
        )
    print(f"  best: {result.best}")
    return 0


def _alphamu(args: argparse.Namespace, game) -> int:
    """``--method alphamu``: the αμ value of every legal card."""
    from analysis.alphamu import (
        DEFAULT_DEPTH,
        DEFAULT_WORLDS,
        MAX_WORLDS,
        AlphaMu,
        decide_view,
        hidden_of_view,
    )
    from analysis.play import classes
    from solver.cards import card_str

    if args.workers is not None:
        raise UsageError(
            f"--workers {args.workers} goes with --method pimc (alphamu searches in one process)"
        )
    samples = DEFAULT_WORLDS if args.samples is None else args.samples
    if samples > MAX_WORLDS:
        raise UsageError(f"invalid --samples {samples} for --method alphamu (1 to {MAX_WORLDS})")
    depth = DEFAULT_DEPTH if args.depth is None else args.depth
    view = read(game, args.view, game.parse_view)
    if game.name == "carabin":
        return _carabin_alphamu(args, view, samples, depth)
    player = AlphaMu(samples, depth, seed=args.seed, time_limit=args.time_limit)
    d = decide_view(view, player, game.rules, every=True)
    if d.depth < depth and d.depth < bin(view.hand).count("1"):
        print(
            f"tricklab: note: the time limit ({args.time_limit:g} s) ran out: the advice "
            f"rests on depth {d.depth} of {depth}",
            file=sys.stderr,
        )
    inf = view.inference()
    position, hidden = hidden_of_view(view)
    value_of, order = _ranked(classes(position, hidden), d.values)
    moves = {
        card_str(c): {"mean": round(value_of[c] / samples, 4), "total": value_of[c]} for c in order
    }
    if args.json:
        out = {
            "method": "alphamu",
            "moves": moves,
            "best": card_str(d.card),
            "samples": samples,
            "seed": args.seed,
            "depth": d.depth,
        }
        print(json.dumps(out))
        return 0
    print(f"alphamu advice for {view}")
    for reason in inf.reasons:
        print(f"  inferred: {reason}")
    print(f"  {samples} worlds drawn (seed {args.seed}), depth {d.depth}")
    for card, m in moves.items():
        print(f"  {card}: mean {m['mean']:.2f}")
    print(f"  best: {card_str(d.card)}")
    return 0


def _ranked(card_classes, values) -> tuple[dict, list]:
    """Each card's value (every card of a class of equivalent cards has its class's: αμ
    searches one card a class, each to the end) and the cards best first, ties in
    notation order."""
    from solver.cards import in_notation_order

    value_of = {c: int(v or 0) for k, v in zip(card_classes, values, strict=True) for c in k}
    cards = list(in_notation_order(value_of))
    return value_of, sorted(cards, key=lambda c: (-value_of[c], cards.index(c)))


def _carabin_alphamu(args: argparse.Namespace, view, samples: int, depth: int) -> int:
    """``--method alphamu`` for a Carabin view: the share of worlds each card wins."""
    from analysis.carabin_alphamu import CarabinAlphaMu, decide_view
    from analysis.play import carabin_classes
    from solver.cards import card_count, card_str

    player = CarabinAlphaMu(samples, depth, seed=args.seed, time_limit=args.time_limit)
    d = decide_view(view, player, every=True)
    if d.depth < depth and d.depth < card_count(view.hand[0] | view.hand[1]):
        print(
            f"tricklab: note: the time limit ({args.time_limit:g} s) ran out: the advice "
            f"rests on depth {d.depth} of {depth}",
            file=sys.stderr,
        )
    inf = view.inference()
    value_of, order = _ranked(carabin_classes(inf.position, inf.pool), d.values)
    side = "made" if view.seat == view.bidder else "failed"
    moves = {
        card_str(c): {"share": round(value_of[c] / samples, 4), "worlds_won": value_of[c]}
        for c in order
    }
    if args.json:
        out = {
            "method": "alphamu",
            "moves": moves,
            "best": card_str(d.card),
            "samples": samples,
            "seed": args.seed,
            "depth": d.depth,
            "wants": side,
        }
        print(json.dumps(out))
        return 0
    print(f"alphamu advice for {view}")
    print(f"  {samples} worlds drawn (seed {args.seed}), depth {d.depth}; share of worlds "
          f"where the contract is {side}")  # fmt: skip
    for card, m in moves.items():
        print(f"  {card}: {100 * m['share']:.0f}%")
    print(f"  best: {card_str(d.card)}")
    return 0
