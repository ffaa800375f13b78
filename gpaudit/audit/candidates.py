"""Where violations live: candidate input pairs (x, x') and outputs y for the float64 screen.

Pairs are placed around every landmark of the query (kinks, region boundaries, the KDE centre),
straddling them, at small and large distances, far away from them, and at random; outputs are placed
at the two centres and along both noise scales out to the far tails.
"""

from __future__ import annotations

import numpy as np

EFFORT_PAIRS = {"quick": 4000, "standard": 16000, "thorough": 60000}

# output offsets in units of the noise scale: the body, the shoulders and the far tails
U_GRID = np.unique(np.concatenate([
    np.linspace(-6, 6, 49),
    np.outer([-1, 1], np.logspace(-4, 12, 49)).ravel(),
]))


def _unit_vectors(rng, n, d):
    v = rng.standard_normal((n, d))
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def candidate_pairs(landmarks, scale, gamma, Lambda, dim, effort, rng):
    """Arrays X, Xp of shape (n, dim)."""
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
    dirs = np.eye(dim)
    if dim > 1:
        dirs = np.concatenate([dirs, _unit_vectors(np.random.default_rng(1), 6, dim)])
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
    Xr = centre + far[:, None] * _unit_vectors(rng, n_rand, dim)
    hi = min(Lambda, 100 * scale) if np.isfinite(Lambda) else 100 * scale
    step = np.minimum(scale * 10 ** rng.uniform(-4, 2, n_rand), hi)
    Xpr = Xr + step[:, None] * _unit_vectors(rng, n_rand, dim)
    X, Xp = np.concatenate([X, Xr]), np.concatenate([Xp, Xpr])
    d = np.linalg.norm(X - Xp, axis=1)
    keep = (d > 0) & (d <= Lambda)
    return X[keep], Xp[keep]
