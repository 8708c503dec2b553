"""Carabin commands of the ``tricklab`` command line (SPEC §4).

``solve`` answers positions (one, or one per stdin line with ``-``), ``deal`` gives the
table of a deal (every bidder × every trump), ``bench`` times the engine on random
deals. ``--rules`` selects the trick order: ``alternate`` (also ``seed``, the default)
or ``left_then_right``.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from analysis.cli.textio import holding_diagram, parse_inputs
from solver.carabin import HANDS, TRICK_ORDERS, Deal, Position, check_players
from solver.carabin.engine import (
    DEFAULT_TT_MB,
    carabin_all_tricks,
    carabin_core,
    carabin_deal_table,
    carabin_make,
    carabin_value,
    solve_carabin,
)
from solver.cards import SUIT_SYMBOLS, SUITS, card_str, suit_of
from solver.errors import NotationError, RulesError


def trick_order(args: argparse.Namespace) -> str:
    """The trick order named by ``--rules`` (``seed`` means the default, alternate)."""
    name = getattr(args, "rules", "seed") or "seed"
    if name == "seed":
        return "alternate"
    if name in TRICK_ORDERS:
        return name
    raise RulesError(f"unknown Carabin rules '{name}' (expected seed, {' or '.join(TRICK_ORDERS)})")


def _tt_mb(args: argparse.Namespace) -> int:
    size = getattr(args, "tt_mb", None)
    if size is None:
        return DEFAULT_TT_MB
    if size < 1:
        raise RulesError(f"invalid --tt-mb {size} (at least 1 MB)")
    return size


# ---------------------------------------------------------------- diagrams
def position_diagram(p: Position) -> str:
    """A readable, plain-text diagram of a Carabin position."""
    lines = [
        f"Carabin, {p.players} players, trump {SUIT_SYMBOLS[p.trump]} {SUITS[p.trump]}, "
        f"bidder {p.bidder}" + ("" if p.trick_order == "alternate" else f" ({p.trick_order})")
    ]
    for s, (left, right) in enumerate(p.hands):
        tag = "bidder" if s == p.bidder else ""
        lines.append(f"  {s} {tag:6}  L {holding_diagram(left):24}  R {holding_diagram(right)}")
    if p.trick:
        played = ", ".join(
            f"{(p.lead + i) % p.players}:{card_str(c)}" for i, c in enumerate(p.trick)
        )
        lines.append(f"  {HANDS[p.hand]} trick led by {p.lead}: {played}")
    if not p.is_over:
        lines.append(f"  To play: seat {p.to_move}, {HANDS[p.hand]} hand")
    return "\n".join(lines)


def result_text(result) -> str:
    """The readable answer of ``solve`` without ``--json``."""
    p = result.position
    bidder, others = result.points
    lines = [
        position_diagram(p),
        f"Double-dummy points from here: bidder {bidder}, others {others}",
    ]
    if result.best is not None:
        lines.append(f"Best card: {card_str(result.best)}")
    lines.append(f"Bidder takes every remaining trick: {'yes' if result.all_tricks else 'no'}")
    if result.moves is not None:
        side = "bidder" if p.to_move == p.bidder else "others"
        shown = "  ".join(f"{card_str(c)} {v}" for c, v in result.moves.items())
        lines.append(f"Points of the {side} by card: {shown}")
    return "\n".join(lines)


def _emit(line: str) -> None:
    print(line, flush=True)


# ---------------------------------------------------------------- verbs
def solve(args: argparse.Namespace) -> int:
    """``tricklab solve carabin "<position>" [--json] [--moves]`` (``-``: batch)."""
    order = trick_order(args)

    def parse(text: str) -> Position:
        p = Position.parse(text)
        if order != "alternate" and p.trick_order == "alternate" and "order=" not in text:
            p = Position.parse(f"{text} order={order}")
        return p

    positions = parse_inputs(args.position, parse, "position")
    tt = _tt_mb(args)
    for i, p in enumerate(positions):
        result = solve_carabin(p, moves=args.moves, tt_mb=tt)
        if args.json:
            _emit(json.dumps(result.to_json()))
        else:
            _emit(("\n" if i else "") + result_text(result))
    return 0


def _deal_text(deal: Deal, table: dict) -> str:
    lines = [f"Deal: {deal}", f"Points in play: {table['points_in_play']}"]
    lines.append("  bidder  trump  points  made  chelem")
    for row in table["table"]:
        lines.append(
            f"  {row['bidder']:>6}  {SUIT_SYMBOLS[SUITS.index(row['trump'])]} {row['trump']}"
            f"    {row['points']:>5}  {'yes' if row['made'] else 'no':>4}  "
            f"{'yes' if row['chelem'] else 'no':>6}"
        )
    return "\n".join(lines)


def deal(args: argparse.Namespace) -> int:
    """``tricklab deal carabin "<deal>" [--json]`` or ``--random [--seed S] [--players N]``."""
    order = trick_order(args)
    tt = _tt_mb(args)
    if args.random:
        if args.deal is not None:
            raise NotationError("give either a deal or --random, not both")
        n = check_players(args.players)
        deals = [Deal.random(players=n, seed=args.seed)]
    elif args.deal is None:
        raise NotationError('missing deal (give "<deal>", "-" to read stdin, or --random)')
    else:
        deals = parse_inputs(args.deal, Deal.parse, "deal")
    for i, d in enumerate(deals):
        table = carabin_deal_table(d, tt_mb=tt, trick_order=order)
        if args.json:
            _emit(json.dumps({"deal": str(d), **table} if args.random else table))
        else:
            _emit(("\n" if i else "") + _deal_text(d, table))
    return 0


def _stats(ms: list[float]) -> dict:
    return {
        "median_ms": round(statistics.median(ms), 3),
        "mean_ms": round(statistics.mean(ms), 3),
        "max_ms": round(max(ms), 3),
    }


def bench(args: argparse.Namespace) -> int:
    """``tricklab bench carabin --players N --deals D --seed S [--what exact,make,chelem]``.

    Random deals (``Deal.dealt``), a random bidder, the turn-up suit as trump, seat 0
    leading; the transposition table is cleared before each deal. ``exact``: the
    bidder's exact points; ``make``: one make/fail probe at half the points in play
    plus one; ``chelem``: the all-tricks search. The default is ``exact,make`` up to
    five players and ``make`` for six. ``--reference-deals K`` also checks the engine
    against the reference minimax on K deals cut down to one card a hand.
    """
    order = trick_order(args)
    n = check_players(args.players)
    if args.deals < 1:
        raise RulesError(f"invalid --deals {args.deals} (at least 1)")
    kinds = (args.what or ("make" if n == 6 else "exact,make")).split(",")
    for k in kinds:
        if k not in ("exact", "make", "chelem"):
            raise NotationError(f"unknown --what '{k}' for carabin (expected exact, make, chelem)")
    rng = random.Random(args.seed)
    tt = _tt_mb(args)
    core = carabin_core(tt)
    times: dict[str, list[float]] = {k: [] for k in kinds}
    made = chelems = 0
    for _ in range(args.deals):
        d = Deal.random(players=n, rng=rng)
        start = d.position(bidder=rng.randrange(n), trump=suit_of(d.turn), trick_order=order)
        for k in kinds:
            core.clear()
            t0 = time.perf_counter()
            if k == "exact":
                carabin_value(start, tt)
            elif k == "make":
                made += carabin_make(start, d.points_in_play // 2 + 1, tt)
            else:
                chelems += carabin_all_tricks(start, tt)
            times[k].append(1000 * (time.perf_counter() - t0))
    report: dict = {
        "game": "carabin",
        "players": n,
        "deals": args.deals,
        "seed": args.seed,
        "trick_order": order,
        "tt_mb": tt,
    }
    for k in kinds:
        report[k] = _stats(times[k])
    if "make" in kinds:
        report["make"]["made"] = made
    if "chelem" in kinds:
        report["chelem"]["chelems"] = chelems
    if args.reference_deals:
        report["reference"] = _reference_check(n, args.reference_deals, rng, order, tt)
    if args.json:
        _emit(json.dumps(report))
        return 0
    _emit(
        f"Carabin, {n} players, {args.deals} random deals (seed {args.seed}), random bidder, "
        f"turn-up suit trump, seat 0 leads, {order}; table {tt} MB cleared per deal"
    )
    names = {
        "exact": "exact bidder points, full deal",
        "make": "make/fail probe (half the points + 1)",
        "chelem": "all-tricks (chelem) search",
    }
    for k in kinds:
        s = report[k]
        extra = f", made {s['made']}" if k == "make" else ""
        extra += f", chelems {s['chelems']}" if k == "chelem" else ""
        _emit(
            f"  {names[k]:40} median {s['median_ms']:.3f} ms  mean {s['mean_ms']:.3f} ms  "
            f"max {s['max_ms']:.3f} ms{extra}"
        )
    if "reference" in report:
        r = report["reference"]
        _emit(
            f"  reference check on {r['positions']} small positions: {r['disagreements']} disagree"
        )
    return 0


def _reference_check(n: int, count: int, rng: random.Random, order: str, tt: int) -> dict:
    from solver.reference import carabin_points

    bad = 0
    for _ in range(count):
        d = Deal.random(players=n, rng=rng)
        # keep the lowest card of every hand
        hands = tuple((left & -left, right & -right) for left, right in d.hands)
        p = Position(suit_of(d.turn), rng.randrange(n), 0, 0, hands, (), order)
        if carabin_value(p, tt) != carabin_points(p)[0]:
            bad += 1
    return {"positions": count, "disagreements": bad}
