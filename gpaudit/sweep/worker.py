"""One point of a sweep, checked exactly as `gpaudit check` checks a file.

:func:`run_point` is the task that local worker processes and Dask workers run: it takes the
substituted configuration text, the original file's path, the seed, the effort and
``--full-evidence``, and returns a plain dict (JSON data only), so it crosses any process or
machine boundary unchanged. The check itself is ``gpaudit.api.check``, the function behind every
``gpaudit check`` (through ``gpaudit.runner.check_one``, as the command line does
alike: this package may not import the command line that registers it).

The record carries the kernel's evidence beside the verdict, and the calling process decides the
verdict again from it (:func:`verdict_of`), as ``gpaudit check -j N`` does with a Decision that
crosses a process boundary: a record whose stated verdict is not what the rule table gives is
``unknown``.

Checks in one process run one at a time (a lock): mpmath's working precision, z3's context and
the proof stage's work budget are process-wide, so two checks in threads of one Dask worker
would disturb each other.
"""

from __future__ import annotations

import json
import threading
import time

import mpmath

from ..errors import ConfigError
from ..runner import check_one
from .points import POINT_SCHEMA, code_identity, spec_of

_ONE_CHECK_AT_A_TIME = threading.Lock()


def run_point(text: str, path: str, seed: int, effort: str, full_evidence: bool = False,
              cache: bool = True) -> dict:
    """Check one substituted configuration; never raises (an internal error is an unknown
    record, fail closed). Returns {"kind": "result" | "config" | "internal", ...}."""
    from ..report.json_report import result_to_json

    t0 = time.perf_counter()
    rec = {"schema": POINT_SCHEMA, "code": code_identity(), "seed": seed, "effort": effort,
           "full_evidence": bool(full_evidence), "report": None, "evidence": None,
           "paper_constants": [], "error": None}
    with _ONE_CHECK_AT_A_TIME:   # everything: formatting numbers sets mpmath's and arb's precision too
        try:
            spec = spec_of(text, path)
        except ConfigError as err:
            rec.update(kind="config", error=err.line(), seconds=round(time.perf_counter() - t0, 3))
            return rec
        outcome = check_one(spec, seed, effort, full_evidence, cache)
        rec["config_sha256"] = spec.sha256
        if outcome[0] == "config":
            rec.update(kind="config", error=outcome[1])
        else:
            result = outcome[1]
            rec.update(kind=outcome[0], report=result_to_json(result), evidence=_evidence(result),
                       paper_constants=paper_constants_of(spec))
            if outcome[0] == "internal":
                rec.update(error=outcome[2], traceback=outcome[3])
    rec["seconds"] = round(time.perf_counter() - t0, 3)
    return json.loads(json.dumps(rec, default=str))   # plain JSON data, as a point file holds it


def _evidence(result) -> dict | None:
    """The kernel's input behind the verdict (None for a result the rule table did not decide:
    an internal error or a raising python callable, both unknown)."""
    from ..kernel import certificate as kcert
    ev = getattr(result.decision, "evidence", None)
    if ev is None:
        return None
    return {"witness": ev.witness, "witness_exact": ev.witness_exact, "within_claim": ev.within_claim,
            "certificate_checks": [str(s) for s in ev.certificate_checks], "inconsistent": ev.inconsistent,
            "verified": kcert.record(ev.verified)}


def verdict_of(rec: dict) -> str:
    """The verdict of a record, decided again by the kernel's rule table from its evidence:
    certified / refuted / unknown, or "error" for a configuration error."""
    from ..kernel import certificate as kcert
    from ..kernel.decide import UNKNOWN, Evidence, decide

    if rec.get("kind") == "config" or not rec.get("report"):
        return "error"
    stated = rec["report"].get("verdict")
    ev = rec.get("evidence")
    if not isinstance(ev, dict):
        return str(UNKNOWN)
    try:
        decided = decide(Evidence(witness=ev["witness"] is True, witness_exact=ev["witness_exact"] is True,
                                  within_claim=ev["within_claim"] is True,
                                  certificate_checks=tuple(ev["certificate_checks"]),
                                  inconsistent=ev["inconsistent"] is True,
                                  verified=kcert.recorded(ev.get("verified")))).verdict
    except (KeyError, TypeError, ValueError):
        return str(UNKNOWN)
    return str(decided) if str(decided) == stated else str(UNKNOWN)


def paper_constants_of(spec) -> list[list[str]]:
    """[[citation, epsilon], ...]: the papers' closed-form rates for this family and parameters
    (``gpaudit.certify.family_sup.paper_constants``, the numbers a report shows beside the
    certified bound), formatted as there (12 digits); [] where no paper gives one."""
    from ..certify.family_sup import paper_constants
    from ..model.families import make_family
    try:
        with mpmath.workdps(30):
            family = make_family(spec.noise.family, **spec.noise.shape)
            return [[label, mpmath.nstr(value, 12)]
                    for label, value in paper_constants(family, spec.noise.eta, spec.bound.gamma)]
    except Exception:  # noqa: BLE001 - a reference number, never part of the verdict
        return []
