"""Compare a run against a baseline JSON report: gpaudit as a regression gate in CI.

A regression, for a configuration matched by name between the baseline and the run, is

* a worse verdict (certified > unknown > refuted),
* a larger certified epsilon_upper (compared as decimals with mpmath at 60 digits), or an
  epsilon_upper that disappeared (null where the baseline had a number; not where a witness
  settled refuted and the proof stage was skipped, which the verdict comparison covers),
* a witness where the baseline had none.

Configurations only in the run, or only in the baseline, are not regressions (a run may check a
subset); :func:`unmatched` lists them for a report.
"""

from __future__ import annotations

import dataclasses
import json

import mpmath

from ..verdict import CERTIFIED, EXIT_CODES, REFUTED, UNKNOWN, worst_exit
from .junit import as_report

RANK = {REFUTED: 0, UNKNOWN: 1, CERTIFIED: 2}
REGRESSION_EXIT = 4  # suggested exit code when the verdicts alone would pass (see gate)


def load_baseline(path) -> list[dict]:
    """Read a previous `gpaudit check --json` report (one object or a list) as a list of dicts."""
    with open(path, encoding="utf-8") as fh:
        return _as_list(json.load(fh))


def _as_list(baseline) -> list[dict]:
    if isinstance(baseline, dict):
        return [baseline]
    if isinstance(baseline, list) and all(isinstance(b, dict) for b in baseline):
        return list(baseline)
    raise ValueError("a baseline is a JSON report: an object or a list of objects")


def _by_name(reports) -> dict[str, dict]:
    return {str(r.get("name")): r for r in reports}


def _decimal(v):
    """A decimal string (or number) as an mpf; None stays None."""
    if v is None:
        return None
    with mpmath.workdps(60):
        return mpmath.mpf(str(v))


def compare_one(new: dict, old: dict) -> list[str]:
    """The regressions of one configuration (both as JSON report dicts), each named by it."""
    return [f"{new.get('name')}: {r}" for r in _regressions_of(new, old)]


def _regressions_of(new: dict, old: dict) -> list[str]:
    out = []
    nv, ov = new.get("verdict"), old.get("verdict")
    if RANK.get(nv, -1) < RANK.get(ov, -1):
        out.append(f"verdict got worse: {ov} -> {nv}")
    nu, ou = new.get("epsilon_upper"), old.get("epsilon_upper")
    skipped = bool((new.get("info") or {}).get("proof_stage"))
    if skipped:
        pass  # refuted by a witness, the proof stage not run: no bound computed is not a bound lost
    elif ou is not None and nu is None:
        out.append(f"certified epsilon_upper lost: {ou} -> null")
    elif ou is not None:
        with mpmath.workdps(60):
            if _decimal(nu) > _decimal(ou):
                out.append(f"certified epsilon_upper increased: {ou} -> {nu}")
    if new.get("witness") and not old.get("witness"):
        out.append(f"a witness appeared (verdict {nv}): {_witness_brief(new['witness'])}")
    return out


def with_regressions(results, baseline) -> list:
    """Each Result with its regressions against ``baseline`` in its info (``info.regressions``, []
    when it has none or the baseline does not hold it), so that the JSON report, JUnit, the
    annotations and the rendered reports show them, not only the exit code."""
    old = _by_name(_as_list(baseline))
    out = []
    for r in results:
        prev = old.get(str(r.name))
        found = [] if prev is None else _regressions_of(as_report(r), prev)
        out.append(dataclasses.replace(r, info={**r.info, "regressions": found}))
    return out


def _witness_brief(w: dict) -> str:
    keys = ("x", "x_prime", "y", "dist", "log_ratio", "hockey_stick")
    return ", ".join(f"{k}={w[k]}" for k in keys if k in w)


def compare(results, baseline) -> list[str]:
    """Human-readable regressions of ``results`` against ``baseline``; [] means the gate passes.

    ``results``: Result objects or JSON report dicts (one or a list). ``baseline``: a parsed
    previous JSON report (a dict or a list of dicts, the contract's format).
    """
    new = [as_report(r) for r in (results if isinstance(results, (list, tuple)) else [results])]
    old = _by_name(_as_list(baseline))
    out = []
    for rep in new:
        prev = old.get(str(rep.get("name")))
        if prev is not None:
            out += compare_one(rep, prev)
    return out


def unmatched(results, baseline) -> tuple[list[str], list[str]]:
    """(names only in the run, names only in the baseline): not regressions, worth a note."""
    new = {str(as_report(r).get("name")) for r in (results if isinstance(results, (list, tuple)) else [results])}
    old = set(_by_name(_as_list(baseline)))
    return sorted(new - old), sorted(old - new)


def gate(results, baseline=None) -> tuple[int, list[str]]:
    """The exit code of a CI gate and the regression messages.

    Without a baseline: the contract's exit code (worst verdict). With one: the same, except that
    a run whose verdicts would pass (exit 0) but that regresses exits with REGRESSION_EXIT (4).
    """
    items = results if isinstance(results, (list, tuple)) else [results]
    verdicts = [r.get("verdict") if isinstance(r, dict) else r.verdict for r in items]
    code = worst_exit(EXIT_CODES.get(v, EXIT_CODES[UNKNOWN]) for v in verdicts)
    if baseline is None:      # the verdicts decide: no report is built (its code identity costs a parse)
        return code, []
    regressions = compare([as_report(r) for r in items], baseline)
    if regressions and code == 0:
        code = REGRESSION_EXIT
    return code, regressions
