"""The metric on the input space: dist(x, x') = ||x - x'|| for a (weighted) l1, l2 or linf norm.

    l1:    ||v|| = sum_i w_i |v_i|           dual  ||g||_* = max_i |g_i| / w_i
    l2:    ||v|| = sqrt(sum_i (w_i v_i)^2)   dual  ||g||_* = sqrt(sum_i (g_i / w_i)^2)
    linf:  ||v|| = max_i w_i |v_i|           dual  ||g||_* = sum_i |g_i| / w_i

(unit weights unless given).  Along a segment x(t), |d/dt f(x(t))| = |grad f . x'(t)| <=
||grad f||_* ||x'(t)||, and the bound is attained by the direction `steepest` returns: so a
local slope bound in the dual norm is exactly what the certificate's argument along segments
needs in that metric (docs/certificate.md).  Everything that measures a distance or a gradient
goes through one Metric; the unweighted Euclidean metric keeps gpaudit's original code paths.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import mpmath
import numpy as np
import sympy as sp

from ..kernel.numbers import exact, le
from ..spec.types import MetricSpec, Norm
from .fp import row_norm

DUAL = {Norm.L1: Norm.LINF, Norm.L2: Norm.L2, Norm.LINF: Norm.L1}


def _mp(v) -> mpmath.mpf:
    return mpmath.mpf(sp.N(v, mpmath.mp.dps + 10)) if not v.is_Rational else mpmath.mpf(v.p) / v.q


def _norm_np(kind: str, V) -> np.ndarray:
    """The unweighted l1 / l2 / linf norm of each row of V >= 0 (rows scaled by their largest
    entry where a sum could over- or underflow)."""
    with np.errstate(over="ignore", invalid="ignore"):
        if kind == Norm.L2:
            return row_norm(V)
        m = V.max(axis=1)
        if kind == Norm.LINF:
            return m
        safe = np.where(m > 0, m, 1.0)
        return np.where(m > 0, m * (V / safe[:, None]).sum(axis=1), 0.0)


def _norm_mp(kind: str, terms) -> mpmath.mpf:
    """The l1 / l2 / linf norm of a vector of non-negative mpf terms, at the working precision."""
    if kind == Norm.L1:
        return mpmath.fsum(terms)
    if kind == Norm.LINF:
        return max(terms)
    return mpmath.sqrt(mpmath.fsum(t * t for t in terms))


def _short(w) -> str:
    """A weight for display: exact when short (3/2, 1/10), else six significant digits (1e-300)."""
    text = str(w)
    return text if len(text) <= 12 else f"{float(sp.N(w, 17)):.6g}"


def _coord(v):
    """A coordinate as an exact number: a float or mpf by its binary value, a decimal string
    exactly as written."""
    if isinstance(v, str):
        return sp.Rational(v)
    if isinstance(v, np.floating):
        return float(v)
    return v


def _le(a, b) -> sp.Boolean:
    """a <= b as a sympy condition, decided here only where that is plain (the same expression on
    both sides, or two numbers).  sympy's own attempt to decide a symbolic inequality from the
    symbols' assumptions is most of the cost of building a dual-norm obligation, and what it would
    decide is decided by z3 anyway: a condition that always holds is the same claim either way."""
    a, b = sp.sympify(a), sp.sympify(b)
    if a == b:
        return sp.true
    if a.is_number and b.is_number:
        return a <= b
    return sp.Le(a, b, evaluate=False)


@dataclass(frozen=True)
class Metric:
    kind: Norm = Norm.L2
    weights: tuple = ()     # exact positive sympy numbers, one per coordinate; () for unit weights
    dim: int = 1

    def __post_init__(self):
        object.__setattr__(self, "kind", Norm(self.kind))

    @classmethod
    def of(cls, spec) -> "Metric":
        m: MetricSpec = getattr(spec, "metric", None) or MetricSpec()
        return cls(m.kind, tuple(m.weights), spec.dim)

    # -- what it is -----------------------------------------------------------------------------
    @property
    def euclidean(self) -> bool:
        """The plain Euclidean metric (gpaudit's default, and every unweighted metric in one
        dimension, where all three are |x - x'|): the original code paths."""
        return not self.weights and (self.kind == Norm.L2 or self.dim == 1)

    @property
    def label(self) -> str:
        if not self.weights:
            return self.kind.value
        return f"{self.kind} with weights ({', '.join(_short(w) for w in self.weights)})"

    @property
    def norm_text(self) -> str:
        """How dist(x, x') is computed, in words for reports."""
        w = "w_i " if self.weights else ""
        return {"l1": f"sum_i {w}|x_i - x'_i|", "l2": f"sqrt(sum_i ({w}(x_i - x'_i))^2)",
                "linf": f"max_i {w}|x_i - x'_i|"}[self.kind]

    @cached_property
    def w_exact(self) -> tuple:
        return tuple(self.weights) if self.weights else (sp.Integer(1),) * self.dim

    @cached_property
    def w_np(self) -> np.ndarray:
        return np.array([float(w) for w in self.w_exact], dtype=float)

    # -- distances ------------------------------------------------------------------------------
    def dist_np(self, D) -> np.ndarray:
        """||row|| for each row of D (shape (n, d)), without under- or overflow where it matters."""
        D = np.atleast_2d(np.asarray(D, dtype=float))
        if self.euclidean:
            return row_norm(D)
        with np.errstate(over="ignore", invalid="ignore"):
            return _norm_np(self.kind, np.abs(D) * self.w_np)

    def dist_mp(self, x, xp) -> mpmath.mpf:
        """dist(x, x') in the working precision (weights converted exactly or to dps + 10)."""
        return _norm_mp(self.kind, [abs(mpmath.mpf(u) - mpmath.mpf(v)) * _mp(w)
                                    for u, v, w in zip(x, xp, self.w_exact)])

    def dist_exact(self, x, xp) -> sp.Expr:
        """dist(x, x') as an exact sympy number, from the exact binary (or rational) coordinates."""
        return self.dist_sym(tuple(exact(_coord(u)) for u in x), tuple(exact(_coord(v)) for v in xp))

    def within(self, x, xp, Lambda) -> bool:
        """dist(x, x') <= Lambda, decided exactly (False where it is not proved: a pair the claim
        may not cover is never a witness)."""
        if Lambda == sp.oo:
            return True
        return le(self.dist_exact(x, xp), Lambda) is True

    def dist_sym(self, syms, psyms) -> sp.Expr:
        """dist(x, x') as an exact sympy expression (for the two-point obligations)."""
        terms = [w * sp.Abs(s - p) for s, p, w in zip(syms, psyms, self.w_exact)]
        if len(terms) == 1:
            return terms[0]
        if self.kind == Norm.L1:
            return sp.Add(*terms)
        if self.kind == Norm.LINF:
            return sp.Max(*terms)
        return sp.sqrt(sp.Add(*[(w * (s - p))**2 for s, p, w in zip(syms, psyms, self.w_exact)]))

    # -- gradients (the dual norm) --------------------------------------------------------------
    def dual_np(self, G) -> np.ndarray:
        """||g||_* for each row g of G (shape (n, d))."""
        G = np.atleast_2d(np.asarray(G, dtype=float))
        with np.errstate(over="ignore", invalid="ignore"):
            return _norm_np(DUAL[self.kind], np.abs(G) / self.w_np)

    def dual_mp(self, g) -> mpmath.mpf:
        return _norm_mp(DUAL[self.kind], [abs(mpmath.mpf(v)) / _mp(w) for v, w in zip(g, self.w_exact)])

    def dual_sq_expr(self, grads) -> sp.Expr:
        """||g||_*^2 as a sympy expression (Max and Abs where the dual norm needs them)."""
        sq = [(g / w)**2 for g, w in zip(grads, self.w_exact)]
        dual = DUAL[self.kind] if len(grads) > 1 else Norm.L2
        if dual == Norm.L2:
            return sp.Add(*sq)
        if dual == Norm.LINF:
            return sp.Max(*sq, evaluate=False)   # unevaluated: sympy's search for dominated arguments is slow
        return sp.Add(*[sp.Abs(g) / w for g, w in zip(grads, self.w_exact)])**2

    def dual_le_sym(self, grads, bound, squares=None) -> sp.Boolean:
        """||g||_* <= bound, for a bound >= 0, as a sympy condition without square roots:
        l2: sum (g_i/w_i)^2 <= bound^2;  linf (metric l1): every (g_i/w_i)^2 <= bound^2;
        l1 (metric linf): sum |g_i|/w_i <= bound.  `squares`, where given, are expressions equal
        to the g_i^2 (simplified by the caller), used in their place."""
        dual = DUAL[self.kind] if len(grads) > 1 else Norm.L2
        sq = squares if squares is not None else [g**2 for g in grads]
        if dual == Norm.L2:
            return _le(sp.Add(*[s / w**2 for s, w in zip(sq, self.w_exact)]), bound**2)
        if dual == Norm.LINF:
            return sp.And(*[_le(s / w**2, bound**2) for s, w in zip(sq, self.w_exact)])
        return _le(sp.Add(*[sp.Abs(g) / w for g, w in zip(grads, self.w_exact)]), bound)

    def dual_scale(self) -> sp.Expr:
        """An exact C with ||g||_* <= C ||g||_2 for every g (Cauchy-Schwarz / norm equivalence):
        turns a Euclidean Lipschitz constant into one for this metric."""
        inv = [1 / w for w in self.w_exact]
        if self.kind == Norm.LINF:
            return sp.sqrt(sp.Add(*[v**2 for v in inv]))
        return sp.Max(*inv) if len(inv) > 1 else inv[0]

    # -- directions for the audit ---------------------------------------------------------------
    def steepest(self, g) -> np.ndarray:
        """A unit vector v (||v|| = 1) maximising g . v, i.e. attaining ||g||_* (float64)."""
        g = np.asarray(g, dtype=float)
        w = self.w_np
        if self.kind == Norm.L2:
            v = g / w**2
            n = self.dist_np(v.reshape(1, -1))[0]
            return v / n if n > 0 and np.isfinite(n) else np.eye(self.dim)[0] / w[0]
        if self.kind == Norm.L1:
            k = int(np.argmax(np.abs(g) / w))
            v = np.zeros(self.dim)
            v[k] = (1.0 if g[k] >= 0 else -1.0) / w[k]
            return v
        return np.where(g >= 0, 1.0, -1.0) / w

    def directions(self, rng: np.random.Generator, n: int) -> np.ndarray:
        """n unit directions (rows, ||v|| = 1): the norm's extreme points first (axes for l1,
        sign vectors for linf, axes and diagonals for l2), then random ones."""
        d = self.dim
        ext = []
        eye = np.eye(d)
        if self.kind in (Norm.L1, Norm.L2):
            ext += [s * eye[k] for k in range(d) for s in (1.0, -1.0)]
        if self.kind in (Norm.LINF, Norm.L2) and d > 1:
            signs = np.array(np.meshgrid(*[[1.0, -1.0]] * d)).reshape(d, -1).T[: 2 ** min(d, 6)]
            ext += list(signs)
        E = np.array(ext, dtype=float).reshape(-1, d)
        R = rng.standard_normal((max(n - len(E), 0), d))
        V = np.concatenate([E, R])
        return V / self.dist_np(V)[:, None]

