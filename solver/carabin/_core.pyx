# cython: language_level=3
"""Compiled Carabin search core (see _core.h). Ints in, ints out.

Hands cross as one list of ``2n`` card masks: the left hands of seats ``0..n-1``, then
their right hands. ``h`` is the kind of hand of the current trick (0 = L, 1 = R),
``order`` 0 for ``alternate`` and 1 for ``left_then_right``, ``trick`` the cards already
played to it. A search can be abandoned with :meth:`Core.stop` from another thread or
with Ctrl-C in the main thread, which raises ``KeyboardInterrupt``.
"""

import threading

from cpython.exc cimport PyErr_CheckSignals
from libc.signal cimport SIGINT, SIG_DFL, SIG_ERR, SIG_IGN, sighandler_t, signal
from libc.stdint cimport uint64_t

cdef extern from "_core.h" nogil:
    ctypedef struct cb_ctx:
        uint64_t nodes
        volatile int *stop
    int cb_interrupt
    cb_ctx *cb_new(size_t megabytes)
    void cb_free(cb_ctx *c)
    void cb_clear(cb_ctx *c)
    size_t cb_tt_bytes(const cb_ctx *c)
    int cb_value(cb_ctx *c, int n, const uint64_t *hands, int trump, int bidder, int leader,
                 int h, int order, const int *trick, int k, int guess)
    int cb_make(cb_ctx *c, int n, const uint64_t *hands, int trump, int bidder, int leader,
                int h, int order, const int *trick, int k, int target)
    int cb_all_tricks(cb_ctx *c, int n, const uint64_t *hands, int trump, int bidder,
                      int leader, int h, int order, const int *trick, int k)
    int cb_moves(cb_ctx *c, int n, const uint64_t *hands, int trump, int bidder, int leader,
                 int h, int order, const int *trick, int k, int guess, int *cards, int *values)

cdef sighandler_t _previous = SIG_DFL
cdef int _hooked = 0
_main_ident = threading.main_thread().ident


cdef void _on_sigint(int sig) noexcept nogil:
    global cb_interrupt
    cb_interrupt = 1
    if _previous != SIG_DFL and _previous != SIG_IGN and _previous != SIG_ERR:
        _previous(sig)


cdef bint _hook():
    """Route SIGINT to the search while it runs (main thread only)."""
    global _previous, _hooked, cb_interrupt
    cb_interrupt = 0
    if _hooked or threading.get_ident() != _main_ident:
        return False
    _previous = signal(SIGINT, _on_sigint)
    if _previous == SIG_ERR:
        _previous = SIG_DFL
        return False
    _hooked = 1
    return True


cdef void _unhook(bint hooked):
    global _previous, _hooked
    if hooked:
        signal(SIGINT, _previous)
        _hooked = 0


cdef int _load(list hands, list trick, uint64_t *h, int *t) except -1:
    cdef Py_ssize_t i
    if len(hands) > 12 or len(hands) % 2 or len(trick) > 6:
        raise ValueError("at most 6 seats of two hands and a trick of at most 5 cards")
    for i in range(len(hands)):
        h[i] = hands[i]
    for i in range(len(trick)):
        t[i] = trick[i]
    return 0


cdef class Core:
    """One search context with its own transposition table of ``megabytes`` MB."""

    cdef cb_ctx *ctx
    cdef volatile int stop_flag

    def __cinit__(self, int megabytes=32):
        if megabytes < 1:
            raise ValueError(f"transposition table size must be at least 1 MB, not {megabytes}")
        self.ctx = cb_new(megabytes)
        if self.ctx is NULL:
            raise MemoryError(f"cannot allocate a {megabytes} MB transposition table")
        self.stop_flag = 0
        self.ctx.stop = &self.stop_flag

    def __dealloc__(self):
        cb_free(self.ctx)

    @property
    def nodes(self):
        return self.ctx.nodes

    @property
    def tt_bytes(self):
        return cb_tt_bytes(self.ctx)

    def clear(self):
        cb_clear(self.ctx)

    def stop(self):
        """Ask a running search (in another thread) to stop; it raises KeyboardInterrupt."""
        self.stop_flag = 1

    cdef int _done(self, int result, bint hooked) except? -2:
        global cb_interrupt
        cdef int interrupted = cb_interrupt or self.stop_flag
        _unhook(hooked)
        cb_interrupt = 0
        self.stop_flag = 0
        if result < 0 or interrupted:
            PyErr_CheckSignals()
            raise KeyboardInterrupt("search interrupted")
        return result

    def value(self, int n, list hands, int trump, int bidder, int leader, int h, int order,
              list trick, int guess):
        cdef uint64_t hs[12]
        cdef int ts[6]
        cdef int k = len(trick), v
        _load(hands, trick, hs, ts)
        cdef bint hooked = _hook()
        with nogil:
            v = cb_value(self.ctx, n, hs, trump, bidder, leader, h, order, ts, k, guess)
        return self._done(v, hooked)

    def make(self, int n, list hands, int trump, int bidder, int leader, int h, int order,
             list trick, int target):
        cdef uint64_t hs[12]
        cdef int ts[6]
        cdef int k = len(trick), v
        _load(hands, trick, hs, ts)
        cdef bint hooked = _hook()
        with nogil:
            v = cb_make(self.ctx, n, hs, trump, bidder, leader, h, order, ts, k, target)
        return bool(self._done(v, hooked))

    def all_tricks(self, int n, list hands, int trump, int bidder, int leader, int h, int order,
                   list trick):
        cdef uint64_t hs[12]
        cdef int ts[6]
        cdef int k = len(trick), v
        _load(hands, trick, hs, ts)
        cdef bint hooked = _hook()
        with nogil:
            v = cb_all_tricks(self.ctx, n, hs, trump, bidder, leader, h, order, ts, k)
        return bool(self._done(v, hooked))

    def moves(self, int n, list hands, int trump, int bidder, int leader, int h, int order,
              list trick, int guess):
        cdef uint64_t hs[12]
        cdef int ts[6]
        cdef int cards[4]
        cdef int values[4]
        cdef int k = len(trick), m
        _load(hands, trick, hs, ts)
        cdef bint hooked = _hook()
        with nogil:
            m = cb_moves(self.ctx, n, hs, trump, bidder, leader, h, order, ts, k, guess,
                         cards, values)
        m = self._done(m, hooked)
        return [(cards[i], values[i]) for i in range(m)]
