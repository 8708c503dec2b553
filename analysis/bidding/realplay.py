"""Klabberjass contracts played for real: the deal table's contracts with the cards
played by PIMC (each player from his own information) instead of double dummy.

The deal table (:mod:`solver.klabberjass.table`) plays every contract double dummy (DD):
both players see every card. Here the same contract is also played card by card by
:class:`analysis.play.Pimc` on both sides (``samples`` worlds a decision), and scored
with **the same declarations and the same dix** as the table's row: the bidder's best
choice of declaring or sinking as the table decides it, the opponent declaring
everything. Only the card play differs between the two scores, so their difference is
the bias of double-dummy play on that contract.

What the players know in PIMC play: their own hand, the cards played, the turn-up (out
of play; after a dix the trump 7 is out of play and the holder is known to hold the
turn-up), the bottom card when the rules show it, and the runs the other player
declared (their cards are shown). Bella is announced when played and shows nothing
before. Each side plays for its own card points, as in the deal table.

- :func:`played_row` plays and scores one table row with a pair of policies;
- :func:`realplay_table` plays a deal's rows, each from its own seed
  (:func:`pimc_policy`), or with ``play_seed="shared"`` the rows that
  :func:`play_key` says are played from the same information once
  (:func:`shared_policy`);
- :func:`realplay_chunk` is the ``klabberjass-realplay`` study (its deals:
  :func:`realplay_deals`; ``tricklab bench klabberjass --what realplay`` times it);
- :func:`evaluate_view_pimc` is ``tricklab bid klabberjass`` (its default play, ``--play
  pimc``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from analysis.bidding.klabberjass import (
    RESULT_CODE,
    BidView,
    Estimate,
    _outcome,
    _random_hands,
    column,
    deal_tables,
    net_of,
    rules_of,
    sample_worlds,
)
from analysis.play import DEFAULT_SAMPLES, DoubleDummy, Pimc, Policy, play_deal
from solver.cards import RANKS, SUITS, make_card, suit_of
from solver.klabberjass import SEED, Rules
from solver.klabberjass.deal import Deal, exchange_dix
from solver.klabberjass.table import TableRow

_SEVEN = RANKS.index("7")


@dataclass(frozen=True)
class Scored:
    """One contract played and scored.

    Attributes:
        card_points: the bidder's card points (last trick included).
        net: the bidder's score minus the opponent's.
        result: 1 made, 0 tie, -1 bate.
    """

    card_points: int
    net: int
    result: int


def score_row(row: TableRow, card_points: tuple[int, int]) -> Scored:
    """The bidder's net and result of ``row``'s contract and declarations when the
    cards take ``card_points`` (E, D).

    With the row's own card points this is the row's score (the tests check it).
    """
    b, o = row.bidder, 1 - row.bidder
    big_b = card_points[b] + row.sequences[b] + row.bella[b]
    big_o = card_points[o] + row.sequences[o] + row.bella[o]
    sb, so, res = _outcome(big_b, big_o)
    return Scored(card_points[b], sb - so, res)


def row_play(deal: Deal, row: TableRow, rules: Rules) -> dict[str, Any]:
    """The arguments of :func:`analysis.play.play_deal` for ``row``'s contract: the hands
    (after the dix if it took place), the card out of play, what each seat showed, the
    bottom card if the rules show it."""
    hands, turn = deal.hands, deal.turn
    shown = [0, 0]
    for seat in (0, 1):
        for run in row.declared[seat]:
            shown[seat] |= run.cards
    if row.dix is not None:
        hands = exchange_dix(deal.hands, deal.turn, row.dix)
        shown[row.dix] |= 1 << deal.turn  # everyone saw him take the turn-up
        turn = make_card(suit_of(deal.turn), _SEVEN)  # the 7 lies face up instead
    return {
        "hands": hands,
        "trump": row.trump,
        "turn": turn,
        "shown": (shown[0], shown[1]),
        "bottom": deal.bottom if rules.bottom_card else None,
        "rules": rules,
    }


def _played_points(kw: dict[str, Any], policies: Sequence[Policy]) -> tuple[int, int]:
    """The card points (E, D) of the contract :func:`row_play` describes, played by
    ``policies``."""
    played = play_deal(
        kw["hands"],
        kw["trump"],
        kw["turn"],
        policies,
        rules=kw["rules"],
        shown=kw["shown"],
        bottom=kw["bottom"],
    )
    return played.points


def played_row(deal: Deal, row: TableRow, policies: Sequence[Policy], rules: Rules) -> Scored:
    """Play ``row``'s contract with ``policies`` (E, D) and score it with the row's
    declarations."""
    return score_row(row, _played_points(row_play(deal, row, rules), policies))


def pimc_policy(samples: int, seed: int, contract: int) -> Pimc:
    """The PIMC policy of one contract of a deal (both seats use it): its worlds come
    from ``seed`` and the contract's index only, so any contract is replayed alone."""
    return Pimc(samples, seed=random.Random(f"realplay:{seed}:{contract}"))


#: How the PIMC play of a deal's contracts is seeded (the study's ``play_seed``):
#: ``row``, each row of the table from its own seed (:func:`pimc_policy`; the published
#: tables); ``shared``, from a seed keyed on what fixes the play (:func:`play_key`), so
#: that rows played from the same information are played once.
PLAY_SEEDS = ("row", "shared")


def play_key(row: TableRow, kw: dict[str, Any]) -> tuple[int, int | None, tuple[int, int]]:
    """What fixes the card play of ``row`` in its deal (``kw``: :func:`row_play`): the
    trump, the dix (so the hands and the card out of play) and the cards each seat
    showed. The bidder is not in it: the players choose their cards for their own
    card points from their hands and what they have seen, which says nothing of who
    bid; the bottom card and the rules are the deal's."""
    return (row.trump, row.dix, kw["shown"])


def shared_policy(samples: int, seed: int, key: tuple[int, int | None, tuple[int, int]]) -> Pimc:
    """The PIMC policy (both seats) of the rows of a deal whose play is fixed by ``key``
    (:func:`play_key`): its worlds come from ``seed`` and ``key`` only."""
    trump, dix, shown = key
    return Pimc(
        samples, seed=random.Random(f"realplay-shared:{seed}:{trump}:{dix}:{shown[0]}:{shown[1]}")
    )


def realplay_table(
    deal: Deal,
    table: Sequence[TableRow],
    samples: int,
    seed: int,
    rules: Rules,
    play_seed: str = "row",
) -> list[tuple[Scored, Scored]]:
    """(double dummy, PIMC) of each row of ``deal``'s table, in the table's order.

    ``play_seed`` (:data:`PLAY_SEEDS`): ``row``, each row played from its own seed;
    ``shared``, rows of one :func:`play_key` played once, from a seed of that key, and
    each scored with its own declarations."""
    out = []
    plays: dict[tuple, tuple[int, int]] = {}
    for j, row in enumerate(table):
        dd = Scored(row.card_points[row.bidder], net_of(row), RESULT_CODE[row.result])
        kw = row_play(deal, row, rules)
        if play_seed == "row":
            policy = pimc_policy(samples, seed, j)
            points = _played_points(kw, (policy, policy))
        else:
            key = play_key(row, kw)
            if key not in plays:
                policy = shared_policy(samples, seed, key)
                plays[key] = _played_points(kw, (policy, policy))
            points = plays[key]
        out.append((dd, score_row(row, points)))
    return out


def realplay_deals(
    rng: random.Random, count: int
) -> tuple[list[tuple[int, int, int, int, int, int]], list[Deal], list[int]]:
    """The ``count`` deals of a chunk of the ``klabberjass-realplay`` study from ``rng``:
    the cards (as ``klabberjass-bidding`` draws them), the deals, and one 64-bit seed a
    deal for its PIMC play (drawn after all the cards)."""
    cards = [_random_hands(rng.getrandbits(64)) for _ in range(count)]
    play_seeds = [rng.getrandbits(64) for _ in range(count)]
    deals = [Deal((c[0] | c[1], c[2] | c[3]), c[4], (c[0], c[2]), c[5]) for c in cards]
    return cards, deals, play_seeds


_KINDS = ("dd_cp", "dd_net", "dd_res", "pimc_cp", "pimc_net", "pimc_res")


def realplay_chunk(
    rng: random.Random, start: int, count: int, params: dict[str, Any]
) -> dict[str, list]:
    """The ``klabberjass-realplay`` study: every contract of ``count`` random deals,
    played double dummy and by PIMC (``samples`` worlds a decision), same declarations.

    Columns: ``deal``, the cards (as ``klabberjass-bidding``), and per bidder and trump
    (``dd_net_ES`` ...): ``dd_cp`` / ``pimc_cp`` the bidder's card points, ``dd_net`` /
    ``pimc_net`` his net, ``dd_res`` / ``pimc_res`` the result (1 made, 0 tie, -1 bate).
    Deal ``i`` is ``Deal.random(s_i)`` with ``s_i`` the i-th ``rng.getrandbits(64)``;
    then one 64-bit seed a deal for its PIMC play. ``play_seed`` (default ``row``, as
    the published tables were made; ``shared``: rows played from the same information
    share one play, :func:`realplay_table`).
    """
    rules = rules_of(params.get("rules", "seed"))
    samples = int(params.get("samples", DEFAULT_SAMPLES))
    play_seed = str(params.get("play_seed", "row"))
    cards, deals, play_seeds = realplay_deals(rng, count)
    cols: dict[str, list] = {"deal": list(range(start, start + count))}
    for k, name in enumerate(("e6", "e3", "d6", "d3", "turn", "bottom")):
        cols[name] = [c[k] for c in cards]
    for b in (0, 1):
        for t in range(4):
            for kind in _KINDS:
                cols[column(kind, b, t)] = []
    for deal, table, seed in zip(deals, deal_tables(deals, rules), play_seeds, strict=True):
        played = realplay_table(deal, table, samples, seed, rules, play_seed)
        for row, (dd, pimc) in zip(table, played, strict=True):
            b, t = row.bidder, row.trump
            for kind, value in zip(
                _KINDS,
                (dd.card_points, dd.net, dd.result, pimc.card_points, pimc.net, pimc.result),
                strict=True,
            ):
                cols[column(kind, b, t)].append(value)
    return cols


def evaluate_view_pimc(
    view: BidView,
    samples: int = 200,
    seed: int = 0,
    rules: Rules = SEED,
    play_samples: int = DEFAULT_SAMPLES,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Estimate]:
    """:func:`analysis.bidding.klabberjass.evaluate_view` with each world's contracts
    played by PIMC (``play_samples`` worlds a decision) instead of double dummy; the
    declarations and the dix are the deal table's. The same worlds as double dummy for
    the same ``seed``. ``progress`` is called with (worlds done, samples) after each
    world."""
    rng = random.Random(seed)
    worlds = sample_worlds(view, samples, rng)
    play_seeds = [rng.getrandbits(64) for _ in worlds]
    ts = view.turn >> 4
    values: dict[str, list[float]] = {}
    tables = deal_tables(worlds, rules)
    for done, (world, table, pseed) in enumerate(
        zip(worlds, tables, play_seeds, strict=True), start=1
    ):
        played = realplay_table(world, table, play_samples, pseed, rules)
        for row, (_dd, pimc) in zip(table, played, strict=True):
            mine = row.bidder == view.seat
            who = "" if mine else "opp "
            what = "take" if row.trump == ts else f"name {SUITS[row.trump]}"
            values.setdefault(who + what, []).append(pimc.net if mine else -pimc.net)
        if progress is not None:
            progress(done, samples)
    return {k: Estimate.of(v) for k, v in values.items()}


def dd_policies() -> tuple[DoubleDummy, DoubleDummy]:
    """Double-dummy play on both sides (for checks against the deal table)."""
    d = DoubleDummy()
    return (d, d)


__all__ = [
    "PLAY_SEEDS",
    "Scored",
    "dd_policies",
    "evaluate_view_pimc",
    "play_key",
    "played_row",
    "realplay_chunk",
    "realplay_deals",
    "realplay_table",
    "row_play",
    "score_row",
    "shared_policy",
]
