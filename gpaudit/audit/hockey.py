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

from ..model.mechanism import Mechanism, mp_exact
from .candidates import U_GRID


def _bisect_roots(g, lo, hi, lo_above, max_iter=200):
    """Sign changes of g bracketed by [lo_i, hi_i], all refined at once by bisection until the midpoint
    is an endpoint (the brackets are then adjacent floats).  Returns the endpoint of each bracket on
    the side where g > 0 (lo_above says which side that is): a point of the set {g > 0} itself."""
    lo, hi = lo.copy(), hi.copy()
    for _ in range(max_iter):
        mid = lo + (hi - lo) / 2
        live = (mid != lo) & (mid != hi)
        if not live.any():
            break
        with np.errstate(invalid="ignore"):
            same = (g(mid) > 0) == lo_above       # NaN is "not above"
        lo, hi = np.where(live & same, mid, lo), np.where(live & ~same, mid, hi)
    return np.where(lo_above, lo, hi)


def _intervals(mech: Mechanism, x, xp, level):
    """Intervals of y where l(y) > level: sign changes on a grid, refined by a vectorised bisection
    (float64).  Any set gives a sound lower bound; the exact value is computed in mpmath."""
    a, b = mech.centre_scale_np(np.array([x]))
    ap, bp = mech.centre_scale_np(np.array([xp]))
    if not (np.isfinite(b[0]) and np.isfinite(bp[0]) and b[0] > 0 and bp[0] > 0):
        return None
    Y = np.unique(np.concatenate([a[0] + b[0] * U_GRID, ap[0] + bp[0] * U_GRID,
                                  np.linspace(min(a[0], ap[0]) - 20 * max(b[0], bp[0]),
                                              max(a[0], ap[0]) + 20 * max(b[0], bp[0]), 2001)]))

    def g(y):  # the log ratio at outputs y, less the level (the centres and scales computed once)
        return mech.log_density_np(a, b, y) - mech.log_density_np(ap, bp, y) - level

    vals = g(Y)
    if not np.all(np.isfinite(vals)):
        return None
    above = vals > 0
    i = np.flatnonzero(above[1:] != above[:-1]) + 1        # a sign change between Y[i-1] and Y[i]
    roots = _bisect_roots(g, Y[i - 1], Y[i], above[i - 1]) if len(i) else np.zeros(0)
    out, start = [], (-np.inf if above[0] else None)
    for j, r in zip(i, roots):
        if above[j]:
            start = float(r)
        else:
            out.append((start, float(r)))
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
    d = float(mech.dist_np(np.array(x, float), np.array(xp, float))[0])
    level = float(mech.epsilon) * d
    ivs = _intervals(mech, x, xp, level)
    if ivs is None:
        return None, []
    with mpmath.workdps(dps):
        eps_d = mp_exact(mech.epsilon) * mech.dist_mp(x, xp)
        total = mpmath.mpf(0)
        for lo, hi in ivs:
            total += _prob_mp(mech, x, lo, hi) - mpmath.exp(eps_d) * _prob_mp(mech, xp, lo, hi)
        return total, ivs


# outputs in units of each noise scale for the float64 estimate of a pair's hockey-stick value
V_GRID = np.concatenate([np.linspace(-12, 12, 49), np.outer([-1, 1], np.geomspace(14, 1e4, 9)).ravel()])
PROXY_PAIRS = {"quick": 10000, "standard": 24000, "thorough": 80000}  # about all pairs screened


def hockey_proxy(mech: Mechanism, X, Xp, chunk=256):
    """A float64 estimate of sup_S P_x(S) - e^{eps d} P_x'(S) per pair: the trapezoid integral of
    (p_x - e^{eps d} p_x')^+ over outputs on both noise scales.  For ranking pairs only (never a
    witness); NaN-safe (an undefined pair scores -inf)."""
    out = np.full(len(X), -np.inf)
    eps = float(mech.epsilon)
    for s in range(0, len(X), chunk):
        sl = slice(s, s + chunk)
        with np.errstate(all="ignore"):
            a, b = mech.centre_scale_np(X[sl])
            ap, bp = mech.centre_scale_np(Xp[sl])
            Y = np.sort(np.concatenate([a[:, None] + b[:, None] * V_GRID[None, :],
                                        ap[:, None] + bp[:, None] * V_GRID[None, :]], axis=1), axis=1)
            ed = np.minimum(eps * mech.dist_np(X[sl], Xp[sl]), 700.0)
            p = np.exp(mech.log_density_np(a[:, None], b[:, None], Y))
            pp = np.exp(mech.log_density_np(ap[:, None], bp[:, None], Y) + ed[:, None])
            g = np.maximum(p - pp, 0.0)
            val = (0.5 * (g[:, 1:] + g[:, :-1]) * np.diff(Y, axis=1)).sum(axis=1)
        ok = np.isfinite(val) & np.isfinite(b) & np.isfinite(bp) & (b > 0) & (bp > 0)
        out[sl] = np.where(ok, val, -np.inf)
    return out


# How far the values at 50 and 100 digits may differ for the value to count; a witness must exceed
# delta by more than this (the value at 100 digits is taken to be known to within it, no closer).
STABLE = mpmath.mpf(10) ** -25


def _exact(mech, x, xp):
    """The hockey-stick value at 50 and 100 digits on the same float-located set, if stable, for a
    pair whose distance is proved <= Lambda (exactly: a pair outside the claim is no witness)."""
    if not mech.metric.within(x, xp, mech.Lambda):
        return None
    val, ivs = hockey_stick_mp(mech, x, xp)
    if val is None:
        return None
    with mpmath.workdps(100):
        val100, _ = hockey_stick_mp(mech, x, xp, dps=100)
    if val100 is None or abs(val100 - val) > STABLE:
        return None
    return val100, ivs


STRETCHED = 6        # how many of the best pairs are also tried stretched to the distance Lambda


def stretched(mech: Mechanism, x, xp):
    """The pair (x, x + (x' - x) Lambda / dist) along the same direction at the largest distance the
    claim covers (proved <= Lambda exactly; shortened by a few ulps where rounding overshoots), or
    None (Lambda infinite, x = x', or no such float pair).  With noise of a fixed scale and a query
    linear along the segment, the divergence grows with the distance (docs/certificate.md), so the
    worst pair of the claim sits there; for any mechanism it is one more candidate, verified as
    every other."""
    lam = float(mech.Lambda)
    x, xp = np.array(x, float), np.array(xp, float)
    d = float(mech.dist_np(x[None], xp[None])[0])
    if not (np.isfinite(lam) and d > 0):
        return None
    step = (xp - x) * (lam / d)
    for shrink in (1.0, 1 - 2.0**-50, 1 - 2.0**-40, 1 - 2.0**-30):
        cand = x + step * shrink
        if np.all(np.isfinite(cand)) and mech.metric.within(tuple(x), tuple(cand), mech.Lambda):
            return tuple(x), tuple(cand)
    return None


def worst_hockey_stick(mech: Mechanism, X, Xp, rates, k=24, effort="standard", must=(), rng=None):
    """The largest verified hockey-stick value over the most promising pairs: half of the k by the
    largest pure loss rate, half by the float64 hockey-stick estimate (over pairs at every scale, the
    long spanning ones included), plus the best pair of every index group in `must` (seed points)."""
    fin = np.isfinite(rates)
    by_rate = [i for i in np.argsort(-rates) if fin[i]][:k // 2]
    # the estimate on a bounded share of the pairs: every group in must, the rest subsampled
    pool = np.arange(len(X))
    cap = PROXY_PAIRS.get(effort, 6000)
    forced = np.unique(np.concatenate([np.asarray(g, int) for g in must])) if len(must) else np.zeros(0, int)
    rest = np.setdiff1d(pool, forced)
    if len(rest) > cap:
        rng = rng if rng is not None else np.random.default_rng(0)
        rest = np.sort(rng.choice(rest, cap, replace=False))
    sel = np.concatenate([rest, forced])
    est = np.full(len(X), -np.inf)
    est[sel] = hockey_proxy(mech, X[sel], Xp[sel])
    order = [i for i in np.argsort(-est) if np.isfinite(est[i]) and est[i] > 0]
    by_est = []
    for i in order:  # distinct pairs only
        if len(by_est) >= k - len(by_rate):
            break
        if all(not (np.array_equal(X[i], X[j]) and np.array_equal(Xp[i], Xp[j])) for j in by_est):
            by_est.append(i)
    extra = []
    for g in must:
        g = np.asarray(g, int)
        if len(g):
            j = g[int(np.argmax(est[g]))]
            if np.isfinite(est[j]) and est[j] > 0:
                extra.append(j)
    best = None
    seen = set()
    keys = [(tuple(X[i]), tuple(Xp[i])) for i in by_rate + by_est + extra]
    keys += [k for k in (stretched(mech, *key) for key in keys[:STRETCHED]) if k is not None]
    for key in keys:
        if key in seen:
            continue
        seen.add(key)
        r = _exact(mech, *key)
        if r is None:
            continue
        if best is None or r[0] > best[0]:
            best = (r[0], key[0], key[1], r[1])
    return best
