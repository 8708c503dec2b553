# Argument checks both bindings share (included into each solver/<game>/_core.pyx).
#
# Every int and buffer that crosses into C goes through one of these first: a wrong
# type raises TypeError, a value C cannot hold (or the core must not see) ValueError,
# both naming the argument. The fast path (an int of the right size) builds no string.

import operator

from cpython.long cimport PyLong_Check
from libc.stdint cimport int8_t, uint64_t

#: Largest transposition table a core accepts, in MB.
MAX_MEGABYTES = 1 << 20


cdef object _index(object value, str name, Py_ssize_t index=-1):
    """``value`` as a Python int (TypeError if it is not one)."""
    try:
        return operator.index(value)
    except TypeError:
        what = name if index < 0 else f"{name}[{index}]"
        raise TypeError(f"{what} must be an int, not {type(value).__name__}") from None


cdef long long _cint(object value, str name, long long lo, long long hi, str expected,
                     Py_ssize_t index=-1) except? -1:
    """``value`` as a C integer within ``lo..hi`` (both within a long long)."""
    cdef long long x = 0
    cdef bint ok
    if not PyLong_Check(value):
        value = _index(value, name, index)
    try:
        x = value
        ok = lo <= x <= hi
    except OverflowError:
        ok = False
    if not ok:
        what = name if index < 0 else f"{name}[{index}]"
        raise ValueError(f"invalid {what} {value} (expected {expected})")
    return x


cdef uint64_t _u64(object value, str name, Py_ssize_t index=-1) except? 0:
    """``value`` as a 64-bit card set."""
    if not PyLong_Check(value):
        value = _index(value, name, index)
    try:
        return value
    except OverflowError:
        what = name if index < 0 else f"{name}[{index}]"
        raise ValueError(f"invalid {what} {value} (expected a 64-bit card set)") from None


cdef size_t _megabytes(object value) except 0:
    """A transposition table size in MB: 1 .. MAX_MEGABYTES."""
    mb = _index(value, "transposition table size")
    if mb < 1:
        raise ValueError(f"transposition table size must be at least 1 MB, not {mb}")
    if mb > MAX_MEGABYTES:
        raise ValueError(f"transposition table size must be at most {MAX_MEGABYTES} MB, not {mb}")
    return mb


cdef list _table(object table, str name):
    """A card rule table as a list of 16 ints (one per rank field of a card)."""
    if isinstance(table, (str, bytes)):
        raise TypeError(f"{name} must be a sequence of 16 ints, not {type(table).__name__}")
    try:
        values = list(table)
    except TypeError:
        raise TypeError(f"{name} must be a sequence of 16 ints, not {type(table).__name__}") from None
    if len(values) != 16:
        raise ValueError(f"{name} must have 16 entries (one per rank field), not {len(values)}")
    return [_cint(v, name, -128, 127, "-128..127", r) for r, v in enumerate(values)]


cdef const uint64_t[:] _buffer_u64(object buf, str name):
    cdef const uint64_t[:] view
    try:
        view = buf
    except (TypeError, ValueError, BufferError) as err:
        raise TypeError(f"{name} must be a buffer of uint64 (array('Q')): {err}") from None
    return view


cdef const int8_t[:] _buffer_i8(object buf, str name):
    cdef const int8_t[:] view
    try:
        view = buf
    except (TypeError, ValueError, BufferError) as err:
        raise TypeError(f"{name} must be a buffer of int8 (array('b')): {err}") from None
    return view


cdef const int[:] _buffer_i32(object buf, str name):
    cdef const int[:] view
    try:
        view = buf
    except (TypeError, ValueError, BufferError) as err:
        raise TypeError(f"{name} must be a buffer of int32 (array('i')): {err}") from None
    return view


cdef int[:] _buffer_out(object buf, str name):
    cdef int[:] view
    try:
        view = buf
    except (TypeError, ValueError, BufferError) as err:
        raise TypeError(f"{name} must be a writable buffer of int32 (array('i')): {err}") from None
    return view


cdef int _same_length(Py_ssize_t n, str first, list others) except -1:
    """Every (name, length) of ``others`` has ``n`` entries per position."""
    for name, length in others:
        if length != n:
            raise ValueError(f"{name} has {length} entries, {first} has {n}: one per position")
    return 0
