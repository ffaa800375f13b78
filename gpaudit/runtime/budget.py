"""A stage's work budget and wall clock, installed in the kernel's door as its guard.

A stage that makes many z3 calls (the proof stage) runs under a total budget of weighted z3 steps:
once spent, further calls are not made (unknown), so a configuration whose regions are all hard ends
with unknown instead of running for hours.  Deterministic: it counts z3's steps, and an answer from
the cache is charged the steps it cost when it was computed.  Where given, the stage also has a
wall-clock limit, the one nondeterministic limit (z3door.WALL_CLOCK_NOTE): past it, no call is made
and a call under way is stopped, and the answer is unknown with the limit in its reason.

What neither bounds (a loop in a user's callable that never ends, sympy simplifying a large
expression) is ended by an alarm (:func:`alarm`): SIGALRM raises an exception in the main thread.
"""

from __future__ import annotations

import signal
import threading
import time
from contextlib import contextmanager

import z3

from ..kernel import z3door as zb


class Work(zb.Guard):
    """The guard of a stage: weighted steps spent so far, the cap, the deadline."""

    def __init__(self):
        self.spent, self.cap, self.deadline, self.limit_s = 0, None, None, None

    def left(self):
        return None if self.cap is None else self.cap - self.spent

    def seconds(self):
        return None if self.deadline is None else self.deadline - time.monotonic()

    def stopped(self) -> str:
        left = self.seconds()
        if left is not None and left <= 0:
            return wall_clock_reason()
        return ""

    def charge(self, weighted_steps: int) -> None:
        self.spent += int(weighted_steps)

    def watch(self, ctx):
        """The memory watch of one z3 call (see MemoryWatch), in every stage."""
        return MemoryWatch(ctx)


# What z3's own limits do not bound well: its memory.  Some nonlinear queries (8 variables, four of
# them exp abstractions, on a smoothed SUM under the l2 metric) grow z3's memory by gigabytes inside
# one operation that checks no step limit; at z3's hard limit (memory_max_size) its allocator fails
# mid-operation and the process is left corrupted (a double free, then a segmentation fault in a later
# call).  So a thread polls z3's allocation during each call and, past MEMORY_SOFT_MB, interrupts
# the call (z3's own interrupt, honoured at its next checkpoint, which leaves the context usable):
# that call is unknown, saying so.  The hard limit stays as the last resort, well above it (z3door).
MEMORY_SOFT_MB = 1024
MEMORY_POLL_SECONDS = 0.02


class MemoryWatch:
    """A context manager around one z3 call on context `ctx`; it yields why() -> "" or the reason
    the call was stopped.  The thread lives only during the call (forks happen between calls)."""

    def __init__(self, ctx):
        self.ctx, self.reason = ctx, ""
        self.done, self.lock = threading.Event(), threading.Lock()

    def _poll(self):
        limit = MEMORY_SOFT_MB << 20
        while not self.done.wait(MEMORY_POLL_SECONDS):
            if z3.Z3_get_estimated_alloc_size() > limit:
                with self.lock:
                    if not self.done.is_set():
                        self.reason = (f"z3's memory passed {MEMORY_SOFT_MB} MB and the call was stopped;"
                                       f" polled every {MEMORY_POLL_SECONDS:g} s, {zb.WALL_CLOCK_NOTE}")
                        self.ctx.interrupt()
                return

    def __enter__(self):
        self.thread = threading.Thread(target=self._poll, name="gpaudit-z3-memory", daemon=True)
        self.thread.start()
        return lambda: self.reason

    def __exit__(self, *exc):
        with self.lock:
            self.done.set()
        self.thread.join()
        return False


WORK = Work()
zb.set_guard(WORK)


@contextmanager
def work_budget(steps: int, seconds: float | None = None):
    """Run a stage under a total budget of `steps` weighted z3 steps, and where given, of `seconds`
    of wall-clock time (nesting keeps the outer one)."""
    if WORK.cap is not None:
        yield WORK
        return
    WORK.spent, WORK.cap = 0, int(steps)
    WORK.limit_s = seconds
    WORK.deadline = None if seconds is None else time.monotonic() + seconds
    try:
        yield WORK
    finally:
        WORK.cap = WORK.deadline = WORK.limit_s = None


def past_wall_clock() -> bool:
    return bool(WORK.stopped())


def wall_clock_reason() -> str:
    return f"wall-clock limit: {WORK.limit_s:g} s; {zb.WALL_CLOCK_NOTE}"


@contextmanager
def alarm(seconds: float, raised: type):
    """Raise `raised()` in this (main) thread after `seconds` of wall-clock time.  Elsewhere (no
    signal reaches another thread) nothing.  Nested in an earlier timer that goes off first, nothing
    either: the earlier one ends the work.  On the way out the earlier timer and handler are given
    back, less the time spent here."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before, interval = signal.getitimer(signal.ITIMER_REAL)
    if before and before <= seconds:
        yield
        return

    def expire(signum, frame):
        raise raised()
    old = signal.signal(signal.SIGALRM, expire)
    t0 = time.monotonic()
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
        if before:               # the earlier timer, less the time spent here (due now: at once)
            signal.setitimer(signal.ITIMER_REAL, max(before - (time.monotonic() - t0), 1e-6), interval)
