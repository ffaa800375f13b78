"""Brute-force smooth sensitivity B*(x) = sup_z L(z) e^{-gamma |x - z|} (Lambda = inf): the exact
local Lipschitz constant of a piecewise-linear f (PWL), and searches for f on R (piecewise linear or
smooth) and on R^2."""
from __future__ import annotations

import math

import mpmath as mp
import numpy as np

from .paper_search import golden_max, local_maxima


class PWL:
    """A continuous piecewise-linear f on R given by breakpoints (x_k, f_k), constant
    outside.  L(z) = sup_w |f(w)-f(z)|/|w-z| is computed exactly: on each linear piece the
    secant from z is monotone in w, so the sup is over breakpoints and one-sided slopes."""

    def __init__(self, pts):
        self.x = [mp.mpf(a) for a, _ in pts]
        self.y = [mp.mpf(b) for _, b in pts]
        self.xf = np.array([float(a) for a in self.x])
        self.yf = np.array([float(b) for b in self.y])
        sl = [(self.y[k + 1] - self.y[k]) / (self.x[k + 1] - self.x[k]) for k in range(len(self.x) - 1)]
        self.slopes = [mp.mpf(0)] + sl + [mp.mpf(0)]
        self.K = max(abs(s) for s in self.slopes)

    def f_np(self, z):
        return np.interp(z, self.xf, self.yf)

    def f_mp(self, z):
        z = mp.mpf(z)
        if z <= self.x[0]:
            return self.y[0]
        if z >= self.x[-1]:
            return self.y[-1]
        for k in range(len(self.x) - 1):
            if self.x[k] <= z <= self.x[k + 1]:
                return self.y[k] + (z - self.x[k]) * self.slopes[k + 1]
        raise AssertionError

    def L_np(self, z):
        fz = self.f_np(z)
        X, Y = self.xf[None, :], self.yf[None, :]
        Z = z[:, None]
        with np.errstate(divide="ignore", invalid="ignore"):
            S = np.abs(Y - fz[:, None]) / np.abs(X - Z)
        S = np.where(np.abs(X - Z) > 0, S, 0.0)
        L = S.max(axis=1)
        idx = np.searchsorted(self.xf, z, side="right")  # piece index into slopes
        sl = np.abs(np.array([float(s) for s in self.slopes]))
        L = np.maximum(L, sl[idx])
        idxl = np.searchsorted(self.xf, z, side="left")
        return np.maximum(L, sl[idxl])

    def L_mp(self, z):
        z = mp.mpf(z)
        fz = self.f_mp(z)
        best = mp.mpf(0)
        for xk, yk in zip(self.x, self.y):
            if xk != z:
                best = max(best, abs(yk - fz) / abs(xk - z))
        # one-sided slopes at z
        n = len(self.x)
        for k in range(n + 1):
            lo = self.x[k - 1] if k > 0 else -mp.inf
            hi = self.x[k] if k < n else mp.inf
            if lo <= z <= hi:
                best = max(best, abs(self.slopes[k]))
        return best


def smooth_sens_1d(L_np, L_mp, x, gamma, K, extra_pts=(), n_grid: int = 6001, n_refine: int = 4):
    """B*(x) = sup_z L(z) e^{-gamma|x-z|} by a grid over the only relevant window
    |z - x| <= ln(K / L(x)) / gamma (beyond it the product is < L(x) <= B*(x)), then
    golden-section refinement of the best local maxima in mpmath.  Returns (B, z*)."""
    x, gamma = mp.mpf(x), mp.mpf(gamma)
    Lx = L_mp(x)
    if Lx <= 0:
        R = mp.mpf(50) / gamma
    else:
        R = max(mp.log(K / Lx) / gamma, mp.mpf(0)) * mp.mpf("1.01") + mp.mpf("1e-9")
    xf, Rf, gf = float(x), float(R), float(gamma)
    # grid denser near x
    t = np.linspace(-1.0, 1.0, n_grid)
    z = xf + Rf * np.sign(t) * t * t
    z = np.unique(np.concatenate([z, np.array([float(p) for p in extra_pts if abs(float(p) - xf) <= Rf])]))
    v = L_np(z) * np.exp(-gf * np.abs(xf - z))
    F = lambda zz: L_mp(zz) * mp.exp(-gamma * abs(x - zz))
    best, arg = Lx, x
    for p in extra_pts:
        if abs(mp.mpf(p) - x) <= R:
            fv = F(p)
            if fv > best:
                best, arg = fv, mp.mpf(p)
    for i in local_maxima(v, n_refine):
        lo, hi = z[max(i - 1, 0)], z[min(i + 1, len(z) - 1)]
        zz, fv = golden_max(F, lo, hi, 60)
        if fv > best:
            best, arg = fv, zz
    return best, arg


def smooth_sens_smooth(f_np, df_np, f_mp, x, gamma, K, w_lo, w_hi, n_z: int = 1201,
                       n_w: int = 2401, n_refine: int = 3):
    """Brute-force B*(x) = sup_z L(z) e^{-gamma|x-z|}, L(z) = sup_w |f(w)-f(z)|/|w-z|, for a
    smooth bounded f on R.  Grid over (z, w) in float to locate, then nested golden-section
    refinement (outer z, inner w) in mpmath; the tangent value |f'(z)| (w -> z) is included
    via mp.diff.  The value returned is the objective at a concrete (z*, w*), so it is a
    lower bound of the true B*(x).  Returns (B, z*, w*) with w* = None for the tangent."""
    x, g = mp.mpf(x), mp.mpf(gamma)
    wg = np.linspace(w_lo, w_hi, n_w)

    def L_grid(z):
        Z, W = z[:, None], wg[None, :]
        D = np.abs(W - Z)
        with np.errstate(divide="ignore", invalid="ignore"):
            S = np.abs(f_np(W) - f_np(Z)) / np.where(D > 1e-9, D, np.inf)
        j = S.argmax(axis=1)
        return np.maximum(S[np.arange(len(z)), j], np.abs(df_np(z))), j

    def L_mp(z):
        z = mp.mpf(z)
        fz = f_mp(z)
        best, arg = abs(mp.diff(f_mp, z)), None
        _, j = L_grid(np.array([float(z)]))
        j = int(j[0])
        sec = lambda w: abs(f_mp(w) - fz) / abs(w - z) if w != z else mp.mpf(0)
        w, v = golden_max(sec, wg[max(j - 1, 0)], wg[min(j + 1, n_w - 1)], 50)
        if v > best:
            best, arg = v, w
        return best, arg

    Lx, _ = L_mp(x)
    R = float(max(mp.log(K / Lx) / g, 0)) * 1.01 + 1e-9 if Lx > 0 else 50.0 / float(g)
    t = np.linspace(-1.0, 1.0, n_z)
    z = float(x) + R * np.sign(t) * t * t
    L = np.concatenate([L_grid(z[i:i + 200])[0] for i in range(0, n_z, 200)])
    v = L * np.exp(-float(g) * np.abs(float(x) - z))
    best, bz, bw = Lx, x, L_mp(x)[1]
    for i in local_maxima(v, n_refine):
        F = lambda zz: L_mp(zz)[0] * mp.exp(-g * abs(x - zz))
        zz, val = golden_max(F, z[max(i - 1, 0)], z[min(i + 1, n_z - 1)], 45)
        if val > best:
            best, bz, bw = val, zz, L_mp(zz)[1]
    return best, bz, bw


def smooth_sens_2d(f_np, f_mp, x, gamma, K, scale, n_ang: int = 36, n_zr: int = 20, n_wr: int = 30,
                   n_nm: int = 4, f_scalar=None):
    """Brute-force lower bound of B*(x) for f: R^2 -> R by search over (z, w) in R^4:
    polar grids (z around x within the window ln(K/L(x))/gamma, w around each z), then
    Nelder-Mead from the best pairs, and the objective re-evaluated in mpmath at the final
    concrete (z, w).  Returns (B, z, w)."""
    from scipy.optimize import minimize
    x = np.asarray(x, dtype=float)
    g = float(gamma)
    ang = np.linspace(0, 2 * np.pi, n_ang, endpoint=False)
    U = np.stack([np.cos(ang), np.sin(ang)], axis=1)

    def L_of(zs, rmax):
        rw = np.geomspace(1e-4 * scale, rmax, n_wr)
        W = zs[:, None, None, :] + rw[None, :, None, None] * U[None, None, :, :]
        fz = f_np(zs)
        fw = f_np(W.reshape(-1, 2)).reshape(W.shape[:3])
        S = np.abs(fw - fz[:, None, None]) / rw[None, :, None]
        flat = S.reshape(len(zs), -1)
        j = flat.argmax(axis=1)
        return flat[np.arange(len(zs)), j], W.reshape(len(zs), -1, 2)[np.arange(len(zs)), j]

    Lx, _ = L_of(x[None, :], 60 * scale)
    R = np.log(K / Lx[0]) / g * 1.01 if Lx[0] > 0 else 50 / g
    R = min(R, 400 * scale)
    rz = np.concatenate([[0.0], R * np.linspace(0, 1, n_zr)[1:] ** 2])
    Z = (x[None, None, :] + rz[:, None, None] * U[None, :, :]).reshape(-1, 2)
    Ls, Ws = [], []
    for i in range(0, len(Z), 60):
        a, b = L_of(Z[i:i + 60], R + 60 * scale)
        Ls.append(a)
        Ws.append(b)
    L, Wb = np.concatenate(Ls), np.concatenate(Ws)
    J = L * np.exp(-g * np.linalg.norm(Z - x, axis=1))
    order = np.argsort(-J)[:n_nm]

    if f_scalar is None:
        f_scalar = lambda a, b: float(f_np(np.array([[a, b]]))[0])
    x0, x1 = float(x[0]), float(x[1])

    def negJ(v):
        z0, z1, w0, w1 = v
        d = math.hypot(w0 - z0, w1 - z1)
        if d < 1e-12:
            return 0.0
        return -abs(f_scalar(w0, w1) - f_scalar(z0, z1)) / d * math.exp(-g * math.hypot(z0 - x0, z1 - x1))

    best, arg = -1.0, None
    opts = dict(xatol=1e-13 * scale, fatol=1e-17, maxiter=1500, maxfev=1500)
    for i in order:
        v0 = np.concatenate([Z[i], Wb[i]])
        res = minimize(negJ, v0, method="Nelder-Mead", options=opts)
        for v in (res.x, v0):
            if -negJ(v) > best:
                best, arg = -negJ(v), v
    for _ in range(3):  # restarts from the incumbent (Nelder-Mead stalls at kinks otherwise)
        res = minimize(negJ, arg, method="Nelder-Mead", options=dict(opts, maxiter=3000, maxfev=3000))
        if -res.fun > best:
            best, arg = -res.fun, res.x
    zz, ww = [mp.mpf(float(c)) for c in arg[:2]], [mp.mpf(float(c)) for c in arg[2:]]
    xm = [mp.mpf(float(c)) for c in x]
    d = mp.sqrt((ww[0] - zz[0]) ** 2 + (ww[1] - zz[1]) ** 2)
    val = abs(f_mp(ww) - f_mp(zz)) / d * mp.exp(-mp.mpf(gamma) * mp.sqrt((zz[0] - xm[0]) ** 2 + (zz[1] - xm[1]) ** 2))
    return val, zz, ww
