"""The adversarial audit: search (x, x', y) for the largest privacy-loss rate.

Screen in vectorised float64, polish the best candidates with local optimisation, then re-verify
in mpmath at 50 and at 100 digits.  Only verified triples count: the audit can refute, never certify.
"""

from __future__ import annotations

from dataclasses import dataclass

import mpmath
import numpy as np
from scipy.optimize import minimize

from ..model.mechanism import Mechanism, dist_mp, mp_exact
from .candidates import U_GRID, candidate_pairs

VERIFY_DPS = (50, 100)


@dataclass
class Triple:
    x: tuple
    xp: tuple
    y: float
    rate: float  # float screen value


@dataclass
class VerifiedTriple:
    x: tuple            # floats (exact binary values are the witness)
    xp: tuple
    y: float
    dist: mpmath.mpf
    log_ratio: mpmath.mpf
    rate: mpmath.mpf
    violates: bool      # log_ratio > epsilon * dist, at both precisions


def screen_rates(mech: Mechanism, X, Xp, chunk=4000):
    """For each pair, the best y on the output grid and its rate (NaN-safe: NaN never wins)."""
    best_rate = np.full(len(X), -np.inf)
    best_y = np.zeros(len(X))
    d = np.linalg.norm(X - Xp, axis=1)
    for s in range(0, len(X), chunk):
        sl = slice(s, s + chunk)
        a, b = mech.centre_scale_np(X[sl])
        ap, bp = mech.centre_scale_np(Xp[sl])
        Y = np.concatenate([a[:, None] + b[:, None] * U_GRID[None, :],
                            ap[:, None] + bp[:, None] * U_GRID[None, :]], axis=1)
        lr = (mech.log_density_np(a[:, None], b[:, None], Y)
              - mech.log_density_np(ap[:, None], bp[:, None], Y))
        lr[~np.isfinite(lr)] = -np.inf
        k = np.argmax(lr, axis=1)
        rows = np.arange(len(k))
        best_rate[sl] = lr[rows, k] / d[sl]
        best_y[sl] = Y[rows, k]
    best_rate[~np.isfinite(best_rate)] = -np.inf
    return best_rate, best_y


def _top_distinct(rates, k):
    order = np.argsort(-rates)
    return [i for i in order[:k] if np.isfinite(rates[i])]


def polish(mech: Mechanism, t: Triple, Lambda: float, budget=400) -> Triple:
    """Nelder-Mead on (x, x' - x, v), y = f(x) + b(x) sinh(v): climbs the rate locally."""
    d = mech.dim
    x0, step0 = np.array(t.x), np.array(t.xp) - np.array(t.x)
    a, b = mech.centre_scale_np(x0[None, :])
    v0 = np.arcsinh((t.y - a[0]) / b[0]) if np.isfinite(b[0]) and b[0] > 0 else 0.0

    def unpack(z):
        x, s = z[:d], z[d:2 * d]
        n = np.linalg.norm(s)
        if np.isfinite(Lambda) and n > Lambda:
            s = s * (Lambda / n)
        aa, bb = mech.query.f_math(x), mech.bound.B_math(x) / float(mech.eta)
        v = float(np.clip(z[-1], -40, 40))
        return x, x + s, aa + bb * np.sinh(v)

    def neg_rate(z):
        x, xp, y = unpack(z)
        dist = np.linalg.norm(xp - x)
        if dist <= 0:
            return 1e300
        val = mech.log_ratio_point(x, xp, y) / dist
        return -val if np.isfinite(val) else 1e300

    z0 = np.concatenate([x0, step0, [v0]])
    res = minimize(neg_rate, z0, method="Nelder-Mead",
                   options={"maxfev": budget, "xatol": 1e-12, "fatol": 1e-14, "adaptive": True})
    z = res.x if res.fun < neg_rate(z0) else z0
    x, xp, y = unpack(z)
    return Triple(tuple(map(float, x)), tuple(map(float, xp)), float(y), -neg_rate(z))


def verify(mech: Mechanism, t: Triple) -> VerifiedTriple | None:
    """Recompute ln p_x(y) - ln p_x'(y) at 50 and 100 digits from the exact binary inputs."""
    vals = []
    for dps in VERIFY_DPS:
        with mpmath.workdps(dps):
            lr = mech.log_ratio_mp(t.x, t.xp, t.y)
            dist = dist_mp(t.x, t.xp)
            if not mpmath.isfinite(lr) or dist == 0:
                return None
            bound = mp_exact(mech.epsilon) * dist
            vals.append((lr, dist, lr - bound > mpmath.mpf(10) ** -30 * max(1, abs(bound))))
    (lr50, _, v50), (lr100, dist, v100) = vals
    with mpmath.workdps(VERIFY_DPS[-1]):
        if abs(lr100 - lr50) > mpmath.mpf(10) ** -30 * max(1, abs(lr100)):
            return None  # not stable in precision: do not trust it either way
        return VerifiedTriple(t.x, t.xp, t.y, dist, lr100, lr100 / dist, bool(v50 and v100))


def search(mech: Mechanism, rng, effort="standard", progress=None):
    """Return (all verified triples, best first), the number of pairs screened."""
    Lambda = float(mech.Lambda)
    gamma = float(mech.spec.bound.gamma)
    X, Xp = candidate_pairs(mech.query.landmarks, mech.query.scale, gamma, Lambda, mech.dim,
                            effort, rng)
    if progress:
        progress("screen", 0.0)
    rates, ys = screen_rates(mech, X, Xp)
    if progress:
        progress("screen", 1.0)
    n_polish = {"quick": 6, "standard": 12, "thorough": 30}[effort]
    tops = _top_distinct(rates, n_polish)
    triples = []
    for j, i in enumerate(tops):
        t = Triple(tuple(X[i]), tuple(Xp[i]), float(ys[i]), float(rates[i]))
        triples.append(t)
        p = polish(mech, t, Lambda)
        if np.isfinite(p.rate) and p.rate > t.rate:
            triples.append(p)
        if progress:
            progress("polish", (j + 1) / max(1, len(tops)))
    from .adversary import adversarial_triples
    seed = int(rng.integers(0, 2**31))
    for x, xp, y, rate in adversarial_triples(mech, seed, effort):
        t = Triple(x, xp, y, rate)
        p = polish(mech, t, Lambda)
        triples.append(p if np.isfinite(p.rate) and p.rate > t.rate else t)
    if progress:
        progress("guided", 1.0)
    triples.sort(key=lambda t: -t.rate)
    verified = []
    for t in triples[: 2 * n_polish]:
        v = verify(mech, t)
        if v is not None:
            verified.append(v)
    verified.sort(key=lambda v: -v.rate)
    return verified, len(X), (X, Xp, rates)
