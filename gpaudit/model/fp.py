"""float64 helpers that hold over the whole supported range of values (1e-300 .. 1e300).

``np.linalg.norm`` squares its entries: a distance of 1e-200 underflows to 0 and one of 1e200
overflows to inf.  ``row_norm`` scales each row by its largest entry first, as ``math.hypot`` does.
``nelder_mead_batch`` minimises from many starts at once (the audit's polishing, the proof stage's
screening of candidate rates).
"""

from __future__ import annotations

import numpy as np


def row_norm(V) -> np.ndarray:
    """Euclidean norm of each row of V (shape (n, d), or (d,) for one vector -> shape (1,))."""
    V = np.atleast_2d(np.asarray(V, dtype=float))
    if V.shape[1] == 1:
        # |v|: the scaled form below gives exactly that in one dimension (v / |v| is +-1, its
        # square 1, m * sqrt(1) = m; 0, inf and NaN as below), in one pass instead of ten
        return np.abs(V[:, 0])
    with np.errstate(all="ignore"):
        m = np.max(np.abs(V), axis=1)
        safe = np.where((m > 0) & np.isfinite(m), m, 1.0)
        out = m * np.sqrt(np.sum((V / safe[:, None]) ** 2, axis=1))
    out[m == 0] = 0.0
    bad = ~np.isfinite(m)
    if bad.any():
        out[bad] = np.where(np.isnan(V[bad]).any(axis=1), np.nan, np.inf)
    return out


def norm1(v) -> float:
    """Euclidean norm of one vector, without under- or overflow."""
    return float(row_norm(np.asarray(v, dtype=float).reshape(1, -1))[0])


def nelder_mead_batch(fun, Z0, widths, iters):
    """Minimise fun from every row of Z0 at once; return the best point of each simplex and its
    value.  fun maps an (m, n) array of points to m finite values.

    Nelder-Mead with the adaptive coefficients of Gao and Han (2012), as scipy's ``adaptive``
    option: each simplex starts at its row of Z0 and that row plus widths[k, j] along axis j, and
    takes one step per iteration.  The four trial points of a step (reflection, expansion, outer
    and inner contraction) are evaluated for all simplices in one call; simplices that shrink
    re-evaluate their other vertices in one more.  Deterministic: no randomness, no clock."""
    Z0 = np.asarray(Z0, float)
    K, n = Z0.shape
    S = np.repeat(Z0[:, None, :], n + 1, axis=1)
    S[:, 1:, :] += np.asarray(widths, float)[:, None, :] * np.eye(n)[None, :, :]
    F = fun(S.reshape(-1, n)).reshape(K, n + 1)
    rho, chi, psi, sigma = 1.0, 1.0 + 2.0 / n, 0.75 - 1.0 / (2.0 * n), 1.0 - 1.0 / n
    for _ in range(iters):
        order = np.argsort(F, axis=1, kind="stable")
        S = np.take_along_axis(S, order[:, :, None], axis=1)
        F = np.take_along_axis(F, order, axis=1)
        c = S[:, :-1].mean(axis=1)
        w = S[:, -1]
        with np.errstate(all="ignore"):
            trial = np.concatenate([c + rho * (c - w), c + rho * chi * (c - w),
                                    c + psi * rho * (c - w), c - psi * (c - w)])
        ft = fun(trial).reshape(4, K)
        xr, xe, xoc, xic = trial.reshape(4, K, n)
        fr, fe, foc, fic = ft
        best, second, worst = F[:, 0], F[:, -2], F[:, -1]
        expand = fr < best
        reflect = ~expand & (fr < second)
        outer = ~expand & ~reflect & (fr < worst)
        inner = ~expand & ~reflect & ~outer
        new = np.where((expand & (fe < fr))[:, None], xe, xr)
        fnew = np.where(expand & (fe < fr), fe, fr)
        take_out = outer & (foc <= fr)
        take_in = inner & (fic < worst)
        new = np.where(take_out[:, None], xoc, np.where(take_in[:, None], xic, new))
        fnew = np.where(take_out, foc, np.where(take_in, fic, fnew))
        shrink = (outer & ~take_out) | (inner & ~take_in)
        keep = ~shrink
        S[keep, -1] = new[keep]
        F[keep, -1] = fnew[keep]
        if shrink.any():
            s0 = S[shrink, :1]
            S[shrink, 1:] = s0 + sigma * (S[shrink, 1:] - s0)
            F[shrink, 1:] = fun(S[shrink, 1:].reshape(-1, n)).reshape(-1, n)
    k = np.argmin(F, axis=1)
    rows = np.arange(K)
    return S[rows, k], F[rows, k]
