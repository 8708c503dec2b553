"""The Carabin engine: exact double-dummy values from the compiled core.

The same functions as :mod:`solver.klabberjass.engine`: :func:`solve`, :func:`value`,
:func:`values` (a batch in one compiled call), :func:`move_values`, :func:`make`,
:func:`all_tricks` and :func:`core`; :func:`pimc` makes one card-play decision over
given worlds in one compiled call, :func:`pimc_drawn` one over worlds drawn in that call
(:func:`draw_worlds`: those ``random.Random(seed).sample`` draws, card for card). Side 0 is the bidder, who plays against the
coalition of every other seat (every opponent scores the same): he maximises his
points, they minimise them.

>>> from solver.carabin import Position
>>> r = solve(Position.parse("trump=S bidder=0 lead=1 next=R 0=.../A... 1=.../K... "
...                          "2=.../.3.."))
>>> r.points, r.best, r.all_tricks
((7, 0), KS, True)
"""

from __future__ import annotations

import array
import dataclasses
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from solver.carabin import _core as _carabin
from solver.carabin.position import Position
from solver.carabin.rules import POWER, RANK_POINTS, TRICK_ORDERS, card_points
from solver.cards import CARDS, Card, card_str, cards_of, in_notation_order, rank_of
from solver.contexts import Contexts
from solver.errors import IllegalPlayError, RulesError, UsageError
from solver.limits import check_count, max_tt_mb, max_workers

if TYPE_CHECKING:
    from solver.carabin.team import Team

DEFAULT_TT_MB = 32

#: The table of a 6-player search when none is given (:func:`default_tt_mb`): the
#: longest 6-player searches fill 32 MB, and take some 25% fewer nodes in 128 MB (fresh
#: seed 3101, core alone: 511 M -> 359 M, 430 M -> 320 M, 780 M -> 591 M nodes; 256 MB
#: and more gain nothing over 128, and at 3-5 players 128 MB changes no search's nodes
#: by more than 0.1%).
SIX_PLAYER_TT_MB = 128


def default_tt_mb(players: int) -> int:
    """The table size (MB) a search of a ``players``-player deal takes when none is
    given: :data:`SIX_PLAYER_TT_MB` at 6 players (at most half this machine's memory),
    else :data:`DEFAULT_TT_MB`.

    >>> default_tt_mb(4), default_tt_mb(6) == min(SIX_PLAYER_TT_MB, max_tt_mb())
    (32, True)
    """
    return min(SIX_PLAYER_TT_MB, max_tt_mb()) if players >= 6 else DEFAULT_TT_MB


def new_core(megabytes: int) -> _carabin.Core:
    """A new search context with a ``megabytes`` MB table, playing by this module's card
    tables (most callers want :func:`core`, the calling thread's)."""
    return _carabin.Core(megabytes, power=POWER, rank_points=RANK_POINTS)


_contexts = Contexts(new_core, DEFAULT_TT_MB)


def core(tt_mb: int | None = None, players: int | None = None) -> _carabin.Core:
    """The calling thread's Carabin search context with a ``tt_mb`` MB transposition table,
    or (None) its default context: :data:`DEFAULT_TT_MB`, its table grown to
    :func:`default_tt_mb` of ``players`` the first time a search of that many players
    asks for it (so a 6-player search gets 128 MB; what was set on the context, a time
    limit say, stays; the table, once grown, stays so in that thread).

    In each thread the default context and the context of the last size asked
    are kept (:class:`solver.contexts.Contexts`: threads never share a table). A
    table's entries belong to the deal (card ownership) they were computed in and stay
    valid for every position of that deal, so per-move values and deal tables reuse
    earlier work. The core plays by the card tables of :mod:`solver.carabin.rules`.
    """
    if tt_mb is not None:
        return _contexts.get(tt_mb)
    default = _contexts.get(None)
    want = DEFAULT_TT_MB if players is None else default_tt_mb(players)
    if default.tt_bytes < want << 20:
        default.resize(want)  # it grows, never shrinks
    return default


def _checked(position: object) -> Position:
    """``position`` if it is a Carabin Position.

    Raises:
        UsageError: anything else (a text: parse it with ``Position.parse``).
    """
    if not isinstance(position, Position):
        raise UsageError(
            f"expected a Carabin Position, not {type(position).__name__} {position!r:.80} "
            "(read a text with Position.parse)"
        )
    return position


def _args(position: Position) -> tuple[int, list[int], int, int, int, int, int, list[int]]:
    _checked(position)
    hands = [left for left, _ in position.hands] + [right for _, right in position.hands]
    return (
        position.players,
        hands,
        position.trump,
        position.bidder,
        position.lead,
        position.hand,
        TRICK_ORDERS.index(position.trick_order),
        list(position.trick),
    )


def _guess(position: Position) -> int:
    # Most contracts fail and the bidder's share is usually small: probe low first.
    return min(position.points_left(), 1 + position.points_left() // 4)


@dataclass(frozen=True)
class Result:
    """The double-dummy answer for one Carabin position.

    Attributes:
        position: the position solved.
        points: points (bidder, others) taken from here, the unfinished trick included.
        best: an optimal card for the seat to move (None if the play is over); among
            equal cards the one with the fewest points, then the lowest.
        all_tricks: whether the bidder can win every remaining trick.
        moves: for each legal card, the points of the mover's side (the bidder, or the
            others) if he plays it (only when asked for).
        exact: False when a time limit stopped the search: ``points`` are then the
            points each side is proven to take at least (they add up to less than the
            points left), ``best`` and ``moves`` may be None and ``all_tricks`` None
            when it was not decided.
    """

    position: Position
    points: tuple[int, int]
    best: Card | None
    all_tricks: bool | None
    moves: dict[int, int] | None = None
    exact: bool = True

    @property
    def bounds(self) -> tuple[int, int]:
        """(lo, hi): the bidder's points are proven to lie between them."""
        return self.points[0], self.position.points_left() - self.points[1]

    def to_json(self) -> dict:
        """The JSON object of ``tricklab solve`` (docs/cli.md); when not exact the points
        are ``[lo, hi]`` ranges and ``"exact": false``."""
        points: dict = {"bidder": self.points[0], "others": self.points[1]}
        if not self.exact:
            lo, hi = self.bounds
            total = self.position.points_left()
            points = {"bidder": [lo, hi], "others": [total - hi, total - lo]}
        out: dict = {
            "points": points,
            "best": card_str(self.best) if self.best is not None else None,
            "all_tricks": self.all_tricks,
        }
        if not self.exact:
            out["exact"] = False
        if self.moves is not None:
            out["moves"] = {card_str(c): v for c, v in self.moves.items()}
        return out


def value(position: Position, *, tt_mb: int | None = None) -> int:
    """The bidder's exact points from ``position`` on (the unfinished trick included)."""
    if _checked(position).is_over:
        return 0
    return core(tt_mb, position.players).value(*_args(position), _guess(position))


def values(
    positions: Sequence[Position] | Iterable[Position], *, tt_mb: int | None = None
) -> list[int]:
    """The bidder's exact points for many positions in one compiled call (the GIL is
    released); the same as :func:`value` on each."""
    positions = list(positions)
    n = len(positions)
    players, trump, bidder, lead, hand, order = (array.array("b") for _ in range(6))
    hands, trick, guess = array.array("Q"), array.array("b"), array.array("i")
    for p in positions:
        k, hs, t, b, ld, h, o, cards = _args(p)
        players.append(k)
        trump.append(t)
        bidder.append(b)
        lead.append(ld)
        hand.append(h)
        order.append(o)
        hands.extend(hs + [0] * (2 * _carabin.MAX_PLAYERS - len(hs)))
        trick.extend(cards + [-1] * (_carabin.MAX_PLAYERS - 1 - len(cards)))
        guess.append(_guess(p))
    out = array.array("i", bytes(4 * n))
    if n:
        core(tt_mb, max(players)).values(
            players, hands, trump, bidder, lead, hand, order, trick, guess, out
        )
    return list(out)


def make(position: Position, target: int, *, tt_mb: int | None = None) -> bool:
    """Whether the bidder takes at least ``target`` points from here (one zero-window probe)."""
    if _checked(position).is_over:
        return target <= 0
    return core(tt_mb, position.players).make(*_args(position), target)


def all_tricks(position: Position, side: int = 0, *, tt_mb: int | None = None) -> bool:
    """Whether the bidder (``side`` 0, the only side that may ask) can win every
    remaining trick, the unfinished one included.

    Raises:
        RulesError: ``side`` is not 0 (the all-tricks goal in Carabin is the bidder's chelem).
    """
    if side != 0:
        raise RulesError("the all-tricks goal in carabin is the bidder's (the chelem)")
    if _checked(position).is_over:
        return True
    return core(tt_mb, position.players).all_tricks(*_args(position))


def _bidder_move_values(position: Position, tt_mb: int | None) -> dict[int, int]:
    return dict(core(tt_mb, position.players).moves(*_args(position), _guess(position)))


def _side_values(position: Position, bidder_values: dict[int, int]) -> dict[int, int]:
    total = position.points_left()
    coalition = position.to_move != position.bidder
    ordered: dict[int, int] = {
        c: (total - bidder_values[c] if coalition else bidder_values[c])
        for c in in_notation_order(bidder_values)
    }
    return ordered


def move_values(position: Position, *, tt_mb: int | None = None) -> dict[int, int]:
    """For each legal card (in notation order), the points of the mover's side from
    here if he plays it."""
    if _checked(position).is_over:
        return {}
    return _side_values(position, _bidder_move_values(position, tt_mb))


def bounds(
    position: Position, *, time_limit: float | None = None, tt_mb: int | None = None
) -> tuple[int, int]:
    """Proven bounds ``(lo, hi)`` on the bidder's points from here: the exact value
    (``lo == hi``) when the search ends within ``time_limit`` seconds, else what its
    probes proved by then.

    >>> from solver.carabin import Position
    >>> bounds(Position.parse("trump=S bidder=0 lead=1 next=R 0=.../A... 1=.../K... 2=.../.3.."))
    (7, 7)
    """
    if position.is_over:
        return (0, 0)
    engine_core = core(tt_mb, position.players)
    engine_core.set_time_limit(time_limit)
    try:
        v = engine_core.value(*_args(position), _guess(position))
        return (v, v)
    except TimeoutError:
        lo, hi = engine_core.last_bounds
        return (lo, hi)
    finally:
        engine_core.set_time_limit(None)


def within(search, engine_core: _carabin.Core, deadline: float):  # type: ignore[no-untyped-def]
    """``search()`` under the time left until ``deadline``; None if it ran out."""
    engine_core.set_time_limit(max(0.0, deadline - time.monotonic()))
    try:
        return search()
    except TimeoutError:
        return None
    finally:
        engine_core.set_time_limit(None)


@dataclass(frozen=True)
class PimcChoice:
    """What one :func:`pimc` decision chose, and what it cost.

    Attributes:
        card: the chosen candidate.
        index: its index among the candidates.
        searches: worlds evaluated, summed over the candidates (those settled without a
            search, by points already won or out of reach, included).
        undecided: evaluations cut by the time limit.
    """

    card: int
    index: int
    searches: int
    undecided: int


def _alike(worlds: Sequence[Position]) -> list[list[int]]:
    """The hands of each world (as for the core), once every world is checked to be a
    Position of the same public state as the first: players, trump, bidder, leader,
    hand in use, trick, trick order, and the mover's hand in use.

    Raises:
        UsageError: a world that is not a Position.
        RulesError: no world, or worlds that differ in more than the hidden cards.
    """
    if not worlds:
        raise RulesError("no worlds to decide over (expected at least one position)")
    first = _checked(worlds[0])
    if first.is_over:
        raise RulesError(f'no card to play in "{first}" (play is over)')
    me, h = first.to_move, first.hand
    public = (first.players, first.trump, first.bidder, first.lead, h, first.trick,
              first.trick_order, first.hands[me][h])  # fmt: skip
    out = []
    for i, w in enumerate(worlds):
        _checked(w)
        if (w.players, w.trump, w.bidder, w.lead, w.hand, w.trick, w.trick_order,
                w.hands[me][h]) != public:  # fmt: skip
            raise RulesError(
                f'world {i} "{w}" is not the state of world 0 "{first}" with other hidden '
                "cards (players, trump, bidder, leader, hand in use, trick, trick order and "
                "the mover's hand in use must be the same)"
            )
        out.append([left for left, _ in w.hands] + [right for _, right in w.hands])
    return out


def pimc(
    worlds: Sequence[Position],
    candidates: Sequence[int],
    target: int | None = None,
    *,
    lost: bool = False,
    time_limit: float | None = None,
    tt_mb: int | None = None,
) -> PimcChoice:
    """One card-play decision by perfect-information Monte Carlo, in one compiled call
    (the GIL is released).

    In each world the bidder's contract succeeds or fails (double dummy) once the mover
    plays a candidate; the bidder wants it made, every other seat failed. Candidates are
    evaluated one after another in the order given, each over the worlds in the order
    given; a candidate is out as soon as it has failed in as many worlds as the best
    candidate so far, and one that never fails ends the decision, so the first of the
    candidates that fail in the fewest worlds is chosen. One transposition table serves
    every world and candidate of the decision (an entry is used again only in the world
    it was found in).

    Args:
        worlds: positions alike but for the cards hidden from the mover (his view,
            drawn by the caller).
        candidates: cards of the mover's hand in use, in the order that breaks ties.
        target: the points the bidder must still take from these positions (the
            unfinished trick included) to make his contract; None: a chelem, for which
            he must take every remaining trick.
        lost: (chelem) the bidder has already lost a trick: the chelem has failed.
        time_limit: seconds a search; a world not decided by then counts as half a
            failure for the candidate (None: no limit).
        tt_mb: transposition table size in MB (None: the thread's default context,
            see :func:`core`).

    Returns:
        The chosen candidate, with the worlds evaluated and those left undecided.

    Raises:
        UsageError: a world that is not a Position, or a bad ``tt_mb``.
        RulesError: no world, worlds of different public states, a finished position,
            no candidate, a candidate given twice, or a time limit not above 0.
        IllegalPlayError: a candidate that is not in the mover's hand in use.
        KeyboardInterrupt: the decision was interrupted (Ctrl-C).

    The bidder leads his last two cards, the ace of trumps and the queen of diamonds;
    the king of trumps (3 points) is hidden with one of the others, and whoever holds it
    trumps the queen. Of the 9 points left he takes 4 (the ace) in every world:

    >>> from solver.carabin import Position
    >>> worlds = [Position.parse(f"trump=S bidder=0 lead=0 next=R 0=.../A..Q. {hidden} "
    ...                          "order=left_then_right")
    ...           for hidden in ("1=.../K..2. 2=.../.8.3.", "1=.../.8.3. 2=.../K..2.")]
    >>> moves = worlds[0].legal_moves()
    >>> [card_str(c) for c in moves]
    ['AS', 'QD']
    >>> c = pimc(worlds, moves, 4)  # the ace makes 4 points in both worlds: chosen at once
    >>> card_str(c.card), c.searches
    ('AS', 2)
    >>> c = pimc(worlds, moves, 5)  # every card fails everywhere: the first is kept
    >>> card_str(c.card), c.searches
    ('AS', 4)
    """
    hands = _alike(worlds)
    first = worlds[0]
    cards = _candidates(first, candidates, time_limit)
    n, _, trump, bidder, lead, h, order, trick = _args(first)
    i, searches, undecided = core(tt_mb).pimc(
        n, hands, trump, bidder, lead, h, order, trick, cards,
        target is None, 0 if target is None else max(-1, min(target, 1000)), lost, time_limit,
    )  # fmt: skip
    return PimcChoice(cards[i], i, searches, undecided)


def _candidates(first: Position, candidates: Sequence[int], time_limit: float | None) -> list[int]:
    """The candidates of a :func:`pimc` decision from ``first``, checked (and the time
    limit)."""
    cards = list(candidates)
    if not cards:
        raise RulesError("no candidate cards (expected at least one)")
    legal = first.legal_set()
    for c in cards:
        if not isinstance(c, int) or not 0 <= c < 64 or not legal >> c & 1:
            first.step(c)  # raises the game's message (IllegalPlayError, NotationError)
            raise IllegalPlayError(f"candidate {c!r} is not a card of the mover")
    if len(set(cards)) != len(cards):
        raise RulesError(f"candidates {[card_str(c) for c in cards]} name a card twice")
    if time_limit is not None and not time_limit > 0:
        raise RulesError(f"invalid time_limit {time_limit} (seconds, more than 0)")
    return cards


def pimc_drawn(
    position: Position,
    pool: int,
    hidden: Sequence[tuple[int, int, int]],
    count: int,
    seed: int,
    candidates: Sequence[int],
    target: int | None = None,
    *,
    lost: bool = False,
    time_limit: float | None = None,
    tt_mb: int | None = None,
) -> PimcChoice:
    """:func:`pimc` over ``count`` worlds drawn in the compiled call: the worlds of
    :func:`draw_worlds` with the same arguments, which are those
    ``analysis.play.carabin_worlds`` draws in Python from the same seed (without
    reading the auction), so the choice is that of :func:`pimc` over them.

    Args:
        position: the state of the decision; the cards of the ``hidden`` hands are
            ignored (any world of the mover's view will do).
        pool: the cards the hidden hands may hold (a mask).
        hidden: (seat, hand 0 = left / 1 = right, cards) for each hidden hand, in the
            order the drawn cards are dealt to them.
        count: worlds (1 to ``solver.carabin._core.PIMC_MAX_WORLDS``).
        seed: the seed of the worlds, 0 to 2**64 - 1.
        candidates: as for :func:`pimc`.
        target: as for :func:`pimc`.
        lost: as for :func:`pimc`.
        time_limit: as for :func:`pimc`.
        tt_mb: as for :func:`pimc`.

    Raises:
        UsageError: ``position`` is not a Position.
        RulesError, IllegalPlayError: as for :func:`pimc`, or a hand of the mover
            among the hidden ones.
        ValueError: a pool or hidden hands that do not fit the position.
    """
    _checked(position)
    if position.is_over:
        raise RulesError(f'no card to play in "{position}" (play is over)')
    cards = _candidates(position, candidates, time_limit)
    n, hands, trump, bidder, lead, h, order, trick = _args(position)
    view, slots = _view(hands, n, position.to_move, hidden)
    i, searches, undecided = core(tt_mb).pimc_drawn(
        n, view, trump, bidder, lead, h, order, trick, cards,
        target is None, 0 if target is None else max(-1, min(target, 1000)), lost, time_limit,
        list(cards_of(pool)), slots, count, seed,
    )  # fmt: skip
    return PimcChoice(cards[i], i, searches, undecided)


def _view(
    hands: list[int], n: int, me: int, hidden: Sequence[tuple[int, int, int]]
) -> tuple[list[int], list[tuple[int, int]]]:
    """The core's hands with the ``hidden`` ones emptied, and (index, cards) of each
    hidden hand; a hand of the mover (``me``) is never hidden."""
    view = list(hands)
    slots = []
    for seat, kind, size in hidden:
        if seat == me:
            raise RulesError(f"hidden hand ({seat}, {kind}) is the mover's own")
        view[kind * n + seat] = 0
        slots.append((kind * n + seat, size))
    return view, slots


def draw_worlds(
    position: Position, pool: int, hidden: Sequence[tuple[int, int, int]], count: int, seed: int
) -> list[Position]:
    """The worlds :func:`pimc_drawn` decides over with the same arguments:
    ``random.Random(seed)``, then for each world ``Random.sample`` of ``total`` cards
    of ``pool`` (in card order) dealt in order to the ``hidden`` hands, as
    ``analysis.play.carabin_worlds`` draws them (drawn in C, card for card the same).

    Two hidden hands of two cards each, from the five cards the mover has not seen
    (one of them, the two of clubs, dealt to nobody):

    >>> import random
    >>> from solver.carabin import Position
    >>> p = Position.parse("trump=S bidder=0 lead=0 next=R 0=.../A..Q. 1=.../K..2. "
    ...                    "2=.../.8.3. order=left_then_right")
    >>> pool = p.hands[1][1] | p.hands[2][1] | 1 << 48
    >>> for w in draw_worlds(p, pool, [(1, 1, 2), (2, 1, 2)], 2, seed=7):
    ...     print(w)
    trump=S bidder=0 lead=0 next=R 0=.../A..Q. 1=.../.8.3. 2=.../K..2. order=left_then_right
    trump=S bidder=0 lead=0 next=R 0=.../A..Q. 1=.../K...2 2=.../.8.2. order=left_then_right
    >>> rng = random.Random(7)  # the same cards drawn in Python
    >>> [[card_str(c) for c in rng.sample(list(cards_of(pool)), 4)] for _ in range(2)]
    [['3D', '8H', '2D', 'KS'], ['KS', '2C', '8H', '2D']]
    """
    _checked(position)
    n, hands, *_ = _args(position)
    view, slots = _view(hands, n, position.to_move, hidden)
    out = []
    for hs in _carabin.draw_worlds(n, view, list(cards_of(pool)), slots, count, seed):
        w = tuple((hs[s], hs[n + s]) for s in range(n))
        out.append(dataclasses.replace(position, hands=w, _checked=True))
    return out


def _solve_within(
    position: Position, moves: bool, tt_mb: int | None, seconds: float, team: Team | None = None
) -> Result:
    """:func:`solve` within ``seconds``: the exact answer, or proven bounds. With a
    ``team`` (:mod:`solver.carabin.team`), the position's bounds and then each card's
    value are searched by it, helped."""
    deadline = time.monotonic() + seconds
    c = core(tt_mb, position.players)
    total = position.points_left()
    sweep = within(lambda: all_tricks(position, tt_mb=tt_mb), c, deadline)
    left = max(0.0, deadline - time.monotonic())
    lo, hi = (
        bounds(position, time_limit=left, tt_mb=tt_mb)
        if team is None
        else team.bounds(position, time_limit=left, tt_mb=tt_mb)
    )
    if sweep is None and hi < total:
        sweep = False  # a chelem takes every point
    inexact = Result(position, (lo, total - hi), None, sweep, None, exact=False)
    if lo < hi:
        return inexact
    if team is None:
        exact = within(lambda: solve(position, moves, tt_mb=tt_mb), c, deadline)
        return exact if exact is not None else inexact
    values = team.card_values(position, tt_mb=tt_mb, deadline=deadline)
    if values is None or sweep is None:
        return inexact
    return result_of(position, values, sweep, total, moves)


def solve(
    position: Position,
    moves: bool = False,
    *,
    tt_mb: int | None = None,
    time_limit: float | None = None,
    workers: int = 1,
) -> Result:
    """Solve a Carabin position exactly (double dummy).

    Args:
        position: any play position, an unfinished trick included.
        moves: also give the value of every legal card.
        tt_mb: transposition table size in MB (default: :func:`default_tt_mb` of its
            players).
        time_limit: seconds; if the searches have not finished by then, the answer is
            the bounds proven so far (``exact`` False; see :class:`Result`).
        workers: threads; from 2, the other threads help each card's search with its
            table (:mod:`solver.carabin.team`). The same answer whatever the number
            (under a ``time_limit`` that runs out, the bounds depend on the time).

    Returns:
        The points of the bidder and of the others from here, an optimal card, whether
        the bidder can take every remaining trick and, if asked, every card's value.

    Raises:
        UsageError: ``tt_mb`` is not a whole number from 1 to
            :func:`solver.limits.max_tt_mb`, or the table cannot be allocated; ``workers``
            is not a whole number from 1 to :func:`solver.limits.max_workers`.
        KeyboardInterrupt: the search was interrupted (Ctrl-C).
    """
    if workers != 1:
        workers = check_count(workers, "workers", 1, max_workers(), "four per core")
        if workers > 1:
            from solver.carabin import team  # the helpers' module imports this one

            return team.solve(
                _checked(position), moves, tt_mb=tt_mb, workers=workers, time_limit=time_limit
            )
    if time_limit is not None:
        return _solve_within(_checked(position), moves, tt_mb, time_limit)
    total = _checked(position).points_left()
    sweep = all_tricks(position, tt_mb=tt_mb)
    if _checked(position).is_over:
        return Result(position, (0, 0), None, sweep, {} if moves else None)
    return result_of(position, _bidder_move_values(position, tt_mb), sweep, total, moves)


def result_of(
    position: Position,
    bidder_values: dict[int, int],
    sweep: bool | None,
    total: int,
    moves: bool,
) -> Result:
    """The exact :class:`Result` from the bidder's points after each legal card."""
    coalition = position.to_move != position.bidder
    bidder_points = (min if coalition else max)(bidder_values.values())
    best = min(
        (c for c, v in bidder_values.items() if v == bidder_points),
        key=lambda c: (card_points(c), rank_of(c), c),
    )
    return Result(
        position=position,
        points=(bidder_points, total - bidder_points),
        best=CARDS[best],
        all_tricks=sweep,
        moves=_side_values(position, bidder_values) if moves else None,
    )


__all__ = [
    "DEFAULT_TT_MB",
    "SIX_PLAYER_TT_MB",
    "default_tt_mb",
    "PimcChoice",
    "Result",
    "all_tricks",
    "bounds",
    "core",
    "draw_worlds",
    "make",
    "move_values",
    "pimc",
    "pimc_drawn",
    "solve",
    "value",
    "values",
]
