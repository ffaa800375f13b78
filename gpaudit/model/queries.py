"""Queries f : R^d -> R.  Built-in kinds are symbolic (sympy Piecewise); `python` is a callable.

Each query knows its interesting points (kinks, region boundaries, the KDE centre) so the audit
can search where violations live, and its global Lipschitz constant when that is known exactly.
"""

from __future__ import annotations

import importlib
import sys
from dataclasses import dataclass, field
from typing import Callable

import mpmath
import numpy as np
import sympy as sp

from ..spec.types import QuerySpec, input_symbols
from .lower import to_math, to_mpmath, to_numpy


@dataclass
class Query:
    kind: str
    dim: int
    symbols: tuple
    expr: sp.Expr | None            # None for python queries
    f_np: Callable                  # (n, d) -> (n,)
    f_mp: Callable                  # sequence of mpf -> mpf
    f_math: Callable = None         # one point (sequence of floats) -> float, for local search
    landmarks: list = field(default_factory=list)   # points (tuples of float) worth searching near
    scale: float = 1.0              # a length scale of the query's structure (tau, h, ...)
    lipschitz: sp.Expr | None = None  # the global Lipschitz constant K_f when known exactly
    radial_centre: tuple | None = None  # for f(x) = f0(|x - t|)
    note: str = ""
    fields: dict = field(default_factory=dict)  # the exact parameters of a built-in kind


def soft_threshold(T, tau):
    x = input_symbols(1)[0]
    expr = sp.Piecewise((0, x - T < -tau / 2), ((x - T) / tau + sp.Rational(1, 2), x - T <= tau / 2),
                        (1, True))
    marks = [(float(T - tau / 2),), (float(T),), (float(T + tau / 2),)]
    return expr, marks, float(tau), 1 / tau


def bounded_range(l, r, tau):
    x = input_symbols(1)[0]
    m, w = (l + r) / 2, (r - l) / 2 + tau / 2
    expr = sp.Piecewise((0, x < l - tau / 2), ((x - l + tau / 2) / w, x <= m),
                        ((r + tau / 2 - x) / w, x <= r + tau / 2), (0, True))
    marks = [(float(l - tau / 2),), (float(m),), (float(r + tau / 2),)]
    return expr, marks, float(tau), 1 / w


def two_way_geometry(T1, T2, tau):
    """R1, R2 and the corner c0 of Section 4.2."""
    R1 = tau / sp.sqrt(2)
    R2 = R1 + tau
    c0 = (T1 + tau / 2 + R1, T2 + tau / 2 + R1)
    return R1, R2, c0


def two_way_regions(T1, T2, tau):
    """The four regions around the corner c0 and D(x), the distance to the quadrant {x >= c0}.

    f_tau of Section 4.2 equals clip((R2 - D(x)) / tau, 0, 1): the 1-region S_1 is the R1-dilation
    of that quadrant and the transition band is R1 <= D <= R2 (checked against the paper's region
    list in the tests).  Returns [(region condition, D on it)], the quadrant itself first (D = 0).
    """
    x1, x2 = input_symbols(2)
    _, _, (a, b) = two_way_geometry(T1, T2, tau)
    return [((x1 >= a) & (x2 >= b), sp.Integer(0)), ((x1 < a) & (x2 >= b), a - x1),
            ((x1 >= a) & (x2 < b), b - x2), ((x1 < a) & (x2 < b), sp.sqrt((a - x1)**2 + (b - x2)**2))]


def two_way_threshold(T1, T2, tau):
    R1, R2, c0 = two_way_geometry(T1, T2, tau)
    (quad, _), *sides = two_way_regions(T1, T2, tau)
    pieces = [(1, quad)]
    for cond, D in sides:  # a flat Piecewise: cheap to lower and to split into proof regions
        pieces += [(1, cond & (D <= R1)), ((R2 - D) / tau, cond & (D <= R2)), (0, cond)]
    expr = sp.Piecewise(*pieces)
    a, b = float(c0[0]), float(c0[1])
    r1, r2 = float(R1), float(R2)
    marks = [(a, b), (a - r1, b + 1), (a + 1, b - r1), (a - r2, b + 1), (a + 1, b - r2),
             (a - r1 / np.sqrt(2), b - r1 / np.sqrt(2)), (a - r2 / np.sqrt(2), b - r2 / np.sqrt(2)),
             (float(T1), float(T2))]
    return expr, marks, float(tau), 1 / tau


def gaussian_kde(t, h):
    xs = input_symbols(len(t))
    expr = sp.exp(-sum((xi - ti)**2 for xi, ti in zip(xs, t)) / (2 * h**2))
    tf = tuple(float(v) for v in t)
    marks = [tf]
    for k in range(len(t)):
        for s in (1, -1):
            p = list(tf)
            p[k] += s * float(h)
            marks.append(tuple(p))
    return expr, marks, float(h), sp.exp(-sp.Rational(1, 2)) / h


def load_callable(ref: str, base: str | None = None):
    mod_name, func_name = ref.split(":")
    added = base is not None and base not in sys.path
    if added:
        sys.path.insert(0, base)
    try:
        return getattr(importlib.import_module(mod_name), func_name)
    finally:
        if added:
            sys.path.remove(base)


def python_numpy(fn, dim):
    def f(X):
        X = np.asarray(X, dtype=float)
        return np.array([float(fn(list(row))) for row in X], dtype=float)
    return f


def python_mpmath(fn):
    def f(x):
        return mpmath.mpf(float(fn([float(v) for v in x])))
    return f


def build_query(qs: QuerySpec, dim: int, base: str | None = None) -> Query:
    syms = input_symbols(dim)
    k, F = qs.kind, qs.fields
    if k == "python":
        fn = load_callable(F["callable"], base)
        return Query(k, dim, syms, None, python_numpy(fn, dim), python_mpmath(fn),
                     lambda x: float(fn([float(v) for v in x])), landmarks=[tuple([0.0] * dim)], scale=1.0,
                     note="user callable, evaluated in float64")
    radial = None
    if k == "soft_threshold":
        expr, marks, scale, K = soft_threshold(F["T"], F["tau"])
    elif k == "bounded_range":
        expr, marks, scale, K = bounded_range(F["l"], F["r"], F["tau"])
    elif k == "two_way_threshold":
        expr, marks, scale, K = two_way_threshold(F["T1"], F["T2"], F["tau"])
    elif k == "gaussian_kde":
        expr, marks, scale, K = gaussian_kde(F["t"], F["h"])
        radial = tuple(float(v) for v in F["t"])
    elif k == "piecewise":
        expr = sp.Piecewise(*[(p.value, p.where) for p in qs.pieces])
        marks, scale, K = piecewise_landmarks(qs.pieces, syms), 1.0, None
    else:  # pragma: no cover - the loader rejects unknown kinds
        raise ValueError(k)
    return Query(k, dim, syms, expr, to_numpy(expr, syms), to_mpmath(expr, syms), to_math(expr, syms),
                 marks, scale, K, radial, fields=dict(F))


def piecewise_landmarks(pieces, syms):
    """Points on the boundaries of user pieces: where a condition's two sides are equal."""
    marks = []
    for p in pieces:
        for rel in p.where.atoms(sp.core.relational.Relational):
            diff = rel.lhs - rel.rhs
            if len(syms) == 1:
                try:
                    for root in sp.solve(sp.Eq(diff, 0), syms[0]):
                        if root.is_real:
                            marks.append((float(root),))
                except (NotImplementedError, TypeError):
                    pass
            else:
                free = [s for s in syms if s in diff.free_symbols]
                if free:
                    try:
                        roots = sp.solve(sp.Eq(diff.subs({s: 0 for s in syms if s != free[0]}), 0), free[0])
                    except (NotImplementedError, TypeError):
                        roots = []
                    for root in roots:
                        if root.is_real:
                            pt = [0.0] * len(syms)
                            pt[syms.index(free[0])] = float(root)
                            marks.append(tuple(pt))
    return marks or [tuple([0.0] * len(syms))]
