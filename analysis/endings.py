"""Exact card play for small Klabberjass endings in which the player to move does not
see the other hand: the best strategy against a defender who sees everything, and what
perfect-information Monte Carlo (PIMC) loses to *strategy fusion*.

The model:

- The *mover* (the seat to move at the root) knows his hand, every card played and what
  that shows (voids), and a set ``W`` of possible *worlds*: each world is one hand of
  the other player. The worlds are equally likely: every world consistent with a
  :class:`~solver.klabberjass.View`, or a list given explicitly.
- The other player (the *defender*) sees everything: the world, the mover's hand and
  the mover's whole strategy. In each world he plays the best reply to that strategy
  (the model the alpha-mu search uses).
- The mover commits to one card per *information set*: what he has seen since the
  root, that is the cards played since then, in order (his hand is the same in every
  world, and the defender's cards tell the worlds apart). A *strategy* is a mapping
  from information sets (:data:`History`, the cards played since the root) to cards.
- The value of a strategy ``s`` is the mean over ``W`` of the mover's points in that
  world when the defender replies best: card points of the remaining tricks (the
  unfinished one included) plus the last-trick bonus, exactly as
  :mod:`solver.klabberjass.engine` counts them. With one world this is the
  double-dummy value.
- The exact solution is ``max over s of (1/|W|) * sum over w of min over the
  defender's plays in w``: the best strategy, its first card and its value.

Why the recursion is over *sets of vectors*, not over numbers: the defender minimises
in each world separately, after the mover has committed. A strategy from a node is, at
the mover's node, a card and a strategy from the node it leads to; at the defender's
node, an independent sub-strategy below each card he may play (the defender's card is
seen, so those are different information sets). Its value in world ``w`` at a defender's node is the minimum, over
the cards ``w`` allows him, of the sub-strategies' values in ``w``. The sum over the
worlds of those minima does not split into one best sub-strategy per card: the
defender sends each world to the card worst for the mover, so which worlds a
sub-strategy must serve depends on the others (PIMC's error is the opposite one: it
lets the mover choose per world). So every node returns the set of *value vectors*
(one number per world that reaches the node) of its strategies; by induction on the
cards left it is exactly the set of the vectors of every strategy from the node:

- at the end of play, the zero vector;
- at the mover's node, the union over his cards of the child's vectors (plus the
  points of the trick the card completes, the same in every world);
- at the defender's node, for every choice of one vector per card he may play, the
  vector whose entry for world ``w`` is the minimum over the cards ``w`` allows
  (plus the trick's points).

The root's value is the greatest sum over its vectors. This is the definition unrolled,
so it is exact; the only shortcut is to drop a vector that another vector of the same
node matches or beats in every world (``prune``): every later step (adding points,
taking minima, unions, the final sum) is monotone in each entry, so a dominated vector
never gives a better root value than its dominator. ``prune=False`` keeps every
distinct vector (tests compare both and a brute-force enumeration of every pure
strategy, :func:`pure_strategies` and :func:`strategy_values`).

This is the slow reference: it is exhaustive, so :func:`solve_worlds` and
:func:`solve_ending` take endings of at most :data:`MAX_ENDING_CARDS` cards in each
hand and :data:`MAX_ENDING_WORLDS` worlds, and refuse larger ones with a
:class:`~solver.errors.RulesError` that quotes the position.

PIMC over every world (:attr:`Ending.pimc_card`) plays the card of the greatest total
double-dummy points over ``W`` (ties: the card printed first, as
:class:`analysis.play.Pimc`); it is exposed to strategy fusion because each world's
double-dummy value lets the mover play differently in worlds he cannot tell apart.
:attr:`Ending.pimc_total` is the exact value of the best strategy that starts with
PIMC's card (an upper bound on what PIMC gets), :attr:`Ending.pimc_play_total` that of
PIMC choosing every card of the ending (each time over the worlds still possible).

An example: E holds the K of spades and the T and 8 of clubs, diamonds are trump, and
he holds four hands of D possible, equally likely. Double dummy the king scores most
(126 points over the four worlds, the 8 of clubs 124), but after the king and a small
spade from D he cannot tell the three worlds left apart: the best he can do after the
king is 116, while the 8 of clubs first scores 124:

>>> from solver.klabberjass import View
>>> view = View.parse("seat=E trump=D turn=8S hand=K...T8 "
...                   "played=QH,KH,8D,QD,TS,QS,AD,JD,KD,7D,7H,JH")
>>> e = solve_ending(view, ["...KQ7", "7.AT..", "J7...J", "7...QJ"])
>>> e.card, e.total, e.value, e.moves
(8C, 124, 31.0, {KS: 116, TC: 112, 8C: 124})
>>> e.pimc_card, e.dd_totals, e.pimc_total, e.fusion
(KS, {KS: 126, TC: 116, 8C: 124}, 116, True)
>>> strategy_values(e.worlds, e.strategy), strategy_values(e.worlds, e.pimc_strategy)
([27, 45, 26, 26], [27, 45, 28, 16])
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from math import comb
from typing import Any

from solver.cards import (
    card_count,
    card_str,
    cards_of,
    format_holding,
    in_notation_order,
    parse_holding,
)
from solver.errors import IllegalPlayError, RulesError, UsageError
from solver.klabberjass import engine
from solver.klabberjass.position import Position
from solver.klabberjass.rules import SEATS, SEED, Rules
from solver.klabberjass.view import View

#: The most cards in each hand of an ending the exact search takes.
MAX_ENDING_CARDS = 4
#: The most worlds the exact search takes.
MAX_ENDING_WORLDS = 32

#: An information set of the mover: the cards played since the root, in order.
History = tuple[int, ...]

#: A strategy as a lookup: a mapping from information sets to cards, or a function of
#: the information set.
StrategyLike = Mapping[History, int] | Callable[[History], int]

# Strategies inside the search are trees, so a memoised node's strategies can be shared
# under any history: ("M", card, child) at the mover's node, ("D", ((card, child), ...))
# at the defender's, None at the end of play.
_Tree = Any
_Vec = tuple[int, ...]

#: Stands for "no value yet" in a world while a defender's node is being combined
#: (larger than any points total, so a minimum replaces it).
_UNSET = 1 << 30


@dataclass(frozen=True)
class Ending:
    """The exact answer for one ending (see the module docstring for the model).

    Totals are sums over the worlds (ints, exact); the ``*_value`` properties divide by
    the number of worlds.

    Attributes:
        worlds: the worlds, as positions (the mover to move in each).
        card: the first card of the best strategy (ties: the card printed first).
        total: the best strategy's points summed over the worlds.
        strategy: the best strategy: a card for every information set it can reach
            (whatever the defender plays in any world), keyed by the cards played
            since the root.
        moves: for each legal card, the total of the best strategy that starts with it.
        pimc_card: PIMC's card over every world: the greatest total double-dummy points.
        pimc_total: the total of the best strategy that starts with ``pimc_card``.
        pimc_strategy: that strategy.
        pimc_play_total: the total when PIMC chooses every card of the mover
            (each time over the worlds the cards played leave possible).
        dd_totals: for each legal card, its double-dummy points summed over the worlds
            (what PIMC ranks by; the greatest is the clairvoyant bound).
        view: the view the worlds came from, or None.
    """

    worlds: tuple[Position, ...]
    card: int
    total: int
    strategy: dict[History, int]
    moves: dict[int, int]
    pimc_card: int
    pimc_total: int
    pimc_strategy: dict[History, int]
    pimc_play_total: int
    dd_totals: dict[int, int]
    view: View | None = None

    @property
    def mover(self) -> int:
        """The seat to move at the root (0 = E, 1 = D)."""
        return self.worlds[0].to_move

    @property
    def value(self) -> float:
        """The best strategy's mean points over the worlds."""
        return self.total / len(self.worlds)

    @property
    def pimc_value(self) -> float:
        """Mean points of the best strategy that starts with PIMC's card."""
        return self.pimc_total / len(self.worlds)

    @property
    def pimc_play_value(self) -> float:
        """Mean points when PIMC chooses every card."""
        return self.pimc_play_total / len(self.worlds)

    @property
    def fusion(self) -> bool:
        """True when PIMC's first card is provably worse: even played on perfectly it
        scores less than the best strategy."""
        return self.pimc_total < self.total

    def strategy_lines(self, strategy: Mapping[History, int] | None = None) -> list[str]:
        """The strategy as text, one information set a line: ``<cards played> -> <card>``
        (``-`` for the root), shortest histories first.

        >>> from solver.klabberjass import Position
        >>> e = solve_worlds([Position.parse("trump=H lead=E E=A.7.. D=K.8..")])
        >>> e.strategy_lines()
        ['- -> 7H', '7H 8H KS -> AS']
        """
        s = self.strategy if strategy is None else strategy
        return [
            f"{' '.join(map(card_str, h)) or '-'} -> {card_str(c)}"
            for h, c in sorted(s.items(), key=lambda hc: (len(hc[0]), hc[0]))
        ]

    def to_json(self) -> dict:
        """A JSON object: the worlds (the other hand's holdings), the exact card and
        totals, PIMC's card and the exact totals of playing it."""
        opp = 1 - self.mover
        out: dict = {}
        if self.view is not None:
            out["view"] = str(self.view)
        else:
            out["position"] = str(self.worlds[0])
        out.update(
            {
                "worlds": [format_holding(w.hands[opp]) for w in self.worlds],
                "card": card_str(self.card),
                "total": self.total,
                "value": round(self.value, 4),
                "moves": {card_str(c): t for c, t in self.moves.items()},
                "pimc_card": card_str(self.pimc_card),
                "pimc_total": self.pimc_total,
                "pimc_value": round(self.pimc_value, 4),
                "pimc_play_total": self.pimc_play_total,
                "dd_totals": {card_str(c): t for c, t in self.dd_totals.items()},
            }
        )
        return out


# ----------------------------------------------------------------------------- checks
def check_worlds(worlds: Sequence[Position], max_worlds: int = MAX_ENDING_WORLDS) -> None:
    """Check that ``worlds`` are one ending seen by its mover, small enough to solve.

    The positions must agree on everything but the hand of the player not to move
    (trump, leader, unfinished trick and the mover's hand), hold different hands there,
    and hold at most :data:`MAX_ENDING_CARDS` cards in each hand; there may be at most
    ``max_worlds`` of them.

    >>> check_worlds([Position.parse("trump=H lead=E E=AKQT9... D=.AKQT9..")])
    Traceback (most recent call last):
    solver.errors.RulesError: an ending has at most 4 cards in each hand: "trump=H lead=E E=AKQT9... D=.AKQT9.." has 5 and 5

    Raises:
        RulesError: no worlds, worlds that do not agree, a duplicate world, a hand of
            more than :data:`MAX_ENDING_CARDS` cards or more than ``max_worlds`` worlds.
        UsageError: something that is not a Klabberjass position.
    """
    if not worlds:
        raise RulesError("an ending needs at least one world")
    for w in worlds:
        if not isinstance(w, Position):
            raise UsageError(
                f"expected Klabberjass Positions as worlds, not {type(w).__name__} {w!r:.80}"
            )
    first = worlds[0]
    if first.is_over:
        raise RulesError(f'no card is left to play in "{first}"')
    sizes = [card_count(h) for h in first.hands]
    if max(sizes) > MAX_ENDING_CARDS:
        raise RulesError(
            f"an ending has at most {MAX_ENDING_CARDS} cards in each hand: "
            f'"{first}" has {sizes[0]} and {sizes[1]}'
        )
    me = first.to_move
    seen: dict[int, Position] = {}
    for w in worlds:
        if (w.trump, w.lead, w.trick, w.hands[me]) != (
            first.trump,
            first.lead,
            first.trick,
            first.hands[me],
        ):
            raise RulesError(
                f'worlds "{first}" and "{w}" differ in more than the hand of '
                f"{SEATS[1 - me]} (the player not to move)"
            )
        other = w.hands[1 - me]
        if other in seen:
            raise RulesError(f'world "{w}" is given twice')
        seen[other] = w
    if len(worlds) > max_worlds:
        raise RulesError(
            f'{len(worlds)} worlds for "{first}" (the exact search takes at most {max_worlds})'
        )


def view_worlds(view: View, max_worlds: int = MAX_ENDING_WORLDS) -> list[Position]:
    """Every world consistent with ``view``, as positions (the viewer to move), in a
    fixed order (the other hand's unknown cards as combinations of the possible ones,
    in notation order).

    Raises:
        RulesError: more than ``max_worlds`` worlds (pass the worlds explicitly to
            :func:`solve_ending`).
    """
    inf = view.inference()
    opp, _, size, known, _ = inf.hidden[0]
    need = size - card_count(known)
    pool = list(cards_of(inf.pool))
    count = comb(len(pool), need)
    if count > max_worlds:
        raise RulesError(
            f'{count} worlds fit "{view}" (the exact search takes at most {max_worlds}: '
            "give the worlds explicitly)"
        )
    base = inf.position
    out = []
    for chosen in itertools.combinations(pool, need):
        hands = list(base.hands)
        hands[opp] = known | sum(1 << c for c in chosen)
        out.append(Position(base.trump, base.lead, (hands[0], hands[1]), base.trick))
    return out


def _worlds_of(view: View, worlds: Sequence[int | str]) -> list[Position]:
    """The positions of the other hands ``worlds`` (card sets or holdings) in ``view``.

    Raises:
        RulesError: a hand of the wrong size, or that the view rules out.
    """
    inf = view.inference()
    opp, _, size, known, _ = inf.hidden[0]
    base = inf.position
    out = []
    for w in worlds:
        hand = parse_holding(w, str(view)) if isinstance(w, str) else w
        why = None
        if card_count(hand) != size:
            why = f"{SEATS[opp]} holds {size} cards, not {card_count(hand)}"
        elif hand & ~(known | inf.pool):
            why = f"{SEATS[opp]} cannot hold {' '.join(map(card_str, cards_of(hand & ~(known | inf.pool))))}"
        elif known & ~hand:
            why = f"{SEATS[opp]} holds {' '.join(map(card_str, cards_of(known & ~hand)))}"
        if why:
            raise RulesError(f'world {format_holding(hand)} does not fit "{view}": {why}')
        hands = list(base.hands)
        hands[opp] = hand
        out.append(Position(base.trump, base.lead, (hands[0], hands[1]), base.trick))
    return out


# ----------------------------------------------------------------------------- the search
def _step_all(
    positions: Sequence[Position], card: int, me: int, rules: Rules
) -> tuple[tuple[Position, ...], int]:
    """Play ``card`` in every world: the children and the mover's points from the trick
    it completes (the same in every world: the trick's cards are seen)."""
    children = []
    gains = set()
    for p in positions:
        child, winner, pts = p.step(card, rules)
        children.append(child)
        gains.add(pts if winner == me else 0)
    assert len(gains) == 1, "a trick's points depend only on its cards"
    return tuple(children), gains.pop()


def _defender_groups(positions: Sequence[Position]) -> dict[int, list[int]]:
    """For each card the defender may play in some world, the worlds (indices) where he
    may: in notation order."""
    groups: dict[int, list[int]] = {}
    for i, p in enumerate(positions):
        for c in p.legal_moves():
            groups.setdefault(c, []).append(i)
    return {c: groups[c] for c in in_notation_order(groups)}


def _pareto(items: list[tuple[_Vec, _Tree]]) -> list[tuple[_Vec, _Tree]]:
    """The vectors no other vector of ``items`` matches or beats in every world (one of
    equal vectors: the first); greatest sum first, ties in the order given."""
    items = sorted(items, key=lambda it: -sum(it[0]))
    kept: list[tuple[_Vec, _Tree]] = []
    for vec, tree in items:
        if not any(all(a >= b for a, b in zip(k, vec, strict=True)) for k, _ in kept):
            kept.append((vec, tree))
    return kept


def _distinct(items: list[tuple[_Vec, _Tree]]) -> list[tuple[_Vec, _Tree]]:
    """One entry per distinct vector (the first), greatest sum first."""
    seen: dict[_Vec, _Tree] = {}
    for vec, tree in items:
        seen.setdefault(vec, tree)
    return sorted(seen.items(), key=lambda it: -sum(it[0]))


class _Search:
    """The vector sets of the nodes of one ending (memoised on the worlds' positions)."""

    def __init__(self, me: int, rules: Rules, prune: bool):
        self.me = me
        self.rules = rules
        self.reduce = _pareto if prune else _distinct
        self.memo: dict[tuple[Position, ...], list[tuple[_Vec, _Tree]]] = {}
        self.nodes = 0

    def front(self, positions: tuple[Position, ...]) -> list[tuple[_Vec, _Tree]]:
        """The value vectors (one entry per world, in order) of the strategies from here,
        each with one strategy achieving it."""
        out = self.memo.get(positions)
        if out is None:
            out = self._front(positions)
            self.memo[positions] = out
        return out

    def choices(self, positions: tuple[Position, ...]) -> dict[int, list[tuple[_Vec, _Tree]]]:
        """At the mover's node: for each legal card, the vectors of the strategies that
        start with it."""
        out = {}
        for c in positions[0].legal_moves():
            children, gain = _step_all(positions, c, self.me, self.rules)
            out[c] = [
                (tuple(v + gain for v in vec), ("M", c, tree)) for vec, tree in self.front(children)
            ]
        return out

    def _front(self, positions: tuple[Position, ...]) -> list[tuple[_Vec, _Tree]]:
        self.nodes += 1
        n = len(positions)
        if positions[0].is_over:
            return [((0,) * n, None)]
        if positions[0].to_move == self.me:
            return self.reduce(
                [item for items in self.choices(positions).values() for item in items]
            )
        partial: list[tuple[_Vec, _Tree]] = [((_UNSET,) * n, ())]
        for c, idx in _defender_groups(positions).items():
            children, gain = _step_all([positions[i] for i in idx], c, self.me, self.rules)
            combined = []
            for pvec, ptree in partial:
                for vec, tree in self.front(children):
                    v = list(pvec)
                    for j, i in enumerate(idx):
                        v[i] = min(v[i], vec[j] + gain)
                    combined.append((tuple(v), ptree + ((c, tree),)))
            partial = self.reduce(combined)
        return [(vec, ("D", tree)) for vec, tree in partial]


def _flatten(tree: _Tree, history: History = ()) -> dict[History, int]:
    """A search tree's strategy as a mapping from information sets to cards."""
    out: dict[History, int] = {}
    stack = [(tree, history)]
    while stack:
        t, h = stack.pop()
        if t is None:
            continue
        if t[0] == "M":
            out[h] = t[1]
            stack.append((t[2], (*h, int(t[1]))))
        else:
            stack.extend((sub, (*h, int(c))) for c, sub in t[1])
    return out


# ----------------------------------------------------------------------------- strategies
def _lookup(strategy: StrategyLike) -> Callable[[History], int]:
    if callable(strategy):
        return strategy

    def card_at(history: History) -> int:
        try:
            return strategy[history]
        except KeyError:
            raise RulesError(
                f"the strategy has no card after {' '.join(map(card_str, history)) or 'the root'}"
            ) from None

    return card_at


def defended(
    world: Position, strategy: StrategyLike, me: int | None = None, rules: Rules = SEED
) -> tuple[int, dict[History, int]]:
    """The mover's points in one world when he follows ``strategy`` and the defender,
    seeing everything, replies best; and the defender's best replies.

    Args:
        world: the position (the mover to move).
        strategy: a card for every information set the play reaches.
        me: the mover (default: the seat to move in ``world``).
        rules: the rules (the last-trick bonus).

    Returns:
        The points, and the defender's card at each of his nodes the play can reach
        (keyed by the cards played since the root; ties: the card printed first).

    Raises:
        RulesError: the strategy has no card for an information set reached.
        IllegalPlayError: the strategy plays a card that is not legal.
    """
    me = world.to_move if me is None else me
    card_at = _lookup(strategy)
    replies: dict[History, int] = {}

    def points(p: Position, history: History) -> int:
        if p.is_over:
            return 0
        if p.to_move == me:
            card = card_at(history)
            child, winner, pts = p.step(card, rules)
            return (pts if winner == me else 0) + points(child, (*history, int(card)))
        best = None
        for c in p.legal_moves():
            child, winner, pts = p.step(c, rules)
            v = (pts if winner == me else 0) + points(child, (*history, int(c)))
            if best is None or v < best[0]:
                best = (v, c)
        assert best is not None
        replies[history] = best[1]
        return best[0]

    return points(world, ()), replies


def strategy_values(
    worlds: Sequence[Position], strategy: StrategyLike, rules: Rules = SEED
) -> list[int]:
    """The mover's points in each world under ``strategy`` against best defence
    (:func:`defended` world by world: a direct evaluation, independent of the search).

    Raises:
        RulesError: the strategy has no card for an information set reached.
        IllegalPlayError: the strategy plays a card that is not legal.
    """
    me = worlds[0].to_move
    return [defended(w, strategy, me, rules)[0] for w in worlds]


def pure_strategies(
    worlds: Sequence[Position], rules: Rules = SEED
) -> Iterator[dict[History, int]]:
    """Every pure strategy of the mover: a card for each information set that the
    strategy itself and any play of the defender in some world can reach. Their number
    grows very fast: for tiny endings and tests only."""
    me = worlds[0].to_move

    def strategies(ps: tuple[Position, ...], history: History) -> Iterator[dict[History, int]]:
        if ps[0].is_over:
            yield {}
            return
        if ps[0].to_move == me:
            for c in ps[0].legal_moves():
                children, _ = _step_all(ps, c, me, rules)
                for sub in strategies(children, (*history, int(c))):
                    yield {history: c, **sub}
            return
        subs = []
        for c, idx in _defender_groups(ps).items():
            children, _ = _step_all([ps[i] for i in idx], c, me, rules)
            subs.append(list(strategies(children, (*history, int(c)))))
        for combo in itertools.product(*subs):
            merged: dict[History, int] = {}
            for part in combo:
                merged.update(part)
            yield merged

    yield from strategies(tuple(worlds), ())


def reached(worlds: Sequence[Position], history: History, rules: Rules = SEED) -> list[int]:
    """The worlds (indices) in which the cards ``history`` can have been played from
    the root: those where the defender held his cards and could play them."""
    out = []
    for i, p in enumerate(worlds):
        try:
            for c in history:
                p = p.step(c, rules)[0]
        except IllegalPlayError:
            continue
        out.append(i)
    return out


def pimc_strategy(worlds: Sequence[Position], rules: Rules = SEED) -> Callable[[History], int]:
    """PIMC at every decision: after ``history`` the mover plays the card of the greatest
    total double-dummy points over the worlds still possible (ties: the card printed
    first)."""
    cache: dict[History, int] = {}

    def card_at(history: History) -> int:
        if history not in cache:
            ps = []
            for i in reached(worlds, history, rules):
                p = worlds[i]
                for c in history:
                    p = p.step(c, rules)[0]
                ps.append(p)
            cache[history] = _pimc_choice(ps, rules)[0]
        return cache[history]

    return card_at


def _pimc_choice(positions: Sequence[Position], rules: Rules) -> tuple[int, dict[int, int]]:
    """PIMC's card over ``positions`` and every legal card's total double-dummy points."""
    totals: dict[int, int] = {}
    for p in positions:
        for c, v in engine.move_values(p, rules).items():
            totals[c] = totals.get(c, 0) + v
    best = max(totals, key=lambda c: totals[c])  # the first of equal totals: notation order
    return best, totals


# ----------------------------------------------------------------------------- solving
def solve_worlds(
    worlds: Sequence[Position],
    rules: Rules = SEED,
    *,
    prune: bool = True,
    max_worlds: int = MAX_ENDING_WORLDS,
    view: View | None = None,
) -> Ending:
    """The exact answer for an ending given as its worlds (see the module docstring).

    Args:
        worlds: the positions the mover cannot tell apart: they differ only in the
            other player's hand; equally likely.
        rules: the rules (the last-trick bonus).
        prune: drop dominated value vectors (exact; False keeps every distinct one,
            for checks).
        max_worlds: the most worlds taken.
        view: the view the worlds came from (kept in the answer).

    Raises:
        RulesError: worlds that are not one small ending (:func:`check_worlds`).
    """
    check_worlds(worlds, max_worlds)
    ps = tuple(worlds)
    me = ps[0].to_move
    search = _Search(me, rules, prune)
    choices = search.choices(ps)
    moves: dict[int, int] = {}
    best_tree: dict[int, _Tree] = {}
    for c, items in choices.items():
        vec, tree = max(items, key=lambda it: sum(it[0]))  # the first of equal sums
        moves[c] = sum(vec)
        best_tree[c] = tree
    card = max(moves, key=lambda c: moves[c])  # the first of equal totals: notation order
    pimc_card, dd_totals = _pimc_choice(ps, rules)
    pimc_play = strategy_values(ps, pimc_strategy(ps, rules), rules)
    return Ending(
        worlds=ps,
        card=card,
        total=moves[card],
        strategy=_flatten(best_tree[card]),
        moves=moves,
        pimc_card=pimc_card,
        pimc_total=moves[pimc_card],
        pimc_strategy=_flatten(best_tree[pimc_card]),
        pimc_play_total=sum(pimc_play),
        dd_totals=dd_totals,
        view=view,
    )


def solve_ending(
    view: View,
    worlds: Sequence[int | str] | None = None,
    rules: Rules = SEED,
    *,
    max_worlds: int = MAX_ENDING_WORLDS,
) -> Ending:
    """The exact answer for the viewer of a small Klabberjass ending.

    Args:
        view: the viewer's knowledge (he is to move); at most
            :data:`MAX_ENDING_CARDS` cards in each hand.
        worlds: the other player's possible hands (card sets or holdings), equally
            likely; None: every hand consistent with the view.
        rules: the rules (the last-trick bonus).
        max_worlds: the most worlds taken.

    Raises:
        RulesError: a hand of more than :data:`MAX_ENDING_CARDS` cards, more than
            ``max_worlds`` worlds, or a world the view rules out; the message quotes
            the view.
    """
    inf = view.inference()
    sizes = [card_count(h) for h in inf.position.hands]
    sizes[inf.hidden[0][0]] = inf.hidden[0][2]
    if max(sizes) > MAX_ENDING_CARDS:
        raise RulesError(
            f"an ending has at most {MAX_ENDING_CARDS} cards in each hand: "
            f'"{view}" has {sizes[0]} and {sizes[1]}'
        )
    positions = view_worlds(view, max_worlds) if worlds is None else _worlds_of(view, worlds)
    return solve_worlds(positions, rules, max_worlds=max_worlds, view=view)


# ----------------------------------------------------------------------------- drawing
def strategy_graph(ending: Ending, best_replies_only: bool = False) -> Any:
    """The information sets of an ending as a :class:`networkx.DiGraph`, for drawing
    strategy fusion: the best strategy and the best one that starts with PIMC's card.

    Nodes are keyed by the cards played since the root (text, ``-`` for the root).
    Node attributes: ``kind`` (``choice``: the mover to move, ``reply``: the defender,
    ``end``), ``worlds`` (indices of the worlds that can reach it), ``history``. Edge
    attributes: ``card``, ``seat``; on the mover's edges ``strategies``, the names of
    the strategies (``exact``, ``pimc``) that play it; on the defender's edges
    ``defence``, for each strategy the worlds where the best reply to it plays it.

    Graph attributes: ``totals`` (each strategy's total), ``worlds`` (the other hand
    in each world, as holdings).

    ``best_replies_only``: keep only the defender's cards that a best reply plays in
    some world (the lines actually played), for a drawing small enough to read.
    """
    import networkx as nx

    me = ending.mover
    strategies = {"exact": ending.strategy, "pimc": ending.pimc_strategy}
    g = nx.DiGraph()
    opp = 1 - me
    g.graph["worlds"] = [format_holding(w.hands[opp]) for w in ending.worlds]
    g.graph["totals"] = {"exact": ending.total, "pimc": ending.pimc_total}

    def key(history: History) -> str:
        return " ".join(map(card_str, history)) or "-"

    replies = {
        name: [defended(w, s, me)[1] for w in ending.worlds] for name, s in strategies.items()
    }
    for name, strategy in strategies.items():
        stack: list[tuple[History, tuple[int, ...]]] = [((), tuple(range(len(ending.worlds))))]
        while stack:
            history, idx = stack.pop()
            ps = []
            for i in idx:
                p = ending.worlds[i]
                for c in history:
                    p = p.step(c)[0]
                ps.append(p)
            node = key(history)
            kind = "end" if ps[0].is_over else ("choice" if ps[0].to_move == me else "reply")
            g.add_node(node, kind=kind, worlds=list(idx), history=history)
            if kind == "choice":
                c = strategy[history]
                child = (*history, int(c))
                g.add_edge(node, key(child), card=card_str(c), seat=SEATS[me])
                edge = g.edges[node, key(child)]
                edge.setdefault("strategies", [])
                if name not in edge["strategies"]:
                    edge["strategies"].append(name)
                stack.append((child, idx))
            elif kind == "reply":
                for c, where in _defender_groups(ps).items():
                    child = (*history, int(c))
                    best = [idx[j] for j in where if replies[name][idx[j]].get(history) == c]
                    if best_replies_only and not best:
                        continue
                    g.add_edge(node, key(child), card=card_str(c), seat=SEATS[opp])
                    g.edges[node, key(child)].setdefault("defence", {})[name] = best
                    stack.append((child, tuple(idx[j] for j in where)))
    return g


__all__ = [
    "MAX_ENDING_CARDS",
    "MAX_ENDING_WORLDS",
    "Ending",
    "History",
    "check_worlds",
    "defended",
    "pimc_strategy",
    "pure_strategies",
    "reached",
    "solve_ending",
    "solve_worlds",
    "strategy_graph",
    "strategy_values",
    "view_worlds",
]
