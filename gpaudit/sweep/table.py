"""The rows of a sweep, and sweep.csv / sweep.json.

One row per point, in grid order: the varied parameters as exact strings, then

| column | content |
|---|---|
| verdict | certified / refuted / unknown (as `gpaudit check`), or error |
| epsilon_claimed, delta_claimed | the point's claim (exact) |
| epsilon_lower | the largest verified loss rate (decimal rounded down, as the JSON report) |
| epsilon_upper | the certified bound (decimal rounded up, as the JSON report); blank when none |
| paper_epsilon, paper_source | the first of the papers' constants for this family and parameters, and its citation; blank when none |
| seconds | the check's wall time |
| config_sha256 | the point's configuration hash, as `gpaudit check` reports it |
| witness | the witness of a refuted point (compact JSON), else blank |
| note | why a point has no result (a configuration or internal error), else blank |

A parameter whose name is one of these columns is written as ``param:NAME``.
"""

from __future__ import annotations

import csv
import io
import json

from .. import __version__
from ..verdict import worst_exit
from .worker import verdict_of

COLUMNS = ("verdict", "epsilon_claimed", "delta_claimed", "epsilon_lower", "epsilon_upper", "paper_epsilon",
           "paper_source", "seconds", "config_sha256", "witness", "note")
DELTA_COLUMNS = ("delta_lower", "delta_upper")   # added after `note` when a point has them (notion: smoothed_dp | dp)
EXIT = {"certified": 0, "refuted": 1, "unknown": 3, "error": 2}
VERDICTS = ("certified", "refuted", "unknown", "error")


def make_row(point, rec: dict, point_file: str | None) -> dict:
    """The row of one point from its record (the verdict decided again from the evidence)."""
    rep = rec.get("report") or {}
    verdict = verdict_of(rec)
    papers = [{"source": s, "epsilon": v} for s, v in rec.get("paper_constants") or []]
    note = rec.get("error") or ""
    if verdict not in ("error", rep.get("verdict")):
        note = (f"the record states {rep.get('verdict')}, which the rule table does not give from its "
                "evidence: unknown")
    claim = rep.get("claim") or {"epsilon": str(point.spec.claim.epsilon), "delta": str(point.spec.claim.delta)}
    seconds = (rep.get("info") or {}).get("seconds", rec.get("seconds"))
    row = {"params": dict(point.values), "verdict": verdict, "epsilon_claimed": claim["epsilon"],
            "delta_claimed": claim["delta"], "epsilon_lower": rep.get("epsilon_lower"),
            "epsilon_upper": rep.get("epsilon_upper"), "paper_constants": papers,
            "seconds": seconds, "config_sha256": rec.get("config_sha256") or point.sha256,
            "witness": rep.get("witness") if verdict == "refuted" else None, "note": note,
            "point_file": point_file}
    row.update({k: rep[k] for k in DELTA_COLUMNS if k in rep})   # smoothed DP / DP (gpaudit/smoothed)
    return row


def exit_code(rows) -> int:
    """As `gpaudit check` with several files: the worst (2, then 1, then 3, then 0)."""
    return worst_exit(EXIT[r["verdict"]] for r in rows)


def counts(rows) -> dict:
    return {v: sum(r["verdict"] == v for r in rows) for v in VERDICTS}


def param_columns(names) -> list[str]:
    return [f"param:{n}" if n in COLUMNS else n for n in names]


def csv_text(names, rows) -> str:
    buf = io.StringIO()
    out = csv.writer(buf, lineterminator="\n")
    extra = [k for k in DELTA_COLUMNS if any(k in r for r in rows)]
    out.writerow(param_columns(names) + list(COLUMNS) + extra)
    for r in rows:
        paper = r["paper_constants"][0] if r["paper_constants"] else {"epsilon": "", "source": ""}
        witness = json.dumps(r["witness"], sort_keys=True, separators=(",", ":")) if r["witness"] else ""
        out.writerow([r["params"][n] for n in names] + [
            r["verdict"], r["epsilon_claimed"], r["delta_claimed"], _blank(r["epsilon_lower"]),
            _blank(r["epsilon_upper"]), paper["epsilon"], paper["source"], _blank(r["seconds"]),
            r["config_sha256"], witness, r["note"]] + [_blank(r.get(k)) for k in extra])
    return buf.getvalue()


def json_payload(meta: dict, rows) -> dict:
    """sweep.json: what was swept and how, then one object per point (grid order)."""
    return {"gpaudit_version": __version__, "schema": 1, **meta, "counts": counts(rows),
            "exit_code": exit_code(rows), "points": rows}


def _blank(v) -> str:
    return "" if v is None else str(v)
