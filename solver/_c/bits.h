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
/* number of set bits */
static inline int tl_popc32(uint32_t x) { return __builtin_popcount(x); }
static inline int tl_popc64(uint64_t x) { return __builtin_popcountll(x); }

#endif
