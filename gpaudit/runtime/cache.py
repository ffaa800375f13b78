"""The proof cache on disk: z3 answers that proved nothing, kept so a query known to fail is not
asked again at the same step limit.

No cache is evidence (docs/certificate.md).  Only `sat` (with its candidate model) and `unknown`
answers are stored; an `unsat` is never written, and a record that says `unsat` is never read (and
gpaudit.runtime.solve refuses an `unsat` from it besides).  So a planted record can only make an obligation
`unknown` -- or hand the audit a candidate point that it verifies in exact arithmetic before it
refutes anything --, never make one proved.  A record is keyed by the SHA-256 of the query's exact
text (see gpaudit.runtime.texts.key_text), the z3 version, the seed and the budget, and used
only where the stage's work budget left would cut none of the calls it stands for: then it is the
answer of the same deterministic call, and is charged the steps that call cost.

Off when gating (`CI` set in the environment, `--junit`, `--baseline`, or set_cache(False)) and
with GPAUDIT_NO_CACHE; the folder is $GPAUDIT_CACHE/proofs (default ~/.cache/gpaudit/proofs).
"""

from __future__ import annotations

import hashlib
import json
import os
from fractions import Fraction
from pathlib import Path

from ..kernel import z3door as zb
from . import budget, texts

_ON = True
STORED = (zb.SAT, zb.UNKNOWN)


def set_cache(enabled: bool) -> None:
    """Turn the proof cache on or off for this process (off when gpaudit gates a CI run)."""
    global _ON
    _ON = bool(enabled)


def cache_enabled() -> bool:
    return _ON


def cache_dir() -> Path | None:
    if not _ON or os.environ.get("GPAUDIT_NO_CACHE") or os.environ.get("CI"):
        return None
    root = os.environ.get("GPAUDIT_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "gpaudit")
    path = Path(root) / "proofs"
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return path


def cache_key(query_text: str, budget_ms: int) -> str:
    text = (f"z3 {texts.z3_version()} {zb.TACTIC} seed {zb.SEED} rlimit {zb.rlimit_of(budget_ms)} steps-v7 not-unsat"
            f"\n{query_text}")
    return hashlib.sha256(text.encode()).hexdigest()


def fits(q, budget_ms: int, weighted_steps: int, left=None) -> bool:
    """Whether a budget `left` (default: what the stage has left now) cuts none of the calls of a
    decision of q that cost `weighted_steps` (each call's limit is the smaller of its own and what
    is left): then an answer recorded for it is the one a call made now would give."""
    left = budget.WORK.left() if left is None else left
    if left is None:
        return True
    weight = zb.step_weight(q.digits)
    return left // weight >= zb.rlimit_of(budget_ms, q.digits, q.transcendental) + weighted_steps // weight


def recall(q, budget_ms: int):
    """(Answer, weighted steps) of a stored record for q, or None."""
    cdir = cache_dir()
    if cdir is None:
        return None
    key = cache_key(texts.key_text(q), budget_ms)
    try:
        rec = json.loads((cdir / f"{key}.json").read_text())
        steps = int(rec.get("steps", -1))
        if rec.get("key") != key or rec.get("status") not in STORED or steps < 0 or not fits(q, budget_ms, steps):
            return None
        model = {str(k): Fraction(v) for k, v in dict(rec.get("model", {})).items()}
        ans = zb.Answer(rec["status"], model=model, cached=True, reason=f"from the proof cache: {rec.get('reason', '')}",
                        cases=max(1, int(rec.get("cases", 1))), split=str(rec.get("split", "")))
        return ans, steps
    except (OSError, ValueError, TypeError, ZeroDivisionError, KeyError):
        return None


def learn(q, budget_ms: int, answer, steps: int) -> None:
    """Store an answer that proved nothing, where its call was not cut by the stage's budget."""
    if answer.status not in STORED or answer.cached or steps <= 0 or zb.WALL_CLOCK_NOTE in answer.reason:
        return                      # (a wall-clock unknown depends on the machine: never kept)
    left = budget.WORK.left()
    if left is not None and not fits(q, budget_ms, steps, left + steps):
        return
    cdir = cache_dir()
    if cdir is None:
        return
    key = cache_key(texts.key_text(q), budget_ms)
    rec = {"key": key, "status": answer.status, "z3": texts.z3_version(), "steps": steps, "cases": answer.cases,
           "split": answer.split, "reason": answer.reason, "model": {k: str(v) for k, v in answer.model.items()}}
    try:
        tmp = cdir / f"{key}.tmp{os.getpid()}"
        tmp.write_text(json.dumps(rec))
        tmp.replace(cdir / f"{key}.json")
    except OSError:
        pass
