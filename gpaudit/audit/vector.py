"""The audit of a mechanism with vector outputs (output.dim k > 1): search (x, x', y), y in R^k.

M(x) = f(x) + (B(x)/eta) Z with Z of density c_k h(||z||_2), so
ln p_x(y) = ln c_k + ln h(||y - f(x)||_2 / b(x)) - k ln b(x),  b = B / eta.

Pairs (x, x') are placed at the query's landmarks, the origin and random points, along the
coordinate axes, the diagonals, random directions and the top right-singular direction of the
query's Jacobian at x (the direction the output moves fastest), at distances from 1e-3 to 10.
Outputs y run along and against the shift f(x') - f(x) (the worst directions of a radial
density), and along a few other directions, from both centres, from 0 to 1e4 noise scales.  The
float64 screen keeps the best candidates; each is recomputed in mpmath at 50 and at 100 digits from
its exact binary inputs, and only a triple stable at both precisions counts (as in one dimension).
A verified triple whose loss exceeds epsilon * dist(x, x') is a witness.
"""

from __future__ import annotations

import mpmath
import numpy as np
import sympy as sp

from ..model.mechanism import exact_decimal, mp_exact
from .run import dist_text, mpstr

POINTS = {"quick": 8, "standard": 16, "thorough": 48}
STEPS = np.array([1e-3, 1e-2, 0.1, 0.5, 1.0, 2.0, 5.0, 10.0])
RADII = np.concatenate([[0.0], np.logspace(-3, 4, 43)])
KEEP = 24


def centre_scale_np(mech, X):
    """(f(x) rows (n, k), b(x) (n,)) in float64."""
    return mech.query.f_np(X), mech.bound.B_np(X) / float(mech.eta)


def log_density_np(mech, Y, X, centre_scale=None):
    """ln p_x(y) for rows of X (n, d) and outputs Y (n, k) or (n, q, k), in float64."""
    F, b = centre_scale if centre_scale is not None else centre_scale_np(mech, X)
    if Y.ndim == 3:
        F, b = F[:, None, :], b[:, None]
    with np.errstate(all="ignore"):
        r = np.linalg.norm(Y - F, axis=-1) / b
        return mech.family.logpdf_np(r) - mech.k * np.log(b)


def log_ratio_mp(mech, x, xp, y):
    """ln p_x(y) - ln p_x'(y) at the working precision, from the exact binary coordinates."""
    def logp(z):
        F = mech.query.f_mp(z)
        b = mech.bound.B_mp([mpmath.mpf(v) for v in z]) / mp_exact(mech.eta)
        if not (b > 0 and mpmath.isfinite(b)):
            return mpmath.nan
        r = mpmath.sqrt(mpmath.fsum((mpmath.mpf(yi) - Fi) ** 2 for yi, Fi in zip(y, F))) / b
        return mech.family.logpdf_mp(r) - mech.k * mpmath.log(b)
    return logp([mpmath.mpf(v) for v in x]) - logp([mpmath.mpf(v) for v in xp])


def _unit(V, metric):
    n = metric.dist_np(V)
    return V / n[:, None]


def _directions(mech, X, rng):
    """Unit directions (in the input metric) of the pairs' steps, per point: shape (n, m, d)."""
    d = mech.dim
    base = [np.eye(d)[i] for i in range(d)]
    base += [np.ones(d)] + ([np.array([1.0, -1.0] + [0.0] * (d - 2))] if d > 1 else [])
    signs = np.array(np.meshgrid(*[[-1.0, 1.0]] * d)).reshape(d, -1).T if d <= 4 else np.empty((0, d))
    base += list(signs)
    base += list(rng.standard_normal((4, d)))
    V = np.broadcast_to(np.array(base), (len(X), len(base), d)).copy()
    # the top right-singular vector of the Jacobian (central differences): the fastest direction
    h = 1e-6 * np.maximum(1.0, np.abs(X))
    J = np.stack([(mech.query.f_np(X + np.eye(d)[j] * h[:, j:j + 1]) - mech.query.f_np(X - np.eye(d)[j] * h[:, j:j + 1]))
                  / (2 * h[:, j:j + 1]) for j in range(d)], axis=2)        # (n, k, d)
    w = np.asarray(mech.metric.w_np, float) * np.ones(d)
    with np.errstate(all="ignore"):
        J = J / w[None, None, :]
        J[~np.isfinite(J)] = 0.0          # where f has no value: no preferred direction
        _, _, vt = np.linalg.svd(J)
    top = vt[:, 0, :] / w[None, :]
    V = np.concatenate([V, top[:, None, :]], axis=1)
    n, m, _ = V.shape
    flat = V.reshape(n * m, d)
    return _unit(flat, mech.metric).reshape(n, m, d)


def _pairs(mech, rng, effort):
    d = mech.dim
    marks = [np.asarray(p, float) for p in mech.query.landmarks] + [np.zeros(d)]
    rand = rng.standard_normal((POINTS[effort], d)) * rng.choice([0.3, 1.0, 10.0], (POINTS[effort], 1))
    X = np.unique(np.vstack([np.array(marks), rand]), axis=0)
    V = _directions(mech, X, rng)
    n, m, _ = V.shape
    Xr = np.repeat(X, m * len(STEPS), axis=0)
    steps = np.tile(np.repeat(STEPS, 1)[None, :], (n * m, 1)).reshape(-1)
    Vr = np.repeat(V.reshape(n * m, d), len(STEPS), axis=0)
    Xp = Xr + Vr * steps[:, None]
    if mech.Lambda != sp.oo:
        keep = mech.dist_np(Xr, Xp) <= float(mech.Lambda)
        Xr, Xp = Xr[keep], Xp[keep]
    return Xr, Xp


def _outputs(cs, csp, k, rng):
    """Candidate outputs per pair: (n, q, k)."""
    (F, b), (Fp, bp) = cs, csp
    shift = Fp - F
    with np.errstate(all="ignore"):
        u = shift / np.linalg.norm(shift, axis=1, keepdims=True)
    u = np.where(np.isfinite(u).all(axis=1, keepdims=True), u, np.eye(k)[0])
    perp = np.zeros_like(u)
    perp[:, 0], perp[:, 1] = -u[:, 1], u[:, 0]
    others = rng.standard_normal((2, k))
    others /= np.linalg.norm(others, axis=1, keepdims=True)
    dirs = [u, -u, perp, (u + perp) / np.sqrt(2), (-u + perp) / np.sqrt(2)] + [np.broadcast_to(o, u.shape) for o in others]
    out = []
    for centre, scale in ((F, b), (Fp, bp)):
        for D in dirs:
            out.append(centre[:, None, :] + D[:, None, :] * (scale[:, None, None] * RADII[None, :, None]))
    return np.concatenate(out, axis=1)


def _verify(mech, x, xp, y):
    """(log ratio at 100 digits, dist, violates) when stable at 50 and 100 digits, else None;
    `violates`: ln p_x(y) - ln p_x'(y) exceeds epsilon * dist by more than 1e-30 (relative) at both."""
    vals = []
    for dps in (50, 100):
        with mpmath.workdps(dps):
            lr, dist = log_ratio_mp(mech, x, xp, y), mech.dist_mp(x, xp)
            if not (mpmath.isfinite(lr) and dist > 0):
                return None
            bound = mp_exact(mech.epsilon) * dist
            vals.append((lr, lr - bound > mpmath.mpf(10) ** -30 * max(1, abs(bound))))
    (a, v50), (b, v100) = vals
    with mpmath.workdps(100):
        if abs(a - b) > mpmath.mpf(10) ** -30 * max(1, abs(b)):
            return None
        return b, mech.dist_mp(x, xp), bool(v50 and v100)


def _polish(mech, X, Xp, Y, rng, rounds=40, tries=48):
    """A batched random local search over (x, y) with each pair's step x' - x kept: per candidate,
    `tries` perturbations a round at shrinking scales (x relative to its size, y to the noise scale),
    the best kept.  Returns the (possibly) improved X, Xp, Y; float64, never evidence by itself."""
    n, d = X.shape
    step = Xp - X
    dist = mech.dist_np(X, Xp)

    def rate(A, Ap, B):
        with np.errstate(all="ignore"):
            r = (log_density_np(mech, B, A) - log_density_np(mech, B, Ap)) / np.repeat(dist, len(A) // n)
        return np.where(np.isfinite(r), r, -np.inf)
    best = rate(X, Xp, Y)
    sx = 0.3 * np.maximum(1.0, np.abs(X)).max(axis=1)
    sy = 0.5 * centre_scale_np(mech, X)[1]
    for _ in range(rounds):
        Xc = np.repeat(X, tries, axis=0) + rng.standard_normal((n * tries, d)) * np.repeat(sx, tries)[:, None]
        Yc = np.repeat(Y, tries, axis=0) + rng.standard_normal((n * tries, Y.shape[1])) * np.repeat(sy, tries)[:, None]
        r = rate(Xc, Xc + np.repeat(step, tries, axis=0), Yc).reshape(n, tries)
        j = np.argmax(r, axis=1)
        better = r[np.arange(n), j] > best
        pick = np.arange(n) * tries + j
        X = np.where(better[:, None], Xc[pick], X)
        Y = np.where(better[:, None], Yc[pick], Y)
        best = np.where(better, r[np.arange(n), j], best)
        sx, sy = sx * 0.8, sy * 0.8
    return X, X + step, Y


def audit_vector(mech, seed=0, effort="standard"):
    """(witness dict or None, epsilon_lower mpf or None, stats): the best verified triple."""
    rng = np.random.default_rng(seed)
    X, Xp = _pairs(mech, rng, effort)
    cs, csp = centre_scale_np(mech, X), centre_scale_np(mech, Xp)
    Y = _outputs(cs, csp, mech.k, rng)
    n, q, k = Y.shape
    with np.errstate(all="ignore"):
        rate = ((log_density_np(mech, Y, X, cs) - log_density_np(mech, Y, Xp, csp))
                / mech.dist_np(X, Xp)[:, None])
    rate[~np.isfinite(rate)] = -np.inf
    # per pair the first output (nearest the centre along each direction) within 1e-9 of its best
    top = rate.max(axis=1, keepdims=True)
    best_q = np.argmax(rate >= top - 1e-9 * np.maximum(1.0, np.abs(top)), axis=1)
    order = np.argsort(-rate[np.arange(n), best_q])[:KEEP]
    eps = mp_exact(mech.epsilon)
    best = None
    polish = {"quick": 4, "standard": 8, "thorough": 16}[effort]
    cands = [(X[i], Xp[i], Y[i, best_q[i]]) for i in order]
    top = order[:polish]
    PX, PXp, PY = _polish(mech, X[top], Xp[top], Y[top, best_q[top]], rng)
    cands = list(zip(PX, PXp, PY)) + cands
    for x, xp, y in cands:
        if not mech.metric.within(x, xp, mech.Lambda):
            continue
        v = _verify(mech, x, xp, y)
        if v is None:
            continue
        lr, dist, violates = v
        with mpmath.workdps(100):
            r = lr / dist
        if best is None or (violates, r) > (best[-1], best[0]):
            best = (r, x, xp, y, lr, dist, violates)
    stats = {"pairs": int(n), "outputs_per_pair": int(q), "verified": int(best is not None)}
    if best is None:
        return None, None, stats
    r, x, xp, y, lr, dist, violated = best
    with mpmath.workdps(100):
        bound = eps * dist
    witness = {"x": [exact_decimal(float(c)) for c in x], "x_prime": [exact_decimal(float(c)) for c in xp],
               "y": [exact_decimal(float(c)) for c in y], "dist": dist_text(mech, x, xp),
               "log_ratio": mpstr(lr), "epsilon_times_dist": mpstr(bound), "rate": mpstr(r)}
    return (witness if violated else None), r, stats
