"""The registry's z3 calls, through the kernel's door (``gpaudit.kernel.z3door.check_formula``):
a fresh context per call, a fixed seed and the deterministic step budget (z3's ``rlimit``, never a
wall-clock timeout), so a proof step gets the same answer on an idle and on a loaded machine.
``unknown`` (budget spent, incomplete theory) is never taken for a proof: only ``unsat`` proves."""
from __future__ import annotations

import z3

BUDGET_MS = 20000  # "milliseconds of an idle reference machine", the door's unit of its step budget


def z3_check(*assertions, budget_ms: int = BUDGET_MS):
    """(result, model-or-None) for the conjunction of ``assertions``; the model only on ``sat``."""
    from ..kernel.z3door import check_formula

    r, s, _ = check_formula(list(assertions), budget_ms)
    return r, (s.model() if r == z3.sat else None)


def z3_unsat(*assertions, budget_ms: int = BUDGET_MS) -> bool:
    """True iff z3 proves the conjunction unsatisfiable within the budget."""
    return z3_check(*assertions, budget_ms=budget_ms)[0] == z3.unsat
