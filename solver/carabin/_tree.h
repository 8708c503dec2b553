/* Carabin: every line of double-dummy optimal play from a position, as a DAG.
 *
 * The graph analysis.trees._build makes move by move (which stays the reference),
 * enumerated here in one pass, as kj_tree_build does for Klabberjass. Nodes are merged
 * by position: within one deal the owner (seat and kind of hand) of every card is
 * fixed, so the cards still held, the cards of the unfinished trick, its leader and its
 * kind of hand determine the position. Nodes are numbered breadth-first in order of
 * discovery. At each node every legal card gets the bidder's exact points: the node's
 * own value is known (from its parent, or solved at the root), so each child's value
 * is bounded on one side (above if the bidder moves, below if a partner of the
 * coalition does) and its zero-window probes start at that bound, where an optimal
 * card is settled by one probe. The node's legal cards are split into classes of
 * equivalent cards as solver.protocol.Game.equivalence_classes does (one suit, equal
 * points, no card of another seat, of either kind of hand, or of the trick between
 * them), suits S H D C, strongest card first; every card of each optimal class (only
 * its weakest with per_class) is followed. Output is in the 52-card external form.
 *
 * It uses the core only through cb_load, cb_exact_node, cb_node_search and the rule
 * helpers (cb_beats, cb_card_pts, cb_points, cb_next_hand, the card conversions),
 * setting the search state (c->hands, c->world) to each node's hands before searching
 * its children. The build runs in slices (cb_tree_run) so that the binding can report
 * progress between them; each slice loads the root again, so the core may serve other
 * searches in between.
 */
#ifndef CB_TREE_H
#define CB_TREE_H

#include "_core.h"

typedef struct {
    /* the root, as cb_load takes it */
    int n, trump, bidder, leader, h, order, k;
    uint64_t xhands[2 * CB_MAXP];
    int xtrick[CB_MAXP];
    uint64_t root[2][CB_MAXP];    /* internal hands of the root */
    int per_class, max_nodes;
    int next;                     /* the next node to expand */
    int nn, ncap;                 /* nodes */
    uint64_t *held, *tcards;      /* internal: cards still held; cards of the trick */
    int8_t *lead, *hk;            /* leader and kind of hand of the trick */
    int8_t *wseat, *wcard;        /* winner of the trick so far (-1 at a boundary) */
    int16_t *tpts;                /* points of the trick so far */
    int16_t *value, *rem, *depth; /* bidder's exact points from here; points left; cards played */
    int8_t *crit;                 /* 1 = critical: several classes, one optimal */
    int *mstart;                  /* first move of each node (mstart[nn] = nm when done) */
    int nm, mcap;                 /* moves: every legal card of every expanded node */
    int8_t *mcard;                /* external card, ascending within a node */
    int16_t *mvalue;              /* the mover's side's points from here with it */
    int ne, ecap;                 /* edges */
    int *eu, *ev;
    int8_t *ecard, *ewon;         /* external card; trick winner or -1 */
    int16_t *evalue, *eloss, *epts;
    uint64_t *eclass;             /* external mask of the card's class */
    int hcap;                     /* open-addressing map position -> node index, -1 = empty */
    int *hidx;
} cb_tree;

static void cb_tree_free(cb_tree *t)
{
    if (!t) return;
    free(t->held); free(t->tcards); free(t->lead); free(t->hk); free(t->wseat); free(t->wcard);
    free(t->tpts); free(t->value); free(t->rem); free(t->depth); free(t->crit); free(t->mstart);
    free(t->mcard); free(t->mvalue);
    free(t->eu); free(t->ev); free(t->ecard); free(t->ewon); free(t->evalue); free(t->eloss);
    free(t->epts); free(t->eclass);
    free(t->hidx);
    free(t);
}

#define CB_GROW(p, n) do { void *q_ = realloc((p), (size_t)(n) * sizeof(*(p))); if (!q_) return -1; (p) = q_; } while (0)

static int cb_tree_grow_nodes(cb_tree *t)
{
    int n = t->ncap ? 2 * t->ncap : 1024;
    CB_GROW(t->held, n); CB_GROW(t->tcards, n); CB_GROW(t->lead, n); CB_GROW(t->hk, n);
    CB_GROW(t->wseat, n); CB_GROW(t->wcard, n); CB_GROW(t->tpts, n);
    CB_GROW(t->value, n); CB_GROW(t->rem, n); CB_GROW(t->depth, n); CB_GROW(t->crit, n);
    CB_GROW(t->mstart, n + 1);
    t->ncap = n;
    return 0;
}

static int cb_tree_grow_moves(cb_tree *t)
{
    int n = t->mcap ? 2 * t->mcap : 4096;
    CB_GROW(t->mcard, n); CB_GROW(t->mvalue, n);
    t->mcap = n;
    return 0;
}

static int cb_tree_grow_edges(cb_tree *t)
{
    int n = t->ecap ? 2 * t->ecap : 2048;
    CB_GROW(t->eu, n); CB_GROW(t->ev, n); CB_GROW(t->ecard, n); CB_GROW(t->ewon, n);
    CB_GROW(t->evalue, n); CB_GROW(t->eloss, n); CB_GROW(t->epts, n); CB_GROW(t->eclass, n);
    t->ecap = n;
    return 0;
}

static inline uint32_t cb_tree_hash(uint64_t held, uint64_t tcards, int leader, int h)
{
    uint64_t k = held ^ (tcards * 0x9E3779B97F4A7C15ull) ^ ((uint64_t)(leader | h << 3) << 58);
    return (uint32_t)(tl_hash(k) >> 32);
}

static int cb_tree_rehash(cb_tree *t)
{
    int n = t->hcap ? 2 * t->hcap : 4096;
    int *m = (int *)malloc((size_t)n * sizeof(int));
    if (!m) return -1;
    memset(m, 0xFF, (size_t)n * sizeof(int));
    for (int i = 0; i < t->nn; i++) {
        uint32_t j = cb_tree_hash(t->held[i], t->tcards[i], t->lead[i], t->hk[i]) & (uint32_t)(n - 1);
        while (m[j] >= 0) j = (j + 1) & (uint32_t)(n - 1);
        m[j] = i;
    }
    free(t->hidx);
    t->hidx = m;
    t->hcap = n;
    return 0;
}

/* internal mask -> 52-card mask */
static uint64_t cb_tree_to_external(const cb_ctx *c, uint64_t m)
{
    uint64_t out = 0;
    for (; m; m &= m - 1) out |= 1ull << cb_card_to_external(c, cb_ctz(m));
    return out;
}

/* The cards still held in c's search state. */
static inline uint64_t cb_tree_held(const cb_ctx *c) { return c->world[0] | c->world[1]; }

/* The index of the node (the position of c's search state and the trick of `nd`),
 * added with its bidder value and depth if new; -1 on no memory. */
static int cb_tree_node(const cb_ctx *c, cb_tree *t, const cb_node *nd, int value, int depth)
{
    if (2 * (t->nn + 1) > t->hcap && cb_tree_rehash(t)) return -1;
    uint64_t held = cb_tree_held(c);
    const cb_trick_state *s = &nd->t;
    uint32_t mask = (uint32_t)(t->hcap - 1);
    uint32_t j = cb_tree_hash(held, s->tcards, s->leader, s->h) & mask;
    for (;; j = (j + 1) & mask) {
        int i = t->hidx[j];
        if (i < 0) break;
        if (t->held[i] == held && t->tcards[i] == s->tcards && t->lead[i] == s->leader && t->hk[i] == s->h)
            return i;
    }
    if (t->nn == t->ncap && cb_tree_grow_nodes(t)) return -1;
    int i = t->nn++;
    t->hidx[j] = i;
    t->held[i] = held;
    t->tcards[i] = s->tcards;
    t->lead[i] = (int8_t)s->leader;
    t->hk[i] = (int8_t)s->h;
    t->wseat[i] = (int8_t)s->wseat;
    t->wcard[i] = (int8_t)s->wcard;
    t->tpts[i] = (int16_t)s->tpts;
    t->value[i] = (int16_t)value;
    t->rem[i] = (int16_t)(s->tpts + cb_points(c, held));
    t->depth[i] = (int16_t)depth;
    t->crit[i] = 0;
    return i;
}

/* Set c's search state to node i's hands; its trick into *nd. */
static void cb_tree_enter(cb_ctx *c, const cb_tree *t, int i, cb_node *nd)
{
    uint64_t held = t->held[i];
    c->world[0] = c->world[1] = 0;
    for (int kind = 0; kind < 2; kind++)
        for (int s = 0; s < t->n; s++) {
            c->hands[kind][s] = t->root[kind][s] & held;
            c->world[kind] |= c->hands[kind][s];
        }
    cb_trick_state *s = &nd->t;
    s->leader = t->lead[i];
    s->h = t->hk[i];
    s->i = tl_popc64(t->tcards[i]);
    s->wseat = t->wseat[i];
    s->wcard = t->wcard[i];
    s->tcards = t->tcards[i];
    s->tpts = t->tpts[i];
}

/* The node after `seat` plays x from `nd` (c's hands already without x): a trick that
 * is complete becomes the next trick's boundary. *won and *pts: the seat that won the
 * trick the card completes and its points (-1 and 0 if none). */
static cb_node cb_tree_after(const cb_ctx *c, const cb_node *nd, int seat, int x, int *won, int *pts)
{
    const cb_trick_state *t = &nd->t;
    cb_node ch = *nd;
    int wins = t->i == 0 || cb_beats(c, x, t->wcard);
    ch.t.i = t->i + 1;
    ch.t.wseat = wins ? seat : t->wseat;
    ch.t.wcard = wins ? x : t->wcard;
    ch.t.tcards = t->tcards | 1ull << x;
    ch.t.tpts = t->tpts + cb_card_pts(c, x);
    *won = -1;
    *pts = 0;
    if (ch.t.i == c->n) {
        *won = ch.t.wseat;
        *pts = ch.t.tpts;
        ch.t.leader = ch.t.wseat;
        ch.t.h = cb_next_hand(c, t->h);
        ch.t.i = 0;
        ch.t.wseat = ch.t.wcard = -1;
        ch.t.tcards = 0;
        ch.t.tpts = 0;
    }
    return ch;
}

/* The bidder's exact points from `nd` (c's search state), known to lie in [lo, hi]:
 * zero-window probes as cb_exact_node's, the first at `first`; -1 if stopped. */
static int cb_tree_exact(cb_ctx *c, const cb_node *nd, int lo, int hi, int first)
{
    int g = first;
    while (lo < hi) {
        if (g <= lo) g = lo + 1;
        if (g > hi) g = hi;
        int v = cb_node_search(c, nd, g - 1, g);
        if (c->stop.stopped) return -1;
        /* fail-soft: the value is at least v (v >= g), or at most v */
        if (v >= g) lo = v < hi ? v : hi;
        else hi = v > lo ? v : lo;
        g = v >= g ? lo + 1 + (hi - lo - 1) / 4 : hi - (hi - lo - 1) / 4;
    }
    return lo;
}

/* Start the tree of a position checked by cb_check (arguments as for cb_load) into
 * *out (allocated here; free it with cb_tree_free): the root and its exact value.
 * 0, or -2 when stopped, -3 when out of memory. */
static int cb_tree_start(cb_ctx *c, int n, const uint64_t *hands, int trump, int bidder, int leader,
                         int h, int order, const int *trick, int k, int guess, int per_class,
                         int max_nodes, cb_tree **out)
{
    cb_tree *t = (cb_tree *)calloc(1, sizeof(cb_tree));
    *out = t;
    if (!t) return -3;
    t->n = n; t->trump = trump; t->bidder = bidder; t->leader = leader; t->h = h;
    t->order = order; t->k = k;
    for (int i = 0; i < 2 * n; i++) t->xhands[i] = hands[i];
    for (int j = 0; j < k; j++) t->xtrick[j] = trick[j];
    t->per_class = per_class;
    t->max_nodes = max_nodes;
    cb_node root;
    cb_load(c, n, hands, trump, bidder, leader, h, order, trick, k, &root);
    for (int kind = 0; kind < 2; kind++)
        for (int s = 0; s < n; s++) t->root[kind][s] = c->hands[kind][s];
    int v0 = 0;
    if (cb_tree_held(c) || root.t.i) {
        v0 = cb_exact_node(c, &root, guess);
        if (v0 < 0) return -2;
    }
    if (cb_tree_node(c, t, &root, v0, 0) < 0) return -3;
    return 0;
}

/* Expand node i; 0, -1 when the tree would exceed max_nodes, -2 when stopped, -3 when
 * out of memory. */
static int cb_tree_expand(cb_ctx *c, cb_tree *t, int i)
{
    cb_node nd;
    cb_tree_enter(c, t, i, &nd);
    t->mstart[i] = t->nm;
    if (!cb_tree_held(c) && nd.t.i == 0) return 0; /* play is over */
    int n = t->n, b = t->bidder, h = nd.t.h;
    int seat = (nd.t.leader + nd.t.i) % n, bidder_moves = seat == b;
    int v = t->value[i], rem = t->rem[i], depth = t->depth[i];
    uint64_t legal = c->hands[h][seat];
    int mval[64], best = -CB_INF;
    int negext[CB_MAX_HAND], val[CB_MAX_HAND], m = 0;
    for (uint64_t ms = legal; ms; ms &= ms - 1) {
        int x = cb_ctz(ms), won, pts;
        uint64_t bit = 1ull << x;
        c->hands[h][seat] &= ~bit;
        c->world[h] &= ~bit;
        cb_node ch = cb_tree_after(c, &nd, seat, x, &won, &pts);
        int gain = won == b ? pts : 0, bound = v - gain, total = cb_node_total(c, &ch), cv;
        if (bidder_moves) cv = cb_tree_exact(c, &ch, 0, bound < total ? bound : total, bound);
        else cv = cb_tree_exact(c, &ch, bound > 0 ? bound : 0, total, bound + 1);
        c->hands[h][seat] |= bit;
        c->world[h] |= bit;
        if (cv < 0) return -2;
        mval[x] = bidder_moves ? gain + cv : rem - gain - cv;
        if (mval[x] > best) best = mval[x];
        /* ascending external card: the key is minus the card */
        m = tl_insert(val, negext, m, mval[x], -cb_card_to_external(c, x));
    }
    while (t->nm + m > t->mcap) if (cb_tree_grow_moves(t)) return -3;
    for (int j = 0; j < m; j++) {
        t->mcard[t->nm] = (int8_t)-negext[j];
        t->mvalue[t->nm++] = (int16_t)val[j];
    }
    /* classes of equivalent cards, in order: suit, then strongest card first */
    uint64_t others = nd.t.tcards;
    for (int s = 0; s < n; s++)
        if (s != seat) others |= c->hands[0][s] | c->hands[1][s];
    uint64_t classes[CB_MAX_HAND];
    int ncls = 0, nopt = 0, last = -1;
    for (int s = 0; s < 4; s++) {
        uint64_t cur = 0;
        for (int p = 15; p >= 0; p--) {
            int x = 16 * s + p;
            if ((others >> x) & 1) {
                if (cur) { classes[ncls++] = cur; cur = 0; }
            } else if ((legal >> x) & 1) {
                if (cur && cb_card_pts(c, last) != cb_card_pts(c, x)) { classes[ncls++] = cur; cur = 0; }
                cur |= 1ull << x;
                last = x;
            }
        }
        if (cur) classes[ncls++] = cur;
    }
    for (int q = 0; q < ncls; q++)
        if (mval[cb_top(classes[q])] == best) nopt++;
    t->crit[i] = (int8_t)(ncls > 1 && nopt == 1);
    for (int q = 0; q < ncls; q++) {
        uint64_t cls = classes[q];
        if (mval[cb_top(cls)] != best) continue;
        uint64_t ecls = 0;
        for (uint64_t ms = cls; ms; ms &= ms - 1) ecls |= 1ull << cb_card_to_external(c, cb_ctz(ms));
        /* strongest first; per_class keeps only the weakest card */
        for (uint64_t ms = t->per_class ? (cls & -cls) : cls; ms;) {
            int x = cb_top(ms), won, pts;
            uint64_t bit = 1ull << x;
            ms &= ~bit;
            c->hands[h][seat] &= ~bit;
            c->world[h] &= ~bit;
            cb_node ch = cb_tree_after(c, &nd, seat, x, &won, &pts);
            int before = t->nn;
            int ci = cb_tree_node(c, t, &ch, v - (won == b ? pts : 0), depth + 1);
            c->hands[h][seat] |= bit;
            c->world[h] |= bit;
            if (ci < 0) return -3;
            if (t->nn > before && t->nn > t->max_nodes) return -1;
            if (t->ne == t->ecap && cb_tree_grow_edges(t)) return -3;
            int ei = t->ne++;
            t->eu[ei] = i;
            t->ev[ei] = ci;
            t->ecard[ei] = (int8_t)cb_card_to_external(c, x);
            t->evalue[ei] = (int16_t)mval[x];
            t->eloss[ei] = (int16_t)(best - mval[x]);
            t->ewon[ei] = (int8_t)won;
            t->epts[ei] = (int16_t)pts;
            t->eclass[ei] = ecls;
        }
    }
    return 0;
}

/* Expand up to `budget` more nodes of the tree. 1 if nodes are left to expand, 0 when
 * the tree is complete, -1 when it would exceed max_nodes, -2 when stopped, -3 when
 * out of memory. */
static int cb_tree_run(cb_ctx *c, cb_tree *t, int budget)
{
    cb_node root;
    cb_load(c, t->n, t->xhands, t->trump, t->bidder, t->leader, t->h, t->order, t->xtrick, t->k, &root);
    for (; t->next < t->nn && budget > 0; t->next++, budget--) {
        if (tl_stop_poll(&c->stop)) return -2;
        int r = cb_tree_expand(c, t, t->next);
        if (r) return r;
    }
    if (t->next < t->nn) return 1;
    t->mstart[t->nn] = t->nm;
    return 0;
}

#endif
