"""The claim registry and its runner.

A *claim* is one concrete, checkable statement of a paper.  Each is registered with
:func:`claim` and implemented as ``check(quick: bool) -> Outcome``.  Checkers must compute
the true quantity independently of the paper's formula (quadrature, brute-force
optimisation, exact rationals) and compare; numeric sweeps can only *fail to find* a
counterexample, which is what a "verified" verdict from a sweep means.

Verdicts: ``"verified" | "refuted" | "unknown"``.  A refuted result must carry a witness
(decimal strings).  Any exception inside a checker makes the result ``unknown``.

The charitable reading, as a rule: an accusation stands only if no reasonable reading of the
statement in its context (the paper's conventions, its own use of the result elsewhere, its
quantifiers) holds.  So every refutation records the readings considered (``Reading``: the
reading, whether it holds, why), none of which holds; a refutation without them, or with one
that holds, is not reported as a refutation (it becomes ``unknown``).  Where a reasonable
reading holds, the claim is ``verified`` under it and its ``Reading`` says so.
"""
from __future__ import annotations

import time
import traceback
from dataclasses import dataclass, field
from typing import Callable

import mpmath as mp

from .precision import DPS
from .readings import READINGS, Reading

VERDICTS = ("verified", "refuted", "unknown")
# How wrong a refuted claim is (docs/papers.md), under every reasonable reading:
#   error      the statement's intended meaning is false
#   minor      false in a way that does not change its use (e.g. a missing hypothesis, a constant
#              that is off where nothing rests on it)
#   typo       a misprint whose intended statement is verified (the intended one is checked too)
# (A statement true under a reasonable reading is not refuted at all: it is verified under it.)
SEVERITIES = ("error", "minor", "typo")
# How a verdict was reached, in words for the reports (the JSON keeps the short method name).
CHECKED_BY = {
    "proof": "proof",
    "exact": "exact computation",
    "enclosure": "interval enclosure",
    "exhaustive": "exhaustive enumeration",
    "adversarial": "adversarial search",
    "sweep": "finite sweep (no counterexample found)",
    "": "unstated",
}


@dataclass
class ClaimResult:
    paper: str
    claim_id: str
    statement: str
    verdict: str
    evidence: str
    witness: dict[str, str] | None = None
    condition: str | None = None
    seconds: float = 0.0
    severity: str | None = None      # for a non-verified claim: one of SEVERITIES
    quote: str = ""                  # the paper's words, verbatim
    reading: str = ""                # gpaudit's formal reading of them
    restated_from: str | None = None  # the cited paper a restatement comes from
    intended: str | None = None      # for a typo: the intended statement and how it was verified
    method: str = ""                 # proof | exact | enclosure | exhaustive | adversarial | sweep
    readings: list[Reading] = field(default_factory=list)  # the readings considered (see the module doc)

    @property
    def checked_by(self) -> str:
        return CHECKED_BY.get(self.method, self.method)


@dataclass
class Outcome:
    verdict: str
    evidence: str
    witness: dict[str, str] | None = None
    condition: str | None = None
    severity: str | None = None
    intended: str | None = None
    method: str = ""
    readings: list[Reading] | None = None  # None: the claim's registered readings apply


@dataclass(frozen=True)
class Claim:
    paper: str
    claim_id: str
    statement: str
    check: Callable[[bool], Outcome] = field(compare=False)
    sweep: bool = True  # verified by a finite numeric sweep (vs. an exact computation)
    quote: str = ""
    reading: str = ""
    restated_from: str | None = None
    readings: tuple[Reading, ...] = ()


REGISTRY: list[Claim] = []


def claim(paper: str, claim_id: str, statement: str, sweep: bool = True, *, quote: str = "",
          reading: str = "", restated_from: str | None = None, readings=None):
    """Decorator: register ``fn(quick) -> Outcome`` as the checker of one claim.  ``sweep``:
    the check is a finite numeric sweep, so "verified" means no counterexample was found.
    ``quote``: the paper's words verbatim (hypotheses and quantifiers included); ``reading``:
    gpaudit's formal reading of them; ``restated_from``: the cited source of a restatement;
    ``readings``: the readings considered (``Reading``s; by default those of
    ``gpaudit.papers.readings.READINGS`` for this claim)."""

    def deco(fn: Callable[[bool], Outcome]):
        if any(c.paper == paper and c.claim_id == claim_id for c in REGISTRY):
            raise ValueError(f"duplicate claim {paper}:{claim_id}")
        rs = tuple(readings if readings is not None else READINGS.get((paper, claim_id), ()))
        REGISTRY.append(Claim(paper, claim_id, statement, fn, sweep, quote, reading, restated_from, rs))
        return fn

    return deco


def typo_readings(statement: str, out: Outcome) -> list[Reading]:
    """The readings of a misprint: the printed symbols (they fail: the witness) and the intended
    statement, which corrects the symbols rather than reading them; it holds (``out.intended``),
    which is what the grade ``typo`` reports."""
    shown = ", ".join(f"{k} = {v}" for k, v in (out.witness or {}).items())
    return [Reading(f"as printed (in the paper's Markdown extraction the registry quotes): {statement}", False,
                    f"counterexample: {shown}" if shown else out.evidence),
            Reading("the intended statement" + (f" ({out.condition})" if out.condition else ""), True,
                    (out.intended or "") + "; a correction of the printed symbols, not a reading of them: graded typo, "
                    "the intended statement reported as holding", reasonable=False)]


def run_one(c: Claim, quick: bool = False) -> ClaimResult:
    t0 = time.perf_counter()
    try:
        with mp.workdps(DPS):
            out = c.check(quick)
        if out.verdict not in VERDICTS:
            raise ValueError(f"invalid verdict {out.verdict!r}")
        if out.verdict == "refuted" and not out.witness:
            out = Outcome("unknown", "checker reported a refutation without a witness: " + out.evidence)
        if out.severity is not None and out.severity not in SEVERITIES:
            raise ValueError(f"invalid severity {out.severity!r}")
        if out.verdict == "verified" and out.severity is not None:
            raise ValueError("a verified claim has no severity")
        readings = list(c.readings) if out.readings is None else list(out.readings)
        if not readings and out.verdict == "refuted" and out.severity == "typo":
            readings = typo_readings(c.statement, out)
        reasonable = [r for r in readings if r.reasonable]
        if out.verdict == "refuted" and (not reasonable or any(r.holds for r in reasonable)):
            why = ("no reasonable reading recorded" if not reasonable else
                   "a reasonable reading holds: " + next(r.text for r in reasonable if r.holds))
            out = Outcome("unknown", f"refutation withheld ({why}; an accusation stands only if no reasonable "
                                     f"reading holds): " + out.evidence, method=out.method)
        ev = out.evidence
        if (out.verdict == "verified" and (out.method == "sweep" or (not out.method and c.sweep))
                and "no counterexample" not in ev):
            ev = ev.rstrip(". ") + "; no counterexample found in this sweep"
        res = ClaimResult(c.paper, c.claim_id, c.statement, out.verdict, ev,
                          dict(out.witness) if out.witness else None, out.condition,
                          severity=out.severity, quote=c.quote, reading=c.reading,
                          restated_from=c.restated_from, intended=out.intended, method=out.method,
                          readings=readings)
    except Exception as exc:  # fail closed
        tb = traceback.format_exc(limit=2).strip().splitlines()[-1]
        res = ClaimResult(c.paper, c.claim_id, c.statement, "unknown",
                          f"checker error: {type(exc).__name__}: {exc} ({tb})",
                          quote=c.quote, reading=c.reading, restated_from=c.restated_from)
    res.seconds = time.perf_counter() - t0
    return res


def run(paper: str | None = None, progress=None, quick: bool = False) -> list[ClaimResult]:
    """Run the registered claims (optionally of one paper), in registration order;
    ``progress(done, total, result)`` is called after each claim."""
    todo = [c for c in REGISTRY if paper is None or c.paper == paper]
    out = []
    for c in todo:
        out.append(run_one(c, quick))
        if progress:
            progress(len(out), len(todo), out[-1])
    return out
