"""Bid evaluation at bidding time: deal-table studies, hand features, sampled views.

Klabberjass (docs/rules-klabberjass.md). A player bids knowing his first six cards and the turn-up. The
value of an option is measured as the player's **net**: his deal score minus the
opponent's (a deal the bidder makes at 90 to 72 is worth +18 to him and -18 to the
opponent; a bate bidder's net is minus the opponent's whole score). An annulled deal
is worth 0. Play and declarations are double dummy (the deal table).

- :func:`bidding_chunk` is the ``klabberjass-bidding`` study: for each random deal the
  whole table (2 bidders x 4 trumps): the bidder's net, the result and the value of
  sinking (net with optimal declarations minus net declaring everything).
- :func:`hand_features` describes a six-card hand for a would-be trump suit
  (Jass, Menel, trump count, side aces, ...); :func:`estimate_value` is a linear
  estimate of the net from those features fitted on a study.
- :func:`evaluate_view` samples the unseen cards of one player's bidding-time view
  (uniformly: nothing else is known at bidding time) and gives, for every contract he
  could end up in, the mean net with a 95 % confidence interval.
- Carabin (docs/rules-carabin.md): see :mod:`analysis.bidding.carabin`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

import array
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from solver import klabberjass
from solver.cards import (
    RANKS,
    SUITS,
    card_count,
    card_str,
    cards_of,
    cards_text,
    format_holding,
    make_card,
    parse_card,
    parse_fields,
    parse_holding,
    suit_mask,
)
from solver.errors import RulesError
from solver.klabberjass import PACK, SEED, Rules
from solver.klabberjass.deal import (
    Deal,
    dix_holder,
    exchange_dix,
    has_bella,
    runs,
    score_deal,
    sequence_points,
)
from solver.klabberjass.rules import PLAIN_FIELD_POINTS, TRUMP_FIELD_POINTS, seat_of
from solver.klabberjass.table import TableRow, engine_solver, table_for_hands

SEAT_NAMES = "ED"
RESULT_CODE = {"made": 1, "tie": 0, "bate": -1}
_R = {r: RANKS.index(r) for r in "789TJQKA"}


def rules_of(name: str) -> Rules:
    """The Klabberjass rules preset called ``name``."""
    return Rules.preset(name)


def column(kind: str, bidder: int, trump: int) -> str:
    """Name of a per-contract column, e.g. ``net_ES`` (bidder E, trump spades).

    >>> column("net", 1, 2)
    'net_DD'
    """
    return f"{kind}_{SEAT_NAMES[bidder]}{SUITS[trump]}"


# ---------------------------------------------------------------- deal tables


def net_of(row: TableRow) -> int:
    """The bidder's score minus the opponent's in one table row."""
    return row.score[row.bidder] - row.score[1 - row.bidder]


def declare_all_net(row: TableRow, hands: tuple[int, int], rules: Rules) -> int:
    """The bidder's net if both declare every run and Bella they hold (no sinking).

    Args:
        row: a deal-table row (its card points are used).
        hands: the 9-card hands of the row (after the dix, if one took place).
        rules: the rules.
    """
    b, t = row.bidder, row.trump
    seqs = sequence_points(runs(hands[0]), runs(hands[1]), t, rules)
    bella = tuple(rules.bella if has_bella(h, t) else 0 for h in hands)
    s = score_deal(b, row.card_points, seqs, (bella[0], bella[1])).score
    return s[b] - s[1 - b]


def batched_solver(deals: Sequence[Deal], rules: Rules):
    """A card-play solver answering from one batch solve of every table of ``deals``.

    The deal tables of a chunk are solved in one compiled call (less Python per
    solve); the returned solver looks the answers up. The jobs are exactly those
    :func:`solver.klabberjass.table.table_for_hands` asks for: each trump, and the
    hands after the dix where it applies.
    """
    jobs = []
    for deal in deals:
        for t in range(4):
            jobs.append((deal.hands[0], deal.hands[1], t))
            holder = dix_holder(deal, t, rules)
            if holder is not None:
                h = exchange_dix(deal.hands, deal.turn, holder)
                jobs.append((h[0], h[1], t))
    known = dict(zip(jobs, engine_solver(jobs, rules), strict=True))

    def solver(wanted, _rules):
        return [known[j] for j in wanted]

    return solver


def deal_tables(deals: Sequence[Deal], rules: Rules) -> list[list[TableRow]]:
    """The full double-dummy table of each deal (one batch solve for all)."""
    solver = batched_solver(deals, rules)
    return [
        table_for_hands(
            d.hands,
            d.turn,
            rules,
            range(4),
            (0, 1),
            solver,
            {t: dix_holder(d, t, rules) for t in range(4)},
        )
        for d in deals
    ]


_PACK_CARDS = tuple(cards_of(PACK))
STUDY_TT_MB = 2


def _random_hands(seed: int) -> tuple[int, int, int, int, int, int]:
    """(e6, e3, d6, d3, turn, bottom) of ``Deal.random(seed)``, without building the Deal.

    The same shuffle and the same dealing order as :meth:`Deal.random` (checked by the
    tests), minus its validation: the study deals hundreds of thousands of hands.
    """
    pack = list(_PACK_CARDS)
    random.Random(seed).shuffle(pack)
    p = pack
    e6 = 1 << p[0] | 1 << p[1] | 1 << p[2] | 1 << p[6] | 1 << p[7] | 1 << p[8]
    d6 = 1 << p[3] | 1 << p[4] | 1 << p[5] | 1 << p[9] | 1 << p[10] | 1 << p[11]
    e3 = 1 << p[13] | 1 << p[14] | 1 << p[15]
    d3 = 1 << p[16] | 1 << p[17] | 1 << p[18]
    return e6, e3, d6, d3, p[12], p[31]


def _solve_all(hands: Sequence[tuple[int, int]], rules: Rules) -> list[int]:
    """E's double-dummy points for every hand pair and trump (4 per pair, trump-major
    within a pair), E leading: one compiled batch call."""

    n = 4 * len(hands)
    e = array.array("Q", [h[0] for h in hands for _ in range(4)])
    d = array.array("Q", [h[1] for h in hands for _ in range(4)])
    trump = array.array("b", [0, 1, 2, 3] * len(hands))
    out = array.array("i", bytes(4 * n))
    if n:
        # deals are independent: a small transposition table that stays in the cache
        # solves them faster (about 7 % against the default 32 MB)
        klabberjass.core(STUDY_TT_MB).values(
            e,
            d,
            trump,
            array.array("b", bytes(n)),
            array.array("b", [-1] * n),
            rules.last_trick,
            out,
        )
    return out.tolist()


# what the cards of an 8-bit rank field gain when their suit is trump (J 2 -> 20, 9 0 -> 14)
_TRUMP_GAIN = tuple(t - p for t, p in zip(TRUMP_FIELD_POINTS, PLAIN_FIELD_POINTS, strict=True))

_BELLA = tuple(
    (1 << make_card(t, RANKS.index("K"))) | (1 << make_card(t, RANKS.index("Q"))) for t in range(4)
)


def _outcome(big_b: int, big_o: int) -> tuple[int, int, int]:
    """(bidder's score, opponent's score, result code) of totals B and O."""
    if big_b > big_o:
        return big_b, big_o, 1
    if big_b < big_o:
        return 0, big_b + big_o, -1
    return 0, big_o, 0


def _contract_row(
    cp_b: int,
    cp_o: int,
    own: list[tuple[tuple[int, int, int], int]],
    opp: list[tuple[tuple[int, int, int], int]],
    bella_b: int,
    bella_o: int,
) -> tuple[int, int, int]:
    """(net, result code, sink) of one contract, as the deal table decides it.

    ``own`` / ``opp``: the bidder's and the opponent's runs as (key, value). The
    opponent declares everything; the bidder the subset of runs and Bella with the best
    (score minus opponent's score, his score, fewest declarations) -- the rank of
    :func:`solver.klabberjass.table.table_for_hands`. ``sink`` is the best net minus the
    net of declaring everything (the best is at least as good, so 0 when sinking does
    not pay).
    """
    big_o0 = cp_o + bella_o
    if not own and not opp:  # the usual case: only Bella can be declared
        b, o, res = _outcome(cp_b, big_o0)
        if not bella_b:
            return b - o, res, 0
        b2, o2, res2 = _outcome(cp_b + bella_b, big_o0)
        if (b2 - o2, b2, -1) > (b - o, b, 0):
            return b2 - o2, res2, 0
        return b - o, res, (b - o) - (b2 - o2)
    opp_key = max(k for k, _ in opp) if opp else None
    opp_seq = sum(v for _, v in opp)
    k = len(own)
    best: tuple[int, int, int] | None = None
    best_res = 0
    all_net = 0
    for subset in range(1 << k):
        if subset:
            chosen = [own[i] for i in range(k) if subset >> i & 1]
            key = max(c[0] for c in chosen)
            if opp_key is None or key > opp_key:
                b_seq, o_seq = sum(c[1] for c in chosen), 0
            elif key == opp_key:
                b_seq, o_seq = 0, 0
            else:
                b_seq, o_seq = 0, opp_seq
        else:
            b_seq, o_seq = 0, opp_seq
        count = subset.bit_count()
        for announce in (0, 1) if bella_b else (0,):
            b, o, res = _outcome(cp_b + b_seq + announce * bella_b, big_o0 + o_seq)
            rank = (b - o, b, -count - announce)
            if best is None or rank > best:
                best, best_res = rank, res
            if subset == (1 << k) - 1 and announce == (1 if bella_b else 0):
                all_net = b - o
    assert best is not None
    return best[0], best_res, best[0] - all_net


def fast_tables(hands: Sequence[tuple[int, int]], rules: Rules) -> list[list[tuple[int, int, int]]]:
    """Per deal, the (net, result code, sink) of each contract, bidder-major
    (``[E S, E H, E D, E C, D S, ...]``): the ``klabberjass-bidding`` columns without
    building the deal table's rows.

    Only for rules without the dix (the dix changes the hands with the trump); the
    results equal :func:`deal_tables` (checked by the tests).
    """
    if rules.dix:
        raise ValueError("fast_tables does not handle the dix")
    values = _solve_all(hands, rules)
    plain, gain = PLAIN_FIELD_POINTS, _TRUMP_GAIN
    out = []
    for i, (h0, h1) in enumerate(hands):
        runs0, runs1 = runs(h0), runs(h1)
        both = h0 | h1
        fields = (both >> 5 & 0xFF, both >> 21 & 0xFF, both >> 37 & 0xFF, both >> 53 & 0xFF)
        base = plain[fields[0]] + plain[fields[1]] + plain[fields[2]] + plain[fields[3]]
        base += rules.last_trick
        row: list[tuple[int, int, int]] = [(0, 0, 0)] * 8
        for t in range(4):
            e = values[4 * i + t]
            d = base + gain[fields[t]] - e
            r0 = [(r.key(t, rules), r.value(rules)) for r in runs0]
            r1 = [(r.key(t, rules), r.value(rules)) for r in runs1]
            bm = _BELLA[t]
            b0 = rules.bella if h0 & bm == bm else 0
            b1 = rules.bella if h1 & bm == bm else 0
            row[t] = _contract_row(e, d, r0, r1, b0, b1)
            row[4 + t] = _contract_row(d, e, r1, r0, b1, b0)
        out.append(row)
    return out


def bidding_chunk(
    rng: random.Random, start: int, count: int, params: dict[str, Any]
) -> dict[str, list]:
    """The ``klabberjass-bidding`` study: full deal tables of ``count`` random deals.

    Columns: ``deal`` (global index), the cards (``e6 e3 d6 d3`` as card-set ints,
    ``turn``, ``bottom``), and per bidder and trump (``net_ES`` ...): ``net`` the
    bidder's net with optimal declarations, ``res`` 1 made / 0 tie / -1 bate,
    ``sink`` the net gained over declaring everything (0 when sinking does not help).

    Deal ``i`` is ``Deal.random(s_i)`` with ``s_i`` the i-th ``rng.getrandbits(64)``.
    Without the dix (``seed`` rules) the table is worked out by :func:`fast_tables`;
    with it, by the deal table itself.
    """
    rules = rules_of(params.get("rules", "seed"))
    cards = [_random_hands(rng.getrandbits(64)) for _ in range(count)]
    cols: dict[str, list] = {"deal": list(range(start, start + count))}
    for k, name in enumerate(("e6", "e3", "d6", "d3", "turn", "bottom")):
        cols[name] = [c[k] for c in cards]
    names = [
        (column("net", b, t), column("res", b, t), column("sink", b, t))
        for b in (0, 1)
        for t in range(4)
    ]
    if not rules.dix:
        tables = fast_tables([(c[0] | c[1], c[2] | c[3]) for c in cards], rules)
        for j, (net, res, sink) in enumerate(names):
            cols[net] = [row[j][0] for row in tables]
            cols[res] = [row[j][1] for row in tables]
            cols[sink] = [row[j][2] for row in tables]
        return cols
    deals = [Deal((c[0] | c[1], c[2] | c[3]), c[4], (c[0], c[2]), c[5]) for c in cards]
    for net, res, sink in names:
        cols[net], cols[res], cols[sink] = [], [], []
    for deal, table in zip(deals, deal_tables(deals, rules), strict=True):
        for row in table:
            b, t = row.bidder, row.trump
            value = net_of(row)
            cols[column("net", b, t)].append(value)
            cols[column("res", b, t)].append(RESULT_CODE[row.result])
            hands = deal.hands
            if row.dix is not None:
                hands = exchange_dix(deal.hands, deal.turn, row.dix)
            # the best declaration is at least as good as declaring all
            cols[column("sink", b, t)].append(value - declare_all_net(row, hands, rules))
    return cols


def deal_of_row(row: Any) -> Deal:
    """The deal of a ``klabberjass-bidding`` row (anything with the card columns)."""
    e6, d6 = int(row["e6"]), int(row["d6"])
    hands = (e6 | int(row["e3"]), d6 | int(row["d3"]))
    return Deal(hands, int(row["turn"]), (e6, d6), int(row["bottom"]))


# ---------------------------------------------------------------- hand features

FEATURES = (
    "jass",  # the trump jack
    "menel",  # the trump nine
    "trump_ace",
    "trump_ten",
    "trumps",  # number of trumps held (of 6 cards), turn-up not counted
    "side_aces",
    "side_tens",  # tens of other suits
    "bella",  # K and Q of trump
    "run",  # a sequence of three or more in the six cards
    "turn_up_value",  # card points of the turn-up for this trump (it goes to a dix holder)
)


def hand_features(hand6: int, trump: int, turn: int | None = None) -> tuple[int, ...]:
    """The bidding-time features of a six-card hand for trump ``trump`` (see FEATURES).

    >>> from solver.cards import parse_holding
    >>> hand_features(parse_holding("J9A.A.T.7"), 0)
    (1, 1, 1, 0, 3, 1, 1, 0, 0, 0)
    """
    tm = suit_mask(trump)
    trumps = hand6 & tm
    side = hand6 & ~tm

    def has(suit: int, rank: str) -> int:
        return hand6 >> make_card(suit, _R[rank]) & 1

    side_aces = sum(has(s, "A") for s in range(4) if s != trump)
    side_tens = sum(has(s, "T") for s in range(4) if s != trump)
    turn_value = 0
    if turn is not None and turn >> 4 == trump:
        turn_value = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3}.get(RANKS[turn & 15], 0)
    del side
    return (
        has(trump, "J"),
        has(trump, "9"),
        has(trump, "A"),
        has(trump, "T"),
        trumps.bit_count(),
        side_aces,
        side_tens,
        int(has_bella(hand6, trump)),
        int(bool(runs(hand6))),
        turn_value,
    )


def features_frame(df: pd.DataFrame, rules: Rules = SEED) -> pd.DataFrame:
    """Per deal, seat and trump: features and the double-dummy net of that contract.

    Args:
        df: rows of the ``klabberjass-bidding`` study.

    Returns:
        A DataFrame with ``deal, seat, trump, round`` (1 for the turn-up suit, else 2),
        the FEATURES, ``net`` and ``res``.
    """
    import numpy as np
    import pandas as pd

    del rules
    rec: dict[str, list] = {k: [] for k in ("deal", "seat", "trump", "round", *FEATURES)}
    nets, res = [], []
    for r in df[["deal", "e6", "d6", "turn", *_contract_columns()]].itertuples(index=False):
        d = r._asdict()
        turn = int(d["turn"])
        ts = turn >> 4
        for seat, key in ((0, "e6"), (1, "d6")):
            hand = int(d[key])
            for t in range(4):
                rec["deal"].append(d["deal"])
                rec["seat"].append(seat)
                rec["trump"].append(t)
                rec["round"].append(1 if t == ts else 2)
                for name, v in zip(FEATURES, hand_features(hand, t, turn), strict=True):
                    rec[name].append(v)
                nets.append(d[column("net", seat, t)])
                res.append(d[column("res", seat, t)])
    out = pd.DataFrame(rec)
    out["net"] = np.asarray(nets, dtype=np.int32)
    out["res"] = np.asarray(res, dtype=np.int8)
    return out


def _contract_columns() -> list[str]:
    return [column(k, b, t) for b in (0, 1) for t in range(4) for k in ("net", "res")]


@dataclass(frozen=True)
class LinearEstimate:
    """A least-squares estimate of a contract's net from the hand features.

    Attributes:
        coef: weight of each feature (same order as FEATURES), per round (1 and 2).
        intercept: per round.
    """

    coef: dict[int, tuple[float, ...]]
    intercept: dict[int, float]

    def __call__(self, features: Sequence[int], round_: int) -> float:
        return self.intercept[round_] + sum(
            w * x for w, x in zip(self.coef[round_], features, strict=True)
        )


def fit_estimate(frame) -> LinearEstimate:
    """Fit :class:`LinearEstimate` on a :func:`features_frame` (ordinary least squares)."""
    import numpy as np

    coef, intercept = {}, {}
    for rnd in (1, 2):
        part = frame[frame["round"] == rnd]
        x = part[list(FEATURES)].to_numpy(dtype=float)
        x = np.hstack([np.ones((len(x), 1)), x])
        w, *_ = np.linalg.lstsq(x, part["net"].to_numpy(dtype=float), rcond=None)
        intercept[rnd] = float(w[0])
        coef[rnd] = tuple(float(v) for v in w[1:])
    return LinearEstimate(coef, intercept)


# ---------------------------------------------------------------- confidence


@dataclass(frozen=True)
class Estimate:
    """A sample mean with its 95 % confidence interval (normal approximation).

    Attributes:
        mean: the sample mean.
        low: lower end of the 95 % interval.
        high: upper end.
        n: sample size.
    """

    mean: float
    low: float
    high: float
    n: int

    @classmethod
    def of(
        cls, values: Sequence[float], quantile: Callable[[int], float] | None = None
    ) -> Estimate:
        """Mean and 95 % interval of ``values``: normal, or with ``quantile(df)`` the
        two-sided 97.5 % quantile for ``df = n - 1`` degrees of freedom (a t-interval).

        >>> e = Estimate.of([1, 2, 3, 4])
        >>> e.mean, round(e.low, 2), round(e.high, 2)
        (2.5, 1.23, 3.77)
        """
        n = len(values)
        if n == 0:
            return cls(math.nan, math.nan, math.nan, 0)
        mean = sum(values) / n
        if n == 1:
            return cls(mean, -math.inf, math.inf, 1)
        var = sum((v - mean) ** 2 for v in values) / (n - 1)
        half = (1.96 if quantile is None else quantile(n - 1)) * math.sqrt(var / n)
        return cls(mean, mean - half, mean + half, n)

    def __str__(self) -> str:
        return f"{self.mean:+.1f} [{self.low:+.1f}, {self.high:+.1f}]"


def proportion(successes: int, n: int) -> Estimate:
    """A proportion with its 95 % Wilson interval.

    >>> p = proportion(50, 100)
    >>> p.mean, round(p.low, 3), round(p.high, 3)
    (0.5, 0.404, 0.596)
    """
    if n == 0:
        return Estimate(math.nan, math.nan, math.nan, 0)
    p, z = successes / n, 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    # at 0 (or n) successes the bound is exactly 0 (or 1); rounding would give ±1e-18
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return Estimate(p, low, high, n)


# ---------------------------------------------------------------- one view


@dataclass(frozen=True)
class BidView:
    """What one player knows at bidding time (Klabberjass).

    Attributes:
        seat: 0 (E, elder) or 1 (D, dealer).
        hand: his first six cards.
        turn: the turn-up.
    """

    seat: int
    hand: int
    turn: int

    KEYS = ("seat", "hand", "turn")

    @classmethod
    def parse(cls, text: str) -> BidView:
        """Read ``seat=<E|D> hand=<six cards> turn=<card>`` (any order). The hand may
        leave out the suits after its last card (``AT7.KJ9`` is ``AT7.KJ9..``).

        >>> str(BidView.parse("turn=qd hand=AT7.KJ9.. seat=e"))
        'seat=E hand=AT7.KJ9.. turn=QD'
        >>> str(BidView.parse("seat=E turn=QD hand=AT7.KJ9"))
        'seat=E hand=AT7.KJ9.. turn=QD'

        Raises:
            NotationError: unreadable text, a missing field.
            RulesError: not six cards of the pack, or the turn-up in the hand.
        """
        f = parse_fields(text, cls.KEYS, cls.KEYS, what="bidding view")
        seat = seat_of(f["seat"], text)
        hand = parse_holding(f["hand"], text, short=True)
        turn = parse_card(f["turn"], text)
        if hand & ~PACK:
            raise RulesError(
                f'hand={f["hand"]} in "{text}": {cards_text(hand & ~PACK)} not in the '
                "Klabberjass pack (7 to ace)"
            )
        if card_count(hand) != 6:
            raise RulesError(
                f'hand={f["hand"]} in "{text}": a bidding hand is six cards '
                f"(got {card_count(hand)})"
            )
        if not PACK >> turn & 1 or hand >> turn & 1:
            raise RulesError(
                f'turn={f["turn"]} in "{text}": the turn-up is a card of the pack, not in the hand'
            )
        return cls(seat, hand, turn)

    def __str__(self) -> str:
        return f"seat={SEAT_NAMES[self.seat]} hand={format_holding(self.hand)} turn={card_str(self.turn)}"


def sample_worlds(view: BidView, n: int, rng: random.Random) -> list[Deal]:
    """``n`` deals consistent with ``view``, uniformly (exact: every unseen card is
    equally likely to be anywhere at bidding time)."""
    unseen = list(cards_of(PACK & ~view.hand & ~(1 << view.turn)))
    mask = lambda cs: sum(1 << c for c in cs)  # noqa: E731
    out = []
    for _ in range(n):
        rng.shuffle(unseen)
        opp6, own3, opp3 = mask(unseen[:6]), mask(unseen[6:9]), mask(unseen[9:12])
        first = [view.hand, view.hand]
        extra = [own3, own3]
        first[1 - view.seat], extra[1 - view.seat] = opp6, opp3
        hands = (first[0] | extra[0], first[1] | extra[1])
        out.append(Deal(hands, view.turn, (first[0], first[1]), unseen[-1]))
    return out


def evaluate_view(
    view: BidView, samples: int = 200, seed: int = 0, rules: Rules = SEED
) -> dict[str, Estimate]:
    """The player's expected net for each contract he could play or defend.

    For each world drawn by :func:`sample_worlds`, the double-dummy deal table is
    solved; the estimates are means over the worlds with 95 % intervals.

    Returns:
        ``take`` (he bids the turn-up suit), ``name S`` ... (he names a suit in
        round 2), and ``opp take`` / ``opp name S`` ... (the opponent is the bidder;
        his net from the player's side). ``pass`` depends on the opponent's policy:
        see :mod:`analysis.bidding.equilibrium`.
    """
    worlds = sample_worlds(view, samples, random.Random(seed))
    tables = deal_tables(worlds, rules)
    ts = view.turn >> 4
    values: dict[str, list[float]] = {}
    for table in tables:
        for row in table:
            mine = row.bidder == view.seat
            who = "" if mine else "opp "
            what = "take" if row.trump == ts else f"name {SUITS[row.trump]}"
            net = net_of(row)
            values.setdefault(who + what, []).append(net if mine else -net)
    return {k: Estimate.of(v) for k, v in values.items()}
