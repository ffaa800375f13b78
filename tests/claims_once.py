"""The claims registry's results, each claim run once per test process (tests/papers/).

Each claim's checker is deterministic, so `claim_results` runs it once (quick sweeps, at mpmath's
default precision, pinned) and every module of tests/papers/ reads that result: under --slow,
test_claims.py's tests about the whole registry and each paper's own module used to run the same
claims twice (about 20 s).  tests/conftest.py's scheduler keeps the files of tests/papers/ in one
xdist worker, so that they share the runs.
"""

from __future__ import annotations

import mpmath as mp

from gpaudit.papers import REGISTRY
from gpaudit.papers.registry import run_one

_RUN: dict = {}


def claim_result(claim):
    """run_one(claim, quick=True), once per process."""
    key = (claim.paper, claim.claim_id)
    if key not in _RUN:
        with mp.workdps(15):
            _RUN[key] = run_one(claim, quick=True)
    return _RUN[key]


def claim_results(paper=None) -> list:
    """The results of every registered claim (of `paper`), in registration order."""
    return [claim_result(c) for c in REGISTRY if paper is None or c.paper == paper]
