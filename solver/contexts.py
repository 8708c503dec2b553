"""The compiled search contexts of a game engine, by table size, one set per thread.

A context owns a transposition table. Each thread gets contexts of its own, so searches
running in several threads at once (the compiled cores release the GIL while they
search) never share a table. In each thread the default context (a game engine may
grow its table: Carabin's for 6 players) and that of the last size asked explicitly are
kept: sizes asked one after the other do not add up.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

from solver.errors import UsageError
from solver.limits import check_tt_mb

T = TypeVar("T")


class Contexts(Generic[T]):
    """Contexts made by ``make(megabytes)``: the default one (``default_mb`` unless a
    caller has resized it) and one of the last size asked explicitly.

    >>> made = []
    >>> contexts = Contexts(lambda mb: made.append(mb) or f"table of {mb} MB", 32)
    >>> contexts.get(None), contexts.get(2), contexts.get(None), made
    ('table of 32 MB', 'table of 2 MB', 'table of 32 MB', [32, 2])
    >>> sorted(contexts.sizes())
    [2, 32]
    >>> contexts.get(32), made  # a size asked is a context of that size, not the default
    ('table of 32 MB', [32, 2, 32])
    """

    def __init__(self, make: Callable[[int], T], default_mb: int) -> None:
        self._make = make
        self.default_mb = default_mb
        self._local = threading.local()
        self._main: dict[int | None, T] = {}

    def get(self, tt_mb: int | None = None) -> T:
        """The calling thread's context with a ``tt_mb`` MB table (checked), or its
        default context for None, made on first use.

        Raises:
            UsageError: a size out of range, or a table that cannot be allocated.
        """
        key = None if tt_mb is None else check_tt_mb(tt_mb)
        mine = self._mine()
        found = mine.get(key)
        if found is None:
            if key is not None:  # the default and one other size are kept
                for other in [k for k in mine if k is not None]:
                    del mine[other]
            size = self.default_mb if key is None else key
            try:
                found = self._make(size)
            except MemoryError:
                raise UsageError(
                    f"cannot allocate a {size} MB transposition table (tt_mb)"
                ) from None
            mine[key] = found
        return found

    def sizes(self) -> set[int]:
        """The table sizes asked of the calling thread's contexts (the default one's as
        ``default_mb``)."""
        return {self.default_mb if k is None else k for k in self._mine()}

    def _mine(self) -> dict[int | None, T]:
        if threading.current_thread() is threading.main_thread():
            return self._main
        if not hasattr(self._local, "contexts"):
            self._local.contexts = {}
        contexts: dict[int | None, T] = self._local.contexts
        return contexts
