"""Where violations live: candidate input pairs (x, x') and outputs y for the float64 screen.

Pairs are placed around every landmark of the query (kinks, region boundaries, the KDE centre),
straddling them, at small and large distances, far away from them, and at random; outputs are placed
at the two centres and along both noise scales out to the far tails.  Pairs spanning the query's
transition (landmark to landmark and beyond, and of length Lambda) serve the hockey-stick search, and
seed points handed in from elsewhere (where the proof stage saw a condition fail) get the landmark
treatment down to float64 resolution.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..model.fp import norm1, row_norm

EFFORT_PAIRS = {"quick": 4000, "standard": 16000, "thorough": 60000}

# output offsets in units of the noise scale: the body, the shoulders and the far tails
U_GRID = np.unique(np.concatenate([
    np.linspace(-6, 6, 49),
    np.outer([-1, 1], np.logspace(-4, 12, 49)).ravel(),
]))


def _unit_vectors(rng, n, d, metric=None):
    """n random directions of unit length in the metric (Euclidean when metric is None)."""
    v = rng.standard_normal((n, d))
    if metric is not None and not metric.euclidean:
        return v / metric.dist_np(v)[:, None]
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def _lengths(metric, V):
    """||row|| of each row of V in the metric (Euclidean when metric is None)."""
    return row_norm(V) if metric is None else metric.dist_np(V)


def _axes(metric, dim, rng_seed, n_random):
    """The search's fixed directions: the axes and n_random random ones (dim > 1); for a
    non-Euclidean metric, the extreme points of its unit ball first (axes for l1, sign vectors
    for linf), each of unit length in the metric."""
    if metric is not None and not metric.euclidean:
        d = metric.directions(np.random.default_rng(rng_seed), 0)
        if dim > 1:
            d = np.concatenate([d, _unit_vectors(np.random.default_rng(rng_seed), n_random, dim, metric)])
        return d
    dirs = np.eye(dim)
    if dim > 1:
        dirs = np.concatenate([dirs, _unit_vectors(np.random.default_rng(rng_seed), n_random, dim)])
    return dirs


def candidate_pairs(landmarks, scale, gamma, Lambda, dim, effort, rng, metric=None):
    """Arrays X, Xp of shape (n, dim); distances in `metric` (Euclidean when None)."""
    marks = np.atleast_2d(np.asarray(landmarks, float))
    scale = float(scale)
    n_total = EFFORT_PAIRS[effort]
    lens = [scale * s for s in (1e-4, 1e-3, 1e-2, 0.05, 0.1, 0.25, 0.5, 1, 2, 4, 10, 30, 100)]
    if gamma > 0:
        lens += [c / gamma for c in (0.1, 0.5, 1, 2, 5, 20)]
    lens = np.array(sorted(set(lens)))
    steps = lens[lens <= Lambda] if np.isfinite(Lambda) else lens
    if steps.size == 0:
        steps = np.array([Lambda])
    X, Xp = [], []
    # 1. structured: offsets from each landmark, along axes and diagonals, every step length
    offs = np.concatenate([[0.0], lens, -lens])
    dirs = _axes(metric, dim, 1, 6)
    for m in marks:
        for e in dirs:
            base = m + offs[:, None] * e[None, :]
            for s in np.concatenate([steps, -steps]):
                X.append(base)
                Xp.append(base + s * e[None, :])
    X, Xp = np.concatenate(X), np.concatenate(Xp)
    if len(X) > n_total:  # keep the structured share within budget (deterministically)
        pick = rng.choice(len(X), n_total, replace=False)
        X, Xp = X[pick], Xp[pick]
    # 2. random: log-uniform offsets around landmarks, random directions and distances
    n_rand = max(n_total - len(X), n_total // 2)
    centre = marks[rng.integers(0, len(marks), n_rand)]
    far = scale * 10 ** rng.uniform(-3, 3, n_rand)
    if gamma > 0:
        far = np.where(rng.random(n_rand) < 0.3, 10 ** rng.uniform(-2, 1.5, n_rand) / gamma, far)
    Xr = centre + far[:, None] * _unit_vectors(rng, n_rand, dim, metric)
    hi = min(Lambda, 100 * scale) if np.isfinite(Lambda) else 100 * scale
    step = np.minimum(scale * 10 ** rng.uniform(-4, 2, n_rand), hi)
    Xpr = Xr + step[:, None] * _unit_vectors(rng, n_rand, dim, metric)
    Xs, Xps = spanning_pairs(marks, scale, gamma, Lambda, dim, metric)
    X, Xp = np.concatenate([X, Xr, Xs]), np.concatenate([Xp, Xpr, Xps])
    d = _lengths(metric, X - Xp)
    keep = (d > 0) & (d <= Lambda)
    return X[keep], Xp[keep]


def spanning_pairs(marks, scale, gamma, Lambda, dim, metric=None):
    """Long pairs for the hockey-stick search: from landmark to landmark and beyond, across the whole
    transition, at every scale up to Lambda (or well past the transition when Lambda = inf); pairs
    longer than Lambda are shrunk to Lambda about their midpoint.  Both orders."""
    marks = np.unique(np.atleast_2d(np.asarray(marks, float)), axis=0)
    scale = float(scale)
    beyond = [0.0, 0.25, 0.5, 1, 2, 4, 8]
    if gamma > 0:
        beyond += [c / gamma for c in (0.1, 0.5, 1)]
    beyond = np.array(sorted(set(beyond)))
    dirs = _axes(metric, dim, 1, 0)
    A, Bp = [], []
    for i in range(len(marks)):
        for j in range(len(marks)):
            if j <= i:
                continue
            u = marks[j] - marks[i]
            n = norm1(u) if metric is None else float(metric.dist_np(u.reshape(1, -1))[0])
            if not n > 0:
                continue
            u = u / n
            o = (beyond * scale)[:, None]
            A.append(marks[i] - o * u)
            Bp.append(marks[j] + o * u)
    # straddling a landmark, length Lambda (or multiples of the transition width)
    if np.isfinite(Lambda):
        lengths = np.array([Lambda, Lambda / 2, Lambda / 4])
    else:
        width = max(scale, float(np.max(np.ptp(marks, axis=0))) if len(marks) > 1 else scale)
        lengths = width * np.array([0.5, 1, 2, 4, 8, 16])
    t = np.array([0.0, 0.25, 0.5, 0.75, 1.0])
    for m in marks:
        for e in dirs:
            for L in lengths:
                A.append(m - (t * L)[:, None] * e)
                Bp.append(m + ((1 - t) * L)[:, None] * e)
    if not A:
        return np.zeros((0, dim)), np.zeros((0, dim))
    A, Bp = np.concatenate(A), np.concatenate(Bp)
    d = _lengths(metric, Bp - A)
    if np.isfinite(Lambda):
        over = d > Lambda
        mid, half = (A[over] + Bp[over]) / 2, (Bp[over] - A[over]) * (Lambda * (1 - 1e-12) / d[over] / 2)[:, None]
        A[over], Bp[over] = mid - half, mid + half
    return np.concatenate([A, Bp]), np.concatenate([Bp, A])



def as_points(seeds, dim):
    """Seed points as float arrays of length dim (tuples of floats, decimal strings, fractions...);
    malformed or non-finite ones are dropped, duplicates removed, order kept."""
    out, seen = [], set()
    for p in seeds or ():
        try:
            v = np.array([_to_float(c) for c in p], float)
        except (TypeError, ValueError, ZeroDivisionError, OverflowError):
            continue
        if v.shape != (dim,) or not np.all(np.isfinite(v)) or v.tobytes() in seen:
            continue
        seen.add(v.tobytes())
        out.append(v)
    return out


def _to_float(c):
    if isinstance(c, str):
        try:
            return float(c)
        except ValueError:
            return float(Fraction(c.strip()))
    return float(c)


def seed_pairs(seed, scale, gamma, Lambda, dim, n_dirs=4, budget=None, metric=None):
    """Pairs around one seed point as around a landmark, but down to float64 resolution: straddling it
    (at several fractions, never on it unless a fraction is 0 or 1) at distances from ~1e-12 |seed|
    up to 100 scale and 1/gamma multiples, along every axis and n_dirs fixed directions, both orders;
    and offset from it along the axes as the landmark grid does.  At most `budget` pairs: the
    straddling ones first (those at the midpoint before the others), then the offset ones,
    subsampled deterministically.  Arrays X, Xp."""
    s = np.asarray(seed, float)
    scale = float(scale)
    mag = float(np.max(np.abs(s))) if s.size else 0.0
    h_min = max(1e-12 * max(mag, scale), 64 * float(np.spacing(mag)), 1e-300)
    h_max = 100 * scale
    n = max(2, int(np.ceil(2 * np.log10(h_max / h_min))) + 1)
    fine = list(np.geomspace(h_min, h_max, n)) if h_max > h_min else [h_min]
    if gamma > 0:
        fine += [c / gamma for c in (0.1, 0.5, 1, 2, 5, 20)]
    fine = np.array(sorted(set(fine)))
    lens = fine[fine <= Lambda] if np.isfinite(Lambda) else fine
    if lens.size == 0:
        lens = np.array([Lambda])
    dirs = _axes(metric, dim, 2, n_dirs)
    t = np.array([0.5, 0.25, 0.75, 0.1, 0.9, 0.0, 1.0])
    coarse = scale * np.array([1e-4, 1e-3, 1e-2, 0.1, 0.5, 1, 2, 10])
    if gamma > 0:
        coarse = np.concatenate([coarse, [0.5 / gamma, 1 / gamma, 5 / gamma]])
    steps = coarse[coarse <= Lambda] if np.isfinite(Lambda) else coarse
    offs = np.concatenate([coarse, -coarse])

    def both(A, Bp):
        A, Bp = np.concatenate(A), np.concatenate(Bp)
        X, Xp = np.concatenate([A, Bp]), np.concatenate([Bp, A])
        d = _lengths(metric, X - Xp)
        keep = (d > 0) & (d <= Lambda)
        return X[keep], Xp[keep]

    # straddling: x = s - t h e, x' = s + (1 - t) h e; ordered by fraction (midpoint first)
    A = [(s - (tk * lens)[:, None] * e) for tk in t for e in dirs]
    Bp = [(s + ((1 - tk) * lens)[:, None] * e) for tk in t for e in dirs]
    SX, SXp = both(A, Bp)
    # offset bases along the axes, as for a landmark
    A, Bp = [], []
    for e in _axes(metric, dim, 2, 0):
        base = s + offs[:, None] * e[None, :]
        for st in np.concatenate([steps, -steps]):
            A.append(base)
            Bp.append(base + st * e[None, :])
    OX, OXp = both(A, Bp)
    if budget is not None:
        budget = int(budget)
        if len(SX) >= budget:  # both orders of the first pairs: keep them together
            half = budget // 2
            n_s = len(SX) // 2
            idx = np.concatenate([np.arange(min(half, n_s)), n_s + np.arange(min(half, n_s))])
            SX, SXp, OX, OXp = SX[idx], SXp[idx], OX[:0], OXp[:0]
        elif len(SX) + len(OX) > budget:
            pick = np.sort(np.random.default_rng(3).choice(len(OX), budget - len(SX), replace=False))
            OX, OXp = OX[pick], OXp[pick]
    return np.concatenate([SX, OX]), np.concatenate([SXp, OXp])
