"""Puzzle positions: generate, verify and rate double-dummy problems for both games.

A puzzle is a play position, a goal for the side to move and the solution: the one
card that reaches the goal at each of that side's decisions.

Goals (``goal`` below, for the *goal side*: the seat to move in Klabberjass, the bidder
in Carabin, who is to move in the puzzle position):

- ``max``: take at least X of the points still to be won, X being the most the goal
  side can force (double dummy), so every card that gives away a point fails;
- ``contract``: take strictly more than half of the points still to be won (the Carabin
  trump contract, applied to what is left);
- ``all-tricks``: win every remaining trick, the unfinished one included (Carabin: the
  bidder's chelem, asked of the engine's cheap chelem search; Klabberjass: the side to
  move, asked of :func:`solver.klabberjass.game.all_tricks`; a trick of no points counts too, so
  this is not taking every point).

Positions start at a trick's first card, or inside a trick (theme ``in-trick``): the
defenders before the goal side have already played to it, in the game's notation
(``trick=<card>`` in Klabberjass, ``trick=<c>,<c>`` in Carabin).

Uniqueness, the property :func:`analyse` verifies (with the engines, exhaustively):

1. The goal side can force the goal from the puzzle position.
2. Follow the *strategy tree*: at the goal side's turns the card(s) that still reach the
   goal, at the opponents' turns *every* legal card (each keeps the goal in reach, by
   minimax, since the goal side's card did). At each goal-side turn every card is
   checked with the engine: "can the goal side still reach X from here" (Carabin: one
   zero-window make/fail probe per card; Klabberjass: every card's value in one call;
   all tricks: the sweep searches). A subtree where every goal-side turn is forced (one
   card left in each hand in use) holds no decision and is not walked.
3. At a goal-side turn with a choice (two or more legal cards), the cards that keep the
   goal are either exactly one (a *decision*: that card is the solution there and every
   alternative fails) or all of them (a *free* move: nothing can go wrong). A turn where
   some but not all of several cards work is a *dual* and disqualifies the position,
   wherever it lies in the strategy tree, after any defence. Equal cards (two small
   cards of a suit) are not excused: a dual is a dual.
4. The *main line* follows the solution cards against the defence that leaves the goal
   side the fewest points (first card in notation order on ties). Its first goal-side
   turn is a decision, and no free move comes before its last decision, so ``solution``
   (the main line cut after the last decision) lists only forced cards, opponents' cards
   and unique decisions: the goal is reached only by playing ``solution[0]`` and so on
   at each of the goal side's decisions (docs/cli.md).

Rating (:func:`rating`): ``decisions + 0.5 * tempting + 1.5 * greedy_misses``, where

- ``decisions`` is the number of unique decisions on the main line;
- ``tempting`` counts, over those decisions, the failing cards that a greedy player
  scores at least as high as the solution card;
- ``greedy_misses`` counts the decisions where the greedy player's card is not the
  solution. The greedy player looks at the current trick only: each card is scored by
  the points its side wins (plus) or loses (minus) in this trick when everybody still to
  play to it does the same, cheapest card on ties (see :func:`greedy_card`).

>>> p = generate("klabberjass", count=1, seed=3, cards=3)[0]
>>> analyse("klabberjass", p.position, p.goal).solution == p.solution
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from analysis import constraints as cs
from solver import carabin, klabberjass
from solver.cards import SUITS, card_str, make_card, parse_card, rank_of
from solver.errors import RulesError, TricklabError
from solver.games import Game, get_game

GOALS = ("max", "contract", "all-tricks")
THEMES = ("bella", "sequence", "void", "short-trumps", "rich", "in-trick")

#: Nodes of the strategy tree explored per candidate before giving it up.
MAX_NODES = 20_000


class NotUniqueError(TricklabError):
    """A position that is not a puzzle (no goal, a dual, too large to verify)."""


class GenerationError(TricklabError):
    """The generator could not find enough puzzles within its budget."""


# ============================================================================ play


def _legal(game: Game, pos: Any) -> list[int]:
    """The legal cards in ascending card number (the order ties are broken in)."""
    return sorted(game.legal_moves(pos))


def _step(game: Game, pos: Any, card: int) -> tuple[Any, int | None, int]:
    """Play a legal card: the new position, the *side* that won the trick (or None) and
    its points."""
    nxt, winner, pts = game.step(pos, card)
    return nxt, (None if winner is None else game.side_of(pos, winner)), pts


# ============================================================================ values


@dataclass(frozen=True)
class Goal:
    """What the goal side must achieve from the puzzle position on.

    Attributes:
        side: ``E``/``D`` (Klabberjass) or ``bidder`` (Carabin).
        points: points to take of those still to be won (None for all tricks).
        all_tricks: win every remaining trick.
    """

    side: str
    points: int | None = None
    all_tricks: bool = False

    def to_json(self) -> dict:
        """The command line's goal object (docs/cli.md)."""
        if self.all_tricks:
            return {"side": self.side, "all_tricks": True}
        return {"side": self.side, "points": self.points}

    @classmethod
    def from_json(cls, obj: dict) -> Goal:
        """Read a goal object of the command line."""
        return cls(obj["side"], obj.get("points"), bool(obj.get("all_tricks", False)))

    def __str__(self) -> str:
        if self.all_tricks:
            return f"{self.side} to win every trick"
        return f"{self.side} to take {self.points} points"


@dataclass(frozen=True)
class Puzzle:
    """A verified puzzle.

    Attributes:
        game: ``klabberjass`` or ``carabin``.
        position: the position, in the game's notation.
        goal: the goal of the side to move.
        solution: the main line up to the goal side's last decision (card texts).
        rating: difficulty (see the module docs).
        seed: the candidate seed that regenerates this puzzle.
        decisions: unique decisions on the main line.
        tempting: failing cards that the greedy player scores as high as the solution.
        greedy_misses: decisions where the greedy player errs.
        line: the whole main line to the end of play.
        decision_plies: indices into ``solution`` of the goal side's decisions.
        nodes: goal-side turns with a choice checked in the strategy tree.
        themes: the themes the deal was built with.
    """

    game: str
    position: str
    goal: Goal
    solution: tuple[str, ...]
    rating: float
    seed: int | None = None
    decisions: int = 0
    tempting: int = 0
    greedy_misses: int = 0
    line: tuple[str, ...] = ()
    decision_plies: tuple[int, ...] = ()
    nodes: int = 0
    themes: tuple[str, ...] = field(default=())

    def to_json(self) -> dict:
        """The command line's JSON object (docs/cli.md), with extra keys (game, seed, rating terms, line)."""
        return {
            "position": self.position,
            "goal": self.goal.to_json(),
            "solution": list(self.solution),
            "rating": self.rating,
            "game": self.game,
            "seed": self.seed,
            "decisions": self.decisions,
            "tempting": self.tempting,
            "greedy_misses": self.greedy_misses,
            "decision_plies": list(self.decision_plies),
            "line": list(self.line),
            "themes": list(self.themes),
        }

    @classmethod
    def from_json(cls, obj: dict, game: str | None = None) -> Puzzle:
        """Read a puzzle written by :meth:`to_json` (``game`` if the line lacks it)."""
        name = obj.get("game") or game or ("carabin" if "bidder=" in obj["position"] else "")
        return cls(
            game=name or "klabberjass",
            position=obj["position"],
            goal=Goal.from_json(obj["goal"]),
            solution=tuple(obj["solution"]),
            rating=float(obj["rating"]),
            seed=obj.get("seed"),
            decisions=obj.get("decisions", 0),
            tempting=obj.get("tempting", 0),
            greedy_misses=obj.get("greedy_misses", 0),
            line=tuple(obj.get("line", ())),
            decision_plies=tuple(obj.get("decision_plies", ())),
            themes=tuple(obj.get("themes", ())),
        )


def rating(decisions: int, tempting: int, greedy_misses: int) -> float:
    """Difficulty: ``decisions + 0.5 * tempting + 1.5 * greedy_misses``.

    >>> rating(2, 1, 1)
    4.0
    """
    return round(decisions + 0.5 * tempting + 1.5 * greedy_misses, 2)


# ============================================================================ greedy


def _trick_net(game: Any, pos: Any, card: int, side: int) -> int:
    """Points ``side`` nets in the current trick after ``card``, the rest of the trick
    played by the same one-trick look-ahead (minimax over the trick only)."""
    nxt, wside, pts = _step(game, pos, card)
    if wside is not None:
        return pts if wside == side else -pts
    mover = game.mover_side(nxt)
    nets = [_trick_net(game, nxt, c, side) for c in nxt.legal_moves()]
    return max(nets) if mover == side else min(nets)


def greedy_scores(game: Any, pos: Any) -> dict[int, int]:
    """The greedy player's score of each legal card (net points in the current trick)."""
    side = game.mover_side(pos)
    return {c: _trick_net(game, pos, c, side) for c in pos.legal_moves()}


def greedy_card(game: Any, pos: Any, scores: dict[int, int] | None = None) -> int:
    """The greedy player's card: the best trick result, then the cheapest card."""
    scores = greedy_scores(game, pos) if scores is None else scores
    return max(scores, key=lambda c: (scores[c], -game.card_points(pos, c), -rank_of(c), -c))


# ============================================================================ analysis


@dataclass
class Analysis:
    """What :func:`analyse` found (see the module docs for the definitions)."""

    solution: tuple[str, ...]
    line: tuple[str, ...]
    decision_plies: tuple[int, ...]
    tempting: int
    greedy_misses: int
    nodes: int

    @property
    def decisions(self) -> int:
        return len(self.decision_plies)

    @property
    def rating(self) -> float:
        return rating(self.decisions, self.tempting, self.greedy_misses)


class _Checker:
    """Walks the strategy tree of one goal; raises :class:`NotUniqueError` on a dual.

    Only the goal side's turns ask the engine anything: an opponent's turn is reached
    by a goal-side card that keeps the goal, so (minimax) every defence there keeps it
    too, and the walk just follows each of them.
    """

    def __init__(self, game: Any, goal_side: int, all_tricks: bool, max_nodes: int) -> None:
        self.game = game
        self.side = goal_side
        self.all_tricks = all_tricks
        self.max_nodes = max_nodes
        self.nodes = 0
        self.seen: set[tuple[Any, int]] = set()

    def reaching(self, pos: Any, need: int) -> dict[int, bool]:
        """For each legal card of the goal side (to move): is the goal still in reach?"""
        if not self.all_tricks:
            return self.game.reaching(pos, self.side, need)
        out = {}
        for card in _legal(self.game, pos):
            nxt, wside, _ = _step(self.game, pos, card)
            out[card] = (wside is None or wside == self.side) and self.game.all_tricks(
                nxt, self.side
            )
        return out

    def after(self, pos: Any, need: int, card: int) -> tuple[Any, int]:
        nxt, wside, pts = _step(self.game, pos, card)
        if wside == self.side:
            need -= pts
        return nxt, need

    def classify(self, pos: Any, need: int) -> tuple[str, list[int], dict[int, bool]]:
        """``forced``, ``decision``, ``free`` or ``dual`` and the winning cards."""
        legal = _legal(self.game, pos)
        if len(legal) == 1:  # the goal is in reach here, so the one card keeps it
            return "forced", legal, {legal[0]: True}
        out = self.reaching(pos, need)
        winners = [c for c, ok in out.items() if ok]
        if not winners:
            raise NotUniqueError(f'the goal is out of reach in "{pos}"')
        if len(winners) == 1:
            return "decision", winners, out
        if len(winners) == len(out):
            return "free", winners, out
        return "dual", winners, out

    def variation(self, pos: Any, need: int) -> None:
        """Check the strategy tree below ``pos`` (the goal in reach there): no dual."""
        if (
            pos.is_over
            or (not self.all_tricks and need <= 0)
            or self.game.no_choice(pos, self.side)
        ):
            return
        key = (pos, need)
        if key in self.seen:
            return
        self.seen.add(key)
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise NotUniqueError(f"strategy tree larger than {self.max_nodes} nodes")
        if self.game.mover_side(pos) != self.side:
            for c in _legal(self.game, pos):
                self.variation(*self.after(pos, need, c))
            return
        kind, winners, _ = self.classify(pos, need)
        if kind == "dual":
            shown = " ".join(card_str(c) for c in winners)
            raise NotUniqueError(f'dual: {shown} all reach the goal in "{pos}"')
        for c in winners:
            self.variation(*self.after(pos, need, c))


def _goal_need(game: Any, pos: Any, goal: str | Goal) -> tuple[Goal, int, bool]:
    side = game.mover_side(pos)
    label = game.sides[side]
    if isinstance(goal, Goal):
        if goal.all_tricks:
            return goal, 0, True
        return goal, int(goal.points or 0), False
    if goal == "all-tricks":
        return Goal(label, None, True), 0, True
    if goal == "contract":
        need = pos.points_left() // 2 + 1
        return Goal(label, need), need, False
    if goal == "max":
        need = game.value(pos)[side]
        return Goal(label, need), need, False
    raise RulesError(f"unknown goal '{goal}' (expected one of: {', '.join(GOALS)})")


def _in_reach(game: Any, pos: Any, side: int, need: int, all_tricks: bool) -> bool:
    if all_tricks:
        return game.all_tricks(pos, side)
    return need <= 0 or game.value(pos)[side] >= need


def analyse(
    game: str | Any, position: str | Any, goal: str | Goal = "max", max_nodes: int = MAX_NODES
) -> Analysis:
    """Verify that a position is a puzzle for ``goal`` and find its solution and rating.

    Args:
        game: ``klabberjass`` or ``carabin``.
        position: the position (text or Position); the goal side is the side to move.
        goal: ``max``, ``contract``, ``all-tricks`` or a :class:`Goal`.
        max_nodes: goal-side turns explored before giving up.

    Returns:
        The solution, the main line, the decisions and the rating terms.

    Raises:
        NotUniqueError: the goal is out of reach, there is a dual, the first turn is not
            a decision, a free move comes before a decision, or the tree is too large.
    """
    g = get_game(game) if isinstance(game, str) else game
    pos = g.parse_position(position) if isinstance(position, str) else position
    if pos.is_over:
        raise NotUniqueError("the play is over")
    goal_obj, need, all_tricks = _goal_need(g, pos, goal)
    side = g.mover_side(pos)
    if goal_obj.side != g.sides[side]:
        raise NotUniqueError(f"the goal side {goal_obj.side} is not the side to move")
    if not all_tricks and need <= 0:
        raise NotUniqueError("the goal side has nothing to win")
    if all_tricks and g.name == "carabin" and side != 0:
        raise NotUniqueError("the all-tricks goal in carabin is the bidder's (the chelem)")
    if len(pos.legal_moves()) < 2:
        raise NotUniqueError("the first move is not a decision")
    if not _in_reach(g, pos, side, need, all_tricks):
        raise NotUniqueError(f'the goal is out of reach in "{pos}"')
    check = _Checker(g, side, all_tricks, max_nodes)
    line: list[int] = []
    decision_plies: list[int] = []
    free_before = False
    tempting = misses = 0
    while not pos.is_over and (all_tricks or need > 0):
        legal = pos.legal_moves()
        if g.mover_side(pos) == side:
            kind, winners, out = check.classify(pos, need)
            check.nodes += 1
            if kind == "dual":
                shown = " ".join(card_str(c) for c in winners)
                raise NotUniqueError(f'dual: {shown} all reach the goal in "{pos}"')
            if not line and kind != "decision":
                raise NotUniqueError("the first move is not a decision")
            card = winners[0]
            if kind == "free":
                free_before = True
                for c in winners[1:]:
                    check.variation(*check.after(pos, need, c))
            elif kind == "decision":
                if free_before:
                    raise NotUniqueError("a free move comes before a decision")
                decision_plies.append(len(line))
                scores = greedy_scores(g, pos)
                tempting += sum(1 for c in out if c != card and scores[c] >= scores[card])
                misses += greedy_card(g, pos, scores) != card
        else:
            # every defence keeps the goal (the goal side's last card did); the main line
            # follows the defence leaving the goal side the fewest points
            card = legal[0]
            if len(legal) > 1 and not all_tricks:
                vals = g.side_move_values(pos, side)
                order = list(vals)  # the engine's order: by card number
                card = min(order, key=lambda c: (vals[c], order.index(c)))
            for c in legal:
                if c != card:
                    check.variation(*check.after(pos, need, c))
        line.append(card)
        pos, need = check.after(pos, need, card)
    while not pos.is_over:  # the rest of the play once the goal is secured
        card = max(g.side_move_values(pos, g.mover_side(pos)).items(), key=lambda kv: kv[1])[0]
        line.append(card)
        pos = g.step(pos, card)[0]
    cut = decision_plies[-1] + 1
    text = tuple(card_str(c) for c in line)
    return Analysis(text[:cut], text, tuple(decision_plies), tempting, misses, check.nodes)


def verify(puzzle: Puzzle, max_nodes: int = MAX_NODES) -> bool:
    """Re-verify a puzzle with the engine: unique, and the same solution and goal."""
    try:
        a = analyse(puzzle.game, puzzle.position, puzzle.goal, max_nodes)
    except NotUniqueError:
        return False
    return a.solution == puzzle.solution


# ============================================================================ generation


@dataclass(frozen=True)
class _Setup:
    game: str
    cards: int
    goal: str
    themes: tuple[str, ...]
    players: int

    @property
    def in_trick(self) -> bool:
        """Start inside a trick: asked for, or a Carabin chelem (see :func:`_candidate`)."""
        return "in-trick" in self.themes or (self.game == "carabin" and self.goal == "all-tricks")


def _theme_constraints(
    setup: _Setup, theme: str, goal_hands: str, other: Sequence[str], trump: int, rng: random.Random
) -> list[cs.Constraint]:
    plain = [s for s in range(4) if s != trump]
    k = setup.cards
    if theme == "bella":
        if setup.game != "klabberjass":
            raise RulesError("the bella theme is for klabberjass")
        return [cs.bella(goal_hands, trump)]
    if theme == "sequence":
        return [cs.HasSequence(goal_hands, 3)]
    if theme == "void":
        return [cs.void(goal_hands, rng.choice(plain))]
    if theme == "short-trumps":
        return [cs.SuitCount(goal_hands, trump, 0, 1), *(cs.SuitCount(o, trump, 1) for o in other)]
    if theme == "rich":
        if setup.game == "klabberjass":
            return [cs.PointRange("*", 12 * k)]
        return [cs.PointRange("*", setup.players * k)]
    if theme == "in-trick":
        return []
    raise RulesError(f"unknown theme '{theme}' (expected one of: {', '.join(THEMES)})")


def _ranked(suit: int, ranks: str) -> tuple[int, ...]:
    return tuple(make_card(suit, "23456789TJQKA".index(r)) for r in ranks)


def _sweep_constraints(
    setup: _Setup, goal: str, foes: Sequence[str], trump: int
) -> list[cs.Constraint]:
    """Klabberjass "take every trick": the goal seat is strong but not overwhelming.

    He holds at least half his cards in trumps with the Jass or the Menel, and only high
    plain cards (A T K); the opponent keeps a trump or two, so trumps must be drawn in
    the right order or kept for the right moment.
    """
    k = setup.cards
    plain_small = tuple(c for s in range(4) if s != trump for c in _ranked(s, "789JQ"))
    return [
        cs.SuitCount(goal, trump, (k + 1) // 2, k),
        cs.HoldsAny(goal, _ranked(trump, "J9")),
        cs.Lacks(goal, plain_small),
        *(cs.SuitCount(f, trump, 1, 2) for f in foes),
    ]


def _chelem_constraints(setup: _Setup, bidder: int, trump: int) -> list[cs.Constraint]:
    """A Carabin chelem in the making: the bidder holds trump length, a top trump (A K Q)
    in each of his hands and only aces beside trumps; the others hold a few trumps."""
    k = setup.cards
    b = str(bidder)
    top = _ranked(trump, "AKQ")
    plain_small = tuple(c for s in range(4) if s != trump for c in _ranked(s, "23456789TJQK"))
    others = [str(s) for s in range(setup.players) if s != bidder]
    return [
        cs.SuitCount(b, trump, (k + 1) // 2, k),
        cs.HoldsAny(f"{b}L", top),
        cs.HoldsAny(f"{b}R", top),
        cs.Lacks(b, plain_small),
        cs.SuitCount("*", trump, (k + 1) // 2 + 1, k + 2),
        *(cs.SuitCount(o, trump, 0, 2) for o in others),
    ]


def _bidder_constraints(setup: _Setup, bidder: int, trump: int) -> list[cs.Constraint]:
    """A Carabin bidder looks like one: half his cards or more are trumps."""
    if setup.goal == "all-tricks":
        return _chelem_constraints(setup, bidder, trump)
    return [cs.SuitCount(str(bidder), trump, (setup.cards + 1) // 2)]


def _tries(setup: _Setup) -> int:
    """Random deals tried before CP-SAT: none for the tight "every trick" deals."""
    return 0 if setup.goal == "all-tricks" else cs.REJECTION_TRIES


def _defence_card(g: Any, pos: Any, setup: _Setup, rng: random.Random) -> int:
    """A defender's card already played to the puzzle's trick: for a points goal one of
    his double-dummy best cards (at random among equals); for "every trick" a card at
    random among those that leave the next player a choice (any card if none does)."""
    legal = pos.legal_moves()
    if setup.goal == "all-tricks" or len(legal) == 1:
        choosy = [c for c in legal if len(pos.play(c).legal_moves()) > 1]
        return rng.choice(choosy or legal)
    vals = g.side_move_values(pos, g.mover_side(pos))
    top = max(vals.values())
    return rng.choice([c for c in legal if vals[c] == top])


def _candidate(setup: _Setup, seed: int) -> tuple[Any, list[cs.Constraint]]:
    """The candidate position of one seed (deterministic).

    In-trick candidates are dealt a whole trick earlier; then the defenders on the goal
    side's right (the opponent in Klabberjass; one to all the others in Carabin, at
    random) play to the trick. A Carabin chelem always starts so: when the bidder leads
    every trick his chelem needs each of his cards to beat every card the others hold in
    the same kind of hand, whatever the order, and no choice of his ever matters.
    """
    rng = random.Random(seed)
    trump = rng.randrange(4)
    k = setup.cards
    if setup.game == "klabberjass":
        goal = rng.randrange(2)
        lead = 1 - goal if setup.in_trick else goal
        spec = cs.klabberjass_spec(k, trump)
        seats = ("E", "D")
        cons = [
            c
            for t in setup.themes
            for c in _theme_constraints(setup, t, seats[goal], [seats[1 - goal]], trump, rng)
        ]
        if setup.goal == "all-tricks":
            cons += _sweep_constraints(setup, seats[goal], [seats[1 - goal]], trump)
        deal = cs.sample_deal(spec, cons, rng, tries=_tries(setup), checked=True)
        pos = klabberjass.Position(trump, lead, (deal["E"], deal["D"]))
        if setup.in_trick:
            pos = pos.play(_defence_card(get_game("klabberjass"), pos, setup, rng))
        return pos, cons
    n = setup.players
    bidder = rng.randrange(n)
    played = rng.randrange(1, n) if setup.in_trick else 0
    lead = (bidder - played) % n
    right = (k + 1) // 2
    left = k // 2
    spec = cs.carabin_spec(n, left, right)
    others = [str(s) for s in range(n) if s != bidder]
    cons = _bidder_constraints(setup, bidder, trump) + [
        c
        for t in setup.themes
        for c in _theme_constraints(setup, t, str(bidder), others, trump, rng)
    ]
    deal = cs.sample_deal(spec, cons, rng, checked=True)
    hands = tuple((deal[f"{s}L"], deal[f"{s}R"]) for s in range(n))
    hand = 0 if k % 2 == 0 else 1
    cpos = carabin.Position(trump, bidder, lead, hand, hands, ())
    g = get_game("carabin")
    for _ in range(played):
        cpos = cpos.play(_defence_card(g, cpos, setup, rng))
    return cpos, cons


def default_min_decisions(game: str, cards: int, goal: str) -> int:
    """Fewest decisions asked for by default: 2, but 1 for hands of two cards and for
    "every trick" goals. A Carabin chelem has exactly one decision: the bidder leads
    every trick after the first, where his choices never matter. A Klabberjass sweep
    from the lead rarely has two (start it inside a trick for those). Three Carabin
    tricks hold one choice only (the hand of two cards)."""
    if cards < 3 or goal == "all-tricks" or (game == "carabin" and cards == 3):
        return 1
    return 2


def _check_options(game: str, cards: int, goal: str, themes: Sequence[str], players: int) -> None:
    get_game(game)  # an unknown game is refused here
    top = 9 if game == "klabberjass" else 8
    if not 2 <= cards <= top:
        raise RulesError(f"invalid --cards {cards} for {game} (expected 2 to {top})")
    if goal not in GOALS:
        raise RulesError(f"unknown goal '{goal}' (expected one of: {', '.join(GOALS)})")
    for t in themes:
        if t not in THEMES:
            raise RulesError(f"unknown theme '{t}' (expected one of: {', '.join(THEMES)})")
        if t == "bella" and game != "klabberjass":
            raise RulesError("the bella theme is for klabberjass")
    if game == "carabin":
        carabin.check_players(players)


def puzzle_from_seed(
    game: str,
    seed: int,
    cards: int,
    goal: str = "max",
    themes: Sequence[str] = (),
    players: int = 4,
    min_decisions: int = 1,
    max_nodes: int = MAX_NODES,
) -> Puzzle | None:
    """The puzzle of one candidate seed, or None if its position is not a puzzle."""
    setup = _Setup(game, cards, goal, tuple(themes), players)
    pos, _ = _candidate(setup, seed)
    g = get_game(game)
    try:
        a = analyse(g, pos, goal, max_nodes)
    except NotUniqueError:
        return None
    if a.decisions < min_decisions:
        return None
    goal_obj = _goal_need(g, pos, goal)[0]
    return Puzzle(
        game=game,
        position=str(pos),
        goal=goal_obj,
        solution=a.solution,
        rating=a.rating,
        seed=seed,
        decisions=a.decisions,
        tempting=a.tempting,
        greedy_misses=a.greedy_misses,
        line=a.line,
        decision_plies=a.decision_plies,
        nodes=a.nodes,
        themes=tuple(themes),
    )


def iter_puzzles(
    game: str,
    seed: int = 0,
    cards: int = 4,
    goal: str = "max",
    themes: Sequence[str] = (),
    players: int = 4,
    min_decisions: int | None = None,
    min_rating: float = 0.0,
    max_candidates: int | None = None,
    max_nodes: int = MAX_NODES,
    progress: Callable[[int, int], None] | None = None,
) -> Iterator[Puzzle]:
    """Puzzles one after another, deterministic for ``seed`` (see :func:`generate`)."""
    _check_options(game, cards, goal, themes, players)
    if min_decisions is None:
        min_decisions = default_min_decisions(game, cards, goal)
    setup = _Setup(game, cards, goal, tuple(themes), players)
    if themes or goal == "all-tricks":
        _check_themes(setup)
    rng = random.Random(f"puzzles:{game}:{seed}")
    seen: set[str] = set()
    tried = found = 0
    while max_candidates is None or tried < max_candidates:
        sub = rng.getrandbits(48)
        tried += 1
        p = puzzle_from_seed(game, sub, cards, goal, themes, players, min_decisions, max_nodes)
        if progress is not None:
            progress(tried, found + (p is not None))
        if p is None or p.rating < min_rating or p.position in seen:
            continue
        seen.add(p.position)
        found += 1
        yield p


def _check_themes(setup: _Setup) -> None:
    """Unsatisfiable themes (with the goal's own deal constraints) fail at once,
    whatever the trump (CP-SAT proof)."""
    for trump in range(4):
        rng = random.Random(0)
        if setup.game == "klabberjass":
            spec = cs.klabberjass_spec(setup.cards, trump)
            cons = [
                c
                for t in setup.themes
                for c in _theme_constraints(setup, t, "E", ["D"], trump, rng)
            ]
            if setup.goal == "all-tricks":
                cons += _sweep_constraints(setup, "E", ["D"], trump)
        else:
            k = setup.cards
            spec = cs.carabin_spec(setup.players, k // 2, (k + 1) // 2)
            others = [str(s) for s in range(1, setup.players)]
            cons = _bidder_constraints(setup, 0, trump) + [
                c
                for t in setup.themes
                for c in _theme_constraints(setup, t, "0", others, trump, rng)
            ]
        cs.check_satisfiable(spec, cons)


def generate(
    game: str,
    count: int,
    seed: int = 0,
    cards: int = 4,
    goal: str = "max",
    themes: Sequence[str] = (),
    players: int = 4,
    min_decisions: int | None = None,
    min_rating: float = 0.0,
    max_candidates: int | None = None,
    max_nodes: int = MAX_NODES,
) -> list[Puzzle]:
    """Generate ``count`` verified puzzles, the same ones for the same arguments.

    Args:
        game: ``klabberjass`` or ``carabin``.
        count: how many puzzles.
        seed: the seed; candidate ``i`` gets a seed drawn from it (kept in the puzzle).
        cards: cards left per hand (Klabberjass, 2-9) or per seat (Carabin, 2-8: tricks
            left, left and right hands together).
        goal: ``max``, ``contract`` or ``all-tricks`` (win every trick: the bidder's
            chelem in Carabin, the side to move in Klabberjass).
        themes: deal themes built with CP-SAT constraints: ``bella`` (the goal side holds
            K-Q of trump), ``sequence`` (a run of three), ``void`` (in a plain suit),
            ``short-trumps`` (the goal side holds at most one trump, each opponent at
            least one), ``rich`` (many points in play), ``in-trick`` (start inside a
            trick: the defenders before the side to move have played to it).
        players: Carabin players (3-6).
        min_decisions: fewest unique decisions on the main line (default
            :func:`default_min_decisions`: 2, or 1 where a second cannot happen).
        min_rating: lowest rating kept.
        max_candidates: candidates tried before giving up (default ``2000 * count``).
        max_nodes: size of the strategy tree verified per candidate.

    Raises:
        RulesError: bad options or unsatisfiable themes.
        GenerationError: fewer than ``count`` puzzles among ``max_candidates``.
    """
    if count < 0:
        raise RulesError(f"invalid count {count} (expected 0 or more)")
    limit = max_candidates if max_candidates is not None else 2000 * max(count, 1)
    out: list[Puzzle] = []
    it = iter_puzzles(
        game, seed, cards, goal, themes, players, min_decisions, min_rating, limit, max_nodes
    )
    for p in it:
        if len(out) >= count:
            break
        out.append(p)
        if len(out) >= count:
            break
    if len(out) < count:
        raise GenerationError(
            f"found {len(out)} of {count} puzzles in {limit} candidates "
            "(try more cards, another goal or fewer themes)"
        )
    return out


def suit_symbol(suit: int) -> str:
    """The suit symbol of a suit index."""
    return "♠♥♦♣"[suit]


def parse_solution(cards: Sequence[str]) -> list[int]:
    """The solution's cards as ints."""
    return [parse_card(c) for c in cards]


__all__ = [
    "GOALS",
    "SUITS",
    "THEMES",
    "Analysis",
    "GenerationError",
    "Goal",
    "NotUniqueError",
    "Puzzle",
    "analyse",
    "default_min_decisions",
    "generate",
    "greedy_card",
    "greedy_scores",
    "iter_puzzles",
    "parse_solution",
    "puzzle_from_seed",
    "rating",
    "verify",
]
