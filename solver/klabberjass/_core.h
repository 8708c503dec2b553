/* Klabberjass double-dummy search core.
 *
 * Ints in, ints out: hands arrive as 52-card bitmasks (bit suit*16 + rank, rank 0 = '2'),
 * are mapped to a 32-card internal form (bit suit*8 + power, power 0 = lowest in trick
 * order for that suit, which depends on the trump), and searched with alpha-beta
 * (principal-variation search at the leads) on E's card points, a transposition table
 * at trick boundaries (bounds and best lead), pruning of equivalent and dominated
 * cards, and move ordering. The last three tricks are solved by enumeration (the first
 * of them through the table).
 *
 * The card rules (trick order and points of plain and trump cards) are not written
 * here: the binding hands over the tables of solver/klabberjass/rules.py
 * (kj_set_rules), checked.
 *
 * Values stored in the table depend only on (trump, leader, both hands) and the
 * last-trick bonus, never on the deal they were met in, so the table is kept across
 * solves: it is sound to reuse it for every position of a batch whatever its trump.
 * It is cleared when the bonus changes.
 */
#ifndef KJ_CORE_H
#define KJ_CORE_H

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bits.h"
#include "order.h"
#include "stop.h"
#include "tt.h"

#define KJ_INF 1000

/* Per internal card: its suit's cards above it, below it (a table: they are asked at
 * every card of every node). */
#define KJ_ABOVE_(x) ((0xFFu << ((x) & ~7)) & ~((2u << (x)) - 1))
#define KJ_BELOW_(x) ((0xFFu << ((x) & ~7)) & ((1u << (x)) - 1))
#define KJ_ROW8_(F, s) F(s), F(s + 1), F(s + 2), F(s + 3), F(s + 4), F(s + 5), F(s + 6), F(s + 7)
static const uint32_t kj_above_tab[32] = {KJ_ROW8_(KJ_ABOVE_, 0), KJ_ROW8_(KJ_ABOVE_, 8),
                                          KJ_ROW8_(KJ_ABOVE_, 16), KJ_ROW8_(KJ_ABOVE_, 24)};
static const uint32_t kj_below_tab[32] = {KJ_ROW8_(KJ_BELOW_, 0), KJ_ROW8_(KJ_BELOW_, 8),
                                          KJ_ROW8_(KJ_BELOW_, 16), KJ_ROW8_(KJ_BELOW_, 24)};

typedef struct {
    uint64_t key;   /* E hand | D hand << 32, internal form */
    int16_t lo, hi; /* bounds on E's points from this trick boundary */
    uint8_t tag;    /* 1 | trump << 1 | leader << 3 ; 0 = empty */
    uint8_t best;   /* best lead, internal card + 1; 0 = none */
    uint8_t age;    /* the solve that last used it */
    uint8_t ncards;
} kj_entry;

typedef struct {
    kj_entry *tt;
    uint64_t hot_mask;  /* buckets of 4 entries in the hot area, minus 1 */
    uint64_t cold_mask; /* buckets in the cold area, minus 1 */
    uint64_t nbuckets;
    uint8_t age;
    int trump;
    uint32_t tmask;
    int bonus;          /* last-trick bonus the table's values include; -1 = none yet */
    int8_t pts[32];     /* points by internal card, for the current trump */
    uint32_t beaters[32]; /* the cards that beat each internal card, for the current trump */
    /* The card rules (kj_set_rules), [0] for a plain suit and [1] for the trump suit:
     * trick power by rank (-1 outside the pack), rank by power, points by power. */
    int8_t rule_pow[2][16];
    uint8_t rule_rank[2][8];
    int8_t rule_pts[2][8];
    uint64_t pack;      /* the pack, 52-card form */
    uint64_t nodes;
    tl_stop stop;       /* Ctrl-C or Core.stop(): see stop.h */
} kj_ctx;

#define kj_ctz tl_ctz32
#define kj_popc tl_popc32

/* Limits of the core: cards a hand (move lists are arrays of this size), card points
 * of the pack plus the last-trick bonus below KJ_INF (and within the table's int16). */
#define KJ_MAX_HAND 9
#define KJ_MAX_PACK_POINTS 500
#define KJ_MAX_BONUS 250

static kj_ctx *kj_new(size_t megabytes)
{
    kj_ctx *c = (kj_ctx *)calloc(1, sizeof(kj_ctx));
    if (!c) return NULL;
    /* Positions of few cards are many, cheap to recompute and rarely met again in
     * another solve: they live in a small hot area that stays in the L2 cache. Larger
     * positions go to the cold area, which keeps them across the solves of a batch. */
    size_t bytes = megabytes << 20, bucket = TL_WAYS * sizeof(kj_entry);
    size_t hot = tl_pow2_floor((bytes / 2 < ((size_t)2 << 20) ? bytes / 2 : ((size_t)2 << 20)) / bucket);
    size_t cold = tl_pow2_floor((bytes - hot * bucket) / bucket);
    c->tt = (kj_entry *)calloc((hot + cold) * TL_WAYS, sizeof(kj_entry));
    if (!c->tt) { free(c); return NULL; }
    c->hot_mask = hot - 1;
    c->cold_mask = cold - 1;
    c->nbuckets = hot + cold;
    c->trump = -1;
    c->bonus = -1;
    return c;
}

static void kj_free(kj_ctx *c)
{
    if (c) { free(c->tt); free(c); }
}

static size_t kj_tt_bytes(const kj_ctx *c) { return c->nbuckets * TL_WAYS * sizeof(kj_entry); }

static void kj_clear(kj_ctx *c) { memset(c->tt, 0, kj_tt_bytes(c)); }

/* Take the card rules: for a plain suit ([0]) and the trump suit ([1]), trick power by
 * rank (-1 for a rank outside the pack) and card points by rank, 16 entries each,
 * indexed by the rank field of a card. The binding has checked them: the same ranks
 * in the pack for both, their powers 0..k-1 (k <= 8) once each, points from 0 that
 * never decrease with power (the pruning of equivalent cards relies on it). */
static void kj_set_rules(kj_ctx *c, const int *power[2], const int *points[2])
{
    memset(c->rule_rank, 0, sizeof c->rule_rank);
    memset(c->rule_pts, 0, sizeof c->rule_pts);
    c->pack = 0;
    for (int t = 0; t < 2; t++)
        for (int r = 0; r < 16; r++) {
            int p = power[t][r];
            c->rule_pow[t][r] = (int8_t)p;
            if (p < 0) continue;
            c->rule_rank[t][p] = (uint8_t)r;
            c->rule_pts[t][p] = (int8_t)points[t][r];
            for (int s = 0; s < 4; s++) c->pack |= 1ull << (16 * s + r);
        }
    c->trump = -1; /* recompute the points by card */
    if (c->bonus >= 0) kj_clear(c);
}

static void kj_set_trump(kj_ctx *c, int trump, int bonus)
{
    if (c->bonus != bonus) {
        /* values in the table include the last-trick bonus they were solved with */
        if (c->bonus >= 0) kj_clear(c);
        c->bonus = bonus;
    }
    if (c->trump == trump) return;
    c->trump = trump;
    c->tmask = 0xFFu << (8 * trump);
    for (int s = 0; s < 4; s++)
        for (int p = 0; p < 8; p++) {
            int x = s * 8 + p;
            c->pts[x] = c->rule_pts[s == trump][p];
            c->beaters[x] = kj_above_tab[x] | (s == trump ? 0u : c->tmask);
        }
}

static inline int kj_card_to_internal(const kj_ctx *c, int card)
{
    int s = card >> 4;
    return 8 * s + c->rule_pow[s == c->trump][card & 15];
}

static inline int kj_card_to_external(const kj_ctx *c, int ic)
{
    int s = ic >> 3;
    return 16 * s + c->rule_rank[s == c->trump][ic & 7];
}

/* 52-card mask (cards of the pack) -> internal mask, for the current trump */
static uint32_t kj_to_internal(const kj_ctx *c, uint64_t m)
{
    uint32_t out = 0;
    for (; m; m &= m - 1) out |= 1u << kj_card_to_internal(c, tl_ctz64(m));
    return out;
}

/* Why a position cannot be given to the search (kj_check), 0 if it can. */
enum {
    KJ_OK,
    KJ_BAD_TRUMP,  /* trump not 0..3 */
    KJ_BAD_LEADER, /* leader not 0 (E) or 1 (D) */
    KJ_BAD_TRICK,  /* trick card neither -1 nor a card of the pack */
    KJ_NOT_PACK,   /* a hand holds a card outside the pack */
    KJ_OVERLAP,    /* a card in both hands, or the trick card in a hand */
    KJ_TOO_MANY,   /* a hand of more than KJ_MAX_HAND cards */
    KJ_SIZES,      /* hands that do not fit: equal at a trick boundary, the leader's one
                      card shorter once he has led */
};

static int kj_check(const kj_ctx *c, uint64_t e, uint64_t d, int trump, int leader, int trick)
{
    if (trump < 0 || trump > 3) return KJ_BAD_TRUMP;
    if (leader != 0 && leader != 1) return KJ_BAD_LEADER;
    if (trick < -1 || trick > 63 || (trick >= 0 && !((c->pack >> trick) & 1))) return KJ_BAD_TRICK;
    if ((e | d) & ~c->pack) return KJ_NOT_PACK;
    uint64_t t = trick >= 0 ? 1ull << trick : 0;
    if ((e & d) || ((e | d) & t)) return KJ_OVERLAP;
    int ne = tl_popc64(e), nd = tl_popc64(d);
    if (ne > KJ_MAX_HAND || nd > KJ_MAX_HAND) return KJ_TOO_MANY;
    int nl = leader ? nd : ne, nf = leader ? ne : nd;
    if (trick < 0 ? nl != nf : nl + 1 != nf) return KJ_SIZES;
    return KJ_OK;
}

static int kj_points_of(const kj_ctx *c, uint32_t h)
{
    int t = 0;
    while (h) { t += c->pts[kj_ctz(h)]; h &= h - 1; }
    return t;
}

static inline uint32_t kj_suit(int card) { return 0xFFu << (card & ~7); }
static inline uint32_t kj_above(int card) { return kj_above_tab[card]; }
static inline uint32_t kj_under(int card) { return kj_below_tab[card]; }

/* 1 if `second` beats `led` */
static inline int kj_beats(const kj_ctx *c, int led, int second)
{
    if ((led >> 3) == (second >> 3)) return second > led;
    return (c->tmask >> second) & 1;
}

/* The cards that beat `led` (kj_beats as a mask): higher cards of its suit, and every
 * trump when it is not one. */
static inline uint32_t kj_beaters(const kj_ctx *c, int led) { return c->beaters[led]; }

static inline uint32_t kj_replies(const kj_ctx *c, uint32_t hand, int led)
{
    uint32_t sm = kj_suit(led), follow = hand & sm;
    if (sm == c->tmask) {
        uint32_t higher = follow & kj_above(led);
        return higher ? higher : (follow ? follow : hand);
    }
    if (follow) return follow;
    return (hand & c->tmask) ? (hand & c->tmask) : hand;
}

/* Follower's candidates. Within a run of his legal cards of one suit with no live card
 * between them (the led card counts as live), every card wins the trick or every card
 * loses it, and card points never decrease with trick power. Playing the top of a
 * winning run, or the bottom of a losing one, is then at least as good as any other
 * card of the run: swapping two such cards changes no trick's winner, only who takes
 * the difference in points. So one card per run is enough. */
static inline uint32_t kj_follow_reps(const kj_ctx *c, uint32_t legal, uint32_t blockers, uint32_t win)
{
    uint32_t out = legal, live = legal | blockers, m = legal;
    while (m) {
        int x = kj_ctz(m);
        m &= m - 1;
        if ((win >> x) & 1) {
            uint32_t up = kj_above(x) & live;
            if (up && ((legal >> kj_ctz(up)) & 1)) out &= ~(1u << x);
        } else {
            uint32_t down = kj_under(x) & live;
            if (down && ((legal >> (tl_top32(down))) & 1)) out &= ~(1u << x);
        }
    }
    return out;
}

/* Leader's candidates. A run of his cards of one suit with no live card between them
 * meets the same replies whichever card of it is led. If no legal reply beats it, the
 * top card of the run is as good as any (the leader takes the trick, and the most
 * points); if every legal reply beats it, the bottom card is. Otherwise only cards of
 * equal points are interchangeable. */
static inline uint32_t kj_lead_reps(const kj_ctx *c, uint32_t hl, uint32_t hf)
{
    uint32_t out = hl, live = hl | hf, m = hl;
    while (m) {
        int x = kj_ctz(m);
        m &= m - 1;
        uint32_t up = kj_above(x) & live;
        uint32_t down = kj_under(x) & live;
        int run_up = up && ((hl >> kj_ctz(up)) & 1);
        int run_down = down && ((hl >> (tl_top32(down))) & 1);
        if (!run_up && !run_down) continue;
        uint32_t replies = kj_replies(c, hf, x);
        uint32_t beaters = replies & (kj_above(x) | (((c->tmask >> x) & 1) ? 0u : c->tmask));
        if (!beaters) {
            if (run_up) out &= ~(1u << x);
        } else if (beaters == replies) {
            if (run_down) out &= ~(1u << x);
        } else if (run_up && c->pts[kj_ctz(up)] == c->pts[x]) {
            out &= ~(1u << x);
        }
    }
    return out;
}

static inline uint64_t kj_hash(uint64_t key, unsigned tag)
{
    return tl_hash(key ^ (key >> 29) ^ ((uint64_t)tag << 58));
}

/* Entries of earlier solves stay valid (they depend only on the position): they are
 * replaced first, but still found. */
#define KJ_STALE(e, now, key) ((e)->age != (now))
#define KJ_TOUCH(e, now) ((e)->age = (uint8_t)(now))
TL_TT_DEFINE(kj_tt, kj_entry, KJ_STALE, KJ_TOUCH)

#define KJ_HOT_CARDS 10

static inline kj_entry *kj_bucket(kj_ctx *c, uint64_t key, unsigned tag, int ncards)
{
    uint64_t h = kj_hash(key, tag);
    if (ncards <= KJ_HOT_CARDS) return c->tt + TL_WAYS * (h & c->hot_mask);
    return c->tt + TL_WAYS * (c->hot_mask + 1 + (h & c->cold_mask));
}

static int kj_lead(kj_ctx *c, uint32_t hE, uint32_t hD, int leader, int rem, int alpha, int beta);

/* Move ordering. A follower first wins the trick (with points if he can, or with his
 * lowest trump when ruffing), else throws his cheapest card, keeping trumps. */
static inline int kj_follow_score(const kj_ctx *c, int lc, int r, uint32_t win)
{
    if ((win >> r) & 1) {
        if ((c->tmask >> r) & 1 && !((c->tmask >> lc) & 1)) return 48 - (r & 7);
        return 64 + c->pts[r];
    }
    return -c->pts[r] - (((c->tmask >> r) & 1) ? 20 : 0);
}

/* A leader first cashes plain cards the other hand cannot beat (most points first),
 * then leads cheap cards; trumps are kept for last. */
static inline int kj_lead_score(const kj_ctx *c, int m, uint32_t hf)
{
    uint32_t sm = kj_suit(m), follow = hf & sm, beat;
    if (sm == c->tmask) beat = follow & kj_above(m);
    else beat = follow ? (follow & kj_above(m)) : (hf & c->tmask);
    if (!beat) return ((c->tmask >> m) & 1) ? -c->pts[m] : 64 + c->pts[m];
    return -c->pts[m] - (((c->tmask >> m) & 1) ? 8 : 0);
}

/* kj_lead_reps in kj_lead_score's order, the table's best lead `ttbest` first, in one
 * pass over the leader's cards (each card's beating replies found once, for both);
 * returns their number. */
static inline int kj_lead_moves(const kj_ctx *c, uint32_t hl, uint32_t hf, int ttbest, int *moves, int *scores)
{
    uint32_t live = hl | hf, m = hl;
    int n = 0;
    while (m) {
        int x = kj_ctz(m);
        m &= m - 1;
        uint32_t up = kj_above(x) & live, down = kj_under(x) & live;
        int run_up = up && ((hl >> kj_ctz(up)) & 1);
        int run_down = down && ((hl >> (tl_top32(down))) & 1);
        uint32_t replies = kj_replies(c, hf, x), beat = replies & kj_beaters(c, x);
        if (!beat) {
            if (run_up) continue;
        } else if (beat == replies) {
            if (run_down) continue;
        } else if (run_up && c->pts[kj_ctz(up)] == c->pts[x]) {
            continue;
        }
        int trump = (c->tmask >> x) & 1, score;
        if (x == ttbest) score = 1000;
        else if (!beat) score = trump ? -c->pts[x] : 64 + c->pts[x];
        else score = -c->pts[x] - (trump ? 8 : 0);
        n = tl_insert(moves, scores, n, x, score);
    }
    return n;
}

/* E's points from a trick boundary with two cards in each hand, by direct enumeration
 * (no table, no window: the tree has at most eight leaves), counted for the leader:
 * he keeps the lead after the first trick when the reply does not beat it, and wins
 * the second if his last card is not beaten, or beats the follower's lead. */
static inline int kj_end2(const kj_ctx *c, uint32_t hE, uint32_t hD, int leader, int rem)
{
    uint32_t hl = leader ? hD : hE, hf = leader ? hE : hD;
    int l[2] = {kj_ctz(hl), tl_top32(hl)}, f[2] = {kj_ctz(hf), tl_top32(hf)};
    int best = -KJ_INF;
    for (int i = 0; i < 2; i++) {
        int a = l[i], a2 = l[1 - i];
        uint32_t win = kj_beaters(c, a), legal = kj_replies(c, hf, a);
        int reply = KJ_INF; /* the follower leaves the leader the least */
        for (int j = 0; j < 2; j++) {
            int b = f[j], b2 = f[1 - j];
            if (!((legal >> b) & 1)) continue;
            int p1 = c->pts[a] + c->pts[b], v;
            if ((win >> b) & 1) v = kj_beats(c, b2, a2) ? rem - p1 : 0;
            else v = p1 + (kj_beats(c, a2, b2) ? 0 : rem - p1);
            if (v < reply) reply = v;
        }
        if (reply > best) best = reply;
    }
    return leader == 0 ? best : rem - best;
}

/* E's points from a trick boundary with three cards in each hand, fail-soft in the
 * window (alpha, beta): every lead and every legal reply, then the last two tricks by
 * kj_end2 (one node in all, as a two-card position is). Cheaper than the general
 * search there, whose pruning of equivalent cards and move ordering do not pay for
 * themselves on so few cards; its result goes to the table as the general search's
 * would. */
static int kj_end3(kj_ctx *c, uint32_t hE, uint32_t hD, int leader, int rem, int alpha, int beta)
{
    int f = 1 - leader, maximizing = leader == 0;
    uint32_t hl = leader ? hD : hE, hf = leader ? hE : hD;
    int best = maximizing ? -KJ_INF : KJ_INF;
    for (uint32_t ml = hl; ml; ml &= ml - 1) {
        int a = kj_ctz(ml);
        /* the follower's best reply to a, cut off once the leader has better */
        int reply = maximizing ? KJ_INF : -KJ_INF, lo = alpha, hi = beta;
        for (uint32_t mf = kj_replies(c, hf, a); mf; mf &= mf - 1) {
            int b = kj_ctz(mf);
            int w = kj_beats(c, a, b) ? f : leader;
            int p = c->pts[a] + c->pts[b];
            uint32_t out = ~((1u << a) | (1u << b));
            int v = (w == 0 ? p : 0) + kj_end2(c, hE & out, hD & out, w, rem - p);
            if (maximizing) {
                if (v < reply) reply = v;
                if (reply < hi) hi = reply;
            } else {
                if (v > reply) reply = v;
                if (reply > lo) lo = reply;
            }
            if (lo >= hi) break;
        }
        if (maximizing) {
            if (reply > best) best = reply;
            if (best > alpha) alpha = best;
        } else {
            if (reply < best) best = reply;
            if (best < beta) beta = best;
        }
        if (alpha >= beta) break;
    }
    return best;
}

/* E's points from a position where `leader` has led `lc` (already out of his hand);
 * rem = points of both hands + lc + last-trick bonus. */
TL_DISPATCH static int kj_follow(kj_ctx *c, uint32_t hE, uint32_t hD, int leader, int lc, int rem, int alpha, int beta)
{
    int f = 1 - leader;
    uint32_t hf = f ? hD : hE, hl = f ? hE : hD;
    uint32_t legal = kj_replies(c, hf, lc), win = kj_beaters(c, lc);
    uint32_t reps = legal & (legal - 1) ? kj_follow_reps(c, legal, hl | (1u << lc), win) : legal;
    int moves[9], scores[9], n = 0;
    if (!(reps & (reps - 1))) { moves[0] = kj_ctz(reps); n = 1; reps = 0; }
    while (reps) {
        int r = kj_ctz(reps);
        reps &= reps - 1;
        n = tl_insert(moves, scores, n, r, kj_follow_score(c, lc, r, win));
    }
    int maximizing = (f == 0);
    int best = maximizing ? -KJ_INF : KJ_INF;
    for (int i = 0; i < n; i++) {
        int r = moves[i];
        int w = ((win >> r) & 1) ? f : leader;
        uint32_t nE = hE, nD = hD;
        if (f) nD &= ~(1u << r); else nE &= ~(1u << r);
        int p = c->pts[lc] + c->pts[r];
        if (!(nE | nD)) p = rem;
        int gE = (w == 0) ? p : 0;
        int v = gE + kj_lead(c, nE, nD, w, rem - p, alpha - gE, beta - gE);
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

/* E's points from a trick boundary where `leader` is to lead; rem = points of both
 * hands + last-trick bonus. Fail-soft alpha-beta. */
TL_DISPATCH static int kj_lead(kj_ctx *c, uint32_t hE, uint32_t hD, int leader, int rem, int alpha, int beta)
{
    if (!hE) return 0;
    if (rem <= alpha) return rem;
    if (beta <= 0) return 0;
    c->nodes++;
    uint32_t hl = leader ? hD : hE, hf = leader ? hE : hD;
    if (!(hE & (hE - 1))) {
        int a = kj_ctz(hl), b = kj_ctz(hf);
        int w = kj_beats(c, a, b) ? 1 - leader : leader;
        return w == 0 ? rem : 0;
    }
    if (kj_popc(hE) == 2) return kj_end2(c, hE, hD, leader, rem);
    if (tl_stop_poll(&c->stop)) return 0;
    uint64_t key = (uint64_t)hE | ((uint64_t)hD << 32);
    unsigned tag = 1u | ((unsigned)c->trump << 1) | ((unsigned)leader << 3);
    int lo = 0, hi = rem, ttbest = -1, ncards = kj_popc(hE) + kj_popc(hD);
    kj_entry *bucket = kj_bucket(c, key, tag, ncards);
    kj_entry *e = kj_tt_find(bucket, key, tag);
    if (e) {
        lo = e->lo;
        hi = e->hi;
        if (lo >= beta) return lo;
        if (hi <= alpha) return hi;
        if (lo == hi) return lo;
        if (lo > alpha) alpha = lo;
        if (hi < beta) beta = hi;
        ttbest = (int)e->best - 1;
    }
    if (ncards == 6) {
        int a0 = alpha, b0 = beta, v = kj_end3(c, hE, hD, leader, rem, alpha, beta);
        tl_bounds_update(a0, b0, v, &lo, &hi);
        kj_tt_put(bucket, key, tag, c->age, ncards, lo, hi, -1);
        return v;
    }
    int moves[9], scores[9], n = kj_lead_moves(c, hl, hf, ttbest, moves, scores);
    int a0 = alpha, b0 = beta;
    int maximizing = (leader == 0);
    int best = maximizing ? -KJ_INF : KJ_INF, bestm = -1;
    for (int i = 0; i < n; i++) {
        int m = moves[i];
        uint32_t nE = hE, nD = hD;
        if (leader) nD &= ~(1u << m); else nE &= ~(1u << m);
        int v;
        if (i == 0 || beta - alpha <= 1) v = kj_follow(c, nE, nD, leader, m, rem, alpha, beta);
        else if (maximizing) {
            v = kj_follow(c, nE, nD, leader, m, rem, alpha, alpha + 1);
            if (v > alpha && v < beta) v = kj_follow(c, nE, nD, leader, m, rem, v, beta);
        } else {
            v = kj_follow(c, nE, nD, leader, m, rem, beta - 1, beta);
            if (v > alpha && v < beta) v = kj_follow(c, nE, nD, leader, m, rem, alpha, v);
        }
        if (maximizing) {
            if (v > best) { best = v; bestm = m; }
            if (best > alpha) alpha = best;
        } else {
            if (v < best) { best = v; bestm = m; }
            if (best < beta) beta = best;
        }
        if (alpha >= beta) break;
    }
    if (c->stop.stopped) return best; /* the search was cut short: nothing to learn */
    tl_bounds_update(a0, b0, best, &lo, &hi);
    kj_tt_put(bucket, key, tag, c->age, ncards, lo, hi, bestm);
    return best;
}

/* E's points from any node (trick boundary if lc < 0) within the window. */
static int kj_search(kj_ctx *c, uint32_t hE, uint32_t hD, int leader, int lc, int rem, int alpha, int beta)
{
    if (lc < 0) return kj_lead(c, hE, hD, leader, rem, alpha, beta);
    return kj_follow(c, hE, hD, leader, lc, rem, alpha, beta);
}

/* E's exact points: one full-window search (the table keeps the bounds it learns, so
 * the zero-window tests of the principal variation that follow are cheap). */
static int kj_exact(kj_ctx *c, uint32_t hE, uint32_t hD, int leader, int lc, int rem)
{
    return kj_search(c, hE, hD, leader, lc, rem, -1, rem + 1);
}

typedef struct {
    uint32_t hE, hD;
    int leader, lc, rem;
} kj_node;

/* Set up an internal node from external (52-card) inputs; trick = -1 for none. */
static void kj_node_init(kj_ctx *c, kj_node *n, uint64_t e, uint64_t d, int trump, int leader, int trick, int bonus)
{
    kj_set_trump(c, trump, bonus);
    n->hE = kj_to_internal(c, e);
    n->hD = kj_to_internal(c, d);
    n->leader = leader;
    n->lc = trick < 0 ? -1 : kj_card_to_internal(c, trick);
    n->rem = kj_points_of(c, n->hE | n->hD) + (n->lc >= 0 ? c->pts[n->lc] : 0);
    if (n->hE | n->hD) n->rem += bonus;
}

/* E's exact points. */
static int kj_value(kj_ctx *c, uint64_t e, uint64_t d, int trump, int leader, int trick, int bonus)
{
    kj_node n;
    c->age++;
    kj_node_init(c, &n, e, d, trump, leader, trick, bonus);
    if (!(n.hE | n.hD) && n.lc < 0) return 0;
    return kj_exact(c, n.hE, n.hD, n.leader, n.lc, n.rem);
}

/* The node after the mover plays internal card m; returns E's points won by that play
 * (a completed trick) in *gain. */
static kj_node kj_child(const kj_ctx *c, const kj_node *n, int m, int *gain)
{
    kj_node ch = *n;
    *gain = 0;
    if (n->lc < 0) {
        if (n->leader) ch.hD &= ~(1u << m); else ch.hE &= ~(1u << m);
        ch.lc = m;
        return ch;
    }
    int f = 1 - n->leader;
    if (f) ch.hD &= ~(1u << m); else ch.hE &= ~(1u << m);
    int w = kj_beats(c, n->lc, m) ? f : n->leader;
    int p = c->pts[n->lc] + c->pts[m];
    if (!(ch.hE | ch.hD)) p = n->rem;
    ch.leader = w;
    ch.lc = -1;
    ch.rem = n->rem - p;
    *gain = (w == 0) ? p : 0;
    return ch;
}

static uint32_t kj_node_legal(const kj_ctx *c, const kj_node *n)
{
    if (n->lc < 0) return n->leader ? n->hD : n->hE;
    return kj_replies(c, n->leader ? n->hE : n->hD, n->lc);
}

static int kj_node_mover(const kj_node *n) { return n->lc < 0 ? n->leader : 1 - n->leader; }

/* Per-move values: for each legal card (external index written to cards[i]), E's
 * exact points if it is played. Returns the number of legal cards. */
static int kj_moves(kj_ctx *c, uint64_t e, uint64_t d, int trump, int leader, int trick, int bonus,
                    int *cards, int *values)
{
    kj_node n;
    c->age++;
    kj_node_init(c, &n, e, d, trump, leader, trick, bonus);
    uint32_t legal = kj_node_legal(c, &n);
    int k = 0;
    while (legal) {
        int m = kj_ctz(legal);
        legal &= legal - 1;
        int gain;
        kj_node ch = kj_child(c, &n, m, &gain);
        int v;
        if (!(ch.hE | ch.hD) && ch.lc < 0) v = 0;
        else v = kj_exact(c, ch.hE, ch.hD, ch.leader, ch.lc, ch.rem);
        cards[k] = kj_card_to_external(c, m);
        values[k] = v + gain;
        k++;
    }
    return k;
}

/* Principal variation from the node: writes external cards, returns their number and
 * E's exact value in *value. At each step the first legal card (in internal order,
 * which is by suit then trick power) that keeps the value is taken. */
static int kj_pv(kj_ctx *c, uint64_t e, uint64_t d, int trump, int leader, int trick, int bonus,
                 int *cards, int *value)
{
    kj_node n;
    c->age++;
    kj_node_init(c, &n, e, d, trump, leader, trick, bonus);
    if (!(n.hE | n.hD) && n.lc < 0) { *value = 0; return 0; }
    int v = kj_exact(c, n.hE, n.hD, n.leader, n.lc, n.rem);
    *value = v;
    int k = 0, acc = 0; /* acc: E points already won along the line */
    while ((n.hE | n.hD) || n.lc >= 0) {
        if (c->stop.stopped) break;
        int target = v - acc, maximizing = kj_node_mover(&n) == 0;
        uint32_t legal = kj_node_legal(c, &n);
        int chosen = -1;
        kj_node next = n;
        int gnext = 0;
        /* Candidates in the search's own move order (which depends only on the
         * position, so the line is the same whatever was solved before): the first
         * one tried usually keeps the value. Ties go to the lower card index. */
        int order[18], score[18], no = 0;
        uint32_t other = n.lc < 0 ? (n.leader ? n.hE : n.hD) : 0;
        while (legal) {
            int m = kj_ctz(legal), sc = n.lc < 0 ? kj_lead_score(c, m, other) : kj_follow_score(c, n.lc, m, kj_beaters(c, n.lc));
            legal &= legal - 1;
            no = tl_insert(order, score, no, m, sc);
        }
        for (int i = 0; i < no && chosen < 0; i++) {
            int m = order[i], gain;
            kj_node ch = kj_child(c, &n, m, &gain);
            int need = target - gain, ok;
            if (!(ch.hE | ch.hD) && ch.lc < 0) ok = (need == 0);
            else if (maximizing) ok = kj_search(c, ch.hE, ch.hD, ch.leader, ch.lc, ch.rem, need - 1, need) >= need;
            else ok = kj_search(c, ch.hE, ch.hD, ch.leader, ch.lc, ch.rem, need, need + 1) <= need;
            if (ok) { chosen = m; next = ch; gnext = gain; }
        }
        if (chosen < 0) break; /* cannot happen with a sound search */
        cards[k++] = kj_card_to_external(c, chosen);
        acc += gnext;
        n = next;
    }
    return k;
}

/* ---------------------------------------------------------------- PIMC decisions
 *
 * One card-play decision by perfect-information Monte Carlo: worlds (the hidden hand)
 * are drawn uniformly, and the candidate card of the greatest total points for the
 * mover over the worlds is chosen, ties to the earliest candidate (the binding passes
 * them in notation order). */

/* splitmix64: a small, fast generator with a 64-bit state; the same seed always gives
 * the same worlds. */
static inline uint64_t kj_rand(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in 0..n-1 (n >= 1), exactly: draws that would bias the result are rejected. */
static inline int kj_below(uint64_t *s, int n)
{
    uint64_t limit = UINT64_MAX - UINT64_MAX % (uint64_t)n;
    uint64_t r;
    do r = kj_rand(s); while (r >= limit);
    return (int)(r % (uint64_t)n);
}

/* `count` sets of `need` cards each, drawn uniformly among the cards of `pool` (a
 * partial Fisher-Yates shuffle of the pool in card order for each set), from `seed`. */
static void kj_sample(uint64_t pool, int need, int count, uint64_t seed, uint64_t *out)
{
    int cards[64], n = 0, a[64];
    for (uint64_t m = pool; m; m &= m - 1) cards[n++] = tl_ctz64(m);
    uint64_t s = seed;
    for (int w = 0; w < count; w++) {
        memcpy(a, cards, (size_t)n * sizeof(int));
        uint64_t h = 0;
        for (int i = 0; i < need; i++) {
            int j = i + kj_below(&s, n - i), t = a[i];
            a[i] = a[j];
            a[j] = t;
            h |= 1ull << a[i];
        }
        out[w] = h;
    }
}

/* The index of the j-th lowest card of m (j < popcount(m)). */
static inline int kj_nth(uint64_t m, int j)
{
    while (j--) m &= m - 1;
    return tl_ctz64(m);
}

/* Worlds of an earlier decision carried to a later one of the same player: each of
 * the `count` sets in[w] keeps its cards that are still in `pool` (the cards the other
 * hand may now hold) and is brought to `need` cards by removing cards of it drawn
 * uniformly one at a time, or adding cards of the rest of the pool drawn uniformly
 * one at a time, from `seed`.
 *
 * If in[w] was a uniform set of the earlier pool and `pool` is a subset of it, the
 * result is a uniform set of `need` cards of `pool`: any permutation of `pool` (the
 * earlier pool's other cards fixed) leaves the law of in[w] unchanged and commutes
 * with the steps above, so the law of the result is invariant under every
 * permutation of `pool`, and those reach every set of `need` of its cards. */
static void kj_carry(const uint64_t *in, int count, uint64_t pool, int need, uint64_t seed, uint64_t *out)
{
    uint64_t s = seed;
    for (int w = 0; w < count; w++) {
        uint64_t h = in[w] & pool;
        int n = tl_popc64(h);
        for (; n > need; n--) h &= ~(1ull << kj_nth(h, kj_below(&s, n)));
        for (; n < need; n++) {
            uint64_t rest = pool & ~h;
            h |= 1ull << kj_nth(rest, kj_below(&s, tl_popc64(rest)));
        }
        out[w] = h;
    }
}

/* The mover's points with internal card m from node n, fail-soft in the mover's
 * window (lo, hi): a result <= lo is an upper bound, >= hi a lower bound, anything
 * between exact. */
static int kj_mover_child(kj_ctx *c, const kj_node *n, int m, int lo, int hi)
{
    int gain, mover = kj_node_mover(n);
    kj_node ch = kj_child(c, n, m, &gain);
    int a = mover == 0 ? lo - gain : n->rem - hi - gain;
    int b = mover == 0 ? hi - gain : n->rem - lo - gain;
    int ev = (!(ch.hE | ch.hD) && ch.lc < 0) ? 0 : kj_search(c, ch.hE, ch.hD, ch.leader, ch.lc, ch.rem, a, b);
    ev += gain;
    return mover == 0 ? ev : n->rem - ev;
}

#define KJ_PIMC_MAX_WORLDS 100000

/* One PIMC decision. `mine` is the mover's hand, `known` the cards of the other hand
 * known to be there; each of `count` worlds adds `need` cards drawn from `pool`
 * (kj_sample with `seed`), or, when `preset` is not NULL, the cards preset[w] (drawn
 * by the caller, e.g. conditioned on the auction; `seed` is then unused). cands[0..k-1]: the candidate cards (external, legal, in the
 * order of ties). Returns the index of the candidate of the greatest total points of
 * the mover over the worlds, ties to the first; -1 on no memory.
 *
 * With exact != 0 every candidate is solved in every world; its points are written to
 * values[w * k + i] and its total to sums[i]. Otherwise (values unused, may be NULL)
 * the same choice is made with less work: each world's value V_w (the best
 * candidate's) is found together with an upper bound of every other candidate there
 * (or its exact value); a candidate's total is then the sum of V_w less its losses
 * against them, and the candidates are totalled one after another, the one most often
 * best first, each dropped as soon as its bounds show it cannot win. sums[i] is the
 * total of every candidate that was completed, -1 for one dropped. *searches counts
 * child searches.
 * Returns -2 (nothing solved) if a candidate is not a legal card of the mover. */
static int kj_pimc(kj_ctx *c, uint64_t mine, uint64_t known, uint64_t pool, int need, int count,
                   uint64_t seed, const uint64_t *preset, int trump, int leader, int trick,
                   int bonus, const int *cands, int k, int exact, int *values, long *sums,
                   long *searches)
{
    int mover = trick < 0 ? leader : 1 - leader;
    uint64_t *opp = (uint64_t *)malloc((size_t)count * sizeof(uint64_t));
    kj_node *nodes = (kj_node *)malloc((size_t)count * sizeof(kj_node));
    int *root = (int *)malloc((size_t)count * sizeof(int));
    int *bound = (int *)malloc((size_t)count * (size_t)k * sizeof(int));
    uint8_t *isexact = (uint8_t *)malloc((size_t)count * (size_t)k);
    int chosen = -1, im[KJ_MAX_HAND], votes[KJ_MAX_HAND];
    *searches = 0;
    if (!opp || !nodes || !root || !bound || !isexact) goto done;
    c->age++;
    if (preset) memcpy(opp, preset, (size_t)count * sizeof(uint64_t));
    else kj_sample(pool, need, count, seed, opp);
    for (int w = 0; w < count; w++) {
        uint64_t h = known | opp[w];
        kj_node_init(c, &nodes[w], mover == 0 ? mine : h, mover == 0 ? h : mine, trump, leader, trick, bonus);
    }
    uint32_t legal = kj_node_legal(c, &nodes[0]); /* the mover's: the same in every world */
    for (int i = 0; i < k; i++) {
        im[i] = kj_card_to_internal(c, cands[i]);
        votes[i] = 0;
        sums[i] = exact ? 0 : -1;
        if (!((legal >> im[i]) & 1)) { chosen = -2; goto done; }
    }
    /* each candidate's class (the cards equivalent to it in every world), and whether
     * the candidates' classes hold every legal card */
    uint32_t cls[KJ_MAX_HAND], covered = 0;
    int cover;
    {
        uint32_t others = kj_to_internal(c, known | pool) | (nodes[0].lc >= 0 ? 1u << nodes[0].lc : 0u);
        for (int i = 0; i < k; i++) cls[i] = 0;
        for (int s = 0; s < 4; s++) {
            uint32_t cur = 0;
            int last = -1;
            for (int p = 7; p >= 0; p--) {
                int x = 8 * s + p;
                int brk = (others >> x) & 1;
                if (!brk && ((legal >> x) & 1) && cur && c->pts[last] != c->pts[x]) brk = 1;
                if (brk && cur) {
                    for (int i = 0; i < k; i++) if ((cur >> im[i]) & 1) { cls[i] = cur; covered |= cur; }
                    cur = 0;
                }
                if (!((others >> x) & 1) && ((legal >> x) & 1)) { cur |= 1u << x; last = x; }
            }
            if (cur)
                for (int i = 0; i < k; i++) if ((cur >> im[i]) & 1) { cls[i] = cur; covered |= cur; }
        }
        cover = covered == legal;
    }
    if (exact) {
        for (int w = 0; w < count; w++)
            for (int i = 0; i < k; i++) {
                int v = kj_mover_child(c, &nodes[w], im[i], -1, nodes[w].rem + 1);
                values[w * k + i] = v;
                sums[i] += v;
                (*searches)++;
            }
        chosen = 0;
        for (int i = 1; i < k; i++)
            if (sums[i] > sums[chosen]) chosen = i;
        goto done;
    }
    /* Each world: the most promising candidate (the table's best lead there, else the
     * one best in most worlds so far, else the search's own order) is solved exactly,
     * the others are asked whether they beat the best value V so far (window
     * (V, V + 1)): if one does it is solved and becomes the best, else its fail-soft
     * result is kept as an upper bound. A candidate whose class holds no card the
     * search would try in this world (kj_lead_reps, kj_follow_reps: it is dominated
     * by a card of another class) is not searched: it is worth at most the world's
     * value. That needs the candidates' classes to hold every legal card. */
    long total_root = 0;
    for (int w = 0; w < count; w++) {
        const kj_node *n = &nodes[w];
        int *ub = &bound[w * k];
        uint8_t *ex = &isexact[w * k];
        uint32_t hl = n->leader ? n->hD : n->hE, hf = n->leader ? n->hE : n->hD, reps;
        int hint = -1;
        if (n->lc < 0) {
            uint64_t key = (uint64_t)n->hE | ((uint64_t)n->hD << 32);
            unsigned tag = 1u | ((unsigned)c->trump << 1) | ((unsigned)n->leader << 3);
            kj_entry *e = kj_tt_find(kj_bucket(c, key, tag, kj_popc(n->hE) + kj_popc(n->hD)), key, tag);
            if (e && e->best) hint = e->best - 1;
            reps = kj_lead_reps(c, hl, hf);
        } else {
            reps = kj_follow_reps(c, kj_replies(c, hf, n->lc), hl | (1u << n->lc), kj_beaters(c, n->lc));
        }
        int order[KJ_MAX_HAND], score[KJ_MAX_HAND], no = 0;
        for (int i = 0; i < k; i++) {
            int h = n->lc >= 0 ? kj_follow_score(c, n->lc, im[i], kj_beaters(c, n->lc)) : kj_lead_score(c, im[i], hf);
            no = tl_insert(order, score, no, i, im[i] == hint ? 1 << 20 : votes[i] * 1024 + h);
        }
        int first = order[0], best = kj_mover_child(c, n, im[first], -1, n->rem + 1);
        (*searches)++;
        ub[first] = best;
        ex[first] = 1;
        for (int j = 1; j < no; j++) {
            int i = order[j];
            if (cover && !(cls[i] & reps)) { ex[i] = 2; continue; } /* bound: V, below */
            int v = kj_mover_child(c, n, im[i], best, best + 1);
            (*searches)++;
            ex[i] = v > best;
            if (ex[i]) {
                v = kj_mover_child(c, n, im[i], v - 1, n->rem + 1);
                (*searches)++;
                best = v;
            }
            ub[i] = v;
        }
        for (int i = 0; i < k; i++) {
            if (ex[i] == 2) { ub[i] = best; ex[i] = 0; }
            votes[i] += ex[i] && ub[i] == best;
        }
        root[w] = best;
        total_root += best;
    }
    /* Then the candidates one after another, best in the most worlds first: a later
     * one may lose no more against the worlds' values than the best so far did (one
     * point less if it comes after it in the order of ties). Its bounds give the loss
     * it has at least; it is dropped if that is already too much, else each world
     * not solved exactly is searched for only what can still matter (more than its
     * bound less the loss it can still afford, and then exactly how much). */
    int corder[KJ_MAX_HAND], cscore[KJ_MAX_HAND], nc = 0;
    for (int i = 0; i < k; i++) nc = tl_insert(corder, cscore, nc, i, votes[i] * 16 + (k - i));
    long best_sum = 0;
    for (int j = 0; j < nc; j++) {
        int i = corder[j];
        long allowed = chosen < 0 ? LONG_MAX / 2 : total_root - best_sum - (i < chosen ? 0 : 1);
        long loss = 0;
        for (int w = 0; w < count; w++) loss += root[w] - bound[w * k + i];
        int alive = loss <= allowed;
        for (int w = 0; w < count && alive; w++) {
            if (isexact[w * k + i]) continue;
            /* worth at most u: dropped when v <= cut, so search (cut, u + 1) */
            int u = bound[w * k + i];
            long cut = (long)u - (allowed - loss) - 1;
            int lo = cut < -1 ? -1 : (int)cut;
            int v = kj_mover_child(c, &nodes[w], im[i], lo, u + 1);
            (*searches)++;
            if (v <= lo) alive = 0; /* never when lo = -1 */
            else loss += u - v;
        }
        if (!alive) continue;
        sums[i] = total_root - loss;
        chosen = i;
        best_sum = sums[i];
    }
done:
    free(opp); free(nodes); free(root); free(bound); free(isexact);
    return chosen;
}

/* ---------------------------------------------------------------- optimal DAG
 *
 * Every line of optimal play from a node, as a DAG of nodes merged by position
 * (both hands, leader, card led to the unfinished trick), enumerated breadth-first.
 * At each node every legal card gets its exact value (the node's own value is known
 * from its parent, which bounds each child's and narrows its search window); the
 * node's legal cards are split into classes of equivalent cards (one suit, equal
 * points, no card of the other hand or of the trick between them, walking the suit
 * from its strongest card down; the mover's cards that are not legal are skipped);
 * every card of each optimal class (or its weakest card only, with per_class) is
 * followed. Node indices are in order of discovery; a node's edges and its children
 * follow the classes' order (suits S H D C, strongest card first). Output is in the
 * 52-card external form. */

typedef struct {
    int nn, ncap;                 /* nodes */
    uint32_t *iE, *iD;            /* internal hands */
    int8_t *lead, *ilc;           /* leader; internal card led to the trick or -1 */
    int16_t *value, *rem, *depth; /* E's exact points from here; points left; cards played */
    int8_t *crit;                 /* 1 = critical: several classes, one optimal */
    int *mstart;                  /* first move of each node (mstart[nn] = nm at the end) */
    int nm, mcap;                 /* moves: every legal card of every expanded node */
    int8_t *mcard;                /* external card, ascending within a node */
    int16_t *mvalue;              /* the mover's points from here with it */
    int ne, ecap;                 /* edges */
    int *eu, *ev;
    int8_t *ecard, *ewon;         /* external card; trick winner or -1 */
    int16_t *evalue, *eloss, *epts;
    uint64_t *eclass;             /* external mask of the card's class */
    int hcap;                     /* open-addressing map position -> node index, -1 = empty */
    int *hidx;
} kj_tree;

static void kj_tree_free(kj_tree *t)
{
    if (!t) return;
    free(t->iE); free(t->iD); free(t->lead); free(t->ilc); free(t->value); free(t->rem);
    free(t->depth); free(t->crit); free(t->mstart);
    free(t->mcard); free(t->mvalue);
    free(t->eu); free(t->ev); free(t->ecard); free(t->ewon); free(t->evalue); free(t->eloss);
    free(t->epts); free(t->eclass);
    free(t->hidx);
    free(t);
}

#define KJ_GROW(p, n) do { void *q_ = realloc((p), (size_t)(n) * sizeof(*(p))); if (!q_) return -1; (p) = q_; } while (0)

static int kj_tree_grow_nodes(kj_tree *t)
{
    int n = t->ncap ? 2 * t->ncap : 1024;
    KJ_GROW(t->iE, n); KJ_GROW(t->iD, n); KJ_GROW(t->lead, n); KJ_GROW(t->ilc, n);
    KJ_GROW(t->value, n); KJ_GROW(t->rem, n); KJ_GROW(t->depth, n); KJ_GROW(t->crit, n);
    KJ_GROW(t->mstart, n + 1);
    t->ncap = n;
    return 0;
}

static int kj_tree_grow_moves(kj_tree *t)
{
    int n = t->mcap ? 2 * t->mcap : 4096;
    KJ_GROW(t->mcard, n); KJ_GROW(t->mvalue, n);
    t->mcap = n;
    return 0;
}

static int kj_tree_grow_edges(kj_tree *t)
{
    int n = t->ecap ? 2 * t->ecap : 2048;
    KJ_GROW(t->eu, n); KJ_GROW(t->ev, n); KJ_GROW(t->ecard, n); KJ_GROW(t->ewon, n);
    KJ_GROW(t->evalue, n); KJ_GROW(t->eloss, n); KJ_GROW(t->epts, n); KJ_GROW(t->eclass, n);
    t->ecap = n;
    return 0;
}

static inline uint32_t kj_tree_hash(uint32_t hE, uint32_t hD, int leader, int lc)
{
    uint64_t k = (uint64_t)hE | ((uint64_t)hD << 32);
    return (uint32_t)(kj_hash(k, (unsigned)(leader | ((lc + 1) << 1))) >> 32);
}

static int kj_tree_rehash(kj_tree *t)
{
    int n = t->hcap ? 2 * t->hcap : 4096;
    int *h = (int *)malloc((size_t)n * sizeof(int));
    if (!h) return -1;
    memset(h, 0xFF, (size_t)n * sizeof(int));
    for (int i = 0; i < t->nn; i++) {
        uint32_t j = kj_tree_hash(t->iE[i], t->iD[i], t->lead[i], t->ilc[i]) & (uint32_t)(n - 1);
        while (h[j] >= 0) j = (j + 1) & (uint32_t)(n - 1);
        h[j] = i;
    }
    free(t->hidx);
    t->hidx = h;
    t->hcap = n;
    return 0;
}

/* The index of the node, added (with its E value and depth) if new; -1 on no memory. */
static int kj_tree_node(kj_tree *t, const kj_node *n, int value, int depth)
{
    if (2 * (t->nn + 1) > t->hcap && kj_tree_rehash(t)) return -1;
    uint32_t mask = (uint32_t)(t->hcap - 1);
    uint32_t j = kj_tree_hash(n->hE, n->hD, n->leader, n->lc) & mask;
    for (;; j = (j + 1) & mask) {
        int i = t->hidx[j];
        if (i < 0) break;
        if (t->iE[i] == n->hE && t->iD[i] == n->hD && t->lead[i] == n->leader && t->ilc[i] == n->lc)
            return i;
    }
    if (t->nn == t->ncap && kj_tree_grow_nodes(t)) return -1;
    int i = t->nn++;
    t->hidx[j] = i;
    t->iE[i] = n->hE;
    t->iD[i] = n->hD;
    t->lead[i] = (int8_t)n->leader;
    t->ilc[i] = (int8_t)n->lc;
    t->value[i] = (int16_t)value;
    t->rem[i] = (int16_t)n->rem;
    t->depth[i] = (int16_t)depth;
    t->crit[i] = 0;
    return i;
}

static uint64_t kj_to_external(const kj_ctx *c, uint32_t m)
{
    uint64_t out = 0;
    while (m) { out |= 1ull << kj_card_to_external(c, kj_ctz(m)); m &= m - 1; }
    return out;
}

/* E's exact points from child `ch` of a node of E value `v` reached by the mover's
 * card that won E `gain` points: the child is worth at most v - gain to E if E moved,
 * at least that if D did, which narrows the window. */
static int kj_tree_child_value(kj_ctx *c, const kj_node *ch, int mover, int v, int gain)
{
    if (!(ch->hE | ch->hD) && ch->lc < 0) return 0;
    int bound = v - gain;
    if (mover == 0) return kj_search(c, ch->hE, ch->hD, ch->leader, ch->lc, ch->rem, -1, bound + 1);
    return kj_search(c, ch->hE, ch->hD, ch->leader, ch->lc, ch->rem, bound - 1, ch->rem + 1);
}

/* Enumerate the optimal DAG from a node into *out (allocated here; free it with
 * kj_tree_free). Returns the number of nodes, -1 when it would exceed max_nodes,
 * -2 when stopped, -3 when out of memory. */
static int kj_tree_build(kj_ctx *c, uint64_t e, uint64_t d, int trump, int leader, int trick, int bonus,
                         int per_class, int max_nodes, kj_tree **out)
{
    kj_tree *t = (kj_tree *)calloc(1, sizeof(kj_tree));
    *out = t;
    if (!t) return -3;
    kj_node root;
    c->age++;
    kj_node_init(c, &root, e, d, trump, leader, trick, bonus);
    int v0 = (!(root.hE | root.hD) && root.lc < 0) ? 0 : kj_exact(c, root.hE, root.hD, root.leader, root.lc, root.rem);
    if (kj_tree_node(t, &root, v0, 0) < 0) return -3;
    for (int i = 0; i < t->nn; i++) {
        if (tl_stop_poll(&c->stop)) return -2;
        kj_node n;
        n.hE = t->iE[i]; n.hD = t->iD[i]; n.leader = t->lead[i]; n.lc = t->ilc[i]; n.rem = t->rem[i];
        int v = t->value[i], depth = t->depth[i];
        t->mstart[i] = t->nm;
        if (!(n.hE | n.hD) && n.lc < 0) continue;
        int mover = kj_node_mover(&n);
        uint32_t legal = kj_node_legal(c, &n);
        int mval[32], best = -KJ_INF;
        /* every legal card's value for the mover, and the moves in external order */
        int negext[18], val[18], k = 0;
        for (uint32_t m = legal; m; m &= m - 1) {
            int x = kj_ctz(m), gain;
            kj_node ch = kj_child(c, &n, x, &gain);
            int ev = gain + kj_tree_child_value(c, &ch, mover, v, gain);
            mval[x] = mover == 0 ? ev : n.rem - ev;
            if (mval[x] > best) best = mval[x];
            /* ascending external card: the key is minus the card */
            k = tl_insert(val, negext, k, mval[x], -kj_card_to_external(c, x));
        }
        while (t->nm + k > t->mcap) if (kj_tree_grow_moves(t)) return -3;
        for (int j = 0; j < k; j++) {
            t->mcard[t->nm] = (int8_t)-negext[j];
            t->mvalue[t->nm++] = (int16_t)val[j];
        }
        /* classes of equivalent cards, in order: suit, then strongest card first */
        uint32_t others = (mover ? n.hE : n.hD) | (n.lc >= 0 ? 1u << n.lc : 0u);
        uint32_t classes[18];
        int ncls = 0, nopt = 0, last = -1;
        for (int s = 0; s < 4; s++) {
            uint32_t cur = 0;
            for (int p = 7; p >= 0; p--) {
                int x = 8 * s + p;
                if ((others >> x) & 1) {
                    if (cur) { classes[ncls++] = cur; cur = 0; }
                } else if ((legal >> x) & 1) {
                    if (cur && c->pts[last] != c->pts[x]) { classes[ncls++] = cur; cur = 0; }
                    cur |= 1u << x;
                    last = x;
                }
            }
            if (cur) classes[ncls++] = cur;
        }
        for (int q = 0; q < ncls; q++)
            if (mval[tl_top32(classes[q])] == best) nopt++;
        t->crit[i] = (int8_t)(ncls > 1 && nopt == 1);
        for (int q = 0; q < ncls; q++) {
            uint32_t cls = classes[q];
            if (mval[tl_top32(cls)] != best) continue;
            uint64_t ecls = kj_to_external(c, cls);
            /* strongest first; per_class keeps only the weakest card */
            for (uint32_t m = per_class ? (cls & -cls) : cls; m;) {
                int x = tl_top32(m);
                m &= ~(1u << x);
                int gain;
                kj_node ch = kj_child(c, &n, x, &gain);
                int ev = mover == 0 ? mval[x] : n.rem - mval[x];
                int before = t->nn;
                int ci = kj_tree_node(t, &ch, ev - gain, depth + 1);
                if (ci < 0) return -3;
                if (t->nn > before && t->nn > max_nodes) return -1;
                if (t->ne == t->ecap && kj_tree_grow_edges(t)) return -3;
                int ei = t->ne++;
                t->eu[ei] = i;
                t->ev[ei] = ci;
                t->ecard[ei] = (int8_t)kj_card_to_external(c, x);
                t->evalue[ei] = (int16_t)mval[x];
                t->eloss[ei] = (int16_t)(best - mval[x]);
                if (n.lc >= 0) {
                    t->ewon[ei] = (int8_t)(kj_beats(c, n.lc, x) ? 1 - n.leader : n.leader);
                    t->epts[ei] = (int16_t)(n.rem - ch.rem);
                } else {
                    t->ewon[ei] = -1;
                    t->epts[ei] = 0;
                }
                t->eclass[ei] = ecls;
            }
        }
    }
    t->mstart[t->nn] = t->nm;
    return t->nn;
}

#endif
