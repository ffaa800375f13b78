"""The proof stage of a catalog configuration, run once per test process.

`prove_conditions` is deterministic for a configuration, and two files need the catalog's proofs:
tests/pipeline/test_prove.py (every valid configuration certified, every broken one refuted with a
witness recomputed independently) and tests/whole_repo/test_proofs_fresh.py (the committed proofs/ say
what the current code proves).  Both read `proved(path)`, and tests/conftest.py's scheduler keeps the
two files in one xdist worker, so that under --slow each proof stage runs once, not twice.  At mpmath's
default precision, pinned, as `gpaudit prove` runs it.
"""

from __future__ import annotations

import mpmath as mp

from gpaudit.model.mechanism import build_mechanism
from gpaudit.prove.engine import prove_conditions
from gpaudit.spec.load import load_spec

_RUN: dict = {}


def proved(path) -> tuple:
    """(the mechanism, prove_conditions(mechanism)) of the configuration at `path`, once per process."""
    key = str(path)
    if key not in _RUN:
        with mp.workdps(15):
            mech = build_mechanism(load_spec(path))
            _RUN[key] = (mech, prove_conditions(mech, timeout_ms=10000))
    return _RUN[key]
