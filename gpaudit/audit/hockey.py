"""Hockey-stick divergence for (epsilon, delta) claims.

For a pair (x, x') with d = |x - x'|, the worst set is S* = {y : l(y; x, x') > epsilon d}; for a
location-scale family it is a finite union of intervals whose endpoints are roots of l - epsilon d.
Any set S gives the lower bound P_x(S) - e^{epsilon d} P_x'(S) <= sup_S (...), so the value computed
on the intervals found (with probabilities from exact distribution functions in mpmath) is a sound
witness when it exceeds delta, even if an endpoint is slightly off.
"""

from __future__ import annotations

import mpmath
import numpy as np
from scipy.optimize import brentq

from ..model.mechanism import Mechanism, dist_mp, mp_exact
from .candidates import U_GRID


def _intervals(mech: Mechanism, x, xp, level):
    """Intervals of y where l(y) > level, found on a grid and polished with brentq (float)."""
    a, b = mech.centre_scale_np(np.array([x]))
    ap, bp = mech.centre_scale_np(np.array([xp]))
    if not (np.isfinite(b[0]) and np.isfinite(bp[0])):
        return None
    Y = np.unique(np.concatenate([a[0] + b[0] * U_GRID, ap[0] + bp[0] * U_GRID,
                                  np.linspace(min(a[0], ap[0]) - 20 * max(b[0], bp[0]),
                                              max(a[0], ap[0]) + 20 * max(b[0], bp[0]), 2001)]))

    def g(y):
        return mech.log_ratio_np(np.array([x]), np.array([xp]), np.array([y]))[0] - level

    vals = mech.log_ratio_np(np.repeat([x], len(Y), 0), np.repeat([xp], len(Y), 0), Y) - level
    if not np.all(np.isfinite(vals)):
        return None
    above = vals > 0
    out, start = [], (-np.inf if above[0] else None)
    for i in range(1, len(Y)):
        if above[i] != above[i - 1]:
            r = brentq(g, Y[i - 1], Y[i], xtol=1e-14 * max(1, abs(Y[i])), maxiter=200)
            if above[i]:
                start = r
            else:
                out.append((start, r))
                start = None
    if start is not None:
        out.append((start, np.inf))
    return out


def _prob_mp(mech: Mechanism, x, lo, hi):
    """P[M(x) in [lo, hi]] from the family's exact distribution functions (mpmath)."""
    a, b = mech.centre_scale_mp(x)
    fam = mech.family
    if hi == np.inf:
        return mpmath.mpf(1) if lo == -np.inf else fam.sf_mp((mpmath.mpf(lo) - a) / b)
    below = mpmath.mpf(0) if lo == -np.inf else fam.cdf_mp((mpmath.mpf(lo) - a) / b)
    return fam.cdf_mp((mpmath.mpf(hi) - a) / b) - below


def hockey_stick_mp(mech: Mechanism, x, xp, dps=50):
    """(value, intervals) of P_x(S) - e^{eps d} P_x'(S) on the float-located worst set S."""
    d = float(np.linalg.norm(np.array(x) - np.array(xp)))
    level = float(mech.epsilon) * d
    ivs = _intervals(mech, x, xp, level)
    if ivs is None:
        return None, []
    with mpmath.workdps(dps):
        eps_d = mp_exact(mech.epsilon) * dist_mp(x, xp)
        total = mpmath.mpf(0)
        for lo, hi in ivs:
            total += _prob_mp(mech, x, lo, hi) - mpmath.exp(eps_d) * _prob_mp(mech, xp, lo, hi)
        return total, ivs


def worst_hockey_stick(mech: Mechanism, X, Xp, rates, k=24):
    """The largest verified hockey-stick value over the k most promising pairs."""
    order = [i for i in np.argsort(-rates) if np.isfinite(rates[i])][:k]
    best = None
    for i in order:
        val, ivs = hockey_stick_mp(mech, tuple(X[i]), tuple(Xp[i]))
        if val is None:
            continue
        with mpmath.workdps(100):
            val100, _ = hockey_stick_mp(mech, tuple(X[i]), tuple(Xp[i]), dps=100)
        if val100 is None or abs(val100 - val) > mpmath.mpf(10) ** -25:
            continue
        if best is None or val100 > best[0]:
            best = (val100, tuple(X[i]), tuple(Xp[i]), ivs)
    return best
