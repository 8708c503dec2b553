"""Two cores on one search: exact values that an idle worker helps to find.

A deal table's rows are searched in threads, a row a worker. Towards the end of a
table some workers have no row left while one row may search for many seconds (at 5-6
players one row is often most of the table's time). Such a worker helps: its core
searches the same position with the row's table (``Core.share``, ``Core.help``), its
coalition trying its cards in the reverse order in the first tricks, so that the two
searches take different parts of the proof first and each finds in the table what the
other has proved. Whichever ends first has the value and stops the other. On the
slowest 6-player rows each search then takes about half the nodes it takes alone.

>>> from solver.carabin import Deal
>>> team = Team()
>>> start = Deal.random(1, 3).position(bidder=0, trump=0, trick_order="alternate")
>>> team.value(start) == engine.value(start)
True
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

from solver.carabin import _core as _carabin
from solver.carabin import engine
from solver.carabin.position import Position

#: A search is helped once it has run this long (seconds): a helper first empties its
#: tables of single-world games (some 40 MB), a waste on a quick search.
HELP_AFTER = 0.2


#: :func:`solve` takes helpers for positions of at least this many players and tricks
#: to play; smaller ones take milliseconds, less than starting the helpers.
SOLVE_MIN_PLAYERS = 5
SOLVE_MIN_TRICKS = 4

#: A position as the core takes it (:func:`engine._args`).
_Args = tuple[int, list[int], int, int, int, int, int, list[int]]


@dataclass(eq=False)
class _Search:
    """One exact search that may be helped: its core, its arguments, and who has the
    value. ``lock`` guards ``done``, ``helper`` and ``helped``, and every stop asked of
    either core, so that no stop outlives the search it was meant for."""

    core: _carabin.Core
    args: _Args
    guess: int
    started: float = field(default_factory=time.monotonic)
    lock: threading.Lock = field(default_factory=threading.Lock)
    done: bool = False
    helper: _carabin.Core | None = None
    helped: int | None = None
    helper_bounds: tuple[int, int] | None = None  # what a stopped helper had proved
    ended: threading.Event = field(default_factory=threading.Event)


class Team:
    """The exact searches of a group of workers (threads), which idle ones may help."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running: list[_Search] = []
        self._local = threading.local()

    def value(self, position: Position, *, tt_mb: int | None = None) -> int:
        """The bidder's exact points from ``position`` (as :func:`engine.value`), searched
        on the calling thread's core with its table shared, so that another worker of
        the team may help (:meth:`help_one`)."""
        return self.bounds(position, tt_mb=tt_mb)[0]

    def bounds(
        self, position: Position, *, time_limit: float | None = None, tt_mb: int | None = None
    ) -> tuple[int, int]:
        """Proven bounds ``(lo, hi)`` on the bidder's points from ``position``, as
        :func:`engine.bounds`: the exact value when the search ends within
        ``time_limit`` seconds, else what it and its helper (if one came) proved by
        then."""
        if position.is_over:
            return (0, 0)
        core = engine.core(tt_mb, position.players)
        # shared for this search only: the locks cost a shared table's small searches
        # a cache miss a store (seed 3006's median 6-player search 0.21 -> 0.39 ms)
        was_shared = core.is_shared
        if not was_shared:
            core.share(True)
        search = _Search(core, engine._args(position), engine._guess(position))
        with self._lock:
            self._running.append(search)
        core.set_time_limit(time_limit)
        try:
            try:
                v = core.value(*search.args, search.guess)
                return (v, v)
            except KeyboardInterrupt:
                with search.lock:
                    if search.helped is None:
                        raise
                return (search.helped, search.helped)
            except TimeoutError:
                lo, hi = core.last_bounds
                self._end(search)
                if search.helped is not None:  # found as the time ran out
                    return (search.helped, search.helped)
                if search.helper_bounds is not None:
                    lo = max(lo, search.helper_bounds[0])
                    hi = min(hi, search.helper_bounds[1])
                return (lo, hi)
        finally:
            core.set_time_limit(None)
            self._end(search)  # no helper runs on its table from here
            if not was_shared:
                core.share(False)

    def _end(self, search: _Search) -> None:
        """The search is over: stop its helper and wait for it (again: nothing)."""
        with self._lock:
            if search in self._running:
                self._running.remove(search)
        with search.lock:
            search.done = True
            if search.helped is not None:
                search.core.clear_stop()  # the helper's stop may have come after the end
            helper = search.helper
            if helper is not None:
                helper.stop()
        if helper is not None:
            search.ended.wait()

    def help_one(self) -> bool:
        """Help the longest-running search of the team not yet helped, if one has run
        for :data:`HELP_AFTER` seconds, until it ends; False if there was none to help
        (or it ended before the help began)."""
        now = time.monotonic()
        with self._lock:
            ready = [
                s
                for s in self._running
                if s.helper is None and not s.done and now - s.started >= HELP_AFTER
            ]
            if not ready:
                return False
            search = min(ready, key=lambda s: s.started)
        mine = self._helper_core()
        with search.lock:
            if search.done or search.helper is not None:
                return False  # it ended, or another worker took it, meanwhile
            search.helper = mine
            search.ended.clear()
        proved = None
        try:
            value = mine.help(search.core, *search.args, search.guess)
        except KeyboardInterrupt:
            value = None  # stopped: the search ended, or the team is stopping
            proved = mine.last_bounds
        finally:
            with search.lock:
                search.helper = None
                if proved is not None:
                    search.helper_bounds = proved
                mine.clear_stop()
                search.ended.set()
        if value is not None:
            with search.lock:
                if not search.done:
                    search.helped = value
                    search.core.stop()
        return True

    def waiting(self) -> float | None:
        """Seconds until the oldest unhelped search may be helped (0: now); None if
        there is none."""
        now = time.monotonic()
        with self._lock:
            starts = [s.started for s in self._running if s.helper is None and not s.done]
        if not starts:
            return None
        return max(0.0, min(starts) + HELP_AFTER - now)

    def stop(self) -> None:
        """Stop every search of the team and its helpers (Ctrl-C)."""
        with self._lock:
            running = list(self._running)
        for search in running:
            with search.lock:
                search.core.stop()
                if search.helper is not None:
                    search.helper.stop()

    def card_values(
        self, position: Position, *, tt_mb: int | None = None, deadline: float | None = None
    ) -> dict[int, int] | None:
        """The bidder's points after each legal card of ``position``, each searched by
        :meth:`bounds` (so helped); None if the ``deadline`` (``time.monotonic()``)
        came first."""
        values: dict[int, int] = {}
        for card in position.legal_moves():
            after, winner, points = position.step(card)
            gain = points if winner == position.bidder else 0
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            lo, hi = self.bounds(after, time_limit=left, tt_mb=tt_mb)
            if lo < hi:
                return None
            values[card] = gain + lo
        return values

    def _helper_core(self) -> _carabin.Core:
        mine = getattr(self._local, "core", None)
        if mine is None:
            mine = self._local.core = engine.new_core(1)
        return mine


def solve(
    position: Position,
    moves: bool = False,
    *,
    tt_mb: int | None = None,
    workers: int = 2,
    time_limit: float | None = None,
) -> engine.Result:
    """:func:`engine.solve` with ``workers`` threads: the calling thread searches each
    legal card's value in turn with its table shared, the others help those searches.
    The same answer as :func:`engine.solve`; under a ``time_limit`` that runs out, the
    bounds the searches and their helpers proved (first the position's value, as
    :func:`engine.solve` does, then the cards'). Positions under
    :data:`SOLVE_MIN_PLAYERS` players or :data:`SOLVE_MIN_TRICKS` tricks to play are
    solved in one thread.

    >>> from solver.carabin import Deal
    >>> start = Deal.random(2, 5).position(bidder=1, trump=2)
    >>> solve(start, moves=True) == engine.solve(start, moves=True)
    True
    """
    total = engine._checked(position).points_left()
    small = position.players < SOLVE_MIN_PLAYERS or position.tricks_left < SOLVE_MIN_TRICKS
    if position.is_over or workers < 2 or small:
        return engine.solve(position, moves, tt_mb=tt_mb, time_limit=time_limit)
    team = Team()
    over = threading.Event()

    def helper() -> None:
        while not over.is_set():
            if not team.help_one():
                over.wait(0.01)

    helpers = [
        threading.Thread(target=helper, name=f"carabin-help-{w}", daemon=True)
        for w in range(workers - 1)
    ]
    for thread in helpers:
        thread.start()
    try:
        if time_limit is None:
            sweep = engine.all_tricks(position, tt_mb=tt_mb)
            values = team.card_values(position, tt_mb=tt_mb)
            assert values is not None  # no deadline: every value is exact
            return engine.result_of(position, values, sweep, total, moves)
        return engine._solve_within(position, moves, tt_mb, time_limit, team)
    except BaseException:
        team.stop()
        raise
    finally:
        over.set()
        for thread in helpers:
            thread.join()
