"""Klabberjass card play by αμ search (Cazenave and Ventos, 2020): single-dummy play that
does not pretend to see the cards in later decisions, as PIMC does.

PIMC (:class:`analysis.play.Pimc`) solves each sampled world double dummy, so in every
world it credits the player with the best continuation *for that world*: he is assumed
to guess right later whenever some card is right in each world taken alone
(*strategy fusion*). αμ searches the player's own tree over the same worlds for
``depth`` of his own decisions (μ), playing one card for every world still consistent
with what he has seen at each of them; only below that depth, at the leaves, are the
worlds solved double dummy (by the engine, its transposition table shared by every world
and every decision, its entries keyed on both hands). The other player is assumed to
see every card, as αμ assumes: in each world he plays the card worst for the player
(a pessimistic, not a realistic, defence).

**Values.** The value of a node is a *Pareto front* of vectors over the worlds alive
there: a vector holds the player's points from that node to the end in each world (an
integer; Klabberjass scores points, and the bidder's make-or-bate line depends on
declarations the card play does not see, so points, not the contract, are the
objective), and the front keeps the vectors no other dominates (greater or equal in every
world). At the player's nodes the fronts of his cards are united (he picks one card
for all the worlds); at the other player's nodes, each of his cards keeps the worlds
where he holds it and may play it, and the fronts of his cards are combined by the
minimum, world by world, over every choice of one vector per card (in each world he
picks his card seeing it), then reduced. At the root the player plays the card whose
front holds the vector of the greatest total over the worlds; ties go to the card
printed first (notation order), as in PIMC. With ``depth=1`` the choice is PIMC's on
the same worlds (the same compiled call makes it); with enough depth to reach the end of
the play it is the best pure strategy of the player against the best defence in each
world (the tests check both, the latter against an enumeration of strategies).

What keeps it fast (each cut leaves the choice unchanged):

- at every node of the player, one compiled batch call solves each of his cards in
  every world double dummy; that vector bounds the card's front from above (a deeper
  search can only take later per-world choices away from him). The cards are searched
  best bound first; a card whose bound is dominated by the front found so far is not
  searched, and the search stops once the front holds the per-world maximum (no card
  can do better). At the last decision (μ = 1) those vectors are the fronts.
- at the other player's nodes, the front starts from the node's double-dummy vector
  (its upper bound) and stops as soon as each of its vectors is dominated by the
  front the player's node above has already found (the early cut of αμ).
- at the root, searched by iterative deepening (μ = 1, 2, …): a card's value at μ is
  at most its value at μ - 1, so a card whose previous value cannot beat the best card
  found at this depth is not searched (the root cut), and a card whose front reaches
  its previous value ends the root's search at once when no card before it can tie.
  Within a card, the other player's node stops as soon as no vector of its front can
  reach the best total so far.
- equivalent cards (:func:`analysis.play.classes`: same suit and points, no card that
  may be the other player's between them) are searched once;
- a table of fronts keyed on the node (both players' remaining public cards, the
  trick, the leader, the depth left) and its set of worlds, for the nodes reached by
  two orders of the same cards.

**Information.** The worlds are drawn as PIMC draws them, from the player's own
information (:func:`analysis.play.hidden_of` for a :class:`analysis.play.PlayState`,
:meth:`solver.klabberjass.View.inference` for a view): the other player's shown
(declared) cards not yet played are in every world; the turn-up, the bottom card when
shown, the cards played and those the play showed him not to hold (voids, failing to
overtrump) are in none. The tests check every world of whole deals with shown runs and
a shown bottom card, and a position where the shown hand decides the card. Within the
search the worlds are only narrowed by the cards the other player plays in them.

**Budget.** ``worlds`` (the sample), ``depth`` (μ, counted in the player's own
decisions; None: to the end of the play) and ``time_limit`` (seconds a decision): αμ is
anytime; when the time runs out the card of the deepest finished iteration is played
(μ = 1, PIMC's, is always finished first).

**Strength (preliminary).** In duplicate card play against PIMC
(``tools/alphamu_duplicate.py``: random deals, turn-up suit trump, E leads, no
declarations; each deal played twice with the seats swapped), αμ at its default budget
gains +0.54 [-0.56, +1.64] card points a deal against PIMC on as many worlds (20; 300
deals, seeds 1 and 2: +0.35 and +0.73), and loses -1.74 [-2.66, -0.82] against PIMC
given the same CPU time a card (250 worlds, 12 ms a decision against αμ's 13-14 ms;
450 deals, seed 1: -1.81 [-2.91, -0.71], seed 2: -1.60 [-3.26, +0.06]): at this
budget more worlds are worth more than the deeper search. The tool regenerates the
rows: ``--pimc-worlds 250`` with ``--deals 300 --seed 1`` and ``--deals 150 --seed
2``; ``--pimc-worlds 20`` with ``--deals 150``, seeds 1 and 2 (CPU times vary with the
machine; these were measured on a loaded one).

**Sinking.** With αμ on both sides of the ``klabberjass-sinking-realplay`` study
(``play=alphamu``; seeds 1 and 2, 1,860 and 1,920 deals, 9,732 contracts with runs),
hiding the bidder's runs is worth him +1.06 [+0.88, +1.25] card points a contract,
+1.16 [+0.96, +1.35] with PIMC on the same contracts: paired, αμ − PIMC -0.09 [-0.28,
+0.10] (on the contracts the auction reaches +0.08 [-0.46, +0.62]). The deeper search
does not make the hidden information worth more (notebook 06;
``data/studies/klabberjass-sinking-realplay/alphamu-hiding.csv``).

>>> from solver.klabberjass.deal import Deal
>>> from analysis.play import play_deal
>>> deal = Deal.random(7)
>>> a = play_deal(deal.hands, deal.turn_suit, deal.turn, (AlphaMu(8, seed=1), AlphaMu(8, seed=2)))
>>> len(a.cards)
18
"""

from __future__ import annotations

import array
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from analysis.play import (
    PIMC_TT_MB,
    Hidden,
    PlayState,
    Stats,
    classes,
    hidden_of,
)
from solver.cards import card_count
from solver.errors import RulesError
from solver.klabberjass import engine
from solver.klabberjass._core import Core, sample_hands
from solver.klabberjass.position import Position
from solver.klabberjass.rules import SEED, Rules, beats, card_points, legal_replies, points_of
from solver.klabberjass.view import View

#: Worlds a decision by default.
DEFAULT_WORLDS = 20

#: Decisions of the player searched (μ) by default.
DEFAULT_DEPTH = 2

#: Most worlds a decision (the fronts are vectors over the worlds).
MAX_WORLDS = 1000


@dataclass
class AlphaMuStats(Stats):
    """:class:`analysis.play.Stats` plus what the αμ search did: ``nodes`` (its nodes
    above the leaves), ``leaves`` (world positions solved by the engine), ``cuts``
    (nodes or cards cut), ``tt_hits`` (fronts found in its table), ``depth_reached``
    (sum over decisions of the deepest finished iteration) and ``timeouts`` (decisions
    stopped by the time limit)."""

    nodes: int = 0
    leaves: int = 0
    cuts: int = 0
    tt_hits: int = 0
    depth_reached: int = 0
    timeouts: int = 0


@dataclass(frozen=True)
class Decision:
    """An αμ decision.

    Attributes:
        card: the card chosen.
        candidates: the first card of each class of equivalent legal cards.
        values: per candidate, the greatest total over the worlds of a vector of its
            front at the deepest finished iteration; None for a card not searched to
            the end there (cut: its value cannot beat the chosen card's).
        bounds: per candidate, an upper bound of its value at ``depth``: its value
            when it was searched to the end, else the least total an earlier
            iteration or its cut search found (a card's value never grows with depth;
            at depth 1, the PIMC total, or the chosen card's for a card PIMC dropped).
        fronts: per candidate, the size of its front (0 when cut).
        depth: the deepest finished iteration (μ).
        worlds: the worlds searched (the other hand in each: his known cards and
            those drawn).
    """

    card: int
    candidates: tuple[int, ...]
    values: tuple[int | None, ...]
    bounds: tuple[int, ...]
    fronts: tuple[int, ...]
    depth: int
    worlds: tuple[int, ...] = field(repr=False)


class _Timeout(Exception):
    pass


#: A value outside any vector (worlds of a front not yet covered).
_BIG = 1 << 20


#: Rows compared at once in the front reductions (bounds their memory).
_BLOCK = 256


def covered(
    rows: np.ndarray, by: np.ndarray, check: Callable[[], None] | None = None
) -> np.ndarray:
    """Per row of ``rows``, whether some row of ``by`` is >= it in every world
    (``check`` is called between blocks: the time limit)."""
    out = np.zeros(rows.shape[0], dtype=bool)
    if by.shape[0] == 0 or rows.shape[0] == 0:
        return out
    step = max(1, (_BLOCK * _BLOCK) // max(1, by.shape[0]))
    for i in range(0, rows.shape[0], step):
        if check is not None:
            check()
        part = rows[i : i + step]
        out[i : i + step] = np.any(np.all(by[None, :, :] >= part[:, None, :], axis=2), axis=1)
    return out


def pareto(front: np.ndarray, check: Callable[[], None] | None = None) -> np.ndarray:
    """The non-dominated rows of ``front`` (one of equal rows), greatest total first
    (``check`` is called between blocks: the time limit)."""
    k = front.shape[0]
    if k <= 1:
        return front
    order = np.argsort(-front.sum(axis=1), kind="stable")
    front = front[order]
    kept = front[:0]
    for i in range(0, k, _BLOCK):
        block = front[i : i + _BLOCK]
        block = block[~covered(block, kept, check)]
        if block.shape[0] > 1:
            # a row goes when an earlier row (total at least as great) is >= it everywhere
            ge = (block[:, None, :] >= block[None, :, :]).all(axis=2)
            block = block[~np.triu(ge, 1).any(axis=0)]
        kept = np.vstack([kept, block])
    return kept


def dominated(front: np.ndarray, by: np.ndarray) -> bool:
    """Whether every row of ``front`` is <= some row of ``by`` in every world."""
    return bool(covered(front, by).all())


class _Search:
    """One αμ decision: the constant part of every node and the table of fronts."""

    def __init__(
        self,
        core: Core,
        me: int,
        trump: int,
        bonus: int,
        opp_hands: list[int],
        deadline: float | None,
        stats: AlphaMuStats,
    ):
        self.core = core
        self.me = me
        self.trump = trump
        self.bonus = bonus
        self.opp = opp_hands
        self.opp_points = [points_of(h, trump) for h in opp_hands]
        self.deadline = deadline
        self.stats = stats
        self.table: dict[tuple, tuple[np.ndarray, int | None]] = {}

    # ------------------------------------------------------------ plays
    def _step(
        self, mine: int, gone: int, leader: int, trick: int, card: int
    ) -> tuple[int, int, int, int, int]:
        """The node after ``card`` (mover's): (mine, gone, leader, trick, the points the
        player takes with it). ``gone``: the other player's cards played below the root."""
        mover = leader if trick < 0 else 1 - leader
        if mover == self.me:
            mine &= ~(1 << card)
        else:
            gone |= 1 << card
        if trick < 0:
            return mine, gone, leader, card, 0
        winner = mover if beats(card, trick, self.trump) else leader
        pts = card_points(trick, self.trump) + card_points(card, self.trump)
        if not mine:
            pts += self.bonus
        return mine, gone, winner, -1, pts if winner == self.me else 0

    def _solve(self, nodes: list[tuple[int, int, int, int, list[int]]]) -> list[list[int]]:
        """For each node (mine, gone, leader, trick, worlds), the player's double-dummy
        points from there in each of its worlds, in one compiled call."""
        es, ds, leads, tricks = (
            array.array("Q"),
            array.array("Q"),
            array.array("b"),
            array.array("b"),
        )
        over = []
        for mine, gone, leader, trick, ws in nodes:
            done = not mine and trick < 0
            over.append(done)
            if done:
                continue
            for w in ws:
                other = self.opp[w] & ~gone
                if self.me == 0:
                    es.append(mine)
                    ds.append(other)
                else:
                    es.append(other)
                    ds.append(mine)
                leads.append(leader)
                tricks.append(trick)
        n = len(es)
        out = array.array("i", bytes(4 * n))
        if n:
            self.core.values(
                es, ds, array.array("b", [self.trump]) * n, leads, tricks, self.bonus, out
            )
            self.stats.leaves += n
        rows: list[list[int]] = []
        i = 0
        for (mine, gone, _leader, trick, ws), done in zip(nodes, over, strict=True):
            if done:
                rows.append([0] * len(ws))
                continue
            part = out[i : i + len(ws)]
            i += len(ws)
            if self.me == 0:
                rows.append(list(part))
            else:
                fixed = points_of(mine, self.trump) - points_of(gone, self.trump) + self.bonus
                if trick >= 0:
                    fixed += card_points(trick, self.trump)
                rows.append([fixed + self.opp_points[w] - v for w, v in zip(ws, part, strict=True)])
        return rows

    def _check_time(self) -> None:
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise _Timeout

    # ------------------------------------------------------------ nodes
    def node(
        self,
        mine: int,
        gone: int,
        leader: int,
        trick: int,
        ws: list[int],
        bits: int,
        depth: int,
        alpha: np.ndarray | None = None,
        init: np.ndarray | None = None,
        floor: int | None = None,
        best_only: bool = False,
    ) -> np.ndarray:
        """The front (rows: vectors over ``ws``) of a node: the player's points from
        here. ``depth``: his decisions left to search (0: solve double dummy).

        ``alpha``: a front the caller already holds (the node's rows it dominates do
        not matter to him); ``init``: the node's double-dummy values (an upper bound
        in each world); ``floor``: the caller needs only rows of a greater total. The
        rows the caller needs are all there; others may be missing. ``best_only``:
        the caller needs only the greatest total (the root): the other player's node
        then gives only a row of the greatest total above the floor, if any."""
        if not mine and trick < 0:
            return np.zeros((1, len(ws)), dtype=np.int64)
        if depth == 0:
            return np.array(self._solve([(mine, gone, leader, trick, ws)]), dtype=np.int64)
        key = (mine, gone, leader, trick, depth, bits)
        hit = self.table.get(key)
        # an entry holds every row of a total above its floor
        if hit is not None and (hit[1] is None or (floor is not None and floor >= hit[1])):
            self.stats.tt_hits += 1
            front = hit[0]
            return front if floor is None else front[front.sum(axis=1) > floor]
        self.stats.nodes += 1
        if self.stats.nodes & 63 == 0:
            self._check_time()
        mover = leader if trick < 0 else 1 - leader
        if mover == self.me:
            front = self._max_node(mine, gone, leader, trick, ws, bits, depth, floor)
            self.table[key] = (front, floor)
            return front
        front, exact = self._min_node(
            mine, gone, leader, trick, ws, depth, alpha, init, floor, best_only
        )
        if exact:
            self.table[key] = (front, floor)
        return front

    def _max_node(
        self,
        mine: int,
        gone: int,
        leader: int,
        trick: int,
        ws: list[int],
        bits: int,
        depth: int,
        floor: int | None,
    ) -> np.ndarray:
        others = 0
        for w in ws:
            others |= self.opp[w]
        others &= ~gone
        cands = self._candidates(mine, others, leader, trick)
        children = []
        for c in cands:
            m2, g2, l2, t2, pts = self._step(mine, gone, leader, trick, c)
            children.append((m2, g2, l2, t2, pts))
        rows = self._solve([(m, g, ld, t, ws) for m, g, ld, t, _ in children])
        bounds = np.array(rows, dtype=np.int64) + np.array([ch[4] for ch in children])[:, None]
        n = len(ws)
        if depth == 1:
            front = pareto(bounds)
            return front if floor is None else front[front.sum(axis=1) > floor]
        best = bounds.max(axis=0)
        order = sorted(range(len(cands)), key=lambda i: -int(bounds[i].sum()))
        front = np.empty((0, n), dtype=np.int64)
        for i in order:
            if floor is not None and int(bounds[i].sum()) <= floor:
                self.stats.cuts += 1
                break  # this card's bound and every later one's are too low
            if front.shape[0] and dominated(bounds[i : i + 1], front):
                self.stats.cuts += 1
                continue
            m2, g2, l2, t2, pts = children[i]
            alpha = front - pts if front.shape[0] else None
            sub_floor = None if floor is None else floor - pts * n
            sub = self.node(m2, g2, l2, t2, ws, bits, depth - 1, alpha, bounds[i] - pts, sub_floor)
            if sub.shape[0]:
                front = pareto(np.vstack([front, sub + pts]), self._check_time)
            if (front == best).all(axis=1).any():
                self.stats.cuts += 1
                break
        return front

    def _min_node(
        self,
        mine: int,
        gone: int,
        leader: int,
        trick: int,
        ws: list[int],
        depth: int,
        alpha: np.ndarray | None,
        init: np.ndarray | None,
        floor: int | None,
        best_only: bool = False,
    ) -> tuple[np.ndarray, bool]:
        """The front and whether it holds every row above ``floor`` (False once rows
        dominated by ``alpha`` were dropped, or with ``best_only``)."""
        # the worlds where each card of the other player may be played
        where: dict[int, list[int]] = {}
        for w in ws:
            hand = self.opp[w] & ~gone
            legal = hand if trick < 0 else legal_replies(hand, trick, self.trump)
            while legal:
                low = legal & -legal
                where.setdefault(low.bit_length() - 1, []).append(w)
                legal ^= low
        pos = {w: i for i, w in enumerate(ws)}
        n = len(ws)
        if init is None:
            init = np.array(self._solve([(mine, gone, leader, trick, ws)])[0], dtype=np.int64)
        # every row of the node is at most ``upper`` in each world: the node's double-dummy
        # value, then, world by world, the least over the cards searched of the greatest
        # value of the card's front there
        upper = init.copy()
        kids = []
        for c in sorted(where):
            m2, g2, l2, t2, pts = self._step(mine, gone, leader, trick, c)
            sub_ws = where[c]
            idx = np.array([pos[w] for w in sub_ws])
            # a row of this card ends at best as itself in its worlds and the bound in
            # the others: the rows that cannot reach the floor do not matter
            sub_floor = None
            if floor is not None:
                sub_floor = floor - (int(upper.sum()) - int(upper[idx].sum())) - pts * len(sub_ws)
            sub = self.node(m2, g2, l2, t2, sub_ws, _bits_of(sub_ws), depth, None, None, sub_floor)
            sub = sub + pts
            if sub.shape[0]:
                upper[idx] = np.minimum(upper[idx], sub.max(axis=0))
            if not sub.shape[0] or self._useless(upper[None, :], alpha, floor).all():
                # no row of the node can matter to the caller (the early cut)
                self.stats.cuts += 1
                return np.empty((0, n), dtype=np.int64), alpha is None
            kids.append((idx, sub))
        if best_only:
            return self._best_row(upper, kids, floor), False
        front = upper[None, :]
        exact = True
        for idx, sub in sorted(kids, key=lambda k: k[1].shape[0]):
            ext = np.broadcast_to(upper, (sub.shape[0], n)).copy()
            ext[:, idx] = np.minimum(sub, upper[idx])
            self._check_time()
            front = pareto(
                np.minimum(front[:, None, :], ext[None, :, :]).reshape(-1, n), self._check_time
            )
            # a row only decreases as cards are added: one the caller's front already
            # dominates, or below the total he needs, can never matter to him
            useless = self._useless(front, alpha, floor)
            if useless.any():
                exact = exact and (alpha is None or not covered(front, alpha).any())
                front = front[~useless]
                if not front.shape[0]:
                    self.stats.cuts += 1
                    return front, exact
        return front, exact

    def _best_row(
        self, upper: np.ndarray, kids: list[tuple[np.ndarray, np.ndarray]], floor: int | None
    ) -> np.ndarray:
        """The row of the greatest total above ``floor`` among every choice of one row
        of each card's front (world by world, the least), or none: depth first, best
        rows first, a partial choice dropped once its total (which further cards only
        lower) cannot beat the best found, so the product is never built."""
        kids = sorted(kids, key=lambda k: k[1].shape[0])
        best_total = -_BIG if floor is None else floor
        best: list[np.ndarray] = []
        steps = 0

        def deeper(j: int, cur: np.ndarray) -> None:
            nonlocal best_total, steps
            if j == len(kids):
                best_total = int(cur.sum())
                best[:] = [cur]
                return
            steps += 1
            if steps & 255 == 0:
                self._check_time()
            idx, rows = kids[j]
            mins = np.minimum(cur[idx][None, :], rows)
            totals = int(cur.sum()) - int(cur[idx].sum()) + mins.sum(axis=1)
            for r in np.argsort(-totals, kind="stable"):
                if totals[r] <= best_total:
                    break  # best first: the rest are no better
                nxt = cur.copy()
                nxt[idx] = mins[r]
                deeper(j + 1, nxt)

        deeper(0, upper.copy())
        return np.array(best, dtype=np.int64).reshape(len(best), upper.shape[0])

    @staticmethod
    def _useless(rows: np.ndarray, alpha: np.ndarray | None, floor: int | None) -> np.ndarray:
        """Per row, whether the caller's front dominates it or it is below his floor."""
        out = np.zeros(rows.shape[0], dtype=bool)
        if floor is not None:
            out |= rows.sum(axis=1) <= floor
        if alpha is not None:
            out |= covered(rows, alpha)
        return out

    def _candidates(self, mine: int, others: int, leader: int, trick: int) -> list[int]:
        hands = (mine, others) if self.me == 0 else (others, mine)
        p = Position(self.trump, leader, hands, None if trick < 0 else trick, _checked=True)
        return [k[0] for k in classes(p, Hidden(0, others, 0))]


def _bits_of(ws: list[int]) -> int:
    bits = 0
    for w in ws:
        bits |= 1 << w
    return bits


def search(
    position: Position,
    hidden: Hidden,
    candidates: list[int],
    worlds: list[int],
    depth: int | None = DEFAULT_DEPTH,
    rules: Rules = SEED,
    *,
    core: Core | None = None,
    deadline: float | None = None,
    stats: AlphaMuStats | None = None,
    every: bool = False,
) -> Decision:
    """One αμ decision for the seat to move of ``position`` (the other hand there is
    ignored) over ``worlds`` (each the other hand's cards drawn from ``hidden.pool``;
    his hand is ``hidden.known`` plus them).

    Args:
        candidates: the cards to choose from (legal; the first of each class of
            equivalent cards), in the order that breaks ties.
        depth: decisions of the player searched (μ, at least 1; None: to the end).
        core: the engine's search context (default: that of :class:`AlphaMu`).
        deadline: ``time.monotonic()`` time after which the deepest finished iteration
            decides.
        stats: counters to add to.
        every: search every candidate to the end at each depth (no root cut), so
            that every value is exact (for advice).

    Returns:
        The decision (:class:`Decision`).
    """
    core = core if core is not None else engine.core(PIMC_TT_MB)
    stats = stats if stats is not None else AlphaMuStats()
    me = position.to_move
    trick = -1 if position.trick is None else position.trick
    mine = position.hands[me]
    opp = [hidden.known | w for w in worlds]
    n = len(worlds)
    # the player decides at most once a trick: as many decisions as his cards reach the end
    last = card_count(mine) if depth is None else min(depth, card_count(mine))
    chosen, _sums, searches, rows = core.pimc(
        mine, hidden.known, hidden.pool, hidden.need, n, 0, position.trump, position.lead,
        trick, rules.last_trick, candidates, exact=True, worlds=worlds,
    )  # fmt: skip
    stats.searches += searches
    assert rows is not None  # asked for (exact)
    upper = [int(sum(r[i] for r in rows)) for i in range(len(candidates))]
    values: list[int | None] = list(upper)
    fronts = [1] * len(candidates)
    reached = 1
    s = _Search(core, me, position.trump, rules.last_trick, opp, deadline, stats)
    pimc_rows = np.array(rows, dtype=np.int64).T  # candidate by world
    for d in range(2, last + 1):
        try:
            found = _root(s, mine, candidates, position.lead, trick, d, upper, pimc_rows, every)
        except _Timeout:
            stats.timeouts += 1
            break
        values, fronts, chosen, tops = found
        upper = [min(u, t) if t is not None else u for u, t in zip(upper, tops, strict=True)]
        reached = d
    stats.depth_reached += reached
    return Decision(
        candidates[chosen],
        tuple(candidates),
        tuple(values),
        tuple(upper),
        tuple(fronts),
        reached,
        tuple(opp),
    )


def _root(
    s: _Search,
    mine: int,
    candidates: list[int],
    leader: int,
    trick: int,
    depth: int,
    prev: list[int],
    pimc_rows: np.ndarray,
    every: bool,
) -> tuple[list[int | None], list[int], int, list[int | None]]:
    """One iteration at the root: each candidate's value at ``depth`` (None: cut), its
    front size, the index chosen and each candidate's best total found (an upper bound
    of its value when cut; None when not searched). ``prev``: each candidate's upper
    bound from the iterations before."""
    k = len(candidates)
    n = pimc_rows.shape[1]
    ws = list(range(n))
    bits = (1 << n) - 1
    values: list[int | None] = [None] * k
    tops: list[int | None] = [None] * k
    fronts = [0] * k
    # best bound first; among equals, notation (candidate) order
    order = sorted(range(k), key=lambda i: (-prev[i], i))
    best, chosen = None, order[0]
    for i in order:
        if not every and best is not None and (prev[i] < best or (prev[i] == best and i > chosen)):
            s.stats.cuts += 1
            continue
        m2, g2, l2, t2, pts = s._step(mine, 0, leader, trick, candidates[i])
        need = None
        if not every and best is not None:
            # a card after the best in notation order must beat its total, one before may tie
            need = best - 1 if i < chosen else best
        # only the greatest total of the card's front matters here: rows at or below a
        # floor are dropped as they appear (aspiration: a floor just below its bound
        # first, lowered if no row stays above it)
        window = n
        while True:
            floor = need
            if not every and window < _BIG:
                floor = max(need if need is not None else -_BIG, prev[i] - window)
            sub_floor = None if floor is None else floor - pts * n
            front = s.node(
                m2, g2, l2, t2, ws, bits, depth - 1, None, pimc_rows[i] - pts, sub_floor,
                best_only=not every,
            )  # fmt: skip
            if front.shape[0] or floor == need:
                break
            window = window * 8 if window * 8 < 40 * n * 8 else _BIG
        front = front + pts
        fronts[i] = front.shape[0]
        if not front.shape[0]:  # every row fell to the floor
            assert floor is not None
            tops[i] = floor
            continue
        total = int(front.sum(axis=1).max())
        tops[i] = total
        if need is not None and total <= need:
            continue  # no better than the best: its exact value is not needed
        values[i] = total
        if best is None or total > best or (total == best and i < chosen):
            best, chosen = total, i
    return values, fronts, chosen, tops


class AlphaMu:
    """αμ from the player's own information (:class:`analysis.play.PlayState` less the
    other hand), a card-play policy like :class:`analysis.play.Pimc`.

    Args:
        worlds: worlds a decision (drawn as :class:`analysis.play.Pimc` draws them:
            the same seed gives the same worlds).
        depth: decisions of the player searched (μ, at least 1; None: to the end of
            the play). 1 is PIMC.
        seed: seed of the worlds (an int, or a ``random.Random`` to draw from); each
            searched decision takes the next 64 bits.
        time_limit: seconds a decision (None: no limit); when it runs out, the card of
            the deepest finished iteration is played.
        tt_mb: MB of the engine's transposition table (default that of PIMC).

    Raises:
        RulesError: a budget out of range (the message quotes it).
    """

    def __init__(
        self,
        worlds: int = DEFAULT_WORLDS,
        depth: int | None = DEFAULT_DEPTH,
        seed: int | random.Random | None = None,
        time_limit: float | None = None,
        tt_mb: int | None = None,
    ):
        check_budget(worlds, depth, time_limit)
        self.worlds = worlds
        self.depth = depth
        self.time_limit = time_limit
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        self.core = engine.core(PIMC_TT_MB if tt_mb is None else tt_mb)
        self.stats = AlphaMuStats()

    def choose(self, state: PlayState) -> int:
        """The card for the seat to move; forced and all-equivalent choices unsearched."""
        p = state.position
        hidden = hidden_of(state)
        ks = classes(p, hidden)
        if len(ks) == 1:
            return ks[0][0]
        return self.decide(p, hidden, [k[0] for k in ks], state.rules).card

    def decide(
        self, p: Position, hidden: Hidden, candidates: list[int], rules: Rules = SEED
    ) -> Decision:
        """Search one decision over fresh worlds (the next seed)."""
        seed = self.rng.getrandbits(64)
        worlds = sample_hands(hidden.pool, hidden.need, self.worlds, seed)
        deadline = None if self.time_limit is None else time.monotonic() + self.time_limit
        if self.depth == 1:  # PIMC: one compiled call, the same choice
            trick = -1 if p.trick is None else p.trick
            i, sums, searches, _ = self.core.pimc(
                p.hands[p.to_move], hidden.known, hidden.pool, hidden.need, self.worlds,
                seed, p.trump, p.lead, trick, rules.last_trick, candidates,
            )  # fmt: skip
            self.stats.searches += searches
            self._count(1)
            vals: tuple[int | None, ...] = tuple(int(x) if x >= 0 else None for x in sums)
            bounds = tuple(int(x) if x >= 0 else int(sums[i]) for x in sums)
            return Decision(candidates[i], tuple(candidates), vals, bounds, (1,) * len(bounds),
                            1, tuple(hidden.known | w for w in worlds))  # fmt: skip
        d = search(
            p, hidden, candidates, worlds, self.depth, rules,
            core=self.core, deadline=deadline, stats=self.stats,
        )  # fmt: skip
        self._count(0)
        return d

    def _count(self, depth: int) -> None:
        self.stats.decisions += 1
        self.stats.worlds += self.worlds
        self.stats.depth_reached += depth

    def choose_view(self, view: View, rules: Rules = SEED) -> int:
        """The card for a :class:`solver.klabberjass.View` (its seat is to move)."""
        return decide_view(view, self, rules).card


def hidden_of_view(view: View) -> tuple[Position, Hidden]:
    """The position (the other hand as drawn by the view, ignored by the search) and
    what the viewer knows of the other hand."""
    inf = view.inference()
    _opp, _, size, known, _forbidden = inf.hidden[0]
    return inf.position, Hidden(known, inf.pool, size - card_count(known))


def decide_view(
    view: View, player: AlphaMu | None = None, rules: Rules = SEED, every: bool = False
) -> Decision:
    """The αμ decision for a :class:`solver.klabberjass.View` (its seat is to move).

    Args:
        view: what the seat to move knows.
        player: the budget and seed (default ``AlphaMu()``).
        rules: the rules (the last-trick bonus).
        every: search every card to the end at each depth, so that every value is
            exact (slower; for advice).

    >>> v = View.parse("seat=E trump=H turn=JH hand=AT9.KQ.A.AT played=7S,8D")
    >>> d = decide_view(v, AlphaMu(10, depth=2, seed=1))
    >>> v.inference().position.legal_set() >> d.card & 1, d.depth
    (1, 2)
    """
    player = player if player is not None else AlphaMu()
    p, hidden = hidden_of_view(view)
    ks = classes(p, hidden)
    cands = [k[0] for k in ks]
    if not every:
        return player.decide(p, hidden, cands, rules)
    seed = player.rng.getrandbits(64)
    worlds = sample_hands(hidden.pool, hidden.need, player.worlds, seed)
    deadline = None if player.time_limit is None else time.monotonic() + player.time_limit
    return search(
        p, hidden, cands, worlds, player.depth, rules,
        core=player.core, deadline=deadline, stats=player.stats, every=True,
    )  # fmt: skip


def check_budget(worlds: int, depth: int | None, time_limit: float | None) -> None:
    """Check an αμ budget.

    Raises:
        RulesError: worlds not 1 to :data:`MAX_WORLDS`, depth not a whole number of at
            least 1 (or None), time limit not a positive number of seconds.

    >>> check_budget(20, 0, None)
    Traceback (most recent call last):
    ...
    solver.errors.RulesError: invalid depth 0 (a whole number of decisions, at least 1)
    """
    if isinstance(worlds, bool) or not isinstance(worlds, int) or not 1 <= worlds <= MAX_WORLDS:
        raise RulesError(f"invalid worlds {worlds!r} (1 to {MAX_WORLDS})")
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 1):
        raise RulesError(f"invalid depth {depth!r} (a whole number of decisions, at least 1)")
    if time_limit is not None and not (
        isinstance(time_limit, (int, float)) and not isinstance(time_limit, bool) and time_limit > 0
    ):
        raise RulesError(f"invalid time_limit {time_limit!r} (seconds, more than 0)")


__all__ = [
    "DEFAULT_DEPTH",
    "DEFAULT_WORLDS",
    "MAX_WORLDS",
    "AlphaMu",
    "AlphaMuStats",
    "Decision",
    "check_budget",
    "covered",
    "decide_view",
    "dominated",
    "hidden_of_view",
    "pareto",
    "search",
]
