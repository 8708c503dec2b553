# cython: language_level=3
"""Compiled Klabberjass search core (see _core.h). Ints in, ints out."""

from libc.stdint cimport int8_t, int16_t, uint32_t, uint64_t, int64_t
from cpython.exc cimport PyErr_CheckSignals

cdef extern from "_core.h" nogil:
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
    ctypedef struct kj_tree:
        int nn, nm, ne
        uint32_t *iE
        uint32_t *iD
        int8_t *lead
        int8_t *ilc
        int16_t *value
        int16_t *rem
        int16_t *depth
        int8_t *crit
        int *mstart
        int8_t *mcard
        int16_t *mvalue
        int *eu
        int *ev
        int8_t *ecard
        int8_t *ewon
        int16_t *evalue
        int16_t *eloss
        int16_t *epts
        uint64_t *eclass
    int kj_tree_build(kj_ctx *c, uint64_t e, uint64_t d, int trump, int leader, int trick, int bonus,
                      int per_class, int max_nodes, kj_tree **out)
    void kj_tree_free(kj_tree *t)
    uint64_t kj_to_external(const kj_ctx *c, uint32_t m)
    int kj_card_to_external(const kj_ctx *c, int ic)


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

    def optimal_tree(self, uint64_t e, uint64_t d, int trump, int leader, int trick, int bonus,
                     bint per_class, int max_nodes):
        """The DAG of optimal play from a position, as flat lists (None if over max_nodes).

        Nodes, in order of discovery (breadth-first; node 0 is the root): ``e``, ``d``
        (hands), ``lead``, ``trick`` (external card or -1), ``value`` (E's exact points
        from here), ``rem`` (points left), ``depth``, ``critical`` and ``mstart`` (node
        i's legal cards are ``mcard[mstart[i]:mstart[i + 1]]``, ascending, with the
        mover's points ``mvalue``; none for a finished position). Edges: ``u``, ``v``
        (node indices), ``card``, ``value`` (the mover's points), ``loss``, ``won``
        (trick winner or -1), ``points`` (of the trick completed) and ``cls`` (the set
        of the card's equivalent cards; None unless ``per_class``). See kj_tree_build
        in _core.h.
        """
        cdef kj_tree *t = NULL
        cdef kj_ctx *ctx = self.ctx
        cdef int n, i
        with nogil:
            n = kj_tree_build(self.ctx, e, d, trump, leader, trick, bonus, per_class, max_nodes, &t)
        try:
            if n == -1:
                return None
            if n == -2:
                raise KeyboardInterrupt("tree enumeration stopped")
            if n < 0:
                raise MemoryError("cannot allocate the optimal tree")
            return {
                "e": [kj_to_external(ctx, t.iE[i]) for i in range(n)],
                "d": [kj_to_external(ctx, t.iD[i]) for i in range(n)],
                "lead": [t.lead[i] for i in range(n)],
                "trick": [kj_card_to_external(ctx, t.ilc[i]) if t.ilc[i] >= 0 else -1
                          for i in range(n)],
                "value": [t.value[i] for i in range(n)],
                "rem": [t.rem[i] for i in range(n)],
                "depth": [t.depth[i] for i in range(n)],
                "critical": [t.crit[i] for i in range(n)],
                "mstart": [t.mstart[i] for i in range(n + 1)],
                "mcard": [t.mcard[i] for i in range(t.nm)],
                "mvalue": [t.mvalue[i] for i in range(t.nm)],
                "u": [t.eu[i] for i in range(t.ne)],
                "v": [t.ev[i] for i in range(t.ne)],
                "card": [t.ecard[i] for i in range(t.ne)],
                "evalue": [t.evalue[i] for i in range(t.ne)],
                "loss": [t.eloss[i] for i in range(t.ne)],
                "won": [t.ewon[i] for i in range(t.ne)],
                "points": [t.epts[i] for i in range(t.ne)],
                "cls": [t.eclass[i] for i in range(t.ne)] if per_class else None,
            }
        finally:
            kj_tree_free(t)
