/* Stopping a search of either compiled core: from another thread, with Ctrl-C, or when
 * its time limit (a deadline on the monotonic clock, Core.set_time_limit) has passed.
 *
 * A search calls tl_stop_poll() at its nodes; every 1024th call reads the flags. Once
 * stopped it stays stopped until the next tl_stop_begin(): the search unwinds at once,
 * returning anything and storing nothing in its table, and the binding raises
 * KeyboardInterrupt.
 *
 * Ctrl-C: while a search runs in the main thread with the GIL released, Python cannot
 * run its own SIGINT handler, so the binding routes SIGINT here (tl_sigint_hook): the
 * handler sets tl_interrupt and passes the signal on to the handler it replaced, so
 * that Python still raises KeyboardInterrupt once the search has returned.
 *
 * Each extension module includes this file and so has its own copy of the state below.
 */
#ifndef TL_STOP_H
#define TL_STOP_H

#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

typedef struct {
    volatile int *flag; /* set nonzero by another thread to stop the search */
    uint32_t poll;
    int sigint;         /* this search also stops on Ctrl-C */
    int stopped;
    double deadline;    /* seconds on the monotonic clock; 0: no time limit */
    int timed_out;      /* stopped because the deadline passed */
} tl_stop;

/* Seconds on the monotonic clock (the clock of Python's time.monotonic). */
static inline double tl_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static volatile sig_atomic_t tl_interrupt = 0;
static struct sigaction tl_previous;
static int tl_hooked = 0;

static inline void tl_stop_begin(tl_stop *s, int sigint)
{
    s->stopped = 0;
    s->timed_out = 0;
    s->sigint = sigint;
    if (s->deadline > 0 && tl_now() >= s->deadline) s->stopped = s->timed_out = 1;
}

/* Whether a stop is called for: another thread's flag, Ctrl-C, or the deadline passed
 * (which it records in timed_out). */
static inline int tl_stop_due(tl_stop *s)
{
    if ((s->flag && *s->flag) || (s->sigint && tl_interrupt)) return 1;
    if (s->deadline > 0 && tl_now() >= s->deadline) return s->timed_out = 1;
    return 0;
}

static inline int tl_stop_poll(tl_stop *s)
{
    if (s->stopped) return 1;
    if ((++s->poll & 1023) == 0 && tl_stop_due(s)) s->stopped = 1;
    return s->stopped;
}

static void tl_on_sigint(int sig, siginfo_t *info, void *context)
{
    tl_interrupt = 1;
    if (tl_previous.sa_flags & SA_SIGINFO) {
        if (tl_previous.sa_sigaction) tl_previous.sa_sigaction(sig, info, context);
    } else if (tl_previous.sa_handler != SIG_DFL && tl_previous.sa_handler != SIG_IGN) {
        tl_previous.sa_handler(sig);
    }
}

/* Route SIGINT to the searches; call from the main thread before a search. Returns 1
 * when hooked (call tl_sigint_unhook() after the search), 0 when already hooked or
 * when SIGINT is ignored or left to its default action (it is then left alone and
 * does what it would have done anyway). One system call. */
static int tl_sigint_hook(void)
{
    struct sigaction act;
    if (tl_hooked) return 0;
    memset(&act, 0, sizeof act);
    act.sa_sigaction = tl_on_sigint;
    act.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&act.sa_mask);
    tl_interrupt = 0;
    if (sigaction(SIGINT, &act, &tl_previous)) return 0;
    if (!(tl_previous.sa_flags & SA_SIGINFO) &&
        (tl_previous.sa_handler == SIG_DFL || tl_previous.sa_handler == SIG_IGN)) {
        sigaction(SIGINT, &tl_previous, NULL);
        return 0;
    }
    tl_hooked = 1;
    return 1;
}

static void tl_sigint_unhook(void)
{
    sigaction(SIGINT, &tl_previous, NULL);
    tl_hooked = 0;
}

#endif
