"""Constrained dealing: declare what a deal must contain, get deals that satisfy it.

A :class:`DealSpec` names the hands of a deal (``E`` and ``D`` for Klabberjass; ``0L``,
``0R``, ``1L`` … for Carabin, with the seat ``0`` standing for both of its hands), how
many cards each holds and the pack they come from; the cards no hand receives stay out
of play. Constraints say what the hands must hold:

- :class:`Holds` / :class:`Lacks`: given cards in (or not in) a hand;
- :class:`HoldsAny`: at least so many of given cards in a hand;
- :class:`SuitCount` (and :func:`void`): how many cards of a suit a hand holds;
- :class:`HasSequence`: a run of consecutive cards in natural order (Klabberjass
  sequences), optionally in one suit;
- :func:`bella`: the king and queen of trump in one hand;
- :class:`PointRange`: the card points of a hand (or of every hand together).

:func:`sample_deals` returns deals satisfying every constraint, varied by a seed and
deterministic for it. Where the constraints are loose it deals uniformly at random and
keeps the first deal that fits (rejection sampling, so the deals are uniform over the
satisfying ones); where that keeps failing it asks OR-Tools CP-SAT for the deal that
maximises a random objective (one Boolean per card and hand, weights drawn from the
seed), which finds a satisfying deal however tight the constraints. Unsatisfiable
constraints raise :class:`UnsatisfiableError` (CP-SAT proves infeasibility of these small
models in milliseconds).

>>> spec = klabberjass_spec(cards=4, trump=1)
>>> deals = sample_deals(spec, [bella("E", 1), void("D", 0)], count=2, seed=7)
>>> [all(c.satisfied(d, spec) for c in [bella("E", 1), void("D", 0)]) for d in deals]
[True, True]
>>> sample_deals(spec, [SuitCount("E", 0, 5, 8)], count=1, seed=1)
Traceback (most recent call last):
...
analysis.constraints.UnsatisfiableError: no deal satisfies: E holds 5-8 S (E holds 4 cards)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from solver import carabin, klabberjass
from solver.cards import RANKS, SUITS, card_str, cards_of, make_card, suit_of
from solver.errors import RulesError

#: Deals tried at random before switching to CP-SAT.
REJECTION_TRIES = 200

#: Natural order of ranks for sequences, low to high (2 .. A).
NATURAL = tuple(range(13))


class UnsatisfiableError(RulesError):
    """No deal satisfies the declared constraints."""


@dataclass(frozen=True)
class DealSpec:
    """What a deal looks like: its hands, their sizes, the pack and the card points.

    Attributes:
        pack: the cards that may be dealt (a card set).
        hands: names of the hands, in order.
        sizes: cards in each hand.
        groups: extra names standing for several hands (a Carabin seat's two hands).
        points: card points (a function of the card).
    """

    pack: int
    hands: tuple[str, ...]
    sizes: tuple[int, ...]
    groups: dict[str, tuple[str, ...]] = field(default_factory=dict, hash=False)
    points: Callable[[int], int] = field(default=lambda c: 0, hash=False, compare=False)

    def members(self, who: str) -> tuple[str, ...]:
        """The hands a name stands for (``*`` for every hand).

        Raises:
            RulesError: an unknown name.
        """
        if who == "*":
            return self.hands
        if who in self.hands:
            return (who,)
        if who in self.groups:
            return self.groups[who]
        names = ", ".join([*self.hands, *self.groups, "*"])
        raise RulesError(f"unknown hand '{who}' (expected one of: {names})")

    def size_of(self, who: str) -> int:
        """Total cards of the hands a name stands for."""
        return sum(self.sizes[self.hands.index(h)] for h in self.members(who))


def klabberjass_spec(cards: int = 9, trump: int = 0) -> DealSpec:
    """Two Klabberjass hands ``E`` and ``D`` of ``cards`` cards from the 32-card pack."""
    return DealSpec(
        klabberjass.PACK,
        ("E", "D"),
        (cards, cards),
        {},
        lambda c: klabberjass.card_points(c, trump),
    )


def carabin_spec(players: int = 4, left: int = 4, right: int = 4) -> DealSpec:
    """Carabin hands ``<seat>L`` / ``<seat>R`` (seat name for both) from the 52 cards."""
    hands = tuple(f"{s}{k}" for s in range(players) for k in "LR")
    sizes = tuple(left if h.endswith("L") else right for h in hands)
    groups: dict[str, tuple[str, ...]] = {str(s): (f"{s}L", f"{s}R") for s in range(players)}
    return DealSpec(carabin.PACK, hands, sizes, groups, carabin.card_points)


# ----------------------------------------------------------------------------- constraints


def _cards_text(cards: Iterable[int]) -> str:
    return " ".join(card_str(c) for c in cards)


@dataclass(frozen=True)
class Holds:
    """``who`` holds every one of ``cards`` (between its hands, for a group)."""

    who: str
    cards: tuple[int, ...]

    def describe(self) -> str:
        return f"{self.who} holds {_cards_text(self.cards)}"

    def satisfied(self, deal: dict[str, int], spec: DealSpec) -> bool:
        held = _held(deal, spec, self.who)
        return all(held >> c & 1 for c in self.cards)

    def add_to(self, model, x, spec: DealSpec) -> None:
        for c in self.cards:
            model.Add(sum(x[c, h] for h in spec.members(self.who)) == 1)


@dataclass(frozen=True)
class HoldsAny:
    """``who`` holds at least ``low`` of ``cards`` (one of them by default)."""

    who: str
    cards: tuple[int, ...]
    low: int = 1

    def describe(self) -> str:
        return f"{self.who} holds {self.low}+ of {_cards_text(self.cards)}"

    def satisfied(self, deal: dict[str, int], spec: DealSpec) -> bool:
        held = _held(deal, spec, self.who)
        return sum(held >> c & 1 for c in self.cards) >= self.low

    def add_to(self, model, x, spec: DealSpec) -> None:
        model.Add(sum(x[c, h] for c in self.cards for h in spec.members(self.who)) >= self.low)


@dataclass(frozen=True)
class Lacks:
    """``who`` holds none of ``cards``."""

    who: str
    cards: tuple[int, ...]

    def describe(self) -> str:
        return f"{self.who} lacks {_cards_text(self.cards)}"

    def satisfied(self, deal: dict[str, int], spec: DealSpec) -> bool:
        held = _held(deal, spec, self.who)
        return not any(held >> c & 1 for c in self.cards)

    def add_to(self, model, x, spec: DealSpec) -> None:
        for c in self.cards:
            for h in spec.members(self.who):
                model.Add(x[c, h] == 0)


@dataclass(frozen=True)
class SuitCount:
    """``who`` holds from ``low`` to ``high`` cards of ``suit``."""

    who: str
    suit: int
    low: int = 0
    high: int = 13

    def describe(self) -> str:
        span = str(self.low) if self.low == self.high else f"{self.low}-{self.high}"
        return f"{self.who} holds {span} {SUITS[self.suit]}"

    def satisfied(self, deal: dict[str, int], spec: DealSpec) -> bool:
        n = sum(1 for c in cards_of(_held(deal, spec, self.who)) if suit_of(c) == self.suit)
        return self.low <= n <= self.high

    def add_to(self, model, x, spec: DealSpec) -> None:
        n = sum(
            x[c, h]
            for c in cards_of(spec.pack)
            if suit_of(c) == self.suit
            for h in spec.members(self.who)
        )
        model.Add(n >= self.low)
        model.Add(n <= self.high)


def void(who: str, suit: int) -> SuitCount:
    """``who`` holds no card of ``suit``."""
    return SuitCount(who, suit, 0, 0)


def bella(who: str, trump: int) -> Holds:
    """``who`` holds the king and the queen of trump (Klabberjass Bella)."""
    return Holds(who, (make_card(trump, RANKS.index("K")), make_card(trump, RANKS.index("Q"))))


@dataclass(frozen=True)
class HasSequence:
    """``who`` holds ``length`` or more cards in a row in natural order (in one hand).

    For a group the run must lie in one of its hands. ``suit`` None means any suit.
    """

    who: str
    length: int = 3
    suit: int | None = None

    def describe(self) -> str:
        where = f" of {SUITS[self.suit]}" if self.suit is not None else ""
        return f"{self.who} holds a sequence of {self.length}{where}"

    def _windows(self, spec: DealSpec) -> list[tuple[int, ...]]:
        suits = range(4) if self.suit is None else (self.suit,)
        out: list[tuple[int, ...]] = []
        for s in suits:
            for low in range(13 - self.length + 1):
                cards = tuple(make_card(s, r) for r in range(low, low + self.length))
                if all(spec.pack >> c & 1 for c in cards):
                    out.append(cards)
        return out

    def satisfied(self, deal: dict[str, int], spec: DealSpec) -> bool:
        return any(
            all(deal[h] >> c & 1 for c in w)
            for h in spec.members(self.who)
            for w in self._windows(spec)
        )

    def add_to(self, model, x, spec: DealSpec) -> None:
        chosen = []
        for h in spec.members(self.who):
            for w in self._windows(spec):
                y = model.NewBoolVar("")
                for c in w:
                    model.AddImplication(y, x[c, h])
                chosen.append(y)
        model.AddBoolOr(chosen) if chosen else model.AddBoolOr([model.NewConstant(0)])


@dataclass(frozen=True)
class PointRange:
    """The card points of ``who`` lie from ``low`` to ``high`` (``*``: every hand)."""

    who: str
    low: int = 0
    high: int = 10_000

    def describe(self) -> str:
        return f"{self.who} holds {self.low}-{self.high} card points"

    def satisfied(self, deal: dict[str, int], spec: DealSpec) -> bool:
        pts = sum(spec.points(c) for c in cards_of(_held(deal, spec, self.who)))
        return self.low <= pts <= self.high

    def add_to(self, model, x, spec: DealSpec) -> None:
        pts = sum(
            spec.points(c) * x[c, h] for c in cards_of(spec.pack) for h in spec.members(self.who)
        )
        model.Add(pts >= self.low)
        model.Add(pts <= self.high)


Constraint = Holds | HoldsAny | Lacks | SuitCount | HasSequence | PointRange


def _held(deal: dict[str, int], spec: DealSpec, who: str) -> int:
    mask = 0
    for h in spec.members(who):
        mask |= deal[h]
    return mask


def describe(constraints: Sequence[Constraint]) -> str:
    """The constraints as one line of text."""
    return "; ".join(c.describe() for c in constraints) or "nothing"


# ----------------------------------------------------------------------------- sampling


def _quick_check(spec: DealSpec, constraints: Sequence[Constraint]) -> None:
    """Catch the plain contradictions with a message naming them (before CP-SAT)."""
    for c in constraints:
        spec.members(c.who)  # unknown names
        if isinstance(c, SuitCount) and c.low > spec.size_of(c.who):
            raise UnsatisfiableError(
                f"no deal satisfies: {c.describe()} ({c.who} holds {spec.size_of(c.who)} cards)"
            )
        if isinstance(c, SuitCount) and c.low > c.high:
            raise UnsatisfiableError(f"no deal satisfies: {c.describe()} (empty range)")
        if isinstance(c, Holds | HoldsAny | Lacks):
            outside = [x for x in c.cards if not spec.pack >> x & 1]
            if outside:
                raise RulesError(
                    f"card {_cards_text(outside)} in '{c.describe()}' is not in the pack"
                )
        if isinstance(c, Holds) and len(set(c.cards)) > spec.size_of(c.who):
            raise UnsatisfiableError(
                f"no deal satisfies: {c.describe()} ({c.who} holds {spec.size_of(c.who)} cards)"
            )
    if sum(spec.sizes) > spec.pack.bit_count():
        raise UnsatisfiableError(
            f"no deal satisfies: the hands need {sum(spec.sizes)} cards, the pack has "
            f"{spec.pack.bit_count()}"
        )


def random_deal(spec: DealSpec, rng: random.Random) -> dict[str, int]:
    """A uniformly random deal of ``spec`` (no constraints)."""
    pack = list(cards_of(spec.pack))
    rng.shuffle(pack)
    deal, i = {}, 0
    for h, n in zip(spec.hands, spec.sizes, strict=True):
        deal[h] = sum(1 << c for c in pack[i : i + n])
        i += n
    return deal


def _cp_sat_deal(
    spec: DealSpec, constraints: Sequence[Constraint], rng: random.Random | None
) -> dict[str, int]:
    """A deal from CP-SAT: maximise random weights (``rng``), or any deal (``rng`` None)."""
    from ortools.sat.python import cp_model

    model: Any = cp_model.CpModel()
    pack = list(cards_of(spec.pack))
    x = {(c, h): model.NewBoolVar(f"{card_str(c)}_{h}") for c in pack for h in spec.hands}
    for c in pack:
        model.Add(sum(x[c, h] for h in spec.hands) <= 1)
    for h, n in zip(spec.hands, spec.sizes, strict=True):
        model.Add(sum(x[c, h] for c in pack) == n)
    for con in constraints:
        con.add_to(model, x, spec)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1  # one deterministic search thread
    if rng is not None:
        model.Maximize(sum(rng.randrange(1000) * v for v in x.values()))
        solver.parameters.random_seed = rng.randrange(2**31)
    status = solver.Solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise UnsatisfiableError(f"no deal satisfies: {describe(constraints)}")
    deal = {h: 0 for h in spec.hands}
    for (c, h), v in x.items():
        if solver.Value(v):
            deal[h] |= 1 << c
    return deal


def check_satisfiable(spec: DealSpec, constraints: Sequence[Constraint]) -> None:
    """Raise :class:`UnsatisfiableError` if no deal satisfies ``constraints``."""
    _quick_check(spec, constraints)
    _cp_sat_deal(spec, constraints, None)


def sample_deals(
    spec: DealSpec,
    constraints: Sequence[Constraint],
    count: int,
    seed: int | str | None = None,
    rng: random.Random | None = None,
    tries: int = REJECTION_TRIES,
    checked: bool = False,
) -> list[dict[str, int]]:
    """``count`` deals (hand name → card set) satisfying every constraint.

    Args:
        spec: the hands and the pack.
        constraints: what the deal must contain.
        count: how many deals.
        seed: seed of the random choices (the same seed gives the same deals).
        rng: a random generator to draw from instead of ``seed``.
        tries: random deals tried for each deal before asking CP-SAT.
        checked: the constraints are known to be satisfiable (skip the CP-SAT proof).

    Raises:
        UnsatisfiableError: no deal satisfies the constraints.
    """
    rng = rng if rng is not None else random.Random(seed)
    if not checked:
        _quick_check(spec, constraints)
        if constraints:
            check_satisfiable(spec, constraints)
    out = []
    use_cp_sat = False
    for _ in range(count):
        deal = None
        if not use_cp_sat:
            for _ in range(tries):
                candidate = random_deal(spec, rng)
                if all(c.satisfied(candidate, spec) for c in constraints):
                    deal = candidate
                    break
            else:
                use_cp_sat = True  # tight constraints: stop wasting time on rejection
        if deal is None:
            deal = _cp_sat_deal(spec, constraints, rng)
        out.append(deal)
    return out


def sample_deal(
    spec: DealSpec,
    constraints: Sequence[Constraint],
    rng: random.Random,
    tries: int = REJECTION_TRIES,
    checked: bool = False,
) -> dict[str, int]:
    """One deal satisfying ``constraints``, drawn from ``rng``."""
    return sample_deals(spec, constraints, 1, rng=rng, tries=tries, checked=checked)[0]


__all__ = [
    "Constraint",
    "DealSpec",
    "HasSequence",
    "Holds",
    "HoldsAny",
    "Lacks",
    "PointRange",
    "SuitCount",
    "UnsatisfiableError",
    "bella",
    "carabin_spec",
    "check_satisfiable",
    "describe",
    "klabberjass_spec",
    "random_deal",
    "sample_deal",
    "sample_deals",
    "void",
]
