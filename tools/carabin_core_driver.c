/* Solve the deals dumped by carabin_core_driver.py with the Carabin core, no Python.
 *
 *     carabin_core_driver exact|make|both [seconds] < deals.txt
 *
 * One line a search: deal number, what, answer, nodes, CPU ms; then a summary (nodes
 * median, max, total; CPU ms median, max). The table is cleared before every search;
 * a search that runs past `seconds` (default 60) of CPU time prints '>' (CPU time, so
 * that a loaded machine does not change which searches finish). The table has 32 MB, or
 * CB_TT_MB from the environment; CB_WORLD=cards,after sets the single-world bounds
 * (cb_set_world); CB_CANON=0 turns the canonical look-ups off (cb_set_canon),
 * CB_DEEP=0 the look-ahead two tricks deep (cb_set_deep), CB_RACE=0 the race of the
 * coalition's cards in the first trick (cb_set_race), CB_NOLEAD=0 the no-lead bound
 * (cb_set_nolead), CB_REVERSE=0 the coupled bound's reverse pair (cb_set_reverse),
 * CB_LEADRACE=0 the race of the coalition's leads of the second and third tricks
 * (cb_set_lead_race), CB_DSHAPE=0 the graphs of the deep look-ahead's tricks
 * (cb_set_deep_shape; 2: each made the first time), CB_GUIDE=0 the guide of a trick's
 * search by its graph (cb_set_guide; k: from nodes of k cards of the trick).
 * CB_HELP=1: every exact search is
 * helped by a second context on another thread with its table (cb_share, cb_help, as
 * the deal tables of several workers do); the line then also gives the helper's nodes,
 * which of the two ended first and the wall-clock ms (CPU ms count both threads);
 * CB_SHARE=1 shares the table without a helper (the cost of its locks).
 * Built with --stats (CB_STATS, the
 * core patched with carabin_core_stats.patch) it prints where the nodes went, and each probe's nodes
 * on stderr when CB_PROBES is set. */
#include <pthread.h>
#include <stdio.h>
#include <time.h>

/* the core's clock (stop.h) reads this process's CPU time instead */
#undef CLOCK_MONOTONIC
#define CLOCK_MONOTONIC CLOCK_PROCESS_CPUTIME_ID

#include "_core.h"

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}
static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double wall_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return 1e3 * t.tv_sec + 1e-6 * t.tv_nsec;
}

/* The helper of CB_HELP: searches what `main` searches with its table until it has the
 * value (then stops main) or is stopped. */
typedef struct {
    cb_ctx *c, *main;
    int n, trump, bidder, leader, h, order, guess, v;
    const uint64_t *hands;
    volatile int *stop_main;
    volatile int done; /* main has ended: no help to start */
} help_job;

static void *help_run(void *arg)
{
    help_job *j = (help_job *)arg;
    j->v = -2;
    while (j->v == -2 && !j->done) { /* until main has loaded the deal */
        tl_stop_begin(&j->c->stop, 0);
        j->v = cb_help(j->c, j->main, j->n, j->hands, j->trump, j->bidder, j->leader, j->h,
                       j->order, NULL, 0, j->guess);
    }
    if (j->v >= 0) *j->stop_main = 1;
    return NULL;
}

static double cpu_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return 1e3 * t.tv_sec + 1e-6 * t.tv_nsec;
}

static void summary(const char *what, uint64_t *nodes, double *ms, int m, int over, unsigned crc)
{
    if (!m) return;
    uint64_t total = 0;
    for (int i = 0; i < m; i++) total += nodes[i];
    qsort(nodes, m, sizeof *nodes, cmp_u64);
    qsort(ms, m, sizeof *ms, cmp_d);
    double cpu = 0;
    for (int i = 0; i < m; i++) cpu += ms[i];
    printf("%s: %d searches, nodes median %llu max %llu total %llu; cpu ms median %.3f max %.1f "
           "total %.0f; over the limit %d; answers hash %08x\n",
           what, m, (unsigned long long)nodes[m / 2], (unsigned long long)nodes[m - 1],
           (unsigned long long)total, ms[m / 2], ms[m - 1], cpu, over, crc);
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "exact";
    double limit = argc > 2 ? atof(argv[2]) : 60.0;
    int do_exact = strcmp(what, "make") != 0, do_make = strcmp(what, "exact") != 0;
    int power[16], points[16];
    for (int i = 0; i < 16; i++)
        if (scanf("%d", &power[i]) != 1) return 2;
    for (int i = 0; i < 16; i++)
        if (scanf("%d", &points[i]) != 1) return 2;
    cb_ctx *c = cb_new(getenv("CB_TT_MB") ? (size_t)atoi(getenv("CB_TT_MB")) : 32);
    cb_set_rules(c, power, points);
    if (getenv("CB_WORLD")) {
        int cards;
        unsigned long long after;
        if (sscanf(getenv("CB_WORLD"), "%d,%llu", &cards, &after) != 2) return 2;
        cb_set_world(c, cards, after);
    }
    if (getenv("CB_CANON")) cb_set_canon(c, atoi(getenv("CB_CANON")));
    if (getenv("CB_DEEP")) cb_set_deep(c, atoi(getenv("CB_DEEP")));
    if (getenv("CB_DSHAPE")) cb_set_deep_shape(c, atoi(getenv("CB_DSHAPE")));
    if (getenv("CB_DSAFTER")) c->dafter = (uint64_t)atoll(getenv("CB_DSAFTER"));
    if (getenv("CB_GUIDE")) cb_set_guide(c, atoi(getenv("CB_GUIDE")));
    if (getenv("CB_RACE")) cb_set_race(c, atoi(getenv("CB_RACE")));
    if (getenv("CB_NOLEAD")) cb_set_nolead(c, atoi(getenv("CB_NOLEAD")));
    if (getenv("CB_REVERSE")) cb_set_reverse(c, atoi(getenv("CB_REVERSE")));
    if (getenv("CB_LEADRACE")) cb_set_lead_race(c, atoi(getenv("CB_LEADRACE")));
    int help = getenv("CB_HELP") && atoi(getenv("CB_HELP"));
    static volatile int stop_main, stop_help;
    cb_ctx *helper = NULL;
    if (getenv("CB_SHARE") && atoi(getenv("CB_SHARE")) && cb_share(c, 1)) return 2;
    if (help) {
        helper = cb_new(1);
        cb_set_rules(helper, power, points);
        if (cb_share(c, 1)) return 2;
        c->stop.flag = &stop_main;
        helper->stop.flag = &stop_help;
    }
    static uint64_t en[10000], mn[10000];
    static double et[10000], mt[10000];
    int ne = 0, nm = 0, eover = 0, mover = 0;
    unsigned esum = 0, msum = 0;
    for (int d = 0;; d++) {
        int n;
        if (scanf("%d", &n) != 1) break;
        uint64_t hands[2 * CB_MAXP];
        for (int i = 0; i < 2 * n; i++) {
            unsigned long long x;
            if (scanf("%llu", &x) != 1) return 2;
            hands[i] = x;
        }
        int trump, bidder, leader, h, order, guess, total;
        if (scanf("%d %d %d %d %d %d %d", &trump, &bidder, &leader, &h, &order, &guess, &total) != 7)
            return 2;
        for (int pass = 0; pass < 2; pass++) {
            if (pass == 0 && !do_exact) continue;
            if (pass == 1 && !do_make) continue;
            cb_clear(c);
            c->stop.deadline = limit > 0 ? tl_now() + limit : 0;
            tl_stop_begin(&c->stop, 0);
            uint64_t n0 = c->nodes, hn0 = helper ? helper->nodes : 0;
            double t0 = cpu_ms(), w0 = wall_ms();
            help_job job = {helper, c, n, trump, bidder, leader, h, order, guess, -2, hands, &stop_main, 0};
            pthread_t thread;
            int helped = help && pass == 0;
            if (helped) {
                stop_main = stop_help = 0;
                helper->stop.deadline = c->stop.deadline;
                if (pthread_create(&thread, NULL, help_run, &job)) return 2;
            }
            int v = pass == 0 ? cb_value(c, n, hands, trump, bidder, leader, h, order, NULL, 0, guess)
                              : cb_make(c, n, hands, trump, bidder, leader, h, order, NULL, 0, total / 2 + 1);
            int first = 0; /* 1: the helper ended first */
            if (helped) {
                job.done = 1;
                stop_help = 1;
                pthread_join(thread, NULL);
                if (v < 0 && job.v >= 0 && stop_main) {
                    v = job.v;
                    first = 1;
                    c->stop.stopped = 0;
                }
                stop_main = stop_help = 0;
            }
            double ms = cpu_ms() - t0;
            uint64_t nodes = c->nodes - n0;
            int over = c->stop.stopped;
            c->stop.stopped = 0;
            if (helped)
                printf("#%d %s %d %llu %s%.3f helper %llu%s wall %.1f\n", d, "exact", v,
                       (unsigned long long)nodes, over ? ">" : "", ms,
                       (unsigned long long)(helper->nodes - hn0), first ? " first" : "",
                       wall_ms() - w0);
            else
                printf("#%d %s %d %llu %s%.3f\n", d, pass ? "make" : "exact", v,
                       (unsigned long long)nodes, over ? ">" : "", ms);
            if (pass == 0) { en[ne] = nodes; et[ne++] = ms; eover += over; esum = esum * 31 + (unsigned)v; }
            else { mn[nm] = nodes; mt[nm++] = ms; mover += over; msum = msum * 31 + (unsigned)v; }
        }
        fflush(stdout);
    }
    summary("exact", en, et, ne, eover, esum);
    summary("make", mn, mt, nm, mover, msum);
    cb_free(c);
    cb_free(helper);
#ifdef CB_STATS
    cb_stats_print();
#endif
    return 0;
}
