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


def _golden_max(fun, lo, hi, iters=60):
    """Vectorised golden-section search for the maximum of fun on [lo, hi] (elementwise).

    Returns (argmax, max) over every point evaluated: a lower bound on the supremum.
    """
    k = (np.sqrt(5.0) - 1) / 2
    a, b = np.asarray(lo, float).copy(), np.asarray(hi, float).copy()
    c, d = b - k * (b - a), a + k * (b - a)
    fc, fd = fun(c), fun(d)
    best_x, best_f = np.where(fc >= fd, c, d), np.maximum(fc, fd)
    for _ in range(iters):
        left = fc >= fd  # the maximum lies in [a, d]
        a, b = np.where(left, a, c), np.where(left, d, b)
        keep, fkeep = np.where(left, c, d), np.where(left, fc, fd)
        new = np.where(left, b - k * (b - a), a + k * (b - a))
        fnew = fun(new)
        c, fc = np.where(left, new, keep), np.where(left, fnew, fkeep)
        d, fd = np.where(left, keep, new), np.where(left, fkeep, fnew)
        better = fnew > best_f
        best_x, best_f = np.where(better, new, best_x), np.where(better, fnew, best_f)
    return best_x, best_f


class RadialSmoothSensitivity:
    """B* for the Gaussian kernel f(x) = exp(-|x - t|^2 / (2 h^2)) (Lemma 4.5's radial reduction).

    In units of h, with g(s) = exp(-s^2/2): the pointwise Lipschitz constant of the profile is
    l(s) = max(|g'(s)|, sup_w |g(w) - g(s)| / |w - s|), and B*(r) = sup_s l(s) / growth(|r - s|) / h
    over s >= 0 (|r - s| <= |r - |s||).  Both suprema are taken on a grid and refined by golden
    section at every node of an r-grid; between nodes ln B is interpolated linearly, which keeps
    ln B gamma-Lipschitz (a chord of a gamma-Lipschitz function has slope at most gamma).  B is a
    model of B*, valid for r <= r_max.
    """

    W = np.linspace(-14.0, 14.0, 2801)

    def __init__(self, centre, h, gamma, growth, Lambda, r_max=25.0, n_s=4001, n_r=12501):
        self.centre = np.asarray(centre, float)
        self.h, self.gamma, self.growth = float(h), float(gamma) * float(h), growth
        self.Lambda = np.inf if Lambda is None else float(Lambda) / float(h)
        self.r_max = float(r_max)
        self.s = np.linspace(0.0, self.r_max + 20.0, n_s)
        self.l, self.w_best = self._lip_table(self.s)
        self.r = np.linspace(0.0, self.r_max, n_r)
        self.logB = np.log(self._profile(self.r))

    @staticmethod
    def _g(s):
        return np.exp(-s * s / 2)

    def _secant(self, s, w):
        with np.errstate(all="ignore"):
            q = np.abs(self._g(w) - self._g(s)) / np.abs(w - s)
        # below 1e-6 the quotient is all rounding noise; the derivative covers that limit
        q[~np.isfinite(q) | (np.abs(w - s) > self.Lambda) | (np.abs(w - s) < 1e-6)] = 0.0
        return q

    def _lip_table(self, s, chunk=500):
        l, wb = np.empty(len(s)), np.empty(len(s))
        step = self.W[1] - self.W[0]
        for i in range(0, len(s), chunk):
            si = s[i:i + chunk]
            q = self._secant(si[:, None], self.W[None, :])
            k = np.argmax(q, axis=1)
            w, best = _golden_max(lambda w: self._secant(si, w), self.W[k] - step, self.W[k] + step)
            l[i:i + chunk] = np.maximum(np.abs(si) * self._g(si), np.maximum(best, q[np.arange(len(si)), k]))
            wb[i:i + chunk] = w
        return l, wb

    def _lip_near(self, s, w0, width=0.05):
        """l(s) with the secant's maximiser searched near w0 (it moves little with s)."""
        _, best = _golden_max(lambda w: self._secant(s, w), w0 - width, w0 + width)
        return np.maximum(np.abs(s) * self._g(s), best)

    def _decay(self, d):
        return np.exp(-self.gamma * d) if self.growth == "exponential" else 1 / (1 + self.gamma * d)

    def _profile(self, r, chunk=2000):
        out = np.empty(len(r))
        step = self.s[1] - self.s[0]
        for i in range(0, len(r), chunk):
            ri = r[i:i + chunk]
            vals = self.l[None, :] * self._decay(np.abs(ri[:, None] - self.s[None, :]))
            k = np.argmax(vals, axis=1)
            w0 = self.w_best[k]
            lo, hi = np.maximum(self.s[k] - step, 0.0), self.s[k] + step
            _, best = _golden_max(lambda z: self._lip_near(z, w0) * self._decay(np.abs(ri - z)), lo, hi, 50)
            out[i:i + chunk] = np.maximum(best, vals[np.arange(len(ri)), k])
        return out

    def __call__(self, X):
        X = np.atleast_2d(np.asarray(X, float))
        r = np.sqrt(((X - self.centre)**2).sum(axis=1)) / self.h
        out = np.exp(np.interp(r, self.r, self.logB)) / self.h
        out[r > self.r_max] = np.nan
        return out
