/* Replay recorded PIMC decisions in C alone (no Python), for node counts and
 * instruction counts of the compiled decision (kj_pimc in solver/klabberjass/_core.h)
 * and of variants of it:
 *
 *     PYTHONPATH=. python tools/pimc_decisions.py record --deals 20 --seed 5 --out /tmp/dec.json
 *     PYTHONPATH=. python tools/pimc_decisions.py export /tmp/dec.json /tmp/dec.txt
 *     gcc -O3 -fno-strict-aliasing -Isolver/klabberjass -Isolver/_c tools/pimc_replay.c -o /tmp/replay
 *     /tmp/replay /tmp/dec.txt [MB]
 *     valgrind --tool=callgrind /tmp/replay /tmp/dec.txt
 *
 * The decisions are made in order on one table of MB megabytes (default 8, the
 * players'); the exit status is 1 if a choice differs from the record. Input: the
 * four rule tables (16 ints each: plain power, trump power, plain points, trump
 * points), the number of decisions, then a line a decision: mine known pool need
 * count seed trump leader trick bonus, k and the k candidates, the recorded choice,
 * then 0, or 1 and the count preset worlds. Variants of the core measured this way and
 * dropped are kept as patches to it (tools/klabberjass_norm_key.patch, whose head says
 * how to build this program against the patched core). */
#include <stdio.h>
#include <time.h>

#include "_core.h"

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: %s DECISIONS.txt [MB]\n", argv[0]); return 2; }
    FILE *f = fopen(argv[1], "r");
    if (!f) { perror(argv[1]); return 2; }
    int pw[2][16], pt[2][16], n;
    for (int t = 0; t < 2; t++)
        for (int r = 0; r < 16; r++) if (fscanf(f, "%d", &pw[t][r]) != 1) return 2;
    for (int t = 0; t < 2; t++)
        for (int r = 0; r < 16; r++) if (fscanf(f, "%d", &pt[t][r]) != 1) return 2;
    if (fscanf(f, "%d", &n) != 1) return 2;
    const int *power[2] = {pw[0], pw[1]}, *points[2] = {pt[0], pt[1]};
    kj_ctx *c = kj_new(argc > 2 ? (size_t)atoi(argv[2]) : 8);
    if (!c) return 2;
    kj_set_rules(c, power, points);
    long differ = 0, searches = 0;
    uint64_t *preset = NULL;
    clock_t start = clock();
    for (int i = 0; i < n; i++) {
        unsigned long long mine, known, pool, seed;
        int need, count, trump, leader, trick, bonus, k, cands[KJ_MAX_HAND], chosen, given;
        if (fscanf(f, "%llu %llu %llu %d %d %llu %d %d %d %d %d", &mine, &known, &pool, &need,
                   &count, &seed, &trump, &leader, &trick, &bonus, &k) != 11 || k > KJ_MAX_HAND)
            return 2;
        for (int j = 0; j < k; j++) if (fscanf(f, "%d", &cands[j]) != 1) return 2;
        if (fscanf(f, "%d %d", &chosen, &given) != 2) return 2;
        if (given) {
            preset = (uint64_t *)realloc(preset, (size_t)count * sizeof(uint64_t));
            for (int w = 0; w < count; w++) {
                unsigned long long x;
                if (fscanf(f, "%llu", &x) != 1) return 2;
                preset[w] = x;
            }
        }
        long sums[KJ_MAX_HAND], s;
        int got = kj_pimc(c, mine, known, pool, need, count, seed, given ? preset : NULL, trump,
                          leader, trick, bonus, cands, k, 0, NULL, sums, &s);
        searches += s;
        differ += got != chosen;
    }
    printf("%d decisions: %llu nodes, %ld child searches, %.3f s CPU, %ld choices differ from the record\n",
           n, (unsigned long long)c->nodes, searches, (double)(clock() - start) / CLOCKS_PER_SEC, differ);
    free(preset);
    kj_free(c);
    return differ != 0;
}
