# Stopping a search, the binding's side (included into each solver/<game>/_core.pyx;
# the mechanism is in stop.h). Every entry point that searches runs
#
#     hooked = _stop_begin(&ctx.stop)
#     with nogil: ...search...
#     _stop_end(&ctx.stop, hooked)
#
# so that Ctrl-C in the main thread, or Core.stop() from another thread, ends it with
# KeyboardInterrupt, and a search that reaches the core's time limit with TimeoutError.

from cpython.exc cimport PyErr_CheckSignals
from cpython.pythread cimport PyThread_get_thread_ident

cdef extern from "stop.h" nogil:
    ctypedef struct tl_stop:
        volatile int *flag
        int stopped
        double deadline
        int timed_out
    void tl_stop_begin(tl_stop *s, int sigint)
    double tl_now()
    int tl_sigint_hook()
    void tl_sigint_unhook()

import threading

cdef unsigned long _main_thread = threading.main_thread().ident


cdef bint _stop_begin(tl_stop *s):
    """Before a search: clear the stop, and route Ctrl-C to it in the main thread."""
    cdef bint hooked = PyThread_get_thread_ident() == _main_thread and tl_sigint_hook()
    tl_stop_begin(s, hooked)
    return hooked


cdef int _stop_end(tl_stop *s, bint hooked) except -1:
    """After a search: give SIGINT back to Python (which raises KeyboardInterrupt for a
    Ctrl-C) and raise KeyboardInterrupt if the search was stopped another way."""
    cdef int stopped = s.stopped
    cdef int timed_out = s.timed_out
    if hooked:
        tl_sigint_unhook()
    s.flag[0] = 0  # a Core.stop() request is served
    PyErr_CheckSignals()
    if stopped and timed_out:
        raise TimeoutError("the time limit was reached")
    if stopped:
        raise KeyboardInterrupt("search interrupted")
    return 0


cdef void _set_time_limit(tl_stop *s, seconds) except *:
    """Every later search of this core stops (TimeoutError) once ``seconds`` from now
    have passed; 0 stops the next search at once, None clears the limit."""
    if seconds is None:
        s.deadline = 0
        return
    cdef double t = float(seconds)
    if not t >= 0 or t == float("inf"):
        raise ValueError(f"invalid time limit {seconds!r} (expected seconds >= 0)")
    s.deadline = tl_now() + t
    if s.deadline <= 0:
        s.deadline = 1e-9
