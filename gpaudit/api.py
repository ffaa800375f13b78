"""The Python API of gpaudit: load, check and report on ``mech.yaml`` configurations.

    >>> from gpaudit import api
    >>> result = api.check("examples/threshold-student-t.yaml", effort="quick")
    >>> result.verdict in (api.CERTIFIED, api.REFUTED, api.UNKNOWN)
    True
    >>> paths = api.report(result, "out/threshold-student-t")        # json, md, html (+ figures)

Everything here is what ``gpaudit check`` does, as functions: the same pipeline, the same
verdicts (refuted < unknown < certified), the same JSON report. A configuration problem raises
:class:`ConfigError` (one line naming the file, the field and what is wrong); an internal error
while checking becomes, by default, an ``unknown`` result with an ``internal`` check (fail
closed), as on the command line. See docs/api.md.
"""

from __future__ import annotations

import os
from pathlib import Path

from .errors import ConfigError
from .spec.types import Spec
from .verdict import (CERTIFIED, CONFIG_ERROR_EXIT, EXIT_CODES, REFUTED, SKIPPED, UNKNOWN, Check,
                      Result, worst, worst_exit)

__all__ = ["load", "check", "report", "mechanism_for", "to_json", "write_json", "write_junit",
           "compare_baseline", "gate", "Result", "Check", "Spec", "ConfigError", "CERTIFIED",
           "REFUTED", "UNKNOWN", "SKIPPED", "EXIT_CODES", "CONFIG_ERROR_EXIT", "EFFORTS", "worst",
           "worst_exit"]

EFFORTS = ("quick", "standard", "thorough")


def load(path) -> Spec:
    """Read and validate one configuration file (raises :class:`ConfigError` on bad input)."""
    from .spec.load import load_spec
    return load_spec(os.fspath(path))


def check(path_or_spec, seed: int | None = None, effort: str | None = None, progress=None, *,
          fail_closed: bool = True, full_evidence: bool = False) -> Result:
    """Check one configuration (a path or a loaded :class:`Spec`) and return its :class:`Result`.

    ``seed`` and ``effort`` ("quick", "standard", "thorough") override the file's ``audit``
    settings; ``progress``, if given, is called as ``progress(stage: str, fraction: float)``.
    With ``fail_closed`` (the default), an internal error gives an ``unknown`` result carrying an
    ``internal`` check with the error; with ``fail_closed=False`` it propagates. A python callable
    that fails at an input (any exception but KeyboardInterrupt, SystemExit included; NaN; a value
    that changes between precisions) gives that input no value and the result a ``user_code`` check
    naming the callable, the input and the exception; the audit goes on elsewhere.
    A witness verified on an exact model settles ``refuted`` before the proof stage, which is then
    skipped; ``full_evidence=True`` runs it anyway (the certified bound of a refuted configuration,
    and the consistency check between the two), with the same witness.
    """
    if effort is not None and effort not in EFFORTS:
        raise ValueError(f"effort must be one of {', '.join(EFFORTS)}, got {effort!r}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    loaded = isinstance(path_or_spec, Spec) or hasattr(path_or_spec, "notion")   # or a smoothed-DP spec
    spec = path_or_spec if loaded else load(path_or_spec)
    from .runner import check_one
    from .runtime import cache as proof_cache
    outcome = check_one(spec, seed, effort, full_evidence, proof_cache.cache_enabled(), progress,
                        reraise=(ConfigError,) if fail_closed else (Exception,))
    return outcome[1]


def internal_error_result(spec: Spec, err: BaseException) -> Result:
    """The fail-closed result of a check that raised (gpaudit.runner.internal_error_result)."""
    from .runner import internal_error_result as made
    return made(spec, err)


def mechanism_for(spec_or_result):
    """The mechanism model of a :class:`Spec`, or of a :class:`Result` whose configuration file
    still has the hash it was checked with; None when it cannot be built (or the file changed,
    so figures would show a different mechanism)."""
    from .model.mechanism import build_mechanism
    try:
        if isinstance(spec_or_result, Spec):
            return build_mechanism(spec_or_result)
        spec = load(spec_or_result.path)
        if spec.sha256 != spec_or_result.sha256:
            return None
        return build_mechanism(spec)
    except Exception:  # noqa: BLE001 - a report without figures is still a report
        return None


def report(result: Result, out_dir, formats=("json", "md", "html"), mech=None) -> dict[str, Path]:
    """Write the report of ``result`` into ``out_dir`` in the given formats.

    Formats: "json" (report.json, as ``gpaudit check --json`` writes it), "md" (report.md with its
    figures as PNG files beside it), "html" (report.html, self-contained), "png" (figures only).
    The figures need the mechanism: pass ``mech`` or let it be rebuilt from ``result.path``.
    Returns {"json": path, "md": path, "html": path, "png:<figure>": path, ...}.
    """
    from .report.directory import write_report
    if isinstance(formats, str):
        formats = (formats,)
    if mech is None and set(formats) - {"json"}:
        mech = mechanism_for(result)
    return write_report(result, mech, out_dir, tuple(formats))


def to_json(result: Result) -> dict:
    """The contract's JSON report object of one result."""
    from .report.json_report import result_to_json
    return result_to_json(result)


def write_json(results, path) -> None:
    """Write the JSON report atomically (one object for one result, a list for several)."""
    from .report.json_report import result_to_json, write_json_atomic
    if isinstance(results, Result):
        results = [results]
    payload = [result_to_json(r) for r in results]
    write_json_atomic(os.fspath(path), payload[0] if len(payload) == 1 else payload)


def write_junit(results, path) -> None:
    """Write JUnit XML (one testsuite per configuration) atomically; see docs/ci.md."""
    from .report.junit import write_junit as _write
    _write(results, os.fspath(path))


def compare_baseline(results, baseline) -> list[str]:
    """Regressions against a previous JSON report (a path, a dict or a list); [] = none."""
    from .report.baseline import compare, load_baseline
    if isinstance(baseline, (str, os.PathLike)):
        baseline = load_baseline(baseline)
    return compare(results, baseline)


def gate(results, baseline=None) -> tuple[int, list[str]]:
    """(exit code, regressions) of a CI gate: the worst verdict's exit code, and 4 when the
    verdicts pass but the run regresses against ``baseline`` (a path, dict or list)."""
    from .report.baseline import gate as _gate, load_baseline
    if isinstance(baseline, (str, os.PathLike)):
        baseline = load_baseline(baseline)
    return _gate(results, baseline)
