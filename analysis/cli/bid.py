"""``tricklab bid <game> "<bidding view>"``: the expected net of each bid from one hand.

What the player knows when he bids: his first cards and the turn-up (Klabberjass
``seat=E turn=QD hand=AT7.KJ9``, six cards), or his left and right hands (Carabin
``players=4 seat=1 hand=AKQJ/T987 turn=2C``; without ``players=`` the view takes
``--players``, default 4). A hand may leave out the suits after its last card
(``AT7.KJ9`` is ``AT7.KJ9..``). Deals consistent with it are drawn, each contract is
played out, and each option's net per deal for the viewer is averaged, with its 95 %
interval.

The card play is real play by default (``--play pimc``): each player chooses his cards
from his own information by PIMC (``--worlds`` worlds a decision), as in the studies
the bidding rules are derived from. Klabberjass: :func:`analysis.bidding.realplay.
evaluate_view_pimc` (the declarations are the double-dummy table's); Carabin:
:func:`analysis.bidding.carabin_realplay.evaluate_bids_pimc` (every seat by PIMC, the
bidder playing to make the contract, the others to beat it, and once more for every
trick). ``--play dd`` is the fast alternative: every player sees every card, which is
optimistic for the side that would have to guess. The output names the play model.
Draws of many deals show their progress on stderr.

Klabberjass also shows the **scorecard** (:mod:`analysis.bidding.scorecard`): the
bidding rule derived from real play as a point count, with the hand's count for the
turn-up suit and its best other suit, the seat's marks and the advice.
``--json`` prints ``{"view", "rules", "play", "worlds", "samples", "seed", "options":
{option: {"mean", "low", "high", "n", ...}}, "scorecard": {"seed", "rules", "take":
{"suit", "count", "mark", "bid"}, "name": {...}}}`` (``play`` ``"pimc"`` or
``"double-dummy"``, ``worlds`` null for double dummy; ``scorecard`` null if the
scorecard file is not installed). Carabin has ``"trick_order"`` for ``"rules"``, adds
``"made"`` and ``"chelem"`` rates to each option, and ``"rule"`` for ``"scorecard"``:
the real-play rule's advice for the turn-up suit
(:func:`analysis.bidding.carabin_realplay.rule_advice`).
"""

from __future__ import annotations

import argparse
import json
import math
from typing import Any

from analysis.cli.common import (
    PLAYERS,
    Progress,
    add_game,
    add_rules,
    count,
    game_of,
    whole,
)
from solver.cards import SUIT_SYMBOLS, SUITS
from solver.errors import UsageError

HELP = "expected net of each bid from one hand (sampled deals, real play by default)"

#: Runnable examples, shown under ``tricklab bid --help`` (and run by the tests).
EXAMPLES = (
    'tricklab bid klabberjass "seat=E turn=QD hand=AT7.KJ9" --samples 10 --seed 1',
    'tricklab bid klabberjass "seat=E turn=QD hand=AT7.KJ9" --samples 100 --play dd',
    'tricklab bid carabin "seat=1 hand=AKQJ/T987 turn=2C" --players 3 --samples 3 --json',
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
CARABIN_PIMC_NOTE = (
    "cards played by PIMC at every seat ({worlds} worlds a decision: each player sees only "
    "his own cards; the bidder plays to make the contract, the others to beat it)"
)

#: Deals drawn by default: (game, play) -> deals. Klabberjass PIMC costs about 65 ms a
#: deal; Carabin's about 0.15-0.25 s a deal at 3 players, 0.65 s at 4, 3 s at 5 and 9 s
#: at 6 (one core, each search cut at 0.5 s from 5 players), so it draws fewer deals to
#: stay interactive: :data:`CARABIN_PIMC_FEW` at 5 and 6 players (docs/cli.md, bid).
DEFAULT_SAMPLES = {
    ("klabberjass", "dd"): 200,
    ("klabberjass", "pimc"): 200,
    ("carabin", "dd"): 50,
    ("carabin", "pimc"): 20,
}
CARABIN_PIMC_FEW = 5


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``tricklab bid``."""
    add_game(parser)
    parser.add_argument(
        "view",
        help='what the bidder knows, e.g. "seat=E turn=QD hand=AT7.KJ9" (Klabberjass: '
        'his six cards) or "players=4 seat=1 hand=AKQJ/T987 turn=2C" (Carabin: left/right '
        "hands); a hand may leave out the suits after its last card (S H D C order)",
    )
    parser.add_argument(
        "--samples",
        type=count("--samples", 1, 100_000),
        default=None,
        help="deals to draw (default 200 for klabberjass; for carabin 20 with --play pimc, "
        "5 at 5-6 players, and 50 with --play dd): fewer deals, wider intervals",
    )
    parser.add_argument("--seed", type=whole("--seed"), default=1, help="seed of the draw")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--play",
        choices=("pimc", "dd"),
        default="pimc",
        help="card play of the drawn deals: pimc each player from his own information "
        "(default, real play), dd double dummy (every player sees every card: fast, "
        "optimistic)",
    )
    parser.add_argument(
        "--worlds",
        type=count("--worlds", 1, 1000),
        default=None,
        help="with --play pimc: worlds a decision (default 20)",
    )
    parser.add_argument(
        "--players",
        type=PLAYERS,
        default=None,
        help="carabin: number of players, 3-6, for a view without players= (default 4)",
    )
    add_rules(parser)


def _estimate(e: Any) -> dict:
    def num(x: float) -> float | None:
        return None if math.isnan(x) or math.isinf(x) else round(x, 3)

    return {"mean": num(e.mean), "low": num(e.low), "high": num(e.high), "n": e.n}


def run(args: argparse.Namespace) -> int:
    """Run ``tricklab bid``."""
    if args.game == "klabberjass" and args.players is not None:
        raise UsageError(
            f"--players {args.players} is for carabin: klabberjass is played by two players"
        )
    game = game_of(args)
    if args.worlds is not None and args.play != "pimc":
        raise UsageError("--worlds is for --play pimc")
    progress = Progress("bid", "deals", ticking=True)
    try:
        if game.name == "klabberjass":
            report, lines = _klabberjass(args, game, progress)
        else:
            report, lines = _carabin(args, game, progress)
    finally:
        progress.done()
    print(json.dumps(report) if args.json else "\n".join(lines))
    return 0


def _klabberjass(args: argparse.Namespace, game: Any, progress: Progress) -> tuple[dict, list[str]]:
    from analysis.bidding.klabberjass import BidView, evaluate_view

    view = BidView.parse(args.view)
    samples = args.samples or DEFAULT_SAMPLES[game.name, args.play]
    worlds = None
    if args.play == "pimc":
        from analysis.bidding.realplay import evaluate_view_pimc
        from analysis.play import DEFAULT_SAMPLES as WORLDS

        worlds = args.worlds or WORLDS
        values = evaluate_view_pimc(view, samples, args.seed, game.rules, worlds, progress)
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


def _carabin(args: argparse.Namespace, game: Any, progress: Progress) -> tuple[dict, list[str]]:
    from analysis.bidding.carabin import CarabinBidView, evaluate_bids

    view = CarabinBidView.parse(args.view, players=game.rules.players)
    if args.players is not None and view.players != args.players:
        raise UsageError(
            f"--players {args.players} contradicts players={view.players} in the view "
            f'"{args.view}" (give the number once, or the same)'
        )
    samples = args.samples or DEFAULT_SAMPLES[game.name, args.play]
    if args.samples is None and args.play == "pimc" and view.players >= 5:
        samples = CARABIN_PIMC_FEW
    order = getattr(game.rules, "trick_order", "alternate")
    worlds = None
    if args.play == "pimc":
        from analysis.bidding.carabin_realplay import BID_TIME_LIMIT, evaluate_bids_pimc
        from analysis.play import DEFAULT_SAMPLES as WORLDS

        worlds = args.worlds or WORLDS
        values = evaluate_bids_pimc(
            view, samples, args.seed, trick_order=order, play_samples=worlds, progress=progress
        )
        play, note = PIMC, CARABIN_PIMC_NOTE.format(worlds=worlds)
        if view.players >= 5:
            note += f", each search cut at {BID_TIME_LIMIT:g} s"
    else:
        values = evaluate_bids(view, samples, args.seed, trick_order=order, progress=progress)
        play, note = PLAY, PLAY_NOTE
    options = {
        k: {**_estimate(v.net), "made": _estimate(v.made), "chelem": _estimate(v.chelem)}
        for k, v in values.items()
    }
    report = {
        "view": str(view),
        "trick_order": order,
        "play": play,
        "worlds": worlds,
        "samples": samples,
        "seed": args.seed,
        "options": options,
    }
    lines = [
        f"Bidding view {view} ({order})",
        f"  {samples} deals drawn consistent with it (seed {args.seed}); {note}",
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
