# cython: language_level=3
"""Compiled Klabberjass search core (see _klabberjass_core.h). Ints in, ints out."""

from libc.stdint cimport uint64_t, int64_t
from cpython.exc cimport PyErr_CheckSignals

cdef extern from "_klabberjass_core.h" nogil:
    ctypedef struct kj_ctx:
        uint64_t nodes
        volatile int *stop
    kj_ctx *kj_new(size_t megabytes)
    void kj_free(kj_ctx *c)
    void kj_clear(kj_ctx *c)
    size_t kj_tt_bytes(const kj_ctx *c)
    int kj_value(kj_ctx *c, uint64_t e, uint64_t d, int trump, int leader, int trick, int bonus)
    int kj_moves(kj_ctx *c, uint64_t e, uint64_t d, int trump, int leader, int trick, int bonus,
                 int *cards, int *values)
    int kj_pv(kj_ctx *c, uint64_t e, uint64_t d, int trump, int leader, int trick, int bonus,
              int *cards, int *value)


cdef class Core:
    """One search context with its own transposition table of ``megabytes`` MB."""

    cdef kj_ctx *ctx
    cdef volatile int stop_flag

    def __cinit__(self, int megabytes=32):
        if megabytes < 1:
            raise ValueError(f"transposition table size must be at least 1 MB, not {megabytes}")
        self.ctx = kj_new(megabytes)
        if self.ctx is NULL:
            raise MemoryError(f"cannot allocate a {megabytes} MB transposition table")
        self.stop_flag = 0
        self.ctx.stop = &self.stop_flag

    def __dealloc__(self):
        kj_free(self.ctx)

    @property
    def nodes(self):
        return self.ctx.nodes

    @property
    def tt_bytes(self):
        return kj_tt_bytes(self.ctx)

    def clear(self):
        kj_clear(self.ctx)

    def value(self, uint64_t e, uint64_t d, int trump, int leader, int trick, int bonus):
        cdef int v
        with nogil:
            v = kj_value(self.ctx, e, d, trump, leader, trick, bonus)
        return v

    def moves(self, uint64_t e, uint64_t d, int trump, int leader, int trick, int bonus):
        cdef int cards[18]
        cdef int values[18]
        cdef int n
        with nogil:
            n = kj_moves(self.ctx, e, d, trump, leader, trick, bonus, cards, values)
        return [(cards[i], values[i]) for i in range(n)]

    def pv(self, uint64_t e, uint64_t d, int trump, int leader, int trick, int bonus):
        cdef int cards[18]
        cdef int value = 0
        cdef int n
        with nogil:
            n = kj_pv(self.ctx, e, d, trump, leader, trick, bonus, cards, &value)
        return value, [cards[i] for i in range(n)]

    def values(self, const uint64_t[:] e, const uint64_t[:] d, const signed char[:] trump,
               const signed char[:] leader, const signed char[:] trick, int bonus, int[:] out):
        """Solve many positions (E's points into ``out``) with no Python work per node.

        The GIL is released while solving; between chunks of 256 positions pending
        signals are checked, so Ctrl-C stops a long batch promptly.
        """
        cdef Py_ssize_t i, start, stop, n = e.shape[0]
        for start in range(0, n, 256):
            stop = min(start + 256, n)
            with nogil:
                for i in range(start, stop):
                    out[i] = kj_value(self.ctx, e[i], d[i], trump[i], leader[i], trick[i], bonus)
            PyErr_CheckSignals()
