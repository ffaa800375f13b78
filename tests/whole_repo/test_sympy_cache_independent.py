"""No verdict depends on sympy's cache: decision code makes no identity test on sympy objects.

With SYMPY_USE_CACHE=no sympy builds a new object for every expression, so `a is b` is False where
a normal run (the cache on) finds the same object; `certify/family_z3._prove_le` once told its two
claims apart that way, and threshold-polyplace went from certified to unknown.  The whole catalog
is checked in a fresh process with sympy's cache off, at the baseline's effort: the same verdicts
and the same certified bounds as reports/baseline.json, which tests/whole_repo/test_catalog.py
shows a normal run (the cache on) gives, to the last digit.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from gpaudit.report.catalog import BASELINE_EFFORT, load_catalog_baseline

ROOT = Path(__file__).resolve().parents[2]


def _catalog(tmp_path: Path, **env) -> dict:
    out = tmp_path / f"catalog-{len(list(tmp_path.iterdir()))}.json"
    files = sorted(str(p) for p in (ROOT / "examples").glob("*.yaml"))
    run = subprocess.run([sys.executable, "-m", "gpaudit", "check", *files, "-q", "-j", "1", "--json", str(out),
                          "--effort", BASELINE_EFFORT],
                         cwd=ROOT, capture_output=True, text=True, timeout=1500,
                         env=dict(os.environ, PYTHONPATH=str(ROOT), GPAUDIT_NO_CACHE="1", **env))
    assert run.returncode in (0, 1, 3), run.stderr[-2000:]
    return {r["name"]: (r["verdict"], r["epsilon_upper"]) for r in json.loads(out.read_text())}


@pytest.mark.slow  # the catalog in a fresh process without sympy's cache (a few minutes)
def test_the_catalog_is_the_same_without_sympys_cache(tmp_path):
    without = _catalog(tmp_path, SYMPY_USE_CACHE="no")
    base = {e["name"]: (e["verdict"], e["epsilon_upper"]) for e in load_catalog_baseline(ROOT)
            if e["file"].count("/") == 1}           # examples/*.yaml, not examples/broken/
    assert len(base) == len(list((ROOT / "examples").glob("*.yaml")))
    assert without == base
    assert base["threshold-polyplace"][0] == "certified"
