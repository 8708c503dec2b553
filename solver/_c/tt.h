/* The transposition table both compiled cores keep.
 *
 * A table is an array of buckets of TL_WAYS entries, found by tl_hash of the key. A
 * game defines its entry type with at least these fields:
 *
 *     uint64_t key;    the position (the game packs what it needs into 64 bits)
 *     tag;             what else must match; 0 only in an empty entry
 *     lo, hi;          bounds on the searcher's value from this position
 *     uint8_t best;    best move + 1; 0 = none
 *     uint8_t ncards;  cards still held: deeper positions are kept on replacement
 *
 * and instantiates the look-up and the store for it with
 *
 *     TL_TT_DEFINE(prefix, entry_t, STALE, TOUCH)
 *
 * where STALE(e, now, key) says that entry e is of no more use to the solve `now` that
 * stores `key` (it belongs to an earlier solve or deal, say: it is replaced first) and
 * TOUCH(e, now) marks it used by this one. That defines
 *
 *     entry_t *prefix_find(entry_t *bucket, uint64_t key, unsigned tag)
 *     void prefix_put(entry_t *bucket, uint64_t key, unsigned tag, unsigned now,
 *                     int ncards, int lo, int hi, int best)
 *
 * prefix_put narrows the bounds of the entry already there, or replaces, in order, an
 * empty entry, a stale one, the one with the fewest cards.
 */
#ifndef TL_TT_H
#define TL_TT_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#define TL_WAYS 4

/* Memory for a table, zeroed: on Linux in huge pages where the system grants them
 * (madvise). A search reads its tables all over, so with pages of 4 KiB most look-ups
 * also miss the TLB, which in a virtual machine costs a walk of two page tables: the
 * Carabin core took 21-24% less CPU in huge pages, with the same nodes (five slow
 * 4-player deals and seed 2029's 200; tools/carabin_core_driver.py). `fault`: touch every page now (the
 * system zeroes each as it maps it), so that no search pays for it; a table cleared
 * right away needs no such touch. tl_table_free takes the size given. (The Klabberjass
 * core keeps calloc: its searches are small, and gained nothing.) */
#define TL_HUGE ((size_t)2 << 20)
static inline size_t tl_table_len(size_t bytes) { return (bytes + 4095) & ~(size_t)4095; }

static inline void *tl_table_alloc(size_t bytes, int fault)
{
#if defined(__linux__)
    size_t len = tl_table_len(bytes), all = len + TL_HUGE;
    char *raw = (char *)mmap(NULL, all, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == (char *)MAP_FAILED) return NULL;
    /* from a boundary of a huge page on, the rest given back */
    char *p = (char *)(((uintptr_t)raw + TL_HUGE - 1) & ~(uintptr_t)(TL_HUGE - 1));
    if (p > raw) munmap(raw, (size_t)(p - raw));
    if (raw + all > p + len) munmap(p + len, (size_t)(raw + all - (p + len)));
#ifdef MADV_HUGEPAGE
    madvise(p, len, MADV_HUGEPAGE);
#endif
    if (fault)
        for (size_t at = 0; at < len; at += 4096) ((volatile char *)p)[at] = 0;
    return p;
#else
    (void)fault;
    return calloc(1, bytes);
#endif
}

static inline void tl_table_free(void *p, size_t bytes)
{
    if (!p) return;
#if defined(__linux__)
    munmap(p, tl_table_len(bytes));
#else
    (void)bytes;
    free(p);
#endif
}

/* Mix a 64-bit key so that its low bits (the bucket index) depend on all of it. */
static inline uint64_t tl_hash(uint64_t x)
{
    uint64_t h = x * 0x9E3779B97F4A7C15ull;
    return h ^ (h >> 29) ^ (h >> 47);
}

/* The largest power of two not above n (1 for n < 2): table sizes are powers of two
 * so that a bucket is found with a mask. */
static inline size_t tl_pow2_floor(size_t n)
{
    size_t p = 1;
    while (p <= n / 2) p *= 2;
    return p;
}

/* Narrow the bounds [*lo, *hi] of a position with the result v of a fail-soft search
 * of the window (alpha, beta): v <= alpha is an upper bound, v >= beta a lower one,
 * anything between is the exact value. */
static inline void tl_bounds_update(int alpha, int beta, int v, int *lo, int *hi)
{
    if (v <= alpha) {
        if (v < *hi) *hi = v;
    } else if (v >= beta) {
        if (v > *lo) *lo = v;
    } else {
        *lo = *hi = v;
    }
    if (*lo > *hi) *lo = *hi; /* cannot happen with a sound search; keep entries sane */
}

#define TL_TT_DEFINE(P, E, STALE, TOUCH)                                                     \
    static inline E *P##_find(E *b, uint64_t key, unsigned tag)                              \
    {                                                                                        \
        for (int i = 0; i < TL_WAYS; i++)                                                    \
            if (b[i].key == key && b[i].tag == tag) return &b[i];                            \
        return NULL;                                                                         \
    }                                                                                        \
                                                                                             \
    static inline void P##_put(E *b, uint64_t key, unsigned tag, unsigned now, int ncards,   \
                               int lo, int hi, int best)                                     \
    {                                                                                        \
        E *victim = b;                                                                       \
        int vscore = 1 << 30;                                                                \
        for (int i = 0; i < TL_WAYS; i++) {                                                  \
            E *e = &b[i];                                                                    \
            if (e->key == key && e->tag == tag) {                                            \
                if (lo > e->lo) e->lo = (__typeof__(e->lo))lo;                               \
                if (hi < e->hi) e->hi = (__typeof__(e->hi))hi;                               \
                if (best >= 0) e->best = (uint8_t)(best + 1);                                \
                TOUCH(e, now);                                                               \
                return;                                                                      \
            }                                                                                \
            int score = e->tag == 0 ? -2 : STALE(e, now, key) ? -1 : e->ncards;              \
            if (score < vscore) {                                                            \
                vscore = score;                                                              \
                victim = e;                                                                  \
            }                                                                                \
        }                                                                                    \
        victim->key = key;                                                                   \
        victim->tag = (__typeof__(victim->tag))tag;                                          \
        victim->lo = (__typeof__(victim->lo))lo;                                             \
        victim->hi = (__typeof__(victim->hi))hi;                                             \
        victim->best = (uint8_t)(best + 1);                                                  \
        victim->ncards = (uint8_t)ncards;                                                    \
        TOUCH(victim, now);                                                                  \
    }

#endif
