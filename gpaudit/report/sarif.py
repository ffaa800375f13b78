"""SARIF 2.1.0 for code scanning (GitHub, GitLab, IDEs): one result per configuration that fails.

A SARIF result is an alert, so a certified configuration has none (an alert closes when its result
disappears). The rules:

* ``gpaudit/refuted`` (level error): the claim is refuted by a verified witness;
* ``gpaudit/unknown`` (level warning): neither certified nor refuted (a CI gate fails on it);
* ``gpaudit/regression`` (level error): a regression against ``--baseline`` (one per regression);
* ``gpaudit/configuration-error`` (level error): the file could not be read or validated.

Each result points at its file (a URI relative to the working directory where it lies under it)
and, where known, at the line: of the error, or of ``claim:``.  ``partialFingerprints`` carry the
configuration's name and rule, so an alert survives unrelated edits of the file.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from .. import __version__
from .notices import regressions

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
RULES = {
    "gpaudit/refuted": ("error", "The privacy claim is refuted: a witness pair verified on the exact model "
                                 "has a privacy loss above the claim."),
    "gpaudit/unknown": ("warning", "The privacy claim is neither certified nor refuted; a CI gate treats "
                                   "unknown as a failure."),
    "gpaudit/regression": ("error", "The run regressed against the baseline report (a worse verdict, a "
                                    "larger certified epsilon, or a new witness)."),
    "gpaudit/configuration-error": ("error", "The configuration file could not be read or validated."),
}


def _uri(path: str) -> str:
    p = Path(path)
    try:
        p = p.resolve().relative_to(Path.cwd().resolve())
    except ValueError:
        return p.resolve().as_uri()
    return p.as_posix()


def _claim_line(path: str) -> int | None:
    from ..spec.load import field_lines
    try:
        import yaml
        return field_lines(yaml.compose(Path(path).read_text(encoding="utf-8"), Loader=yaml.SafeLoader)).get("claim")
    except Exception:  # noqa: BLE001 - a location without a line is still a location
        return None


def _location(path: str, line: int | None) -> dict:
    phys = {"artifactLocation": {"uri": _uri(path)}}
    if line:
        phys["region"] = {"startLine": int(line)}
    return {"physicalLocation": phys}


def _result(rule: str, message: str, path: str, line: int | None, name: str) -> dict:
    return {"ruleId": rule, "ruleIndex": list(RULES).index(rule), "level": RULES[rule][0],
            "message": {"text": message}, "locations": [_location(path, line)],
            "partialFingerprints": {"gpauditConfiguration/v1": f"{name}:{rule}"}}


def _summary(r) -> str:
    claim = r.claim or {}
    upper = "no certified bound" if r.epsilon_upper is None else f"certified <= {r.epsilon_upper}"
    return f"epsilon claimed {claim.get('epsilon')}, delta {claim.get('delta', '0')}; {upper}"


def sarif_log(results, config_errors=(), summary=_summary) -> dict:
    """The SARIF log of a run: ``results`` (Result objects) and ``config_errors`` [(path, line
    text, line number or None)] of the files that could not be checked; ``summary(result)`` is the
    text of a result's message after its name and verdict."""
    out = []
    for path, text, lineno in config_errors:
        out.append(_result("gpaudit/configuration-error", text, path, lineno, os.path.basename(path)))
    for r in results:
        verdict = str(r.verdict)
        line = _claim_line(r.path)
        if verdict in ("refuted", "unknown"):
            message = summary(r)
            advice = (r.info or {}).get("advice")
            if advice and verdict == "unknown":
                message += f". Advice: {advice}"
            out.append(_result(f"gpaudit/{verdict}", f"{r.name}: {verdict}: {message}", r.path, line, r.name))
        for reg in regressions(r):
            out.append(_result("gpaudit/regression", f"{r.name}: regression: {reg}", r.path, line, r.name))
    rules = [{"id": rid, "name": rid.split("/")[1].replace("-", " "), "shortDescription": {"text": text},
              "defaultConfiguration": {"level": level}} for rid, (level, text) in RULES.items()]
    return {"$schema": SCHEMA, "version": "2.1.0",
            "runs": [{"tool": {"driver": {"name": "gpaudit", "version": __version__, "rules": rules}},
                      "results": out}]}


def sarif_text(results, config_errors=(), summary=_summary) -> str:
    return json.dumps(sarif_log(results, config_errors, summary), indent=2) + "\n"
