/* Bit helpers both compiled cores use on their card masks. */
#ifndef TL_BITS_H
#define TL_BITS_H

#include <stdint.h>

/* index of the lowest set bit (x != 0) */
static inline int tl_ctz32(uint32_t x) { return __builtin_ctz(x); }
static inline int tl_ctz64(uint64_t x) { return __builtin_ctzll(x); }
/* index of the highest set bit (x != 0) */
static inline int tl_top32(uint32_t x) { return 31 - __builtin_clz(x); }
static inline int tl_top64(uint64_t x) { return 63 - __builtin_clzll(x); }
/* Number of set bits. A portable x86-64 build (no TRICKLAB_MARCH, see setup.py) has no
   popcount instruction; with GCC and glibc, TL_DISPATCH on a search's recursive functions
   compiles them twice, with and without it, and the loader picks the one the processor
   runs (function multiversioning). Elsewhere an inline bit-parallel count stands in for
   the slow library call. */
#if defined(__x86_64__) && !defined(__POPCNT__) && defined(__GLIBC__) && defined(__GNUC__) && !defined(__clang__)
#define TL_DISPATCH __attribute__((target_clones("popcnt", "default")))
#else
#define TL_DISPATCH
#endif

#if defined(__POPCNT__) || !defined(__x86_64__) || defined(__GLIBC__) && defined(__GNUC__) && !defined(__clang__)
static inline int tl_popc32(uint32_t x) { return __builtin_popcount(x); }
static inline int tl_popc64(uint64_t x) { return __builtin_popcountll(x); }
#else
static inline int tl_popc64(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (int)((x * 0x0101010101010101ull) >> 56);
}
static inline int tl_popc32(uint32_t x) { return tl_popc64(x); }
#endif

#endif
