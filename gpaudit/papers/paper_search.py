"""Maximisation and root-finding helpers of the checkers: golden-section search in mpmath, the
local maxima of a sampled function (to choose what to refine), and a bracketing root scan."""
from __future__ import annotations

import mpmath as mp
import numpy as np


def golden_max(f, a, b, iters: int = 80):
    """Golden-section search for a maximum of f on [a, b] (mpmath); returns (x, f(x)).

    The bracket endpoints are also compared, so a monotone f returns its best endpoint.
    """
    a, b = mp.mpf(a), mp.mpf(b)
    g = (mp.sqrt(5) - 1) / 2
    c, d = b - g * (b - a), a + g * (b - a)
    fc, fd = f(c), f(d)
    for _ in range(iters):
        if fc >= fd:
            b, d, fd = d, c, fc
            c = b - g * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + g * (b - a)
            fd = f(d)
    best = max(((c, fc), (d, fd), (a, f(a)), (b, f(b))), key=lambda t: t[1])
    return best


def local_maxima(v: np.ndarray, k: int) -> list[int]:
    """Indices of the k largest local maxima (ties and endpoints included) of a 1-D array."""
    n = len(v)
    good = np.isfinite(v)
    left = np.concatenate(([True], v[1:] >= v[:-1]))
    right = np.concatenate((v[:-1] >= v[1:], [True]))
    cand = np.nonzero(left & right & good)[0]
    if len(cand) == 0:
        return [int(np.nanargmax(v))] if np.any(good) else []
    cand = cand[np.argsort(-v[cand])][:k]
    return [int(i) for i in cand if 0 <= i < n]


def scan_roots(fn, lo, hi, n=600):
    lo, hi = mp.mpf(lo), mp.mpf(hi)
    xs = [lo + (hi - lo) * i / n for i in range(n + 1)]
    out = []
    vals = [fn(v) for v in xs]
    for u, v, fu, fv in zip(xs[:-1], xs[1:], vals[:-1], vals[1:]):
        if fu == 0:
            out.append(u)
        elif fu * fv < 0:
            out.append(mp.findroot(fn, (u, v), solver="bisect"))
    return out
