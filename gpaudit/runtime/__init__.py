"""What runs around the kernel, untrusted: it may make a run faster, never a verdict different.

    processes  forked copies of the process (the copy deciding proof queries ahead, the proof stage
               beside the audit), the count of cores
    cache      the proof cache on disk

Both speak to the kernel's door to z3 through one advisor (gpaudit.kernel.z3door.set_advisor),
installed when this package is imported.  The kernel refuses an advised `unsat`: what they hand
back can spare a call that would not prove (a `sat` candidate, an `unknown` at the same step
limit), never a proof.  The kernel imports nothing from here (tests/test_import_graph.py).
"""

from __future__ import annotations

from ..kernel import z3door
from . import cache, processes


class _Advice:
    """The advisor: an answer of the copy deciding ahead, else one from the disk cache."""

    @staticmethod
    def recall(q, budget_ms: int):
        return processes.recall(q, budget_ms) or cache.recall(q, budget_ms)

    @staticmethod
    def learn(q, budget_ms: int, answer, steps: int) -> None:
        cache.learn(q, budget_ms, answer, steps)


z3door.set_advisor(_Advice())
