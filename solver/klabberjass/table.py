"""The double-dummy deal table of Klabberjass (docs/rules-klabberjass.md, "Sinking"; ``tricklab deal klabberjass`` in docs/cli.md).

For every bidder and trump suit (only the fixed ones when the deal fixes them) the
table gives the card points of double-dummy play, the sequences and Bella scored, the
declarations that serve the bidder best, the dix where it applies, both scores and the
result.

How each row is worked out (decisions where the rules are silent are marked *):

1. **Card play** maximises each seat's own card points (last trick included), E leading,
   whatever the bidder and the declarations: it depends only on the trump and the two
   9-card hands, so each trump is solved once for both bidders, in one batch call of
   the compiled engine.
2. **Dix** (``classic``: ``Rules.dix``): when the trump is the turn-up suit and a player
   holds its 7 (the turn-up is not the 7 itself), the holder may exchange the 7 for the
   turn-up. The exchanged hands are solved too. *The holder decides,* like the bidder
   does for his declarations: a bidder holding the 7 exchanges when that raises his
   score minus the opponent's (with his best declarations either way); an opponent
   holding it exchanges when that raises his own score minus the bidder's (the same
   quantity with the sign reversed), knowing the bidder will then declare his best.
   On equal difference the holder takes the higher score of his own; on a full tie he
   keeps his hand. (The golden file agrees on every row where the dix matters; it does
   not separate this from an opponent who only counts his own score, which differs on
   about 1 % of random deals.)
3. **Sequences and Bella** are computed on the 9-card hands after the dix. The opponent
   declares every run and his Bella. The bidder declares exactly the runs and the Bella
   that maximise his score minus the opponent's. *He may declare any subset of his runs*
   (the rules: "an undeclared run neither scores nor competes"), so a bate bidder may show
   only the run that beats the opponent's runs. *Among equally good choices* he takes
   the one with his higher score, then the one declaring least.
4. **Result** (docs/rules-klabberjass.md): B and O are card points plus scored sequences plus Bella;
   ``made`` when B > O (each scores his own), ``bate`` when B < O (the opponent scores
   B + O), ``tie`` when B = O (the opponent scores O, the bidder nothing).

Round-2 trumps (any suit but the turn-up's) have no dix; schmeiss and the bottom card
change nothing in a double-dummy table (a schmeiss that is accepted is a round-1 take,
and both players already see every card).

>>> from solver.klabberjass.deal import Deal
>>> deal = Deal.parse("E=Q9.9.AJ7./K.7..9 D=J7.J8.K.7/.T.9.8 turn=8S trump=S")
>>> [(r.bidder, r.score, r.result) for r in deal_table(deal)]
[(0, (89, 41), 'made'), (1, (130, 0), 'bate')]
"""

from __future__ import annotations

import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from solver.cards import SUITS
from solver.klabberjass import engine
from solver.klabberjass.deal import (
    Deal,
    Run,
    dix_holder,
    exchange_dix,
    has_bella,
    runs,
)
from solver.klabberjass.rules import SEATS, SEED, Rules, points_of
from solver.protocol import DealTable

#: A card-play solver: for each (E hand, D hand, trump) with E leading, E's points.
Solver = Callable[[Sequence[tuple[int, int, int]], Rules], list[int]]


def engine_solver(jobs: Sequence[tuple[int, int, int]], rules: Rules) -> list[int]:
    """E's double-dummy points for each (E hand, D hand, trump), E leading (compiled)."""

    n = len(jobs)
    out = array.array("i", bytes(4 * n))
    if n:
        engine.core().values(
            array.array("Q", [j[0] for j in jobs]),
            array.array("Q", [j[1] for j in jobs]),
            array.array("b", [j[2] for j in jobs]),
            array.array("b", bytes(n)),
            array.array("b", [-1] * n),
            rules.last_trick,
            out,
        )
    return out.tolist()


@dataclass(frozen=True)
class TableRow:
    """One row of the deal table: a bidder and a trump, played and declared optimally.

    Attributes:
        bidder: the bidder (0 = E, 1 = D).
        trump: the trump suit (0..3).
        card_points: double-dummy card points with the last trick (E, D).
        sequences: sequence points scored (E, D).
        bella: Bella points scored (E, D).
        declared: the runs each seat declares (E, D); the opponent declares all his.
        bella_declared: whether each seat announces Bella (E, D).
        dix: the seat that exchanged the trump 7 for the turn-up, or None.
        score: what each seat scores (E, D).
        result: ``made``, ``bate`` or ``tie``.
    """

    bidder: int
    trump: int
    card_points: tuple[int, int]
    sequences: tuple[int, int]
    bella: tuple[int, int]
    declared: tuple[tuple[Run, ...], tuple[Run, ...]]
    bella_declared: tuple[bool, bool]
    dix: int | None
    score: tuple[int, int]
    result: str

    def to_json(self) -> dict:
        """The command line's row (docs/cli.md) (``score`` lists the bidder first, as the golden file does)."""
        b, o = self.bidder, 1 - self.bidder
        return {
            "bidder": SEATS[b],
            "trump": SUITS[self.trump],
            "card_points": {"E": self.card_points[0], "D": self.card_points[1]},
            "score": {SEATS[b]: self.score[b], SEATS[o]: self.score[o]},
            "result": self.result,
            "sequences": {"E": self.sequences[0], "D": self.sequences[1]},
            "bella": {"E": self.bella[0], "D": self.bella[1]},
            "declared": {
                SEATS[s]: {
                    "runs": [str(r) for r in self.declared[s]],
                    "bella": self.bella_declared[s],
                }
                for s in (0, 1)
            },
            "dix": SEATS[self.dix] if self.dix is not None else None,
        }

    def record(self) -> dict:
        """The row as one flat dict, seats and suits by name (a DataFrame row)."""
        return {
            "bidder": SEATS[self.bidder],
            "trump": SUITS[self.trump],
            "card_points_E": self.card_points[0],
            "card_points_D": self.card_points[1],
            "sequences_E": self.sequences[0],
            "sequences_D": self.sequences[1],
            "bella_E": self.bella[0],
            "bella_D": self.bella[1],
            "declared_E": " ".join(str(r) for r in self.declared[0]),
            "declared_D": " ".join(str(r) for r in self.declared[1]),
            "dix": SEATS[self.dix] if self.dix is not None else None,
            "score_E": self.score[0],
            "score_D": self.score[1],
            "result": self.result,
        }


def deal_table(deal: Deal, rules: Rules = SEED, solver: Solver = engine_solver) -> DealTable:
    """The double-dummy table of a deal: one row per trump (S H D C) and bidder (E, D).

    Only the fixed trump and/or bidder when the deal has ``trump=`` / ``bidder=``. See
    the module docstring for how each row is decided.

    Args:
        deal: the deal.
        rules: the rules (``bella``, ``dix``, ``run3``, ``run4``, ``last_trick`` matter).
        solver: the card-play solver (the compiled engine by default).

    Returns:
        The rows, trump by trump, bidder E before D (a list with ``to_json()``,
        ``records()`` and an HTML display).
    """
    trumps = range(4) if deal.trump is None else (deal.trump,)
    bidders = (0, 1) if deal.bidder is None else (deal.bidder,)
    dix = {t: dix_holder(deal, t, rules) for t in trumps}
    rows = table_for_hands(deal.hands, deal.turn, rules, trumps, bidders, solver, dix)
    return DealTable(rows, deal, "klabberjass", {"deal": str(deal), "rules": rules.name})


def table_for_hands(
    hands: tuple[int, int],
    turn: int,
    rules: Rules = SEED,
    trumps: Sequence[int] = range(4),
    bidders: Sequence[int] = (0, 1),
    solver: Solver = engine_solver,
    dix: dict[int, int | None] | None = None,
) -> list[TableRow]:
    """The deal table for two hands of any equal size (no validation).

    :func:`deal_table` calls this for a checked 9-card deal; the tests call it on
    reduced deals of a few cards a hand with the reference solver.

    Args:
        hands: the two hands (E, D) as card sets.
        turn: the turn-up card (given to the holder of the trump 7 by the dix).
        rules: the rules.
        trumps: the trump suits wanted.
        bidders: the bidders wanted.
        solver: the card-play solver.
        dix: for each trump, the seat holding the 7 that may exchange it (None: nobody);
            when omitted nobody may.
    """
    variants: list[tuple[int, tuple[int, int], int | None]] = []
    for t in trumps:
        variants.append((t, hands, None))
        holder = dix.get(t) if dix else None
        if holder is not None:
            variants.append((t, exchange_dix(hands, turn, holder), holder))
    e_points = solver([(h[0], h[1], t) for t, h, _ in variants], rules)

    # per trump: [(hands, exchanged by, card points, runs, bella)] without dix first
    by_trump: dict[int, list[tuple[tuple[int, int], int | None, tuple[int, int], tuple, tuple]]]
    by_trump = {t: [] for t in trumps}
    runs_of: dict[int, list[Run]] = {}  # sequences do not depend on the trump
    for hand in (x for _, h, _ in variants for x in h):
        if hand not in runs_of:
            runs_of[hand] = runs(hand)
    for (t, h, who), e in zip(variants, e_points, strict=True):
        total = points_of(h[0] | h[1], t) + (rules.last_trick if h[0] else 0)
        by_trump[t].append(
            (
                h,
                who,
                (e, total - e),
                (runs_of[h[0]], runs_of[h[1]]),
                (has_bella(h[0], t), has_bella(h[1], t)),
            )
        )

    rows = []
    for t in trumps:
        for b in bidders:
            best: tuple | None = None
            for _h, who, cp, hand_runs, bellas in by_trump[t]:
                cand = (_best_declarations(b, t, cp, hand_runs, bellas, rules), cp, who)
                if best is None or who is not None and _holder_prefers(cand[0], best[0], b, who):
                    best = cand
            assert best is not None
            (_, score, result, seqs, bella, declared, bella_declared), cp, who = best
            rows.append(
                TableRow(b, t, cp, seqs, bella, declared, bella_declared, who, score, result)
            )
    return rows


def _holder_prefers(exchange: tuple, keep: tuple, bidder: int, holder: int) -> bool:
    """Whether the holder of the trump 7 exchanges it (the dix).

    He compares his score minus the other's (the bidder declaring his best either
    way), then his own score; on a full tie he keeps his hand.
    """
    sign = 1 if holder == bidder else -1
    gain = (sign * (exchange[0] - keep[0]), exchange[1][holder] - keep[1][holder])
    return gain > (0, 0)


def _best_declarations(
    bidder: int,
    trump: int,
    card_points: tuple[int, int],
    hand_runs: tuple[list[Run], list[Run]],
    bellas: tuple[bool, bool],
    rules: Rules,
) -> tuple:
    """The bidder's best declarations once the cards are played.

    Returns:
        (objective, score (E, D), result, sequences (E, D), Bella (E, D),
        declared runs (E, D), Bella announced (E, D)), where the objective is the
        bidder's score minus the opponent's.
    """
    o = 1 - bidder
    opp_runs = hand_runs[o]
    own_runs = hand_runs[bidder]
    opp_bella = rules.bella if bellas[o] else 0
    b_cards, o_cards = card_points[bidder], card_points[o]
    if opp_runs:
        opp_key = max(r.key(trump, rules) for r in opp_runs)
        opp_seq = sum(r.value(rules) for r in opp_runs)
    else:
        opp_key, opp_seq = None, 0

    # the bidder's options: each subset of his runs (most hands have none), Bella or not
    options: list[tuple[tuple[Run, ...], int, int]] = [((), 0, opp_seq)]
    for subset in range(1, 1 << len(own_runs)):
        chosen = tuple(r for i, r in enumerate(own_runs) if subset >> i & 1)
        key = max(r.key(trump, rules) for r in chosen)
        if opp_key is None or key > opp_key:
            options.append((chosen, sum(r.value(rules) for r in chosen), 0))
        elif key == opp_key:
            options.append((chosen, 0, 0))
        else:
            options.append((chosen, 0, opp_seq))
    announces = (False, True) if bellas[bidder] else (False,)

    best: tuple | None = None
    for chosen, b_seq, o_seq in options:
        for announce in announces:
            b_bella = rules.bella if announce else 0
            big_b = b_cards + b_seq + b_bella
            big_o = o_cards + o_seq + opp_bella
            if big_b > big_o:
                result, b_score, o_score = "made", big_b, big_o
            elif big_b < big_o:
                result, b_score, o_score = "bate", 0, big_b + big_o
            else:
                result, b_score, o_score = "tie", 0, big_o
            rank = (b_score - o_score, b_score, -len(chosen) - announce)
            if best is None or rank > best[0]:
                best = (rank, chosen, announce, b_seq, o_seq, b_bella, result, b_score, o_score)
    assert best is not None
    rank, chosen, announce, b_seq, o_seq, b_bella, result, b_score, o_score = best
    if bidder == 0:
        return (
            rank[0],
            (b_score, o_score),
            result,
            (b_seq, o_seq),
            (b_bella, opp_bella),
            (chosen, tuple(opp_runs)),
            (announce, bellas[o]),
        )
    return (
        rank[0],
        (o_score, b_score),
        result,
        (o_seq, b_seq),
        (opp_bella, b_bella),
        (tuple(opp_runs), chosen),
        (bellas[o], announce),
    )
