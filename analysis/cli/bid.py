"""``tricklab bid <game> "<bidding view>"``: the expected net of each bid from one hand.

What the player knows when he bids: his first cards and the turn-up (Klabberjass
``seat=E hand=AT7.KJ9.. turn=QD``, six cards), or his left and right hands (Carabin
``players=4 seat=1 hand=AKQJ.../T987... turn=2C``). Deals consistent with it are
drawn, each contract is played out, and each option's net per deal for the viewer is
averaged, with its 95 % interval. The card play is double dummy (every player sees
every card), which is optimistic for the side that plays best with full knowledge; the
output says so. Klabberjass ``--play pimc`` plays each drawn deal's contracts by PIMC
instead (each player from his own information, ``--worlds`` worlds a decision; the
declarations are the double-dummy table's: :mod:`analysis.bidding.realplay`).
Klabberjass also shows the **scorecard** (:mod:`analysis.bidding.scorecard`): the
bidding rule derived from real play as a point count, with the hand's count for the
turn-up suit and its best other suit, the seat's marks and the advice.
``--json`` prints ``{"view", "play", "worlds", "samples", "seed", "options": {option:
{"mean", "low", "high", "n", ...}}, "scorecard": {"seed", "take": {"suit", "count",
"mark", "bid"}, "name": {...}}}`` (``worlds`` null for double dummy; ``scorecard``
only for Klabberjass, null if the scorecard file is not installed). Carabin adds
``"rule"``: the real-play rule's advice for the turn-up suit
(:func:`analysis.bidding.carabin_realplay.rule_advice`).
"""

from __future__ import annotations

import argparse
import json
import math
from typing import Any

from analysis.cli.common import add_game, add_players, add_rules, count, game_of, whole
from solver.cards import SUIT_SYMBOLS, SUITS
from solver.errors import UsageError

HELP = "expected net of each bid from one hand (sampled deals)"

#: Runnable examples, shown under ``tricklab bid --help`` (and run by the tests).
EXAMPLES = (
    'tricklab bid klabberjass "seat=E hand=AT7.KJ9.. turn=QD" --samples 100 --seed 1',
    'tricklab bid klabberjass "seat=E hand=AT7.KJ9.. turn=QD" --samples 20 --play pimc',
    'tricklab bid carabin "players=3 seat=1 hand=AKQJ.../T987... turn=2C" --samples 30 --json',
)

PLAY = "double-dummy"
PLAY_NOTE = (
    "cards played double dummy (every player sees every card): an optimistic model of real play"
)
PIMC = "pimc"
PIMC_NOTE = (
    "cards played by PIMC ({worlds} worlds a decision: each player sees only his own cards), "
    "declarations as double dummy"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``tricklab bid``."""
    add_game(parser)
    parser.add_argument(
        "view",
        help='what the bidder knows, e.g. "seat=E hand=AT7.KJ9.. turn=QD" (Klabberjass: '
        'his six cards) or "players=4 seat=1 hand=AKQJ.../T987... turn=2C" (Carabin)',
    )
    parser.add_argument(
        "--samples",
        type=count("--samples", 1, 100_000),
        default=None,
        help="deals to draw (default 200 for klabberjass, 50 for carabin)",
    )
    parser.add_argument("--seed", type=whole("--seed"), default=1, help="seed of the draw")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--play",
        choices=("dd", "pimc"),
        default="dd",
        help="card play of the drawn deals: dd double dummy (default), pimc each player from "
        "his own information (Klabberjass)",
    )
    parser.add_argument(
        "--worlds",
        type=count("--worlds", 1, 1000),
        default=None,
        help="with --play pimc: worlds a decision (default 20)",
    )
    add_players(parser)
    add_rules(parser)


def _estimate(e: Any) -> dict:
    def num(x: float) -> float | None:
        return None if math.isnan(x) or math.isinf(x) else round(x, 3)

    return {"mean": num(e.mean), "low": num(e.low), "high": num(e.high), "n": e.n}


def run(args: argparse.Namespace) -> int:
    """Run ``tricklab bid``."""
    if args.players is not None:
        raise UsageError("--players is not needed: a Carabin bidding view says players=")
    game = game_of(args)
    if args.worlds is not None and args.play != "pimc":
        raise UsageError("--worlds is for --play pimc")
    if game.name == "klabberjass":
        report, lines = _klabberjass(args, game)
    else:
        report, lines = _carabin(args, game)
    print(json.dumps(report) if args.json else "\n".join(lines))
    return 0


def _klabberjass(args: argparse.Namespace, game: Any) -> tuple[dict, list[str]]:
    from analysis.bidding.klabberjass import BidView, evaluate_view

    view = BidView.parse(args.view)
    samples = args.samples or 200
    worlds = None
    if args.play == "pimc":
        from analysis.bidding.realplay import evaluate_view_pimc
        from analysis.play import DEFAULT_SAMPLES

        worlds = args.worlds or DEFAULT_SAMPLES
        values = evaluate_view_pimc(view, samples, args.seed, game.rules, worlds)
        play, note = PIMC, PIMC_NOTE.format(worlds=worlds)
    else:
        values = evaluate_view(view, samples, args.seed, game.rules)
        play, note = PLAY, PLAY_NOTE
    ts = SUITS[view.turn >> 4]
    order = ["take"] + [f"name {s}" for s in SUITS if s != ts]
    order += [f"opp {o}" for o in order]
    options = {k: _estimate(values[k]) for k in order if k in values}
    report = {
        "view": str(view),
        "rules": game.rules.name,
        "play": play,
        "worlds": worlds,
        "samples": samples,
        "seed": args.seed,
        "options": options,
    }
    other = "D" if view.seat == 0 else "E"

    def label(key: str) -> str:
        who, _, what = key.rpartition("opp ")
        suit = ts if what == "take" else what[-1]
        act = "takes" if what == "take" else "names"
        bidder = other if who or key.startswith("opp") else "you"
        verb = act if bidder != "you" else act[:-1]
        return f"{bidder} {verb} {SUIT_SYMBOLS[SUITS.index(suit)]} {suit}"

    lines = [
        f"Bidding view {view} (rules: {game.rules.name})",
        f"  {samples} deals drawn consistent with it (seed {args.seed}); {note}",
        "  your net a deal (your score minus the opponent's) [95 % interval]:",
    ]
    for key in order:
        if key in values:
            lines.append(f"  {label(key):16} {values[key]}")
    card = _scorecard(view, game.rules.name)
    report["scorecard"] = card
    if card is not None:
        lines.append(
            f"  scorecard (the rule derived from real play, {card['rules']} rules, "
            f"seed {card['seed']}):"
        )
        for what, verb in (("take", "take"), ("name", "name")):
            c = card[what]
            suit = c["suit"]
            answer = verb if c["bid"] else "pass"
            lines.append(
                f"    {verb} {SUIT_SYMBOLS[SUITS.index(suit)]} {suit}: count {c['count']}, "
                f"mark {c['mark']} -> {answer}"
            )
    return report, lines


def _scorecard(view: Any, rules: str) -> dict | None:
    """The published scorecard's advice for the view under ``rules`` (suits as
    letters), None if no scorecard for these rules is installed."""
    import json

    from analysis.bidding.scorecard import SCORECARD, Scorecard

    if not SCORECARD.exists():
        return None
    cards = json.loads(SCORECARD.read_text())["scorecards"]
    mine = [c for c in cards if c.get("rules", "seed") == rules]
    if not mine:
        return None
    advice = Scorecard.from_dict(mine[0]).advise(view.seat, view.hand, view.turn)
    for part in advice.values():
        part["suit"] = SUITS[part["suit"]]
    return {"seed": mine[0].get("seed"), "rules": rules, **advice}


def _carabin(args: argparse.Namespace, game: Any) -> tuple[dict, list[str]]:
    from analysis.bidding.carabin import CarabinBidView, evaluate_bids

    view = CarabinBidView.parse(args.view)
    if args.play != "dd":
        raise UsageError("--play pimc is for klabberjass (Carabin bids are played double dummy)")
    samples = args.samples or 50
    order = getattr(game.rules, "trick_order", "alternate")
    values = evaluate_bids(view, samples, args.seed, trick_order=order)
    options = {
        k: {**_estimate(v.net), "made": _estimate(v.made), "chelem": _estimate(v.chelem)}
        for k, v in values.items()
    }
    report = {
        "view": str(view),
        "trick_order": order,
        "play": PLAY,
        "worlds": None,
        "samples": samples,
        "seed": args.seed,
        "options": options,
    }
    lines = [
        f"Bidding view {view} ({order})",
        f"  {samples} deals drawn consistent with it (seed {args.seed}); {PLAY_NOTE}",
        "  your net a deal in game points [95 % interval], made and chelem rates:",
    ]
    for key, v in values.items():
        lines.append(f"  {key:10} {v}")
    from analysis.bidding.carabin_realplay import rule_advice

    rule = rule_advice(view.players, view.hand[0], view.hand[1], view.turn >> 4)
    report["rule"] = rule
    if rule is not None:
        net = rule["held_out_net"]
        lines.append(
            f"  rule derived from real play ({view.players} players): trumps + trump A, K, Q "
            f"= {rule['count']}, take at {rule['mark']} or more -> "
            f"{'take' if rule['take'] else 'pass'} (held out: {net['mean']:+.3f} "
            f"[{net['low']:+.3f}, {net['high']:+.3f}] a hand against passing, "
            f"{rule['held_out_bids']} bids)"
        )
    return report, lines
