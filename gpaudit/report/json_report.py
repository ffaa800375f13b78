"""The JSON report of the contract: one object per configuration, soundness numbers as strings."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from .. import __version__
from ..kernel.numbers import decimal_down, decimal_up
from ..provenance import code_sha256
from ..verdict import Result


def _dec(v, rounding, digits=30):
    """A decimal string: upper bounds rounded up, lower bounds down (never to nearest)."""
    if v is None or isinstance(v, str):
        return v
    return rounding(v, digits)


def result_to_json(r: Result) -> dict:
    out = {
        "gpaudit_version": __version__,
        "schema": 1,
        "name": r.name,
        "file": r.path,
        "config_sha256": r.sha256,
        "code_sha256": code_sha256(),
        "verdict": r.verdict,
        "claim": r.claim,
        "epsilon_lower": _dec(r.epsilon_lower, decimal_down),
        "epsilon_upper": _dec(r.epsilon_upper, decimal_up),
        "witness": r.witness,
        "checks": [c.to_json() for c in r.checks],
        # what the kernel checked before certifying (gpaudit verify re-checks it): docs/certificate-format.md
        "certificate": (r.info or {}).get("certificate"),
        "info": {k: v for k, v in (r.info or {}).items() if k != "certificate"},
    }
    if getattr(r, "delta_lower", None) is not None:   # smoothed DP / DP (gpaudit/smoothed)
        out["delta_lower"] = _dec(r.delta_lower, decimal_down)
        out["delta_upper"] = _dec(r.delta_upper, decimal_up)
    return out


def write_atomic(path, data: bytes) -> None:
    """Write the whole file or nothing: a temporary file renamed into place, ordinary permissions."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent.resolve(), prefix=".gpaudit-", suffix=path.suffix)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        mask = os.umask(0o022)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)  # mkstemp makes 0600; a report is an ordinary file
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def write_json_atomic(path: str, payload) -> None:
    """The JSON report, written atomically."""
    write_atomic(path, (json.dumps(payload, indent=2, default=str) + "\n").encode("utf-8"))


# ---------------------------------------------------------------------------------------------
# Reading a JSON report back (`gpaudit report --from-json`)

VERDICTS = ("certified", "refuted", "unknown")
CHECK_STATUSES = ("certified", "refuted", "unknown", "skipped")


class ReportFormatError(ValueError):
    """A JSON report that cannot be rendered: one line naming the file, the entry's field and
    the problem."""

    def __init__(self, path: str, field: str, problem: str):
        self.path, self.field, self.problem = path, field, problem
        super().__init__(self.line())

    def line(self) -> str:
        return f"{self.path}: {self.field + ': ' if self.field else ''}{self.problem}"


class RecordedResult:
    """A result as a JSON report records it, for rendering only.

    It has the attributes the Markdown and HTML reports read from a
    :class:`~gpaudit.verdict.Result`, but it is not one: its verdict is what the report says (it
    was decided by the run that wrote the report, not here), and nothing takes it for a decision.
    ``recorded`` is the report object as read; ``source`` the report file;
    ``mechanism_note`` (set by the caller) why the figures that need the model are missing."""

    def __init__(self, obj: dict, source: str):
        from ..verdict import Check, Verdict
        self.recorded = obj
        self.source = source
        self.name = obj["name"].strip()
        self.path = obj["file"]
        self.sha256 = obj["config_sha256"]
        self.verdict = Verdict(obj["verdict"])
        self.claim = dict(obj["claim"])
        self.claim.setdefault("delta", "0")
        self.epsilon_lower = obj.get("epsilon_lower")
        self.epsilon_upper = obj.get("epsilon_upper")
        self.witness = obj.get("witness") or None
        self.checks = [Check(c["id"], c["status"], c.get("method", ""), c.get("detail", ""),
                             c.get("evidence") or {}) for c in obj["checks"]]
        self.info = obj.get("info") or {}
        self.decision = None
        self.gpaudit_version = obj.get("gpaudit_version")
        self.mechanism_note = None

    @property
    def exit_code(self) -> int:
        from ..verdict import EXIT_CODES
        return EXIT_CODES[self.verdict]


def read_entries(path: str) -> tuple[str, list]:
    """(the name to show, [(where, entry)]) of a JSON report: one object or a non-empty list of
    them ('-' reads stdin).  Raises :class:`ReportFormatError` for a file that cannot be read or
    is not JSON."""
    import sys
    shown = "<stdin>" if path == "-" else str(path)
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
    except OSError as err:
        raise ReportFormatError(shown, "", f"cannot read file: {err.strerror or err}") from None
    except UnicodeDecodeError:
        raise ReportFormatError(shown, "", "file is not UTF-8 text") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise ReportFormatError(shown, "", f"not valid JSON (line {err.lineno}, column {err.colno}: "
                                           f"{err.msg})") from None
    if isinstance(data, dict):
        return shown, [("", data)]
    if isinstance(data, list) and data:
        return shown, [(f"[{i}]", e) for i, e in enumerate(data)]
    raise ReportFormatError(shown, "", "not a gpaudit JSON report (expected an object, or a non-empty "
                                           "list of objects, as `gpaudit check --json` writes)")


def read_report(path: str) -> list[RecordedResult]:
    """The results of a `gpaudit check --json` report (one object or a list; '-' reads stdin).

    Raises :class:`ReportFormatError` for a file that cannot be read, is not JSON, or is not a
    gpaudit report (a field missing or of the wrong kind), naming the entry and the field."""
    shown, entries = read_entries(path)
    out = []
    for where, entry in entries:
        _validate_entry(entry, shown, where)
        out.append(RecordedResult(entry, shown))
    return out


def _validate_entry(e, shown: str, where: str) -> None:
    def fail(field, problem):
        raise ReportFormatError(shown, f"{where}.{field}" if where and field else (where or field), problem)

    if not isinstance(e, dict):
        fail("", f"expected a report object, got {type(e).__name__}")
    if e.get("schema") != 1:
        fail("schema", f"unsupported report schema {e.get('schema')!r} (this gpaudit reads 1)")
    for key in ("name", "file", "config_sha256"):
        if not isinstance(e.get(key), str) or not e[key].strip():
            fail(key, "missing, or not a non-empty string")
    if e.get("verdict") not in VERDICTS:
        fail("verdict", f"must be one of {', '.join(VERDICTS)}, not {e.get('verdict')!r}")
    claim = e.get("claim")
    if not isinstance(claim, dict) or not isinstance(claim.get("epsilon"), str) \
            or not isinstance(claim.get("delta", "0"), str):
        fail("claim", "expected an object with decimal strings epsilon and delta")
    for key in ("epsilon_lower", "epsilon_upper"):
        value = e.get(key)
        if value is not None and not _is_decimal(value):
            fail(key, f"expected a decimal string or null, not {value!r}")
    witness = e.get("witness")
    if witness is not None and not isinstance(witness, dict):
        fail("witness", "expected an object or null")
    if e["verdict"] == "refuted" and not witness:
        fail("witness", "a refuted verdict needs its witness")
    checks = e.get("checks")
    if not isinstance(checks, list):
        fail("checks", "expected a list of checks")
    for i, c in enumerate(checks):
        if not isinstance(c, dict) or not isinstance(c.get("id"), str) or c.get("status") not in CHECK_STATUSES:
            fail(f"checks[{i}]", "expected an object with an id and a status "
                                 f"({', '.join(CHECK_STATUSES)})")
        for key in ("method", "detail"):
            if not isinstance(c.get(key, ""), str):
                fail(f"checks[{i}].{key}", "expected a string")
        if not isinstance(c.get("evidence", {}) or {}, dict):
            fail(f"checks[{i}].evidence", "expected an object")
    if not isinstance(e.get("info", {}) or {}, dict):
        fail("info", "expected an object")


def _is_decimal(value) -> bool:
    if not isinstance(value, str):
        return False
    try:
        float(value)
    except ValueError:
        return False
    return True
