"""Smooth upper bounds B(x) and growth functions.

Closed forms of the paper (Lemma 4.1, Lemma 4.3, Appendix C.3) are written in terms of rho(x), the
distance from x to the query's transition band; with linear growth the same endpoint argument gives
max(1/(rho + tau), 1/(tau (1 + gamma rho))).  They stand in for Definition 9 only with Lambda = inf;
other cases use the numerical smooth sensitivity.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Callable

import mpmath
import numpy as np
import sympy as sp

from ..spec.types import BoundKind, BoundSpec, Growth, input_symbols
from .lower import to_math, to_mpmath, to_numpy
from .numeric_ss import MAX_GRID_POINTS, GRID_POINTS, GridSmoothSensitivity, RadialSmoothSensitivity, points_per_axis
from ..errors import FieldError
from .queries import Query, load_callable, python_numpy, two_way_geometry, two_way_regions, user_fn, user_note
from .trace import traced_pieces


@dataclass(frozen=True)
class Bound:
    kind: str
    growth: Growth
    gamma: sp.Expr
    Lambda: sp.Expr
    expr: sp.Expr | None
    B_np: Callable
    B_mp: Callable
    source: str
    B_math: Callable = None  # one point -> float, for local search
    numeric: bool = False   # True when B is a float64 numerical model
    user: object = None     # kind python: the callable as the audit calls it (model.usercode.UserFn)
    trace: object = None    # python kind: the Traced formula, or the TraceStop (model.trace)

    def __post_init__(self):
        object.__setattr__(self, "growth", Growth(self.growth))
        if self.B_math is None:
            object.__setattr__(self, "B_math", lambda x: float(self.B_np(np.array([[float(v) for v in x]]))[0]))

    def g_np(self, r):
        r = np.asarray(r, float)
        gm = float(self.gamma)
        return np.exp(gm * r) if self.growth == Growth.EXPONENTIAL else 1.0 + gm * r

    def log_g_mp(self, r):
        gm = mpmath.mpf(sp.Rational(self.gamma)) if self.gamma.is_Rational else mpmath.mpf(sp.N(self.gamma, 60))
        return gm * r if self.growth == Growth.EXPONENTIAL else mpmath.log1p(gm * r)


def _decay(growth, gamma, rho, tau):
    """1/tau shrunk by the growth over distance rho."""
    return sp.exp(-gamma * rho) / tau if growth == Growth.EXPONENTIAL else 1 / (tau * (1 + gamma * rho))


def _outside(rho, w, gamma, growth):
    """max(1/(rho + w), decay): the closed forms' bound at distance rho > 0 from the band (w: the
    bound's inverse at the band).  The Max is built unevaluated: sympy's search for an argument
    that dominates the other (from the symbols' assumptions) finds none here and costs a tenth of
    a second each; an unevaluated Max is the same function (and, where the search finds nothing,
    the same expression)."""
    return sp.Max(1 / (rho + w), _decay(growth, gamma, rho, w), evaluate=False)


def threshold_bound(T, tau, gamma, growth):
    x = input_symbols(1)[0]
    rho = sp.Abs(x - T) - tau / 2
    return sp.Piecewise((1 / tau, rho <= 0), (_outside(rho, tau, gamma, growth), True))


def bounded_range_bound(l, r, tau, gamma, growth):
    x = input_symbols(1)[0]
    m, w = (l + r) / 2, (r - l) / 2 + tau / 2
    rho = sp.Abs(x - m) - w
    return sp.Piecewise((1 / w, rho <= 0), (_outside(rho, w, gamma, growth), True))


def two_way_bound(T1, T2, tau, gamma, growth):
    x1, x2 = input_symbols(2)
    R1, R2, (a, b) = two_way_geometry(T1, T2, tau)
    (quad, _), *sides = two_way_regions(T1, T2, tau)

    def B(rho):
        return _outside(rho, tau, gamma, growth)

    # rho: the distance from x to the transition band R1 <= D <= R2
    pieces = [(B(R1 + sp.Min(x1 - a, x2 - b)), quad)]
    for cond, D in sides:
        pieces += [(B(R1 - D), cond & (D <= R1)), (1 / tau, cond & (D < R2)), (B(D - R2), cond)]
    return sp.Piecewise(*pieces)


CLOSED_FORMS = {
    "soft_threshold": (lambda F, g, gr: threshold_bound(F["T"], F["tau"], g, gr),
                       "closed form of Liang-Yi Lemma 4.1"),
    "bounded_range": (lambda F, g, gr: bounded_range_bound(F["l"], F["r"], F["tau"], g, gr),
                      "closed form of Liang-Yi Appendix C.3"),
    "two_way_threshold": (lambda F, g, gr: two_way_bound(F["T1"], F["T2"], F["tau"], g, gr),
                          "closed form of Liang-Yi Lemma 4.3"),
}


def _float_mp(fn):
    def f(x):
        return mpmath.mpf(float(fn(np.array([[float(v) for v in x]]))[0]))
    return f


def numeric_bound(query: Query, bs: BoundSpec, effort: str, metric=None):
    gamma, lam = float(bs.gamma), None if bs.Lambda == sp.oo else float(bs.Lambda)
    metric = None if metric is None or metric.euclidean else metric
    if query.radial_centre is not None and metric is None:
        B = RadialSmoothSensitivity(query.radial_centre, query.scale, gamma, bs.growth, lam)
        return B, (f"numerical smooth sensitivity (radial reduction, Lemma 4.5; grid and golden-section "
                   f"refinement, valid for |x - t| <= {B.r_max:g} h)")
    marks = np.atleast_2d(np.array(query.landmarks, float))
    reach = 8 * query.scale + (4 / gamma if gamma > 0 else 10 * query.scale)
    lo, hi = marks.min(axis=0) - reach, marks.max(axis=0) + reach
    d = query.dim
    # at most GRID_POINTS[effort] grid points whatever d (1-D: 2001/4001/8001; 2-D: 41^2..81^2;
    # d >= 3: as many per axis as fit), plus a few points near the landmarks
    budget = GRID_POINTS.get(effort, GRID_POINTS["standard"])
    n = {1: {"quick": 2001, "standard": 4001, "thorough": 8001},
         2: {"quick": 41, "standard": 61, "thorough": 81}}.get(d, {}).get(effort) or points_per_axis(d, budget)
    offs = float(query.scale) * np.array([0.25, 0.5, 1.0, 2.0])
    eye = np.eye(d)
    extra = np.concatenate([marks] + [marks + s * o * eye[k] for k in range(d) for o in offs for s in (1, -1)])
    if metric is not None:
        # no radial reduction in a non-Euclidean metric: a fine local grid about each landmark
        # (+- 3 scales), where the slopes live, besides the coarse grid over the whole box
        per = max(5, int((MAX_GRID_POINTS // 2 // max(len(marks), 1)) ** (1.0 / d)))
        ax = np.linspace(-3.0, 3.0, per) * float(query.scale)
        local = np.stack([m.ravel() for m in np.meshgrid(*[ax] * d, indexing="ij")], axis=1)
        extra = np.concatenate([extra] + [mk + local for mk in marks])
    B = GridSmoothSensitivity(query.f_np, lo, hi, n, gamma, bs.growth, lam,
                              extra=extra if d >= 3 or metric is not None else None, metric=metric)
    more = f" + {B.n_extra} points near landmarks" if B.n_extra else ""
    where = f", {metric.label} metric" if metric is not None else ""
    return B, (f"numerical smooth sensitivity (grid {B.n}^{d}{more} on the box "
               f"{lo.round(3).tolist()}..{hi.round(3).tolist()}{where})")


def build_bound(bs: BoundSpec, query: Query, dim: int, base: str | None = None, effort="standard",
                metric=None) -> Bound:
    syms = input_symbols(dim)
    common = (bs.kind, bs.growth, bs.gamma, bs.Lambda)
    if bs.kind == BoundKind.CONSTANT:
        expr = bs.fields["value"]
        return Bound(*common, expr, to_numpy(expr, syms), to_mpmath(expr, syms), "constant",
                     to_math(expr, syms))
    if bs.kind == BoundKind.PIECEWISE:
        expr = sp.Piecewise(*[(p.value, p.where) for p in bs.pieces])
        return Bound(*common, expr, to_numpy(expr, syms), to_mpmath(expr, syms),
                     "piecewise bound derived by Laud et al.'s rules (bound.kind: derived; untrusted, proved "
                     "like a hand-written bound)" if bs.derived
                     else "user piecewise bound",
                     to_math(expr, syms))
    if bs.kind == BoundKind.PYTHON:
        try:
            fn = load_callable(bs.fields["callable"], base)
        except FieldError as err:
            raise FieldError(err.problem, "bound.callable") from None
        pieces, traced = traced_pieces(fn, dim, bs.fields.get("args"), bool(bs.fields.get("scalar")))
        if pieces is not None:  # the exact formula the code computes: built as for kind piecewise
            b = build_bound(BoundSpec("piecewise", bs.growth, bs.gamma, bs.Lambda, {}, pieces), query, dim)
            return dataclasses.replace(b, kind=bs.kind, source=f"traced from {traced.source}", trace=traced)
        u = user_fn(bs.fields, "B", dim, base, "bound.callable", query.landmarks, query.scale)
        return Bound(*common, None, python_numpy(u), u.call_mp, user_note(u), u.call_float,
                     numeric=not u.exact, user=u, trace=traced)
    # smooth_sensitivity
    if query.kind in CLOSED_FORMS and bs.Lambda == sp.oo and (metric is None or metric.euclidean or dim == 1):
        make, source = CLOSED_FORMS[query.kind]
        if metric is None or metric.euclidean:
            expr = make(query.fields, bs.gamma, bs.growth)
        else:
            # one dimension, dist = w |x - x'|: L_w = L / w, so B*_w(x) = B*(x; gamma w) / w exactly
            w = metric.w_exact[0]
            expr = make(query.fields, bs.gamma * w, bs.growth) / w
            source += f" in the metric {metric.label} (B*(x; gamma w) / w)"
        return Bound(*common, expr, to_numpy(expr, syms), to_mpmath(expr, syms),
                     source + f" ({bs.growth} growth, Lambda = inf)", to_math(expr, syms))
    B, source = numeric_bound(query, bs, effort, metric)
    return Bound(*common, None, B, _float_mp(B), source, numeric=True)


def smooth_sensitivity_closed_form(kind, fields, gamma, growth):
    """The closed-form B* for a built-in query kind (Lambda = inf), or None."""
    if kind not in CLOSED_FORMS:
        return None
    return CLOSED_FORMS[kind][0](fields, gamma, growth)
