"""Numerically computed smooth sensitivity (Liang-Yi Section 3.3), for queries without a closed form.

B*(x) = sup_z L_{f,Lambda}(z) / g(|x - z|),  L_{f,Lambda}(z) = sup_{0<|w-z|<=Lambda} |f(w)-f(z)|/|w-z|.

Both suprema are taken over a grid covering a box (plus the local slope at each grid point), so the
result is a model of the mechanism valid inside that box: outside it B is NaN and the audit does not
search there.  Radial queries f(x) = f0(|x - t|) are reduced to one dimension (Lemma 4.5).
"""

from __future__ import annotations

import numpy as np


def growth_np(growth: str, gamma: float, r):
    r = np.asarray(r, dtype=float)
    return np.exp(gamma * r) if growth == "exponential" else 1.0 + gamma * r


def _pairwise_lipschitz(F, P, Lambda, chunk=512):
    """L(z_i) = max_j |F_j - F_i| / |P_j - P_i| over grid points within Lambda."""
    G = P.shape[0]
    L = np.zeros(G)
    for s in range(0, G, chunk):
        d = np.sqrt(((P[s:s + chunk, None, :] - P[None, :, :])**2).sum(-1))
        with np.errstate(divide="ignore", invalid="ignore"):
            q = np.abs(F[None, :] - F[s:s + chunk, None]) / d
        q[(d == 0) | (d > Lambda) | ~np.isfinite(q)] = 0.0
        L[s:s + chunk] = q.max(axis=1)
    return L


class GridSmoothSensitivity:
    """B* of a function sampled on a regular grid over the box [lo, hi]^d."""

    def __init__(self, f_np, lo, hi, n, gamma, growth, Lambda):
        self.lo, self.hi = np.asarray(lo, float), np.asarray(hi, float)
        self.gamma, self.growth = float(gamma), growth
        d = len(self.lo)
        axes = [np.linspace(self.lo[k], self.hi[k], n) for k in range(d)]
        mesh = np.meshgrid(*axes, indexing="ij")
        self.P = np.stack([m.ravel() for m in mesh], axis=1)
        F = f_np(self.P)
        lam = np.inf if Lambda is None else float(Lambda)
        self.L = _pairwise_lipschitz(F, self.P, lam)

    def inside(self, X):
        X = np.atleast_2d(np.asarray(X, float))
        return np.all((X >= self.lo) & (X <= self.hi), axis=1)

    def __call__(self, X, chunk=256):
        X = np.atleast_2d(np.asarray(X, float))
        out = np.empty(X.shape[0])
        for s in range(0, X.shape[0], chunk):
            d = np.sqrt(((X[s:s + chunk, None, :] - self.P[None, :, :])**2).sum(-1))
            out[s:s + chunk] = (self.L[None, :] / growth_np(self.growth, self.gamma, d)).max(axis=1)
        out[~self.inside(X)] = np.nan
        return out


class RadialSmoothSensitivity:
    """B* for f(x) = f0(|x - t|): the one-dimensional profile s -> f0(|s|) on [-S, S] (Lemma 4.5)."""

    def __init__(self, f0_np, centre, S, n, gamma, growth, Lambda):
        self.centre = np.asarray(centre, float)
        self.S = float(S)
        s = np.linspace(-self.S, self.S, n)
        prof = GridSmoothSensitivity(lambda P: f0_np(np.abs(P[:, 0])), [-self.S], [self.S], n,
                                     gamma, growth, Lambda)
        self.s, self.L = s, prof.L
        self.gamma, self.growth = float(gamma), growth
        # tabulate B on r in [0, S/2]: inside that range every z that matters lies in the grid
        self.r = np.linspace(0.0, self.S / 2, n // 2)
        self.B = self._direct(self.r)

    def _direct(self, r, chunk=512):
        out = np.empty(r.shape[0])
        for k in range(0, r.shape[0], chunk):
            d = np.abs(r[k:k + chunk, None] - self.s[None, :])
            out[k:k + chunk] = (self.L[None, :] / growth_np(self.growth, self.gamma, d)).max(axis=1)
        return out

    def __call__(self, X):
        X = np.atleast_2d(np.asarray(X, float))
        r = np.sqrt(((X - self.centre)**2).sum(axis=1))
        # ln B* is gamma-Lipschitz in r, so interpolating ln B is accurate to gamma * spacing / 2
        out = np.exp(np.interp(r, self.r, np.log(self.B)))
        out[r > self.r[-1]] = np.nan
        return out
