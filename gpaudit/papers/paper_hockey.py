"""Laplace: the exact hockey-stick divergence sup_S P(S) - e^E Q(S), and its maximum over a grid of
scale ratios and shifts."""
from __future__ import annotations

import mpmath as mp


def laplace_grid_sup(E, rho_list, shift_of_rho, n_shift: int = 5, scale: int = 1):
    """max of laplace_hs(., ., ., ., E) / scale over x = Lap(0, 1) vs x' = Lap(shift, rho), both
    orders, rho in rho_list and shift = shift_of_rho(rho) * j/(n_shift-1).  Returns (max, arg)."""
    best, arg = mp.mpf(-1), None
    for rho in rho_list:
        m = shift_of_rho(rho)
        for j in range(n_shift):
            D = m * j / (n_shift - 1)
            for P1, Q1 in (((0, 1), (D, rho)), ((D, rho), (0, 1))):
                v = laplace_hs(P1[0], P1[1], Q1[0], Q1[1], E) / scale
                if v > best:
                    best, arg = v, dict(rho=rho, shift=D)
    return best, arg


def _lap_cdf(y, a, b):
    if y == mp.inf:
        return mp.mpf(1)
    if y == -mp.inf:
        return mp.mpf(0)
    z = (y - a) / b
    return mp.exp(z) / 2 if z < 0 else 1 - mp.exp(-z) / 2


def laplace_hs(a1, b1, a2, b2, E):
    """Exact sup_S P(S) - e^E Q(S) for P = Lap(a1, b1), Q = Lap(a2, b2) (mpmath).

    On each interval between the locations, ln p - ln q - E is affine in y, so the
    optimal set is an explicit union of intervals whose masses are Laplace cdf values.
    """
    a1, b1, a2, b2, E = (mp.mpf(v) for v in (a1, b1, a2, b2, E))
    edges = [-mp.inf] + sorted({a1, a2}) + [mp.inf]
    tot = mp.mpf(0)
    eE = mp.exp(E)
    for lo, hi in zip(edges[:-1], edges[1:]):
        if lo == -mp.inf:
            mid = hi - 1
        elif hi == mp.inf:
            mid = lo + 1
        else:
            mid = (lo + hi) / 2
        s1 = 1 if mid > a1 else -1
        s2 = 1 if mid > a2 else -1
        B = -s1 / b1 + s2 / b2
        A = mp.log(b2 / b1) + s1 * a1 / b1 - s2 * a2 / b2 - E
        if B == 0:
            if A <= 0:
                continue
            I0, I1 = lo, hi
        else:
            r = -A / B
            I0, I1 = (max(lo, r), hi) if B > 0 else (lo, min(hi, r))
            if not I0 < I1:
                continue
        tot += (_lap_cdf(I1, a1, b1) - _lap_cdf(I0, a1, b1)) - eE * (_lap_cdf(I1, a2, b2) - _lap_cdf(I0, a2, b2))
    return max(tot, mp.mpf(0))
