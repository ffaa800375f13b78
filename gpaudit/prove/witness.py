"""Refutations: a candidate point (a z3 model or a screening sample) becomes a concrete pair of
inputs that violates a condition of Definition 8 for the REAL mechanism (the model's full
Piecewise f and B, evaluated by mpmath at 50 digits), or nothing.

Every coordinate is first rounded to a decimal string of at most 40 significant digits; the check
is made on exactly the numbers reported, so anyone can recompute it.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import mpmath
import sympy as sp

from ..spec.types import Growth

DPS = 50
STEPS = ("1e-3", "1e-5", "1e-7", "1e-10")
MARGIN = mpmath.mpf("1e-30")   # a violation must exceed rounding noise at 50 digits by far


def _exceeds(a, b):
    """a > b by more than a relative 1e-30: never a verdict from the last digits."""
    return a - b > MARGIN * max(abs(a), abs(b), mpmath.mpf(1))


def dec(v) -> str:
    """A decimal string for a number (Fraction, float, mpf, sympy)."""
    with mpmath.workdps(DPS):
        if isinstance(v, Fraction):
            m = mpmath.mpf(v.numerator) / v.denominator
        elif isinstance(v, sp.Basic):
            m = mpmath.mpf(sp.N(v, DPS + 10))
        else:
            m = mpmath.mpf(v)
        return mpmath.nstr(m, 40, min_fixed=-mpmath.inf, max_fixed=mpmath.inf) if m != 0 else "0"


def mpv(s):
    return mpmath.mpf(s)


def _dist(x, xp, metric=None):
    if metric is not None:
        return metric.dist_mp(x, xp)
    return mpmath.sqrt(mpmath.fsum((a - b)**2 for a, b in zip(x, xp)))


def log_growth(growth, gamma, d):
    gamma = mpmath.mpf(sp.N(gamma, DPS + 10)) if not isinstance(gamma, mpmath.mpf) else gamma
    return gamma * d if growth == Growth.EXPONENTIAL else mpmath.log1p(gamma * d)


def _directions(dim, extra=(), metric=None):
    """Unit directions (in the metric; Euclidean when None): `extra` first, then the axes and,
    in two dimensions or for a non-Euclidean metric, the diagonals (sign vectors)."""
    dirs = [tuple(v) for v in extra]
    for k in range(dim):
        for s in (1, -1):
            dirs.append(tuple(s if i == k else 0 for i in range(dim)))
    if dim == 2 or (metric is not None and dim > 1):
        dirs += list(product((1, -1), repeat=dim))[:64]
    out = []
    zero = [mpmath.mpf(0)] * dim
    for d in dirs:
        n = _dist([mpmath.mpf(c) for c in d], zero, metric)
        if n > 0:
            out.append(tuple(mpmath.mpf(c) / n for c in d))
    return out


def _round_pt(p):
    return [dec(v) for v in p]


class WitnessFinder:
    """Pairs that violate the conditions, checked on the model's own mpmath functions."""

    def __init__(self, f_mp, B_mp, dim, gamma, growth, Lambda, scale=1.0, metric=None):
        self.f, self.B, self.dim = f_mp, B_mp, dim
        self.metric = None if metric is None or metric.euclidean else metric
        self.gamma, self.growth = gamma, growth
        self.Lambda = None if Lambda == sp.oo else mpmath.mpf(sp.N(Lambda, DPS + 10))
        self.scale = scale

    def _pairs(self, x0, dirs, centred):
        for h in STEPS:
            hh = mpmath.mpf(h) * self.scale
            for u in dirs:
                if centred:
                    x = [a - hh * c for a, c in zip(x0, u)]
                    xp = [a + hh * c for a, c in zip(x0, u)]
                    yield x, xp
                    yield xp, x
                else:
                    yield list(x0), [a + hh * c for a, c in zip(x0, u)]
                    yield [a + hh * c for a, c in zip(x0, u)], list(x0)

    def _dirs(self, grad):
        """The directions tried from a point: the steepest one for a gradient first (in the
        metric: grad itself for the Euclidean norm, an axis for l1, a sign vector for linf)."""
        if grad and self.metric is not None:
            grad = [float(v) for v in grad]
            grad = list(self.metric.steepest(grad)) if all(map(mpmath.isfinite, grad)) else None
        return _directions(self.dim, [grad] if grad else (), self.metric)

    def smooth(self, x0, grad=None, centred=False):
        """x, x' with ln B(x) - ln B(x') > ln g(|x - x'|): condition 2 of Definition 8 fails."""
        with mpmath.workdps(DPS):
            x0 = [mpmath.mpf(dec(v)) for v in x0]
            for x, xp in self._pairs(x0, self._dirs(grad), centred):
                w = self.check_smooth(_round_pt(x), _round_pt(xp))
                if w:
                    return w
        return None

    def check_smooth(self, xs, xps):
        with mpmath.workdps(DPS):
            x, xp = [mpv(v) for v in xs], [mpv(v) for v in xps]
            d = _dist(x, xp, self.metric)
            if d == 0 or (self.Lambda is not None and d > self.Lambda):
                return None
            Bx, Bxp = self.B(x), self.B(xp)
            if not (mpmath.isfinite(Bx) and mpmath.isfinite(Bxp)) or Bx <= 0 or Bxp <= 0:
                return None
            lr = mpmath.log(Bx) - mpmath.log(Bxp)
            lg = log_growth(self.growth, self.gamma, d)
            if _exceeds(lr, lg):
                return {"condition": "smooth", "x": xs, "x_prime": xps, "B_x": dec(Bx), "B_x_prime": dec(Bxp),
                        "dist": dec(d), "ln_ratio": dec(lr), "gamma_dist": dec(lg), "growth": self.growth}
        return None

    def cover(self, x0, grad=None, centred=False):
        """x, x' with |f(x) - f(x')| > B(x) |x - x'|: L_{f,Lambda}(x) > B(x), condition 1 fails."""
        with mpmath.workdps(DPS):
            x0 = [mpmath.mpf(dec(v)) for v in x0]
            for x, xp in self._pairs(x0, self._dirs(grad), centred):
                w = self.check_cover(_round_pt(x), _round_pt(xp))
                if w:
                    return w
        return None

    def check_cover(self, xs, xps):
        with mpmath.workdps(DPS):
            x, xp = [mpv(v) for v in xs], [mpv(v) for v in xps]
            d = _dist(x, xp, self.metric)
            if d == 0 or (self.Lambda is not None and d > self.Lambda):
                return None
            fx, fxp, Bx = self.f(x), self.f(xp), self.B(x)
            if not all(mpmath.isfinite(v) for v in (fx, fxp, Bx)):
                return None
            slope = abs(fx - fxp) / d
            if _exceeds(slope, Bx):
                return {"condition": "cover", "x": xs, "x_prime": xps, "f_x": dec(fx), "f_x_prime": dec(fxp),
                        "B": dec(Bx), "dist": dec(d), "slope": dec(slope)}
        return None

    def positive(self, x0):
        with mpmath.workdps(DPS):
            xs = _round_pt([mpmath.mpf(dec(v)) for v in x0])
            Bx = self.B([mpv(v) for v in xs])
            if mpmath.isfinite(Bx) and Bx <= 0:
                return {"condition": "B_positive", "x": xs, "B": dec(Bx)}
        return None

    def undefined(self, x0, name):
        """x where the model's f (name 'f') or B ('B') is not a finite real number at 50 digits."""
        fn = self.f if name == "f" else self.B
        with mpmath.workdps(DPS):
            xs = _round_pt([mpmath.mpf(dec(v)) for v in x0])
            try:
                v = fn([mpv(s) for s in xs])
                bad = not (isinstance(v, mpmath.mpf) and mpmath.isfinite(v))
                why = f"value {v}"
            except (ZeroDivisionError, ValueError, TypeError, ArithmeticError) as err:
                bad, why = True, f"{type(err).__name__} {err}".strip()
        if bad:
            return {"condition": "defined", "x": xs, "function": name, "evaluation": why}
        return None

    def jump(self, x0):
        """A pair straddling a piece boundary across which f or B jumps."""
        return self.smooth(x0, centred=True) or self.cover(x0, centred=True)
