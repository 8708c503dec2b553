/* Move ordering shared by the compiled cores: a short list kept sorted as it grows. */
#ifndef TL_ORDER_H
#define TL_ORDER_H

/* Insert `item` with `key` into items[0..n) kept in descending key order; equal keys
 * keep the order they were inserted in (so ties go to the first one generated).
 * Returns the new length n + 1. The lists are a hand's worth of cards: insertion sort
 * is the fastest there is for them. */
static inline int tl_insert(int *items, int *keys, int n, int item, int key)
{
    int i = n;
    while (i > 0 && keys[i - 1] < key) {
        items[i] = items[i - 1];
        keys[i] = keys[i - 1];
        i--;
    }
    items[i] = item;
    keys[i] = key;
    return n + 1;
}

/* The same with a sentinel: keys[0] is above every key and keys[i + 1] is items[i]'s,
 * so that each step makes one test (for a search's inner loop). */
static inline int tl_insert_s(int *items, int *keys, int n, int item, int key)
{
    int i = n + 1;
    while (keys[i - 1] < key) {
        keys[i] = keys[i - 1];
        items[i - 1] = items[i - 2];
        i--;
    }
    keys[i] = key;
    items[i - 1] = item;
    return n + 1;
}

#endif
