"""The Carabin double-dummy deal table: every bidder and trump, made or not, chelem or not.

One row per bidder and trump suit (only the fixed ones when the deal gives
``bidder=``/``trump=``): the bidder's points with seat 0 leading the first trick,
whether the trump contract is made (strictly more than half the points in play) and
whether a chelem (all eight tricks) is made. Within a deal every opponent gains the
same, so the play is the bidder against the coalition of all the others.

>>> d = Deal.parse("0=AKQJ.../T987... 1=6543.../2...AKQ 2=.AKQJ../.T987.. turn=6H "
...                "bidder=0 trump=S")
>>> deal_table(d).to_json()
{'points_in_play': 27, 'table': [{'bidder': 0, 'trump': 'S', 'points': 27, 'made': True, 'chelem': True}]}
"""

from __future__ import annotations

import itertools
import queue
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from solver.carabin import engine
from solver.carabin.deal import Deal, contract_made
from solver.carabin.position import Position
from solver.carabin.rules import Rules
from solver.carabin.team import Team
from solver.cards import SUITS
from solver.limits import check_count, max_workers
from solver.protocol import DealTable


@dataclass(frozen=True)
class TableRow:
    """One row of the deal table: a bidder and a trump, played double dummy.

    Attributes:
        bidder: the bidder's seat.
        trump: the trump suit (0..3).
        points: the bidder's points under optimal play.
        made: the trump contract is made (more than half the points in play).
        chelem: the bidder can win every trick.
        bounds: None when exact; under a time limit that ran out, ``(lo, hi)``: the
            bidder's points are proven to lie between them, ``points`` is ``lo``, and
            ``made`` or ``chelem`` is None when it was not decided.
    """

    bidder: int
    trump: int
    points: int
    made: bool | None
    chelem: bool | None
    bounds: tuple[int, int] | None = None

    @property
    def exact(self) -> bool:
        """Whether ``points`` is the exact value (no time limit ran out)."""
        return self.bounds is None

    def to_json(self) -> dict:
        """The command line's row; under a time limit that ran out, ``points`` is
        ``[lo, hi]`` and ``"exact": false``."""
        out: dict = {
            "bidder": self.bidder,
            "trump": SUITS[self.trump],
            "points": self.points if self.bounds is None else list(self.bounds),
            "made": self.made,
            "chelem": self.chelem,
        }
        if self.bounds is not None:
            out["exact"] = False
        return out

    def record(self) -> dict:
        """The row as one flat dict, seats and suits by name (a DataFrame row)."""
        return self.to_json()


def deal_table(
    deal: Deal,
    rules: Rules | None = None,
    tt_mb: int | None = None,
    *,
    time_limit: float | None = None,
    progress: Callable[[int, int], None] | None = None,
    workers: int = 1,
) -> DealTable:
    """The double-dummy table of a deal.

    Args:
        deal: the deal.
        rules: the rules (the trick order matters; the number of players is the deal's).
        tt_mb: transposition table size in MB (of each worker); None: the engine's
            default for the deal's players (:func:`solver.carabin.engine.default_tt_mb`:
            128 MB at 6 players).
        time_limit: seconds for the whole table, shared among the rows not yet started;
            a row whose share runs out gets proven bounds (see :class:`TableRow`), and
            the time the quicker rows leave goes, pass after pass, to the rows still
            bounded (their bounds only narrow). Within a row, made or failed and the
            chelem are settled first (they decide the score and are usually quick),
            then the exact points.
        progress: called with (rows done, rows) before the first row and after each.
        workers: rows solved at once, each in a thread with its own search context
            (the searches release the GIL, so two workers use two cores). The rows are
            the same whatever the number (exact values; under a time limit, bounds
            depend on the time each row gets).

    Returns:
        The rows, bidder by bidder, trump by trump (a list with ``to_json()``,
        ``records()`` and an HTML display).

    Raises:
        UsageError: ``workers`` is not a whole number from 1 to
            :func:`~solver.limits.max_workers`.
    """
    workers = check_count(workers, "workers", 1, max_workers(), "four per core")
    order = rules.trick_order if rules is not None else "alternate"
    total = deal.points_in_play
    bidders = [deal.bidder] if deal.bidder is not None else range(deal.players)
    trumps = [deal.trump] if deal.trump is not None else range(4)
    contracts = [(b, t) for b in bidders for t in trumps]
    engine.core(tt_mb, deal.players)  # made before the clock starts
    deadline = None if time_limit is None else time.monotonic() + time_limit
    rows: list[TableRow | None] = [None] * len(contracts)
    pending = list(range(len(contracts)))
    lock = threading.Lock()
    first = True
    while pending:
        started = itertools.count()
        todo = len(pending)

        def row(
            i: int, team: Team | None = None, todo: int = todo, started: Iterator[int] = started
        ) -> TableRow:
            bidder, trump = contracts[i]
            start = deal.position(bidder=bidder, trump=trump, trick_order=order)
            if deadline is None:
                points = (
                    engine.value(start, tt_mb=tt_mb)
                    if team is None
                    else team.value(start, tt_mb=tt_mb)
                )
                # winning every trick takes every point, so only then is a chelem possible
                chelem = points == total and engine.all_tricks(start, tt_mb=tt_mb)
                return TableRow(bidder, trump, points, contract_made(points, total), chelem)
            with lock:  # the time left is shared by the rows not started, `workers` at once
                left = todo - next(started)
                share = max(0.0, deadline - time.monotonic()) * min(workers, left) / left
            return _row_within(start, bidder, trump, total, share, tt_mb, rows[i], team)

        shown = progress if first else None  # later passes refine rows already counted
        if shown is not None:
            shown(0, len(contracts))
        if workers == 1:
            for k, i in enumerate(pending, start=1):
                rows[i] = row(i)
                if shown is not None:
                    shown(k, len(contracts))
        else:
            done = _in_team(row, pending, workers, tt_mb, deal.players, shown)
            for i, one in zip(pending, done, strict=True):
                rows[i] = one
        first = False
        # the time the quick rows left over goes to the rows still bounded, pass by pass
        narrowed = [i for i in pending if (got := rows[i]) is not None and not got.exact]
        if deadline is None or time.monotonic() >= deadline - _MIN_PASS or not narrowed:
            break
        pending = narrowed
    return DealTable(list(rows), deal, "carabin", {"points_in_play": total})


#: A pass over the bounded rows is not started with less time than this left (seconds).
_MIN_PASS = 0.05


def _in_team(
    row: Callable[[int, Team], TableRow],
    items: list[int],
    workers: int,
    tt_mb: int | None,
    players: int,
    progress: Callable[[int, int], None] | None,
) -> list[TableRow]:
    """``row`` of every item, ``workers`` threads at once, in the items' order; progress
    counts rows done of ``len(items)``. A worker that finds no item left helps the exact
    searches of the rows still running (:mod:`solver.carabin.team`), so that a table
    whose last row is long gets every core on it. An interruption (Ctrl-C in the main
    thread) stops every worker's search before it is raised again."""
    team = Team()
    todo = list(enumerate(items))
    rows: list[TableRow | None] = [None] * len(items)
    lock = threading.Lock()
    finished: queue.Queue[int | BaseException] = queue.Queue()
    contexts: set = set()  # every worker's search context, to stop them

    def worker() -> None:
        contexts.add(engine.core(tt_mb, players))
        while True:
            with lock:
                job = todo.pop(0) if todo else None
            if job is not None:
                k, item = job
                try:
                    rows[k] = row(item, team)
                except BaseException as error:  # handed to the caller's thread
                    finished.put(error)
                    return
                finished.put(k)
                continue
            if team.help_one():
                continue
            wait = team.waiting()
            if wait is None:
                return
            time.sleep(min(max(wait, 0.01), 0.05))

    threads = [
        threading.Thread(target=worker, name=f"carabin-row-{w}", daemon=True)
        for w in range(workers)
    ]
    for thread in threads:
        thread.start()
    try:
        for done in range(1, len(items) + 1):
            got = finished.get()
            if isinstance(got, BaseException):
                raise got
            if progress is not None:
                progress(done, len(items))
    except BaseException:
        with lock:
            todo.clear()
        team.stop()
        for context in list(contexts):
            context.stop()
        raise
    finally:
        for thread in threads:
            thread.join()
    return [r for r in rows if r is not None]


def _row_within(
    start: Position,
    bidder: int,
    trump: int,
    total: int,
    seconds: float,
    tt_mb: int | None,
    earlier: TableRow | None = None,
    team: Team | None = None,
) -> TableRow:
    """One row within ``seconds``: the make probe, the chelem, then the exact points;
    what an ``earlier`` pass proved of this row (its bounds, made, chelem) is kept."""
    deadline = time.monotonic() + seconds
    c = engine.core(tt_mb, start.players)
    target = total // 2 + 1  # the fewest points that make the contract
    made = earlier.made if earlier is not None else None
    if made is None:
        made = engine.within(lambda: engine.make(start, target, tt_mb=tt_mb), c, deadline)
    chelem = earlier.chelem if earlier is not None else None
    if chelem is None:
        chelem = (
            engine.within(lambda: engine.all_tricks(start, tt_mb=tt_mb), c, deadline)
            if made is not False
            else False
        )
    left = max(0.0, deadline - time.monotonic())
    lo, hi = (
        engine.bounds(start, time_limit=left, tt_mb=tt_mb)
        if team is None
        else team.bounds(start, time_limit=left, tt_mb=tt_mb)
    )
    if earlier is not None and earlier.bounds is not None:
        lo, hi = max(lo, earlier.bounds[0]), min(hi, earlier.bounds[1])
    if made is not None:  # what the probe proved holds too
        lo, hi = (max(lo, target), hi) if made else (lo, min(hi, target - 1))
    if lo == hi:
        return TableRow(bidder, trump, lo, contract_made(lo, total), lo == total and bool(chelem))
    if made is None and (lo >= target or hi < target):
        made = lo >= target
    if chelem is None and hi < total:
        chelem = False
    return TableRow(bidder, trump, lo, made, chelem, bounds=(lo, hi))
