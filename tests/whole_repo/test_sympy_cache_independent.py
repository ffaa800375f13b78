"""No verdict depends on sympy's cache: decision code makes no identity test on sympy objects.

With SYMPY_USE_CACHE=no sympy builds a new object for every expression, so `a is b` is False where
a normal run (the cache on) finds the same object; `certify/family_z3._prove_le` once told its two
claims apart that way, and threshold-polyplace went from certified to unknown.  The whole catalog
is checked twice in fresh processes, with sympy's cache off and on: the same verdicts and the same
certified bounds.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _catalog(tmp_path: Path, **env) -> dict:
    out = tmp_path / f"catalog-{len(list(tmp_path.iterdir()))}.json"
    files = sorted(str(p) for p in (ROOT / "examples").glob("*.yaml"))
    run = subprocess.run([sys.executable, "-m", "gpaudit", "check", *files, "-q", "-j", "1", "--json", str(out)],
                         cwd=ROOT, capture_output=True, text=True, timeout=1500,
                         env=dict(os.environ, PYTHONPATH=str(ROOT), GPAUDIT_NO_CACHE="1", **env))
    assert run.returncode in (0, 1, 3), run.stderr[-2000:]
    return {r["name"]: (r["verdict"], r["epsilon_upper"]) for r in json.loads(out.read_text())}


@pytest.mark.slow  # the catalog twice, in fresh processes (a few minutes)
def test_the_catalog_is_the_same_without_sympys_cache(tmp_path):
    without = _catalog(tmp_path, SYMPY_USE_CACHE="no")
    normal = _catalog(tmp_path)
    assert len(normal) == len(list((ROOT / "examples").glob("*.yaml")))
    assert without == normal
    assert normal["threshold-polyplace"][0] == "certified"
