# cython: language_level=3
"""Compiled Klabberjass search core (see _core.h). Ints in, ints out.

The card rules are data: a core is built from the four 16-entry tables of
solver.klabberjass.rules (trick power and card points by rank, for a plain suit and
for the trump suit), those of rules.py unless others are given. Every argument is
checked here before C sees it: a bad one raises TypeError or ValueError.

A search can be abandoned with :meth:`Core.stop` from another thread or with Ctrl-C in
the main thread, which raises ``KeyboardInterrupt``.
"""

from libc.stdint cimport int8_t, int16_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc

include "stop.pxi"

cdef extern from "_core.h" nogil:
    ctypedef struct kj_ctx:
        uint64_t nodes
        uint64_t pack
        tl_stop stop
    enum: KJ_MAX_HAND
    int KJ_MAX_PACK_POINTS, KJ_MAX_BONUS
    int KJ_OK, KJ_BAD_TRUMP, KJ_BAD_LEADER, KJ_BAD_TRICK, KJ_NOT_PACK, KJ_OVERLAP
    int KJ_TOO_MANY, KJ_SIZES
    kj_ctx *kj_new(size_t megabytes)
    void kj_free(kj_ctx *c)
    void kj_clear(kj_ctx *c)
    size_t kj_tt_bytes(const kj_ctx *c)
    void kj_set_rules(kj_ctx *c, const int **power, const int **points)
    int kj_check(const kj_ctx *c, uint64_t e, uint64_t d, int trump, int leader, int trick)
    int kj_value(kj_ctx *c, uint64_t e, uint64_t d, int trump, int leader, int trick, int bonus)
    int kj_moves(kj_ctx *c, uint64_t e, uint64_t d, int trump, int leader, int trick, int bonus,
                 int *cards, int *values)
    int kj_pv(kj_ctx *c, uint64_t e, uint64_t d, int trump, int leader, int trick, int bonus,
              int *cards, int *value)
    int KJ_PIMC_MAX_WORLDS
    void kj_sample(uint64_t pool, int need, int count, uint64_t seed, uint64_t *out)
    void kj_carry(const uint64_t *worlds, int count, uint64_t pool, int need, uint64_t seed,
                  uint64_t *out)
    int kj_pimc(kj_ctx *c, uint64_t mine, uint64_t known, uint64_t pool, int need, int count,
                uint64_t seed, const uint64_t *preset, int trump, int leader, int trick,
                int bonus, const int *cands, int k, int exact, int *values, long *sums,
                long *searches)
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


include "checks.pxi"

_BONUS_RANGE = f"0..{KJ_MAX_BONUS}"


cdef str _problem(int code, uint64_t e, uint64_t d, int trump, int leader, int trick):
    """What kj_check's code says about a position."""
    if code == KJ_BAD_TRUMP:
        return f"invalid trump {trump} (expected a suit 0..3)"
    if code == KJ_BAD_LEADER:
        return f"invalid leader {leader} (expected 0 for E or 1 for D)"
    if code == KJ_BAD_TRICK:
        return f"invalid trick card {trick} (expected -1 for none or a card of the pack)"
    if code == KJ_NOT_PACK:
        return f"hands {e:#x} and {d:#x} hold a card outside the pack"
    if code == KJ_OVERLAP:
        return f"a card is twice in hands {e:#x}, {d:#x} and trick card {trick}"
    if code == KJ_TOO_MANY:
        return f"hands {e:#x} and {d:#x}: a hand holds more than {KJ_MAX_HAND} cards"
    return (f"hand sizes {bin(e).count('1')} (E) and {bin(d).count('1')} (D) do not fit "
            f"leader {leader} and trick card {trick} (equal at a trick boundary, the "
            f"leader's one card shorter once he has led)")


def _default_rules():
    from solver.klabberjass import rules

    return rules.PLAIN_POWER, rules.TRUMP_POWER, rules.PLAIN_RANK_POINTS, rules.TRUMP_RANK_POINTS


def _check_rules(list plain_power, list trump_power, list plain_points, list trump_points):
    """Refuse card tables the search cannot use (see kj_set_rules in _core.h)."""
    pack = [r for r in range(16) if plain_power[r] >= 0]
    for name, power, points in (("plain", plain_power, plain_points),
                                ("trump", trump_power, trump_points)):
        ranks = [r for r in range(16) if power[r] >= 0]
        if ranks != pack:
            raise ValueError(
                f"{name}_power puts ranks {ranks} in the pack, plain_power ranks {pack}: "
                "both must name the same ranks")
        if not 1 <= len(ranks) <= 8 or any(power[r] < -1 for r in range(16)):
            raise ValueError(
                f"{name}_power must give 1 to 8 ranks a power and the others -1, not {power}")
        if any(r > 12 for r in ranks):
            raise ValueError(f"{name}_power gives a power to rank field 13-15, which is no rank")
        if sorted(power[r] for r in ranks) != list(range(len(ranks))):
            raise ValueError(
                f"{name}_power must give the ranks of the pack the powers 0..{len(ranks) - 1} "
                f"once each, not {[power[r] for r in ranks]}")
        if any(not 0 <= points[r] <= 100 for r in ranks):
            raise ValueError(f"{name}_points must be 0..100 for the cards of the pack, not {points}")
        by_power = [points[r] for r in sorted(ranks, key=lambda r: power[r])]
        if by_power != sorted(by_power):
            raise ValueError(
                f"{name}_points must not decrease with trick power (the search relies on it), "
                f"but by power they are {by_power}")
    total = 3 * sum(plain_points[r] for r in pack) + sum(trump_points[r] for r in pack)
    if total > KJ_MAX_PACK_POINTS:
        raise ValueError(f"the pack is worth {total} points, more than the core's "
                         f"{KJ_MAX_PACK_POINTS}")


def sample_hands(pool, need, count, seed):
    """``count`` card sets of ``need`` cards each, drawn uniformly (independently) among
    the cards of ``pool``; the same ``seed`` (a 64-bit int) gives the same sets.

    These are the worlds :meth:`Core.pimc` draws with the same arguments.
    """
    cdef uint64_t p = _u64(pool, "pool")
    cdef int n = _cint(need, "need", 0, 64, "0..64")
    cdef int k = _cint(count, "count", 0, KJ_PIMC_MAX_WORLDS, f"0..{KJ_PIMC_MAX_WORLDS}")
    cdef uint64_t s = _u64(seed, "seed")
    if n > bin(p).count("1"):
        raise ValueError(f"need {n} cards from a pool of {bin(p).count('1')}")
    cdef uint64_t *out = <uint64_t *>malloc(max(k, 1) * sizeof(uint64_t))
    if out is NULL:
        raise MemoryError()
    try:
        kj_sample(p, n, k, s, out)
        return [out[i] for i in range(k)]
    finally:
        free(out)


def carry_hands(worlds, pool, need, seed):
    """The card sets ``worlds`` carried to a smaller ``pool``: each keeps its cards of
    ``pool`` and is brought to ``need`` cards by removing its cards, or adding cards of
    the rest of ``pool``, drawn uniformly one at a time from ``seed`` (a 64-bit int).

    If each world was a uniform set of an earlier pool that holds ``pool``, each result
    is a uniform set of ``need`` cards of ``pool``, as :func:`sample_hands` draws them
    (kj_carry in _core.h says why).
    """
    cdef uint64_t p = _u64(pool, "pool")
    cdef int n = _cint(need, "need", 0, 64, "0..64")
    cdef uint64_t s = _u64(seed, "seed")
    cdef list given = [_u64(x, "worlds") for x in worlds]
    cdef int k = len(given), i
    if k > KJ_PIMC_MAX_WORLDS:
        raise ValueError(f"{k} worlds (at most {KJ_PIMC_MAX_WORLDS})")
    if n > bin(p).count("1"):
        raise ValueError(f"need {n} cards from a pool of {bin(p).count('1')}")
    cdef uint64_t *buf = <uint64_t *>malloc(2 * max(k, 1) * sizeof(uint64_t))
    if buf is NULL:
        raise MemoryError()
    try:
        for i in range(k):
            buf[i] = given[i]
        kj_carry(buf, k, p, n, s, buf + k)
        return [buf[k + i] for i in range(k)]
    finally:
        free(buf)


cdef class Core:
    """One search context with its own transposition table of ``megabytes`` MB.

    The card rules are the tables of solver.klabberjass.rules unless given: trick power
    by rank (-1 outside the pack) and card points by rank, for a plain suit and for the
    trump suit.
    """

    cdef kj_ctx *ctx
    cdef volatile int stop_flag

    def __cinit__(self, megabytes=32, *, plain_power=None, trump_power=None,
                  plain_points=None, trump_points=None):
        cdef int power[2][16]
        cdef int points[2][16]
        cdef const int *pw[2]
        cdef const int *pt[2]
        cdef size_t mb = _megabytes(megabytes)
        defaults = _default_rules()
        tables = [
            _table(t if t is not None else defaults[i], name)
            for i, (t, name) in enumerate((
                (plain_power, "plain_power"), (trump_power, "trump_power"),
                (plain_points, "plain_points"), (trump_points, "trump_points")))
        ]
        _check_rules(*tables)
        for t in range(2):
            for r in range(16):
                power[t][r] = tables[t][r]
                points[t][r] = tables[2 + t][r]
            pw[t] = power[t]
            pt[t] = points[t]
        self.ctx = kj_new(mb)
        if self.ctx is NULL:
            raise MemoryError(f"cannot allocate a {mb} MB transposition table")
        kj_set_rules(self.ctx, pw, pt)
        self.stop_flag = 0
        self.ctx.stop.flag = &self.stop_flag

    def __dealloc__(self):
        kj_free(self.ctx)

    @property
    def nodes(self):
        return self.ctx.nodes

    @property
    def tt_bytes(self):
        return kj_tt_bytes(self.ctx)

    @property
    def pack(self):
        """The cards of the pack (52-card form), from the power tables."""
        return self.ctx.pack

    def clear(self):
        kj_clear(self.ctx)

    def stop(self):
        """Ask a running search (in another thread) to stop; it raises KeyboardInterrupt.

        Asked while no search runs, it stops the next one.
        """
        self.stop_flag = 1

    def set_time_limit(self, seconds):
        """Every later search of this core raises TimeoutError once ``seconds`` from now
        have passed (the table keeps only what finished searches proved); None clears
        the limit."""
        _set_time_limit(&self.ctx.stop, seconds)

    cdef int _position(self, e, d, trump, leader, trick, bonus, uint64_t *he, uint64_t *hd,
                       int *args) except -1:
        """Check one position's arguments; args = trump, leader, trick, bonus."""
        he[0] = _u64(e, "E hand")
        hd[0] = _u64(d, "D hand")
        args[0] = _cint(trump, "trump", -128, 127, "a suit 0..3")
        args[1] = _cint(leader, "leader", -128, 127, "0 for E or 1 for D")
        args[2] = _cint(trick, "trick card", -128, 127, "-1 or a card of the pack")
        args[3] = _cint(bonus, "last-trick bonus", 0, KJ_MAX_BONUS, _BONUS_RANGE)
        cdef int code = kj_check(self.ctx, he[0], hd[0], args[0], args[1], args[2])
        if code != KJ_OK:
            raise ValueError(_problem(code, he[0], hd[0], args[0], args[1], args[2]))
        return 0

    def value(self, e, d, trump, leader, trick, bonus):
        cdef uint64_t he, hd
        cdef int a[4]
        cdef int v
        self._position(e, d, trump, leader, trick, bonus, &he, &hd, a)
        cdef bint hooked = _stop_begin(&self.ctx.stop)
        with nogil:
            v = kj_value(self.ctx, he, hd, a[0], a[1], a[2], a[3])
        _stop_end(&self.ctx.stop, hooked)
        return v

    def moves(self, e, d, trump, leader, trick, bonus):
        cdef uint64_t he, hd
        cdef int a[4]
        cdef int cards[KJ_MAX_HAND]
        cdef int values[KJ_MAX_HAND]
        cdef int n
        self._position(e, d, trump, leader, trick, bonus, &he, &hd, a)
        cdef bint hooked = _stop_begin(&self.ctx.stop)
        with nogil:
            n = kj_moves(self.ctx, he, hd, a[0], a[1], a[2], a[3], cards, values)
        _stop_end(&self.ctx.stop, hooked)
        return [(cards[i], values[i]) for i in range(n)]

    def pv(self, e, d, trump, leader, trick, bonus):
        cdef uint64_t he, hd
        cdef int a[4]
        cdef int cards[2 * KJ_MAX_HAND + 1]
        cdef int value = 0
        cdef int n
        self._position(e, d, trump, leader, trick, bonus, &he, &hd, a)
        cdef bint hooked = _stop_begin(&self.ctx.stop)
        with nogil:
            n = kj_pv(self.ctx, he, hd, a[0], a[1], a[2], a[3], cards, &value)
        _stop_end(&self.ctx.stop, hooked)
        return value, [cards[i] for i in range(n)]

    def values(self, e, d, trump, leader, trick, bonus, out):
        """Solve many positions (E's points into ``out``) with no Python work per node.

        ``e``, ``d`` are buffers of uint64 (``array('Q')``), ``trump``, ``leader``,
        ``trick`` of int8 (``array('b')``), ``out`` a writable buffer of int32
        (``array('i')``), all of one length; every position is checked before any is
        solved. The GIL is released while solving; Ctrl-C or :meth:`stop` ends the
        batch promptly with KeyboardInterrupt (``out`` is then partly written).
        """
        cdef const uint64_t[:] ve = _buffer_u64(e, "e")
        cdef const uint64_t[:] vd = _buffer_u64(d, "d")
        cdef const int8_t[:] vt = _buffer_i8(trump, "trump")
        cdef const int8_t[:] vl = _buffer_i8(leader, "leader")
        cdef const int8_t[:] vk = _buffer_i8(trick, "trick")
        cdef int[:] vo = _buffer_out(out, "out")
        cdef Py_ssize_t i, n = ve.shape[0]
        cdef int b = _cint(bonus, "last-trick bonus", 0, KJ_MAX_BONUS, _BONUS_RANGE)
        cdef int code = KJ_OK, v
        _same_length(n, "e", [("d", vd.shape[0]), ("trump", vt.shape[0]),
                              ("leader", vl.shape[0]), ("trick", vk.shape[0]),
                              ("out", vo.shape[0])])
        with nogil:
            for i in range(n):
                code = kj_check(self.ctx, ve[i], vd[i], vt[i], vl[i], vk[i])
                if code != KJ_OK:
                    break
        if code != KJ_OK:
            raise ValueError(f"position {i}: " + _problem(code, ve[i], vd[i], vt[i], vl[i], vk[i]))
        cdef bint hooked = _stop_begin(&self.ctx.stop)
        with nogil:
            for i in range(n):
                v = kj_value(self.ctx, ve[i], vd[i], vt[i], vl[i], vk[i], b)
                if self.ctx.stop.stopped:
                    break
                vo[i] = v
        _stop_end(&self.ctx.stop, hooked)

    def pimc(self, mine, known, pool, need, count, seed, trump, leader, trick, bonus,
             candidates, exact=False, worlds=None):
        """One decision by perfect-information Monte Carlo (kj_pimc in _core.h).

        The mover (``leader`` if ``trick`` is -1, else the other seat) holds ``mine``;
        each of ``count`` worlds gives the other hand ``known`` plus ``need`` cards of
        ``pool`` (the sets :func:`sample_hands` draws from ``seed``, or, given
        ``worlds``, those ``count`` sets: each ``need`` cards of ``pool``; ``seed`` is
        then unused). ``candidates`` are legal cards of the mover, in the order that
        breaks ties.

        Returns:
            (index of the chosen candidate: the greatest total points of the mover over
            the worlds, ties to the first; the totals, -1 for a candidate dropped early;
            the number of child searches; with ``exact``, every candidate's points in
            every world as a list of rows, else None). With ``exact`` nothing is dropped.
        """
        cdef uint64_t hm = _u64(mine, "mine"), hk = _u64(known, "known"), hp = _u64(pool, "pool")
        cdef int a[4]
        cdef int n = _cint(need, "need", 0, KJ_MAX_HAND, f"0..{KJ_MAX_HAND}")
        cdef int w = _cint(count, "count", 1, KJ_PIMC_MAX_WORLDS, f"1..{KJ_PIMC_MAX_WORLDS}")
        cdef uint64_t s = _u64(seed, "seed")
        cdef int cards[2 * KJ_MAX_HAND]
        cdef long sums[2 * KJ_MAX_HAND]
        cdef long searches = 0
        cdef int k = len(candidates), i, chosen
        cdef bint ex = bool(exact)
        cdef int *values = NULL
        cdef uint64_t *preset = NULL
        if not 1 <= k <= KJ_MAX_HAND:
            raise ValueError(f"{k} candidates (expected 1..{KJ_MAX_HAND})")
        if (hm & hk) or (hp & (hm | hk)):
            raise ValueError("mine, known and pool must be disjoint")
        if n > bin(hp).count("1"):
            raise ValueError(f"need {n} cards from a pool of {bin(hp).count('1')}")
        cdef uint64_t he, hd
        cdef bint hooked
        mover = _cint(leader, "leader", 0, 1, "0 for E or 1 for D")
        if trick != -1:
            mover = 1 - mover
        if worlds is not None:
            worlds = [_u64(x, "worlds") for x in worlds]
            if len(worlds) != w:
                raise ValueError(f"{len(worlds)} worlds given for count {w}")
            for x in worlds:
                if x & ~hp or bin(x).count("1") != n:
                    raise ValueError(f"world {x:#x} is not {n} cards of the pool {hp:#x}")
        # every world is a position of the same shape: check one
        first = hk | (worlds[0] if worlds is not None else sample_hands(hp, n, 1, s)[0])
        e, d = (hm, first) if mover == 0 else (first, hm)
        self._position(e, d, trump, leader, trick, bonus, &he, &hd, a)
        for i in range(k):
            cards[i] = _cint(candidates[i], "candidates", 0, 63, "a card", i)
            if not (hm >> cards[i]) & 1:
                raise ValueError(f"candidate {cards[i]} is not in the mover's hand")
        try:
            if ex:
                values = <int *>malloc(w * k * sizeof(int))
                if values is NULL:
                    raise MemoryError()
            if worlds is not None:
                preset = <uint64_t *>malloc(w * sizeof(uint64_t))
                if preset is NULL:
                    raise MemoryError()
                for i in range(w):
                    preset[i] = worlds[i]
            hooked = _stop_begin(&self.ctx.stop)
            with nogil:
                chosen = kj_pimc(self.ctx, hm, hk, hp, n, w, s, preset, a[0], a[1], a[2], a[3],
                                 cards, k, ex, values, sums, &searches)
            _stop_end(&self.ctx.stop, hooked)
            if chosen == -2:
                raise ValueError("a candidate is not a legal card of the mover")
            if chosen < 0:
                raise MemoryError("cannot allocate the worlds")
            rows = [[values[j * k + i] for i in range(k)] for j in range(w)] if ex else None
            return chosen, [sums[i] for i in range(k)], searches, rows
        finally:
            free(values)
            free(preset)

    def optimal_tree(self, e, d, trump, leader, trick, bonus, per_class, max_nodes):
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
        cdef uint64_t he, hd
        cdef int a[4]
        cdef kj_tree *t = NULL
        cdef kj_ctx *ctx = self.ctx
        cdef int n, i
        cdef int limit = _cint(max_nodes, "max_nodes", 0, 2**31 - 1, "0..2**31-1")
        cdef bint pc = bool(per_class)
        self._position(e, d, trump, leader, trick, bonus, &he, &hd, a)
        cdef bint hooked = _stop_begin(&self.ctx.stop)
        with nogil:
            n = kj_tree_build(self.ctx, he, hd, a[0], a[1], a[2], a[3], pc, limit, &t)
        try:
            _stop_end(&self.ctx.stop, hooked)
            if n == -1:
                return None
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
                "cls": [t.eclass[i] for i in range(t.ne)] if pc else None,
            }
        finally:
            kj_tree_free(t)
