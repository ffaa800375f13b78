"""The mechanism M(x) = f(x) + (B(x)/eta) Z built from a validated spec, and its privacy loss.

l(y; x, x') = ln p_x(y) - ln p_x'(y),  p_x(y) = h((y - f(x)) / b(x)) / b(x),  b = B / eta.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import mpmath
import numpy as np
import sympy as sp

from ..spec.types import Spec
from .bounds import Bound, build_bound
from .families import NoiseFamily, make_family
from .metric import Metric
from .queries import Query, build_query, build_vector_query


def mp_exact(value) -> mpmath.mpf:
    """An exact sympy number as an mpf at the current precision."""
    value = sp.sympify(value)
    if value.is_Rational:
        return mpmath.mpf(value.p) / value.q
    return mpmath.mpf(sp.N(value, mpmath.mp.dps + 10))


@dataclass(frozen=True)
class Mechanism:
    spec: Spec
    query: Query
    bound: Bound
    family: NoiseFamily

    @property
    def exact_model(self) -> bool:
        """True when f and B are evaluated exactly (symbolic expressions, or callables that take
        mpmath numbers): only then can a high-precision witness refute the claim outright."""
        return not (self.query.numeric or self.bound.numeric)

    @property
    def dim(self) -> int:
        return self.spec.dim

    @property
    def k(self) -> int:
        """The output dimension (output.dim)."""
        return self.spec.output_dim

    @property
    def eta(self):
        return self.spec.noise.eta

    @property
    def epsilon(self):
        return self.spec.claim.epsilon

    @property
    def delta(self):
        return self.spec.claim.delta

    @property
    def Lambda(self):
        return self.spec.bound.Lambda

    @cached_property
    def metric(self) -> Metric:
        """dist(x, x') of the claim (input.metric; Euclidean by default)."""
        return Metric.of(self.spec)

    def dist_np(self, X, Xp) -> np.ndarray:
        """dist(x, x') for rows of X and Xp, in float64 (what float64 kept of the step)."""
        return self.metric.dist_np(np.atleast_2d(np.asarray(X, float)) - np.atleast_2d(np.asarray(Xp, float)))

    def dist_mp(self, x, xp) -> mpmath.mpf:
        """dist(x, x') at the working precision, from the exact binary coordinates."""
        return self.metric.dist_mp(x, xp)

    # -- float64 screening -------------------------------------------------------------
    def centre_scale_np(self, X):
        X = np.atleast_2d(np.asarray(X, float))
        return self.query.f_np(X), self.bound.B_np(X) / self._eta_float

    @cached_property
    def _eta_float(self) -> float:
        return float(self.eta)  # rounded to nearest once: the float screen only

    def log_density_np(self, a, b, Y):
        """ln p(Y) for centre a and scale b: h((Y - a) / b) - ln b, broadcast.

        The operations of ``family.logpdf_np((Y - a) / b) - np.log(b)``, with the same values bit
        for bit; where Y - a already has the result's shape, that one array holds u, then |u|,
        then the result (the screens spend most of their time in memory traffic)."""
        with np.errstate(all="ignore"):
            u = np.subtract(Y, a)
            if not (isinstance(u, np.ndarray) and u.ndim and u.dtype == np.float64
                    and np.result_type(b) == np.float64 and np.broadcast_shapes(u.shape, np.shape(b)) == u.shape):
                return self.family.logpdf_np(u / b) - np.log(b)
            np.divide(u, b, out=u)
            h = self.family.logpdf_np(u, overwrite_u=True)  # may be u itself
            return np.subtract(h, np.log(b), out=u)

    def log_ratio_np(self, X, Xp, Y):
        """ln p_x(y) - ln p_x'(y) for rows of X, Xp and entries of Y (NaN where undefined)."""
        a, b = self.centre_scale_np(X)
        ap, bp = self.centre_scale_np(Xp)
        out = self.log_density_np(a, b, Y) - self.log_density_np(ap, bp, Y)
        bad = ~(np.isfinite(b) & np.isfinite(bp) & (b > 0) & (bp > 0))
        out[bad] = np.nan
        return out

    # -- high precision -------------------------------------------------------------------
    def centre_scale_mp(self, x):
        x = [mpmath.mpf(v) for v in x]
        return self.query.f_mp(x), self.bound.B_mp(x) / mp_exact(self.eta)

    def log_density_mp(self, a, b, y):
        return self.family.logpdf_mp((y - a) / b) - mpmath.log(b)

    def log_ratio_mp(self, x, xp, y):
        a, b = self.centre_scale_mp(x)
        ap, bp = self.centre_scale_mp(xp)
        if not (b > 0 and bp > 0) or not (mpmath.isfinite(b) and mpmath.isfinite(bp)):
            return mpmath.nan
        y = mpmath.mpf(y)
        return self.log_density_mp(a, b, y) - self.log_density_mp(ap, bp, y)


def exact_decimal(v: float) -> str:
    """The exact decimal expansion of a binary double ('inf'/'-inf' for infinities)."""
    from decimal import Decimal
    if v in (float("inf"), float("-inf")):
        return repr(v)
    text = format(Decimal(v), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def build_mechanism(spec: Spec) -> Mechanism:
    base = str(Path(spec.path).resolve().parent)
    k = spec.output_dim
    query = build_query(spec.query, spec.dim, base) if k == 1 else build_vector_query(spec.query, spec.dim, k, base)
    bound = build_bound(spec.bound, query, spec.dim, base, spec.audit.effort, Metric.of(spec))
    family = make_family(spec.noise.family, k, **spec.noise.shape)
    return Mechanism(spec, query, bound, family)
