"""The noise families of gpaudit, each defined once.

A family is a frozen dataclass whose fields are its shape parameters (exact sympy numbers), with

- ``density``: ln h(u) on u >= 0 as exact sympy expressions in the parameter symbols, piece by
  piece between exact break points, and the exact log normalising constant (``Density``);
- ``check``: the parameter constraints;
- the sampler, the survival function on u >= 0 in closed form (mpmath and float64; the audit's
  hockey-stick divergence of (epsilon, delta) claims uses it) and the variance.

The score, the certificate's tail chart, the z3 form and the mpmath / arb / arb-series / numpy
evaluations are derived from ``density`` (``gpaudit.model.family_base``). Adding a family is one such
class, its name in FAMILIES below, in gpaudit.spec.load.FAMILY_SHAPES and in docs/mech-yaml.md.

The few float64 forms written by hand (u^p and u*u overflow far in the tails, where the float
screens still evaluate) are marked "float64 override"; tests/pipeline/test_family_definitions.py compares
each with the derived form.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar

import mpmath
import numpy as np
import sympy
from sympy import exp, log, loggamma, pi

from .family_base import Density, NoiseFamily, U, lazy_class_attribute, scale_bits, to_mpf
from .family_eval import log1p

__all__ = ["Laplace", "GenCauchy", "StudentT", "PolyPlace", "Gaussian", "FAMILIES", "RADIAL",
           "RadialLaplace", "RadialGaussian", "RadialStudentT"]

# The shape parameters as symbols (capitalised: a dataclass field of the same name, e.g. GenCauchy's
# theta with its default 1, would shadow a lower-case name inside the class body).
P, THETA, NU, ALPHA, K = sympy.symbols("p theta nu alpha k", positive=True)


# ---------------------------------------------------------------------------------------------
# Laplace


@dataclass(frozen=True)
class Laplace(NoiseFamily):
    """h(z) = exp(-|z|)/2; psi(u) = -sign(u) (psi(0) := 0)."""

    name: ClassVar[str] = "laplace"
    density = lazy_class_attribute(lambda: Density(pieces=(-U,), log_norm=-log(2)))

    def _sf_pos_mp(self, x):
        return mpmath.exp(-x) / 2

    def _sf_pos_np(self, x):
        return 0.5 * np.exp(-x)

    def variance_mp(self):
        return mpmath.mpf(2)

    def sample(self, rng, size):
        return rng.laplace(0.0, 1.0, size)


# ---------------------------------------------------------------------------------------------
# Gaussian


@dataclass(frozen=True)
class Gaussian(NoiseFamily):
    """h(z) = exp(-z^2/2)/sqrt(2 pi); psi(u) = -u. |psi| and u psi are unbounded: under a pure
    claim the certificate rate is infinite whenever eta a > 0 or c > 0."""

    name: ClassVar[str] = "gaussian"
    density = lazy_class_attribute(lambda: Density(pieces=(-U**2 / 2,), log_norm=-log(2 * pi) / 2))

    def _sf_pos_mp(self, x):
        return mpmath.ncdf(-x)

    def _sf_pos_np(self, x):
        from scipy import special  # imported where needed: the screen never calls it

        return special.ndtr(-x)

    def variance_mp(self):
        return mpmath.mpf(1)

    def sample(self, rng, size):
        return rng.standard_normal(size)


# ---------------------------------------------------------------------------------------------
# Generalized Cauchy


@dataclass(frozen=True)
class GenCauchy(NoiseFamily):
    """Liang-Yi Section 2.1: h(z) = c / (1 + |z|^p)^theta,
    c = p Gamma(theta) / (2 Gamma(1/p) Gamma(theta - 1/p)); p > 1, theta > 0, p theta > 1.

    psi(u) = -theta p sign(u) |u|^(p-1) / (1 + |u|^p).
    """

    p: sympy.Expr
    theta: sympy.Expr = sympy.Integer(1)
    name: ClassVar[str] = "gen_cauchy"
    density = lazy_class_attribute(lambda: Density(
        pieces=(-THETA * log1p(U**P),),
        log_norm=log(P) + loggamma(THETA) - log(2) - loggamma(1 / P) - loggamma(THETA - 1 / P),
    ))

    def check(self):
        if not self.p > 1:
            raise ValueError(f"p: must be > 1, got {self.p}")
        if not self.theta > 0:
            raise ValueError(f"theta: must be > 0, got {self.theta}")
        if not self.p * self.theta > 1:
            raise ValueError(f"theta: p*theta must be > 1, got p*theta = {self.p * self.theta}")

    def paper_rates(self, eta, gamma):
        p, th = self.p, self.theta
        out = []
        if th >= 1:
            out.append((
                "Liang-Yi Lemma 3.3: max(gamma, (p*theta-1)*gamma) + (p-1)^((p-1)/p)*theta*eta",
                # in mpmath: sympy would try to take the root of the integer p - 1 exactly (p = 1e30)
                max(to_mpf(gamma), to_mpf((p * th - 1) * gamma))
                + to_mpf(p - 1) ** to_mpf((p - 1) / p) * to_mpf(th * eta)))
        if th == 1:
            out.append(("NRS07 as quoted in Liang-Yi (remark after Lemma 3.5), and Laud-Pankova-Pettai "
                        "Theorem 3 with b = eta, beta = gamma: (p+1)*gamma + (p+1)*eta",
                        (p + 1) * gamma + (p + 1) * eta))
        return out

    def scale_bits(self):
        return scale_bits(self.p) if self.p > 2 else 0   # the score changes over 1/p about u = 1

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
        p_ = float(self.p)
        small = np.minimum(x, 1.0) ** p_
        large = np.maximum(x, 1.0) ** (-p_)
        from scipy import special  # imported where needed: the screen never calls it

        near = 0.5 - 0.5 * special.betainc(b, a, small / (1 + small))
        far = 0.5 * special.betainc(a, b, large / (1 + large))
        return np.where(x <= 1.0, near, far)

    def variance_mp(self):
        p_, th = to_mpf(self.p), to_mpf(self.theta)
        if not self.p * self.theta > 3:
            return mpmath.inf
        return mpmath.exp(
            mpmath.loggamma(3 / p_) + mpmath.loggamma(th - 3 / p_)
            - mpmath.loggamma(1 / p_) - mpmath.loggamma(th - 1 / p_)
        )

    def sample(self, rng, size):
        # |Z|^p / (1 + |Z|^p) ~ Beta(1/p, theta - 1/p), so |Z| = (G1/G2)^(1/p) with
        # independent G1 ~ Gamma(1/p), G2 ~ Gamma(theta - 1/p); exact, no cdf inversion.
        p_, th = float(self.p), float(self.theta)
        g1 = rng.standard_gamma(1 / p_, size)
        g2 = rng.standard_gamma(th - 1 / p_, size)
        sign = np.where(rng.random(size) < 0.5, -1.0, 1.0)
        return sign * (g1 / g2) ** (1 / p_)

    # -- float64 overrides: u^p overflows beyond u = 1e308^(1/p) ---------------------------------
    @cached_property
    def _floats(self):
        """(p, theta, theta p) as doubles, rounded to nearest once (float screens only)."""
        return float(self.p), float(self.theta), float(self.theta * self.p)

    @cached_property
    def _small_integer_p(self) -> int | None:
        """p when it is an integer from 2 to 8 (x^p is then a few exact-order multiplications)."""
        return int(self.p) if sympy.Integer(2) <= self.p <= 8 and sympy.sympify(self.p).is_Integer else None

    def _logpdf_abs_np(self, x):
        """float64 override: ln(1 + x^p) without overflow.

        For an integer p from 2 to 8, x^p by multiplication and log1p (one transcendental a
        point), and p ln x where x^p passes 1e300 (the dropped ln(1 + x^-p) is below 1e-300);
        otherwise logaddexp(0, p ln x), which never forms x^p (one log, one exp, one log1p)."""
        p_, th, _ = self._floats
        k = self._small_integer_p
        with np.errstate(all="ignore"):  # ln 0 = -inf, and logaddexp(0, -inf) = 0
            if k is not None and isinstance(x, np.ndarray) and x.ndim:
                t = _int_power(x, k)  # a new array, then reused in place
                big = ~(t <= 1e300)
                np.log1p(t, out=t)
                if big.any():
                    t = np.where(big, p_ * np.log(x), t)
            else:
                t = np.log(x)  # a new array, then reused in place
                if not isinstance(t, np.ndarray):
                    return self._log_c_np - th * np.logaddexp(0.0, p_ * t)
                t *= p_
                np.logaddexp(0.0, t, out=t)
            t *= th
            return np.subtract(self._log_c_np, t, out=t)

    def _abs_score_np(self, x):
        """float64 override: theta p / (x + x^(1-p)) beyond x = 1."""
        p_, _, tp = self._floats
        small = np.minimum(x, 1.0)
        large = np.maximum(x, 1.0)
        near = tp * small ** (p_ - 1) / (1 + small**p_)
        far = tp / (large + large ** (1 - p_))
        return np.where(x <= 1.0, near, far)


def _int_power(x: np.ndarray, k: int) -> np.ndarray:
    """x^k for an integer 2 <= k <= 8 by multiplication, in a new array (relative error at most
    about k ulps; an overflow gives inf, which the caller treats as large)."""
    sq = x * x
    if k == 2:
        return sq
    if k == 3:
        return np.multiply(sq, x, out=sq)
    out = sq * sq  # x^4
    if k == 8:
        return np.multiply(out, out, out=out)
    if k >= 6:
        np.multiply(out, sq, out=out)  # x^6
    if k in (5, 7):
        np.multiply(out, x, out=out)
    return out


# ---------------------------------------------------------------------------------------------
# Student's t


@dataclass(frozen=True)
class StudentT(NoiseFamily):
    """Liang-Yi Section 2.1: h(z) = Gamma((nu+1)/2)/(sqrt(nu pi) Gamma(nu/2)) (1 + z^2/nu)^(-(nu+1)/2),
    nu > 0.  psi(u) = -(nu+1) u / (nu + u^2).
    """

    nu: sympy.Expr
    name: ClassVar[str] = "student_t"
    density = lazy_class_attribute(lambda: Density(
        pieces=(-(NU + 1) / 2 * log1p(U**2 / NU),),
        log_norm=loggamma((NU + 1) / 2) - loggamma(NU / 2) - log(NU * pi) / 2,
    ))

    def check(self):
        if not self.nu > 0:
            raise ValueError(f"nu: must be > 0, got {self.nu}")

    def paper_rates(self, eta, gamma):
        nu = self.nu
        if not nu > 1:
            return []
        shift = (nu + 1) / (2 * sympy.sqrt(nu)) * eta
        return [("Liang-Yi Lemma 3.5: nu*gamma + (nu+1)/(2*sqrt(nu))*eta", nu * gamma + shift),
                ("BS19 as quoted in Liang-Yi (remark after Lemma 3.5): "
                 "(nu+1)*gamma + (nu+1)/(2*sqrt(nu))*eta", (nu + 1) * gamma + shift)]

    def scale_bits(self):
        # the score peaks at u = sqrt(nu): 1e-150 at nu = 1e-300 (s = 1/u = 1e-150 at nu = 1e300),
        # and a box [0, w] with w >> sqrt(nu) makes nu + u^2 a ball around 0 (30-bit radii)
        return (scale_bits(self.nu) + 1) // 2

    def _sf_pos_mp(self, x):
        nu_ = to_mpf(self.nu)
        return mpmath.betainc(nu_ / 2, mpmath.mpf(1) / 2, 0, nu_ / (nu_ + x * x), regularized=True) / 2

    def _sf_pos_np(self, x):
        from scipy import special  # imported where needed: the screen never calls it

        return special.stdtr(float(self.nu), -x)  # = P(T > x)

    def variance_mp(self):
        if not self.nu > 2:
            return mpmath.inf
        nu_ = to_mpf(self.nu)
        return nu_ / (nu_ - 2)

    def sample(self, rng, size):
        return rng.standard_t(float(self.nu), size)

    # -- float64 overrides: x*x overflows beyond x = 1e154 ---------------------------------------
    @cached_property
    def _floats(self):
        """(nu, 1/sqrt(nu), (nu+1)/2) as doubles, computed once (float screens only)."""
        nu_ = float(self.nu)
        return nu_, 1.0 / math.sqrt(nu_), (nu_ + 1) / 2

    def _logpdf_abs_np(self, x):
        """float64 override: ln(1 + t^2), t = x / sqrt(nu), is 2 ln t beyond t = 1e150 (the
        dropped ln(1 + t^-2) < 1e-300), with ln t = ln x + ln(1/sqrt(nu)) (t itself overflows
        for x near the top of the float range when nu < 1)."""
        _, inv_root, half = self._floats
        with np.errstate(all="ignore"):
            t = x * inv_root
            big = ~(t <= 1e150)
            # an array: t is new, and is reused in place (the same values as log1p(t * t))
            out = np.log1p(np.multiply(t, t, out=t), out=t) if isinstance(t, np.ndarray) else np.log1p(t * t)
            if big.any():
                out = np.where(big, 2 * (np.log(x) + math.log(inv_root)), out)
            if not isinstance(out, np.ndarray):
                return self._log_c_np - half * out
            out *= half
            return np.subtract(self._log_c_np, out, out=out)

    def _abs_score_np(self, x):
        """float64 override: (nu+1) / (x + nu/x) beyond x = 1."""
        nu_ = self._floats[0]
        small = np.minimum(x, 1.0)
        large = np.maximum(x, 1.0)
        return np.where(x <= 1.0, (nu_ + 1) * small / (nu_ + small**2), (nu_ + 1) / (large + nu_ / large))


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
    density = lazy_class_attribute(lambda: Density(
        breaks=(1 / ALPHA,),
        pieces=(log(ALPHA - 1) + (ALPHA - 1) * log1p(-U),
                log(ALPHA + 1) + ALPHA * log1p(-1 / ALPHA**2) - (ALPHA + 1) * log1p(U)),
        log_norm=log(ALPHA) - log(2 * (2 * exp(ALPHA * log1p(-1 / ALPHA)) + ALPHA - 1)),
    ))
    # N, K = (1-1/alpha^2)^alpha and r = ((alpha-1)/alpha)^alpha, for the distribution function
    _TAIL_CONSTS = lazy_class_attribute(lambda: (exp(PolyPlace.density.log_norm), exp(ALPHA * log1p(-1 / ALPHA**2)),
                                                 exp(ALPHA * log1p(-1 / ALPHA))))

    def check(self):
        if not self.alpha > 1:
            raise ValueError(f"alpha: must be > 1, got {self.alpha}")

    def paper_rates(self, eta, gamma):
        if eta == gamma:
            return [("Hladik-Tetek Theorem 8 with Lemma 12 (eta = gamma, alpha = eps/gamma): alpha*gamma",
                     self.alpha * gamma)]
        if eta < gamma:
            # B*gamma/eta >= B is again a gamma-smooth upper bound and M = f + (B*gamma/eta)/gamma Z
            # is exactly the mechanism of Theorem 8.
            return [("Hladik-Tetek Theorem 8 applied to B*gamma/eta (eta < gamma): alpha*gamma",
                     self.alpha * gamma)]
        return []

    def _tail_consts(self):
        """(N, K, r) in mpmath at the working precision."""
        return tuple(self.constant_mp(c) for c in self._TAIL_CONSTS)

    def _sf_pos_mp(self, x):
        # Integrating Definition 6: for x >= 1/alpha, P(Z > x) = N (alpha+1)/alpha K (1+x)^-alpha;
        # below, add N (alpha-1)/alpha ((1-x)^alpha - ((alpha-1)/alpha)^alpha).
        al, am1 = to_mpf(self.alpha), to_mpf(self.alpha - 1)
        n, k, r = self._tail_consts()
        if x >= to_mpf(1 / self.alpha):
            return n * (al + 1) / al * k * (1 + x) ** (-al)
        return n * (al + 1) / al * r + n * am1 / al * ((1 - x) ** al - r)

    @cached_property
    def _tail_floats(self):
        with mpmath.workdps(30):
            return tuple(float(v) for v in self._tail_consts())

    def _sf_pos_np(self, x):
        al, am1, inv = float(self.alpha), float(self.alpha - 1), float(1 / self.alpha)
        n, k, r = self._tail_floats
        near = n * (al + 1) / al * r + n * am1 / al * ((1 - np.minimum(x, inv)) ** al - r)
        far = n * (al + 1) / al * k * (1 + x) ** (-al)
        return np.where(x >= inv, far, near)

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
        n, k, r = self._tail_floats
        v = 1.0 - rng.random(size)  # in (0, 1]
        v0 = 2 * n * (al + 1) / al * r  # P(|Z| > 1/alpha)
        far = (v * al / (2 * n * (al + 1) * k)) ** (-1 / al) - 1
        inner = np.maximum((v - v0) * al / (2 * n * float(self.alpha - 1)) + r, 0.0)
        near = 1 - inner ** (1 / al)
        mag = np.where(v <= v0, far, near)
        sign = np.where(rng.random(size) < 0.5, -1.0, 1.0)
        return sign * mag


# ---------------------------------------------------------------------------------------------

FAMILIES: dict[str, type[NoiseFamily]] = {
    cls.name: cls for cls in (Laplace, GenCauchy, StudentT, PolyPlace, Gaussian)
}


# ---------------------------------------------------------------------------------------------
# Radial families in R^k (output.dim k > 1): Z has density c_k h(||z||_2), and the methods of a
# family speak of the radius u = ||z||_2 >= 0 (ln c_k + ln h(u), the score psi = (ln h)', the
# survival function P(||Z|| > x)).  With S_{k-1} = 2 pi^(k/2) / Gamma(k/2) the area of the unit
# sphere, c_k = 1 / (S_{k-1} int_0^inf r^(k-1) h(r) dr):
#   laplace    h = e^-r:                   c_k = Gamma(k/2) / (2 pi^(k/2) Gamma(k))   (1/(2 pi) at k = 2)
#   gaussian   h = e^(-r^2/2):             c_k = (2 pi)^(-k/2)
#   student_t  h = (1 + r^2/nu)^-((nu+k)/2): c_k = Gamma((nu+k)/2) / (Gamma(nu/2) (nu pi)^(k/2))
# At k = 1 each is the one-dimensional family (tests/pipeline/test_vector.py checks c_k by quadrature).


class _Radial(NoiseFamily):
    """A radial family in R^k (k >= 2): the dimension is the shape parameter k."""

    def check(self):
        if not (self.k.is_Integer and self.k >= 2):
            raise ValueError(f"k: must be an integer >= 2, got {self.k}")

    def sample_vectors(self, rng, n) -> np.ndarray:
        """n draws of Z in R^k: a uniform direction times a radius of the family's radial law."""
        k = int(self.k)
        g = rng.standard_normal((n, k))
        g /= np.linalg.norm(g, axis=1, keepdims=True)
        return g * self._radius(rng, n, k)[:, None]

    def sample(self, rng, size):
        return self._radius(rng, size, int(self.k))


@dataclass(frozen=True)
class RadialLaplace(_Radial):
    """h(r) = e^-r in R^k (planar Laplace at k = 2); the radius is Gamma(k, 1)."""

    k: sympy.Expr
    name: ClassVar[str] = "laplace"
    density = lazy_class_attribute(lambda: Density(
        pieces=(-U,), log_norm=loggamma(K / 2) - log(2) - K / 2 * log(pi) - loggamma(K)))

    def _sf_pos_mp(self, x):
        return mpmath.gammainc(to_mpf(self.k), x, mpmath.inf, regularized=True)

    def _sf_pos_np(self, x):
        from scipy import special
        return special.gammaincc(float(self.k), x)

    def variance_mp(self):      # E||Z||^2 / k
        return (to_mpf(self.k) + 1)

    def _radius(self, rng, n, k):
        return rng.standard_gamma(k, n)


@dataclass(frozen=True)
class RadialGaussian(_Radial):
    """h(r) = e^(-r^2/2) in R^k: the standard normal; the radius is chi with k degrees of freedom."""

    k: sympy.Expr
    name: ClassVar[str] = "gaussian"
    density = lazy_class_attribute(lambda: Density(pieces=(-U**2 / 2,), log_norm=-K / 2 * log(2 * pi)))

    def _sf_pos_mp(self, x):
        return mpmath.gammainc(to_mpf(self.k) / 2, x * x / 2, mpmath.inf, regularized=True)

    def _sf_pos_np(self, x):
        from scipy import special
        return special.gammaincc(float(self.k) / 2, x * x / 2)

    def variance_mp(self):
        return mpmath.mpf(1)

    def _radius(self, rng, n, k):
        return np.sqrt(rng.chisquare(k, n))


@dataclass(frozen=True)
class RadialStudentT(_Radial):
    """The multivariate t: h(r) = (1 + r^2/nu)^(-(nu+k)/2) in R^k; ||Z||^2 / k is F(k, nu)."""

    nu: sympy.Expr
    k: sympy.Expr
    name: ClassVar[str] = "student_t"
    density = lazy_class_attribute(lambda: Density(
        pieces=(-(NU + K) / 2 * log1p(U**2 / NU),),
        log_norm=loggamma((NU + K) / 2) - loggamma(NU / 2) - K / 2 * log(NU * pi)))

    def check(self):
        super().check()
        if not self.nu > 0:
            raise ValueError(f"nu: must be > 0, got {self.nu}")

    def _sf_pos_mp(self, x):
        nu_ = to_mpf(self.nu)
        return mpmath.betainc(nu_ / 2, to_mpf(self.k) / 2, 0, nu_ / (nu_ + x * x), regularized=True)

    def _sf_pos_np(self, x):
        from scipy import special
        nu_ = float(self.nu)
        return special.betainc(nu_ / 2, float(self.k) / 2, nu_ / (nu_ + x * x))

    def variance_mp(self):
        if not self.nu > 2:
            return mpmath.inf
        nu_ = to_mpf(self.nu)
        return nu_ / (nu_ - 2)

    def _radius(self, rng, n, k):
        return np.sqrt(rng.chisquare(k, n) / (rng.chisquare(float(self.nu), n) / float(self.nu)))


RADIAL: dict[str, type[NoiseFamily]] = {cls.name: cls for cls in (RadialLaplace, RadialGaussian, RadialStudentT)}
