# cython: language_level=3
"""Compiled Carabin search core (see _core.h). Ints in, ints out.

Hands cross as one list of ``2n`` card masks: the left hands of seats ``0..n-1``, then
their right hands. ``h`` is the kind of hand of the current trick (0 = L, 1 = R),
``order`` 0 for ``alternate`` and 1 for ``left_then_right``, ``trick`` the cards already
played to it. A search can be abandoned with :meth:`Core.stop` from another thread or
with Ctrl-C in the main thread, which raises ``KeyboardInterrupt``.

The card rules are data: a core is built from the 16-entry tables of
solver.carabin.rules (trick power and card points by rank), those of rules.py unless
others are given. Every argument is checked here before C sees it: a bad one raises
TypeError or ValueError.
"""

from libc.stdint cimport int8_t, int16_t, uint64_t
from libc.stdlib cimport free, malloc

include "stop.pxi"

cdef extern from "_core.h" nogil:
    ctypedef struct cb_ctx:
        uint64_t nodes
        tl_stop stop
        int lo, hi
        unsigned int gen
    enum: CB_MAXP, CB_MAX_HAND, CB_WORLD_CARDS
    uint64_t CB_WORLD_AFTER_BY_PLAYERS
    int CB_PLANES, CB_MAX_PACK_POINTS
    int CB_OK, CB_BAD_PLAYERS, CB_BAD_TRUMP, CB_BAD_BIDDER, CB_BAD_LEADER, CB_BAD_HAND
    int CB_BAD_ORDER, CB_BAD_TRICK, CB_NOT_PACK, CB_OVERLAP, CB_TOO_MANY, CB_SIZES
    cb_ctx *cb_new(size_t megabytes)
    void cb_set_rules(cb_ctx *c, const int *power, const int *points)
    int cb_check(int n, const uint64_t *hands, int trump, int bidder, int leader, int h,
                 int order, const int *trick, int k)
    void cb_free(cb_ctx *c)
    void cb_clear(cb_ctx *c)
    void cb_set_world(cb_ctx *c, int cards, uint64_t after)
    void cb_set_lanes(cb_ctx *c, int on)
    void cb_set_canon(cb_ctx *c, int on)
    void cb_set_deep(cb_ctx *c, int on)
    void cb_set_deep_shape(cb_ctx *c, int on)
    void cb_set_guide(cb_ctx *c, int start)
    void cb_set_race(cb_ctx *c, uint64_t budget)
    void cb_set_nolead(cb_ctx *c, int on)
    void cb_set_reverse(cb_ctx *c, int on)
    void cb_set_lead_race(cb_ctx *c, int on)
    uint64_t CB_RACE_BUDGET
    size_t cb_tt_bytes(const cb_ctx *c)
    int cb_value(cb_ctx *c, int n, const uint64_t *hands, int trump, int bidder, int leader,
                 int h, int order, const int *trick, int k, int guess)
    int cb_make(cb_ctx *c, int n, const uint64_t *hands, int trump, int bidder, int leader,
                int h, int order, const int *trick, int k, int target)
    int cb_share(cb_ctx *c, int on)
    int cb_resize(cb_ctx *c, size_t megabytes)
    int cb_help(cb_ctx *c, const cb_ctx *main, int n, const uint64_t *hands, int trump,
                int bidder, int leader, int h, int order, const int *trick, int k, int guess)
    int cb_all_tricks(cb_ctx *c, int n, const uint64_t *hands, int trump, int bidder,
                      int leader, int h, int order, const int *trick, int k)
    int cb_moves(cb_ctx *c, int n, const uint64_t *hands, int trump, int bidder, int leader,
                 int h, int order, const int *trick, int k, int guess, int *cards, int *values)
    int cb_world_bounds(cb_ctx *c, int n, const uint64_t *hands, int trump, int bidder,
                        int leader, int h, int order, int *out)
    int cb_canonical(cb_ctx *c, int n, const uint64_t *hands, const uint64_t *dealt,
                     int trump, int bidder, int leader, int h, int order, uint64_t *out)
    int cb_last_four(cb_ctx *c, int n, const uint64_t *hands, int trump, int bidder,
                     int leader, int h, int order, int target)
    int cb_deep_probe(cb_ctx *c, int n, const uint64_t *hands, int trump, int bidder,
                      int leader, int h, int order, int target, int graph)
    enum: CB_PIMC_MAX_WORLDS
    int cb_pimc(cb_ctx *c, int n, const uint64_t *worlds, int count, int trump, int bidder,
                int leader, int h, int order, const int *trick, int k, const int *cards,
                int ncards, int chelem, int target, int lost, double time_limit,
                long *searches, long *undecided)
    void cb_draw_worlds(int n, const uint64_t *base, const int *pool, int npool,
                        const int *slot, const int *size, int nhidden, int count,
                        uint64_t seed, uint64_t *out)

cdef extern from "_tree.h" nogil:
    ctypedef struct cb_tree:
        int nn, nm, ne
        uint64_t *held
        uint64_t *tcards
        int8_t *lead
        int8_t *hk
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
    int cb_tree_start(cb_ctx *c, int n, const uint64_t *hands, int trump, int bidder,
                      int leader, int h, int order, const int *trick, int k, int guess,
                      int per_class, int max_nodes, cb_tree **out)
    int cb_tree_run(cb_ctx *c, cb_tree *t, int budget)
    void cb_tree_free(cb_tree *t)
    uint64_t cb_to_external "cb_tree_to_external" (const cb_ctx *c, uint64_t m)

include "checks.pxi"


cdef str _problem(int code, int n, const uint64_t *hands, int trump, int bidder, int leader,
                  int h, int order, const int *trick, int k):
    """What cb_check's code says about a position."""
    if code == CB_BAD_PLAYERS:
        return f"invalid number of players {n} (expected 3 to {CB_MAXP})"
    if code == CB_BAD_TRUMP:
        return f"invalid trump {trump} (expected a suit 0..3)"
    if code == CB_BAD_BIDDER:
        return f"invalid bidder {bidder} (seats are 0 to {n - 1})"
    if code == CB_BAD_LEADER:
        return f"invalid leader {leader} (seats are 0 to {n - 1})"
    if code == CB_BAD_HAND:
        return f"invalid hand {h} (expected 0 for L or 1 for R)"
    if code == CB_BAD_ORDER:
        return f"invalid trick order {order} (expected 0 for alternate or 1 for left_then_right)"
    shown = [hex(hands[i]) for i in range(2 * n)]
    cards = [trick[j] for j in range(k)]
    if code == CB_BAD_TRICK:
        return f"invalid trick {cards} (at most {n - 1} cards 0..63 of the pack)"
    if code == CB_NOT_PACK:
        return f"hands {shown} hold a bit that is not a card"
    if code == CB_OVERLAP:
        return f"a card is twice in hands {shown} and trick {cards}"
    if code == CB_TOO_MANY:
        return f"hands {shown}: a hand holds more than {CB_MAX_HAND} cards"
    sizes = [bin(hands[i]).count("1") for i in range(2 * n)]
    return (f"hand sizes L {sizes[:n]} and R {sizes[n:]} do not fit hand {h}, leader "
            f"{leader} and a trick of {k} cards (each kind of hand of one size, one card "
            f"fewer in the hand in use for the seats that played to the trick, and a card "
            f"to play while any is left)")


_PLAYERS_RANGE = f"3 to {CB_MAXP}"
#: Most players; Core.values takes 2 * MAX_PLAYERS hands and MAX_PLAYERS - 1 trick
#: cards a position.
MAX_PLAYERS = CB_MAXP
#: Most worlds of one Core.pimc decision.
PIMC_MAX_WORLDS = CB_PIMC_MAX_WORLDS

cdef enum:
    _HANDS_STRIDE = 2 * CB_MAXP
    _TRICK_STRIDE = CB_MAXP - 1


def _check_rules(list power, list points):
    """Refuse card tables the search cannot use (see cb_set_rules in _core.h)."""
    if sorted(power[:13]) != list(range(13)) or power[13:] != [-1, -1, -1]:
        raise ValueError(
            f"power must give ranks 0..12 the powers 0..12 once each and -1 to 13..15 "
            f"(no rank), not {power}")
    top = (1 << CB_PLANES) - 1
    if any(not 0 <= p <= top for p in points[:13]):
        raise ValueError(f"rank_points must be 0..{top} for the ranks 0..12, not {points}")
    by_power = [points[r] for r in sorted(range(13), key=lambda r: power[r])]
    if by_power != sorted(by_power):
        raise ValueError(
            f"rank_points must not decrease with trick power (the search relies on it), "
            f"but by power they are {by_power}")
    if 4 * sum(points[:13]) > CB_MAX_PACK_POINTS:
        raise ValueError(f"the pack is worth {4 * sum(points[:13])} points, more than the "
                         f"core's {CB_MAX_PACK_POINTS}")


def _default_rules():
    from solver.carabin import rules

    return rules.POWER, rules.RANK_POINTS


ctypedef struct cb_args:
    int n
    uint64_t hands[_HANDS_STRIDE]
    int trump, bidder, leader, h, order
    int trick[_TRICK_STRIDE]
    int k


cdef int _row(cb_args *a, const int8_t[:] n, const uint64_t[:] hands, const int8_t[:] trump,
              const int8_t[:] bidder, const int8_t[:] leader, const int8_t[:] h,
              const int8_t[:] order, const int8_t[:] trick, Py_ssize_t i) noexcept nogil:
    """Read position i of a batch into ``a``; cb_check's code, or -1 for a hand given
    beyond the 2n of the position, -2 for a trick card after a -1."""
    cdef Py_ssize_t j
    a.n = n[i]
    a.trump, a.bidder, a.leader, a.h, a.order = trump[i], bidder[i], leader[i], h[i], order[i]
    if a.n < 3 or a.n > CB_MAXP:
        return CB_BAD_PLAYERS
    for j in range(_HANDS_STRIDE):
        a.hands[j] = hands[_HANDS_STRIDE * i + j]
        if j >= 2 * a.n and a.hands[j]:
            return -1
    a.k = 0
    for j in range(_TRICK_STRIDE):
        if trick[_TRICK_STRIDE * i + j] < 0:
            if trick[_TRICK_STRIDE * i + j] != -1:
                return CB_BAD_TRICK
        elif a.k < j:
            return -2
        else:
            a.trick[a.k] = trick[_TRICK_STRIDE * i + j]
            a.k += 1
    return cb_check(a.n, a.hands, a.trump, a.bidder, a.leader, a.h, a.order, a.trick, a.k)


cdef int _pimc_cards(list cs, uint64_t mover_hand, int *cards) except -1:
    """Check the candidates of a PIMC decision into ``cards``; their number."""
    cdef int i, j, ncards = len(cs)
    if not 1 <= ncards <= CB_MAX_HAND:
        raise ValueError(f"{ncards} candidates (expected 1 to {CB_MAX_HAND})")
    for i in range(ncards):
        cards[i] = _cint(cs[i], "candidates", 0, 63, "a card", i)
        if not (mover_hand >> cards[i]) & 1:
            raise ValueError(f"candidate {cards[i]} is not in the mover's hand in use")
        for j in range(i):
            if cards[j] == cards[i]:
                raise ValueError(f"candidate {cards[i]} given twice")
    return ncards


cdef tuple _draw_spec(cb_args *a, pool, hidden, int *pl, int *slot, int *size):
    """Check the cards to draw (``pool``) and the hidden hands (``hidden``: (index of
    the 2n hands, cards)) against the view ``a`` into pl, slot and size; (cards in the
    pool, hidden hands)."""
    cdef int i, j, npool, nhidden, total = 0
    cdef uint64_t seen = 0, held = 0
    try:
        ps = pool if type(pool) is list else list(pool)
        hd = hidden if type(hidden) is list else list(hidden)
    except TypeError:
        raise TypeError("pool and hidden must be sequences") from None
    npool, nhidden = len(ps), len(hd)
    if npool > 64:
        raise ValueError(f"a pool of {npool} cards (at most 64)")
    for i in range(2 * a.n):
        held |= a.hands[i]
    for i in range(a.k):
        held |= 1ull << a.trick[i]
    for i in range(npool):
        pl[i] = _cint(ps[i], "pool", 0, 63, "a card", i)
        if (seen | held) >> pl[i] & 1:
            raise ValueError(f"pool card {pl[i]} given twice or in a hand or the trick")
        seen |= 1ull << pl[i]
    if nhidden > 2 * a.n:
        raise ValueError(f"{nhidden} hidden hands for {a.n} players (at most {2 * a.n})")
    for i in range(nhidden):
        try:
            index, cards = hd[i]
        except (TypeError, ValueError):
            raise TypeError("each hidden hand must be (index of the hands, cards)") from None
        slot[i] = _cint(index, "hidden", 0, 2 * a.n - 1, "an index of the hands", i)
        size[i] = _cint(cards, "hidden", 0, CB_MAX_HAND, "a number of cards", i)
        if a.hands[slot[i]]:
            raise ValueError(f"hidden hand {slot[i]} is not empty in the view")
        for j in range(i):
            if slot[j] == slot[i]:
                raise ValueError(f"hidden hand {slot[i]} given twice")
        total += size[i]
    if total > npool:
        raise ValueError(f"{total} hidden cards from a pool of {npool}")
    return npool, nhidden


def draw_worlds(n, hands, pool, hidden, count, seed):
    """The ``count`` worlds (``2 * n`` hands each) that :meth:`Core.pimc_drawn` draws
    from the view ``hands`` (the hidden hands empty), ``pool``, ``hidden`` and ``seed``:
    ``random.Random(seed)``, then for each world ``Random.sample(pool, total)`` dealt in
    order to the hidden hands (cb_draw_worlds in _core.h). No position is checked."""
    cdef cb_args a
    cdef int i, k
    cdef int pl[64]
    cdef int slot[2 * CB_MAXP]
    cdef int size[2 * CB_MAXP]
    cdef int npool, nhidden
    cdef uint64_t s
    cdef uint64_t *hs = NULL
    a.n = _cint(n, "number of players", 3, CB_MAXP, _PLAYERS_RANGE)
    try:
        hv = hands if type(hands) is list else list(hands)
    except TypeError:
        raise TypeError("hands must be a sequence of ints") from None
    if len(hv) != 2 * a.n:
        raise ValueError(f"{len(hv)} hands for {a.n} players (expected {2 * a.n})")
    for i in range(2 * a.n):
        a.hands[i] = _u64(hv[i], "hands", i)
    a.k = 0
    k = _cint(count, "count", 0, CB_PIMC_MAX_WORLDS, f"0 to {CB_PIMC_MAX_WORLDS}")
    s = _u64(seed, "seed")
    npool, nhidden = _draw_spec(&a, pool, hidden, pl, slot, size)
    hs = <uint64_t *>malloc(max(k, 1) * 2 * a.n * sizeof(uint64_t))
    if hs is NULL:
        raise MemoryError("cannot allocate the worlds")
    try:
        cb_draw_worlds(a.n, a.hands, pl, npool, slot, size, nhidden, k, s, hs)
        return [[hs[2 * a.n * w + i] for i in range(2 * a.n)] for w in range(k)]
    finally:
        free(hs)


cdef class Core:
    """One search context with its own transposition table of ``megabytes`` MB."""

    cdef cb_ctx *ctx
    cdef volatile int stop_flag
    cdef int helpers  # help() calls running on this core's table
    cdef bint shared

    def __cinit__(self, megabytes=32, *, power=None, rank_points=None):
        cdef int pw[16]
        cdef int pt[16]
        cdef size_t mb = _megabytes(megabytes)
        defaults = _default_rules()
        power = _table(power if power is not None else defaults[0], "power")
        rank_points = _table(rank_points if rank_points is not None else defaults[1],
                             "rank_points")
        _check_rules(power, rank_points)
        for r in range(16):
            pw[r] = power[r]
            pt[r] = rank_points[r]
        self.ctx = cb_new(mb)
        if self.ctx is NULL:
            raise MemoryError(f"cannot allocate a {mb} MB transposition table")
        cb_set_rules(self.ctx, pw, pt)
        self.stop_flag = 0
        self.ctx.stop.flag = &self.stop_flag

    def __dealloc__(self):
        cb_free(self.ctx)  # a helper holds a reference to its main core while it helps

    @property
    def nodes(self):
        return self.ctx.nodes

    @property
    def tt_bytes(self):
        return cb_tt_bytes(self.ctx)

    def clear(self):
        self._alone("clear")
        cb_clear(self.ctx)

    def resize(self, megabytes):
        """Take a transposition table of ``megabytes`` MB instead, empty (the other
        tables and every setting are kept). Not while the table is shared (:meth:`share`)
        or helped; MemoryError (and the table kept) if it cannot be allocated."""
        cdef size_t mb = _megabytes(megabytes)
        self._alone("resize")
        if self.shared:
            raise RuntimeError("cannot resize a shared table: stop sharing it first")
        cdef int r = cb_resize(self.ctx, mb)
        if r == -1:
            raise MemoryError(f"cannot allocate a {mb} MB transposition table")
        if r != 0:
            raise RuntimeError("cannot resize the table of a core that is helping another")

    cdef int _alone(self, what) except -1:
        if self.helpers:
            raise RuntimeError(f"cannot {what} a core's table while another core helps it")
        return 0

    def share(self, on=True):
        """Let other cores help this one's exact searches with its table (True; see
        :meth:`help`), or stop (False). A shared table takes a lock a bucket (4 bytes for
        every 64 of table) and its stores are a little slower; values never depend on it.
        Not while a helper runs."""
        if not isinstance(on, bool):
            raise ValueError(f"invalid on {on!r}: True or False")
        self._alone("stop sharing")
        if cb_share(self.ctx, 1 if on else 0) != 0:
            raise MemoryError("cannot allocate the locks of a shared table")
        self.shared = on

    @property
    def is_shared(self):
        """Whether other cores may help this one (:meth:`share`)."""
        return bool(self.shared)

    def help(self, Core main not None, n, hands, trump, bidder, leader, h, order, trick, guess):
        """The exact value that ``main`` is searching (its :meth:`value` with these
        arguments, running in another thread), searched on this core with ``main``'s
        shared table (:meth:`share`): the two searches take different parts of the proof
        first and each reads what the other has proved. Whichever ends first has the
        value and may stop the other (:meth:`stop`). This core's own table is left
        alone; its other tables start empty. None if ``main``'s table is not shared,
        ``main`` is this core, or it has not searched this deal (its cards) in this
        table; KeyboardInterrupt if stopped."""
        cdef cb_args a
        cdef int v
        self._position(n, hands, trump, bidder, leader, h, order, trick, &a)
        cdef int g = _cint(guess, "guess", -(2**31), 2**31 - 1, "an int")
        cdef bint hooked
        if main is self or not main.shared:
            return None
        main.helpers += 1
        try:
            hooked = _stop_begin(&self.ctx.stop)
            with nogil:
                v = cb_help(self.ctx, main.ctx, a.n, a.hands, a.trump, a.bidder, a.leader,
                            a.h, a.order, a.trick, a.k, g)
            _stop_end(&self.ctx.stop, hooked)
        finally:
            main.helpers -= 1
        return None if v == -2 else v

    def stop(self):
        """Ask a running search (in another thread) to stop; it raises KeyboardInterrupt.

        Asked while no search runs, it stops the next one.
        """
        self.stop_flag = 1

    def clear_stop(self):
        """Forget a :meth:`stop` asked while no search of this core ran (it would
        stop the next one). Only from the thread that runs this core's searches."""
        self.stop_flag = 0

    def set_time_limit(self, seconds):
        """Every later search of this core raises TimeoutError once ``seconds`` from now
        have passed (the table keeps only what finished searches proved); None clears
        the limit."""
        _set_time_limit(&self.ctx.stop, seconds)

    def set_world_bounds(self, cards=CB_WORLD_CARDS, after=None):
        """Use the single-world bounds (see _core.h) at trick boundaries where no hand
        holds more than ``cards`` cards of either kind (0: never), once a search has
        visited ``after`` nodes (None: a number by player count, about what the
        single-world games cost; and at 3 and 4 players at the boundaries of two cards a
        hand of both kinds from the first node: ``cb_world2_after``; a number given
        here applies to every boundary). Values never depend on it, only the cost; the
        tests turn them on from the first node to check them on small positions."""
        cdef int k = _cint(cards, "cards", 0, CB_MAX_HAND, f"0 to {CB_MAX_HAND}")
        cdef uint64_t a = CB_WORLD_AFTER_BY_PLAYERS
        if after is not None:
            a = <uint64_t>_cint(after, "after", 0, 2**62, "a count of nodes or None")
        cb_set_world(self.ctx, k, a)

    def set_lanes(self, on=True):
        """Solve the single-world games in which every hand holds two cards of their
        kind, and the last four tricks where the bounds fall short, on lanes, every way
        of playing their tricks at once (True, the default), or by the search (False).
        Values never depend on it; the tests compare the two."""
        if not isinstance(on, bool):
            raise ValueError(f"invalid on {on!r}: True or False")
        cb_set_lanes(self.ctx, 1 if on else 0)

    def set_canonical(self, on=True):
        """Look trick boundaries about to be searched up by their canonical cards too
        (True, the default: positions that differ only in cards played share what the
        table knows of them), or by their own cards alone (False). Values never depend
        on it; the tests compare the two."""
        if not isinstance(on, bool):
            raise ValueError(f"invalid on {on!r}: True or False")
        cb_set_canon(self.ctx, 1 if on else 0)

    def set_deep_look_ahead(self, on=True):
        """From 5 players, follow a look-ahead that falls short at a boundary of three
        cards a hand to play and two or three of the other kind with one two tricks deep,
        and try that look-ahead first at boundaries of four cards a hand to play and
        three of the other (True, the default), or search such boundaries at once
        (False). Values never depend on it; the tests compare the two."""
        if not isinstance(on, bool):
            raise ValueError(f"invalid on {on!r}: True or False")
        cb_set_deep(self.ctx, 1 if on else 0)

    def set_deep_graphs(self, on=True, first=False):
        """From 5 players, in a search grown past 200,000 nodes, value the look-ahead two
        tricks deep from a boundary of three cards a hand to play and two or three of the
        other by a graph of its trick, made the second time that world is met with that
        leader and kept, its nodes merged where they lead to the same outcomes (True,
        the default; cb_deep_shape in _core.h), or play that trick out every time
        (False). ``first``: from the first node, each graph made the first time (for the
        tests). Values never depend on it; the tests compare the two."""
        if not isinstance(on, bool) or not isinstance(first, bool):
            raise ValueError(f"invalid on {on!r} or first {first!r}: True or False")
        cb_set_deep_shape(self.ctx, (2 if first else 1) if on else 0)

    def set_guide(self, on=True, start=3):
        """At 6 players, inside the search of a trick whose boundary's look-ahead two
        tricks deep was valued by its graph and fell short: at each node of the
        coalition's with at least ``start`` cards of the trick played and two or more
        still to play, the minimax of the graph below that node (its outcomes valued as
        by the look-ahead); at least the node's target, it ends that node's search (True,
        the default, from the fourth card; cb_guide in _core.h), or the trick is searched
        card by card (False). Values never depend on it; the tests compare the two."""
        if not isinstance(on, bool) or not isinstance(start, int) or isinstance(start, bool) \
                or not 1 <= start <= 5:
            raise ValueError(f"invalid on {on!r} or start {start!r}: True or False, 1 to 5")
        cb_set_guide(self.ctx, start if on else 0)

    def set_nolead_bound(self, on=True):
        """From 5 players, at trick boundaries (and the deep look-ahead's leaves) where
        the world to play has three tricks or more and one more than the other, take the
        no-lead bound (cb_nolead_bound in _core.h: that world's game in which the bidder
        never leads again, where he can avoid taking any trick of the other world) (True,
        the default), or not (False). Values never depend on it; the tests compare the
        two."""
        if not isinstance(on, bool):
            raise ValueError(f"invalid on {on!r}: True or False")
        cb_set_nolead(self.ctx, 1 if on else 0)

    def set_reverse_pair(self, on=True):
        """From 4 players, take the coupled bound's reverse pair too (cb_coupled_bound in
        _core.h: the ducking game of the world to play plus the other world's game in
        which the coalition leads after every trick it took there), and at 6 players at
        the first trick's boundary of a search grown past a million nodes (True, the
        default), or only the first pair (False). Values never depend on it; the tests
        compare the two."""
        if not isinstance(on, bool):
            raise ValueError(f"invalid on {on!r}: True or False")
        cb_set_reverse(self.ctx, 1 if on else 0)

    def set_race(self, on=True, budget=None):
        """Race the cards of a seat of the coalition in the search's first trick under
        growing node budgets, the first card to refute the bidder ending the race (True,
        the default; cb_trick_race in _core.h), or search them in the move order (False).
        ``budget``: the first card's budget in nodes (None: the core's, 100,000); small
        ones make every search race, for the tests. Values never depend on it."""
        if not isinstance(on, bool):
            raise ValueError(f"invalid on {on!r}: True or False")
        cdef uint64_t b = CB_RACE_BUDGET
        if budget is not None:
            b = _cint(budget, "budget", 1, 2**40, "a positive int")
        cb_set_race(self.ctx, b if on else 0)

    def set_lead_race(self, on=True):
        """While the race of the first trick is on (set_race), race the leads of a seat of
        the coalition in the search's second and third tricks too, each lead under the
        same budget (a tenth of the race's first budget, four times more each round; True,
        the default; cb_boundary in _core.h), or search them in the move order (False).
        Values never depend on it; the tests compare the two."""
        if not isinstance(on, bool):
            raise ValueError(f"invalid on {on!r}: True or False")
        cb_set_lead_race(self.ctx, 1 if on else 0)

    @property
    def last_bounds(self):
        """(lo, hi): what the last exact search proved of the bidder's points before it
        stopped (its value when it finished)."""
        return (self.ctx.lo, self.ctx.hi)

    cdef int _position(self, n, hands, trump, bidder, leader, h, order, trick,
                       cb_args *a, bint whole=True) except -1:
        """Check one position's arguments into ``a`` (not ``whole``: the hands are a
        view, the hidden ones empty, and cb_check is left to the worlds)."""
        cdef Py_ssize_t i
        cdef int code
        a.n = _cint(n, "number of players", 3, CB_MAXP, _PLAYERS_RANGE)
        try:
            hs = hands if type(hands) is list else list(hands)
            ts = trick if type(trick) is list else list(trick)
        except TypeError:
            raise TypeError("hands and trick must be sequences of ints") from None
        if len(hs) != 2 * a.n:
            raise ValueError(f"{len(hs)} hands for {a.n} players (expected {2 * a.n}: "
                             "the left hands of seats 0..n-1, then their right hands)")
        if len(ts) >= a.n:
            raise ValueError(f"a trick of {len(ts)} cards for {a.n} players "
                             f"(at most {a.n - 1})")
        for i in range(2 * a.n):
            a.hands[i] = _u64(hs[i], "hands", i)
        for i in range(len(ts)):
            a.trick[i] = _cint(ts[i], "trick", -128, 127, "a card", i)
        a.k = len(ts)
        a.trump = _cint(trump, "trump", -128, 127, "a suit 0..3")
        a.bidder = _cint(bidder, "bidder", -128, 127, "a seat")
        a.leader = _cint(leader, "leader", -128, 127, "a seat")
        a.h = _cint(h, "hand", -128, 127, "0 for L or 1 for R")
        a.order = _cint(order, "trick order", -128, 127, "0 or 1")
        if not whole:
            return 0
        code = cb_check(a.n, a.hands, a.trump, a.bidder, a.leader, a.h, a.order, a.trick, a.k)
        if code != CB_OK:
            raise ValueError(_problem(code, a.n, a.hands, a.trump, a.bidder, a.leader, a.h,
                                      a.order, a.trick, a.k))
        return 0

    def value(self, n, hands, trump, bidder, leader, h, order, trick, guess):
        cdef cb_args a
        cdef int v
        self._position(n, hands, trump, bidder, leader, h, order, trick, &a)
        cdef int g = _cint(guess, "guess", -(2**31), 2**31 - 1, "an int")
        cdef bint hooked = _stop_begin(&self.ctx.stop)
        with nogil:
            v = cb_value(self.ctx, a.n, a.hands, a.trump, a.bidder, a.leader, a.h, a.order,
                         a.trick, a.k, g)
        _stop_end(&self.ctx.stop, hooked)
        return v

    def make(self, n, hands, trump, bidder, leader, h, order, trick, target):
        cdef cb_args a
        cdef int v
        self._position(n, hands, trump, bidder, leader, h, order, trick, &a)
        cdef int t = _cint(target, "target", -(2**31), 2**31 - 1, "an int")
        cdef bint hooked = _stop_begin(&self.ctx.stop)
        with nogil:
            v = cb_make(self.ctx, a.n, a.hands, a.trump, a.bidder, a.leader, a.h, a.order,
                        a.trick, a.k, t)
        _stop_end(&self.ctx.stop, hooked)
        return bool(v)

    def all_tricks(self, n, hands, trump, bidder, leader, h, order, trick):
        cdef cb_args a
        cdef int v
        self._position(n, hands, trump, bidder, leader, h, order, trick, &a)
        cdef bint hooked = _stop_begin(&self.ctx.stop)
        with nogil:
            v = cb_all_tricks(self.ctx, a.n, a.hands, a.trump, a.bidder, a.leader, a.h,
                              a.order, a.trick, a.k)
        _stop_end(&self.ctx.stop, hooked)
        return bool(v)

    def world_bounds(self, n, hands, trump, bidder, leader, h, order):
        """(plain, coupled, upper): the bounds on the bidder's points that the search
        takes from single-world games at a trick boundary (see cb_world_var and
        cb_world_upper in _core.h): the plain pair's lower bound, the coupled pair's
        (None where it gives none), and the upper bound of the games in which he
        chooses every later leader."""
        cdef cb_args a
        cdef int out[3]
        self._position(n, hands, trump, bidder, leader, h, order, [], &a)
        cdef bint hooked = _stop_begin(&self.ctx.stop)
        with nogil:
            cb_world_bounds(self.ctx, a.n, a.hands, a.trump, a.bidder, a.leader, a.h, a.order,
                            out)
        _stop_end(&self.ctx.stop, hooked)
        return (out[0], None if out[1] < 0 else out[1], out[2])

    def last_four(self, n, hands, trump, bidder, leader, h, order, target):
        """Whether the bidder takes at least ``target`` points from a trick boundary
        where every hand holds two cards of each kind and tricks alternate, by the lanes
        of the last four tricks alone (cb_last4 in _core.h, which the search asks where
        its bounds fall short): for the tests, which compare it with the search."""
        cdef cb_args a
        cdef int v
        self._position(n, hands, trump, bidder, leader, h, order, [], &a)
        cdef int t = _cint(target, "target", -(2**31), 2**31 - 1, "an int")
        with nogil:
            v = cb_last_four(self.ctx, a.n, a.hands, a.trump, a.bidder, a.leader, a.h,
                             a.order, t)
        if v < 0:
            raise ValueError("last_four: not a boundary with two cards a hand of each kind "
                             "and alternating tricks")
        return bool(v)

    def deep_look_ahead(self, n, hands, trump, bidder, leader, h, order, target, graph):
        """Whether the look-ahead two tricks deep from a trick boundary of three cards a
        hand to play and two or three of the other (tricks alternating) reaches
        ``target``, by
        the graph of its trick (``graph``) or by playing it out (cb_deep_probe in
        _core.h): for the tests, which compare the two."""
        cdef cb_args a
        cdef int v
        self._position(n, hands, trump, bidder, leader, h, order, [], &a)
        cdef int t = _cint(target, "target", -(2**31), 2**31 - 1, "an int")
        cdef int g = 1 if graph else 0
        with nogil:
            v = cb_deep_probe(self.ctx, a.n, a.hands, a.trump, a.bidder, a.leader, a.h,
                              a.order, t, g)
        if v < 0:
            raise ValueError("deep_look_ahead: not a boundary with three cards a hand to "
                             "play and two or three of the other, tricks alternating")
        return bool(v)

    def set_generation(self, gen):
        """Set the counter of generations (the tag of every table entry) to ``gen``, as if
        that many deals had been searched in this core: for the tests, which check that
        it is never carried round to a generation some entry still bears."""
        self.ctx.gen = <unsigned int>_cint(gen, "gen", 1, 2**32 - 1, "a generation")

    @property
    def generation(self):
        """The current generation (the tag of the entries being made); for the tests."""
        return self.ctx.gen

    def canonical(self, n, hands, trump, bidder, leader, h, order, dealt):
        """The canonical cards of a trick boundary (cb_canon in _core.h, by which the
        search also looks boundaries up), as one card set, card ownership taken from
        ``dealt`` (the 2n hands when the deal began, each holding the position's hand of
        its seat and kind): for the tests, which compare it with its definition."""
        cdef cb_args a
        cdef cb_args d
        cdef uint64_t out = 0
        cdef int code
        self._position(n, hands, trump, bidder, leader, h, order, [], &a)
        self._position(n, dealt, trump, bidder, leader, h, order, [], &d, False)
        with nogil:
            code = cb_canonical(self.ctx, a.n, a.hands, d.hands, a.trump, a.bidder, a.leader,
                                a.h, a.order, &out)
        if code == -1:
            raise ValueError("canonical: a hand is not within the dealt hand of its seat "
                             "and kind")
        if code < 0:
            raise ValueError("canonical: the dealt hands hold a bit that is no card, or a "
                             "card twice")
        return out

    def moves(self, n, hands, trump, bidder, leader, h, order, trick, guess):
        cdef cb_args a
        cdef int cards[CB_MAX_HAND]
        cdef int values[CB_MAX_HAND]
        cdef int m
        self._position(n, hands, trump, bidder, leader, h, order, trick, &a)
        cdef int g = _cint(guess, "guess", -(2**31), 2**31 - 1, "an int")
        cdef bint hooked = _stop_begin(&self.ctx.stop)
        with nogil:
            m = cb_moves(self.ctx, a.n, a.hands, a.trump, a.bidder, a.leader, a.h, a.order,
                         a.trick, a.k, g, cards, values)
        _stop_end(&self.ctx.stop, hooked)
        return [(cards[i], values[i]) for i in range(m)]

    def values(self, n, hands, trump, bidder, leader, h, order, trick, guess, out):
        """The bidder's exact points for many positions, into ``out``, in one call.

        One entry a position in ``n`` (players), ``trump``, ``bidder``, ``leader``,
        ``h``, ``order`` (buffers of int8, ``array('b')``), ``guess`` (int32,
        ``array('i')``) and ``out`` (a writable buffer of int32); ``2 * MAX_PLAYERS``
        entries a position in ``hands`` (uint64, ``array('Q')``: the 2n hands as for
        :meth:`value`, then zeros) and ``MAX_PLAYERS - 1`` in ``trick`` (int8: the
        cards played to the trick, then -1). Every position is checked before any is
        solved. The GIL is released while solving; Ctrl-C or :meth:`stop` ends the
        batch with KeyboardInterrupt (``out`` is then partly written).
        """
        cdef const int8_t[:] vn = _buffer_i8(n, "n")
        cdef const uint64_t[:] vh = _buffer_u64(hands, "hands")
        cdef const int8_t[:] vt = _buffer_i8(trump, "trump")
        cdef const int8_t[:] vb = _buffer_i8(bidder, "bidder")
        cdef const int8_t[:] vl = _buffer_i8(leader, "leader")
        cdef const int8_t[:] vk = _buffer_i8(h, "h")
        cdef const int8_t[:] vo = _buffer_i8(order, "order")
        cdef const int8_t[:] vc = _buffer_i8(trick, "trick")
        cdef const int[:] vg = _buffer_i32(guess, "guess")
        cdef int[:] vout = _buffer_out(out, "out")
        cdef Py_ssize_t i, count = vn.shape[0]
        cdef cb_args a
        cdef int code = CB_OK, v
        _same_length(count, "n", [
            ("trump", vt.shape[0]), ("bidder", vb.shape[0]), ("leader", vl.shape[0]),
            ("h", vk.shape[0]), ("order", vo.shape[0]), ("guess", vg.shape[0]),
            ("out", vout.shape[0])])
        if vh.shape[0] != _HANDS_STRIDE * count:
            raise ValueError(f"hands has {vh.shape[0]} entries for {count} positions "
                             f"(expected {_HANDS_STRIDE} a position)")
        if vc.shape[0] != _TRICK_STRIDE * count:
            raise ValueError(f"trick has {vc.shape[0]} entries for {count} positions "
                             f"(expected {_TRICK_STRIDE} a position)")
        with nogil:
            for i in range(count):
                code = _row(&a, vn, vh, vt, vb, vl, vk, vo, vc, i)
                if code != CB_OK:
                    break
        if code == -1:
            raise ValueError(f"position {i}: a hand given beyond the {2 * a.n} of "
                             f"{a.n} players (the entries after them must be 0)")
        if code == -2:
            raise ValueError(f"position {i}: a trick card after a -1 (the cards played "
                             "come first, then -1)")
        if code != CB_OK:
            raise ValueError(f"position {i}: " + _problem(
                code, a.n, a.hands, a.trump, a.bidder, a.leader, a.h, a.order, a.trick, a.k))
        cdef bint hooked = _stop_begin(&self.ctx.stop)
        with nogil:
            for i in range(count):
                _row(&a, vn, vh, vt, vb, vl, vk, vo, vc, i)
                v = cb_value(self.ctx, a.n, a.hands, a.trump, a.bidder, a.leader, a.h,
                             a.order, a.trick, a.k, vg[i])
                if self.ctx.stop.stopped:
                    break
                vout[i] = v
        _stop_end(&self.ctx.stop, hooked)

    def pimc(self, n, worlds, trump, bidder, leader, h, order, trick, candidates, chelem,
             target, lost, time_limit):
        """One Carabin decision by perfect-information Monte Carlo (cb_pimc in _core.h).

        ``worlds``: one list of ``2 * n`` hands a world (as for :meth:`value`), every
        world a position with the other arguments (``trump``, ``bidder``, ``leader``,
        ``h``, ``order``, ``trick``), alike but for the hidden cards. ``candidates``:
        cards of the mover's hand in use, in the order that breaks ties. The contract:
        ``target`` points the bidder must still take (the unfinished trick included),
        or with ``chelem`` every trick (``lost``: he has lost one). ``time_limit``:
        seconds a search (0: none), an undecided search counting half a failure.

        Returns:
            (index of the chosen candidate, evaluations (candidate, world), searches cut
            by the time limit). The GIL is released; Ctrl-C or :meth:`stop` ends the
            decision with KeyboardInterrupt, the core's own time limit (without
            ``time_limit``) with TimeoutError.
        """
        cdef cb_args a
        cdef int count, ncards, i, w, code
        cdef int cards[CB_MAX_HAND]
        cdef uint64_t *hs = NULL
        cdef uint64_t mover_hand = 0
        try:
            ws = worlds if type(worlds) is list else list(worlds)
            cs = candidates if type(candidates) is list else list(candidates)
        except TypeError:
            raise TypeError("worlds and candidates must be sequences") from None
        count = len(ws)
        if not 1 <= count <= CB_PIMC_MAX_WORLDS:
            raise ValueError(f"{count} worlds (expected 1 to {CB_PIMC_MAX_WORLDS})")
        self._position(n, ws[0], trump, bidder, leader, h, order, trick, &a)
        mover_hand = a.hands[a.h * a.n + (a.leader + a.k) % a.n]
        ncards = _pimc_cards(cs, mover_hand, cards)
        hs = <uint64_t *>malloc(count * 2 * a.n * sizeof(uint64_t))
        if hs is NULL:
            raise MemoryError("cannot allocate the worlds")
        try:
            for w in range(count):
                try:
                    hw = ws[w] if type(ws[w]) is list else list(ws[w])
                except TypeError:
                    raise TypeError("each world must be a sequence of ints") from None
                if len(hw) != 2 * a.n:
                    raise ValueError(f"world {w}: {len(hw)} hands for {a.n} players "
                                     f"(expected {2 * a.n})")
                for i in range(2 * a.n):
                    hs[2 * a.n * w + i] = _u64(hw[i], "worlds", i)
            self._check_worlds(&a, hs, count, mover_hand)
            return self._decide(&a, hs, count, cards, ncards, chelem, target, lost, time_limit)
        finally:
            free(hs)

    def pimc_drawn(self, n, hands, trump, bidder, leader, h, order, trick, candidates,
                   chelem, target, lost, time_limit, pool, hidden, count, seed):
        """:meth:`pimc` over ``count`` worlds drawn here from ``seed``, as
        :meth:`draw_worlds` draws them (Python's ``random.Random(seed)`` and
        ``Random.sample``, see cb_draw_worlds in _core.h): ``hands`` is the mover's view,
        the hidden hands empty; ``pool`` the cards they may hold, ``hidden`` (index of
        the ``2 * n`` hands, cards) for each hidden hand in the order they are dealt.
        The other arguments and the answer are those of :meth:`pimc`.
        """
        cdef cb_args a
        cdef int ncards, k
        cdef int cards[CB_MAX_HAND]
        cdef int pl[64]
        cdef int slot[2 * CB_MAXP]
        cdef int size[2 * CB_MAXP]
        cdef int npool, nhidden
        cdef uint64_t *hs = NULL
        cdef uint64_t mover_hand, s
        self._position(n, hands, trump, bidder, leader, h, order, trick, &a, False)
        mover_hand = a.hands[a.h * a.n + (a.leader + a.k) % a.n]
        try:
            cs = candidates if type(candidates) is list else list(candidates)
        except TypeError:
            raise TypeError("candidates must be a sequence") from None
        ncards = _pimc_cards(cs, mover_hand, cards)
        k = _cint(count, "count", 1, CB_PIMC_MAX_WORLDS, f"1 to {CB_PIMC_MAX_WORLDS}")
        s = _u64(seed, "seed")
        npool, nhidden = _draw_spec(&a, pool, hidden, pl, slot, size)
        hs = <uint64_t *>malloc(k * 2 * a.n * sizeof(uint64_t))
        if hs is NULL:
            raise MemoryError("cannot allocate the worlds")
        try:
            with nogil:
                cb_draw_worlds(a.n, a.hands, pl, npool, slot, size, nhidden, k, s, hs)
            self._check_worlds(&a, hs, k, mover_hand)
            return self._decide(&a, hs, k, cards, ncards, chelem, target, lost, time_limit)
        finally:
            free(hs)

    cdef int _check_worlds(self, cb_args *a, uint64_t *hs, int count,
                           uint64_t mover_hand) except -1:
        """Check each world of ``hs`` against the position ``a`` (cb_check) and that
        the mover's hand in use is ``mover_hand``."""
        cdef int w, code
        for w in range(count):
            code = cb_check(a.n, hs + 2 * a.n * w, a.trump, a.bidder, a.leader, a.h,
                            a.order, a.trick, a.k)
            if code != CB_OK:
                raise ValueError(f"world {w}: " + _problem(
                    code, a.n, hs + 2 * a.n * w, a.trump, a.bidder, a.leader, a.h,
                    a.order, a.trick, a.k))
            if hs[2 * a.n * w + a.h * a.n + (a.leader + a.k) % a.n] != mover_hand:
                raise ValueError(f"world {w}: the mover's hand in use differs from "
                                 "world 0's")
        return 0

    cdef object _decide(self, cb_args *a, uint64_t *hs, int count, int *cards, int ncards,
                        chelem, target, lost, time_limit):
        """cb_pimc over the checked worlds ``hs``: the answer of :meth:`pimc`."""
        cdef int chosen, t, ch, lo
        cdef bint hooked
        cdef long searches = 0, undecided = 0
        cdef double seconds
        ch = bool(chelem)
        t = _cint(target, "target", -(2**15), 2**15, "an int")
        lo = bool(lost)
        if time_limit is None:
            seconds = 0
        else:
            seconds = float(time_limit)
            if not seconds >= 0 or seconds == float("inf"):
                raise ValueError(f"invalid time limit {time_limit!r} (expected seconds >= 0)")
        hooked = _stop_begin(&self.ctx.stop)
        with nogil:
            chosen = cb_pimc(self.ctx, a.n, hs, count, a.trump, a.bidder, a.leader, a.h,
                             a.order, a.trick, a.k, cards, ncards, ch, t, lo, seconds,
                             &searches, &undecided)
        _stop_end(&self.ctx.stop, hooked)
        if chosen < 0:
            raise MemoryError("cannot allocate the decision")
        return chosen, searches, undecided

    def optimal_tree(self, n, hands, trump, bidder, leader, h, order, trick, guess, per_class,
                     max_nodes, progress=None):
        """The DAG of optimal play from a position, as flat lists (None if over max_nodes).

        The position's arguments are those of :meth:`value`. Nodes, in order of
        discovery (breadth-first; node 0 is the root): ``held`` (every card still held,
        52-card form), ``trick`` (the set of cards of the unfinished trick), ``lead``,
        ``h``, ``value`` (the bidder's exact points from here), ``rem`` (points left),
        ``depth``, ``critical`` and ``mstart`` (node i's legal cards are
        ``mcard[mstart[i]:mstart[i + 1]]``, ascending, with the mover's side's points
        ``mvalue``; none for a finished position). Edges: ``u``, ``v`` (node indices),
        ``card``, ``value`` (the mover's side's points), ``loss``, ``won`` (trick winner
        or -1), ``points`` (of the trick completed) and ``cls`` (the set of the card's
        equivalent cards; None unless ``per_class``). See _tree.h.

        ``progress``, if given, is called with the number of positions found so far
        every 64 positions expanded, and when the build stops. The build stops like any
        search: Ctrl-C, :meth:`stop` or the time limit (KeyboardInterrupt, TimeoutError).
        """
        cdef cb_args a
        cdef cb_tree *t = NULL
        cdef cb_ctx *ctx = self.ctx
        cdef int r, i
        cdef int limit = _cint(max_nodes, "max_nodes", 0, 2**31 - 1, "0..2**31-1")
        cdef bint pc = bool(per_class)
        self._position(n, hands, trump, bidder, leader, h, order, trick, &a)
        cdef int g = _cint(guess, "guess", -(2**31), 2**31 - 1, "an int")
        cdef bint hooked
        try:
            hooked = _stop_begin(&ctx.stop)
            with nogil:
                r = cb_tree_start(ctx, a.n, a.hands, a.trump, a.bidder, a.leader, a.h,
                                  a.order, a.trick, a.k, g, pc, limit, &t)
            _stop_end(&ctx.stop, hooked)
            while r >= 0:
                hooked = _stop_begin(&ctx.stop)
                with nogil:
                    r = cb_tree_run(ctx, t, 64)
                try:
                    if progress is not None and r != 0:  # stopped too: the count so far
                        progress(t.nn)
                finally:
                    _stop_end(&ctx.stop, hooked)
                if r != 1:
                    break
            if r == -1:
                return None
            if r < 0:
                raise MemoryError("cannot allocate the optimal tree")
            nn, nm, ne = t.nn, t.nm, t.ne
            return {
                "held": [cb_to_external(ctx, t.held[i]) for i in range(nn)],
                "trick": [cb_to_external(ctx, t.tcards[i]) for i in range(nn)],
                "lead": [t.lead[i] for i in range(nn)],
                "h": [t.hk[i] for i in range(nn)],
                "value": [t.value[i] for i in range(nn)],
                "rem": [t.rem[i] for i in range(nn)],
                "depth": [t.depth[i] for i in range(nn)],
                "critical": [t.crit[i] for i in range(nn)],
                "mstart": [t.mstart[i] for i in range(nn + 1)],
                "mcard": [t.mcard[i] for i in range(nm)],
                "mvalue": [t.mvalue[i] for i in range(nm)],
                "u": [t.eu[i] for i in range(ne)],
                "v": [t.ev[i] for i in range(ne)],
                "card": [t.ecard[i] for i in range(ne)],
                "evalue": [t.evalue[i] for i in range(ne)],
                "loss": [t.eloss[i] for i in range(ne)],
                "won": [t.ewon[i] for i in range(ne)],
                "points": [t.epts[i] for i in range(ne)],
                "cls": [t.eclass[i] for i in range(ne)] if pc else None,
            }
        finally:
            cb_tree_free(t)
