"""A guided adversary: hypothesis's targeted search over (x, x' - x, y) maximising the loss rate.

Hypothesis generates triples around the query's landmarks and, with ``target()``, mutates towards
the ones with the largest rate; it complements the grid screen where violations sit in a narrow
region the grid straddles.  It runs derandomized (a fixed seed derived from the audit's seed) with
no example database, so results are deterministic; its best triples go through the same polish and
high-precision verification as the screen's.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import HealthCheck, Phase, given, seed, settings, strategies as st, target

from ..model.mechanism import Mechanism

EXAMPLES = {"quick": 150, "standard": 400, "thorough": 2000}


def adversarial_triples(mech: Mechanism, audit_seed: int, effort: str, keep: int = 4, extra_marks=()):
    """The `keep` best (x, x', y, rate) found, as tuples of floats (x, x' as tuples).

    extra_marks: further points (arrays of dim floats, e.g. the audit's seed points) searched around
    like the query's landmarks."""
    from .search import point_loss
    marks = np.atleast_2d(np.asarray(mech.query.landmarks, float))
    if len(extra_marks):
        marks = np.concatenate([marks, np.atleast_2d(np.asarray(extra_marks, float))])
    scale = float(mech.query.scale)
    Lambda = float(mech.Lambda)
    eta = float(mech.eta)
    loss = point_loss(mech)
    d = mech.dim
    best: list = []
    unit = st.floats(-1.0, 1.0, allow_nan=False)

    @seed(audit_seed)
    @settings(max_examples=EXAMPLES[effort], derandomize=False, database=None, deadline=None,
              phases=[Phase.generate, Phase.target], suppress_health_check=list(HealthCheck))
    @given(k=st.integers(0, len(marks) - 1), off=st.lists(unit, min_size=d, max_size=d),
           log_off=st.floats(-4, 2), step=st.lists(unit, min_size=d, max_size=d),
           log_step=st.floats(-5, 1.5), v=st.floats(-30, 30))
    def probe(k, off, log_off, step, log_step, v):
        x = marks[k] + scale * 10**log_off * np.asarray(off)
        s = np.asarray(step)
        n = float(np.linalg.norm(s))
        if n == 0:
            return
        s = s / n * min(scale * 10**log_step, Lambda)
        xp = x + s
        b = mech.bound.B_math(x) / eta
        if not (b > 0 and math.isfinite(b)):
            return
        y = mech.query.f_math(x) + b * math.sinh(v)
        dist = math.hypot(*(xp - x))  # what float64 kept of the step (0 far from the origin)
        if not dist > 0:
            return
        rate = loss(x, xp, y) / dist
        if not math.isfinite(rate):
            return
        target(rate, label="loss rate")
        entry = (rate, tuple(map(float, x)), tuple(map(float, xp)), float(y))
        if any(e[1] == entry[1] and e[2] == entry[2] for e in best):
            return
        best.append(entry)
        best.sort(key=lambda t: -t[0])
        del best[keep:]

    probe()
    return [(x, xp, y, rate) for rate, x, xp, y in best]
