"""float64 helpers that hold over the whole supported range of values (1e-300 .. 1e300).

``np.linalg.norm`` squares its entries: a distance of 1e-200 underflows to 0 and one of 1e200
overflows to inf.  ``row_norm`` scales each row by its largest entry first, as ``math.hypot`` does.
"""

from __future__ import annotations

import numpy as np


def row_norm(V) -> np.ndarray:
    """Euclidean norm of each row of V (shape (n, d), or (d,) for one vector -> shape (1,))."""
    V = np.atleast_2d(np.asarray(V, dtype=float))
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
