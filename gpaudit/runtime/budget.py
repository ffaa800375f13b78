"""A stage's work budget and wall clock, installed in the kernel's door as its guard.

A stage that makes many z3 calls (the proof stage) runs under a total budget of weighted z3 steps:
once spent, further calls are not made (unknown), so a configuration whose regions are all hard ends
with unknown instead of running for hours.  Deterministic: it counts z3's steps, and an answer from
the cache is charged the steps it cost when it was computed.  Where given, the stage also has a
wall-clock limit, the one nondeterministic limit (z3door.WALL_CLOCK_NOTE): past it, no call is made
and a call under way is stopped, and the answer is unknown with the limit in its reason.
"""

from __future__ import annotations

import time
from contextlib import contextmanager

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
