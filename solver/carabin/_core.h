/* Carabin double-dummy search core.
 *
 * Ints in, ints out. Cards arrive in the 52-card form of solver.cards (bit suit*16 +
 * rank, rank 0 = '2', 12 = 'A') and are searched in an internal form, bit suit*16 +
 * trick power; every hand is a 64-bit mask. The card rules (power and points by rank)
 * are not written here: the binding hands over the tables of solver/carabin/rules.py
 * (cb_set_rules), checked. Seats 0..n-1, each with a left
 * (kind 0) and a right (kind 1) hand; a trick is played from one kind of hand only, so
 * the "world" of a card (the live cards it can ever meet in a trick) is the union of the
 * hands of its kind. The bidder maximises his points, every other seat minimises them.
 *
 * What keeps the search small:
 *  - equivalent and dominated cards: cards of one hand and suit with no live card of
 *    their world (nor the card winning the unfinished trick) between them form a run;
 *    swapping two of them changes no trick's winner, so cards of equal points are
 *    interchangeable, and when the points of this trick surely go to the mover's side
 *    (the other side) the top (bottom) card of the run is at least as good as any other
 *    (cb_moves_of); cards out of play or played, the trick's other cards included,
 *    count as gone;
 *  - a transposition table at trick boundaries with lower and upper bounds and the best
 *    lead. Within one deal the owner of every card never changes, so the set of cards
 *    still held, the leader and the kind of hand determine the position exactly: that is
 *    the key (with trump, bidder, trick order and search mode in the spare bits of the
 *    mask). Each entry carries the generation of the deal it belongs to; a position
 *    whose hands are not subsets of the current deal's starts a new generation, so
 *    entries stay valid across the probes of one solve and across the solves of one
 *    deal (per-move values, other probes; an entry of another trump, bidder or trick
 *    order, which no search of this contract can find, is replaced first: CB_STALE);
 *    a boundary about to be searched is also looked up by its canonical cards
 *    (cb_canon), so that positions differing only in cards played share what the table
 *    knows;
 *  - bounds from the points still in play, sharpened by sure points: a coalition trump
 *    above the bidder's highest trump of its world wins whenever it is played (its
 *    points, and the cheapest cards the bidder can give to those tricks, can never be
 *    his), and a bidder's trump above every coalition trump of its world always wins
 *    for him (with the cheapest cards every other seat can give to it); inside a trick
 *    the other world's sure points still hold;
 *  - a lower bound from the two single-world games (see cb_world_value): the left and
 *    the right world never meet in a trick, so the bidder's points from each world
 *    are at least those of a game of that world alone in which the coalition chooses
 *    who leads each later trick; their exact values are tabled apart, by the cards
 *    and again by the game's shape (cb_world_shape: ranks relative to the world's
 *    cards, suits other than trumps alike), so that games left the same by other
 *    cards played share a value. It is used once a search has grown (cb_ctx.wafter
 *    nodes) at boundaries of at most wmax cards a hand of each kind (larger
 *    single-world games cost more than they save); where it does not settle a
 *    boundary, the trick led from it is played out for real and the bound taken at
 *    every boundary it reaches (cb_look_ahead), which often does; that look-ahead
 *    depends on the other world only through its values by leader, so its bounds are
 *    tabled under those and shared by boundaries whose other worlds differ; from 5
 *    players, where three cards a hand of the world to play are left and two or three
 *    of the other, a look-ahead two tricks deep follows where that one falls short
 *    (cb_deep);
 *  - an upper bound from the same games with the bidder choosing every later leader
 *    (cb_world_upper), from 5 players on, and with fewer where no hand holds more than
 *    two cards of either kind;
 *  - a second lower bound from single-world games that keep one coupling of the two
 *    worlds (see cb_world_var): the coalition cannot make the bidder lead a trick after
 *    it took the one before in that world unless he takes the other world's trick in
 *    between, which he need not do where he can duck it;
 *  - the last tricks evaluated directly once every hand holds at most one card of
 *    each kind (the play is forced); cut-offs inside a trick once its winner is
 *    settled; for the last card of a trick, a look-up of every resulting boundary
 *    before searching any (enhanced transposition cut-off);
 *  - move ordering by what the card does to the trick (a sure win, a cheap win, a
 *    discard), the table's best lead first;
 *  - exact values by zero-window probes whose fail-soft results narrow the interval.
 * The chelem (all tricks) search is a boolean search that stops at the first lost trick.
 */
#ifndef CB_CORE_H
#define CB_CORE_H

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__unix__) || defined(__APPLE__)
#include <sched.h>
#endif

#include "bits.h"
#include "order.h"
#include "stop.h"
#include "tt.h"

#define CB_MAXP 6
#define CB_INF 1000
#define CB_SUIT(c) (0x1FFFull << ((c) & ~15))
/* Limits of the core: cards a hand (move lists are arrays of this size); card points
 * below 1 << CB_PLANES, and the points of the pack within the table's int8 bounds. */
#define CB_MAX_HAND 4
#define CB_PLANES 3
#define CB_MAX_PACK_POINTS 127

typedef struct {
    uint64_t key;
    uint32_t tag;   /* the generation (deal) it belongs to; 0 = empty */
    int8_t lo, hi;  /* bounds on the bidder's points from this trick boundary */
    uint8_t best;   /* best lead + 1; 0 = none */
    uint8_t ncards; /* cards still held, for replacement */
} cb_entry;

/* An exact value of a single-world game (see cb_world_value). */
typedef struct {
    uint64_t key;
    uint32_t tag; /* generation; 0 = empty */
    int8_t v;
} cb_wentry;

#define CB_WT_BITS 20

/* Bounds on the look-ahead of one trick (see cb_look_ahead): the cards of the world it
 * is played in (w), and in k the leader, the kind of hand, whether the next trick is
 * of the same kind, trump, bidder and the other world's values by leader. */
typedef struct {
    uint64_t w, k;
    uint32_t tag; /* generation; 0 = empty */
    int8_t lo, hi;
} cb_lentry;

#define CB_LT_BITS 17

/* A world's single-world values by leader, as excesses over their least, 7 bits a
 * seat (cb_world_spread). */
typedef struct {
    uint64_t key, spread;
    uint32_t tag; /* generation; 0 = empty */
} cb_pentry;

#define CB_PT_BITS 16

/* An exact value of a single-world game up to what does not change it (cb_world_shape):
 * the key is its shape, three words of 6-bit symbols. */
typedef struct {
    uint64_t k[3];
    uint32_t tag; /* generation; 0 = empty */
    int8_t v;
} cb_sentry;

#define CB_ST_BITS 19

/* A world in which every hand holds two cards, as lanes (cb_lane_world): the points of
 * the trick each lane plays, by leader the winner of that trick (flip 0) and of the
 * forced trick the lane leaves (flip 1), as seats by lane and as masks. */
typedef struct {
    uint64_t key;
    uint32_t tag; /* generation; 0 = empty */
    int8_t points, most; /* the world's points; the most a lane's trick holds */
    uint8_t pts[64];
    uint8_t w3[CB_MAXP][64], w4[CB_MAXP][64]; /* by leader, by lane: the winner */
    uint64_t win3[CB_MAXP][CB_MAXP];          /* by leader, by seat: the lanes he takes */
    uint64_t b4[CB_MAXP]; /* by leader: the lanes in which the bidder takes the forced trick */
    uint64_t ge[CB_MAXP * ((1 << CB_PLANES) - 1) + 1]; /* the lanes whose trick holds at
                                                        * least k points (a card at most 7) */
} cb_lworld;

#define CB_LW_BITS 12
#define CB_WORLD_CARDS 3
/* The nodes a search visits before it uses the single-world bounds, by player count:
 * about what computing the single-world games costs at that size (so a search that
 * turns them on in vain costs at most about twice what it would have). At 6 players
 * 3 M until the look-ahead and shape tables made them cheaper (400 k: the nodes of
 * the slow 6-player deals fell by up to 73%, the others do not reach it). With the games
 * of two cards a hand on lanes, 4 players 50 k -> 20 k (callgrind, seed 77's first 100
 * deals -6.8 % instructions with the driver's table clears, five slow deals -1.6 %) and
 * 5 players 400 k -> 100 k (20 deals of seed 2026: -8.6 %). */
static const uint64_t cb_world_after[CB_MAXP + 1] = {0, 0, 0, 30000, 20000, 100000, 400000};
#define CB_WORLD_AFTER_BY_PLAYERS UINT64_MAX
/* Boundaries of two cards a hand of both kinds (the last four tricks) get the bounds
 * from this many nodes on, by player count (UINT64_MAX: from cb_world_after, as the
 * others): there the single-world games are solved on lanes and the last four tricks
 * too (cb_last4), both cheap, and a search of a few thousand nodes is mostly spent
 * reaching them. At 4 players from the first node: callgrind, inside the searches, 200
 * deals of seed 3001 one by one, median 9.56 M -> 4.16 M instructions, total 4.20 G ->
 * 4.10 G, largest 258.6 M -> 258.4 M (nodes median 25,834 -> 8,097); at 3, 100 deals of
 * seed 1, 437 M -> 292 M. At 5 it changes nothing (30 deals of seed 2026, median 1.77 M ->
 * 1.73 M, total 4.761 G -> 4.756 G), and 6 was not measured: left as they were. */
static const uint64_t cb_world2_after[CB_MAXP + 1] = {UINT64_MAX, UINT64_MAX, UINT64_MAX, 0, 0,
                                                      UINT64_MAX, UINT64_MAX};
/* The coupled single-world bound (cb_coupled_bound) is used from this many players on.
 * At 3 it settles too few boundaries to pay for its games (core alone, table cleared
 * per search: seed 1, 200 deals, nodes +0.4 %). At 4 it did not pay either while games
 * of two cards a hand were searched (seeds 77, 1, 2026: nodes -2 % to +4 %); solved on
 * lanes (cb_world2) they are cheap, and it does: seed 77, 100 deals, 8.08 G -> 6.59 G
 * instructions (callgrind), the largest search 1.11 M -> 0.46 M nodes; 200 deals of
 * seeds 77 and 1, nodes total 20.8 M -> 15.1 M and 17.4 M -> 13.6 M. */
#define CB_COUPLED_PLAYERS 4
/* The single-world upper bound (cb_world_upper) is used from this many players on, and
 * with fewer where no hand holds more than two cards of either kind (its games are then
 * solved on lanes: 4 players, callgrind, five slow deals -3.3 % instructions, seed 77's
 * first 100 deals -1.7 %; 3 players seed 1 nodes -2.6 %): it settles boundaries of the
 * proofs that the bidder cannot reach a target. At 4 players everywhere it saves too
 * few nodes to pay for its games (core alone, table cleared per search: seeds 77 and
 * 2027, 200 deals, nodes -3 % and -0.6 %, CPU +12-14 %); at 5, seed 2026,
 * 100 deals, nodes 125.6 M -> 116.9 M (the largest search 29.0 M -> 25.3 M); the three
 * slowest 5-player deals of seeds 2026 and 2027, 90.5 M -> 75.0 M; 6 players, seed 2026
 * #19 (value 2, two costly fail-low probes) 367 M -> 284 M. */
#define CB_UPPER_PLAYERS 5
/* The no-lead bound (cb_nolead_bound) is used from this many players on. At 5 (core
 * alone, 32 MB, 200 deals, exact values): seeds 3101, 3102, 3103 95.2 M -> 92.1 M,
 * 111.2 M -> 97.3 M (slowest 12.9 M -> 6.8 M), 78.1 M -> 77.4 M nodes, CPU 5.17, 6.23,
 * 4.38 s -> 4.92, 5.85, 4.45 s; at 4 it costs more than it saves: seeds 1, 77, 3101,
 * 3103 +0.1 % to +0.9 % nodes, CPU +1 % to +3.5 % (seed 3102 -0.4 %, its slowest
 * 966 k -> 866 k). */
#define CB_NOLEAD_BOUND_PLAYERS 5
/* The coupled bound's reverse pair (cb_reverse_pair) is also taken at the first trick's
 * boundary (four cards a hand of both kinds, where no other single-world bound is: their
 * games are of four cards a hand) in a search grown past this many nodes, by player
 * count (UINT64_MAX: never); see cb_boundary. Core alone, 200 deals, exact values: 6
 * players (128 MB), seeds 3101 and 3102, 2,863 M -> 2,569 M and 1,729 M -> 1,737 M nodes
 * (3101 #60 341 M -> 8.4 M; searches of 4-20 M nodes up to 6 M more or less; those over
 * 20 M but #60 within 2 %). All the single-world bounds up to four cards a hand instead
 * (CB_WORLD=4) cost the searches of 0.4-4 M nodes five times their nodes. At 4 and 5
 * players (from 100,000 and 300,000 nodes): seeds 3101, 3102, 3103 at 4 +1.5 %, -2.4 %,
 * +1.2 %, seeds 3101, 3102 at 5 +3.2 %, +2.8 %: off. */
static const uint64_t cb_first_pair_after[CB_MAXP + 1] = {UINT64_MAX, UINT64_MAX, UINT64_MAX,
                                                          UINT64_MAX, UINT64_MAX, UINT64_MAX,
                                                          1000000};
/* The look-ahead two tricks deep (cb_deep) is used from this many players on. At 4 it
 * cut nodes but cost instructions (callgrind, the six slowest of 200 deals of seed 77:
 * nodes -8 %, instructions 1.244 G -> 1.311 G; the first 100 deals 5.076 G -> 5.141 G);
 * at 5, 100 deals of seed 2026, nodes 77.2 M -> 63.8 M, CPU -17 % (two runs, the cores
 * swapped), the slowest 21.8 M -> 15.9 M nodes; at 6, the last row of the deal table
 * of seed 4 498.7 M -> 267.8 M nodes. */
#define CB_DEEP_PLAYERS 5
/* The first card's node budget in a race of the coalition's cards (cb_trick_race). */
#define CB_RACE_BUDGET 100000
/* It is taken at boundaries of three cards a hand in both worlds too. Without the
 * coupled bound at its leaves: at 6 (the core alone, 50 deals each) seed 3003 555 M ->
 * 357 M nodes (its slowest deal 196 M -> 96 M, 14.7 s -> 7.7 s), seeds 2026 and 3001
 * -0.8 % and -2 %, the deal table of seed 3 +1.5 %; at 5, seed 2026's 100 deals -6 %
 * nodes but CPU +8 % and +24 % (two runs, the cores swapped). With it, 6 players, 50
 * deals: seed 2026 771.6 M -> 475.4 M nodes (slowest 213.6 M -> 111.0 M), seed 3001
 * 142.2 M -> 100.3 M (79.5 M -> 36.9 M), seed 3003 356.9 M -> 286.4 M; the last row of
 * the table of seed 3 305.9 M -> 239.2 M; 5 players, 100 deals, seed 2026 63.8 M ->
 * 54.9 M (CPU -19 %, -20 %: two runs on one core), fresh seed 3003 45.1 M -> 35.0 M
 * (CPU -15 %). */

/* The trick of a look-ahead two tricks deep from a boundary of three cards a hand to
 * play and two or three of the other kind, as a graph (cb_deep_shape): its nodes (a seat of the
 * coalition or the bidder to play, the distinct children by reference) and its
 * outcomes (who takes the trick, what the bidder gains, the single-world values of the
 * world's last two tricks by leader), each with one trick that leads to it. */
typedef struct {
    uint8_t max, k;  /* the bidder's node (1) or the coalition's (0); its children */
    uint8_t i, nm;   /* cards of the trick played before it; its moves */
    uint16_t ch[3]; /* CB_DS_LEAF | outcome, or a node */
    uint8_t mvc[3], mvi[3]; /* each move's card and its child (index into ch) */
} cb_dsnode;

typedef struct {
    uint64_t cards; /* the cards of a trick that ends in this outcome */
    int8_t wseat, tpts;
} cb_dsout;

#define CB_DS_LEAF 0x8000
#define CB_DS_AFTER 200000 /* a search uses them once grown past this many nodes */
#define CB_DS_MAXN 1024 /* nodes of one graph at most (else it is not kept) */
#define CB_DS_MAXO 256  /* outcomes of one graph at most */
#define CB_DS_SLOT_BITS 15
#define CB_GUIDE_FROM 3 /* cb_guide from nodes of this many cards of the trick played */
#define CB_GUIDE_PLAYERS 6 /* ... at this many players (see cb_guide) */
#define CB_DS_NODES (1u << 20) /* the pools (the graphs are dropped when one is full) */
#define CB_DS_OUTS (1u << 20)

/* A boundary's graph in the pools (or that the boundary was met once, or that its
 * graph is too large). */
typedef struct {
    uint64_t key;
    uint32_t tag, epoch; /* generation; the pools' epoch */
    uint32_t node0, out0;
    uint16_t root;
    uint8_t state; /* 1 met once, 2 the graph, 3 too large */
} cb_dsslot;

typedef struct {
    cb_entry *tt;
    uint64_t bucket_mask; /* buckets of 4 entries */
    uint32_t gen;
    int n, trump, bidder, order, mode;
    uint64_t tbits; /* trump << 30 | bidder << 45: their bits in the keys of the tables */
    uint64_t kbits; /* tbits | order << 62: cb_key's */
    uint64_t tmask;
    uint64_t over[64]; /* by card w: the cards that beat w when it wins the trick so far */
    uint64_t hands[2][CB_MAXP];
    uint64_t world[2];
    uint64_t ref[2][CB_MAXP]; /* the hands that define card ownership for this generation */
    int ref_n;
    uint64_t own[2][CB_MAXP]; /* ref in the internal form */
    int8_t owner[64];         /* by internal card: its seat in ref, -1 if none */
    /* The card rules (cb_set_rules): trick power by rank, rank by power, and in the
     * internal form (bit suit*16 + power) the points of each card, the cards whose
     * points have bit b set (plane[b]), the cards worth nothing, and the cards of each
     * other point value, ascending. */
    int8_t rule_pow[16];
    uint8_t rule_rank[16];
    int8_t pts[64];
    uint64_t plane[CB_PLANES];
    uint64_t zero;
    uint64_t pmask[1 << CB_PLANES]; /* the cards worth each number of points */
    int nclass;
    uint64_t class_mask[16];
    int class_pts[16];
    uint64_t nodes;
    uint64_t stores;      /* stores into the table so far (see cb_lookup) */
    uint64_t budget;      /* a search stops once c->nodes reaches it (cb_exact_node) */
    tl_stop stop;         /* Ctrl-C, Core.stop() or a time limit: see stop.h */
    int lo, hi;           /* the bounds the last exact search proved (when stopped) */
    uint64_t sure_world[2]; /* cb_sure_kept: the cards of each kind its sure points are for */
    int sure_c[2], sure_b[2];
    cb_wentry *wt;        /* exact values of single-world games (cb_world_value) */
    uint64_t wt_mask;
    cb_lentry *lt;        /* bounds on one-trick look-aheads (cb_look_ahead) */
    uint64_t lt_mask;
    cb_sentry *st;        /* single-world values by shape (cb_world_shape) */
    uint64_t st_mask;
    cb_pentry *pt;        /* single-world values by leader (cb_world_spread) */
    uint64_t pt_mask;
    /* The single-world bounds are used at trick boundaries where no hand holds more
     * than wmax cards of either kind, once a search (from cb_load) has visited wafter
     * nodes (before that they would cost cheap searches more than they save). Their
     * table is not cleared with the main one: its entries are tagged with the
     * generation. */
    int wmax;
    uint64_t wafter, wstart;
    uint64_t fstart; /* the reverse pair at the first trick's boundary from here */
    uint64_t wstart2; /* boundaries of two cards a hand of both kinds get them from here
                       * (cb_world2_after) */
    int wvar; /* the variant of the single-world games being searched (CB_PLAIN ...) */
    int nolead; /* the no-lead bound (cb_nolead_bound) */
    int reverse; /* the coupled bound's reverse pair (cb_coupled_bound) */
    int lanes; /* games of two cards a hand solved on lanes (cb_world2, cb_last4) */
    cb_lworld *lw; /* worlds of two cards a hand as lanes (cb_lane_world) */
    int canon; /* boundaries also looked up by their canonical cards (cb_canon) */
    int deep;  /* the look-ahead two tricks deep where one falls short (cb_deep) */
    uint64_t race; /* the first budget of the races of the coalition's cards in the
                    * search's first trick (cb_trick_race); 0: no races */
    int race_above; /* ... at nodes of more cards than this (held, and in the trick) */
    int lead_race;  /* the coalition's leads of the search's second and third tricks
                     * raced too, with equal budgets (cb_boundary); needs race */
    /* Two searches of one position on two cores with one table (cb_share, cb_help): a
     * sequence lock a bucket while the table is shared (NULL: it is not); in a helper,
     * the table is the main context's (its own kept in own_tt until cb_help ends), and its
     * coalition tries its cards in the reverse order in the tricks of more cards than
     * rev_above, so that the two searches start on different parts of a proof. */
    uint32_t *seq;
    cb_entry *own_tt;
    uint64_t own_mask;
    int helper, rev_above;
    /* The graphs of the tricks of look-aheads two tricks deep (cb_deep_shape): by
     * boundary, in two pools; the one being made; per look-ahead, the values of its
     * nodes and outcomes found so far (stamped with the look-ahead's count). */
    int dshape;
    uint64_t dafter, dstart; /* graphs in a search grown past dafter nodes: from dstart */
    cb_dsslot *ds;
    cb_dsnode *dsn;
    cb_dsout *dso;
    uint32_t ds_nused, ds_oused, ds_epoch, ds_call;
    int ds_nn, ds_no;
    cb_dsnode ds_tn[CB_DS_MAXN];
    cb_dsout ds_to[CB_DS_MAXO];
    uint64_t ds_okey[CB_DS_MAXO], ds_okey2[CB_DS_MAXO];
    uint16_t ds_nhash[2 * CB_DS_MAXN], ds_ohash[2 * CB_DS_MAXO]; /* id + 1; 0 empty */
    uint32_t ds_nstamp[CB_DS_MAXN], ds_ostamp[CB_DS_MAXO];
    int8_t ds_nval[CB_DS_MAXN], ds_oval[CB_DS_MAXO];
    uint64_t ds_path; /* cb_guide: the cards of the trick searched so far (back in the
                       * hands while its graph's outcomes are valued) */
    int guide;        /* cb_guide from this many cards of a trick (0: off) */
    int deep_vn[CB_MAXP]; /* in cb_deep: the other kind's single-world values by leader,
                           * -1 until asked (its cards do not change in that trick) */
} cb_ctx;

#define cb_ctz tl_ctz64
#define cb_popc tl_popc64
#define cb_top tl_top64

static inline int cb_points(const cb_ctx *c, uint64_t m)
{
    return cb_popc(m & c->plane[0]) + 2 * cb_popc(m & c->plane[1]) + 4 * cb_popc(m & c->plane[2]);
}

static inline int cb_card_pts(const cb_ctx *c, int x) { return c->pts[x]; }

/* The cards of the suit of card x strictly above it and strictly below it, as tables
 * (one look-up instead of a few shifts; x = 0..63, every bit a card or not). */
#define CB_ABOVE(x) (CB_SUIT(x) & ~((2ull << (x)) - 1))
#define CB_BELOW(x) (CB_SUIT(x) & ((1ull << (x)) - 1))
#define CB_ROW4(F, x) F(x), F((x) + 1), F((x) + 2), F((x) + 3)
#define CB_ROW16(F, x) CB_ROW4(F, x), CB_ROW4(F, (x) + 4), CB_ROW4(F, (x) + 8), CB_ROW4(F, (x) + 12)
#define CB_ROW64(F) CB_ROW16(F, 0), CB_ROW16(F, 16), CB_ROW16(F, 32), CB_ROW16(F, 48)
static const uint64_t cb_above_tab[64] = {CB_ROW64(CB_ABOVE)};
static const uint64_t cb_below_tab[64] = {CB_ROW64(CB_BELOW)};
#undef CB_ROW64
#undef CB_ROW16
#undef CB_ROW4

/* cards of the suit of c strictly above c */
static inline uint64_t cb_above(int c) { return cb_above_tab[c]; }
/* cards of the suit of c strictly below c */
static inline uint64_t cb_below(int c) { return cb_below_tab[c]; }

static size_t cb_tt_bytes(const cb_ctx *c) { return (c->bucket_mask + 1) * TL_WAYS * sizeof(cb_entry); }
/* The sizes of the tables besides the main one (tl_table_alloc). */
#define CB_WT_BYTES (((size_t)1 << CB_WT_BITS) * sizeof(cb_wentry))
#define CB_LW_BYTES (((size_t)1 << CB_LW_BITS) * sizeof(cb_lworld))
#define CB_LT_BYTES (((size_t)1 << CB_LT_BITS) * sizeof(cb_lentry))
#define CB_ST_BYTES (((size_t)1 << CB_ST_BITS) * sizeof(cb_sentry))
#define CB_PT_BYTES (((size_t)1 << CB_PT_BITS) * sizeof(cb_pentry))

static void cb_free(cb_ctx *c);

static cb_ctx *cb_new(size_t megabytes)
{
    cb_ctx *c = (cb_ctx *)calloc(1, sizeof(cb_ctx));
    if (!c) return NULL;
    size_t buckets = tl_pow2_floor((megabytes << 20) / (TL_WAYS * sizeof(cb_entry)));
    c->tt = (cb_entry *)tl_table_alloc(buckets * TL_WAYS * sizeof(cb_entry), 0); /* cb_clear'd */
    if (!c->tt) { free(c); return NULL; }
    c->bucket_mask = buckets - 1;
    c->wt = (cb_wentry *)tl_table_alloc(CB_WT_BYTES, 1);
    c->lw = (cb_lworld *)tl_table_alloc(CB_LW_BYTES, 1);
    c->lt = (cb_lentry *)tl_table_alloc(CB_LT_BYTES, 1);
    c->st = (cb_sentry *)tl_table_alloc(CB_ST_BYTES, 1);
    c->pt = (cb_pentry *)tl_table_alloc(CB_PT_BYTES, 1);
    c->ds = (cb_dsslot *)calloc((size_t)1 << CB_DS_SLOT_BITS, sizeof(cb_dsslot));
    c->dsn = (cb_dsnode *)malloc(CB_DS_NODES * sizeof(cb_dsnode));
    c->dso = (cb_dsout *)malloc(CB_DS_OUTS * sizeof(cb_dsout));
    if (!c->wt || !c->lt || !c->st || !c->pt || !c->lw || !c->ds || !c->dsn || !c->dso) {
        cb_free(c);
        return NULL;
    }
    c->pt_mask = ((uint64_t)1 << CB_PT_BITS) - 1;
    c->wt_mask = ((uint64_t)1 << CB_WT_BITS) - 1;
    c->lt_mask = ((uint64_t)1 << CB_LT_BITS) - 1;
    c->st_mask = ((uint64_t)1 << CB_ST_BITS) - 1;
    c->wmax = CB_WORLD_CARDS;
    c->wafter = CB_WORLD_AFTER_BY_PLAYERS;
    c->lanes = 1;
    c->canon = 1;
    c->deep = 1;
    c->dshape = 1;
    c->guide = CB_GUIDE_FROM;
    c->dafter = CB_DS_AFTER;
    c->ds_epoch = 1;
    c->race = CB_RACE_BUDGET;
    c->lead_race = 1;
    c->nolead = 1;
    c->reverse = 1;
    c->gen = 1;
    c->budget = UINT64_MAX;
    return c;
}

static void cb_free(cb_ctx *c)
{
    if (!c) return;
    free(c->seq);
    tl_table_free(c->tt, cb_tt_bytes(c));
    tl_table_free(c->wt, CB_WT_BYTES);
    tl_table_free(c->lw, CB_LW_BYTES);
    tl_table_free(c->lt, CB_LT_BYTES);
    tl_table_free(c->st, CB_ST_BYTES);
    tl_table_free(c->pt, CB_PT_BYTES);
    free(c->ds);
    free(c->dsn);
    free(c->dso);
    free(c);
}

/* Empty the tables other than the main one (single-world games, lanes, look-aheads). */
static void cb_clear_side(cb_ctx *c)
{
    memset(c->wt, 0, CB_WT_BYTES);
    memset(c->lw, 0, CB_LW_BYTES);
    memset(c->lt, 0, CB_LT_BYTES);
    memset(c->st, 0, CB_ST_BYTES);
    memset(c->pt, 0, CB_PT_BYTES);
    c->ds_epoch++; /* the graphs: dropped */
    c->ds_nused = c->ds_oused = 0;
}

/* Make room for k new generations: every entry carries the generation it belongs to,
 * so before the counter could wrap round to a generation some entry still carries (or
 * to 0, the empty tag), every table is emptied and the count starts again. */
static void cb_gen_room(cb_ctx *c, uint32_t k)
{
    if (c->gen < UINT32_MAX - k - 1) return;
    memset(c->tt, 0, cb_tt_bytes(c));
    cb_clear_side(c);
    c->gen = 1;
    c->ref_n = 0;
}

/* The next generation: entries of earlier ones are never found again. */
static inline void cb_next_gen(cb_ctx *c)
{
    cb_gen_room(c, 1);
    c->gen++;
}

static void cb_clear(cb_ctx *c)
{
    memset(c->tt, 0, cb_tt_bytes(c));
    cb_next_gen(c);
    c->ref_n = 0;
}

/* A table of `megabytes` MB instead of the context's own (cb_new's size), empty, in a
 * new generation: 0 if done, -1 if out of memory (the table kept as it was), -2 while
 * shared (cb_share) or helping (cb_help). Fresh pages are zero, so nothing is cleared
 * now: a search faults them in as it reaches them. */
static int cb_resize(cb_ctx *c, size_t megabytes)
{
    if (c->seq || c->helper) return -2;
    size_t buckets = tl_pow2_floor((megabytes << 20) / (TL_WAYS * sizeof(cb_entry)));
    cb_entry *tt = (cb_entry *)tl_table_alloc(buckets * TL_WAYS * sizeof(cb_entry), 0);
    if (!tt) return -1;
    tl_table_free(c->tt, cb_tt_bytes(c));
    c->tt = tt;
    c->bucket_mask = buckets - 1;
    cb_next_gen(c);
    c->ref_n = 0;
    return 0;
}

/* Take the card rules: trick power and card points by rank, 16 entries each, indexed by
 * the rank field of a card. The binding has checked them: the powers of ranks 0..12
 * are 0..12 once each (13..15 are no rank), points are 0..(1 << CB_PLANES) - 1, never
 * decrease with power (the pruning of equivalent cards relies on it) and add up to at
 * most CB_MAX_PACK_POINTS over the pack. */
static void cb_set_rules(cb_ctx *c, const int *power, const int *points)
{
    memset(c->pts, 0, sizeof c->pts);
    memset(c->plane, 0, sizeof c->plane);
    c->nclass = 0;
    for (int r = 0; r < 16; r++) {
        c->rule_pow[r] = (int8_t)power[r];
        if (power[r] < 0) continue;
        c->rule_rank[power[r]] = (uint8_t)r;
        for (int s = 0; s < 4; s++) {
            int x = 16 * s + power[r];
            c->pts[x] = (int8_t)points[r];
            for (int b = 0; b < CB_PLANES; b++)
                if ((points[r] >> b) & 1) c->plane[b] |= 1ull << x;
        }
    }
    c->zero = 0;
    for (int v = 0; v < (1 << CB_PLANES); v++) {
        uint64_t m = 0;
        for (int x = 0; x < 64; x++)
            if ((CB_SUIT(x) >> x & 1) && c->pts[x] == v) m |= 1ull << x;
        c->pmask[v] = m;
        if (!v) c->zero = m;
        if (!m || !v) continue;
        c->class_mask[c->nclass] = m;
        c->class_pts[c->nclass++] = v;
    }
    cb_clear(c);
}

/* When the single-world bounds are used (see cb_ctx; `after` CB_WORLD_AFTER_BY_PLAYERS:
 * cb_world_after of the player count); the search's values never depend on it, only
 * its cost. */
static void cb_set_world(cb_ctx *c, int cards, uint64_t after)
{
    c->wmax = cards;
    c->wafter = after;
}

/* Solve the single-world games of two cards a hand on lanes (cb_world2, on: the
 * default) or by the search (off): the values are the same, for the tests to check. */
static void cb_set_lanes(cb_ctx *c, int on)
{
    c->lanes = on;
    cb_next_gen(c); /* their table's entries of either way are not to be mixed up in a test */
}

/* Look boundaries up by their canonical cards too (on: the default; see cb_canon), or
 * by their own cards alone (off): the values are the same, for the tests to check. */
static void cb_set_canon(cb_ctx *c, int on)
{
    c->canon = on;
    cb_next_gen(c);
}

/* Take the look-ahead two tricks deep where one falls short (on: the default; see
 * cb_deep), or not (off): the values are the same, for the tests to check. */
static void cb_set_deep(cb_ctx *c, int on)
{
    c->deep = on;
    cb_next_gen(c);
}

/* The look-aheads two tricks deep from boundaries of three cards a hand to play by
 * their tricks' graphs (1: the default, a boundary's graph made the second time it is
 * met; 2: the first time; see cb_deep_shape) or not (0): the values are the same, for
 * the tests to check. */
static void cb_set_deep_shape(cb_ctx *c, int on)
{
    c->dshape = on;
    cb_next_gen(c);
}

/* Guide the search of a trick by its graph from nodes of at least `from` cards played
 * to it (CB_GUIDE_FROM: the default; see cb_guide), or not (0): the values are the same,
 * for the tests to check. */
static void cb_set_guide(cb_ctx *c, int from)
{
    c->guide = from;
    cb_next_gen(c);
}

/* Race the coalition's cards of the search's first trick from a first budget of
 * `budget` nodes (CB_RACE_BUDGET: the default; see cb_trick_race), or take them in order
 * (0): the values are the same, for the tests to check. */
static void cb_set_race(cb_ctx *c, uint64_t budget)
{
    c->race = budget;
    cb_next_gen(c);
}

/* The no-lead bound at trick boundaries and the deep look-ahead's leaves (1, the
 * default) or not (0): the values are the same, for the tests to check. */
static void cb_set_nolead(cb_ctx *c, int on)
{
    c->nolead = on;
    cb_next_gen(c);
}

/* The coupled bound's reverse pair (1, the default) or not (0): the values are the
 * same, for the tests to check. */
static void cb_set_reverse(cb_ctx *c, int on)
{
    c->reverse = on;
    cb_next_gen(c);
}

/* The race of the coalition's leads of the search's second and third tricks (1, the
 * default, while the first trick's race is on; see cb_boundary) or not (0): the values
 * are the same, for the tests to check. */
static void cb_set_lead_race(cb_ctx *c, int on)
{
    c->lead_race = on;
    cb_next_gen(c);
}

static inline int cb_check_stop(cb_ctx *c)
{
    if (c->nodes >= c->budget) c->stop.stopped = 1;
    return tl_stop_poll(&c->stop);
}

/* ----------------------------------------------------------------- tables */
static inline uint64_t cb_key(const cb_ctx *c, int leader, int h)
{
    uint64_t k = c->world[0] | c->world[1];
    k |= (uint64_t)leader << 13;
    k |= (uint64_t)h << 29 | c->kbits | (uint64_t)c->mode << 61; /* kbits: trump, bidder, order */
    return k;
}

/* The canonical cards of the position: where a card has been played, the live cards
 * of its world on either side of it in its suit may be adjacent in a position reached
 * by another play; what the rest of the play depends on is, for each world and suit,
 * the seats holding its live cards in order of rank and their points (the two worlds
 * never meet in a trick, nothing compares the ranks of different suits but the trump,
 * and every card's points stay its own). Positions alike in that are alike in value.
 * Their canonical form takes for each live card, in order of rank, the lowest card of
 * its suit above the one taken before that the same seat held in the same world when
 * the generation began (cb_set_ref) and that is worth the same points: one set of
 * cards per class of positions, and itself a position of the class (its own canonical
 * form), so canonical keys and plain ones share the table. Looked up only where a
 * boundary is about to be searched, once a search has grown (c->wstart): most
 * boundaries never get there, and computing this costs some 30 card steps. Core alone,
 * answers unchanged: nodes of the slowest 4-player deal of seed 2029 893 k -> 588 k,
 * callgrind on the five slowest 4-player deals of four samples 1.888 G -> 1.519 G
 * instructions, 5-player deal #1 of seed 2030 3.14 G -> 2.69 G, 6-player deal #23 of
 * seed 2026 3.84 G -> 3.19 G. */
static uint64_t cb_canon(const cb_ctx *c)
{
    uint64_t out = 0;
    for (int h = 0; h < 2; h++) {
        uint64_t w = c->world[h];
        while (w) {
            uint64_t suit = CB_SUIT(cb_ctz(w));
            uint64_t live = w & suit, above = suit;
            w &= ~suit;
            while (live) {
                int y = cb_ctz(live);
                live &= live - 1;
                int z = cb_ctz(c->own[h][c->owner[y]] & c->pmask[c->pts[y]] & above);
                out |= 1ull << z;
                above = cb_above(z);
            }
        }
    }
    return out;
}

/* An entry is only valid in the generation it was made in: the tag is the generation.
 * Within one, an entry of another contract (trump, bidder or trick order: the bits of
 * CB_CONTRACT in the key) can never be found by a search of this one, so it too is
 * replaced first. (Before, the rows of a deal table filled the table for the rows after
 * them, entries of many cards being kept on replacement: the last row of the 6-player
 * table of seed 3, 418 M nodes alone, took 1,052 M after the 23 others.) */
#define CB_CONTRACT (3ull << 30 | 7ull << 45 | 1ull << 62)
#define CB_STALE(e, now, key) ((e)->tag != (now) || (((e)->key ^ (key)) & CB_CONTRACT))
#define CB_TOUCH(e, now) ((void)0)
TL_TT_DEFINE(cb_tt, cb_entry, CB_STALE, CB_TOUCH)

static inline cb_entry *cb_bucket(cb_ctx *c, uint64_t key)
{
    return c->tt + TL_WAYS * (tl_hash(key) & c->bucket_mask);
}


/* A shared table (cb_share): each bucket has a sequence number, odd while a store
 * writes it. A store takes it from even to odd (so two stores never write a bucket at
 * once) and back to even, one higher; a look-up copies the bucket and keeps the copy
 * only if the number was even and unchanged across the copy, so it never sees half an
 * entry. */
/* While another thread's store holds a bucket: after a few turns give the core away
 * (with more threads than cores the store's thread may be waiting for it). */
static inline void cb_spin(int *turns)
{
    if (++*turns < 64) return;
    *turns = 0;
#if defined(__unix__) || defined(__APPLE__)
    sched_yield();
#endif
}

static inline uint32_t *cb_seq_of(const cb_ctx *c, const cb_entry *bucket)
{
    return &c->seq[(size_t)(bucket - c->tt) / TL_WAYS];
}

/* The entry of `key` in `bucket`, copied into *out: 1 if there is one. The copy stays
 * true of the position whatever is stored later (bounds on a value only narrow). */
static inline int cb_get(const cb_ctx *c, const cb_entry *bucket, uint64_t key, cb_entry *out)
{
    const cb_entry *e;
    if (!c->seq) {
        e = cb_tt_find((cb_entry *)bucket, key, c->gen);
        if (!e) return 0;
        *out = *e;
        return 1;
    }
    uint32_t *seq = cb_seq_of(c, bucket);
    uint64_t copy[TL_WAYS * sizeof(cb_entry) / 8];
    const uint64_t *words = (const uint64_t *)bucket;
    int turns = 0;
    for (;;) {
        uint32_t s1 = __atomic_load_n(seq, __ATOMIC_ACQUIRE);
        if (s1 & 1) {
            cb_spin(&turns);
            continue;
        }
        for (size_t i = 0; i < sizeof copy / 8; i++) copy[i] = __atomic_load_n(&words[i], __ATOMIC_RELAXED);
        __atomic_thread_fence(__ATOMIC_ACQUIRE);
        if (__atomic_load_n(seq, __ATOMIC_RELAXED) == s1) break;
        cb_spin(&turns);
    }
    e = cb_tt_find((cb_entry *)copy, key, c->gen);
    if (!e) return 0;
    *out = *e;
    return 1;
}

/* Store into the table (cb_tt_put), counted in c->stores. */
static inline void cb_store(cb_ctx *c, cb_entry *bucket, uint64_t key, int ncards, int lo, int hi,
                            int best)
{
    c->stores++;
    if (!c->seq) {
        cb_tt_put(bucket, key, c->gen, c->gen, ncards, lo, hi, best);
        return;
    }
    uint32_t *seq = cb_seq_of(c, bucket), s1;
    int turns = 0;
    for (;;) {
        s1 = __atomic_load_n(seq, __ATOMIC_RELAXED);
        if (!(s1 & 1) &&
            __atomic_compare_exchange_n(seq, &s1, s1 + 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
            break;
        cb_spin(&turns);
    }
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    cb_tt_put(bucket, key, c->gen, c->gen, ncards, lo, hi, best);
    __atomic_store_n(seq, s1 + 2, __ATOMIC_RELEASE);
}

/* A trick boundary's look-up made before it is searched (by the enhanced transposition
 * cut-off of cb_trick): its key, its bucket and a copy of the entry found there (found
 * 0: none), the latest while c->stores is `stores` (a store may add or narrow it). */
typedef struct {
    uint64_t key;
    cb_entry *bucket;
    cb_entry e;
    int found;
    uint64_t stores;
} cb_lookup;

/* ----------------------------------------------------------------- rules */
/* The cards that beat card w when it wins the trick so far: the higher cards of its
 * suit, and every trump if it is none (cb_ctx.over, set with the trump by cb_load). */
static inline uint64_t cb_over(const cb_ctx *c, int w)
{
    return cb_above(w) | ((c->tmask >> w) & 1 ? 0 : c->tmask);
}

/* 1 if card x beats w, the card winning the trick so far */
static inline int cb_beats(const cb_ctx *c, int x, int w) { return (int)((c->over[w] >> x) & 1); }

/* 1 if some card of `hand` beats w */
static inline int cb_can_beat(const cb_ctx *c, uint64_t hand, int w) { return (hand & c->over[w]) != 0; }

typedef struct {
    int leader, h, i;   /* i = cards already played to the trick */
    int wseat, wcard;   /* winner so far (-1 when i == 0) */
    int seat;           /* the seat to play: (leader + i) mod n */
    int bpos;           /* the bidder's place in the trick: (bidder - leader) mod n */
    uint64_t tcards;    /* cards of the trick so far */
    uint64_t after_c;   /* the cards (of kind h) of the coalition's seats to play after him */
    int tpts;
    int inplay;         /* the points of the cards held when the trick began: still held
                           (of either kind) or played to it since */
    int gslot, gref;    /* the search's guide (cb_guide): the graph's slot and the place
                           of this node in it; gref -1: none */
} cb_trick_state;

/* The seat to play at node t, the coalition's cards after him and the points in play
 * (t->seat, t->after_c, t->inplay), from its leader, its cards played so far and the
 * hands. The search keeps them from node to node (cb_trick_next); a node made anywhere
 * else gets them here. */
static inline void cb_trick_fill(const cb_ctx *c, cb_trick_state *t)
{
    int n = c->n, b = c->bidder;
    uint64_t m = 0;
    t->seat = (t->leader + t->i) % n;
    t->bpos = (b - t->leader + n) % n;
    for (int j = t->i + 1, s = t->seat + 1; j < n; j++, s++) {
        if (s >= n) s -= n;
        if (s != b) m |= c->hands[t->h][s];
    }
    t->after_c = m;
    t->inplay = cb_points(c, c->world[0] | c->world[1]) + t->tpts;
    t->gslot = 0;
    t->gref = -1;
}

/* The first node of a trick: `leader` leads a trick of kind h. */
static inline void cb_trick_start(const cb_ctx *c, cb_trick_state *t, int leader, int h)
{
    t->leader = leader;
    t->h = h;
    t->i = 0;
    t->wseat = t->wcard = -1;
    t->tcards = 0;
    t->tpts = 0;
    cb_trick_fill(c, t);
}

/* The node after the mover of node t has played, but for what his card does to the
 * trick (cb_trick_add): one card more, the next seat to play, and the coalition's cards
 * after that seat (those after the mover less that seat's own). */
static inline void cb_trick_next(const cb_ctx *c, const cb_trick_state *t, cb_trick_state *nt)
{
    int next = t->seat + 1 == c->n ? 0 : t->seat + 1;
    *nt = *t;
    nt->i = t->i + 1;
    nt->seat = next;
    nt->after_c = t->after_c & ~c->hands[t->h][next];
}

/* Who plays around the mover at node t: whether the bidder has played already or is
 * still to play after him, and the cards of the coalition's seats still to play after
 * him. Computed once a node, for the rules below. */
typedef struct {
    int bidder_played, bidder_later;
    uint64_t after_c;
} cb_seats;

static inline void cb_seats_of(const cb_trick_state *t, cb_seats *q)
{
    q->bidder_played = t->bpos < t->i;
    q->bidder_later = t->bpos > t->i;
    q->after_c = t->after_c;
}

/* The trick after `seat` plays x to it at node t: who is winning it, with which card,
 * its cards and points (nt's other fields are the caller's: cb_trick_next). */
static inline void cb_trick_add(const cb_ctx *c, const cb_trick_state *t, cb_trick_state *nt,
                                int seat, int x)
{
    int wins = t->i == 0 || cb_beats(c, x, t->wcard);
    nt->wseat = wins ? seat : t->wseat;
    nt->wcard = wins ? x : t->wcard;
    nt->tcards = t->tcards | 1ull << x;
    nt->tpts = t->tpts + cb_card_pts(c, x);
}

/* Where the points of the unfinished trick surely go if `seat` plays x now: +1 to the
 * mover's side whatever is played after him, -1 to the other side, 0 if not settled.
 * Only comparisons of x with live cards matter, so every card of a run (see below)
 * gets the same answer. */
static inline int cb_dest(const cb_ctx *c, const cb_trick_state *t, int seat, int x,
                          int bidder_played, uint64_t later_c)
{
    int b = c->bidder;
    int wins = t->i == 0 || cb_beats(c, x, t->wcard);
    if (seat == b) {
        if (!wins) return -1; /* the coalition's card stays above his */
        return cb_can_beat(c, later_c, x) ? 0 : 1;
    }
    uint64_t bh = c->hands[t->h][b];
    if (wins || t->wseat != b) {
        int w = wins ? x : t->wcard;
        return bidder_played || !cb_can_beat(c, bh, w) ? 1 : 0;
    }
    /* the bidder's card leads the trick and x does not beat it */
    return cb_can_beat(c, later_c, t->wcard) ? 0 : -1;
}

/* The mover's candidates. A run is a set of his cards of one suit with no live card
 * (cards still held in hands of this kind, or the card winning the trick so far)
 * between them: swapping two cards of a run changes the winner of no trick, ever (the
 * other cards already in the trick are compared with nothing again, and cards of the
 * other kind of hand never meet them), so the game trees after playing either are the
 * same up to that swap and the payoffs differ only in where the two cards' points go.
 * If X is above Y (p(X) >= p(Y)), playing X instead of Y moves p(X) - p(Y) points to the
 * winner of this trick and the same amount away from the winner of the later trick in
 * which the other card is played, leaf by leaf. So when this trick surely goes to the
 * mover's side, the top card of the run is at least as good as any other; when it
 * surely goes to the other side, the bottom card is; otherwise cards of equal points
 * are interchangeable (the higher one is kept). `chelem`: only trick winners count,
 * every card of a run is as good as any. */
static inline uint64_t cb_moves_of(const cb_ctx *c, const cb_trick_state *t, int seat, int chelem,
                                   const cb_seats *q)
{
    uint64_t hand = c->hands[t->h][seat];
    uint64_t live = c->world[t->h] | (t->i ? 1ull << t->wcard : 0);
    uint64_t out = hand, m = hand;
    while (m) {
        int x = cb_ctz(m);
        m &= m - 1;
        uint64_t above = cb_above(x), below = cb_below(x);
        if (!((above | below) & hand)) continue; /* alone in his suit: no run */
        uint64_t up = above & live;
        uint64_t down = below & live;
        int run_up = up && ((hand >> cb_ctz(up)) & 1);
        int run_down = down && ((hand >> cb_top(down)) & 1);
        if (!run_up && !run_down) continue;
        if (chelem) {
            if (run_up) out &= ~(1ull << x);
            continue;
        }
        int d = cb_dest(c, t, seat, x, q->bidder_played, q->after_c);
        if (d > 0) {
            if (run_up) out &= ~(1ull << x);
        } else if (d < 0) {
            if (run_down) out &= ~(1ull << x);
        } else if (run_up && cb_card_pts(c, cb_ctz(up)) == cb_card_pts(c, x)) {
            out &= ~(1ull << x);
        }
    }
    return out;
}

static inline int cb_power(const cb_ctx *c, int x) { return (x & 15) + (((c->tmask >> x) & 1) ? 16 : 0); }

/* Sure points at a trick boundary. A coalition trump above the bidder's highest trump
 * of its world wins whenever it is played, so its points are never the bidder's; when
 * there are at least as many of them as tricks left in the world, the coalition plays
 * them in different tricks and the bidder wins nothing there. Likewise a bidder's trump
 * above every coalition trump of its world always wins for him, and if every card he
 * holds there is one, he takes every trick of that world. */
/* The fewest points w cards of `hand` can carry. */
static inline __attribute__((always_inline)) int cb_cheapest(const cb_ctx *c, uint64_t hand, int w)
{
    int z = cb_popc(hand & c->zero);
    if (w <= z) return 0; /* the usual case: enough cards worth nothing */
    w -= z;
    int p = 0;
    for (int k = 0; k < c->nclass && w > 0; k++) {
        int t = cb_popc(hand & c->class_mask[k]);
        if (t > w) t = w;
        p += t * c->class_pts[k];
        w -= t;
    }
    return w && c->nclass ? p + w * c->class_pts[c->nclass - 1] : p;
}

static inline __attribute__((always_inline)) void cb_sure_world(const cb_ctx *c, int h, int *csure, int *bsure)
{
    int cs = 0, bs = 0, b = c->bidder;
    uint64_t bh = c->hands[h][b];
    int tricks = cb_popc(bh);
    if (tricks) {
        uint64_t bt = bh & c->tmask;
        uint64_t ct = c->world[h] & c->tmask & ~bt;
        uint64_t over = ct, bover = bt;
        if (ct) {
            over = bt ? ct & cb_above(cb_top(bt)) : ct;
            bover = bt & cb_above(cb_top(ct));
        }
        int no = cb_popc(over), nb = cb_popc(bover);
        if (no >= tricks) cs = cb_points(c, c->world[h]);
        else if (no) cs = cb_points(c, over) + cb_cheapest(c, bh, no);
        if (nb == tricks) bs = cb_points(c, c->world[h]);
        else if (nb) {
            bs = cb_points(c, bover);
            for (int s = 0; s < c->n; s++)
                if (s != b) bs += cb_cheapest(c, c->hands[h][s], nb);
        }
    }
    *csure = cs;
    *bsure = bs;
}

/* The sure points of world h, kept for the last cards of that kind they were computed
 * for: a trick changes one world only, so the other's are looked up again (card ownership
 * is fixed in a generation, and cb_load forgets them). */
static inline __attribute__((always_inline)) void cb_sure_kept(cb_ctx *c, int h, int *csure, int *bsure)
{
    if (c->sure_world[h] != c->world[h]) {
        cb_sure_world(c, h, &c->sure_c[h], &c->sure_b[h]);
        c->sure_world[h] = c->world[h];
    }
    *csure = c->sure_c[h];
    *bsure = c->sure_b[h];
}

static inline __attribute__((always_inline)) void cb_sure(cb_ctx *c, int *csure, int *bsure)
{
    int c0, b0, c1, b1;
    cb_sure_kept(c, 0, &c0, &b0);
    cb_sure_kept(c, 1, &c1, &b1);
    *csure = c0 + c1;
    *bsure = b0 + b1;
}

static inline int cb_next_hand(const cb_ctx *c, int h)
{
    int nh = c->order == 0 ? 1 - h : h;
    if (!c->world[nh] && c->world[1 - nh]) nh = 1 - nh;
    return nh;
}

/* ----------------------------------------------------------------- value search */
static int cb_boundary(cb_ctx *c, int leader, int h, int alpha, int beta, const cb_lookup *look);
static int cb_world_value(cb_ctx *c, int h, int leader);
#define CB_ANY 7
#define CB_COAL 6 /* the next leader: a seat of the coalition, its choice */
/* The variants of the single-world games (cb_ctx.wvar, see cb_world_var). */
#define CB_PLAIN 0
#define CB_NOLEAD 1 /* after a coalition trick the coalition leads, but for the last trick */
#define CB_DUCK1 2  /* the bidder ducks every trick he does not lead but the last */
#define CB_DUCK2 3  /* ... but the last two */
#define CB_UPPER 4 /* every later leader chosen by the bidder: an upper bound (cb_world_upper) */
#define CB_NOBID 5 /* every later leader a seat of the coalition (cb_nolead_bound) */
#define CB_NOWIN 6 /* the bidder takes no trick: 0, or CB_NODUCK where he cannot avoid one */
#define CB_NODUCK (-100) /* a ducking game in which the bidder cannot duck: no bound */

/* Order the moves of `seat` in the trick: higher score first. Whoever wins a trick leads
 * the next, and leading is a handicap when nobody must follow suit (the others see the
 * card led), so taking a trick is tried first only when it is worth points: a trick
 * with nothing in it is ducked first, by either side. The coalition settles a trick
 * (takes it whatever the bidder does) first only for at least 5 points while he is
 * still to play, 3 once he has played; a coalition card the bidder cannot beat, and a
 * bidder's card no coalition card beats, are kept as long as a cheaper card will do.
 * (Measured on the core alone, `tools/carabin_core_driver.c`: 4 players, seed 77, 200
 * deals, nodes median 85,642 -> 13,754, total 43.1M -> 25.0M; 5 players, seed 1, 100
 * deals, median 156,611 -> 17,351.) The chelem search, where only winning every trick
 * counts, keeps the plain order: sure winners first (chelem 1, from cb_all_trick; the
 * value search passes a constant 0, so that its copies drop the chelem cases). (Killer
 * cards and a history table were tried: killers for the coalition saved 5-17% of the
 * exact searches but made some make/fail probes hundreds of times slower; for the
 * bidder both did worse than a static order.) */
static inline __attribute__((always_inline)) int cb_order(const cb_ctx *c, const cb_trick_state *t, int seat, uint64_t moves, int ttbest,
                    const cb_seats *q, int chelem, int *out)
{
    if (moves && !(moves & (moves - 1))) { /* one card: nothing to order */
        out[0] = cb_ctz(moves);
        return 1;
    }
    int h = t->h, b = c->bidder;
    int scores[5], k = 0;
    scores[0] = INT_MAX; /* tl_insert_s's sentinel */
    /* seats still to play after `seat` */
    uint64_t later_c = q->after_c;
    int bidder_later = q->bidder_later;
    uint64_t bh = c->hands[h][b];
    uint64_t winning = t->i == 0 ? moves : moves & c->over[t->wcard]; /* the cards that take the lead */
    while (moves) {
        int x = cb_ctz(moves);
        moves &= moves - 1;
        int wins = (int)((winning >> x) & 1);
        int w = wins ? x : t->wcard;
        int wseat = wins ? seat : t->wseat;
        int p = cb_card_pts(c, x), s;
        int tp = t->tpts + p; /* the trick's points with this card */
        if (x == ttbest) s = 10000;
        else if (seat == b) {
            if (wins && !cb_can_beat(c, later_c, w)) /* a sure win */
                s = chelem || tp ? 2000 + 10 * p - (x & 15) : -15 - (x & 15);
            else if (wins && !chelem && !tp && t->i == 0)
                /* a lead worth nothing that the coalition can beat: the fewer of its
                 * cards that beat it, the fewer ways the trick can go, and the smaller
                 * the proof that follows it (6 players, seed 3003 #40: the bidder's
                 * leads T (clubs) / 2 / 6 of trumps, proofs of 99 / 21 / 15 M nodes) */
                s = -30 - 4 * cb_popc(c->over[x] & c->world[h] & ~bh) - cb_power(c, x);
            else if (wins) s = chelem || tp ? 1000 - cb_power(c, x) : -30 - cb_power(c, x);
            else if (chelem) s = -10 * p - (x & 15);
            else {
                s = -10 * p - cb_power(c, x);
                if (!cb_can_beat(c, c->world[h] & ~bh, x)) s -= 100; /* no coalition card beats it */
            }
        } else {
            int coal_wins = (wseat != b) && !(bidder_later && cb_can_beat(c, bh, w));
            int keep = !chelem && !cb_can_beat(c, bh, x) ? 100 : 0; /* a card he cannot beat */
            if (coal_wins && !(t->i > 0 && t->wseat != b && !(bidder_later && cb_can_beat(c, bh, t->wcard)))) {
                /* this card settles the trick */
                if (chelem || tp >= (bidder_later ? 5 : 3)) s = 2000 + 10 * p - cb_power(c, x);
                else s = -5 - cb_power(c, x);
            } else if (coal_wins) s = 1000 + 10 * p - (x & 15) - keep; /* settled already: shed points */
            else s = -10 * p - (x & 15) - keep;
        }
        k = tl_insert_s(out, scores, k, x, s);
    }
    if (c->helper && seat != b && cb_popc(c->world[0] | c->world[1]) + t->i > c->rev_above)
        for (int i = 0, j = k - 1; i < j; i++, j--) {
            int x = out[i];
            out[i] = out[j];
            out[j] = x;
        }
    return k;
}

/* Bidder's points from node t once its trick is complete: the gain now, then the next
 * trick from its boundary (look: its table look-up if made already, or NULL). */
static inline __attribute__((always_inline)) int cb_trick_done(cb_ctx *c, const cb_trick_state *t,
                                                               int alpha, int beta,
                                                               const cb_lookup *look)
{
    int gain = t->wseat == c->bidder ? t->tpts : 0;
    int nh = cb_next_hand(c, t->h);
    return gain + cb_boundary(c, t->wseat, nh, alpha - gain, beta - gain, look);
}

TL_DISPATCH static int cb_trick(cb_ctx *c, const cb_trick_state *t, int alpha, int beta);

static int cb_guide(cb_ctx *c, const cb_trick_state *t, int beta);
static int cb_guide_child(const cb_ctx *c, const cb_trick_state *t, int x);

/* Bidder's points once the mover of node t has played x (nt: the node after it, from
 * cb_trick_next); look: if x completes the trick, the table look-up of the boundary it
 * leads to (or NULL: none made). */
static inline __attribute__((always_inline)) int cb_trick_child(cb_ctx *c, const cb_trick_state *t,
                                                                cb_trick_state *nt, int x,
                                                                int alpha, int beta,
                                                                const cb_lookup *look)
{
    int h = t->h, seat = t->seat;
    uint64_t bit = 1ull << x;
    cb_trick_add(c, t, nt, seat, x);
    nt->gref = t->gref >= 0 ? cb_guide_child(c, t, x) : -1;
    c->hands[h][seat] &= ~bit;
    c->world[h] &= ~bit;
    int v;
    if (nt->i < c->n) v = cb_trick(c, nt, alpha, beta);
    else { /* the trick complete: a node, as cb_trick counts it */
        c->nodes++;
        v = cb_trick_done(c, nt, alpha, beta, look);
    }
    c->hands[h][seat] |= bit;
    c->world[h] |= bit;
    return v;
}

/* The race of a coalition seat's cards at node t of the search's first trick (k cards in
 * `order`, the move order's), fail-soft as cb_trick, from a first budget of `budget`
 * nodes, each later card a quarter of the one before it (`quarter`) or the same (for the
 * leads of the second and third tricks: cb_boundary); bestm (or NULL): the card of the
 * best value found.
 * A seat of the coalition whose first card does not refute the bidder there costs the
 * proof that he reaches the target after it: every card of every later seat, for the
 * rest of the deal. On the slowest 6-player search of seed 2026 (#19, value 2) the proof
 * of "less than 3" took 99.3 M nodes, 72 M of them in the first card of the seat after
 * the bidder's lead and 26 M in two cards of a later seat, where the card that refuted
 * him took about 1 M; the move order cannot know this. So each card is searched
 * under a node budget, the first card's 100,000 and each later one a quarter of the one
 * before it; a card whose budget runs out is left for the next round, with four times
 * as much, and the first card that refutes him ends the race. A search stopped by its
 * budget stores nothing, so what a card's searches left in the table is all theirs to
 * keep; a card tried again takes it up. Races nest (a later seat races within its
 * card's budget), each inside the budgets above it. Where the first card refutes, the
 * others cost about a third of its nodes at each level of races (and a card's
 * repeated searches redo what the table did not keep); equal budgets (no quarter)
 * saved more on some deals and cost up to 4 times more on others (6-player seed 3003,
 * #11: 19.5 M -> 72.6 M nodes). Measured on the driver (tools/carabin_core_driver.c),
 * table cleared per search: the 29 6-player searches over 3 M nodes of seeds 2026 and
 * 3003 (50 deals each), nodes 752.8 M -> 651.9 M, the largest 112.9 M -> 53.5 M (its
 * other slow one, 3003 #40, proves the bidder's lead and is left as it was: racing his
 * leads too cost more); 5 players, 200 deals of seeds 2026 and 2030: exact 112.9 M ->
 * 110.6 M and 88.9 M -> 87.4 M nodes, make/fail probes 0.62 M -> 0.36 M and 3.76 M ->
 * 1.72 M (the slowest, 2030 #1, 2.61 M -> 0.55 M); 4 players, seed 3001, +0.3%. */
static int cb_trick_race(cb_ctx *c, const cb_trick_state *t, cb_trick_state *nt, const int *order,
                         int k, int alpha, int beta, uint64_t budget, int quarter, int *bestm)
{
    uint64_t above = c->budget;
    int done = 0, best = CB_INF;
    for (;;) {
        for (int j = 0; j < k; j++) {
            if ((done >> j) & 1) continue;
            uint64_t mine = c->nodes + (quarter ? budget >> (2 * j) : budget);
            c->budget = mine < above ? mine : above;
            int v = cb_trick_child(c, t, nt, order[j], alpha, beta, NULL);
            c->budget = above;
            if (c->stop.stopped) {
                if (mine >= above || c->nodes < mine) return 0; /* stopped from above */
                c->stop.stopped = 0; /* its own budget ran out: its turn again later */
                continue;
            }
            done |= 1 << j;
            if (v < best) {
                best = v;
                if (bestm) *bestm = order[j];
            }
            if (best < beta) beta = best;
            if (alpha >= beta) return best;
        }
        if (done == (1 << k) - 1) return best;
        if (budget < (1ull << 56)) budget *= 4;
    }
}

/* Bidder's points from a node inside a trick (its cards so far included). */
TL_DISPATCH static int cb_trick(cb_ctx *c, const cb_trick_state *t, int alpha, int beta)
{
    int n = c->n;
    c->nodes++;
    if (t->i == n) return cb_trick_done(c, t, alpha, beta, NULL);
    int seat = t->seat, h = t->h, b = c->bidder;
    int maximizing = seat == b;
    /* Who can still take the trick: once the bidder has played and is beaten, or the
     * coalition's card is above anything he holds, nothing of this trick is his; once
     * he has played a card nobody after him can beat, all of it is. */
    int live = t->inplay - t->tpts; /* the points still held */
    cb_seats q;
    cb_seats_of(t, &q);
    uint64_t later_c = q.after_c | (maximizing ? 0 : c->hands[h][seat]);
    int lost = t->wseat != b && (q.bidder_played || !cb_can_beat(c, c->hands[h][b], t->wcard));
    int won = t->wseat == b && !cb_can_beat(c, later_c, t->wcard);
    int ocs, obs;
    cb_sure_kept(c, 1 - h, &ocs, &obs);
    int ub = (lost ? live : t->tpts + live) - ocs;
    int lb = (won ? t->tpts : 0) + obs;
    if (ub <= alpha) return ub;
    if (lb >= beta) return lb;
    if (t->gref >= 0 && t->i >= c->guide && !maximizing && t->i <= n - 2) {
        int v = cb_guide(c, t, beta);
        if (c->stop.stopped) return 0;
        if (v >= beta) return v;
    }
    uint64_t moves = cb_moves_of(c, t, seat, 0, &q);
    /* last card of the trick: every card leads straight to a trick boundary, so look all
     * of them up first; one the table already settles cuts at once (enhanced
     * transposition cut-off); the boundaries searched then reuse these look-ups, by the
     * card's place among the moves */
    cb_lookup looks[CB_MAX_HAND];
    if (t->i == n - 1) {
        /* the next trick's kind is the same after any card: each leaves as many of kind h */
        uint64_t low = moves & -moves;
        c->world[h] &= ~low;
        int nh = cb_next_hand(c, h);
        c->world[h] |= low;
        uint64_t base = cb_key(c, 0, nh);
        uint64_t m = moves;
        for (int j = 0; m; j++) {
            int x = cb_ctz(m);
            m &= m - 1;
            int wins = cb_beats(c, x, t->wcard);
            int ws = wins ? seat : t->wseat;
            int gain = ws == b ? t->tpts + cb_card_pts(c, x) : 0;
            uint64_t key = (base & ~(1ull << x)) | (uint64_t)ws << 13; /* cb_key after x */
            cb_lookup *l = &looks[j];
            l->key = key;
            l->bucket = cb_bucket(c, key);
            l->found = cb_get(c, l->bucket, key, &l->e);
            l->stores = c->stores;
            const cb_entry *e = &l->e;
            if (!l->found) continue;
            if (maximizing && gain + e->lo >= beta) return gain + e->lo;
            if (!maximizing && gain + e->hi <= alpha) return gain + e->hi;
        }
    }
    int order[4];
    int k = cb_order(c, t, seat, moves, -1, &q, 0, order);
    int best = maximizing ? -CB_INF : CB_INF;
    cb_trick_state nt;
    cb_trick_next(c, t, &nt);
    if (c->race && !maximizing && k >= 2 && cb_popc(c->world[0] | c->world[1]) + t->i > c->race_above)
        return cb_trick_race(c, t, &nt, order, k, alpha, beta, c->race, 1, NULL);
    for (int j = 0; j < k; j++) {
        int x = order[j];
        int v = cb_trick_child(c, t, &nt, x, alpha, beta, &looks[cb_popc(moves & ((1ull << x) - 1))]);
        if (c->stop.stopped) return 0;
        if (maximizing) {
            if (v > best) best = v;
            if (best > alpha) alpha = best;
        } else {
            if (v < best) best = v;
            if (best < beta) beta = best;
        }
        if (alpha >= beta) break;
    }
    return best;
}

/* The rest of the play when no seat holds more than one card of either kind: every
 * trick is forced (one card a hand), so play it out. The bidder's points. */
static inline __attribute__((always_inline)) int cb_forced(const cb_ctx *c, int leader, int h)
{
    int n = c->n, b = c->bidder, got = 0;
    uint64_t world[2] = {c->world[0], c->world[1]};
    while (world[h]) {
        int ws = leader, w = cb_ctz(c->hands[h][leader] & world[h]);
        for (int j = 1; j < n; j++) {
            int s = (leader + j) % n, x = cb_ctz(c->hands[h][s] & world[h]);
            if (cb_beats(c, x, w)) { w = x; ws = s; }
        }
        if (ws == b) got += cb_points(c, world[h]);
        world[h] = 0;
        leader = ws;
        h = 1 - h; /* at most one trick of each kind */
    }
    return got;
}

/* ----------------------------------------------------------------- single-world bounds */
/* The left and the right world never meet in a trick: they are coupled only through who
 * leads. In the single-world game of kind h only the tricks of that kind are played,
 * and the leader of each trick after the first is chosen by the coalition. Its value
 * is a lower bound on the bidder's points from that world in the real game: the bidder
 * who plays in each world by an optimal strategy of its single-world game keeps at
 * least its value whoever leads each trick, whatever happens in the other world; so
 * the sum over the two worlds bounds the whole. (The same game with the bidder
 * choosing the leaders gives an upper bound: cb_world_upper.) These games are small (one world's
 * cards) and their values are exact, kept in a table of their own for the generation.
 * Leader CB_ANY: the next leader is chosen as for the later tricks. */
TL_DISPATCH static int cb_trick_bound(cb_ctx *c, const cb_trick_state *t, int alpha, int beta,
                                      int ahead);

/* A trick of a single-world game played out from node t (fail-soft in (alpha, beta)):
 * once it is complete, the rest of that world's game (cb_world_value, the coalition
 * choosing the leader). */
static int cb_world_trick(cb_ctx *c, const cb_trick_state *t, int alpha, int beta)
{
    return cb_trick_bound(c, t, alpha, beta, 0);
}

/* The shape of the single-world game of kind h with `leader` (or CB_ANY) to lead: what
 * its value depends on. Only the cards of the world ever meet, so a card matters by its
 * place among the world's cards of its suit, its points and its holder; suits other than
 * trumps are alike, and only seats relative to the bidder matter. Written as 6-bit
 * symbols into key[3]: the leader, then the trump suit and the three others in a fixed
 * order of their own symbols, each as its cards from the highest (holder * 8 + points,
 * holders counted from the bidder; at most 47) and an end mark (63). At most 6 * 4
 * cards, 4 end marks and the leader: 29 symbols, 174 bits. */
static void cb_world_shape(const cb_ctx *c, int h, int leader, uint64_t *key)
{
    int n = c->n, b = c->bidder;
    uint8_t sym[64]; /* the symbol of each card of the world */
    for (int s = 0; s < n; s++) {
        int own = s >= b ? s - b : s - b + n;
        for (uint64_t m = c->hands[h][s]; m; m &= m - 1) {
            int x = cb_ctz(m);
            sym[x] = (uint8_t)(own * 8 + c->pts[x]);
        }
    }
    uint8_t suit[4][14]; /* number of cards, then their symbols */
    for (int su = 0; su < 4; su++) {
        uint64_t m = c->world[h] & (0x1FFFull << (16 * su));
        int len = 0;
        while (m) {
            int x = cb_top(m);
            m &= ~(1ull << x);
            suit[su][++len] = sym[x];
        }
        suit[su][0] = (uint8_t)len;
        memset(suit[su] + len + 1, 0, (size_t)(13 - len));
    }
    int order[4] = {c->trump}, k = 1;
    for (int su = 0; su < 4; su++) {
        if (su == c->trump) continue;
        int j = k++;
        while (j > 1 && memcmp(suit[order[j - 1]], suit[su], 14) > 0) { order[j] = order[j - 1]; j--; }
        order[j] = su;
    }
    key[0] = key[1] = key[2] = 0;
    int at = 0, sh = 0; /* the next symbol's word and bit: ten symbols a word */
#define CB_SYMBOL(v) (key[at] |= (uint64_t)(v) << sh, (sh += 6) == 60 ? (sh = 0, at++) : 0)
    CB_SYMBOL((leader == CB_ANY ? 7 : leader == CB_COAL ? 6 : (leader - b + n) % n) + 8 * c->wvar);
    for (int j = 0; j < 4; j++) {
        const uint8_t *q = suit[order[j]];
        for (int i = 1; i <= q[0]; i++) CB_SYMBOL(q[i]);
        CB_SYMBOL(63);
    }
#undef CB_SYMBOL
}

/* ----------------------------------------------------------------- two cards a hand */
/* A single-world game in which every hand holds two cards of its kind is one trick of
 * choices and a forced last trick. It is solved for every way of playing the first at
 * once: a lane of a 64-bit word (or of an array of 64 values) stands for one way of
 * playing it, bit s of the lane's index saying which of its two cards seat s plays
 * (2^n <= 64 lanes); who takes the trick and what each lane leaves for the last trick
 * are masks of lanes (cb_lane_wins), the bidder's points a value per lane, and the
 * minimax over the seats' choices, each seat choosing after seeing the cards before
 * his, folds one seat's bit after the other from the last to play (cb_world2). Every
 * combination of cards is looked at, so it is the game's exact value, as the search
 * of cb_world_trick gives it, at a fraction of its cost (about 50 nodes a game at 6
 * players). */

/* lanes in which seat s plays the first of its two cards */
static const uint64_t cb_lane_low[CB_MAXP] = {
    0x5555555555555555ull, 0x3333333333333333ull, 0x0F0F0F0F0F0F0F0Full,
    0x00FF00FF00FF00FFull, 0x0000FFFF0000FFFFull, 0x00000000FFFFFFFFull};

/* lanes in which seat s plays card k of its two (k = 0 or 1) */
static inline uint64_t cb_lane_sel(int s, int k) { return k ? ~cb_lane_low[s] : cb_lane_low[s]; }

/* The lanes in which seat w plays his card j, seat s playing cards[s][bit s of the
 * lane's index ^ flip] (flip 1: the card the lane keeps), and no other seat plays a card
 * that beats it, were it to win the trick: in a trick it can win at all (it is a trump
 * or of the suit led), a card beats it exactly when c->over says so. */
static uint64_t cb_lane_top(const cb_ctx *c, int cards[][2], int w, int j, int flip)
{
    int n = c->n;
    uint64_t over = c->over[cards[w][j]];
    uint64_t m = cb_lane_sel(w, j ^ flip);
    for (int s = 0; s < n; s++) {
        if (s == w) continue;
        m &= ((over >> cards[s][0]) & 1 ? 0 : cb_lane_sel(s, flip)) |
             ((over >> cards[s][1]) & 1 ? 0 : cb_lane_sel(s, 1 ^ flip));
    }
    return m;
}

/* The lanes in which seat w takes the trick led by `leader`, seat s playing
 * cards[s][bit s of the lane's index ^ flip]: those of top[j] (cb_lane_top of w, same
 * flip) in which the leader's card leaves his card j able to win. */
static uint64_t cb_lane_wins(const cb_ctx *c, int cards[][2], int leader, int flip, int w,
                             const uint64_t *top)
{
    uint64_t win = 0;
    for (int k = 0; k < 2; k++) {
        int led = cards[leader][k] >> 4;
        uint64_t lanes = cb_lane_sel(leader, k ^ flip);
        for (int j = 0; j < 2; j++) {
            int x = cards[w][j];
            if ((c->tmask >> x) & 1 || (x >> 4) == led) win |= lanes & top[j];
        }
    }
    return win;
}

/* The bidder's points of the lanes: out[i] = the points of the cards played in lane i. */
static void cb_lane_points(const cb_ctx *c, int cards[][2], uint8_t *out)
{
    int n = c->n, base = 0, d[CB_MAXP];
    for (int s = 0; s < n; s++) {
        base += cb_card_pts(c, cards[s][0]);
        d[s] = cb_card_pts(c, cards[s][1]) - cb_card_pts(c, cards[s][0]);
    }
    out[0] = (uint8_t)base;
    for (int i = 1; i < 1 << n; i++) out[i] = (uint8_t)(out[i & (i - 1)] + d[cb_ctz((uint64_t)i)]);
}

/* The lanes in which `seat`'s card beats every card played before his in the trick led
 * by `leader` (seat != leader): it is a trump or of the suit led, and none of those
 * cards is one that beats it (c->over, as in cb_lane_top). */
static uint64_t cb_lane_over(const cb_ctx *c, int cards[][2], int leader, int seat)
{
    int n = c->n;
    uint64_t out = 0;
    for (int k = 0; k < 2; k++) {
        int led = cards[leader][k] >> 4;
        for (int j = 0; j < 2; j++) {
            int x = cards[seat][j];
            if (!((c->tmask >> x) & 1) && (x >> 4) != led) continue; /* a discard never wins */
            uint64_t over = c->over[x];
            uint64_t m = cb_lane_sel(leader, k) & cb_lane_sel(seat, j);
            for (int s = leader; s != seat && m; s = s + 1 == n ? 0 : s + 1)
                m &= ((over >> cards[s][0]) & 1 ? 0 : cb_lane_sel(s, 0)) |
                     ((over >> cards[s][1]) & 1 ? 0 : cb_lane_sel(s, 1));
            out |= m;
        }
    }
    return out;
}

/* The exact value of the single-world game of kind h (every hand holding two cards of
 * it) with `leader` (a seat) to lead, in variant c->wvar, CB_PLAIN, CB_UPPER, CB_DUCK1,
 * CB_NOBID or CB_NOWIN (the others restrict nothing here): the bidder's points of the
 * first trick where he takes it, plus those of the last where he takes it whoever leads
 * it (the coalition chooses its leader; in CB_UPPER the bidder, in CB_NOBID the
 * coalition among its seats). In CB_DUCK1 the bidder who does not lead may not play a
 * card above the trick's; where he has none, CB_NODUCK. In CB_NOWIN the value is 0, or
 * CB_NODUCK where the coalition can make him take either trick. */
static int cb_world2(cb_ctx *c, int h, int leader)
{
    int n = c->n, b = c->bidder, lanes = 1 << n;
    int cards[CB_MAXP][2];
    for (int s = 0; s < n; s++) {
        uint64_t m = c->hands[h][s];
        cards[s][0] = cb_ctz(m);
        cards[s][1] = cb_top(m);
    }
    uint64_t top0[2] = {cb_lane_top(c, cards, b, 0, 0), cb_lane_top(c, cards, b, 1, 0)};
    uint64_t top1[2] = {cb_lane_top(c, cards, b, 0, 1), cb_lane_top(c, cards, b, 1, 1)};
    uint64_t first = cb_lane_wins(c, cards, leader, 0, b, top0), last = ~0ull;
    if (c->wvar == CB_UPPER || c->wvar == CB_NOWIN) {
        /* he takes it if some leader lets him (his choice), makes him (the coalition's) */
        last = 0;
        for (int l = 0; l < n; l++) last |= cb_lane_wins(c, cards, l, 1, b, top1);
    } else {
        for (int l = 0; l < n && last; l++)
            if (l != b || c->wvar != CB_NOBID) last &= cb_lane_wins(c, cards, l, 1, b, top1);
    }
    uint64_t barred = c->wvar == CB_DUCK1 && leader != b ? cb_lane_over(c, cards, leader, b) : 0;
    uint8_t p[64];
    cb_lane_points(c, cards, p);
    int total = cb_points(c, c->world[h]);
    int v[64];
    int nowin = c->wvar == CB_NOWIN; /* every lane worth 0, but those where he takes a trick */
    if (nowin) barred = first | last;
    for (int i = 0; i < lanes; i++) {
        v[i] = nowin ? 0 : ((first >> i) & 1 ? p[i] : 0) + ((last >> i) & 1 ? total - p[i] : 0);
        if ((barred >> i) & 1) v[i] = -CB_INF; /* below any value, even CB_NODUCK */
    }
    /* lanes whose bits of the seats folded so far are all 0 hold the minimax of the
     * choices of those seats */
    int open = lanes - 1; /* the seats not folded yet */
    for (int j = n - 1; j >= 0; j--) {
        int s = leader + j >= n ? leader + j - n : leader + j, d = 1 << s;
        open &= ~d;
        /* every lane i within `open` (bits d and those folded 0), in increasing order */
        int i = 0;
        do {
            int u = v[i | d];
            if (s == b ? u > v[i] : u < v[i]) v[i] = u;
            i = (i - open) & open;
        } while (i);
    }
    return v[0] < 0 ? CB_NODUCK : v[0];
}

/* ----------------------------------------------------------------- the last four tricks */
/* At a boundary where every hand holds two cards of each kind and tricks alternate, the
 * rest of the play is a trick of choices in world X (the kind to play), one in world Y
 * led by its winner, then the two forced tricks, each led by the winner of the one
 * before. Whether the bidder takes at least a target is a formula "some card of his,
 * every card of the coalition's ..." in the order of play, over the 2^n ways of playing
 * X's trick and, for each, the 2^n ways of playing Y's; it is evaluated on lanes, Y's
 * for each lane of X, the forced tricks as masks of lanes, each seat's choice folded
 * from the last to play (cb_lanes_fold). Every combination of cards is looked at, so it
 * is the minimax itself. The search of such a boundary, where the bounds fall short,
 * refutes every combination of the coalition's cards of both tricks where the bidder
 * reaches the target; this costs a fraction of that, and what it needs of each world
 * alone is tabled (cb_lane_world). */

/* The lanes of world h (every hand holding two cards of it): its lanes' points and who
 * takes each lane's trick and the forced one after it, by leader; from its table. */
static const cb_lworld *cb_lane_world(cb_ctx *c, int h)
{
    int n = c->n, b = c->bidder, lanes = 1 << n;
    uint64_t key = c->world[h] | c->tbits;
    cb_lworld *e = &c->lw[tl_hash(key) & (((uint64_t)1 << CB_LW_BITS) - 1)];
    if (e->tag == c->gen && e->key == key) return e;
    int cards[CB_MAXP][2];
    for (int s = 0; s < n; s++) {
        uint64_t m = c->hands[h][s];
        cards[s][0] = cb_ctz(m);
        cards[s][1] = cb_top(m);
    }
    cb_lane_points(c, cards, e->pts);
    e->points = (int8_t)cb_points(c, c->world[h]);
    int most = 0;
    memset(e->ge, 0, sizeof e->ge);
    for (int i = 0; i < lanes; i++) {
        e->ge[e->pts[i]] |= 1ull << i;
        if (e->pts[i] > most) most = e->pts[i];
    }
    for (int k = most - 1; k >= 0; k--) e->ge[k] |= e->ge[k + 1];
    e->most = (int8_t)most;
    uint64_t top[2][CB_MAXP][2];
    for (int f = 0; f < 2; f++)
        for (int w = 0; w < n; w++)
            for (int j = 0; j < 2; j++) top[f][w][j] = cb_lane_top(c, cards, w, j, f);
    for (int l = 0; l < n; l++) {
        for (int w = 0; w < n; w++) {
            uint64_t m3 = cb_lane_wins(c, cards, l, 0, w, top[0][w]);
            uint64_t m4 = cb_lane_wins(c, cards, l, 1, w, top[1][w]);
            e->win3[l][w] = m3;
            if (w == b) e->b4[l] = m4;
            for (int i = 0; i < lanes; i++) {
                if ((m3 >> i) & 1) e->w3[l][i] = (uint8_t)w;
                if ((m4 >> i) & 1) e->w4[l][i] = (uint8_t)w;
            }
        }
    }
    e->key = key;
    e->tag = c->gen;
    return e;
}

/* Lane 0 of m once the seats' bits are folded in the order of a trick led by `leader`,
 * the last to play first: the bidder's by "some", the coalition's by "every". Lane i
 * with bit s clear gets the fold of lanes i and i + 2^s; the others keep no meaning,
 * and are never read again. */
static inline uint64_t cb_lanes_fold(const cb_ctx *c, uint64_t m, int leader)
{
    int n = c->n;
    for (int j = n - 1; j >= 0; j--) {
        int s = leader + j >= n ? leader + j - n : leader + j;
        m = s == c->bidder ? m | m >> (1 << s) : m & m >> (1 << s);
    }
    return m & 1;
}

/* Whether the bidder takes at least t points from the boundary where `leader` leads a
 * trick of kind h, every hand holding two cards of each kind, tricks alternating (see
 * above). */
static int cb_last4(cb_ctx *c, int leader, int h, int t)
{
    int n = c->n, b = c->bidder, lanes = 1 << n;
    const cb_lworld *X = cb_lane_world(c, h);
    const cb_lworld *Y = cb_lane_world(c, 1 - h);
    int py = Y->points, most = Y->most;
    uint64_t out = 0;
    for (int i = 0; i < lanes; i++) {
        int w1 = X->w3[leader][i];                /* who takes X's trick, and leads Y's */
        int u = t - (w1 == b ? X->pts[i] : 0);     /* what he needs from Y's trick on */
        int px4 = X->points - X->pts[i];           /* X's forced trick */
        uint64_t f = 0; /* the lanes of Y in which he reaches u */
        for (int w = 0; w < n; w++) {
            uint64_t m = Y->win3[w1][w]; /* Y's trick taken by w, who leads X's forced one */
            if (!m) continue;
            int x4 = X->w4[w][i];
            int a = x4 == b ? px4 : 0;
            uint64_t y4 = Y->b4[x4]; /* x4 leads Y's forced trick: where he takes it */
            /* a lane of Y's trick holding p points: he reaches u with Y's forced trick
             * (py - p points) or without */
            uint64_t with, without;
            if (w == b) { /* p + a (+ py - p) */
                int k = u - a;
                with = py + a >= u ? ~0ull : 0;
                without = k <= 0 ? ~0ull : k > most ? 0 : Y->ge[k];
            } else { /* a (+ py - p) */
                int k = py + a - u + 1; /* p < k */
                with = k <= 0 ? 0 : k > most ? ~0ull : ~Y->ge[k];
                without = a >= u ? ~0ull : 0;
            }
            f |= m & ((y4 & with) | (~y4 & without));
        }
        out |= cb_lanes_fold(c, f, w1) << i;
    }
    return (int)cb_lanes_fold(c, out, leader);
}

TL_DISPATCH static int cb_world_solve(cb_ctx *c, int h, int leader, uint64_t key, cb_wentry *e);

/* The bidder's points of the single-world game of kind h (see above) with `leader`
 * (or CB_ANY) to lead its next trick. */
TL_DISPATCH static int cb_world_value(cb_ctx *c, int h, int leader)
{
    int n = c->n, b = c->bidder;
    uint64_t w = c->world[h];
    if (!w) return 0;
    if (leader != CB_ANY && leader != CB_COAL && cb_popc(w) == n) { /* one trick left: forced */
        int ws = leader, x = cb_ctz(c->hands[h][leader]);
        for (int j = 1; j < n; j++) {
            int s = (leader + j) % n, y = cb_ctz(c->hands[h][s]);
            if (cb_beats(c, y, x)) { x = y; ws = s; }
        }
        if (ws == b && c->wvar == CB_NOWIN) return CB_NODUCK;
        return ws == b ? cb_points(c, w) : 0;
    }
    /* a variant that restricts nothing in what is left is the plain game: solve (and
     * table) it as that (CB_NOLEAD restricts leaders only before a world's last trick,
     * CB_DUCK2 ducks only before its last two, CB_DUCK1 before its last one, CB_NOBID
     * restricts the leaders of the tricks after the first; CB_NOWIN every trick) */
    int var = c->wvar, k = cb_popc(w) / n;
    if (var != CB_PLAIN && var != CB_UPPER && var != CB_NOWIN &&
        (k <= 1 || (k <= 2 && var != CB_DUCK1 && var != CB_NOBID))) {
        c->wvar = CB_PLAIN;
        int v = cb_world_value(c, h, leader);
        c->wvar = var;
        return v;
    }
    uint64_t key = w | (uint64_t)leader << 13 | (uint64_t)h << 29 | c->tbits |
                   (uint64_t)c->wvar << 61;
    cb_wentry *e = &c->wt[tl_hash(key) & c->wt_mask];
    if (e->tag == c->gen && e->key == key) return e->v;
    return cb_world_solve(c, h, leader, key, e);
}

/* cb_world_value of a game not in its table (entry e, key `key`): apart, so that a
 * look-up does not pay for the search's frame. */
TL_DISPATCH static __attribute__((noinline)) int cb_world_solve(cb_ctx *c, int h, int leader,
                                                                uint64_t key, cb_wentry *e)
{
    int n = c->n, b = c->bidder, k = cb_popc(c->world[h]) / n; /* tricks left */
    if (cb_check_stop(c)) return 0;
    if (c->lanes && k == 2 && leader != CB_ANY && leader != CB_COAL) { /* cheaper than its shape */
        c->nodes++;
        e->key = key;
        e->tag = c->gen;
        e->v = (int8_t)cb_world2(c, h, leader);
        return e->v;
    }
    /* a game of the same shape met before (other cards played, other trump) */
    uint64_t sk[3];
    cb_world_shape(c, h, leader, sk);
    cb_sentry *se = &c->st[tl_hash(sk[0] ^ tl_hash(sk[1] ^ tl_hash(sk[2]))) & c->st_mask];
    int v;
    if (se->tag == c->gen && !memcmp(se->k, sk, sizeof sk)) {
        v = se->v;
    } else if (leader == CB_ANY || leader == CB_COAL) {
        int up = c->wvar == CB_UPPER; /* the bidder chooses the leader */
        v = up ? -CB_INF : CB_INF;
        for (int s = 0; s < n; s++) {
            if (leader == CB_COAL && s == b) continue;
            int u = cb_world_value(c, h, s);
            if (up ? u > v : u < v) v = u;
        }
    } else {
        cb_trick_state t;
        cb_trick_start(c, &t, leader, h);
        v = cb_world_trick(c, &t, -CB_INF, CB_INF);
    }
    if (c->stop.stopped) return 0;
    memcpy(se->k, sk, sizeof sk);
    se->tag = c->gen;
    se->v = (int8_t)v;
    e->key = key;
    e->tag = c->gen;
    e->v = (int8_t)v;
    return v;
}

/* A lower bound on the bidder's points from a node inside a trick (its cards so far
 * included): the rest of the trick played for real, then every boundary it reaches
 * valued by its single-world bound (cb_boundary). Fail-soft in (alpha, beta). */
static int cb_trick_world(cb_ctx *c, const cb_trick_state *t, int alpha, int beta)
{
    return cb_trick_bound(c, t, alpha, beta, 1);
}

static int cb_look_ahead(cb_ctx *c, int leader, int h, int beta, int m);
static int cb_coupled_bound(cb_ctx *c, int leader, int h, int beta);
static int cb_nolead_bound(cb_ctx *c, int leader, int h, int beta);

/* The value of a complete trick for cb_trick_bound (below), by `ahead`; beta: that of
 * the zero-window search (ahead 2). */
static inline __attribute__((always_inline)) int cb_bound_done(cb_ctx *c, const cb_trick_state *t,
                                                               int ahead, int beta)
{
    int h = t->h, b = c->bidder;
    int gain = t->wseat == b ? t->tpts : 0;
    if (!ahead) {
        if (c->wvar == CB_NOWIN && t->wseat == b) return CB_NODUCK;
        int next = (c->wvar == CB_NOLEAD && t->wseat != b && cb_popc(c->world[h]) > c->n) ||
                           c->wvar == CB_NOBID
                       ? CB_COAL
                       : CB_ANY;
        int v = cb_world_value(c, h, next);
        return v == CB_NODUCK ? v : gain + v;
    }
    int nh = cb_next_hand(c, h);
    int m = cb_world_value(c, 1 - nh, CB_ANY);
    int vn;
    if (ahead == 2) { /* nh is the kind not played in cb_deep's trick: see there */
        vn = c->deep_vn[t->wseat];
        if (vn < 0) vn = c->deep_vn[t->wseat] = cb_world_value(c, nh, t->wseat);
    } else vn = cb_world_value(c, nh, t->wseat);
    int v = gain + vn + m;
    if (ahead == 2 && v < beta && c->n >= CB_COUPLED_PLAYERS && !c->stop.stopped) {
        /* the coupled bound, as the search takes it there (-1: none) */
        int wc = cb_coupled_bound(c, t->wseat, nh, beta - gain);
        if (wc >= 0 && gain + wc > v) v = gain + wc;
    }
    if (ahead == 2 && v < beta && c->n >= CB_NOLEAD_BOUND_PLAYERS && c->nolead &&
        !c->stop.stopped) {
        /* the no-lead bound, as the search takes it there */
        int wn = cb_nolead_bound(c, t->wseat, nh, beta - gain);
        if (wn >= 0 && gain + wn > v) v = gain + wn;
    }
    if (ahead == 2 && v < beta && c->world[nh] && !c->stop.stopped) {
        /* the boundary reached by its own look-ahead where its bounds fall short (a
         * result below beta - gain bounds that look-ahead from above: see cb_deep) */
        int la = cb_look_ahead(c, t->wseat, nh, beta - gain, m);
        if (gain + la > v) v = gain + la;
    }
    return v;
}

/* The minimax of the rest of the trick at node t for both of the above: `ahead` 0
 * values a complete trick by its own world's game from there (cb_world_trick), 1 by
 * the bounds of both worlds with the trick's winner to lead the next (cb_trick_world),
 * 2 by those bounds, the coupled bound and, where they fall short of beta, that
 * boundary's look-ahead (cb_deep).
 * A node is counted where each of them always counted it. */
TL_DISPATCH static int cb_trick_bound(cb_ctx *c, const cb_trick_state *t, int alpha, int beta,
                                      int ahead)
{
    int n = c->n, h = t->h, b = c->bidder;
    if (!ahead) c->nodes++;
    if (t->i == n) return cb_bound_done(c, t, ahead, beta);
    if (ahead) c->nodes++;
    int seat = t->seat;
    int maximizing = seat == b;
    cb_seats q;
    cb_seats_of(t, &q);
    uint64_t moves = cb_moves_of(c, t, seat, 0, &q);
    /* a ducking game: the bidder plays no card above the trick's, unless he leads it or
     * it is one of the last (1 or 2) tricks of the world */
    if ((c->wvar == CB_DUCK1 || c->wvar == CB_DUCK2) && maximizing && t->leader != b &&
        cb_popc(c->world[h]) + t->i > (c->wvar - CB_DUCK1 + 1) * n) {
        for (uint64_t m = moves; m; m &= m - 1) {
            int x = cb_ctz(m);
            if (cb_beats(c, x, t->wcard)) moves &= ~(1ull << x);
        }
        if (!moves) return CB_NODUCK;
    }
    /* The look-aheads' searches are mostly proofs that the bidder reaches beta, in
     * which a node of the coalition's tries every card: there the cards are taken as
     * they come (callgrind, against cb_order: 6 players, seed 3001 #24, 6.31 G ->
     * 5.94 G instructions, nodes 12.94 M -> 13.01 M; 5 players, 30 deals of seed 2026,
     * 5.06 G -> 4.90 G without the table clears) */
    int order[4], k = 0;
    if (ahead && !maximizing)
        for (uint64_t m = moves; m; m &= m - 1) order[k++] = cb_ctz(m);
    else k = cb_order(c, t, seat, moves, -1, &q, 0, order);
    int best = maximizing ? -CB_INF : CB_INF;
    cb_trick_state nt;
    cb_trick_next(c, t, &nt);
    int last = nt.i == n; /* the children complete the trick */
    for (int j = 0; j < k; j++) {
        int x = order[j];
        uint64_t bit = 1ull << x;
        cb_trick_add(c, t, &nt, seat, x);
        c->hands[h][seat] &= ~bit;
        c->world[h] &= ~bit;
        int v;
        if (!last) v = cb_trick_bound(c, &nt, alpha, beta, ahead);
        else { /* the trick complete: a node where cb_trick_bound counts one */
            if (!ahead) c->nodes++;
            v = cb_bound_done(c, &nt, ahead, beta);
        }
        c->hands[h][seat] |= bit;
        c->world[h] |= bit;
        if (c->stop.stopped) return 0;
        if (maximizing) {
            if (v > best) best = v;
            if (best > alpha) alpha = best;
        } else {
            if (v < best) best = v;
            if (best < beta) beta = best;
        }
        if (alpha >= beta) break;
    }
    return best;
}

/* The single-world game of kind h with `leader` to lead, of variant var. The plain game
 * (above) lets the coalition choose every later leader; the real game does not. Tricks
 * alternate between the worlds X (to play now) and Y, and whoever takes a trick leads
 * the next, in the other world. So when a seat of the coalition takes a trick of X, it
 * leads the trick of Y that follows, and if the bidder does not take that one (he
 * ducks: plays no card above the trick's), a seat of the coalition leads the next trick
 * of X. Hence two games:
 *  - CB_NOLEAD, for X: after a trick the coalition took, the coalition chooses the next
 *    leader among its own seats; after one the bidder took, any seat; the last trick's
 *    leader, any seat;
 *  - CB_DUCK1 / CB_DUCK2, for Y: the plain game, but the bidder ducks every trick he
 *    does not lead, except the last one (DUCK1) or two (DUCK2) of that world: those
 *    that precede no trick of X but X's last (which of them depends on whether X has
 *    as many tricks left as Y or one more). A position in which he cannot duck is
 *    worth CB_NODUCK, the lowest value, so the coalition steers to it and the pair
 *    gives no bound at all.
 * The bidder who plays X by an optimal strategy of its CB_NOLEAD game and Y by one of
 * its ducking game never takes a trick of Y that a seat of the coalition leads before a
 * trick of X whose leader CB_NOLEAD restricts: every leader of X is one that game
 * allows, every leader of Y one the plain game allows; so he keeps at least the sum of
 * the two values, a lower bound on his points from the boundary. Where X has fewer
 * than three tricks left, CB_NOLEAD restricts no leader and the sum is at most the
 * plain one. */
static int cb_world_var(cb_ctx *c, int h, int leader, int var)
{
    int saved = c->wvar;
    c->wvar = var;
    int v = cb_world_value(c, h, leader);
    c->wvar = saved;
    return v;
}

/* The reverse pair of cb_coupled_bound (below) alone, at a trick boundary where
 * `leader` leads a trick of kind h; -1 where it gives none. */
static int cb_reverse_pair(cb_ctx *c, int leader, int h)
{
    int kx = cb_popc(c->world[h]) / c->n, ky = cb_popc(c->world[1 - h]) / c->n;
    if (c->order != 0 || (ky != kx && ky != kx - 1)) return -1;
    /* the bidder ducks X1 (a seat of the coalition leads it, and X has two tricks or
     * more, three when it has one more than Y), or Y has three or more */
    int first = leader != c->bidder && kx >= (ky == kx ? 2 : 3);
    if (ky < 2 || (!first && ky < 3) || c->stop.stopped) return -1;
    int vx = cb_world_var(c, h, leader, ky == kx ? CB_DUCK1 : CB_DUCK2);
    if (vx == CB_NODUCK || c->stop.stopped) return -1;
    int v = vx + cb_world_var(c, 1 - h, first ? CB_COAL : CB_ANY, CB_NOLEAD);
    return c->stop.stopped ? -1 : v;
}

/* The coupled pairs' bound at a trick boundary where `leader` leads a trick of kind h
 * (X; the other kind Y), tricks alternating (X1 Y1 X2 Y2 ...), X with as many tricks
 * left as Y (k) or one more; -1 where neither pair gives one.
 *  - The first pair (cb_world_var): X's CB_NOLEAD game from `leader` plus Y's ducking
 *    game, where X has three tricks or more (X_j's leader is Y_(j-1)'s winner).
 *  - The reverse pair, where Y has two tricks or more: X's ducking game from `leader`
 *    plus Y's CB_NOLEAD game. Y_j's leader is X_j's winner, so if the bidder ducks every
 *    trick of X he does not lead but those that precede no restricted leader of Y (its
 *    last trick's; and X's last, when X has one more), a trick of Y he did not take is
 *    followed by one of X that a seat of the coalition leads and takes, which then leads
 *    the next of Y: the rule of CB_NOLEAD. Y's first leader is X1's winner: a seat of
 *    the coalition (CB_COAL) where one leads X1 and the bidder ducks it, else any. The
 *    same argument as above (the bidder plays each world by an optimal strategy of its
 *    game, every leader of the real play is one its game allows) makes the sum a lower
 *    bound. It gains where leading a trick of Y would cost the bidder (his cards there
 *    win only when he plays last) and he can discard in X.
 * Asked only where the first falls short of beta. Sampled with --gap-stats (the
 * boundaries two tricks in that the slow exact search of 6-player seed 3101 #8 proved
 * at least beta by search, one in 100): the first pair gave none at any (the bidder
 * cannot duck in Y), the reverse one at all, 2-5 points under the exact value where
 * the plain bound was 2-6 (the rest of the gap: the single-world games let the
 * coalition choose which of its seats leads). Core alone, 128 MB cleared per search,
 * 200 deals, exact values, without -> with the reverse pair: 6 players, seeds 3101 and
 * 3102 (20 s of CPU at most), the searches finished either way 1,869 M -> 1,672 M and
 * 1,415 M -> 1,187 M nodes (3101 #60 491 M -> 341 M, #190 75 M -> 11 M, 3102 #122 136 M
 * -> 14 M; 3101 #8 274 M either way); 5 players 92.1 M -> 87.0 M
 * and 97.3 M -> 90.1 M; 4 players 8.43 M -> 7.91 M and 9.70 M -> 8.99 M (slowest 480 k ->
 * 316 k and 966 k -> 791 k nodes), 32 MB, seeds 3103, 3104, 3105, 1, 77: -3 % to -10 %.
 * Make/fail probes: 6 players, seeds 3101-3115, 59.5 M -> 63.3 M nodes (+6 %, their
 * slowest 26.9 M -> 28.2 M); 4 players +0.5 % to +6 %, 5 players seed 3102 +38 % (1.14 M
 * -> 1.56 M: two probes). Tried only where the first pair gives none: 3101 #60 476 M. */
static int cb_coupled_bound(cb_ctx *c, int leader, int h, int beta)
{
    int kx = cb_popc(c->world[h]) / c->n, ky = cb_popc(c->world[1 - h]) / c->n;
    if (c->order != 0 || (ky != kx && ky != kx - 1)) return -1;
    int v = -1;
    if (kx >= 3) {
        int vy = cb_world_var(c, 1 - h, CB_ANY, ky == kx ? CB_DUCK2 : CB_DUCK1);
        if (vy != CB_NODUCK) v = vy + cb_world_var(c, h, leader, CB_NOLEAD);
    }
    if (c->reverse && v < beta) {
        int r = cb_reverse_pair(c, leader, h);
        if (r > v) v = r;
    }
    return c->stop.stopped ? -1 : v;
}

/* The no-lead bound at a trick boundary where `leader` leads a trick of kind h (X),
 * tricks alternate and X has one trick more than the other kind (Y) and three or more:
 * the single-world game of X in which every later leader is a seat of the coalition
 * (CB_NOBID), provided the bidder can avoid taking any trick of Y whoever leads them
 * (the CB_NOWIN game of Y is 0, not CB_NODUCK); -1 where it gives none (or where its
 * game's upper bound is below beta: it is not asked then). In the real game he leads a
 * trick only after taking the one before it, of the other kind; every trick of Y is
 * followed by one of X (X1 Y1 X2 Y2 ... X_k), so a bidder who takes no trick of Y leads
 * no trick of X after the first, and the X game's leaders are the real ones; he keeps at
 * least its value in X (and nothing in Y).
 * The single-world games it improves on let the coalition put him on lead whenever that
 * hurts him most. Sampled with tools/carabin_core_driver.py build --gap-stats (one in
 * 100 of the boundaries two tricks in that the slowest 6-player make/fail probe of
 * fifteen 200-deal seeds, 3114 #29, 53 M nodes, proved at least its beta by search), the
 * single-world bound was 4 to 13 points under the exact value, the coupled bound gave
 * none, the upper bound was exact at 482 of 660 and the games with no later lead of the
 * bidder's in either world (no bound) at 602. A bound over every split of his leads
 * and wins between the worlds (tools/tried/lead_budget_bound.patch) was exact at 482,
 * and this one pair of it settled almost all it settled, three tricks in. Taken at
 * such boundaries and at the deep look-ahead's leaves of that shape (cb_bound_done), its
 * games solved on lanes at two cards a hand (cb_world2). Core alone, 128 MB table
 * cleared per search, 6 players, make/fail probes of 200 deals, seeds 3101-3115: seed
 * 3114's #29 53.47 M -> 26.90 M nodes (at the boundaries alone 36.72 M), all 15 x 200
 * probes 86.1 M -> 59.5 M; the slowest of every other seed within +0.3 %; 40 random
 * boundaries three tricks in, probes on either side of the value, +2.8 %. */
static int cb_nolead_bound(cb_ctx *c, int leader, int h, int beta)
{
    int kx = cb_popc(c->world[h]) / c->n, ky = cb_popc(c->world[1 - h]) / c->n;
    if (c->order != 0 || kx < 3 || ky != kx - 1) return -1;
    if (cb_world_var(c, 1 - h, CB_ANY, CB_NOWIN) != 0 || c->stop.stopped) return -1;
    if (cb_world_var(c, h, leader, CB_UPPER) < beta || c->stop.stopped) return -1;
    int v = cb_world_var(c, h, leader, CB_NOBID);
    return c->stop.stopped ? -1 : v;
}

/* An upper bound on the bidder's points from a trick boundary where `leader` leads a
 * trick of kind h: the sum over the two worlds of the single-world games in which the
 * bidder chooses the leader of every later trick (CB_UPPER). The coalition that plays
 * each world by an optimal strategy of its game keeps him to at most its value
 * whoever leads each trick, whatever happens in the other world. */
static int cb_world_upper(cb_ctx *c, int leader, int h)
{
    return cb_world_var(c, h, leader, CB_UPPER) + cb_world_var(c, 1 - h, CB_ANY, CB_UPPER);
}

/* The single-world values of kind h by leader (seat s), each as its excess over m,
 * their least (cb_world_value(c, h, CB_ANY)), in bits 7s.. of the result: one look-up
 * of its own table instead of n. */
static uint64_t cb_world_spread(cb_ctx *c, int h, int m)
{
    uint64_t key = c->world[h] | 6ull << 13 | (uint64_t)h << 29 | c->tbits |
                   1ull << 63; /* leader 6: no seat, not CB_ANY */
    cb_pentry *e = &c->pt[tl_hash(key) & c->pt_mask];
    if (e->tag == c->gen && e->key == key) return e->spread;
    uint64_t spread = 0;
    for (int s = 0; s < c->n; s++) spread |= (uint64_t)(cb_world_value(c, h, s) - m) << (7 * s);
    if (c->stop.stopped) return 0;
    e->key = key;
    e->tag = c->gen;
    e->spread = spread;
    return spread;
}

/* The look-ahead of cb_boundary from a boundary where `leader` leads a trick of kind h:
 * that trick played out for real, every boundary it reaches valued by its single-world
 * bounds (cb_trick_world), a zero-window search at beta, fail-soft. m: the other
 * world's single-world value with the coalition choosing the leader
 * (cb_world_value(c, 1 - h, CB_ANY)). Every leaf is m plus the trick's gain, plus the
 * value of what is left of world h, plus (when the next trick is of the other kind)
 * what the other world's value with the trick's winner to lead it exceeds m by. So the
 * look-ahead is m plus a function of world h, the leader and those excesses by seat,
 * whatever the other world's cards are: many boundaries share one (the other world's
 * cards differ, its values by leader do not). Its bounds are tabled under that key. */
static int cb_look_ahead(cb_ctx *c, int leader, int h, int beta, int m)
{
    int n = c->n;
    /* whether the next trick is of kind h again (cb_next_hand once this one is played);
     * then every leaf adds m itself */
    int same = c->order == 0 ? !c->world[1 - h] : cb_popc(c->world[h]) > n || !c->world[1 - h];
    uint64_t k = (uint64_t)leader | (uint64_t)h << 3 | (uint64_t)same << 4 |
                 (uint64_t)c->trump << 5 | (uint64_t)c->bidder << 7;
    if (!same) k |= cb_world_spread(c, 1 - h, m) << 10;
    if (c->stop.stopped) return 0;
    uint64_t w = c->world[h];
    cb_lentry *e = &c->lt[tl_hash(w ^ tl_hash(k)) & c->lt_mask];
    /* the function lies between 0 and the pack's points (every leaf is a sum of points) */
    int lo = 0, hi = CB_MAX_PACK_POINTS;
    if (e->tag == c->gen && e->w == w && e->k == k) {
        lo = e->lo;
        hi = e->hi;
        if (m + lo >= beta) return m + lo;
        if (m + hi < beta) return m + hi;
    }
    cb_trick_state t0;
    cb_trick_start(c, &t0, leader, h);
    int la = cb_trick_world(c, &t0, beta - 1, beta);
    if (c->stop.stopped) return 0;
    tl_bounds_update(beta - 1 - m, beta - m, la - m, &lo, &hi);
    e->w = w;
    e->k = k;
    e->tag = c->gen;
    e->lo = (int8_t)lo;
    e->hi = (int8_t)hi;
    return la;
}

/* ----------------------------------------------------------------- trick graphs */
/* The node of the graph being made with these contents: its id, -1 if the graph is
 * full. */
static int cb_ds_node(cb_ctx *c, const cb_dsnode *nd)
{
    uint64_t w[2] = {0, 0}; /* the node's bytes (made with memset: no stray padding) */
    memcpy(w, nd, sizeof *nd < sizeof w ? sizeof *nd : sizeof w);
    uint64_t k = tl_hash(w[0] ^ tl_hash(w[1]));
    for (uint32_t i = k & (2 * CB_DS_MAXN - 1);; i = (i + 1) & (2 * CB_DS_MAXN - 1)) {
        int id = c->ds_nhash[i] - 1;
        if (id < 0) {
            if (c->ds_nn == CB_DS_MAXN) return -1;
            id = c->ds_nn++;
            c->ds_tn[id] = *nd;
            c->ds_nhash[i] = (uint16_t)(id + 1);
            return id;
        }
        if (!memcmp(&c->ds_tn[id], nd, sizeof *nd)) return id;
    }
}

/* The graph below node t of the trick being made (cb_deep_shape): a reference to its
 * node or outcome, -1 if the graph is too large (or the search stopped). The moves are
 * cb_trick_bound's, so the graph's minimax is that look-ahead's. */
static int cb_ds_make(cb_ctx *c, const cb_trick_state *t)
{
    int n = c->n, h = t->h;
    if (t->i == n) {
        int gain = t->wseat == c->bidder ? t->tpts : 0;
        int m = cb_world_value(c, h, CB_ANY);
        uint64_t spread = cb_world_spread(c, h, m);
        if (c->stop.stopped) return -1;
        /* what cb_bound_done reads of this world: gain, winner, its values by leader;
         * where the other world holds three cards a hand (so that its coupled bound's
         * first pair and the no-lead bound are asked there), also this world's ducking
         * game and whether the bidder can avoid every trick of it */
        uint64_t k = spread << 17 | (uint64_t)m << 10 | (uint64_t)gain << 3 | (uint64_t)t->wseat;
        uint64_t k2 = 0;
        if (cb_popc(c->world[1 - h]) == 3 * n) {
            int d = cb_world_var(c, h, CB_ANY, CB_DUCK1);
            int w = cb_world_var(c, h, CB_ANY, CB_NOWIN);
            if (c->stop.stopped) return -1;
            k2 = 1 | (uint64_t)(uint8_t)d << 1 | (uint64_t)(w == 0) << 9;
        }
        for (uint32_t i = tl_hash(k ^ k2 << 40) & (2 * CB_DS_MAXO - 1);; i = (i + 1) & (2 * CB_DS_MAXO - 1)) {
            int id = c->ds_ohash[i] - 1;
            if (id < 0) {
                if (c->ds_no == CB_DS_MAXO) return -1;
                id = c->ds_no++;
                c->ds_okey[id] = k;
                c->ds_okey2[id] = k2;
                c->ds_to[id].cards = t->tcards;
                c->ds_to[id].wseat = (int8_t)t->wseat;
                c->ds_to[id].tpts = (int8_t)t->tpts;
                c->ds_ohash[i] = (uint16_t)(id + 1);
                return CB_DS_LEAF | id;
            }
            if (c->ds_okey[id] == k && c->ds_okey2[id] == k2) return CB_DS_LEAF | id;
        }
    }
    cb_seats q;
    cb_seats_of(t, &q);
    uint64_t moves = cb_moves_of(c, t, t->seat, 0, &q);
    cb_trick_state nt;
    cb_trick_next(c, t, &nt);
    cb_dsnode nd;
    memset(&nd, 0, sizeof nd);
    nd.max = t->seat == c->bidder;
    nd.i = (uint8_t)t->i;
    int refs[3];
    for (uint64_t mm = moves; mm; mm &= mm - 1) {
        int x = cb_ctz(mm);
        uint64_t bit = 1ull << x;
        cb_trick_add(c, t, &nt, t->seat, x);
        c->hands[h][t->seat] &= ~bit;
        c->world[h] &= ~bit;
        int r = cb_ds_make(c, &nt);
        c->hands[h][t->seat] |= bit;
        c->world[h] |= bit;
        if (r < 0 || nd.nm == 3) return -1;
        nd.mvc[nd.nm] = (uint8_t)x;
        refs[nd.nm++] = r;
        int j = nd.k; /* kept sorted, without repeats */
        while (j > 0 && nd.ch[j - 1] > r) j--;
        if (j > 0 && nd.ch[j - 1] == r) continue;
        for (int i = nd.k; i > j; i--) nd.ch[i] = nd.ch[i - 1];
        nd.ch[j] = (uint16_t)r;
        nd.k++;
    }
    if (nd.k == 1) return nd.ch[0]; /* one way on: the same as its child */
    for (int m = 0; m < nd.nm; m++)
        for (int j = 0; j < nd.k; j++)
            if (nd.ch[j] == refs[m]) nd.mvi[m] = (uint8_t)j;
    return cb_ds_node(c, &nd);
}

/* The value of an outcome of graph g for cb_deep (cb_bound_done of a trick that ends
 * in it: the trick's own cards do not matter, only what the outcome's key holds). */
static int cb_ds_outcome(cb_ctx *c, const cb_dsslot *g, int h, int id, int beta)
{
    if (c->ds_ostamp[id] == c->ds_call) return c->ds_oval[id];
    const cb_dsout *o = &c->dso[g->out0 + id];
    uint64_t saved[CB_MAXP], world = c->world[h];
    for (int s = 0; s < c->n; s++) saved[s] = c->hands[h][s];
    for (uint64_t m = c->ds_path; m; m &= m - 1) c->hands[h][c->owner[cb_ctz(m)]] |= m & -m;
    for (int s = 0; s < c->n; s++) c->hands[h][s] &= ~o->cards;
    c->world[h] = (c->world[h] | c->ds_path) & ~o->cards;
    cb_trick_state t;
    t.h = h;
    t.i = c->n;
    t.wseat = o->wseat;
    t.tpts = o->tpts;
    c->nodes++;
    int v = cb_bound_done(c, &t, 2, beta);
    for (int s = 0; s < c->n; s++) c->hands[h][s] = saved[s];
    c->world[h] = world;
    if (c->stop.stopped) return 0;
    c->ds_ostamp[id] = c->ds_call;
    c->ds_oval[id] = (int8_t)(v < -127 ? -127 : v > 127 ? 127 : v);
    return v;
}

/* The minimax of graph g below reference r, a zero-window search at beta, fail-soft
 * (every node is searched with the same window, so its value is kept for the rest of
 * this look-ahead). */
static int cb_ds_eval(cb_ctx *c, const cb_dsslot *g, int h, int r, int beta)
{
    if (r & CB_DS_LEAF) return cb_ds_outcome(c, g, h, r & ~CB_DS_LEAF, beta);
    if (c->ds_nstamp[r] == c->ds_call) return c->ds_nval[r];
    const cb_dsnode *nd = &c->dsn[g->node0 + r];
    c->nodes++;
    int best = nd->max ? -CB_INF : CB_INF;
    for (int j = 0; j < nd->k; j++) {
        int v = cb_ds_eval(c, g, h, nd->ch[j], beta);
        if (c->stop.stopped) return 0;
        if (nd->max ? v > best : v < best) best = v;
        if (nd->max ? best >= beta : best < beta) break;
    }
    c->ds_nstamp[r] = c->ds_call;
    c->ds_nval[r] = (int8_t)(best < -127 ? -127 : best > 127 ? 127 : best);
    return best;
}

#define CB_DS_NONE (-CB_INF - 1)

/* The key of the graph of the trick that `leader` leads with the cards w of kind h at
 * its boundary (cb_deep_shape; the other kind's cards only by their number), and its
 * slot in c->ds. */
static inline uint64_t cb_ds_key(const cb_ctx *c, uint64_t w, int leader, int h)
{
    return w | (uint64_t)leader << 13 | (uint64_t)h << 29 | c->tbits |
           (uint64_t)(cb_popc(c->world[1 - h]) / c->n) << 61;
}

static inline int cb_ds_slot(uint64_t key)
{
    return (int)(tl_hash(key) & (((uint64_t)1 << CB_DS_SLOT_BITS) - 1));
}

/* cb_deep from a boundary of three cards a hand to play (kind h) and two or three of
 * the other kind, by the graph of its trick; CB_DS_NONE where there is none (yet).
 * Every leaf of that look-ahead is valued (cb_bound_done) by the trick's gain, its
 * winner and the single-world games of what is left: of the other kind (their cards
 * this trick does not touch) and of kind h, the last two tricks of this world, by
 * leader (and, where the other kind has three cards a hand, so that the leaf's coupled
 * first pair and no-lead bound are asked, this world's ducking game and whether the
 * bidder can avoid every trick of it: cb_ds_make). The tricks of one boundary (the
 * bidder's and the coalition's cards: some 500 ways at 6 players) end in a few dozen
 * outcomes by the latter, and a slow search
 * meets one such world with its leader again and again with other cards of the other
 * kind (6 players, seed 3101 #8, in its first 12 s: 366,906 such look-aheads, 1,957
 * worlds with their leader). So the trick is made once into a graph: its nodes merged
 * where they lead to the same outcomes alike, its outcomes by those values; a look-ahead
 * is then the graph's minimax, each outcome valued once. A boundary's graph is made the
 * second time it is met (one met once costs nothing more), in a search grown past
 * CB_DS_AFTER nodes (a graph costs some 500 leaves' single-world values to make, more
 * than a small search saves by it). */
static int cb_deep_shape(cb_ctx *c, int leader, int h, int beta)
{
    uint64_t key = cb_ds_key(c, c->world[h], leader, h);
    cb_dsslot *g = &c->ds[cb_ds_slot(key)];
    if (g->key != key || g->tag != c->gen || g->epoch != c->ds_epoch) {
        g->key = key;
        g->tag = c->gen;
        g->epoch = c->ds_epoch;
        g->state = 1;
        if (c->dshape < 2) return CB_DS_NONE; /* 2: made the first time (for the tests) */
    }
    if (g->state == 3) return CB_DS_NONE;
    if (g->state == 1) {
        c->ds_nn = c->ds_no = 0;
        memset(c->ds_nhash, 0, sizeof c->ds_nhash);
        memset(c->ds_ohash, 0, sizeof c->ds_ohash);
        cb_trick_state t0;
        cb_trick_start(c, &t0, leader, h);
        int root = cb_ds_make(c, &t0);
        if (c->stop.stopped) return 0;
        if (root < 0) {
            g->state = 3;
            return CB_DS_NONE;
        }
        if (c->ds_nused + c->ds_nn > CB_DS_NODES || c->ds_oused + c->ds_no > CB_DS_OUTS) {
            c->ds_epoch++; /* the pools are full: every graph dropped */
            c->ds_nused = c->ds_oused = 0;
            g->epoch = c->ds_epoch;
        }
        g->node0 = c->ds_nused;
        g->out0 = c->ds_oused;
        memcpy(c->dsn + c->ds_nused, c->ds_tn, c->ds_nn * sizeof(cb_dsnode));
        memcpy(c->dso + c->ds_oused, c->ds_to, c->ds_no * sizeof(cb_dsout));
        c->ds_nused += c->ds_nn;
        c->ds_oused += c->ds_no;
        g->root = (uint16_t)root;
        g->state = 2;
    }
    if (++c->ds_call == 0) { /* the stamps wrapped round */
        memset(c->ds_nstamp, 0, sizeof c->ds_nstamp);
        memset(c->ds_ostamp, 0, sizeof c->ds_ostamp);
        c->ds_call = 1;
    }
    return cb_ds_eval(c, g, h, g->root, beta);
}

/* The look-ahead two tricks deep, from a boundary where `leader` leads a trick of kind
 * h and cb_look_ahead falls short of beta: that trick played out for real (a zero-window
 * search at beta, fail-soft), every boundary it reaches valued by its single-world
 * bounds, its coupled bound (where the world to play has three tricks left: from a
 * boundary of three cards a hand in both worlds, where the search settles most of the
 * boundaries a trick later by it) and, where they fall short, by its own look-ahead
 * (cb_bound_done, ahead 2).
 * Every leaf is a lower bound on the bidder's points from there, except a look-ahead
 * that fell short, whose fail-soft result bounds the look-ahead from above; but that
 * leaf is below its beta either way, and a minimax at least beta takes no such leaf (a
 * node of the bidder's takes a child at least beta, one of the coalition's needs every
 * child at least beta). So a result at least beta is a lower bound on his points. At 6
 * players, where most of a slow proof's nodes went to searching boundaries three tricks
 * in whose bounds fell short by one card's points, whose boundaries a trick later the
 * bounds or their look-ahead mostly settle, it settles most of them without the search
 * (tools/carabin_core_driver.py build --settle-stats). It is also taken one trick in,
 * from a boundary of four cards a hand to play and three of the other kind (see
 * cb_boundary), where there are no bounds to try first. */
static int cb_deep(cb_ctx *c, int leader, int h, int beta)
{
    /* its leaves are boundaries of the other kind (it still holds cards: ky >= 2n), whose
     * cards this trick leaves alone: their single-world values by leader are asked once
     * (cb_bound_done; callgrind, 6 players, seed 3001 #24, 5.94 G -> 5.62 G instructions;
     * 5 players, 30 deals of seed 2026, 4.90 G -> 4.77 G) */
    for (int s = 0; s < CB_MAXP; s++) c->deep_vn[s] = -1;
    if (c->dshape && c->nodes >= c->dstart && cb_popc(c->world[h]) == 3 * c->n &&
        (cb_popc(c->world[1 - h]) == 2 * c->n || cb_popc(c->world[1 - h]) == 3 * c->n)) {
        int v = cb_deep_shape(c, leader, h, beta);
        if (v != CB_DS_NONE) return v;
    }
    cb_trick_state t0;
    cb_trick_start(c, &t0, leader, h);
    return cb_trick_bound(c, &t0, beta - 1, beta, 2);
}

/* The slot of the graph of the trick that node t of a search belongs to (cb_deep_shape's
 * key, from the cards at the trick's boundary), or NULL where that graph is gone. */
static const cb_dsslot *cb_guide_slot(const cb_ctx *c, const cb_trick_state *t)
{
    int h = t->h;
    uint64_t key = cb_ds_key(c, c->world[h] | t->tcards, t->leader, h);
    const cb_dsslot *g = &c->ds[t->gslot];
    if (g->key != key || g->tag != c->gen || g->epoch != c->ds_epoch || g->state != 2) return NULL;
    return g;
}

/* The place in its trick's graph of the node after node t's mover plays x (-1: none). */
static int cb_guide_child(const cb_ctx *c, const cb_trick_state *t, int x)
{
    const cb_dsslot *g = cb_guide_slot(c, t);
    if (!g) return -1;
    int r = t->gref;
    if (r & CB_DS_LEAF) return r; /* every way on ends in this outcome */
    const cb_dsnode *nd = &c->dsn[g->node0 + r];
    if (nd->i > t->i) return r; /* every card here leads to that node (merged into it) */
    for (int m = 0; m < nd->nm; m++)
        if (nd->mvc[m] == x) return nd->ch[nd->mvi[m]];
    return -1;
}

/* The guide of a search's trick by its graph (cb_deep_shape): at node t, inside a trick
 * whose boundary's look-ahead two tricks deep was valued by its graph and fell short, the
 * minimax of what is below t in the graph, its outcomes valued as there (cb_bound_done):
 * at least beta, it is a lower bound on the bidder's points from t (cb_deep's argument,
 * for the ways through the rest of this trick), and the search need not play them. The
 * look-ahead fell short at the trick's first node, mostly through a few of the
 * coalition's ways; below most nodes it reaches beta, and a graph's outcome stands for
 * many of the search's boundaries, each of which would cost a table look-up (a cache
 * miss) and its single-world values. The slowest 6-player proofs are the bidder's
 * (python tools/carabin_core_driver.py build --shape-stats): some 250,000 boundaries two
 * tricks in searched, nearly every pair of a way through the first trick of each world
 * (tools/tried/pair_structure.patch), each reaching some 130 boundaries a trick later,
 * most of them settled by the single-world pair or the table. Asked at the coalition's
 * nodes from the trick's fourth card (CB_GUIDE_FROM) to its last but one: counted on
 * 6-player seed 3301 #72's proof (with it at every node), it reached beta at 1.6-5.7% of
 * the bidder's nodes and 0.4% of the coalition's at the trick's last seat, 4-29% of the
 * coalition's before; on seed 3114 #29's, 33-77%. At 6 players only (CB_GUIDE_PLAYERS): at
 * 5, core alone, seed 3301's 200 exact values -0.9% nodes, 3302's +0.4%, but the slowest
 * make/fail probe of 3302 (#118, near the 100 ms asked) 1.54 M -> 1.64 M nodes. */
static int cb_guide(cb_ctx *c, const cb_trick_state *t, int beta)
{
    const cb_dsslot *g = cb_guide_slot(c, t);
    if (!g) return -CB_INF;
    if (++c->ds_call == 0) { /* the stamps wrapped round */
        memset(c->ds_nstamp, 0, sizeof c->ds_nstamp);
        memset(c->ds_ostamp, 0, sizeof c->ds_ostamp);
        c->ds_call = 1;
    }
    for (int s = 0; s < CB_MAXP; s++) c->deep_vn[s] = -1;
    c->ds_path = t->tcards;
    int v = cb_ds_eval(c, g, t->h, t->gref, beta);
    c->ds_path = 0;
    return v;
}

/* The table's bounds on the canonical form of the boundary with key `key` (cb_canon),
 * narrowing [*lo, *hi]; *ckey is its key and *cbucket its bucket for a store (NULL
 * where the boundary is its own canonical form). */
static inline void cb_canon_look(cb_ctx *c, uint64_t key, uint64_t all, int *lo, int *hi,
                                 uint64_t *ckey, cb_entry **cbucket)
{
    *ckey = cb_canon(c) | (key & ~all);
    *cbucket = NULL;
    if (*ckey == key) return;
    *cbucket = cb_bucket(c, *ckey);
    cb_entry ce;
    if (!cb_get(c, *cbucket, *ckey, &ce)) return;
    if (ce.lo > *lo) *lo = ce.lo;
    if (ce.hi < *hi) *hi = ce.hi;
}

/* In cb_boundary, before a costly step (a look-ahead two tricks deep, the search), once
 * a search has grown (c->wstart): the table's entry of the canonical form, which may
 * settle the boundary. Before the deep look-ahead too, whose proofs are then stored
 * under both keys: 6 players, core alone, table cleared per search, fresh seed 3005's
 * 50 deals 666.1 M -> 561.0 M nodes (#36 167.2 M -> 101.2 M), CPU -7% and -20% on the
 * two cores; the 29 searches over 3 M nodes of seeds 2026 and 3003 478.6 M -> 451.6 M,
 * CPU -11% and +5%. */
#define CB_CANON_FIRST()                                                                   \
    do {                                                                                   \
        if (!canon && c->canon && c->nodes >= c->wstart) {                                 \
            canon = 1;                                                                     \
            cb_canon_look(c, key, all, &lo, &hi, &ckey, &cbucket);                         \
            if (lo >= beta || hi <= alpha || lo == hi) {                                   \
                cb_store(c, bucket, key, cb_popc(all), lo, hi, ttbest);                    \
                return lo >= beta ? lo : hi;                                               \
            }                                                                              \
        }                                                                                  \
    } while (0)

/* Bidder's points from a trick boundary: `leader` leads a trick of kind h. look: its
 * table look-up if made already (cb_lookup), or NULL. */
TL_DISPATCH static int cb_boundary(cb_ctx *c, int leader, int h, int alpha, int beta,
                                   const cb_lookup *look)
{
    uint64_t all = c->world[0] | c->world[1];
    if (!all) return 0;
    int rem = cb_points(c, all);
    if (rem <= alpha) return rem;
    if (beta <= 0) return 0;
    c->nodes++;
    if (cb_check_stop(c)) return 0;
    if (cb_popc(c->world[0]) <= c->n && cb_popc(c->world[1]) <= c->n) return cb_forced(c, leader, h);
    int csure, bsure;
    cb_sure(c, &csure, &bsure);
    int ub = rem - csure, lb = bsure;
    if (ub <= alpha) return ub;
    if (lb >= beta) return lb;
    uint64_t key;
    cb_entry *bucket, got;
    int found;
    if (look && look->stores == c->stores) {
        key = look->key;
        bucket = look->bucket;
        found = look->found;
        got = look->e;
    } else {
        key = look ? look->key : cb_key(c, leader, h);
        bucket = look ? look->bucket : cb_bucket(c, key);
        found = cb_get(c, bucket, key, &got);
    }
    int lo = lb, hi = ub, ttbest = -1;
    if (found) {
        if (got.lo > lo) lo = got.lo;
        if (got.hi < hi) hi = got.hi;
        ttbest = (int)got.best - 1;
    }
    if (lo >= beta) return lo;
    if (hi <= alpha) return hi;
    /* the canonical form's key and bucket once looked up (canon: 1), see below */
    uint64_t ckey = key;
    cb_entry *cbucket = NULL;
    int canon = 0;
    int deep = 0; /* the look-ahead two tricks deep is tried here (below) */
    /* the most cards a hand of either kind the bounds are taken at here: from wstart
     * (cb_world_after) every boundary up to wmax, before it from wstart2
     * (cb_world2_after) those of two */
    int wm = 0;
    if (c->nodes >= c->wstart) wm = c->wmax;
    else if (c->nodes >= c->wstart2) wm = c->wmax < 2 ? c->wmax : 2;
    if (wm && cb_popc(c->world[h]) <= wm * c->n && cb_popc(c->world[1 - h]) <= wm * c->n) {
        int m = cb_world_value(c, 1 - h, CB_ANY);
        int wl = cb_world_value(c, h, leader) + m;
        if (c->stop.stopped) return 0;
        if (wl > lo) lo = wl;
        if (lo >= beta) return lo;
        if (c->n >= CB_COUPLED_PLAYERS) {
            int wc = cb_coupled_bound(c, leader, h, beta);
            if (c->stop.stopped) return 0;
            if (wc > lo) lo = wc;
            if (lo >= beta) return lo;
        }
        if (c->n >= CB_UPPER_PLAYERS ||
            (cb_popc(c->world[h]) <= 2 * c->n && cb_popc(c->world[1 - h]) <= 2 * c->n)) {
            int wu = cb_world_upper(c, leader, h);
            if (c->stop.stopped) return 0;
            if (wu < hi) hi = wu;
            if (hi <= alpha) {
                cb_store(c, bucket, key, cb_popc(all), lo, hi, -1);
                return hi;
            }
        }
        /* the same one trick later, after every way of playing this trick (cheaper
         * than the search: no table, no sure points) */
        int la = cb_look_ahead(c, leader, h, beta, m);
        if (c->stop.stopped) return 0;
        if (la >= beta) {
            cb_store(c, bucket, key, cb_popc(all), la, hi, -1);
            return la;
        }
        if (c->n >= CB_NOLEAD_BOUND_PLAYERS && c->nolead) {
            int wn = cb_nolead_bound(c, leader, h, beta);
            if (c->stop.stopped) return 0;
            if (wn >= beta) {
                cb_store(c, bucket, key, cb_popc(all), wn, hi, -1);
                return wn;
            }
        }
        /* three cards a hand to play in this world and two or three in the other: the
         * look-ahead two tricks deep (cb_deep, below) */
        int ky = cb_popc(c->world[1 - h]);
        deep = cb_popc(c->world[h]) == 3 * c->n && (ky == 2 * c->n || ky == 3 * c->n);
        /* two cards a hand of each kind: the rest on lanes (cheaper than the bounds
         * where they settle the boundary, which they mostly do) */
        if (c->lanes && c->order == 0 && beta == alpha + 1 && cb_popc(c->world[h]) == 2 * c->n &&
            cb_popc(c->world[1 - h]) == 2 * c->n) {
            if (cb_last4(c, leader, h, beta)) lo = beta;
            else hi = alpha;
            cb_store(c, bucket, key, cb_popc(all), lo, hi, -1);
            return lo >= beta ? lo : hi;
        }
    }
    /* The first trick's boundary (four cards a hand of both kinds), in a search grown past
     * cb_first_pair_after: the reverse pair, whose games (of four cards a hand, the
     * deal's own worlds: a few by leader, once a deal) the other single-world bounds do
     * not pay for. On some slow proofs it settles the first trick: 6 players, seed 3101
     * #60 (value 8) 341 M -> 8.4 M nodes. */
    if (c->reverse && c->nodes >= c->fstart && c->order == 0 &&
        cb_popc(c->world[h]) == 4 * c->n && cb_popc(c->world[1 - h]) == 4 * c->n) {
        int wr = cb_reverse_pair(c, leader, h);
        if (c->stop.stopped) return 0;
        if (wr > lo) lo = wr;
        if (lo >= beta) {
            cb_store(c, bucket, key, cb_popc(all), lo, hi, -1);
            return lo;
        }
    }
    /* The look-ahead two tricks deep, where the one-trick look-ahead fell short above,
     * and one trick in (four cards a hand to play in this world, three in the other):
     * there are no bounds there (their games would be of four cards a hand), but its
     * leaves are boundaries of three cards a hand of each kind. The
     * slow proofs at 6 players search some 1,600 such boundaries, each of them every
     * way the coalition can play the next trick: 6 players, core alone, table cleared
     * per search, the 29 searches over 3 M nodes of seeds 2026 and 3003 651.9 M ->
     * 560.1 M nodes, fresh seed 3005's 50 deals 844.2 M -> 670.5 M (its slowest 307.2 M
     * -> 149.8 M); 5 players, 200 deals of seeds 2026 and 2030, 110.6 M -> 107.2 M and
     * 87.4 M -> 79.8 M (make/fail probes +1% and +13%, 0.36 M and 1.95 M in all) */
    if (!deep && c->wmax >= 3 && c->nodes >= c->wstart)
        deep = cb_popc(c->world[h]) == 4 * c->n && cb_popc(c->world[1 - h]) == 3 * c->n;
    if (deep && c->deep && c->n >= CB_DEEP_PLAYERS && c->order == 0) {
        CB_CANON_FIRST();
        int l2 = cb_deep(c, leader, h, beta);
        if (c->stop.stopped) return 0;
        if (l2 >= beta) {
            cb_store(c, bucket, key, cb_popc(all), l2, hi, -1);
            if (cbucket) cb_store(c, cbucket, ckey, cb_popc(all), l2, hi, -1);
            return l2;
        }
    }
    /* about to be searched: a position alike in value may be in the table (cb_canon) */
    CB_CANON_FIRST();
    if (lo == hi) return lo;
    if (lo > alpha) alpha = lo;
    if (hi < beta) beta = hi;
    int a0 = alpha, b0 = beta;
    cb_trick_state t;
    cb_trick_start(c, &t, leader, h);
    if (deep && c->guide && c->dshape && c->n >= CB_GUIDE_PLAYERS && c->order == 0 &&
        cb_popc(c->world[h]) == 3 * c->n) {
        t.gslot = cb_ds_slot(cb_ds_key(c, c->world[h], leader, h));
        t.gref = cb_guide_slot(c, &t) ? c->ds[t.gslot].root : -1;
    }
    cb_seats q;
    cb_seats_of(&t, &q);
    uint64_t moves = cb_moves_of(c, &t, leader, 0, &q);
    int order[4];
    int k = cb_order(c, &t, leader, moves, ttbest, &q, 0, order);
    int maximizing = leader == c->bidder;
    int best = maximizing ? -CB_INF : CB_INF, bestm = -1;
    cb_trick_state nt;
    cb_trick_next(c, &t, &nt);
    nt.wseat = leader;
    /* A seat of the coalition leading the search's second or third trick: its leads
     * raced as the first trick's cards are (cb_trick_race), but each under the same
     * budget, a tenth of the first trick's first budget, four times more each round.
     * A lead that does not refute costs the proof that the bidder reaches the target
     * after it; on the slow 6-player make/fail probes that he fails, nearly all the
     * nodes are such tries (python tools/carabin_core_driver.py build --waste-stats:
     * seed 3116 #23, 12.54 M of 12.6 M nodes without the race, 6.09 M of them at these
     * leads, where a card of no points he can beat was led first and one with points
     * refuted him). Measured on the driver (tools/carabin_core_driver.c, CB_LEADRACE=0
     * -> 1), without -> with: the 4,800 make/fail probes of 6-player seeds 3101-3124 (128
     * MB) 90.0 M -> 68.0 M nodes (3116 #23 22.5 M -> 3.9 M, 3115's slowest 4.9 M -> 2.7 M,
     * 3120's 1.5 M -> 0.34 M; the slowest, 3114 #29, a proof that he makes it, unchanged;
     * 3107's slowest 1.0 M -> 1.4 M, 3103's 13.4 M -> 14.2 M); 4 and 5 players, seeds
     * 3101, 3102, within 3%. Exact values, 200 deals, 20 s of CPU at most: 6 players
     * (128 MB) seed 3101 +0.7% over the 196 searches finished either way (median 156,183
     * -> 67,764 nodes; #53, 289 M nodes unfinished, now 263 M, finished), seed 3102 +2.2%
     * (#179 3.2 M -> 17.7 M; #167 279.7 M -> 284.3 M); 5 players seed 3102 +0.5%, 4
     * players seed 3101 +0.4%. The probes of 3101-3116 (86.4 M without) with the second
     * trick's leads alone raced: 66.0 M (with the third's, 65.2 M); from a budget of 3,000
     * or 30,000: 66.2 M, 66.3 M; the root's leads too: 77.6 M; quarter budgets as in the
     * first trick: #23 15.4 M instead of 3.9 M. */
    int cards = cb_popc(all);
    if (c->race && c->lead_race && !maximizing && k >= 2 && cards <= c->race_above &&
        cards > c->race_above - 2 * c->n) {
        best = cb_trick_race(c, &t, &nt, order, k, alpha, beta, c->race / 10 + 1, 0, &bestm);
        if (c->stop.stopped) return 0;
    } else for (int j = 0; j < k; j++) {
        int x = order[j];
        uint64_t bit = 1ull << x;
        nt.wcard = x;
        nt.tcards = bit;
        nt.tpts = cb_card_pts(c, x);
        nt.gref = t.gref >= 0 ? cb_guide_child(c, &t, x) : -1;
        c->hands[h][leader] &= ~bit;
        c->world[h] &= ~bit;
        int v = cb_trick(c, &nt, alpha, beta);
        c->hands[h][leader] |= bit;
        c->world[h] |= bit;
        if (c->stop.stopped) return 0;
        if (maximizing ? v > best : v < best) { best = v; bestm = x; }
        if (maximizing) { if (best > alpha) alpha = best; }
        else if (best < beta) beta = best;
        if (alpha >= beta) break;
    }
    tl_bounds_update(a0, b0, best, &lo, &hi);
    cb_store(c, bucket, key, cb_popc(all), lo, hi, bestm);
    if (cbucket) cb_store(c, cbucket, ckey, cb_popc(all), lo, hi, -1);
    return best;
}

/* ----------------------------------------------------------------- all tricks */
static int cb_all_boundary(cb_ctx *c, int leader, int h);

TL_DISPATCH static int cb_all_trick(cb_ctx *c, const cb_trick_state *t)
{
    int n = c->n, b = c->bidder;
    if (t->i == n) {
        if (t->wseat != b) return 0;
        return cb_all_boundary(c, t->wseat, cb_next_hand(c, t->h));
    }
    int seat = t->seat, h = t->h;
    /* bidder has played and is beaten, or cannot beat the coalition's card: lost */
    cb_seats q;
    cb_seats_of(t, &q);
    if (t->i > 0 && t->wseat != b) {
        if (q.bidder_played || !cb_can_beat(c, c->hands[h][b], t->wcard)) return 0;
    }
    uint64_t moves = cb_moves_of(c, t, seat, 1, &q);
    int order[4];
    int k = cb_order(c, t, seat, moves, -1, &q, 1, order);
    int maximizing = seat == b;
    cb_trick_state nt;
    cb_trick_next(c, t, &nt);
    for (int j = 0; j < k; j++) {
        int x = order[j];
        uint64_t bit = 1ull << x;
        int wins = t->i == 0 || cb_beats(c, x, t->wcard);
        nt.wseat = wins ? seat : t->wseat;
        nt.wcard = wins ? x : t->wcard;
        nt.tcards = t->tcards | bit;
        c->hands[h][seat] &= ~bit;
        c->world[h] &= ~bit;
        int v = cb_all_trick(c, &nt);
        c->hands[h][seat] |= bit;
        c->world[h] |= bit;
        if (c->stop.stopped) return 0;
        if (maximizing && v) return 1;
        if (!maximizing && !v) return 0;
    }
    return !maximizing;
}

TL_DISPATCH static int cb_all_boundary(cb_ctx *c, int leader, int h)
{
    uint64_t all = c->world[0] | c->world[1];
    if (!all) return 1;
    c->nodes++;
    if (cb_check_stop(c)) return 0;
    /* a coalition trump above the bidder's highest trump of its world wins a trick */
    for (int k = 0; k < 2; k++) {
        uint64_t bt = c->hands[k][c->bidder] & c->tmask;
        uint64_t ct = c->world[k] & c->tmask & ~bt;
        if (ct && (!bt || cb_top(ct) > cb_top(bt))) return 0;
    }
    uint64_t key = cb_key(c, leader, h);
    cb_entry *bucket = cb_bucket(c, key);
    cb_entry got;
    if (cb_get(c, bucket, key, &got)) return got.lo;
    cb_trick_state t;
    cb_trick_start(c, &t, leader, h);
    int v = cb_all_trick(c, &t);
    if (c->stop.stopped) return 0;
    cb_store(c, bucket, key, cb_popc(all), v, v, -1);
    return v;
}

/* ----------------------------------------------------------------- roots */
static inline int cb_card_to_internal(const cb_ctx *c, int card) { return (card & ~15) | c->rule_pow[card & 15]; }
static inline int cb_card_to_external(const cb_ctx *c, int x) { return (x & ~15) | c->rule_rank[x & 15]; }

/* 52-card mask -> internal mask (bit suit*16 + power) */
static uint64_t cb_to_internal(const cb_ctx *c, uint64_t m)
{
    uint64_t out = 0;
    for (; m; m &= m - 1) out |= 1ull << cb_card_to_internal(c, cb_ctz(m));
    return out;
}

/* Why a position cannot be given to the search (cb_check), 0 if it can. */
enum {
    CB_OK,
    CB_BAD_PLAYERS,  /* n not 3..CB_MAXP */
    CB_BAD_TRUMP,    /* trump not 0..3 */
    CB_BAD_BIDDER,   /* bidder not a seat */
    CB_BAD_LEADER,   /* leader not a seat */
    CB_BAD_HAND,     /* kind of hand not 0 (L) or 1 (R) */
    CB_BAD_ORDER,    /* trick order not 0 (alternate) or 1 (left_then_right) */
    CB_BAD_TRICK,    /* k not 0..n-1, or a trick card not a card */
    CB_NOT_PACK,     /* a hand holds a bit that is no card */
    CB_OVERLAP,      /* a card twice (in two hands, or in a hand and the trick) */
    CB_TOO_MANY,     /* a hand of more than CB_MAX_HAND cards */
    CB_SIZES,        /* hands that do not let every trick be played out: each kind of
                        hand of one size at every seat, the seats that played to the
                        trick one card fewer in the hand in use, and a card to play */
};

/* Check a position in the 52-card form (hands and trick as for cb_load). */
static int cb_check(int n, const uint64_t *hands, int trump, int bidder, int leader, int h,
                    int order, const int *trick, int k)
{
    const uint64_t pack = 0x1FFF1FFF1FFF1FFFull;
    if (n < 3 || n > CB_MAXP) return CB_BAD_PLAYERS;
    if (trump < 0 || trump > 3) return CB_BAD_TRUMP;
    if (bidder < 0 || bidder >= n) return CB_BAD_BIDDER;
    if (leader < 0 || leader >= n) return CB_BAD_LEADER;
    if (h != 0 && h != 1) return CB_BAD_HAND;
    if (order != 0 && order != 1) return CB_BAD_ORDER;
    if (k < 0 || k >= n) return CB_BAD_TRICK;
    uint64_t seen = 0;
    for (int j = 0; j < k; j++) {
        if (trick[j] < 0 || trick[j] > 63 || !((pack >> trick[j]) & 1)) return CB_BAD_TRICK;
        if ((seen >> trick[j]) & 1) return CB_OVERLAP;
        seen |= 1ull << trick[j];
    }
    for (int i = 0; i < 2 * n; i++) {
        if (hands[i] & ~pack) return CB_NOT_PACK;
        if (hands[i] & seen) return CB_OVERLAP;
        if (tl_popc64(hands[i]) > CB_MAX_HAND) return CB_TOO_MANY;
        seen |= hands[i];
    }
    int in_use = -1, other = tl_popc64(hands[(1 - h) * n]);
    for (int s = 0; s < n; s++) {
        int played = (s - leader + n) % n < k;
        int size = tl_popc64(hands[h * n + s]) + played;
        if (in_use < 0) in_use = size;
        if (size != in_use || tl_popc64(hands[(1 - h) * n + s]) != other) return CB_SIZES;
    }
    if (in_use == 0 && other > 0) return CB_SIZES;
    return CB_OK;
}

typedef struct {
    cb_trick_state t;
} cb_node;

/* Load a position, checked by cb_check. hands: L of seats 0..n-1 then R of seats 0..n-1,
 * trick: k cards from the leader on, in the 52-card form. Starts a new generation unless every hand is a subset of the
 * hand that defined card ownership so far. */
/* The hands (52-card form, both kinds of each seat) that define card ownership for the
 * generation: c->ref, and c->own, c->owner for cb_canon. */
static void cb_set_ref(cb_ctx *c, int n, const uint64_t *hands)
{
    c->ref_n = n;
    memset(c->owner, -1, sizeof c->owner);
    for (int s = 0; s < CB_MAXP; s++)
        for (int kind = 0; kind < 2; kind++) {
            c->ref[kind][s] = s < n ? hands[kind * n + s] : 0;
            uint64_t m = cb_to_internal(c, c->ref[kind][s]);
            c->own[kind][s] = m;
            for (; m; m &= m - 1) c->owner[cb_ctz(m)] = (int8_t)s;
        }
}

static void cb_load(cb_ctx *c, int n, const uint64_t *hands, int trump, int bidder, int leader,
                    int h, int order, const int *trick, int k, cb_node *node)
{
    int same = c->ref_n == n;
    for (int s = 0; s < n && same; s++)
        for (int kind = 0; kind < 2; kind++)
            if (hands[kind * n + s] & ~c->ref[kind][s]) same = 0;
    if (!same) {
        cb_next_gen(c);
        cb_set_ref(c, n, hands);
    }
    c->wstart = c->nodes + (c->wafter == CB_WORLD_AFTER_BY_PLAYERS ? cb_world_after[n] : c->wafter);
    c->fstart = cb_first_pair_after[n] == UINT64_MAX ? UINT64_MAX : c->nodes + cb_first_pair_after[n];
    c->dstart = c->dshape == 2 ? 0 : c->nodes + c->dafter;
    c->wstart2 = c->wafter != CB_WORLD_AFTER_BY_PLAYERS || cb_world2_after[n] == UINT64_MAX
                     ? UINT64_MAX
                     : c->nodes + cb_world2_after[n];
    c->n = n;
    c->sure_world[0] = c->sure_world[1] = ~0ull; /* no cards of a kind are all 64 bits */
    c->trump = trump;
    c->tbits = (uint64_t)trump << 30 | (uint64_t)bidder << 45;
    c->kbits = c->tbits | (uint64_t)order << 62;
    c->tmask = 0x1FFFull << (16 * trump);
    for (int x = 0; x < 64; x++) c->over[x] = cb_over(c, x);
    c->bidder = bidder;
    c->order = order;
    c->mode = 0;
    c->world[0] = c->world[1] = 0;
    for (int s = 0; s < CB_MAXP; s++) {
        for (int kind = 0; kind < 2; kind++) {
            uint64_t m = s < n ? cb_to_internal(c, hands[kind * n + s]) : 0;
            c->hands[kind][s] = m;
            c->world[kind] |= m;
        }
    }
    c->race_above = cb_popc(c->world[0] | c->world[1]) + k - n;
    cb_trick_state *t = &node->t;
    t->leader = leader;
    t->h = h;
    t->i = k;
    t->wseat = -1;
    t->wcard = -1;
    t->tcards = 0;
    t->tpts = 0;
    for (int j = 0; j < k; j++) {
        int x = cb_card_to_internal(c, trick[j]);
        if (j == 0 || cb_beats(c, x, t->wcard)) { t->wcard = x; t->wseat = (leader + j) % n; }
        t->tcards |= 1ull << x;
        t->tpts += cb_card_pts(c, x);
    }
    cb_trick_fill(c, t);
}

static int cb_node_search(cb_ctx *c, const cb_node *node, int alpha, int beta)
{
    if (node->t.i == 0) return cb_boundary(c, node->t.leader, node->t.h, alpha, beta, NULL);
    cb_trick_state t = node->t; /* callers make nodes of their own (cb_moves, _tree.h) */
    cb_trick_fill(c, &t);
    return cb_trick(c, &t, alpha, beta);
}

static int cb_node_total(const cb_ctx *c, const cb_node *node)
{
    return node->t.tpts + cb_points(c, c->world[0] | c->world[1]);
}

/* The node budget of the first probe of an exact value, by player count (0: none); see
 * cb_exact_node. */
static const uint64_t cb_first_budget[CB_MAXP + 1] = {0, 0, 0, 0, 30000, 0, 1000000};

/* Exact value: zero-window probes, each fail-soft result narrowing [lo, hi]. The first
 * probe is at `guess`; then the interval is bisected. -1 if stopped, with the bounds
 * proved so far in c->lo, c->hi. After a probe that failed low, in a search that has
 * grown (over 50,000 nodes, or at 5 players or more) the next probe asks whether the
 * value is the new upper bound itself: the costly proofs are those at the value, and
 * the fail-soft result is often it (core alone, table cleared per search: the slowest
 * 5-player searches of seeds 2026 and 2027 36.8 M -> 31.7 M and 44.2 M -> 36.7 M nodes,
 * of 4-player seed 77 1.36 M -> 1.23 M; 6 players seed 2026, 50 deals at 20 s: 2 at the
 * limit instead of 3; medians unchanged at 4 players; asked in every search, it raised
 * 4-player medians by up to 12%).
 * A first probe that proves "at least the guess" where the value is one more costs as
 * much as the proof at the value that follows it (4 players, seed 1 #151: 509 k + 485 k
 * nodes). So at 4 players the first probe gets a budget (cb_first_budget); past it, it
 * is abandoned (what it stored holds: the table takes nothing from a stopped search)
 * and the search goes on from three points higher, as a grown one, where a probe that
 * fails low is cheap and its fail-soft result leads to the value. Core alone, the
 * largest 4-player search of seven 200-deal samples, before -> after: seed 1 997 k ->
 * 630 k nodes, 2027 806 k -> 776 k, 2030 527 k -> 468 k, 77 504 k -> 522 k, 2026, 2029
 * and 2031 unchanged; totals -6% to +1%, medians unchanged; at 3 and 5 players
 * neutral (5 players, a budget of 1 M: seeds 2026 and 2030 totals -4% and -0.3%,
 * largest searches unchanged). At 6 players a budget of 30,000 cost more nodes on one of
 * two slow deals (+7%); one of 1 M, core alone with the canonical look-ups: the last
 * row of the deal table of seed 3 (bidder 5, clubs, value 9; first probe at 8, which
 * took 353 M nodes before the proof at 9 took 160 M) 524 M -> 418 M nodes; the 50
 * deals of seed 2026 1,091 M -> 1,075 M (only #12 and #43 change: 40.8 M -> 24.1 M and
 * 16.5 M -> 17.7 M). */
static int cb_exact_node(cb_ctx *c, const cb_node *node, int guess)
{
    int lo = 0, hi = cb_node_total(c, node);
    int g = guess < lo ? lo : guess > hi ? hi : guess;
    uint64_t n0 = c->nodes, budget = cb_first_budget[c->n];
    if (g == lo) g = lo + 1;
    c->lo = lo;
    c->hi = hi;
    while (lo < hi) {
        c->budget = budget ? c->nodes + budget : UINT64_MAX;
        int v = cb_node_search(c, node, g - 1, g);
        c->budget = UINT64_MAX;
        if (budget && c->stop.stopped && !tl_stop_due(&c->stop)) {
            c->stop.stopped = 0; /* only the budget stopped it */
            budget = 0;
            n0 = 0; /* grown */
            g = g + 3 > hi ? hi : g + 3;
            continue;
        }
        budget = 0;
        if (c->stop.stopped) return -1;
        if (v >= g) lo = v; else hi = v;
        c->lo = lo;
        c->hi = hi;
        /* step a quarter of the interval from the side just proved: values cluster
         * near the bounds the fail-soft results give */
        if (v >= g) g = lo + 1 + (hi - lo - 1) / 4;
        else g = c->n >= 5 || c->nodes - n0 > 50000 ? hi : hi - (hi - lo - 1) / 4;
    }
    return lo;
}

static int cb_value(cb_ctx *c, int n, const uint64_t *hands, int trump, int bidder, int leader, int h,
                    int order, const int *trick, int k, int guess)
{
    cb_node node;
    cb_load(c, n, hands, trump, bidder, leader, h, order, trick, k, &node);
    return cb_exact_node(c, &node, guess);
}

/* Share the table with helpers (on 1; cb_help) or stop sharing it (0): a sequence
 * lock a bucket (4 bytes for every 64 of table). Not while a search or a helper runs.
 * 0 if done, -1 if out of memory. */
static int cb_share(cb_ctx *c, int on)
{
    if (!on) {
        free(c->seq);
        c->seq = NULL;
        return 0;
    }
    if (c->seq) return 0;
    c->seq = (uint32_t *)calloc(c->bucket_mask + 1, sizeof(uint32_t));
    return c->seq ? 0 : -1;
}

/* Search on another core the position that `main` is searching (cb_value) with its
 * shared table (cb_share): the same probes, but its coalition tries its cards in the
 * reverse order in the first three tricks, so that the two searches take different
 * parts of a proof first and each finds in the table what the other proved (on the
 * slowest rows of 6-player deal tables, each search about half the nodes of one alone;
 * with the same order, no gain). Its own tables of single-world games and
 * look-aheads start empty (they belong to main's deal now), its own main table is left
 * alone, and afterwards it is a context of its own again, in a new generation. The
 * value, -1 if stopped, -2 if main's table is not shared or main was not searching this
 * deal (its cards). Either search may stop the other once it has the value. */
static int cb_help(cb_ctx *c, const cb_ctx *main, int n, const uint64_t *hands, int trump,
                   int bidder, int leader, int h, int order, const int *trick, int k, int guess)
{
    if (c == main || !main->seq || c->seq || main->ref_n != n ||
        memcmp(c->rule_pow, main->rule_pow, sizeof c->rule_pow) || memcmp(c->pts, main->pts, sizeof c->pts))
        return -2;
    for (int s = 0; s < n; s++)
        for (int kind = 0; kind < 2; kind++)
            if (hands[kind * n + s] & ~main->ref[kind][s]) return -2;
    uint32_t gen0 = c->gen;
    c->own_tt = c->tt;
    c->own_mask = c->bucket_mask;
    c->tt = main->tt;
    c->bucket_mask = main->bucket_mask;
    c->seq = main->seq;
    c->gen = main->gen;
    c->ref_n = main->ref_n;
    memcpy(c->ref, main->ref, sizeof c->ref);
    memcpy(c->own, main->own, sizeof c->own);
    memcpy(c->owner, main->owner, sizeof c->owner);
    cb_clear_side(c);
    c->helper = 1;
    cb_node node;
    cb_load(c, n, hands, trump, bidder, leader, h, order, trick, k, &node); /* the same deal */
    c->rev_above = cb_popc(c->world[0] | c->world[1]) + k - 3 * n;
    int v = cb_exact_node(c, &node, guess);
    c->helper = 0;
    c->tt = c->own_tt;
    c->bucket_mask = c->own_mask;
    c->seq = NULL;
    c->gen = gen0 > c->gen ? gen0 : c->gen;
    c->ref_n = 0;
    cb_next_gen(c);
    return v;
}

/* 1 if the bidder takes at least `target` points, 0 if not, -1 if stopped. */
static int cb_make(cb_ctx *c, int n, const uint64_t *hands, int trump, int bidder, int leader, int h,
                   int order, const int *trick, int k, int target)
{
    cb_node node;
    cb_load(c, n, hands, trump, bidder, leader, h, order, trick, k, &node);
    if (target <= 0) return 1;
    if (target > cb_node_total(c, &node)) return 0;
    int v = cb_node_search(c, &node, target - 1, target);
    return c->stop.stopped ? -1 : v >= target;
}

/* 1 if the bidder can win every remaining trick (the unfinished one included). */
static int cb_all_tricks(cb_ctx *c, int n, const uint64_t *hands, int trump, int bidder, int leader,
                         int h, int order, const int *trick, int k)
{
    cb_node node;
    cb_load(c, n, hands, trump, bidder, leader, h, order, trick, k, &node);
    c->mode = 1;
    int v = node.t.i == 0 ? cb_all_boundary(c, node.t.leader, node.t.h) : cb_all_trick(c, &node.t);
    c->mode = 0;
    return c->stop.stopped ? -1 : v;
}

/* The single-world bounds at a trick boundary (no trick under way): out[0] the plain
 * pair's lower bound, out[1] the coupled pair's (-1 where it gives none), out[2] the
 * upper bound (cb_world_upper). 0, or -1 if stopped. */
static int cb_world_bounds(cb_ctx *c, int n, const uint64_t *hands, int trump, int bidder,
                           int leader, int h, int order, int *out)
{
    cb_node node;
    cb_load(c, n, hands, trump, bidder, leader, h, order, NULL, 0, &node);
    out[0] = cb_world_value(c, h, leader) + cb_world_value(c, 1 - h, CB_ANY);
    out[1] = cb_coupled_bound(c, leader, h, CB_INF);
    out[2] = cb_world_upper(c, leader, h);
    return c->stop.stopped ? -1 : 0;
}

/* Whether the bidder takes at least `target` points from a trick boundary where every
 * hand holds two cards of each kind and tricks alternate, by cb_last4 alone (the search
 * asks it only where the bounds fall short; the tests compare it with the search); -1
 * where the boundary is not of that kind. */
static int cb_last_four(cb_ctx *c, int n, const uint64_t *hands, int trump, int bidder,
                        int leader, int h, int order, int target)
{
    cb_node node;
    cb_load(c, n, hands, trump, bidder, leader, h, order, NULL, 0, &node);
    if (order != 0 || cb_popc(c->world[h]) != 2 * n || cb_popc(c->world[1 - h]) != 2 * n)
        return -1;
    if (target <= 0) return 1;
    if (target > cb_node_total(c, &node)) return 0;
    return cb_last4(c, leader, h, target);
}

/* Whether the look-ahead two tricks deep (cb_deep) from a trick boundary of three cards
 * a hand to play (kind h) and two or three of the other, tricks alternating, reaches
 * `target` (1) or not (0), by the graph of its trick (graph 1, made at once) or by
 * playing it out (0): for the tests, which compare the two; -1 where the boundary is
 * not of that shape. */
static int cb_deep_probe(cb_ctx *c, int n, const uint64_t *hands, int trump, int bidder,
                         int leader, int h, int order, int target, int graph)
{
    cb_node node;
    cb_load(c, n, hands, trump, bidder, leader, h, order, NULL, 0, &node);
    int ky = cb_popc(c->world[1 - h]);
    if (order != 0 || cb_popc(c->world[h]) != 3 * n || (ky != 2 * n && ky != 3 * n)) return -1;
    if (target <= 0) return 1;
    if (target > cb_node_total(c, &node)) return 0;
    int saved = c->dshape;
    c->dshape = graph ? 2 : 0;
    c->dstart = 0; /* the graph made and taken at once */
    int v = cb_deep(c, leader, h, target);
    c->dshape = saved;
    return c->stop.stopped ? -1 : v >= target;
}

/* The canonical cards (cb_canon) of the trick boundary `hands` (2n hands, as the roots
 * take them) in *out as a 52-card mask, card ownership taken from `dealt` (the hands when
 * the deal began): for the tests, which compare it with its definition written apart.
 * -1 if a hand is not within the dealt one of its seat and kind, -2 if the dealt hands
 * hold a bit that is no card or a card twice. */
static int cb_canonical(cb_ctx *c, int n, const uint64_t *hands, const uint64_t *dealt,
                        int trump, int bidder, int leader, int h, int order, uint64_t *out)
{
    uint64_t seen = 0;
    for (int i = 0; i < 2 * n; i++) {
        if (hands[i] & ~dealt[i]) return -1;
        if (dealt[i] & (seen | ~0x1FFF1FFF1FFF1FFFull)) return -2; /* no card, or twice */
        seen |= dealt[i];
    }
    cb_node node;
    cb_next_gen(c);
    cb_set_ref(c, n, dealt);
    cb_load(c, n, hands, trump, bidder, leader, h, order, NULL, 0, &node);
    uint64_t m = cb_canon(c);
    *out = 0;
    for (; m; m &= m - 1) *out |= 1ull << cb_card_to_external(c, cb_ctz(m));
    return 0;
}

/* Per-move values: for each card of the hand in use of the seat to move (written to
 * cards[]), the bidder's exact points from here if it is played. Returns the number of
 * cards, -1 if stopped. */
static int cb_moves(cb_ctx *c, int n, const uint64_t *hands, int trump, int bidder, int leader, int h,
                    int order, const int *trick, int k, int guess, int *cards, int *values)
{
    cb_node node;
    cb_load(c, n, hands, trump, bidder, leader, h, order, trick, k, &node);
    cb_trick_state *t = &node.t;
    int seat = (t->leader + t->i) % n;
    uint64_t hand = c->hands[h][seat];
    int m = 0;
    while (hand) {
        int x = cb_ctz(hand);
        hand &= hand - 1;
        uint64_t bit = 1ull << x;
        cb_node ch = node;
        int wins = t->i == 0 || cb_beats(c, x, t->wcard);
        ch.t.i = t->i + 1;
        ch.t.wseat = wins ? seat : t->wseat;
        ch.t.wcard = wins ? x : t->wcard;
        ch.t.tcards = t->tcards | bit;
        ch.t.tpts = t->tpts + cb_card_pts(c, x);
        c->hands[h][seat] &= ~bit;
        c->world[h] &= ~bit;
        int v;
        if (ch.t.i == n) {
            /* trick complete: the gain now, then the next trick from its boundary */
            int gain = ch.t.wseat == bidder ? ch.t.tpts : 0;
            int nh = cb_next_hand(c, h);
            cb_node nx;
            nx.t.leader = ch.t.wseat;
            nx.t.h = nh;
            nx.t.i = 0;
            nx.t.wseat = nx.t.wcard = -1;
            nx.t.tcards = 0;
            nx.t.tpts = 0;
            int r = cb_exact_node(c, &nx, guess - gain);
            v = r < 0 ? -1 : r + gain;
        } else {
            v = cb_exact_node(c, &ch, guess);
        }
        c->hands[h][seat] |= bit;
        c->world[h] |= bit;
        if (c->stop.stopped) return -1;
        cards[m] = cb_card_to_external(c, x);
        values[m] = v;
        m++;
    }
    return m;
}

/* ----------------------------------------------------------------- PIMC decisions
 *
 * One card-play decision by perfect-information Monte Carlo, the rule of
 * analysis.play.CarabinPimc: the worlds (the mover's view of the hidden cards, drawn by
 * the caller) are searched in the caller's order, and in each the contract succeeds or
 * fails (double dummy) once the mover plays a candidate card. Candidates are evaluated
 * one after another in the caller's order; a candidate is out as soon as it has failed
 * (for the mover's side) in as many worlds as the best candidate so far; one that never
 * fails ends the decision; ties go to the earlier candidate.
 *
 * One table serves the whole decision. Its entries are keyed by the cards still held
 * and tagged with the generation that names the card ownership they were found in
 * (cb_load); here each distinct world gets a generation of its own, so an entry is used
 * again by every search of the same world (every candidate) and never by another world:
 * tag and key together name the full hands. Worlds with equal hands share their
 * generation and their results. */

#define CB_PIMC_MAX_WORLDS 100000

/* The contract once the mover plays internal card x from the loaded position `root`:
 * 1 it succeeds, 0 it fails, -1 its search was stopped. `target`: the points the bidder
 * must still take from `root` (its unfinished trick included); chelem: he must take
 * every trick (`lost`: he has lost one already). An outcome settled without a search
 * (points already won or out of reach, a trick lost or the last one won in a chelem) is
 * never stopped; a search starts as tl_stop_begin does, stopped at once if `deadline`
 * has passed. */
static int cb_pimc_world(cb_ctx *c, const cb_node *root, int x, int chelem, int target, int lost,
                         double deadline)
{
    int n = c->n, b = c->bidder, r;
    const cb_trick_state *t = &root->t;
    int seat = (t->leader + t->i) % n, h = t->h;
    uint64_t bit = 1ull << x;
    cb_trick_state ch = *t;
    int wins = t->i == 0 || cb_beats(c, x, t->wcard);
    ch.i = t->i + 1;
    ch.wseat = wins ? seat : t->wseat;
    ch.wcard = wins ? x : t->wcard;
    ch.tcards = t->tcards | bit;
    ch.tpts = t->tpts + cb_card_pts(c, x);
    c->hands[h][seat] &= ~bit;
    c->world[h] &= ~bit;
    cb_trick_fill(c, &ch);
    int done = ch.i == n, nh = done ? cb_next_hand(c, h) : h;
    int need = target - (done && ch.wseat == b ? ch.tpts : 0);
    int left = cb_points(c, c->world[0] | c->world[1]) + (done ? 0 : ch.tpts);
    if (chelem ? lost || (done && ch.wseat != b) : need > left) {
        r = 0;
    } else if (chelem ? done && !(c->world[0] | c->world[1]) : need <= 0) {
        r = 1; /* the last trick won, or the points made */
    } else {
        c->stop.deadline = deadline;
        c->stop.stopped = c->stop.timed_out = 0;
        if (deadline > 0 && tl_now() >= deadline) c->stop.stopped = c->stop.timed_out = 1;
        if (chelem) {
            c->mode = 1;
            r = done ? cb_all_boundary(c, ch.wseat, nh) : cb_all_trick(c, &ch);
            c->mode = 0;
        } else {
            r = (done ? cb_boundary(c, ch.wseat, nh, need - 1, need, NULL) : cb_trick(c, &ch, need - 1, need)) >= need;
        }
        if (c->stop.stopped) r = -1;
    }
    c->hands[h][seat] |= bit;
    c->world[h] |= bit;
    return r;
}

/* One PIMC decision (see above). worlds: `count` positions of 2n hands each (as for
 * cb_load), checked, alike but for the hidden cards; cards[0..k-1]: the candidates
 * (52-card form, in the mover's hand in use). time_limit > 0: every search that has not
 * decided after that many seconds counts half a failure for its candidate. Returns the
 * index of the chosen candidate; -1 if stopped (Ctrl-C or Core.stop), -2 on no memory.
 * *searches counts the evaluations (candidate, world), *undecided those cut by the time
 * limit. */
static int cb_pimc(cb_ctx *c, int n, const uint64_t *worlds, int count, int trump, int bidder,
                   int leader, int h, int order, const int *trick, int k, const int *cards,
                   int ncards, int chelem, int target, int lost, double time_limit,
                   long *searches, long *undecided)
{
    int *same = (int *)malloc((size_t)count * sizeof(int));
    int8_t *memo = (int8_t *)malloc((size_t)count * (size_t)ncards);
    int chosen = -2;
    double deadline = c->stop.deadline;
    uint32_t base, last;
    cb_gen_room(c, (uint32_t)count + 1); /* a generation for each world */
    base = c->gen + 1;
    last = c->gen;
    *searches = *undecided = 0;
    if (!same || !memo) goto done;
    memset(memo, -1, (size_t)count * (size_t)ncards); /* -1: not searched (or undecided) */
    for (int w = 0; w < count; w++) { /* the first world of the same hands */
        same[w] = w;
        for (int v = 0; v < w && same[w] == w; v++)
            if (same[v] == v && !memcmp(worlds + 2 * n * v, worlds + 2 * n * w, 2 * (size_t)n * sizeof(uint64_t)))
                same[w] = v;
    }
    int bidder_moves = (leader + k) % n == bidder;
    int best = -1, best_fails = 0; /* failures in halves: an undecided world is one */
    for (int i = 0; i < ncards; i++) {
        int fails = 0, out = 0, x = cb_card_to_internal(c, cards[i]);
        for (int w = 0; w < count && !out; w++) {
            int u = same[w], r = memo[u * ncards + i];
            (*searches)++;
            if (r < 0) {
                /* world u in its own generation: its hands define card ownership */
                const uint64_t *hs = worlds + 2 * n * u;
                cb_node node;
                c->gen = base + (uint32_t)u;
                if (c->gen > last) last = c->gen;
                cb_set_ref(c, n, hs);
                cb_load(c, n, hs, trump, bidder, leader, h, order, trick, k, &node);
                r = cb_pimc_world(c, &node, x, chelem, target, lost,
                                  time_limit > 0 ? tl_now() + time_limit : deadline);
                if (r < 0 && (!c->stop.timed_out || time_limit <= 0)) {
                    chosen = -1; /* interrupted, or the core's own time limit */
                    goto done;
                }
                if (r < 0) (*undecided)++;
                else memo[u * ncards + i] = (int8_t)r;
            }
            fails += r < 0 ? 1 : 2 * (r != bidder_moves);
            out = best >= 0 && fails >= best_fails;
        }
        if (!out) {
            best = i;
            best_fails = fails;
            if (!fails) break;
        }
    }
    chosen = best;
    c->stop.stopped = c->stop.timed_out = 0;
done:
    /* later generations stay new; the next search starts one of its own */
    c->gen = last;
    c->ref_n = 0;
    c->stop.deadline = deadline;
    free(same);
    free(memo);
    return chosen;
}

/* ----------------------------------------------------------------- worlds drawn in C
 *
 * The worlds of a PIMC decision drawn here rather than in Python, exactly as
 * analysis.play.carabin_worlds draws them: random.Random(seed), then for each world
 * Random.sample(pool, total), the cards dealt in that order to the hidden hands. So
 * the generator is CPython's Mersenne Twister (MT19937, as _randommodule.c: seeded from
 * an int by init_by_array over its 32-bit words, low word first), an integer below n is
 * drawn as Random._randbelow_with_getrandbits draws it (the top bit_length(n) bits of
 * one output, again while not below n), and the sample follows Random.sample (a partial
 * Fisher-Yates of the population when it is small, otherwise draws of indexes until an
 * unused one). The same seed gives the same worlds, card for card, so the decisions and
 * every study that depends on them are unchanged; the law is that of Random.sample:
 * every ordered choice of `total` cards is equally likely. */

#define CB_MT_N 624
#define CB_MT_M 397

typedef struct {
    uint32_t mt[CB_MT_N];
    int index;
} cb_mt;

/* random.Random(seed) for an int 0 <= seed < 2**64: init_genrand(19650218), then
 * init_by_array with the seed's 32-bit words (one word when it fits in 32 bits). */
static void cb_mt_seed(cb_mt *r, uint64_t seed)
{
    uint32_t *mt = r->mt, key[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)};
    size_t len = seed >> 32 ? 2 : 1, i = 1, j = 0, k;
    mt[0] = 19650218u;
    for (int m = 1; m < CB_MT_N; m++) mt[m] = 1812433253u * (mt[m - 1] ^ (mt[m - 1] >> 30)) + (uint32_t)m;
    for (k = CB_MT_N > len ? CB_MT_N : len; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525u)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= CB_MT_N) {
            mt[0] = mt[CB_MT_N - 1];
            i = 1;
        }
        if (j >= len) j = 0;
    }
    for (k = CB_MT_N - 1; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941u)) - (uint32_t)i;
        i++;
        if (i >= CB_MT_N) {
            mt[0] = mt[CB_MT_N - 1];
            i = 1;
        }
    }
    mt[0] = 0x80000000u;
    r->index = CB_MT_N;
}

/* The next 32-bit output (genrand_uint32). */
static uint32_t cb_mt_next(cb_mt *r)
{
    static const uint32_t mag01[2] = {0x0u, 0x9908b0dfu};
    uint32_t *mt = r->mt, y;
    if (r->index >= CB_MT_N) {
        int kk;
        for (kk = 0; kk < CB_MT_N - CB_MT_M; kk++) {
            y = (mt[kk] & 0x80000000u) | (mt[kk + 1] & 0x7fffffffu);
            mt[kk] = mt[kk + CB_MT_M] ^ (y >> 1) ^ mag01[y & 1u];
        }
        for (; kk < CB_MT_N - 1; kk++) {
            y = (mt[kk] & 0x80000000u) | (mt[kk + 1] & 0x7fffffffu);
            mt[kk] = mt[kk + (CB_MT_M - CB_MT_N)] ^ (y >> 1) ^ mag01[y & 1u];
        }
        y = (mt[CB_MT_N - 1] & 0x80000000u) | (mt[0] & 0x7fffffffu);
        mt[CB_MT_N - 1] = mt[CB_MT_M - 1] ^ (y >> 1) ^ mag01[y & 1u];
        r->index = 0;
    }
    y = mt[r->index++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    return y ^ (y >> 18);
}

/* Uniform in 0..n-1 (1 <= n <= 2**31), as Random._randbelow_with_getrandbits. */
static int cb_mt_below(cb_mt *r, int n)
{
    int bits = tl_top32((uint32_t)n) + 1;
    uint32_t v;
    do v = cb_mt_next(r) >> (32 - bits); while (v >= (uint32_t)n);
    return (int)v;
}

/* out[0..k-1]: k of the n cards pop[] (n <= 64), as Random.sample(pop, k). */
static void cb_mt_sample(cb_mt *r, const int *pop, int n, int k, int *out)
{
    int setsize = 21; /* Random.sample's estimate of a set's size against a list's */
    if (k > 5) {
        int power = 1; /* 4 ** ceil(log(3k, 4)): 3k is never a power of 4 */
        while (power < 3 * k) power *= 4;
        setsize += power;
    }
    if (n <= setsize) {
        int pool[64];
        memcpy(pool, pop, (size_t)n * sizeof(int));
        for (int i = 0; i < k; i++) {
            int j = cb_mt_below(r, n - i);
            out[i] = pool[j];
            pool[j] = pool[n - i - 1];
        }
    } else {
        uint64_t selected = 0;
        for (int i = 0; i < k; i++) {
            int j = cb_mt_below(r, n);
            while (selected >> j & 1) j = cb_mt_below(r, n);
            selected |= 1ull << j;
            out[i] = pop[j];
        }
    }
}

/* `count` worlds of 2n hands each into out: every world is `base` (the mover's view:
 * the hidden hands empty) with Random.sample(pool, total) dealt in order to the hidden
 * hands, slot[i] (an index of the 2n hands) taking size[i] cards, from one generator
 * seeded with `seed`. pool[]: the npool cards that may be hidden (npool <= 64), in the
 * caller's order; total = the sum of size[] <= npool. */
static void cb_draw_worlds(int n, const uint64_t *base, const int *pool, int npool, const int *slot,
                           const int *size, int nhidden, int count, uint64_t seed, uint64_t *out)
{
    cb_mt r;
    int drawn[64], total = 0;
    for (int i = 0; i < nhidden; i++) total += size[i];
    cb_mt_seed(&r, seed);
    for (int w = 0; w < count; w++) {
        uint64_t *hs = out + 2 * (size_t)n * (size_t)w;
        cb_mt_sample(&r, pool, npool, total, drawn);
        memcpy(hs, base, 2 * (size_t)n * sizeof(uint64_t));
        for (int i = 0, d = 0; i < nhidden; i++)
            for (int j = 0; j < size[i]; j++) hs[slot[i]] |= 1ull << drawn[d++];
    }
}

#endif
