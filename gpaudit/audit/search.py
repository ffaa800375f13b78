"""The adversarial audit: search (x, x', y) for the largest privacy-loss rate.

Screen in vectorised float64, polish the best candidates with local optimisation, then re-verify
in mpmath at 50 and at 100 digits.  Only verified triples count: the audit can refute, never certify.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import mpmath
import numpy as np
from scipy.optimize import minimize

from ..model.mechanism import Mechanism, dist_mp, mp_exact
from ..model.fp import row_norm
from .candidates import U_GRID, as_points, candidate_pairs, seed_pairs

VERIFY_DPS = (50, 100)
EPS64 = np.finfo(float).eps
# seed points from elsewhere: how many get guaranteed polish slots, and how many triples each
SEED_CAP = {"quick": 8, "standard": 16, "thorough": 48}
SEED_POLISH = {"quick": 2, "standard": 3, "thorough": 6}
SEED_PAIRS = {"quick": 1500, "standard": 3000, "thorough": 8000}  # pairs per seed
# output multiples of the noise scale tried far beyond both centres before verification
TAIL_MULTIPLES = (10.0, 1e2, 1e3, 1e4, 1e6, 1e9, 1e12)


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


def _score_bound(mech: Mechanism) -> float:
    """max |psi| of the family, sampled: scales the float64 rounding error of a log-density."""
    with np.errstate(all="ignore"):
        v = np.abs(mech.family.score_np(np.concatenate([U_GRID, np.linspace(-3, 3, 601)])))
    v = v[np.isfinite(v)]
    return max(1.0, float(v.max()) if v.size else 1.0)


def screen_rates(mech: Mechanism, X, Xp, chunk=4000):
    """For each pair, the best y on the output grid and its rate (NaN-safe: NaN never wins).

    Each log-ratio is lowered by a bound on its float64 rounding error (the error of (y - f(x)) / b
    times the family's largest score): far in the tails, or at inputs of large magnitude, the float
    value of a tiny pair's loss is rounding noise, and must not crowd real candidates out."""
    best_rate = np.full(len(X), -np.inf)
    best_y = np.zeros(len(X))
    d = row_norm(X - Xp)
    psi = _score_bound(mech)
    for s in range(0, len(X), chunk):
        sl = slice(s, s + chunk)
        a, b = mech.centre_scale_np(X[sl])
        ap, bp = mech.centre_scale_np(Xp[sl])
        with np.errstate(all="ignore"):  # b * 1e12 overflows for b near 1e300: inf never wins
            Y = np.concatenate([a[:, None] + b[:, None] * U_GRID[None, :],
                                ap[:, None] + bp[:, None] * U_GRID[None, :]], axis=1)
            lr = (mech.log_density_np(a[:, None], b[:, None], Y)
                  - mech.log_density_np(ap[:, None], bp[:, None], Y))
            aY = np.abs(Y)
            err = 4 * EPS64 * psi * ((aY + np.abs(a)[:, None]) / b[:, None] + (aY + np.abs(ap)[:, None]) / bp[:, None])
            lr = lr - err
        lr[~np.isfinite(lr)] = -np.inf
        k = np.argmax(lr, axis=1)
        rows = np.arange(len(k))
        with np.errstate(all="ignore"):
            best_rate[sl] = lr[rows, k] / d[sl]
        best_y[sl] = Y[rows, k]
    best_rate[~np.isfinite(best_rate)] = -np.inf
    return best_rate, best_y


def _top_distinct(rates, k):
    order = np.argsort(-rates)
    return [i for i in order[:k] if np.isfinite(rates[i])]


def point_loss(mech: Mechanism):
    """(x, x', y) -> ln p_x(y) - ln p_x'(y) in float64: Mechanism.log_ratio_point's arithmetic with
    the constants converted once (the local searches call it thousands of times)."""
    eta = float(mech.eta)
    f, B, logpdf = mech.query.f_math, mech.bound.B_math, mech.family.logpdf_np

    def loss(x, xp, y):
        a, b = f(x), B(x) / eta
        ap, bp = f(xp), B(xp) / eta
        if not (b > 0 and bp > 0 and np.isfinite(b) and np.isfinite(bp)):
            return float("nan")
        u = np.array([(y - a) / b, (y - ap) / bp])
        lp = logpdf(u)
        with np.errstate(all="ignore"):
            return float(lp[0] - np.log(b) - lp[1] + np.log(bp))
    return loss


def polish(mech: Mechanism, t: Triple, Lambda: float, budget=400, local=False, loss=None) -> Triple:
    """Nelder-Mead on (x, x' - x, v), y = f(x) + b(x) sinh(v): climbs the rate locally.

    local=True starts from a simplex scaled to the pair's length (instead of 5% of each coordinate),
    so that a pair at a point of large magnitude (a seed far from the origin) stays where it is."""
    d = mech.dim
    loss = loss or point_loss(mech)
    eta = float(mech.eta)
    x0, step0 = np.array(t.x), np.array(t.xp) - np.array(t.x)
    a, b = mech.centre_scale_np(x0[None, :])
    v0 = np.arcsinh((t.y - a[0]) / b[0]) if np.isfinite(b[0]) and b[0] > 0 else 0.0

    def unpack(z):
        x, s = z[:d], z[d:2 * d]
        n = math.hypot(*s)  # no under- or overflow, and fast for one point
        if np.isfinite(Lambda) and n > Lambda:
            s = s * (Lambda / n)
        aa, bb = mech.query.f_math(x), mech.bound.B_math(x) / eta
        v = float(np.clip(z[-1], -40, 40))
        with np.errstate(all="ignore"):
            return x, x + s, aa + bb * np.sinh(v)

    def neg_rate(z):
        x, xp, y = unpack(z)
        dist = math.hypot(*(xp - x))
        if dist <= 0:
            return 1e300
        val = loss(x, xp, y) / dist
        return -val if np.isfinite(val) else 1e300

    z0 = np.concatenate([x0, step0, [v0]])
    options = {"maxfev": budget, "xatol": 1e-12, "fatol": 1e-14, "adaptive": True}
    if local:
        h = max(math.hypot(*step0), 1e-300)
        widths = np.concatenate([np.full(2 * d, 0.25 * h), [max(0.5, 0.05 * abs(v0))]])
        options["initial_simplex"] = np.vstack([z0, z0 + np.diag(widths)])
        options["xatol"] = min(1e-12, 1e-3 * h)
    res = minimize(neg_rate, z0, method="Nelder-Mead", options=options)
    z = res.x if res.fun < neg_rate(z0) else z0
    x, xp, y = unpack(z)
    return Triple(tuple(map(float, x)), tuple(map(float, xp)), float(y), -neg_rate(z))


def push_tail(mech: Mechanism, t: Triple) -> Triple:
    """The same pair with y moved far beyond both centres if that raises the loss (checked at 50
    digits, where float64 cannot resolve it): for Laplace noise the loss is flat or grows there, so
    the largest rate of a pair is often attained as |y| -> inf."""
    with mpmath.workdps(VERIFY_DPS[0]):
        a, b = mech.centre_scale_mp(t.x)
        ap, bp = mech.centre_scale_mp(t.xp)
        if not (mpmath.isfinite(a) and mpmath.isfinite(ap) and b > 0 and bp > 0
                and mpmath.isfinite(b) and mpmath.isfinite(bp)):
            return t

        def lr(y):
            y = mpmath.mpf(y)
            return mech.log_density_mp(a, b, y) - mech.log_density_mp(ap, bp, y)

        best_y, best = t.y, lr(t.y)
        if not mpmath.isfinite(best):
            best = mpmath.mpf("-inf")
        lo, hi = float(min(a, ap)), float(max(a, ap))
        scale = float(max(b, bp))
        for k in TAIL_MULTIPLES:
            for y in (hi + k * scale, lo - k * scale):
                if not np.isfinite(y):
                    continue
                v = lr(y)
                if mpmath.isfinite(v) and (not mpmath.isfinite(best)
                                           or v - best > mpmath.mpf(10) ** -25 * max(1, abs(best))):
                    best_y, best = float(y), v
    if best_y == t.y:
        return t
    dist = math.hypot(*(np.array(t.xp, float) - np.array(t.x, float)))
    return Triple(t.x, t.xp, best_y, float(best) / dist if dist > 0 else t.rate)


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


def search(mech: Mechanism, rng, effort="standard", progress=None, seeds=()):
    """Return (all verified triples, best first), the number of pairs screened, the screened pairs
    (X, Xp, rates) and, for every seed point used, the indices of its pairs in X.

    Pairs around each seed (see candidates.seed_pairs) are screened with the others, and the best
    of each seed's own pairs are polished and verified whatever the rest of the budget does."""
    Lambda = float(mech.Lambda)
    gamma = float(mech.spec.bound.gamma)
    scale = float(mech.query.scale)
    X, Xp = candidate_pairs(mech.query.landmarks, scale, gamma, Lambda, mech.dim, effort, rng)
    n_main = len(X)
    pts = as_points(seeds, mech.dim)[:SEED_CAP[effort]]
    seed_idx = []
    if pts:
        SX, SXp = zip(*(seed_pairs(p, scale, gamma, Lambda, mech.dim, budget=SEED_PAIRS[effort]) for p in pts))
        start = n_main
        for a in SX:
            seed_idx.append(np.arange(start, start + len(a)))
            start += len(a)
        X, Xp = np.concatenate([X, *SX]), np.concatenate([Xp, *SXp])
    if progress:
        progress("screen", 0.0)
    rates, ys = screen_rates(mech, X, Xp)
    if progress:
        progress("screen", 1.0)
    n_polish = {"quick": 6, "standard": 12, "thorough": 30}[effort]
    loss = point_loss(mech)
    tops = _top_distinct(rates, n_polish)
    triples = []
    for j, i in enumerate(tops):
        t = Triple(tuple(X[i]), tuple(Xp[i]), float(ys[i]), float(rates[i]))
        triples.append(t)
        p = polish(mech, t, Lambda, loss=loss, local=i >= n_main)
        if np.isfinite(p.rate) and p.rate > t.rate:
            triples.append(p)
        if progress:
            progress("polish", (j + 1) / max(1, len(tops)))
    from .adversary import adversarial_triples
    seed = int(rng.integers(0, 2**31))
    for x, xp, y, rate in adversarial_triples(mech, seed, effort, extra_marks=pts):
        t = Triple(x, xp, y, rate)
        p = polish(mech, t, Lambda, loss=loss)
        triples.append(p if np.isfinite(p.rate) and p.rate > t.rate else t)
    if progress:
        progress("guided", 1.0)
    # every seed's own best pairs: polished locally and always verified
    seeded = []
    for idx in seed_idx:
        for i in idx[_top_distinct(rates[idx], SEED_POLISH[effort])]:
            t = Triple(tuple(X[i]), tuple(Xp[i]), float(ys[i]), float(rates[i]))
            p = polish(mech, t, Lambda, loss=loss, local=True)
            seeded.append(p if np.isfinite(p.rate) and p.rate > t.rate else t)
    triples.sort(key=lambda t: -t.rate)
    verified = []
    for t in triples[: 2 * n_polish] + seeded:
        v = verify(mech, push_tail(mech, t))
        if v is not None:
            verified.append(v)
    verified.sort(key=lambda v: -v.rate)
    return verified, len(X), (X, Xp, rates), seed_idx
