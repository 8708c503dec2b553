"""Optimal Klabberjass bidding: the two-round auction as a game over hand classes.

Passing is worth what the opponent then does, so the bidding is a game. We model it
as a two-player zero-sum game (the payoff is E's net: his deal score minus D's) with
imperfect information and solve it in *sequence form* as one linear program (GLOP,
OR-Tools); see :func:`solve_bidding_game`.

The model (a simplification, stated so it can be judged):

- **Hand classes.** A player's six cards and the turn-up are summarised by two
  numbers: ``k1``, the bucket (quantile class) of the estimated net of *taking the
  turn-up suit*, and ``k2``, the bucket of the estimated net of *naming his best other
  suit* in round 2. The estimate is a least-squares fit of the double-dummy net on
  the features of :func:`analysis.bidding.hand_features` (Jass, Menel, trump count,
  side aces, ...), fitted on the training half of the deals.
- **Actions.** Round 1: E take/pass, then D take/pass. Round 2: E name/pass, then D
  name/pass; *name* means naming one's best other suit by the estimate. Four passes
  annul the deal (net 0).
- **Payoffs.** For every pair of classes, the mean double-dummy net of each ending
  over the training deals of that pair (play and declarations double dummy).
- **Chance.** The empirical frequency of each pair of classes.

Policies (:class:`Policy`) are then compared *on the held-out deals* using each deal's
real table (any named suit, not only the modelled one), with 95 % intervals on the
paired differences.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from analysis.bidding.klabberjass import (
    FEATURES,
    LinearEstimate,
    column,
    fit_estimate,
    hand_features,
)
from analysis.studies import read_manifest, read_study
from solver.cards import SUITS

K1, K2 = 6, 3


# ---------------------------------------------------------------- per-deal arrays


@dataclass
class DealArrays:
    """Everything the bidding game needs per deal, as numpy arrays (n deals).

    Attributes:
        turn_suit: the turn-up suit.
        net: net[b, t] the bidder's net when ``b`` bids trump ``t`` (n x 2 x 4 overall:
            array of shape (n, 2, 4)).
        features: features[s, t] of seat ``s``'s six cards for trump ``t``
            (shape (n, 2, 4, len(FEATURES))).
    """

    turn_suit: np.ndarray
    net: np.ndarray
    features: np.ndarray

    def __len__(self) -> int:
        return len(self.turn_suit)

    def subset(self, idx) -> DealArrays:
        return DealArrays(self.turn_suit[idx], self.net[idx], self.features[idx])


def deal_arrays(df, net_kind: str = "net") -> DealArrays:
    """The arrays of the rows of a ``klabberjass-bidding`` study (or of any study with
    the same card columns and per-contract nets ``{net_kind}_ES`` ..., e.g.
    ``pimc_net`` of ``klabberjass-realplay``)."""
    n = len(df)
    net = np.zeros((n, 2, 4), dtype=np.int32)
    for b in (0, 1):
        for t in range(4):
            net[:, b, t] = df[column(net_kind, b, t)].to_numpy()
    feats = np.zeros((n, 2, 4, len(FEATURES)), dtype=np.int16)
    turns = df["turn"].to_numpy()
    for i, (e6, d6, turn) in enumerate(zip(df["e6"], df["d6"], turns, strict=True)):
        for s, hand in ((0, int(e6)), (1, int(d6))):
            for t in range(4):
                feats[i, s, t] = hand_features(hand, t, int(turn))
    return DealArrays(turns.astype(np.int64) >> 4, net, feats)


def fit_on(arrays: DealArrays) -> LinearEstimate:
    """Fit the linear estimate of the net on the deals (both seats, every trump)."""
    import pandas as pd

    rows = []
    n = len(arrays)
    for s in (0, 1):
        for t in range(4):
            rnd = np.where(arrays.turn_suit == t, 1, 2)
            part = pd.DataFrame(arrays.features[:, s, t, :], columns=list(FEATURES))
            part["round"] = rnd
            part["net"] = arrays.net[:, s, t]
            rows.append(part)
    del n
    return fit_estimate(pd.concat(rows, ignore_index=True))


def estimates(arrays: DealArrays, est: LinearEstimate) -> np.ndarray:
    """est[i, s, t]: the estimated net of seat ``s`` bidding trump ``t`` in deal ``i``."""
    out = np.zeros(arrays.net.shape, dtype=float)
    for rnd in (1, 2):
        w = np.asarray(est.coef[rnd])
        val = arrays.features.astype(float) @ w + est.intercept[rnd]
        mask = (arrays.turn_suit[:, None] == np.arange(4)[None, :]) == (rnd == 1)
        out += np.where(mask[:, None, :], val, 0.0)
    return out


@dataclass(frozen=True)
class Classifier:
    """Maps a hand to its class (k1, k2) and its best round-2 suit.

    Attributes:
        est: the linear estimate.
        cuts1: bucket boundaries of the round-1 estimate (K1 - 1 values).
        cuts2: bucket boundaries of the best round-2 estimate (K2 - 1 values).
    """

    est: LinearEstimate
    cuts1: tuple[float, ...]
    cuts2: tuple[float, ...]

    @property
    def classes(self) -> int:
        return (len(self.cuts1) + 1) * (len(self.cuts2) + 1)

    def classify(self, arrays: DealArrays):
        """Per deal and seat: class index, k1, k2, best round-2 suit (arrays (n, 2))."""
        e = estimates(arrays, self.est)
        n = len(arrays)
        ts = arrays.turn_suit
        e1 = e[np.arange(n), :, ts]  # (n, 2)
        other = e.copy()
        other[np.arange(n), :, ts] = -np.inf
        best = other.argmax(axis=2)  # (n, 2)
        e2 = np.take_along_axis(other, best[:, :, None], axis=2)[:, :, 0]
        k1 = np.searchsorted(np.asarray(self.cuts1), e1)
        k2 = np.searchsorted(np.asarray(self.cuts2), e2)
        return k1 * (len(self.cuts2) + 1) + k2, k1, k2, best, e1, e2


def make_classifier(arrays: DealArrays, k1: int = K1, k2: int = K2) -> Classifier:
    """Fit the estimate and quantile buckets on ``arrays`` (the training deals)."""
    est = fit_on(arrays)
    e = estimates(arrays, est)
    n = len(arrays)
    ts = arrays.turn_suit
    e1 = e[np.arange(n), :, ts].ravel()
    other = e.copy()
    other[np.arange(n), :, ts] = -np.inf
    e2 = other.max(axis=2).ravel()
    cuts1 = tuple(float(q) for q in np.quantile(e1, np.linspace(0, 1, k1 + 1)[1:-1]))
    cuts2 = tuple(float(q) for q in np.quantile(e2, np.linspace(0, 1, k2 + 1)[1:-1]))
    return Classifier(est, cuts1, cuts2)


def ending_payoffs(arrays: DealArrays, best: np.ndarray) -> np.ndarray:
    """E's net at each ending of the modelled auction: (n, 4) for E take, D take,
    E names his best suit, D names his best suit."""
    n = len(arrays)
    i = np.arange(n)
    ts = arrays.turn_suit
    return np.stack(
        [
            arrays.net[i, 0, ts],
            -arrays.net[i, 1, ts],
            arrays.net[i, 0, best[:, 0]],
            -arrays.net[i, 1, best[:, 1]],
        ],
        axis=1,
    ).astype(float)


# ---------------------------------------------------------------- the LP


@dataclass(frozen=True)
class Equilibrium:
    """The solved bidding game.

    Attributes:
        value: E's expected net per deal at equilibrium (training deals).
        e_take: E's probability of taking in round 1, per class.
        d_take: D's probability of taking after E passed, per class.
        e_name: E's probability of naming his best suit in round 2, per class.
        d_name: D's probability of naming in round 2, per class.
        classifier: the hand classes.
        frequency: share of hands in each class (training deals, both seats).
    """

    value: float
    e_take: np.ndarray
    d_take: np.ndarray
    e_name: np.ndarray
    d_name: np.ndarray
    classifier: Classifier
    frequency: np.ndarray


def _payoff_tables(cls_e, cls_d, pay, k):
    """p(c, d) and the mean payoff of each ending per class pair."""
    count = np.zeros((k, k))
    total = np.zeros((k, k, 4))
    np.add.at(count, (cls_e, cls_d), 1)
    np.add.at(total, (cls_e, cls_d), pay)
    prob = count / count.sum()
    mean = np.divide(
        total, count[:, :, None], out=np.zeros_like(total), where=count[:, :, None] > 0
    )
    return prob, mean


def _game_matrices(prob: np.ndarray, mean: np.ndarray):
    """Sequence form of the modelled auction: payoff A (E's sequences x D's) and each
    side's plan constraints (M x = rhs).

    Sequences of each side: 0 the root, then per class c: ``1+4c`` take, ``2+4c`` pass,
    ``3+4c`` name (round 2, after passing), ``4+4c`` pass again.
    """
    k = prob.shape[0]
    size = 1 + 4 * k
    w = prob[:, :, None] * mean  # chance times mean payoff
    a = np.zeros((size, size))
    for c in range(k):
        a[1 + 4 * c, 0] = w[c, :, 0].sum()  # E takes: whatever D holds
        for d in range(k):
            a[2 + 4 * c, 1 + 4 * d] = w[c, d, 1]  # E passes, D takes
            a[3 + 4 * c, 2 + 4 * d] = w[c, d, 2]  # pass, pass, E names
            a[4 + 4 * c, 3 + 4 * d] = w[c, d, 3]  # pass, pass, pass, D names
    m = np.zeros((1 + 2 * k, size))
    m[0, 0] = 1
    for c in range(k):
        m[1 + 2 * c, [0, 1 + 4 * c, 2 + 4 * c]] = (-1, 1, 1)
        m[2 + 2 * c, [2 + 4 * c, 3 + 4 * c, 4 + 4 * c]] = (-1, 1, 1)
    rhs = np.zeros(1 + 2 * k)
    rhs[0] = 1
    return a, m, rhs


def solve_sequence_form(a: np.ndarray, m_e, e, m_d, f):
    """Solve the zero-sum game max_x min_y x'Ay (plans M_e x = e, M_d y = f, >= 0).

    Two linear programs with GLOP: E's (max f'q s.t. M_d'q <= A'x) and D's
    (min e'p s.t. M_e'p >= A y).

    Returns:
        (value, x, y): the game value for the maximiser and both realisation plans.
    """
    from ortools.linear_solver import pywraplp

    def side(payoff, m_own, own_rhs, m_other, other_rhs, sense):
        solver = pywraplp.Solver.CreateSolver("GLOP")
        inf = solver.infinity()
        x = [solver.NumVar(0, inf, f"x{i}") for i in range(payoff.shape[0])]
        q = [solver.NumVar(-inf, inf, f"q{j}") for j in range(m_other.shape[0])]
        for row, b in zip(m_own, own_rhs, strict=True):
            solver.Add(sum(float(v) * x[i] for i, v in enumerate(row) if v) == float(b))
        for j in range(payoff.shape[1]):
            lhs = sum(float(m_other[r, j]) * q[r] for r in range(m_other.shape[0]) if m_other[r, j])
            rhs = sum(float(payoff[i, j]) * x[i] for i in range(payoff.shape[0]) if payoff[i, j])
            solver.Add(sense * lhs <= sense * rhs)
        objective = sum(float(b) * q[r] for r, b in enumerate(other_rhs) if b)
        if sense > 0:
            solver.Maximize(objective)
        else:
            solver.Minimize(objective)
        if solver.Solve() != pywraplp.Solver.OPTIMAL:
            raise RuntimeError("the bidding LP has no optimal solution")
        return solver.Objective().Value(), np.array([v.solution_value() for v in x])

    value_e, x = side(a, m_e, e, m_d, f, +1)
    value_d, y = side(a.T, m_d, f, m_e, e, -1)
    if abs(value_e - value_d) > 1e-6 * max(1.0, abs(value_e)):
        raise RuntimeError(f"the two LPs disagree: {value_e} vs {value_d}")
    return value_e, x, y


def _behaviour(plan: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    take = plan[1::4][:k]
    passed = plan[2::4][:k]
    name = np.divide(plan[3::4][:k], passed, out=np.zeros(k), where=passed > 1e-12)
    return take, name


def solve_bidding_game(arrays: DealArrays, classifier: Classifier) -> Equilibrium:
    """The equilibrium of the modelled auction on the given (training) deals."""
    k = classifier.classes
    cls, *_rest, best, _e1, _e2 = classifier.classify(arrays)
    pay = ending_payoffs(arrays, best)
    prob, mean = _payoff_tables(cls[:, 0], cls[:, 1], pay, k)
    a, m, rhs = _game_matrices(prob, mean)
    value, x, y = solve_sequence_form(a, m, rhs, m, rhs)
    e_take, e_name = _behaviour(x, k)
    d_take, d_name = _behaviour(y, k)
    freq = np.bincount(cls.ravel(), minlength=k) / cls.size
    return Equilibrium(value, e_take, d_take, e_name, d_name, classifier, freq)


# ---------------------------------------------------------------- policies


@dataclass(frozen=True)
class Decisions:
    """A policy's decisions on every deal, for both seats (arrays of shape (n, 2)).

    Attributes:
        take: probability of taking the turn-up suit in round 1 (for D: after E passed).
        name: probability of naming a suit in round 2 (after the passes before it).
        suit: the suit named in round 2.
    """

    take: np.ndarray
    name: np.ndarray
    suit: np.ndarray


#: A policy: (deal arrays, classifier) -> decisions.
Policy = Callable[[DealArrays, Classifier], Decisions]


def thumb_policy(arrays: DealArrays, classifier: Classifier) -> Decisions:
    """A rule of thumb: bid a suit holding its Jass with another trump, or its Menel
    with two others; in round 2 name the qualifying suit with most trumps."""
    del classifier
    f = arrays.features
    jass, menel, trumps = (f[..., FEATURES.index(x)] for x in ("jass", "menel", "trumps"))
    ok = ((jass == 1) & (trumps >= 2)) | ((menel == 1) & (trumps >= 3))  # (n, 2, 4)
    n = len(arrays)
    ts = arrays.turn_suit
    take = ok[np.arange(n), :, ts].astype(float)
    strength = np.where(ok, 10 * trumps + 2 * jass + menel, -1).astype(float)
    strength[np.arange(n), :, ts] = -np.inf
    suit = strength.argmax(axis=2)
    name = (np.take_along_axis(strength, suit[:, :, None], axis=2)[:, :, 0] >= 0).astype(float)
    return Decisions(take, name, suit)


def greedy_policy(arrays: DealArrays, classifier: Classifier) -> Decisions:
    """Bid whenever the estimated net of bidding is positive (ignores what passing is
    worth)."""
    _cls, _k1, _k2, best, e1, e2 = classifier.classify(arrays)
    return Decisions((e1 > 0).astype(float), (e2 > 0).astype(float), best)


def equilibrium_policy(eq: Equilibrium) -> Policy:
    """The equilibrium strategies as a policy (E's for seat E, D's for seat D)."""

    def policy(arrays: DealArrays, classifier: Classifier) -> Decisions:
        cls, _k1, _k2, best, _e1, _e2 = classifier.classify(arrays)
        take = np.stack([eq.e_take[cls[:, 0]], eq.d_take[cls[:, 1]]], axis=1)
        name = np.stack([eq.e_name[cls[:, 0]], eq.d_name[cls[:, 1]]], axis=1)
        return Decisions(take, name, best)

    return policy


def expected_e_net(arrays: DealArrays, e: Decisions, d: Decisions) -> np.ndarray:
    """E's expected net on each deal when E follows ``e`` and D follows ``d``."""
    n = len(arrays)
    i = np.arange(n)
    ts = arrays.turn_suit
    v1 = arrays.net[i, 0, ts]
    v2 = -arrays.net[i, 1, ts]
    v3 = arrays.net[i, 0, e.suit[:, 0]]
    v4 = -arrays.net[i, 1, d.suit[:, 1]]
    te, td, ne, nd = e.take[:, 0], d.take[:, 1], e.name[:, 0], d.name[:, 1]
    return te * v1 + (1 - te) * (td * v2 + (1 - td) * (ne * v3 + (1 - ne) * nd * v4))


def interval(values: np.ndarray) -> tuple[float, float, float]:
    """Mean of per-deal ``values`` and its 95 % normal interval (NaN bounds below two).

    >>> interval(np.array([1.0, 2.0, 3.0, 4.0]))
    (2.5, 1.234..., 3.765...)
    """
    n = len(values)
    if n < 2:
        return (float(values.mean()) if n else float("nan"), float("nan"), float("nan"))
    m, half = values.mean(), 1.96 * values.std(ddof=1) / np.sqrt(n)
    return (float(m), float(m - half), float(m + half))


def head_to_head(
    arrays: DealArrays, classifier: Classifier, a: Policy, b: Policy
) -> tuple[float, float, float]:
    """A's average gain per deal over B, each playing E and D equally often.

    Returns:
        (mean, low, high): the gain in points per deal with its 95 % interval (paired
        on the same deals: g = (E-net of A as E vs B) - (E-net of B as E vs A), halved).
    """
    da, db = a(arrays, classifier), b(arrays, classifier)
    g = 0.5 * (expected_e_net(arrays, da, db) - expected_e_net(arrays, db, da))
    return interval(g)


def split(arrays: DealArrays, train_share: float = 0.5) -> tuple[DealArrays, DealArrays]:
    """Training deals (the first part) and held-out deals (the rest)."""
    cut = int(len(arrays) * train_share)
    return arrays.subset(slice(0, cut)), arrays.subset(slice(cut, None))


def rule_table(eq: Equilibrium):
    """The bidding rule as a table: one row per hand class."""
    import pandas as pd

    c = eq.classifier
    k2n = len(c.cuts2) + 1
    edges1 = (-np.inf, *c.cuts1, np.inf)
    edges2 = (-np.inf, *c.cuts2, np.inf)
    rows = []
    for cls in range(c.classes):
        k1, k2 = divmod(cls, k2n)
        rows.append(
            {
                "class": cls,
                "take_est_from": edges1[k1],
                "take_est_to": edges1[k1 + 1],
                "name_est_from": edges2[k2],
                "name_est_to": edges2[k2 + 1],
                "share": eq.frequency[cls],
                "E_take": eq.e_take[cls],
                "D_take_after_pass": eq.d_take[cls],
                "E_name": eq.e_name[cls],
                "D_name": eq.d_name[cls],
            }
        )
    return pd.DataFrame(rows)


def describe_estimate(est: LinearEstimate) -> str:
    """The linear estimate in words (its biggest weights first)."""
    parts = []
    for rnd, what in ((1, "taking the turn-up suit"), (2, "naming a suit")):
        terms = sorted(zip(FEATURES, est.coef[rnd], strict=True), key=lambda t: -abs(t[1]))
        text = ", ".join(f"{name} {w:+.1f}" for name, w in terms if abs(w) >= 0.5)
        parts.append(f"{what}: {est.intercept[rnd]:+.1f} then {text}")
    return "; ".join(parts)


def describe_rule(eq: Equilibrium) -> str:
    """The equilibrium in plain words, class by class (nothing left out).

    For each decision, the bands of the round-1 estimate (highest first) with the
    bands of the best other suit's estimate in which the seat bids; a class bid with
    a probability strictly between 0.1 and 0.9 is called "sometimes" with its share.
    """
    c = eq.classifier
    k2n = len(c.cuts2) + 1
    e1 = (-np.inf, *c.cuts1, np.inf)
    e2 = (-np.inf, *c.cuts2, np.inf)

    def band(edges, k: int, j: int | None = None) -> str:
        """Bands k..j (inclusive) as words."""
        lo, hi = edges[k], edges[(k if j is None else j) + 1]
        if lo == -np.inf and hi == np.inf:
            return "any"
        if lo == -np.inf:
            return f"below {hi:+.0f}"
        if hi == np.inf:
            return f"{lo:+.0f} or more"
        return f"{lo:+.0f} to {hi:+.0f}"

    def runs_of(ps: list[float]) -> list[tuple[int, int, float]]:
        """Consecutive bands where the seat bids: (first, last, probability or 1)."""
        out: list[tuple[int, int, float]] = []
        for i, p in enumerate(ps):
            level = 1.0 if p >= 0.9 else (round(float(p), 2) if p > 0.1 else 0.0)
            if level and out and out[-1][1] == i - 1 and out[-1][2] == level:
                out[-1] = (out[-1][0], i, level)
            elif level:
                out.append((i, i, level))
        return out

    def words(probs: np.ndarray, by_k1: bool) -> str:
        """by_k1: the decision is read by round-1 band, else by round-2 band."""
        n1 = len(c.cuts1) + 1
        outer_n, inner_n = (n1, k2n) if by_k1 else (k2n, n1)
        outer_edges, inner_edges = (e1, e2) if by_k1 else (e2, e1)
        outer_what, inner_what = (
            ("turn-up estimate", "best other suit") if by_k1 else ("best other suit", "turn-up")
        )
        verdicts = []
        for o in range(outer_n):
            ps = [probs[o * k2n + i] if by_k1 else probs[i * k2n + o] for i in range(inner_n)]
            rs = runs_of(ps)
            if not rs:
                verdicts.append("never")
            elif rs == [(0, inner_n - 1, 1.0)]:
                verdicts.append("always")
            else:
                bits = [
                    ("if" if p == 1.0 else f"sometimes ({p:.0%}) if")
                    + f" {inner_what} {band(inner_edges, a, b)}"
                    for a, b, p in rs
                ]
                verdicts.append(" or ".join(bits))
        # merge neighbouring outer bands with the same verdict, highest first
        parts: list[tuple[int, int, str]] = []
        for o, v in enumerate(verdicts):
            if parts and parts[-1][2] == v:
                parts[-1] = (parts[-1][0], o, v)
            else:
                parts.append((o, o, v))
        return "; ".join(
            f"{outer_what} {band(outer_edges, a, b)}: {v}" for a, b, v in reversed(parts)
        )

    return (
        f"E takes in round 1 — {words(eq.e_take, True)}. "
        f"D takes after E passed — {words(eq.d_take, True)}. "
        f"E names his best other suit in round 2 — {words(eq.e_name, False)}. "
        f"D names after E passed again — {words(eq.d_name, False)}. "
        f"Value of the game for E: {eq.value:+.1f} points a deal."
    )


__all__ = [
    "Decisions",
    "Equilibrium",
    "SUITS",
    "deal_arrays",
    "describe_estimate",
    "describe_rule",
    "equilibrium_policy",
    "expected_e_net",
    "greedy_policy",
    "head_to_head",
    "interval",
    "make_classifier",
    "rule_table",
    "solve_bidding_game",
    "split",
    "thumb_policy",
]


# ---------------------------------------------------------------- precomputed tables


def bidding_tables(df) -> dict:
    """Every table notebook 02 shows, from the rows of a ``klabberjass-bidding`` study.

    The first half of the deals trains (estimate, classes, LP); the second half is
    held out for the comparisons.

    Returns:
        A dict of DataFrames (``rule``, ``head_to_head``, ``take_grid``,
        ``value_curve``) and texts (``rule_words``, ``estimate_words``) and numbers.
    """
    import pandas as pd

    arrays = deal_arrays(df)
    train, test = split(arrays)
    classifier = make_classifier(train)
    eq = solve_bidding_game(train, classifier)
    policies = {
        "equilibrium": equilibrium_policy(eq),
        "greedy": greedy_policy,
        "thumb": thumb_policy,
    }
    h2h = []
    names = list(policies)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            m, lo, hi = head_to_head(test, classifier, policies[a], policies[b])
            h2h.append({"policy": a, "against": b, "gain": m, "low": lo, "high": hi})
    # take rates and values on the held-out deals by trumps held and Jass/Menel
    dec = policies["equilibrium"](test, classifier)
    thumb = thumb_policy(test, classifier)
    n = len(test)
    ts = test.turn_suit
    f = test.features[np.arange(n), :, ts, :]  # (n, 2, F)
    grid = []
    for seat in (0, 1):
        trumps = f[:, seat, FEATURES.index("trumps")]
        honours = 2 * f[:, seat, FEATURES.index("jass")] + f[:, seat, FEATURES.index("menel")]
        net = test.net[np.arange(n), seat, ts]
        for h, label in enumerate(("neither", "Menel", "Jass", "Jass+Menel")):
            for t in range(0, 7):
                sel = (honours == h) & (trumps == t)
                if sel.sum() == 0:
                    continue
                m, lo, hi = interval(net[sel].astype(float))
                grid.append(
                    {
                        "seat": "ED"[seat],
                        "honours": label,
                        "trumps": t,
                        "hands": int(sel.sum()),
                        "take_rate": float(dec.take[sel, seat].mean()),
                        "thumb_rate": float(thumb.take[sel, seat].mean()),
                        "net_if_take": m,
                        "low": lo,
                        "high": hi,
                    }
                )
    # value of taking against the estimate (round 1), with intervals
    _c, _k1, _k2, _best, e1, _e2 = classifier.classify(test)
    curve = []
    edges = np.arange(-120, 121, 10)
    for seat in (0, 1):
        net = test.net[np.arange(n), seat, ts].astype(float)
        for lo_e, hi_e in zip(edges[:-1], edges[1:], strict=True):
            sel = (e1[:, seat] >= lo_e) & (e1[:, seat] < hi_e)
            if sel.sum() < 20:
                continue
            m, lo, hi = interval(net[sel])
            curve.append(
                {
                    "seat": "ED"[seat],
                    "estimate": (lo_e + hi_e) / 2,
                    "hands": int(sel.sum()),
                    "net_if_take": m,
                    "low": lo,
                    "high": hi,
                    "take_rate": float(dec.take[sel, seat].mean()),
                }
            )
    return {
        "rule": rule_table(eq),
        "head_to_head": pd.DataFrame(h2h),
        "take_grid": pd.DataFrame(grid),
        "value_curve": pd.DataFrame(curve),
        "rule_words": describe_rule(eq),
        "estimate_words": describe_estimate(classifier.est),
        "game_value": eq.value,
        "deals": len(arrays),
        "train": len(train),
        "test": len(test),
    }


def write_tables(tables: dict, out) -> None:
    """Write :func:`bidding_tables` (DataFrames as CSV, the rest as ``summary.json``)."""

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    rest = {}
    for key, value in tables.items():
        if hasattr(value, "to_csv"):
            value.to_csv(out / f"{key}.csv", index=False, float_format="%.4g")
        else:
            rest[key] = value
    (out / "summary.json").write_text(json.dumps(rest, indent=2) + "\n")


def read_tables(folder) -> dict:
    """Read tables written by :func:`write_tables`."""

    import pandas as pd

    folder = Path(folder)
    out: dict = json.loads((folder / "summary.json").read_text())
    for p in sorted(folder.glob("*.csv")):
        out[p.stem] = pd.read_csv(p)
    return out


def main(argv: list[str] | None = None) -> int:
    """``python -m analysis.bidding.equilibrium STUDY_DIR OUT_DIR``: write notebook 02's tables."""

    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        print("usage: python -m analysis.bidding.equilibrium STUDY_DIR OUT_DIR", file=sys.stderr)
        return 2
    tables = bidding_tables(read_study(args[0]))
    tables["study"] = read_manifest(args[0])
    write_tables(tables, args[1])
    print(tables["rule_words"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
