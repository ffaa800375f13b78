"""Numerically computed smooth sensitivity (Liang-Yi Section 3.3), for queries without a closed form.

B*(x) = sup_z L_{f,Lambda}(z) / g(|x - z|),  L_{f,Lambda}(z) = sup_{0<|w-z|<=Lambda} |f(w)-f(z)|/|w-z|.

Both suprema are taken over a grid covering a box (plus the local slope at each grid point, and a
few points near the query's landmarks; at most MAX_GRID_POINTS points in any dimension), so the
result is a model of the mechanism valid inside that box: outside it B is NaN and the audit does not
search there.  Radial queries f(x) = f0(|x - t|) are reduced to one dimension (Lemma 4.5).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numpy as np

from ..spec.types import Growth, Norm


def growth_np(growth: str, gamma: float, r):
    r = np.asarray(r, dtype=float)
    return np.exp(gamma * r) if growth == Growth.EXPONENTIAL else 1.0 + gamma * r


# work limits, whatever the dimension: grid points in total, and entries of one pairwise block
MAX_GRID_POINTS = 8192
GRID_POINTS = {"quick": 2001, "standard": 4001, "thorough": 8001}
BLOCK_ENTRIES = 1 << 21


def points_per_axis(dim: int, budget: int) -> int:
    """The largest n >= 2 with n^dim <= budget (2 if even 2^dim exceeds it)."""
    budget = min(int(budget), MAX_GRID_POINTS)
    n = max(2, int(np.floor(budget ** (1.0 / dim) + 1e-9)))
    while n > 2 and n ** dim > budget:
        n -= 1
    return n


def _pdist(D, unit, metric=None):
    """||D|| over the last axis of a difference array: Euclidean, summed in units of ``unit`` (squares of
    1e-200 underflow), or in `metric` when it is not the Euclidean one (sums and maxima of |D_k| w_k)."""
    if metric is None or metric.euclidean:
        return unit * np.sqrt(((D / unit)**2).sum(-1))
    V = np.abs(D) * metric.w_np
    if metric.kind == Norm.L1:
        return V.sum(-1)
    if metric.kind == Norm.LINF:
        return V.max(-1)
    return unit * np.sqrt(((V / unit)**2).sum(-1))


def _pdist_pairs(A, P, unit, metric=None):
    """_pdist(A[:, None, :] - P[None, :, :]) without the (n, G, d) difference array: coordinate by
    coordinate, with the same operations on every entry in the same order (a sum of fewer than 8
    terms is accumulated from 0 in order, as numpy's reduction does), so the values are identical.
    Three (n, G) arrays instead of about 3d: several times faster for large blocks."""
    d = A.shape[1]
    if d >= 8:   # numpy's pairwise summation groups 8 or more terms differently
        return _pdist(A[:, None, :] - P[None, :, :], unit, metric)
    plain = metric is None or metric.euclidean
    acc = None
    for k in range(d):
        t = A[:, k, None] - P[None, :, k]
        if plain:
            t /= unit
            t *= t
        else:
            np.abs(t, out=t)
            t *= metric.w_np[k]
            if metric.kind == Norm.LINF:
                acc = t if acc is None else np.maximum(acc, t, out=acc)
                continue
            if metric.kind != Norm.L1:
                t /= unit
                t *= t
        acc = t if acc is None else np.add(acc, t, out=acc)
    if plain or metric.kind not in (Norm.L1, Norm.LINF):
        np.sqrt(acc, out=acc)
        acc *= unit
    return acc


def _rows_per_block(G: int, d: int, cap: int) -> int:
    """Rows of a (rows, G, d) pairwise block that keep it under BLOCK_ENTRIES entries."""
    return int(max(1, min(cap, BLOCK_ENTRIES // max(1, G * max(d, 1)))))


def _pairwise_lipschitz(F, P, Lambda, chunk=512, unit=1.0, metric=None):
    """L(z_i) = max_j |F_j - F_i| / |P_j - P_i| over grid points within Lambda.

    Distances are summed in units of ``unit`` (the box's extent): squares of 1e-200 underflow.
    Rows are processed in blocks of bounded size, whatever the number of points and dimension."""
    G = P.shape[0]
    L = np.zeros(G)
    chunk = _rows_per_block(G, P.shape[1], chunk)
    for s in range(0, G, chunk):
        d = _pdist_pairs(P[s:s + chunk], P, unit, metric)
        with np.errstate(divide="ignore", invalid="ignore"):
            q = np.abs(F[None, :] - F[s:s + chunk, None]) / d
        q[(d == 0) | (d > Lambda) | ~np.isfinite(q)] = 0.0
        L[s:s + chunk] = q.max(axis=1)
    return L


def _local_slopes(f_np, P, F, h, lam, metric=None):
    """max over one-sided secants of length h from each point (along every axis, both ways, and
    along the forward-difference gradient): the slope at scales finer than the grid.  Each is a
    true secant |f(w) - f(z)| / |w - z| with |w - z| = h <= Lambda, so it only raises L towards
    L_{f,Lambda}.  Non-finite values are ignored.  In a non-Euclidean metric the steps are of
    length h in that metric and the last one is along its steepest direction for the gradient."""
    G, d = P.shape
    if G == 0 or not (h > 0) or h > lam:
        return np.zeros(G)
    weighted = metric is not None and not metric.euclidean
    w = metric.w_np if weighted else np.ones(d)
    best = np.zeros(G)
    grad = np.zeros((G, d))
    with np.errstate(all="ignore"):
        for k in range(d):
            step = h / w[k]                          # length h in the metric
            for sgn in (1.0, -1.0):
                Q = P.copy()
                Q[:, k] += sgn * step
                dF = f_np(Q) - F
                if sgn > 0:
                    q = dF / step
                    grad[:, k] = np.where(np.isfinite(q), q, 0.0)
                q = np.abs(dF) / h
                best = np.maximum(best, np.where(np.isfinite(q), q, 0.0))
        if d > 1:
            if weighted:
                U, ok = np.array([metric.steepest(g) for g in grad]), np.ones(G, bool)
            else:
                n = np.sqrt((grad**2).sum(axis=1))
                ok = n > 0
                U = np.where(ok[:, None], grad / np.where(ok, n, 1.0)[:, None], 0.0)
            q = np.abs(f_np(P + h * U) - F) / h
            best = np.maximum(best, np.where(ok & np.isfinite(q), q, 0.0))
    return best


def _dominant(P, L, gamma, growth, unit, block=256, metric=None):
    """Indices of the points that matter for B(x) = max_i L_i / g(|x - P_i|).

    A point i with L_i <= L_j / g(|P_i - P_j|) for a kept j never attains the maximum alone: by the
    triangle inequality and g(a + b) <= g(a) g(b) (exponential and linear growth), L_i / g(|x - P_i|)
    <= L_j / g(|x - P_j|) for every x.  Points are taken in decreasing L (ties: first index), so the
    maximum is unchanged (up to rounding) and evaluation costs one pass over the kept points."""
    order = np.argsort(-L, kind="stable")
    order = order[np.isfinite(L[order]) & (L[order] > 0)]
    keep = np.zeros(0, dtype=int)
    d = P.shape[1]
    for s in range(0, len(order), block):
        idx = order[s:s + block]
        if keep.size:
            rows = _rows_per_block(keep.size, d, len(idx))
            dom = np.zeros(len(idx), bool)
            for r in range(0, len(idx), rows):
                sub = idx[r:r + rows]
                dist = _pdist_pairs(P[sub], P[keep], unit, metric)
                dom[r:r + rows] = (L[None, keep] / growth_np(growth, gamma, dist)).max(axis=1) >= L[sub]
            idx = idx[~dom]
        # within the block, in order
        mine = []
        for i in idx:
            if mine:
                dist = _pdist(P[i] - P[mine], unit, metric)
                if (L[mine] / growth_np(growth, gamma, dist)).max() >= L[i]:
                    continue
            mine.append(i)
        keep = np.concatenate([keep, np.array(mine, dtype=int)])
    return keep


class GridSmoothSensitivity:
    """B* of a function sampled on a regular grid over the box [lo, hi]^d, plus optional extra
    points (near the query's landmarks: where a coarse grid in many dimensions sees nothing).

    The work is bounded in any dimension: at most MAX_GRID_POINTS points in all (n is lowered to
    fit, then extra points are kept up to the remaining room), the pairwise secants are taken in
    blocks of at most BLOCK_ENTRIES entries, and each point also gets its local one-sided slopes, so
    a coarse grid (few points per axis in d >= 3) still sees the query's steepest slopes."""

    def __init__(self, f_np, lo, hi, n, gamma, growth, Lambda, extra=None, max_points=MAX_GRID_POINTS,
                 metric=None):
        self.metric = None if metric is None or metric.euclidean else metric
        self.lo, self.hi = np.asarray(lo, float), np.asarray(hi, float)
        self.gamma, self.growth = float(gamma), growth
        d = len(self.lo)
        max_points = min(int(max_points), MAX_GRID_POINTS)
        n = min(int(n), points_per_axis(d, max_points)) if d else 1
        self.n = n
        axes = [np.linspace(self.lo[k], self.hi[k], n) for k in range(d)]
        mesh = np.meshgrid(*axes, indexing="ij")
        P = np.stack([m.ravel() for m in mesh], axis=1)
        self.n_extra = 0
        if extra is not None and len(extra) and max_points > len(P):
            E = np.clip(np.atleast_2d(np.asarray(extra, float)), self.lo, self.hi)
            E = E[np.all(np.isfinite(E), axis=1)][: max_points - len(P)]
            self.n_extra = len(E)
            P = np.concatenate([P, E])
        self.P = P
        F = f_np(self.P)
        lam = np.inf if Lambda is None else float(Lambda)
        ext = float(np.max(self.hi - self.lo)) if d else 0.0
        self.unit = ext if np.isfinite(ext) and ext > 0 else 1.0
        self.L = _pairwise_lipschitz(F, self.P, lam, unit=self.unit, metric=self.metric)
        spacing = self.unit / max(n - 1, 1)
        self.L = np.maximum(self.L, _local_slopes(f_np, self.P, F, min(1e-3 * spacing, lam), lam, self.metric))
        # evaluation needs only the points not dominated by another (exact for these growths)
        k = _dominant(self.P, self.L, self.gamma, self.growth, self.unit, metric=self.metric)
        if k.size == 0:  # f constant on the sample: B = 0 there
            k = np.array([0])
        self._Pk, self._Lk = self.P[k], self.L[k]

    def inside(self, X):
        X = np.atleast_2d(np.asarray(X, float))
        return np.all((X >= self.lo) & (X <= self.hi), axis=1)

    def __call__(self, X, chunk=256):
        X = np.atleast_2d(np.asarray(X, float))
        out = np.empty(X.shape[0])
        P, L = self._Pk, self._Lk
        if X.shape[1] >= 3 and self.metric is None:  # distances from a Gram product (BLAS) in box units: O(n G) not O(n G d)
            c = (self.lo + self.hi) / 2
            Q = (P - c) / self.unit
            q2 = (Q**2).sum(axis=1)
            rows = _rows_per_block(len(P), 1, 4096)
            expo = self.growth == Growth.EXPONENTIAL
            logL, gu = np.log(L), self.gamma * self.unit
            with np.errstate(all="ignore"):
                for s in range(0, X.shape[0], rows):
                    Z = (X[s:s + rows] - c) / self.unit
                    sq = (Z**2).sum(axis=1)[:, None] + q2[None, :] - 2 * Z @ Q.T
                    r = np.sqrt(np.maximum(sq, 0.0))  # distance in box units
                    if expo:  # max_i L_i e^{-gamma d_i} = exp(max_i (ln L_i - gamma d_i))
                        out[s:s + rows] = np.exp((logL[None, :] - gu * r).max(axis=1))
                    else:
                        out[s:s + rows] = (L[None, :] / (1.0 + gu * r)).max(axis=1)
            out[~self.inside(X)] = np.nan
            return out
        chunk = _rows_per_block(len(P), X.shape[1], chunk)
        for s in range(0, X.shape[0], chunk):
            d = _pdist_pairs(X[s:s + chunk], P, self.unit, self.metric)
            out[s:s + chunk] = (L[None, :] / growth_np(self.growth, self.gamma, d)).max(axis=1)
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


# -- the radial profile's cache: in memory, and under the user cache directory ------------------
_TABLES: dict = {}
_SOURCE = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16]  # a code change is a new key


def _table_key(gamma_h, growth, lam, r_max, n_s, n_r) -> str:
    text = repr((_SOURCE, float(gamma_h).hex(), growth, float(lam).hex(), float(r_max).hex(), n_s, n_r))
    return hashlib.sha256(text.encode()).hexdigest()


def _table_dir():
    if os.environ.get("GPAUDIT_NO_CACHE"):
        return None
    root = os.environ.get("GPAUDIT_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "gpaudit")
    return Path(root) / "numeric"


def _load_table(key, n_s, n_r):
    d = _table_dir()
    if d is None:
        return None
    try:
        with np.load(d / f"{key}.npz") as z:
            l, w_best, logB = z["l"], z["w_best"], z["logB"]
    except (OSError, ValueError, KeyError):
        return None
    if l.shape != (n_s,) or w_best.shape != (n_s,) or logB.shape != (n_r,):
        return None
    return l, w_best, logB


def _store_table(key, table):
    d = _table_dir()
    if d is None:
        return
    try:
        d.mkdir(parents=True, exist_ok=True)
        tmp = d / f"{key}.tmp{os.getpid()}.npz"
        np.savez(tmp, l=table[0], w_best=table[1], logB=table[2])
        tmp.replace(d / f"{key}.npz")
    except OSError:
        pass


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
        self.r = np.linspace(0.0, self.r_max, n_r)
        # the profile depends only on (gamma h, growth, Lambda / h, the grids): computed once per
        # machine and kept in the user cache (it is the audit's model of B*, never proof evidence)
        key = _table_key(self.gamma, growth, self.Lambda, self.r_max, n_s, n_r)
        cached = _TABLES.get(key)
        if cached is None:
            cached = _load_table(key, n_s, n_r)
        if cached is None:
            l, w_best = self._lip_table(self.s)
            self.l, self.w_best = l, w_best
            with np.errstate(divide="ignore"):  # B* underflows to 0 far out when gamma h is huge
                logB = np.log(self._profile(self.r))
            cached = (l, w_best, logB)
            _store_table(key, cached)
        _TABLES[key] = cached
        self.l, self.w_best, self.logB = cached

    @staticmethod
    def _g(s):
        return np.exp(-s * s / 2)

    def _secant(self, s, w, gs=None):
        """|g(w) - g(s)| / |w - s| (gs: g(s), when the caller has it)."""
        gs = self._g(s) if gs is None else gs
        with np.errstate(all="ignore"):
            dw = np.abs(w - s)
            q = np.abs(self._g(w) - gs) / dw
        # below 1e-6 the quotient is all rounding noise; the derivative covers that limit
        q[~np.isfinite(q) | (dw > self.Lambda) | (dw < 1e-6)] = 0.0
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
        gs = self._g(s)
        _, best = _golden_max(lambda w: self._secant(s, w, gs), w0 - width, w0 + width)
        return np.maximum(np.abs(s) * gs, best)

    def _decay(self, d):
        return np.exp(-self.gamma * d) if self.growth == Growth.EXPONENTIAL else 1 / (1 + self.gamma * d)

    def _grid_argmax(self, r, chunk=2000):
        """For each r, the node s_k maximising l(s_k) decay(|r - s_k|) (up to rounding ties).

        Exponential growth: ln l(s) - gamma |r - s| is the larger of max_{s <= r} (ln l(s) + gamma s)
        - gamma r and max_{s >= r} (ln l(s) - gamma s) + gamma r, a prefix and a suffix maximum over
        the nodes (linear work); of the two maximisers the one with the larger product is kept.
        Linear growth: the maximum over the nodes no other node dominates (_dominant, exact for this
        growth), in chunks of r to bound the memory."""
        s, n = self.s, len(self.s)
        if self.growth == Growth.EXPONENTIAL:
            with np.errstate(divide="ignore"):
                logl = np.log(self.l)
            idx = np.arange(n)

            def running_argmax(v):   # index of the first maximum of v[:i + 1], for every i
                pm = np.maximum.accumulate(v)
                new = np.concatenate([[True], v[1:] > pm[:-1]])
                return np.maximum.accumulate(np.where(new, idx, 0))
            pre = running_argmax(logl + self.gamma * s)
            suf = (n - 1 - running_argmax((logl - self.gamma * s)[::-1]))[::-1]
            left = pre[np.clip(np.searchsorted(s, r, "right") - 1, 0, n - 1)]
            right = suf[np.clip(np.searchsorted(s, r, "left"), 0, n - 1)]
            vl = self.l[left] * self._decay(np.abs(r - s[left]))
            vr = self.l[right] * self._decay(np.abs(r - s[right]))
            return np.where((vl > vr) | ((vl == vr) & (left < right)), left, right)
        keep = np.sort(_dominant(s[:, None], self.l, self.gamma, self.growth, 1.0))
        if keep.size == 0:
            keep = np.arange(n)
        S, L = s[keep], self.l[keep]
        k = np.empty(len(r), dtype=np.intp)
        for i in range(0, len(r), chunk):
            ri = r[i:i + chunk]
            k[i:i + chunk] = keep[np.argmax(L[None, :] * self._decay(np.abs(ri[:, None] - S[None, :])), axis=1)]
        return k

    def _profile(self, r, chunk=2000):
        """B*(r) h on the r-grid: the grid maximum over s (_grid_argmax), then a golden-section
        refinement around the maximising node s_k: the maximum of l(z) decay(|r - z|) over the
        bracket [s_k - step, s_k + step].  Where r lies outside its bracket and the growth is
        exponential, decay(|r - z|) is a constant factor times e^(-/+ gamma (z - s_k)), so the
        maximiser does not depend on r: it is searched once per (node, side), and B*(r) is
        evaluated there for each such r (a value at a point of the bracket, as every candidate
        is).  The other r (inside their bracket, or linear growth) are refined one by one, all at
        once (elementwise)."""
        step = self.s[1] - self.s[0]
        k = self._grid_argmax(r, chunk)
        grid = self.l[k] * self._decay(np.abs(r - self.s[k]))
        lo, hi = np.maximum(self.s[k] - step, 0.0), self.s[k] + step
        best = np.empty(len(r))
        side = np.zeros(len(r), dtype=np.int8)            # -1: r below the bracket, +1: above
        if self.growth == Growth.EXPONENTIAL:
            side[r > hi] = 1
            side[r < lo] = -1
        one = side == 0
        if one.any():
            w0, ro = self.w_best[k[one]], r[one]
            _, best[one] = _golden_max(lambda z: self._lip_near(z, w0) * self._decay(np.abs(ro - z)),
                                       lo[one], hi[one], 50)
        out = ~one
        if out.any():
            groups, inv = np.unique(np.stack([k[out], side[out]]), axis=1, return_inverse=True)
            gk, gs = groups
            inv = inv.ravel()
            w0, centre = self.w_best[gk], self.s[gk]
            with np.errstate(all="ignore"):
                z, _ = _golden_max(lambda z: self._lip_near(z, w0) * np.exp(gs * self.gamma * (z - centre)),
                                   np.maximum(centre - step, 0.0), centre + step, 50)
                best[out] = self._lip_near(z[inv], self.w_best[k[out]]) * self._decay(np.abs(r[out] - z[inv]))
        return np.maximum(best, grid)

    def __call__(self, X):
        X = np.atleast_2d(np.asarray(X, float))
        with np.errstate(all="ignore"):
            r = np.sqrt((((X - self.centre) / self.h)**2).sum(axis=1))  # in units of h: no underflow
        out = np.exp(np.interp(r, self.r, self.logB)) / self.h
        out[r > self.r_max] = np.nan
        return out
