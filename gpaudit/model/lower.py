"""Translations of one symbolic expression into the numeric backends (numpy, mpmath).

The expressions come from the safe parser or from the built-in kinds, never from user text,
so sympy's code printer is used as the translator.
"""

from __future__ import annotations

import mpmath
import numpy as np
import sympy as sp
from flint import arb, fmpq


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


def to_arb(e, env=None):
    """A rigorous arb ball containing e, its symbols ranging over the balls of env (Symbol -> arb).

    Rationals, pi, e, +, *, powers, exp, log, Abs, Max and Min; anything else raises ValueError.
    """
    env = env or {}
    if isinstance(e, sp.Symbol):
        if e not in env:
            raise ValueError(f"arb: no value for {e}")
        return env[e]
    if e.is_Rational:
        return arb(fmpq(int(e.p), int(e.q)))
    if e is sp.pi:
        return arb.pi()
    if e is sp.E:
        return arb.const_e()
    if isinstance(e, sp.Add):
        out = arb(0)
        for a in e.args:
            out += to_arb(a, env)
        return out
    if isinstance(e, sp.Mul):
        out = arb(1)
        for a in e.args:
            out *= to_arb(a, env)
        return out
    if isinstance(e, sp.Pow):
        b = to_arb(e.base, env)
        if e.exp.is_Integer:
            n = int(e.exp)
            return b**n if n >= 0 else 1 / b**(-n)
        if e.exp == sp.Rational(1, 2):
            return b.sqrt()
        return (to_arb(e.exp, env) * b.log()).exp()
    if isinstance(e, sp.exp):
        return to_arb(e.args[0], env).exp()
    if isinstance(e, sp.log):
        return to_arb(e.args[0], env).log()
    if isinstance(e, sp.Abs):
        return abs(to_arb(e.args[0], env))
    if isinstance(e, (sp.Max, sp.Min)):
        vals = [to_arb(a, env) for a in e.args]
        out = vals[0]
        for v in vals[1:]:
            out = out.max(v) if isinstance(e, sp.Max) else out.min(v)
        return out
    raise ValueError(f"arb: cannot enclose {type(e).__name__}")
