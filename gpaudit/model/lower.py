"""Translations of one symbolic expression into the numeric backends (numpy, mpmath).

The expressions come from the safe parser or from the built-in kinds, never from user text,
so sympy's code printer is used as the translator.
"""

from __future__ import annotations

import mpmath
import numpy as np
import sympy as sp


def to_numpy(expr, symbols):
    """f(X) for X of shape (n, d) -> array (n,), float64, errors silenced (screening only)."""
    fn = sp.lambdify(symbols, expr, modules=["numpy"])
    const = not (expr.free_symbols & set(symbols))

    def f(X):
        X = np.asarray(X, dtype=float)
        with np.errstate(all="ignore"):
            out = fn(*[X[:, i] for i in range(X.shape[1])])
        out = np.asarray(out, dtype=float)
        if const or out.shape != (X.shape[0],):
            out = np.broadcast_to(out, (X.shape[0],)).copy()
        return out

    return f


def to_math(expr, symbols):
    """f(x) for one point given as a sequence of floats -> float (NaN on a domain error)."""
    fn = sp.lambdify(symbols, expr, modules=["math"])

    def f(x):
        try:
            return float(fn(*[float(v) for v in x]))
        except (ValueError, ZeroDivisionError, OverflowError):
            return float("nan")

    return f


def to_mpmath(expr, symbols):
    """f(x) for a sequence of mpf -> mpf at the current working precision."""
    fn = sp.lambdify(symbols, expr, modules=["mpmath"])

    def f(x):
        return mpmath.mpf(fn(*[mpmath.mpf(v) for v in x]))

    return f


def grad_norm_expr(expr, symbols):
    """The Euclidean norm of the gradient, piece by piece (sympy differentiates Piecewise)."""
    grads = [sp.diff(expr, s) for s in symbols]
    if len(grads) == 1:
        return sp.Abs(grads[0])
    return sp.sqrt(sum(g**2 for g in grads))
