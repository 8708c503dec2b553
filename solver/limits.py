"""Checks of the counts and sizes that callers pass: table sizes, node limits, samples.

Every count is a whole number (an ``int``, not a ``bool``) within bounds; the upper
bounds follow what the compiled cores take and what this machine can allocate. The
command line checks its options with the same functions, so the messages and limits
are the same through both.

>>> check_count(3, "samples", 1, 10)
3
>>> check_count(0, "tt_mb", 1, 10)
Traceback (most recent call last):
solver.errors.UsageError: invalid tt_mb 0 (a whole number from 1 to 10)
"""

from __future__ import annotations

import operator
import os
from functools import cache

from solver.errors import UsageError

#: The largest transposition table the compiled cores take, in MB.
CORE_MAX_TT_MB = 1 << 20
#: The largest node limit of a trick tree (the compiled core counts in a C int).
MAX_NODES = 2**31 - 1
#: Memory a trick tree node takes at most, in bytes (the graph, its attributes, its edges).
TREE_NODE_BYTES = 4096
#: The most worlds an advice draws (each is solved once per legal card).
MAX_SAMPLES = 100_000
#: The most worlds a view draws in one call.
MAX_WORLDS = 1_000_000
#: The deepest ``--all`` tree (deeper than any deal: the tree stops at the end of play).
MAX_DEPTH = 1000
#: The most random deals a benchmark takes (they are dealt before the clock starts).
MAX_BENCH_DEALS = 100_000
#: The most deals checked against the (slow) reference minimax.
MAX_REFERENCE_DEALS = 1000
#: The most puzzles one call generates, and candidates it tries.
MAX_PUZZLES = 10_000
MAX_CANDIDATES = 10_000_000


@cache
def memory_mb() -> int:
    """This machine's physical memory in MB (1 TB if the system does not say)."""
    try:
        pages = os.sysconf("SC_PHYS_PAGES")
        size = os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, OSError, ValueError):  # pragma: no cover - not POSIX
        return 1 << 20
    if pages <= 0 or size <= 0:  # pragma: no cover
        return 1 << 20
    return max(1, pages * size >> 20)


def max_tt_mb() -> int:
    """The largest transposition table allowed: half this machine's memory, at most
    what the cores take."""
    return max(1, min(CORE_MAX_TT_MB, memory_mb() // 2))


def max_workers() -> int:
    """The most worker processes: four per core."""
    return 4 * (os.cpu_count() or 1)


def max_tree_nodes() -> int:
    """The largest node limit of a trick tree this machine can hold."""
    return max(1, min(MAX_NODES, (memory_mb() << 20) // TREE_NODE_BYTES))


def check_count(
    value: object, name: str, least: int = 1, most: int | None = None, why: str = ""
) -> int:
    """``value`` if it is a whole number from ``least`` to ``most`` (``why``: the reason
    for ``most``, added to the message).

    Raises:
        UsageError: not an int (a bool is not a count), or out of bounds; the message
            names the argument, quotes the value and gives the bounds.
    """
    bounds = f"from {least}" if most is None else f"from {least} to {most}"
    bounds += f": {why}" if why else ""
    if not is_whole(value):
        raise UsageError(f"invalid {name} {value!r:.80} (a whole number {bounds})")
    number = operator.index(value)  # type: ignore[arg-type]  # is_whole: it has __index__
    if number < least or (most is not None and number > most):
        raise UsageError(f"invalid {name} {number} (a whole number {bounds})")
    return number


def is_whole(value: object) -> bool:
    """Whether ``value`` is a whole number: an int (not a bool) or an integer type of
    another library (one with ``__index__``, like numpy's).

    >>> is_whole(3), is_whole(True), is_whole(3.0), is_whole("3")
    (True, False, False, False)
    """
    if isinstance(value, bool) or isinstance(value, str | bytes):
        return False
    return isinstance(value, int) or hasattr(type(value), "__index__")


def check_tt_mb(tt_mb: object, name: str = "tt_mb") -> int:
    """A transposition table size in MB: 1 to :func:`max_tt_mb`."""
    return check_count(tt_mb, name, 1, max_tt_mb(), TT_WHY)


#: Why tables are not larger.
TT_WHY = "at most half this machine's memory"
