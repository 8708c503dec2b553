/* Count the classes of a Carabin world's positions that play alike.
 *
 * A world (the left hands or the right hands of a deal) is played in its own tricks; the
 * other world reads of it only the points the bidder takes in each trick and who takes
 * it (who leads next). Two positions of one world (the cards left in each hand) are alike
 * when, for every leader, their tricks are the same game: the same side to move at each
 * node, the same set of alike children, and at the trick's end the same winner, the same
 * points for the bidder and alike positions after it. Then every position of the whole
 * deal keeps its value when one world's position is replaced by an alike one.
 *
 * This tool computes those classes (by hash-consing every trick's tree, bottom up) for
 * every position reachable in each world of a deal and prints, by cards a hand, how many
 * positions and how many classes there are.
 *
 *   python tools/carabin_core_driver.py dump --players 6 --seed 3301 --deals 80 \
 *       | tools/world_classes DEAL...
 *
 * (cc -O2 -o build/world_classes tools/world_classes.c). DEAL: the deals' numbers in
 * the dump (from 0). With `--pairs FILE` (one deal): FILE lists positions of that deal,
 * a line each: world 0's cards, world 1's (64-bit card sets as the core holds them: with
 * the default ranks, whose powers are the ranks, the same bits as the dump's hands), the
 * leader and the kind to play, as tools/tried/pair_positions.patch writes the boundaries
 * two tricks in that a search searches (PX_DUMP=FILE); it prints how many are distinct,
 * and how many up to the classes of their two worlds.
 *
 * Measured (6 players, seed 3301, the core's slow exact searches): #48, classes of three
 * cards a hand 4,096 -> 1,146 (L) and 2,724 (R), of two 46,656 -> 5,332 and 11,777; its
 * proof's 87,443 distinct boundaries two tricks in are 43,383 up to classes. #56: three
 * cards 4,096 -> 3,066 and 3,336; its 253,419 boundaries are 234,726 up to classes. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXP 6

static int power_by_rank[16], points_by_rank[16];
static int n, bidder, trump;
static int cards[MAXP][4]; /* each seat's cards of the world, as dealt */
static int ncards[MAXP];

/* hash-consing: keys are short int arrays, ids are dense */
typedef struct {
    uint32_t *slot; /* id + 1, 0 empty */
    uint32_t mask;
    int32_t *pool;  /* keys: len, then ints */
    uint64_t *at;   /* id -> offset in pool */
    size_t used, cap, ids, idcap;
} hcons;

static uint64_t hkey(const int32_t *k, int len)
{
    uint64_t h = 0x9E3779B97F4A7C15ull * (uint64_t)(len + 1);
    for (int i = 0; i < len; i++) h = (h ^ (uint32_t)k[i]) * 0xBF58476D1CE4E5B9ull, h ^= h >> 29;
    return h;
}

static void hc_init(hcons *t, int bits)
{
    t->mask = (1u << bits) - 1;
    t->slot = calloc((size_t)t->mask + 1, 4);
    t->cap = 1 << 24;
    t->pool = malloc(t->cap * 4);
    t->idcap = 1 << 20;
    t->at = malloc(t->idcap * 8);
    t->used = t->ids = 0;
}

static uint32_t hc_id(hcons *t, const int32_t *k, int len)
{
    uint32_t i = (uint32_t)hkey(k, len) & t->mask;
    for (;; i = (i + 1) & t->mask) {
        uint32_t s = t->slot[i];
        if (!s) break;
        const int32_t *p = t->pool + t->at[s - 1];
        if (p[0] == len && !memcmp(p + 1, k, (size_t)len * 4)) return s - 1;
    }
    if (t->used + len + 1 > t->cap) t->pool = realloc(t->pool, (t->cap *= 2) * 4);
    if (t->ids == t->idcap) t->at = realloc(t->at, (t->idcap *= 2) * 8);
    t->at[t->ids] = t->used;
    t->pool[t->used++] = len;
    memcpy(t->pool + t->used, k, (size_t)len * 4);
    t->used += len;
    t->slot[i] = (uint32_t)++t->ids;
    if (t->ids * 2 > t->mask) {
        fprintf(stderr, "hash table full\n");
        exit(2);
    }
    return (uint32_t)t->ids - 1;
}

static hcons H;
static uint32_t *cls; /* state (4 bits a seat) -> class id + 1 */

static int power_of(int x) { return power_by_rank[x & 15] + ((x >> 4) == trump ? 16 : 0); }

static uint32_t class_of(uint32_t st);

/* the node of the trick from leader x with d cards played (played[]), state st */
static uint32_t trick_node(uint32_t st, int x, int d, const int *played, const int *pidx)
{
    int32_t key[8];
    if (d == n) {
        int led = played[0] >> 4, win = 0, best = -1, pts = 0;
        for (int i = 0; i < n; i++) {
            int c = played[i];
            pts += points_by_rank[c & 15];
            int p = ((c >> 4) == trump) ? power_of(c) : ((c >> 4) == led ? power_of(c) : -1);
            if (p > best) best = p, win = (x + i) % n;
        }
        uint32_t next = st;
        for (int i = 0; i < n; i++) next &= ~(1u << (4 * ((x + i) % n) + pidx[i]));
        key[0] = -1;
        key[1] = win;
        key[2] = win == bidder ? pts : 0;
        key[3] = (int32_t)class_of(next);
        return hc_id(&H, key, 4);
    }
    int s = (x + d) % n;
    int kids[4], nk = 0;
    int pl[MAXP], pi[MAXP];
    memcpy(pl, played, sizeof(int) * d);
    memcpy(pi, pidx, sizeof(int) * d);
    for (int j = 0; j < ncards[s]; j++) {
        if (!((st >> (4 * s + j)) & 1)) continue;
        pl[d] = cards[s][j];
        pi[d] = j;
        kids[nk++] = (int)trick_node(st, x, d + 1, pl, pi);
    }
    /* a set of children: sorted, once each */
    for (int a = 1; a < nk; a++)
        for (int b = a; b > 0 && kids[b - 1] > kids[b]; b--) {
            int t = kids[b];
            kids[b] = kids[b - 1];
            kids[b - 1] = t;
        }
    int m = 0;
    for (int a = 0; a < nk; a++)
        if (!m || kids[m - 1] != kids[a]) kids[m++] = kids[a];
    if (m == 1) return (uint32_t)kids[0]; /* a forced card is no node */
    key[0] = -2 - (s == bidder);
    for (int a = 0; a < m; a++) key[1 + a] = kids[a];
    return hc_id(&H, key, 1 + m);
}

static uint32_t class_of(uint32_t st)
{
    if (cls[st]) return cls[st] - 1;
    int32_t key[MAXP + 1];
    if (!st) {
        key[0] = -9;
        uint32_t id = hc_id(&H, key, 1);
        cls[st] = id + 1;
        return id;
    }
    key[0] = -10;
    for (int x = 0; x < n; x++) key[1 + x] = (int32_t)trick_node(st, x, 0, NULL, NULL);
    uint32_t id = hc_id(&H, key, 1 + n);
    cls[st] = id + 1;
    return id;
}

int main(int argc, char **argv)
{
    for (int i = 0; i < 16; i++)
        if (scanf("%d", &power_by_rank[i]) != 1) return 2;
    for (int i = 0; i < 16; i++)
        if (scanf("%d", &points_by_rank[i]) != 1) return 2;
    int want[64], nw = 0;
    const char *pairs = NULL;
    for (int i = 1; i < argc && nw < 64; i++) {
        if (!strcmp(argv[i], "--pairs") && i + 1 < argc) pairs = argv[++i];
        else want[nw++] = atoi(argv[i]);
    }
    static uint32_t *keep[2];
    static int kcards[2][MAXP][4], kn[2][MAXP];
    cls = calloc((size_t)1 << 24, 4);
    for (int d = 0;; d++) {
        uint64_t hands[2 * MAXP];
        if (scanf("%d", &n) != 1) break;
        for (int i = 0; i < 2 * n; i++) {
            unsigned long long x;
            if (scanf("%llu", &x) != 1) return 2;
            hands[i] = x;
        }
        int leader, h, order, guess, total;
        if (scanf("%d %d %d %d %d %d %d", &trump, &bidder, &leader, &h, &order, &guess, &total) != 7)
            return 2;
        int take = 0;
        for (int i = 0; i < nw; i++) take |= want[i] == d;
        if (!take) continue;
        for (int w = 0; w < 2; w++) {
            hc_init(&H, 27);
            memset(cls, 0, ((size_t)1 << 24) * 4);
            for (int s = 0; s < n; s++) {
                ncards[s] = 0;
                for (uint64_t m = hands[w * n + s]; m; m &= m - 1) cards[s][ncards[s]++] = __builtin_ctzll(m);
            }
            uint32_t full = 0;
            for (int s = 0; s < n; s++) full |= ((1u << ncards[s]) - 1) << (4 * s);
            class_of(full);
            /* count positions and classes by cards a hand */
            static uint32_t seen[1 << 22];
            for (int k = 1; k <= 4; k++) {
                int states = 0, classes = 0;
                memset(seen, 0, sizeof seen);
                for (uint32_t st = 0; st < (1u << (4 * n)); st++) {
                    if (!cls[st]) continue;
                    int ok = 1;
                    for (int s = 0; s < n && ok; s++) ok = __builtin_popcount((st >> (4 * s)) & 15) == k;
                    if (!ok) continue;
                    states++;
                    uint32_t id = cls[st] - 1;
                    if (!((seen[id >> 5] >> (id & 31)) & 1)) seen[id >> 5] |= 1u << (id & 31), classes++;
                }
                printf("deal %d %s k=%d positions %d classes %d\n", d, w ? "R" : "L", k, states, classes);
            }
            printf("deal %d %s ids %zu\n", d, w ? "R" : "L", H.ids);
            free(keep[w]);
            keep[w] = malloc(((size_t)1 << 24) * 4);
            memcpy(keep[w], cls, ((size_t)1 << 24) * 4);
            memcpy(kcards[w], cards, sizeof cards);
            memcpy(kn[w], ncards, sizeof ncards);
            fflush(stdout);
            free(H.slot);
            free(H.pool);
            free(H.at);
        }
    }
    if (pairs) {
        /* the positions listed (world 0's cards, world 1's, leader, kind to play): how
         * many distinct, and how many up to the classes of their worlds */
        FILE *f = fopen(pairs, "r");
        static uint64_t set1[1 << 22], set2[1 << 22];
        uint64_t all = 0, d1 = 0, d2 = 0;
        unsigned long long w0, w1;
        int ld, hh;
        while (fscanf(f, "%llu %llu %d %d", &w0, &w1, &ld, &hh) == 4) {
            uint64_t wc[2] = {w0, w1};
            uint32_t id[2], st[2];
            for (int w = 0; w < 2; w++) {
                st[w] = 0;
                for (int s = 0; s < n; s++)
                    for (int j = 0; j < kn[w][s]; j++)
                        if ((wc[w] >> kcards[w][s][j]) & 1) st[w] |= 1u << (4 * s + j);
                id[w] = keep[w][st[w]] - 1;
            }
            all++;
            uint64_t k1 = ((uint64_t)st[0] << 24 | st[1]) * 64 + ld * 2 + hh + 1;
            uint64_t k2 = ((uint64_t)id[0] << 27 | id[1]) * 64 + ld * 2 + hh + 1;
            uint64_t *sets[2] = {set1, set2}, keys[2] = {k1, k2}, *cnt[2] = {&d1, &d2};
            for (int q = 0; q < 2; q++) {
                uint64_t k = keys[q], hsh = k * 0x9E3779B97F4A7C15ull;
                for (uint64_t i = hsh >> 42;; i = (i + 1) & ((1 << 22) - 1)) {
                    if (sets[q][i] == k) break;
                    if (!sets[q][i]) { sets[q][i] = k; (*cnt[q])++; break; }
                }
            }
        }
        printf("listed %llu, distinct %llu, distinct up to classes %llu\n", (unsigned long long)all,
               (unsigned long long)d1, (unsigned long long)d2);
    }
    return 0;
}
