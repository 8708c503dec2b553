"""Carabin card play by αμ search (Cazenave and Ventos, 2020), the boolean original:
single-dummy play that does not pretend to see the cards in later decisions, as PIMC
(:class:`analysis.play.CarabinPimc`) does.

The seat to move draws ``worlds`` worlds consistent with what he has seen, as
:class:`analysis.play.CarabinPimc` draws them (the same seed gives the same worlds).
In each world the outcome is a boolean: 1 when his *side* gets what it wants (the
bidder: the contract made; a member of the coalition: the contract failed), 0 else.
He searches his own tree over those worlds for ``depth`` of his own decisions (μ),
playing one card for every world still consistent with what he has seen at each of
them; below that depth each world is solved double dummy by the engine's make probe
(:func:`solver.carabin.engine.make`, or :func:`~solver.carabin.engine.all_tricks` for
a chelem). Every other seat is assumed to see every card, as αμ assumes: in each world
an opponent plays the card worst for the mover's side and a partner (another member of
the coalition, when the mover is in it) the card best for it.

**Values.** The value of a node is a *Pareto front* of 0/1 vectors over the worlds
alive there, reduced by :func:`analysis.alphamu.pareto` (the front machinery is that of
the Klabberjass search, :mod:`analysis.alphamu`). At the mover's nodes the fronts of his
cards are united (one card for all the worlds); at an opponent's node each of his cards
keeps the worlds where it is in his hand in use, and the fronts of his cards are
combined by the minimum, world by world, over every choice of one vector per card; at
a partner's node by the maximum. At the root the mover plays the card whose front holds
the vector with the most worlds won; ties go to the card printed first (notation
order), as in PIMC. With ``depth=1`` the choice is that of
:class:`~analysis.play.CarabinPimc` on the same worlds; with enough depth to reach the
end of the play it is the mover's best pure strategy against the best play of the
others in each world (the tests check both, the latter against an enumeration of his
strategies).

What keeps it affordable (each cut leaves the choice unchanged):

- at each of the mover's nodes every card is solved double dummy in every world; that
  vector bounds the card's front from above (a deeper search can only take later
  per-world choices away from him). Cards are searched best bound first; a card whose
  bound is dominated by the front found so far is not searched, and the search stops
  once the front holds the per-world maximum. At his last decision (μ = 1) those
  vectors are the fronts.
- the node below one of his cards starts from its double-dummy vector (an upper bound)
  and stops as soon as every vector of its front is dominated by the front his node has
  already found (the early cut of αμ).
- at the root, searched by iterative deepening (μ = 1, 2, …): a card's value at μ is at
  most its value at μ − 1, so a card whose previous value cannot beat the best card
  found at this depth is not searched (the root cut).
- equivalent cards of the mover (:func:`analysis.play.carabin_classes`) are searched
  once; the double-dummy answers are kept for the decision (a position reached by two
  orders of the same cards is solved once).

**Budget.** ``worlds``, ``depth`` (μ, counted in the mover's own decisions; None: to
the end of the play) and ``time_limit`` (seconds a decision): when the time runs out
the card of the deepest finished iteration is played (μ = 1, PIMC's, always finishes
first). The default (20 worlds, μ = 2, at most 2 s) keeps a decision at 3 players
well under a second on average (``tricklab bench carabin --what alphamu``).

>>> from solver.carabin import Deal
>>> from analysis.bidding.carabin import Contract
>>> from analysis.play import play_carabin
>>> deal = Deal.random(players=3, rng=random.Random(5))
>>> p = CarabinAlphaMu(6, depth=2, seed=1)
>>> played = play_carabin(deal, Contract(0, deal.turn // 16), [p, p, p])
>>> len(played.cards)
24
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

import numpy as np

from analysis.alphamu import AlphaMuStats, covered, dominated, pareto
from analysis.play import (
    CarabinInference,
    CarabinState,
    carabin_classes,
    carabin_hidden,
    carabin_worlds,
)
from solver.carabin import engine as carabin_engine
from solver.carabin.position import Position
from solver.carabin.view import View
from solver.cards import card_count
from solver.errors import RulesError

#: Worlds a decision by default.
DEFAULT_WORLDS = 20

#: Decisions of the mover searched (μ) by default.
DEFAULT_DEPTH = 2

#: Seconds a decision by default (then the deepest finished iteration decides).
DEFAULT_TIME_LIMIT = 2.0

#: Most worlds a decision.
MAX_WORLDS = 1000


@dataclass(frozen=True)
class Decision:
    """A Carabin αμ decision.

    Attributes:
        card: the card chosen.
        candidates: the first card of each class of equivalent legal cards.
        values: per candidate, the most worlds won by a vector of its front at the
            deepest finished iteration; None for a card cut there (its value cannot
            beat the chosen card's).
        bounds: per candidate, an upper bound of its value: its value when searched,
            else its value at an earlier iteration (a value never grows with depth).
        depth: the deepest finished iteration (μ).
        worlds: the worlds searched (positions of the same public state).
    """

    card: int
    candidates: tuple[int, ...]
    values: tuple[int | None, ...]
    bounds: tuple[int, ...]
    depth: int
    worlds: tuple[Position, ...] = field(repr=False)


class _Timeout(Exception):
    pass


@dataclass(frozen=True)
class _Node:
    """The worlds alive at a node (positions of one public state) and the public
    score: the bidder's points so far and whether he has lost a trick."""

    worlds: tuple[Position, ...]
    ws: np.ndarray  # their indices among the root's worlds
    points: int
    lost: bool

    def step(self, card: int, keep: list[int] | None = None) -> _Node:
        """The node after ``card``, in the worlds ``keep`` (indices here; all: None)."""
        idx = range(len(self.worlds)) if keep is None else keep
        out, winner, pts = [], None, 0
        for i in idx:
            child, winner, pts = self.worlds[i].step(card)
            out.append(child)
        points, lost = self.points, self.lost
        bidder = self.worlds[0].bidder
        if winner is not None:
            if winner == bidder:
                points += pts
            else:
                lost = True
        ws = self.ws if keep is None else self.ws[keep]
        return _Node(tuple(out), ws, points, lost)


class _Search:
    """One αμ decision: the mover, the contract and the double-dummy answers."""

    def __init__(
        self,
        me: int,
        chelem: bool,
        targets: list[int],
        deadline: float | None,
        stats: AlphaMuStats,
    ):
        self.me = me
        self.chelem = chelem
        self.targets = targets
        self.deadline = deadline
        self.stats = stats
        self.solved: dict[tuple[Position, int, bool, int], bool] = {}

    def side(self, seat: int, bidder: int) -> bool:
        """Whether ``seat`` is on the mover's side."""
        return seat == self.me or (seat != bidder and self.me != bidder)

    def _check_time(self) -> None:
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise _Timeout

    def made(self, world: Position, points: int, lost: bool, target: int) -> bool:
        """Whether the contract is made from ``world`` (double dummy) when the bidder
        has ``points`` so far, ``lost`` says whether he has lost a trick, and he needs
        ``target`` points in all."""
        if self.chelem:
            if lost:
                return False
            if world.is_over:
                return True
        else:
            need = target - points
            if need <= 0:
                return True
            if world.is_over or need > world.points_left():
                return False
        key = (world, points, lost, target)
        hit = self.solved.get(key)
        if hit is None:
            self.stats.leaves += 1
            if self.chelem:
                hit = carabin_engine.all_tricks(world)
            else:
                hit = carabin_engine.make(world, target - points)
            self.solved[key] = hit
        return hit

    def leaf(self, node: _Node) -> np.ndarray:
        """Per world of ``node``: 1 when the mover's side gets what it wants (double dummy)."""
        bidder_moves = self.me == node.worlds[0].bidder
        return np.array(
            [
                self.made(w, node.points, node.lost, self.targets[i]) == bidder_moves
                for w, i in zip(node.worlds, node.ws, strict=True)
            ],
            dtype=np.int64,
        )

    def node(self, node: _Node, depth: int, alpha: np.ndarray | None = None) -> np.ndarray:
        """The front (rows: 0/1 vectors over the node's worlds). ``depth``: the mover's
        decisions left to search (0: solve double dummy). ``alpha``: a front the caller
        already holds (rows it dominates do not matter to him and may be missing or
        overstated)."""
        first = node.worlds[0]
        if depth == 0 or first.is_over:
            return self.leaf(node)[None, :]
        self._check_time()
        self.stats.nodes += 1
        if first.to_move == self.me:
            return self._mover(node, depth)
        return self._other(node, depth, alpha)

    def _candidates(self, node: _Node) -> list[int]:
        first = node.worlds[0]
        pool = 0
        for w in node.worlds:
            for s, (left, right) in enumerate(w.hands):
                if s != self.me:
                    pool |= left | right
        return [k[0] for k in carabin_classes(first, pool)]

    def _mover(self, node: _Node, depth: int) -> np.ndarray:
        cands = self._candidates(node)
        children = [node.step(c) for c in cands]
        bounds = np.array([self.leaf(ch) for ch in children], dtype=np.int64)
        if depth == 1:
            return pareto(bounds)
        best = bounds.max(axis=0)
        order = sorted(range(len(cands)), key=lambda i: -int(bounds[i].sum()))
        front = np.empty((0, len(node.worlds)), dtype=np.int64)
        for i in order:
            if front.shape[0] and dominated(bounds[i : i + 1], front):
                self.stats.cuts += 1
                continue
            sub = self.node(children[i], depth - 1, front if front.shape[0] else None)
            front = pareto(np.vstack([front, sub]), self._check_time)
            if (front == best).all(axis=1).any():
                self.stats.cuts += 1
                break
        return front

    def _other(self, node: _Node, depth: int, alpha: np.ndarray | None) -> np.ndarray:
        first = node.worlds[0]
        mover = first.to_move
        friend = self.side(mover, first.bidder)
        n = len(node.worlds)
        upper = self.leaf(node)
        if alpha is not None and dominated(upper[None, :], alpha):
            self.stats.cuts += 1
            return upper[None, :]  # nothing below can matter to the caller
        # the worlds where each card of the seat to move is in his hand in use
        where: dict[int, list[int]] = {}
        for i, w in enumerate(node.worlds):
            legal = w.legal_set()
            while legal:
                low = legal & -legal
                where.setdefault(low.bit_length() - 1, []).append(i)
                legal ^= low
        # a partner picks the best card in each world (from 0), an opponent the worst
        # (from the node's double-dummy value, above every vector)
        front = (np.zeros(n, dtype=np.int64) if friend else upper)[None, :]
        for c in sorted(where):
            idx = where[c]
            sub = self.node(node.step(c, idx), depth)
            base = np.zeros(n, dtype=np.int64) if friend else upper
            ext = np.broadcast_to(base, (sub.shape[0], n)).copy()
            ext[:, idx] = sub
            pairs = (np.maximum if friend else np.minimum)(front[:, None, :], ext[None, :, :])
            front = pareto(pairs.reshape(-1, n), self._check_time)
            if not friend and alpha is not None and covered(front, alpha).all():
                self.stats.cuts += 1
                return front  # rows only decrease from here: none can matter (early cut)
        return front


def search(
    state: CarabinState,
    candidates: list[int],
    worlds: list[Position],
    depth: int | None = DEFAULT_DEPTH,
    *,
    deadline: float | None = None,
    stats: AlphaMuStats | None = None,
    every: bool = False,
) -> Decision:
    """One αμ decision for the seat to move of ``state`` over ``worlds``.

    Args:
        state: the contract being played (the score so far; its position's hidden
            hands are ignored).
        candidates: the cards to choose from (legal; the first of each class of
            equivalent cards), in the order that breaks ties.
        worlds: positions of the state's public history, one per world.
        depth: decisions of the mover searched (μ, at least 1; None: to the end).
        deadline: ``time.monotonic()`` time after which the deepest finished iteration
            decides.
        stats: counters to add to.
        every: search every candidate at each depth (no root cut), so that every
            value is exact (for advice).

    Returns:
        The decision (:class:`Decision`).
    """
    targets = [state.points_in_play // 2 + 1] * len(worlds)
    return _decide(
        worlds, candidates, depth, state.chelem, state.bidder_points, state.bidder_lost,
        targets, deadline, stats if stats is not None else AlphaMuStats(), every,
    )  # fmt: skip


def _decide(
    worlds: list[Position],
    candidates: list[int],
    depth: int | None,
    chelem: bool,
    points: int,
    lost: bool,
    targets: list[int],
    deadline: float | None,
    stats: AlphaMuStats,
    every: bool,
) -> Decision:
    """:func:`search` given the score so far (``points``, ``lost``) and the points the
    bidder needs in all in each world (``targets``)."""
    me = worlds[0].to_move
    s = _Search(me, chelem, targets, deadline, stats)
    root = _Node(tuple(worlds), np.arange(len(worlds)), points, lost)
    children = [root.step(c) for c in candidates]
    rows = [s.leaf(ch) for ch in children]
    upper = [int(r.sum()) for r in rows]
    values: list[int | None] = list(upper)
    chosen = _first_best(values)
    mine = worlds[0].hands[me]
    last = card_count(mine[0] | mine[1])
    last = last if depth is None else min(depth, last)
    reached = 1
    for d in range(2, last + 1):
        try:
            found = _root(s, children, d, upper, every)
        except _Timeout:
            stats.timeouts += 1
            break
        values = found
        upper = [v if v is not None else u for v, u in zip(values, upper, strict=True)]
        chosen = _first_best(values)
        reached = d
    stats.depth_reached += reached
    stats.decisions += 1
    stats.worlds += len(worlds)
    return Decision(
        candidates[chosen], tuple(candidates), tuple(values), tuple(upper), reached, tuple(worlds)
    )


def _first_best(values: list[int | None]) -> int:
    """The index of the greatest value, the first of equals."""
    best = max(v for v in values if v is not None)
    return next(i for i, v in enumerate(values) if v == best)


def _root(
    s: _Search, children: list[_Node], depth: int, prev: list[int], every: bool
) -> list[int | None]:
    """One iteration at the root: each candidate's value at ``depth`` (None: cut, as
    it cannot beat the best). ``prev``: each candidate's value at the depth before."""
    k = len(children)
    values: list[int | None] = [None] * k
    order = sorted(range(k), key=lambda i: (-prev[i], i))
    best, chosen = -1, -1
    for i in order:
        if not every and (prev[i] < best or (prev[i] == best and i > chosen)):
            s.stats.cuts += 1
            continue
        front = s.node(children[i], depth - 1)
        total = int(front.sum(axis=1).max())
        values[i] = total
        if total > best or (total == best and i < chosen):
            best, chosen = total, i
    return values


class CarabinAlphaMu:
    """αμ for Carabin from the mover's own information, a card-play policy like
    :class:`analysis.play.CarabinPimc` (same worlds for the same seed).

    Args:
        worlds: worlds a decision.
        depth: decisions of the mover searched (μ, at least 1; None: to the end of
            the play). 1 is PIMC (one compiled call, :func:`solver.carabin.engine.pimc`).
        seed: seed of the worlds (an int, or a ``random.Random`` to draw from); each
            searched decision takes the next 64 bits.
        time_limit: seconds a decision (None: no limit); when it runs out, the card of
            the deepest finished iteration is played.
        inference: read the auction, as :class:`analysis.play.CarabinPimc` does.

    Raises:
        RulesError: a budget out of range (the message quotes it).
    """

    def __init__(
        self,
        worlds: int = DEFAULT_WORLDS,
        depth: int | None = DEFAULT_DEPTH,
        seed: int | random.Random | None = None,
        time_limit: float | None = DEFAULT_TIME_LIMIT,
        inference: CarabinInference | None = None,
    ):
        check_budget(worlds, depth, time_limit)
        self.worlds = worlds
        self.depth = depth
        self.time_limit = time_limit
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        self.inference = inference
        self.stats = AlphaMuStats()

    def choose(self, state: CarabinState) -> int:
        """The card for the seat to move; forced and all-equivalent choices unsearched."""
        d = self.decide(state)
        return d.card

    def decide(self, state: CarabinState, every: bool = False) -> Decision:
        """Search one decision over fresh worlds (the next seed; a decision with one
        class of equivalent cards takes none and is not searched)."""
        ks = carabin_classes(state.position, carabin_hidden(state)[0])
        cands = [k[0] for k in ks]
        if len(cands) == 1:
            return Decision(cands[0], tuple(cands), (None,), (0,), 0, ())
        seed = self.rng.getrandbits(64)
        worlds = carabin_worlds(state, self.worlds, seed, self.inference, self.stats, None)
        if self.depth == 1 and not every:
            target = None if state.chelem else state.points_in_play // 2 + 1 - state.bidder_points
            choice = carabin_engine.pimc(worlds, cands, target, lost=state.bidder_lost)
            self.stats.searches += choice.searches
            self.stats.decisions += 1
            self.stats.worlds += self.worlds
            self.stats.depth_reached += 1
            return Decision(choice.card, tuple(cands), (None,) * len(cands),
                            (0,) * len(cands), 1, tuple(worlds))  # fmt: skip
        deadline = None if self.time_limit is None else time.monotonic() + self.time_limit
        return search(
            state, cands, worlds, self.depth, deadline=deadline, stats=self.stats, every=every
        )


def decide_view(view: View, player: CarabinAlphaMu | None = None, every: bool = False) -> Decision:
    """The αμ decision for a :class:`solver.carabin.View` (its seat is to move) of a
    plain contract (more than half the points in play). Not every card is dealt, so the
    points in play, and the bidder's target, are those of each world.

    Args:
        view: what the seat to move knows.
        player: the budget and seed (default ``CarabinAlphaMu()``); its worlds are the
            view's (:meth:`solver.carabin.View.sample_worlds`, one seed a decision).
        every: search every card at each depth, so that every value is exact (advice).

    >>> v = View.parse("players=3 seat=0 bidder=0 trump=S turn=2C hand=AKQJ.../T987...")
    >>> d = decide_view(v, CarabinAlphaMu(6, depth=2, seed=1))
    >>> v.inference().position.legal_set() >> d.card & 1, d.depth
    (1, 2)
    """
    player = player if player is not None else CarabinAlphaMu()
    inf = view.inference()
    pool = inf.pool
    cands = [k[0] for k in carabin_classes(inf.position, pool)]
    worlds = view.sample_worlds(player.worlds, player.rng.getrandbits(64))
    (won_b, won_o), clean = view.tricks_won()
    targets = [(won_b + won_o + w.points_left()) // 2 + 1 for w in worlds]
    deadline = None if player.time_limit is None else time.monotonic() + player.time_limit
    return _decide(
        worlds, cands, player.depth, False, won_b, not clean, targets, deadline, player.stats,
        every,
    )  # fmt: skip


def check_budget(worlds: int, depth: int | None, time_limit: float | None) -> None:
    """Check a Carabin αμ budget.

    Raises:
        RulesError: worlds not 1 to :data:`MAX_WORLDS`, depth not a whole number of at
            least 1 (or None), time limit not a positive number of seconds.

    >>> check_budget(20, 2, -1)
    Traceback (most recent call last):
    ...
    solver.errors.RulesError: invalid time_limit -1 (seconds, more than 0)
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
    "DEFAULT_TIME_LIMIT",
    "DEFAULT_WORLDS",
    "MAX_WORLDS",
    "CarabinAlphaMu",
    "Decision",
    "check_budget",
    "decide_view",
    "search",
]
