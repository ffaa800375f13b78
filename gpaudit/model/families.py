"""Noise families Z (location 0, scale 1) of the mechanism M(x) = f(x) + (B(x)/eta) Z.

Each family carries exact parameters (sympy numbers) and evaluates its log-density ln h and
score psi = h'/h in four backends: numpy (fast screening, stable in the far tails), mpmath
(high-precision reference), python-flint arb (rigorous balls) and arb power series (Taylor
coefficients with rigorous error, used by the certifier in ``gpaudit.certify.family_sup``).

All four densities are even and non-increasing in |u|. Hence psi is odd, psi <= 0 on u > 0,
and on u >= 0 the density is described piece by piece: the formula for |psi| may change only
at the points returned by :meth:`NoiseFamily.is_piece_boundary`.

Checked numerically (tests/test_families.py): every density integrates to 1, including the
generalized-Cauchy constant c_{p,theta} of Liang-Yi Section 2.1 (its normalisation follows
from the substitution w = z^p/(1+z^p), which turns the integral into a Beta function) and
PolyPlace's N of Hladik-Tetek Definition 6 (continuous at 1/alpha, normalised, variance as
stated in Lemma 13 -- the final display of that lemma's proof drops the factor 2 of the
statement; the statement is the correct one).
"""

from __future__ import annotations

import dataclasses
import math
import numbers
from dataclasses import dataclass
from functools import cached_property
from fractions import Fraction
from typing import ClassVar

import mpmath
import numpy as np
import sympy
from flint import arb, arb_series

from .lower import to_arb as lower_to_arb

__all__ = ["NoiseFamily", "Laplace", "GenCauchy", "StudentT", "PolyPlace", "make_family"]


# ---------------------------------------------------------------------------------------------
# Exact parameters and their lowering to each backend


def exact_number(field: str, value) -> sympy.Expr:
    """Turn a parameter value into an exact, finite, real sympy number.

    Floats mean their exact binary value; strings are read as decimals or fractions
    ("0.1" is exactly 1/10, "5/2"), never evaluated as code.
    """
    if isinstance(value, bool):
        raise ValueError(f"{field}: expected a number, got a boolean")
    if isinstance(value, sympy.Basic):
        expr = sympy.Rational(value) if isinstance(value, sympy.Float) else value
        if expr.free_symbols or not (expr.is_real and expr.is_finite):
            raise ValueError(f"{field}: must be a finite real number, got {value}")
        return expr
    if isinstance(value, str):
        try:
            return sympy.Rational(value.strip())
        except (TypeError, ValueError):
            raise ValueError(f"{field}: not a decimal or fraction: {value!r}") from None
    if isinstance(value, (numbers.Integral, Fraction)):
        return sympy.Rational(int(value)) if isinstance(value, numbers.Integral) else sympy.Rational(value)
    if isinstance(value, mpmath.mpf):
        if not mpmath.isfinite(value):
            raise ValueError(f"{field}: must be finite, got {value}")
        return sympy.Rational(int(value.man)) * sympy.Rational(2) ** int(value.exp)
    if isinstance(value, numbers.Real):
        value = float(value)
        if not math.isfinite(value):
            raise ValueError(f"{field}: must be finite, got {value}")
        return sympy.Rational(value)
    raise ValueError(f"{field}: expected a number, got {type(value).__name__}")


def to_arb(expr: sympy.Expr) -> arb:
    """Rigorous arb ball for an exact sympy number (rationals, pi, E, +, *, powers, exp, log)."""
    return lower_to_arb(sympy.sympify(expr))


def to_mpf(expr: sympy.Expr) -> mpmath.mpf:
    """mpmath value of an exact sympy number at the current mpmath precision."""
    if expr.is_Rational:
        return mpmath.mpf(int(expr.p)) / int(expr.q)
    return mpmath.mpf(sympy.N(expr, mpmath.mp.dps + 10))


# ---------------------------------------------------------------------------------------------
# Elementary functions on mpf, arb and arb_series alike


def _num(expr: sympy.Expr, like):
    """The exact parameter ``expr`` in the backend of ``like``."""
    return to_mpf(expr) if isinstance(like, mpmath.mpf) else to_arb(expr)


def _log(x):
    return mpmath.log(x) if isinstance(x, mpmath.mpf) else x.log()


def _exp(x):
    return mpmath.exp(x) if isinstance(x, mpmath.mpf) else x.exp()


def _log1p(x):
    if isinstance(x, mpmath.mpf):
        return mpmath.log1p(x)
    if isinstance(x, arb_series):
        return (1 + x).log()
    return x.log1p()


_TWO = sympy.Integer(2)


def _pow(x, p: sympy.Expr):
    """x**p for x >= 0 and exact p > 0.

    An arb ball is treated as the interval of its non-negative part and powered end point by
    end point (x -> x^p is increasing), which avoids the dependency blow-up of x*x on wide balls.
    """
    if isinstance(x, arb):
        lo, hi = x.lower(), x.upper()
        exp = int(p) if p.is_Integer else to_arb(p)
        low = arb(0) if lo <= 0 else lo**exp
        return low.union(hi**exp)
    if p.is_Integer:
        return x ** int(p)
    if isinstance(x, mpmath.mpf):
        return x ** to_mpf(p)
    return (to_arb(p) * x.log()).exp()


def _abs_range(u: arb) -> tuple[arb, arb]:
    """Exact end points [lo, hi] of {|v| : v in u}."""
    lo, hi = u.lower(), u.upper()
    a, b = abs(lo), abs(hi)
    big = a if a >= b else b
    if lo <= 0 <= hi:
        return arb(0), big
    return (b if a >= b else a), big


# ---------------------------------------------------------------------------------------------
# The base class


@dataclass(frozen=True)
class NoiseFamily:
    """A symmetric unimodal noise family at location 0, scale 1.

    Subclasses implement the density piece by piece on |u| (``_logpdf_piece``,
    ``_abs_score_piece``: generic over mpf / arb / arb_series), their float64 counterparts
    (``_logpdf_abs_np``, ``_abs_score_np``), the survival function on u >= 0, the sampler and
    the certificate tail form ``score_parts_tail``.
    """

    name: ClassVar[str] = ""
    # u psi(u) grows without bound (Laplace: u psi = -|u|): then the smooth term c |1 + u psi|
    # of the pure rate is unbounded for any c > 0 (only what a report says depends on it)
    u_score_unbounded: ClassVar[bool] = False

    # -- shape ---------------------------------------------------------------------------------
    def params(self) -> dict[str, sympy.Expr]:
        raise NotImplementedError

    def is_piece_boundary(self) -> list[sympy.Expr]:
        """Points u >= 0 where the density formula changes (or is not smooth)."""
        return []

    def _breaks(self) -> list[sympy.Expr]:
        """Piece boundaries on u > 0; piece k is [b_k, b_{k+1}] with b_0 = 0, b_K = inf."""
        return [b for b in self.is_piece_boundary() if b > 0]

    # -- log-density and score, float64 -------------------------------------------------------
    def logpdf_np(self, u) -> np.ndarray:
        return self._logpdf_abs_np(np.abs(np.asarray(u, dtype=float)))

    def score_np(self, u) -> np.ndarray:
        u = np.asarray(u, dtype=float)
        return -np.sign(u) * self._abs_score_np(np.abs(u))

    @cached_property
    def _log_c_np(self) -> float:
        """ln c in float64, computed once per family instance at 30 digits (the float screens and
        searches evaluate millions of densities; the constant depends only on the parameters)."""
        with mpmath.workdps(30):
            return float(self.log_norm_const_mp())

    @cached_property
    def _mp_consts(self) -> dict:
        return {}

    def _mp_const(self, name, compute, like):
        """compute(like) for an mpf `like`, once per working precision (a constant of the family:
        the audit's verification evaluates thousands of densities at 50 and 100 digits)."""
        key = (name, mpmath.mp.prec)
        value = self._mp_consts.get(key)
        if value is None:
            value = self._mp_consts[key] = compute(like)
        return value

    # -- mpmath --------------------------------------------------------------------------------
    def logpdf_mp(self, u) -> mpmath.mpf:
        x = abs(mpmath.mpf(u))
        return self._logpdf_piece(x, self._piece_of_mp(x))

    def score_mp(self, u) -> mpmath.mpf:
        u = mpmath.mpf(u)
        x = abs(u)
        return -mpmath.sign(u) * self._abs_score_piece(x, self._piece_of_mp(x))

    def _piece_of_mp(self, x: mpmath.mpf) -> int:
        return sum(1 for b in self._breaks() if x >= to_mpf(b))

    # -- arb -----------------------------------------------------------------------------------
    def _piece_ranges(self, lo: arb, hi: arb):
        """Yield (piece, ball) covering the pieces that [lo, hi] (exact ends, >= 0) may meet."""
        ends = [arb(0)] + [to_arb(b) for b in self._breaks()] + [None]
        for k in range(len(ends) - 1):
            left, right = ends[k], ends[k + 1]
            if hi < left.lower() or (right is not None and lo > right.upper()):
                continue
            a = lo if lo >= left.lower() else left.lower()
            b = hi if right is None or hi <= right.upper() else right.upper()
            yield k, arb(a).union(arb(b))

    def logpdf_arb(self, u: arb) -> arb:
        """Ball containing ln h(v) for all v in u (h is non-increasing in |v|)."""
        if not u.is_finite():
            return arb.nan()
        lo, hi = _abs_range(u)
        out = None
        for end in (lo, hi):
            for k, x in self._piece_ranges(end, end):
                val = self._logpdf_piece(x, k)
                out = val if out is None else out.union(val)
        return out

    def score_arb(self, u: arb) -> arb:
        """Ball containing psi(v) for all v in u (hull over pieces; psi odd, <= 0 on v > 0)."""
        if not u.is_finite():
            return arb.nan()
        lo, hi = _abs_range(u)
        mag = None
        for k, x in self._piece_ranges(lo, hi):
            val = self._abs_score_piece(x, k)
            mag = val if mag is None else mag.union(val)
        if u > 0:
            return -mag
        if u < 0:
            return mag
        return mag.union(-mag)

    # -- certificate hooks (used by gpaudit.certify.family_sup) -------------------------------
    def score_parts_pos(self, x, piece: int):
        """(|psi(x)|, 1 + x psi(x)) for x > 0 in ``piece``; x an arb ball or arb_series."""
        a = self._abs_score_piece(x, piece)
        return a, 1 - x * a

    def score_parts_tail(self, s):
        """(|psi(1/s)|, 1 + psi(1/s)/s) for 0 < s <= 1, continuously extended to s = 0."""
        raise NotImplementedError

    # -- distribution function -----------------------------------------------------------------
    def sf_mp(self, u) -> mpmath.mpf:
        u = mpmath.mpf(u)
        return self._sf_pos_mp(u) if u >= 0 else 1 - self._sf_pos_mp(-u)

    def cdf_mp(self, u) -> mpmath.mpf:
        return self.sf_mp(-mpmath.mpf(u))

    def sf_np(self, u) -> np.ndarray:
        u = np.asarray(u, dtype=float)
        tail = self._sf_pos_np(np.abs(u))
        return np.where(u >= 0, tail, 1.0 - tail)

    def cdf_np(self, u) -> np.ndarray:
        return self.sf_np(-np.asarray(u, dtype=float))

    # -- moments and constants -----------------------------------------------------------------
    def log_norm_const_mp(self) -> mpmath.mpf:
        """ln c, c the constant multiplying the un-normalised density shape."""
        raise NotImplementedError

    def variance_mp(self) -> mpmath.mpf:
        raise NotImplementedError

    def sample(self, rng: np.random.Generator, size) -> np.ndarray:
        raise NotImplementedError


# ---------------------------------------------------------------------------------------------
# Laplace


@dataclass(frozen=True)
class Laplace(NoiseFamily):
    """h(z) = exp(-|z|)/2; psi(u) = -sign(u) (psi(0) := 0)."""

    name: ClassVar[str] = "laplace"
    u_score_unbounded: ClassVar[bool] = True

    def params(self):
        return {}

    def is_piece_boundary(self):
        return [sympy.Integer(0)]

    def _logpdf_piece(self, x, k):
        return -x - _log(_num(sympy.Integer(2), x))

    def _abs_score_piece(self, x, k):
        return 1 + 0 * x

    def _logpdf_abs_np(self, x):
        return -x - math.log(2.0)

    def _abs_score_np(self, x):
        return np.ones_like(x)

    def score_parts_tail(self, s):
        # 1 + u psi(u) = 1 - u = 1 - 1/s: unbounded as s -> 0 (an infinite ball at s = 0).
        return 1 + 0 * s, 1 - 1 / s

    def _sf_pos_mp(self, x):
        return mpmath.exp(-x) / 2

    def _sf_pos_np(self, x):
        return 0.5 * np.exp(-x)

    def log_norm_const_mp(self):
        return -mpmath.log(2)

    def variance_mp(self):
        return mpmath.mpf(2)

    def sample(self, rng, size):
        return rng.laplace(0.0, 1.0, size)


# ---------------------------------------------------------------------------------------------
# Generalized Cauchy


@dataclass(frozen=True)
class GenCauchy(NoiseFamily):
    """h(z) = c / (1 + |z|^p)^theta, c = p Gamma(theta) / (2 Gamma(1/p) Gamma(theta - 1/p)).

    psi(u) = -theta p sign(u) |u|^(p-1) / (1 + |u|^p). Requires p > 1, theta > 0, p theta > 1.
    """

    p: sympy.Expr
    theta: sympy.Expr = sympy.Integer(1)
    name: ClassVar[str] = "gen_cauchy"

    def __post_init__(self):
        p = exact_number("p", self.p)
        theta = exact_number("theta", self.theta)
        if not p > 1:
            raise ValueError(f"p: must be > 1, got {p}")
        if not theta > 0:
            raise ValueError(f"theta: must be > 0, got {theta}")
        if not p * theta > 1:
            raise ValueError(f"theta: p*theta must be > 1, got p*theta = {p * theta}")
        object.__setattr__(self, "p", p)
        object.__setattr__(self, "theta", theta)

    def params(self):
        return {"p": self.p, "theta": self.theta}

    def is_piece_boundary(self):
        smooth = self.p.is_Integer and self.p % 2 == 0
        return [] if smooth else [sympy.Integer(0)]

    def _log_c(self, like):
        if isinstance(like, mpmath.mpf):
            return self._mp_const("log_c", self._log_c_uncached, like)
        return self._log_c_uncached(like)

    def _log_c_uncached(self, like):
        p, th = _num(self.p, like), _num(self.theta, like)
        if isinstance(like, mpmath.mpf):
            lg = mpmath.loggamma
        else:
            lg = arb.lgamma
        return _log(p) + lg(th) - _log(_num(sympy.Integer(2), like)) - lg(1 / p) - lg(th - 1 / p)

    def _logpdf_piece(self, x, k):
        if isinstance(x, mpmath.mpf) and self.p > 2**20 and x > 0:
            # ln(1 + x^p) from t = p ln x: x ** int(p) at p = 1e300 squares a thousand times
            t = to_mpf(self.p) * mpmath.log(x)
            lp = t + mpmath.log1p(mpmath.exp(-t)) if t > 0 else mpmath.log1p(mpmath.exp(t))
            return self._log_c(x) - _num(self.theta, x) * lp
        return self._log_c(x) - _num(self.theta, x) * _log1p(_pow(x, self.p))

    def _abs_score_piece(self, x, k):
        return _num(self.theta * self.p, x) * _pow(x, self.p - 1) / (1 + _pow(x, self.p))

    def score_parts_tail(self, s):
        # With u = 1/s: |psi| = theta p u^(p-1)/(1+u^p) = theta p s/(1+s^p) and
        # 1 + u psi = 1 - theta p u^p/(1+u^p) = 1 - theta p/(1+s^p); both continuous at s = 0.
        tp = _num(self.theta * self.p, s)
        sp = _pow(s, self.p)
        return tp * s / (1 + sp), 1 - tp / (1 + sp)

    @cached_property
    def _floats(self):
        """(p, theta, theta p) as doubles, rounded to nearest once (float screens only)."""
        return float(self.p), float(self.theta), float(self.theta * self.p)

    def _logpdf_abs_np(self, x):
        p, th, _ = self._floats
        small = np.minimum(x, 1.0)
        large = np.maximum(x, 1.0)
        near = np.log1p(small**p)
        far = p * np.log(large) + np.log1p(large ** (-p))
        return self._log_c_np - th * np.where(x <= 1.0, near, far)

    def _abs_score_np(self, x):
        p, _, tp = self._floats
        small = np.minimum(x, 1.0)
        large = np.maximum(x, 1.0)
        near = tp * small ** (p - 1) / (1 + small**p)
        far = tp / (large + large ** (1 - p))
        return np.where(x <= 1.0, near, far)

    def _beta_args(self):
        """(a, b) with P(|Z| > x) = I_{1/(1+x^p)}(a, b), the regularised incomplete beta."""
        return self.theta - 1 / self.p, 1 / self.p

    def _sf_pos_mp(self, x):
        a, b = (to_mpf(v) for v in self._beta_args())
        w = 1 / (1 + x ** to_mpf(self.p))
        return mpmath.betainc(a, b, 0, w, regularized=True) / 2

    def _sf_pos_np(self, x):
        # Near 0 use P(|Z| <= x) = I_{x^p/(1+x^p)}(b, a): the complementary argument is exact.
        a, b = (float(v) for v in self._beta_args())
        p = float(self.p)
        small = np.minimum(x, 1.0) ** p
        large = np.maximum(x, 1.0) ** (-p)
        from scipy import special  # imported where needed: the screen never calls it

        near = 0.5 - 0.5 * special.betainc(b, a, small / (1 + small))
        far = 0.5 * special.betainc(a, b, large / (1 + large))
        return np.where(x <= 1.0, near, far)

    def log_norm_const_mp(self):
        return self._log_c(mpmath.mpf(0))

    def variance_mp(self):
        p, th = to_mpf(self.p), to_mpf(self.theta)
        if not self.p * self.theta > 3:
            return mpmath.inf
        return mpmath.exp(
            mpmath.loggamma(3 / p) + mpmath.loggamma(th - 3 / p)
            - mpmath.loggamma(1 / p) - mpmath.loggamma(th - 1 / p)
        )

    def sample(self, rng, size):
        # |Z|^p / (1 + |Z|^p) ~ Beta(1/p, theta - 1/p), so |Z| = (G1/G2)^(1/p) with
        # independent G1 ~ Gamma(1/p), G2 ~ Gamma(theta - 1/p); exact, no cdf inversion.
        p, th = float(self.p), float(self.theta)
        g1 = rng.standard_gamma(1 / p, size)
        g2 = rng.standard_gamma(th - 1 / p, size)
        sign = np.where(rng.random(size) < 0.5, -1.0, 1.0)
        return sign * (g1 / g2) ** (1 / p)


# ---------------------------------------------------------------------------------------------
# Student's t


@dataclass(frozen=True)
class StudentT(NoiseFamily):
    """h(z) = Gamma((nu+1)/2)/(sqrt(nu pi) Gamma(nu/2)) (1 + z^2/nu)^(-(nu+1)/2), nu > 0.

    psi(u) = -(nu+1) u / (nu + u^2).
    """

    nu: sympy.Expr
    name: ClassVar[str] = "student_t"

    def __post_init__(self):
        nu = exact_number("nu", self.nu)
        if not nu > 0:
            raise ValueError(f"nu: must be > 0, got {nu}")
        object.__setattr__(self, "nu", nu)

    def params(self):
        return {"nu": self.nu}

    def _log_c(self, like):
        if isinstance(like, mpmath.mpf):
            return self._mp_const("log_c", self._log_c_uncached, like)
        return self._log_c_uncached(like)

    def _log_c_uncached(self, like):
        nu = _num(self.nu, like)
        if isinstance(like, mpmath.mpf):
            lg, pi = mpmath.loggamma, mpmath.pi
        else:
            lg, pi = arb.lgamma, arb.pi()
        return lg((nu + 1) / 2) - lg(nu / 2) - _log(nu * pi) / 2

    def _logpdf_piece(self, x, k):
        nu = _num(self.nu, x)
        return self._log_c(x) - (nu + 1) / 2 * _log1p(_pow(x, _TWO) / nu)

    def _abs_score_piece(self, x, k):
        nu = _num(self.nu, x)
        return (nu + 1) * x / (nu + _pow(x, _TWO))

    def score_parts_tail(self, s):
        # With u = 1/s: |psi| = (nu+1) s/(1 + nu s^2), 1 + u psi = 1 - (nu+1)/(1 + nu s^2).
        nu = _num(self.nu, s)
        den = 1 + nu * _pow(s, _TWO)
        return (nu + 1) * s / den, 1 - (nu + 1) / den

    @cached_property
    def _floats(self):
        """(nu, 1/sqrt(nu), (nu+1)/2) as doubles, computed once (float screens only)."""
        nu = float(self.nu)
        return nu, 1.0 / math.sqrt(nu), (nu + 1) / 2

    def _logpdf_abs_np(self, x):
        # ln(1 + t^2), t = x / sqrt(nu): t*t overflows beyond 1e154, where 2 ln t is the value
        # to double precision (the dropped ln(1 + t^-2) < 1e-300)
        _, inv_root, half = self._floats
        with np.errstate(all="ignore"):
            t = x * inv_root
            out = np.log1p(t * t)
            big = t > 1e150
            if big.any():
                out = np.where(big, 2 * np.log(t), out)
            return self._log_c_np - half * out

    def _abs_score_np(self, x):
        nu = self._floats[0]
        small = np.minimum(x, 1.0)
        large = np.maximum(x, 1.0)
        return np.where(x <= 1.0, (nu + 1) * small / (nu + small**2), (nu + 1) / (large + nu / large))

    def _sf_pos_mp(self, x):
        nu = to_mpf(self.nu)
        return mpmath.betainc(nu / 2, mpmath.mpf(1) / 2, 0, nu / (nu + x * x), regularized=True) / 2

    def _sf_pos_np(self, x):
        from scipy import special  # imported where needed: the screen never calls it

        return special.stdtr(float(self.nu), -x)  # = P(T > x)

    def log_norm_const_mp(self):
        return self._log_c(mpmath.mpf(0))

    def variance_mp(self):
        if not self.nu > 2:
            return mpmath.inf
        nu = to_mpf(self.nu)
        return nu / (nu - 2)

    def sample(self, rng, size):
        return rng.standard_t(float(self.nu), size)


# ---------------------------------------------------------------------------------------------
# PolyPlace


@dataclass(frozen=True)
class PolyPlace(NoiseFamily):
    """Hladik-Tetek Definition 6 at s = 1, alpha > 1:

    h(z) = N (alpha-1) (1-|z|)^(alpha-1)                          for |z| < 1/alpha,
    h(z) = N (alpha+1) (1-1/alpha^2)^alpha (1+|z|)^(-alpha-1)      otherwise,
    N = alpha / (2 (2 ((alpha-1)/alpha)^alpha + alpha - 1)).

    psi(u) = -sign(u) (alpha-1)/(1-|u|) resp. -sign(u) (alpha+1)/(1+|u|); both equal -alpha
    at |u| = 1/alpha, so psi is continuous there (Lemma 10).
    """

    alpha: sympy.Expr
    name: ClassVar[str] = "polyplace"

    def __post_init__(self):
        alpha = exact_number("alpha", self.alpha)
        if not alpha > 1:
            raise ValueError(f"alpha: must be > 1, got {alpha}")
        object.__setattr__(self, "alpha", alpha)

    def params(self):
        return {"alpha": self.alpha}

    def is_piece_boundary(self):
        return [sympy.Integer(0), 1 / self.alpha]

    def _am1(self, like):
        """alpha - 1 from the exact alpha (alpha = 1 + 1e-200 is not 1 + 1e-200 in any float)."""
        return _num(self.alpha - 1, like)

    def _log_ratio(self, like):
        """ln((alpha-1)/alpha), without cancellation near alpha = 1 or for huge alpha."""
        if self.alpha >= 2:
            return _log1p(-_num(1 / self.alpha, like))
        return _log(self._am1(like)) - _log(_num(self.alpha, like))

    def _log_n(self, like):
        if isinstance(like, mpmath.mpf):
            return self._mp_const("log_n", self._log_n_uncached, like)
        return self._log_n_uncached(like)

    def _log_n_uncached(self, like):
        al = _num(self.alpha, like)
        ratio = _exp(al * self._log_ratio(like))
        return _log(al) - _log(2 * (2 * ratio + self._am1(like)))

    def _log_inner(self, like):
        """ln(1 - 1/alpha^2) = ln(alpha-1) + ln(alpha+1) - 2 ln(alpha)."""
        if self.alpha >= 2:
            return _log1p(-_num(1 / self.alpha**2, like))
        al = _num(self.alpha, like)
        return _log(self._am1(like)) + _log(al + 1) - 2 * _log(al)

    def _logpdf_piece(self, x, k):
        al = _num(self.alpha, x)
        if k == 0:
            am1 = self._am1(x)
            return self._log_n(x) + _log(am1) + am1 * _log1p(-x)
        return self._log_n(x) + _log(al + 1) + al * self._log_inner(x) - (al + 1) * _log1p(x)

    def _abs_score_piece(self, x, k):
        al = _num(self.alpha, x)
        return self._am1(x) / (1 - x) if k == 0 else (al + 1) / (1 + x)

    def score_parts_tail(self, s):
        # The tail s <= 1 means u >= 1 > 1/alpha (second piece): with u = 1/s,
        # |psi| = (alpha+1) s/(1+s) and 1 + u psi = 1 - (alpha+1)/(1+s).
        al = _num(self.alpha, s)
        return (al + 1) * s / (1 + s), 1 - (al + 1) / (1 + s)

    @cached_property
    def _floats(self):
        """(alpha, alpha - 1, 1/alpha) as doubles, each rounded once from the exact value."""
        return float(self.alpha), float(self.alpha - 1), float(1 / self.alpha)

    def _logpdf_abs_np(self, x):
        al, am1, inv = self._floats
        c_near, c_far = self._piece_consts_np
        with np.errstate(all="ignore"):
            near = c_near + am1 * np.log1p(-np.minimum(x, inv))
            far = c_far - (al + 1) * np.log1p(x)
        return np.where(x < inv, near, far)

    @cached_property
    def _piece_consts_np(self):
        """ln of each piece's constant factor, in float64 (computed once per family instance)."""
        with mpmath.workdps(30):
            z = mpmath.mpf(0)
            c_near = float(self._log_n(z) + mpmath.log(self._am1(z)))
            c_far = float(self._log_n(z) + mpmath.log(to_mpf(self.alpha + 1))
                          + to_mpf(self.alpha) * self._log_inner(z))
        return c_near, c_far

    def _abs_score_np(self, x):
        al, am1, inv = self._floats
        with np.errstate(all="ignore"):
            return np.where(x < inv, am1 / (1 - np.minimum(x, inv)), (al + 1) / (1 + x))

    def _tail_consts(self, like):
        """(N, K = (1-1/alpha^2)^alpha, r = ((alpha-1)/alpha)^alpha) in the backend of like."""
        al = _num(self.alpha, like)
        return (_exp(self._log_n(like)), _exp(al * self._log_inner(like)),
                _exp(al * self._log_ratio(like)))

    def _sf_pos_mp(self, x):
        # Integrating Definition 6: for x >= 1/alpha, P(Z > x) = N (alpha+1)/alpha K (1+x)^-alpha;
        # below, add N (alpha-1)/alpha ((1-x)^alpha - ((alpha-1)/alpha)^alpha).
        al, am1 = to_mpf(self.alpha), to_mpf(self.alpha - 1)
        n, k, r = self._tail_consts(mpmath.mpf(0))
        if x >= to_mpf(1 / self.alpha):
            return n * (al + 1) / al * k * (1 + x) ** (-al)
        return n * (al + 1) / al * r + n * am1 / al * ((1 - x) ** al - r)

    def _sf_pos_np(self, x):
        al, am1, inv = float(self.alpha), float(self.alpha - 1), float(1 / self.alpha)
        n, k, r = (float(v) for v in self._tail_consts(mpmath.mpf(0)))
        near = n * (al + 1) / al * r + n * am1 / al * ((1 - np.minimum(x, inv)) ** al - r)
        far = n * (al + 1) / al * k * (1 + x) ** (-al)
        return np.where(x >= inv, far, near)

    def log_norm_const_mp(self):
        """ln N (Definition 6)."""
        return self._log_n(mpmath.mpf(0))

    def variance_mp(self):
        """Hladik-Tetek Lemma 13 at s = 1 (finite for alpha > 2)."""
        if not self.alpha > 2:
            return mpmath.inf
        a = to_mpf(self.alpha)
        num = (1 / a + 1) ** (-a) * ((19 * a**2 + 5) * (1 - 1 / a**2) ** a
                                     + (a - 2) * (a - 1) ** 2 * (1 / a + 1) ** a)
        den = (2 * ((a - 1) / a) ** a + a - 1) * (a**4 - 5 * a**2 + 4)
        return 2 * num / den

    def sample(self, rng, size):
        # Invert v = P(|Z| > x) = 2 sf(x) piece by piece.
        al = float(self.alpha)
        n, k, r = (float(v) for v in self._tail_consts(mpmath.mpf(0)))
        v = 1.0 - rng.random(size)  # in (0, 1]
        v0 = 2 * n * (al + 1) / al * r  # P(|Z| > 1/alpha)
        far = (v * al / (2 * n * (al + 1) * k)) ** (-1 / al) - 1
        inner = np.maximum((v - v0) * al / (2 * n * float(self.alpha - 1)) + r, 0.0)
        near = 1 - inner ** (1 / al)
        mag = np.where(v <= v0, far, near)
        sign = np.where(rng.random(size) < 0.5, -1.0, 1.0)
        return sign * mag


# ---------------------------------------------------------------------------------------------

_FAMILIES: dict[str, type[NoiseFamily]] = {
    cls.name: cls for cls in (Laplace, GenCauchy, StudentT, PolyPlace)
}


def make_family(name: str, **params) -> NoiseFamily:
    """Build a family by its mech.yaml name; ValueError("<field>: <problem>") on bad input."""
    cls = _FAMILIES.get(name)
    if cls is None:
        raise ValueError(f"family: unknown noise family {name!r} (known: {', '.join(_FAMILIES)})")
    known = {f.name: f for f in dataclasses.fields(cls)}
    for key in params:
        if key not in known:
            raise ValueError(f"{key}: not a parameter of family {name}")
    for key, spec in known.items():
        if spec.default is dataclasses.MISSING and key not in params:
            raise ValueError(f"{key}: required for family {name}")
    return cls(**params)
