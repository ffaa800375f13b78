"""What runs around the kernel, untrusted: it may make a run faster, never a verdict different.

    processes  forked copies of the process (the copy deciding proof queries ahead, the proof stage
               beside the audit), the count of cores
    cache      the proof cache on disk
    budget     a stage's work budget and wall clock (the guard of the kernel's door)
    texts      a query's texts (the cache key, the SMT-LIB of proofs/*/obligations.smt2)
    models     a `sat` answer's model as exact numbers (a candidate point; the kernel reads none)
    memory     the allocator's thresholds, set once for z3's contexts (on import of this package)

The generators reach z3 through `solve` here: an answer of the copy deciding ahead or of the disk
cache can spare a call that would not prove (a `sat` candidate, an `unknown` at the same step
limit), never a proof -- an `unsat` from them is refused, so every `unsat` is a z3 call made by this
process.  The kernel's own obligations call gpaudit.kernel.z3door.solve directly, and the kernel
imports nothing from here (tests/whole_repo/test_import_graph.py).
"""

from __future__ import annotations

from fractions import Fraction

from ..kernel import z3door
from . import budget, cache, processes, texts
from .memory import keep_freed_memory
from .models import model_of

keep_freed_memory()      # before the generators' z3 calls (a context each), which reach z3 through here


def solve(q, budget_ms: int, want_model=(), use_cache=True, replay: dict | None = None):
    """z3door.solve(q, budget_ms), a `sat` answer's model read (models.model_of, the names of
    `want_model` it leaves free 0), where `use_cache` lets the copy deciding ahead or the disk cache
    spare a call that would not prove.

    `replay` (a dict the caller keeps for this process) holds the answers of calls this process
    made, by the query's exact text and the arguments: an identical query asked again gets the answer
    and is charged the steps of that call, exactly what a new call would give -- the same
    formula with the same step limit in a fresh context -- and where the stage's budget left
    would cut the limit, the call is made again.  An answer the wall clock cut (an unknown whose
    reason names z3door.WALL_CLOCK_NOTE) is not kept: it is not what the same call gives."""
    if replay is not None:
        key = (texts.key_text(q), budget_ms, tuple(want_model), use_cache)
        limit = z3door.step_limit(budget_ms, q.digits, q.transcendental)[0]
        hit = replay.get(key)
        if hit is not None and hit[1] == limit:
            budget.WORK.charge(hit[2])
            return hit[0]
        before = budget.WORK.spent
        ans = _advised(q, budget_ms, want_model, use_cache)
        if z3door.WALL_CLOCK_NOTE not in ans.reason:     # a wall-clock unknown depends on the machine and
            replay[key] = (ans, limit, budget.WORK.spent - before)    # the moment: never replayed
        return ans
    return _advised(q, budget_ms, want_model, use_cache)


def _advised(q, budget_ms: int, want_model, use_cache: bool):
    if not use_cache:
        return z3door.solve(q, budget_ms, lambda s: model_of(s, want_model))
    got = processes.recall(q, budget_ms) or cache.recall(q, budget_ms)
    if got is not None and got[0].status in (z3door.SAT, z3door.UNKNOWN):    # never UNSAT
        ans, steps = got
        budget.WORK.charge(steps)
        ans = z3door.Answer(ans.status, model={**{n: Fraction(0) for n in want_model}, **ans.model},
                            seconds=ans.seconds, cached=ans.cached, reason=ans.reason, cases=ans.cases,
                            split=ans.split)
        cache.learn(q, budget_ms, ans, steps)
        return ans
    before = budget.WORK.spent
    ans = z3door.solve(q, budget_ms, lambda s: model_of(s, want_model))
    cache.learn(q, budget_ms, ans, budget.WORK.spent - before)
    return ans
