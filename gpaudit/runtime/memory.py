"""The process's memory allocator, set once for z3's contexts.

Each z3 context (the generators make one per query, gpaudit.kernel.z3door) allocates about 16 MB and
frees it again.  glibc gives freed memory at the top of its heap back to the system (above its trim
threshold) and maps large blocks afresh each time (above its mmap threshold), and it moves both
thresholds as a process runs: in a process that had imported sympy, each new context touched some
4,000 fresh pages.  The proof stage of two-way-student-t made 1.1 million page faults, 2.3 s of
system time in a 9 s check.  Both thresholds are set once, high enough (mallopt), that freed
memory stays in the heap for the next context: 35,000 page faults, 0.2 s, and 4 MB more resident.
Where the C library has no mallopt (not glibc), nothing is done.  Speed only: no answer changes.
"""

from __future__ import annotations

import ctypes

M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3        # glibc's mallopt parameters
TRIM_BYTES = 128 << 20        # free memory at the heap's top kept up to this much
MMAP_BYTES = 32 << 20         # blocks below this size come from the heap, not a mapping of their own


def keep_freed_memory() -> bool:
    """Set the allocator's thresholds (once per process; a forked copy inherits them).  True where
    the C library took them."""
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_BYTES)) and bool(mallopt(M_TRIM_THRESHOLD, TRIM_BYTES))
