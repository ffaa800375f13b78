"""The machinery behind gpaudit's noise families: a family's ``Density`` (its one definition, in
``gpaudit.model.family_defs``) and everything derived from it (``NoiseFamily``).

Each family is defined once, symbolically, in ``gpaudit.model.family_defs``: ln h(u) on u >= 0 as
exact sympy expressions, piece by piece between exact break points, and the exact log normalising
constant (a ``Density``). Everything else is derived from that definition here, once per family
instance (``_derive``), never per call:

- the score |psi| = -d/du ln h per piece (sympy diff), as a ratio of sums c u^q;
- the tail chart of the certificate, |psi(1/s)| and u |psi(u)| at u = 1/s as ratios of sums of
  non-negative powers of s, hence continuous at s = 0 (infinite there exactly when the family's
  score or u psi(u) grows without bound);
- whether 0 is a piece boundary (psi odd-analytic at 0 or not) and whether u psi(u) is unbounded;
- the score as a sympy rational function for z3 (``rational_score_pieces``);
- evaluators in mpmath, arb, arb power series and numpy (``gpaudit.model.family_eval``).

All densities are even and non-increasing in |u| (checked when a family is derived: |psi| >= 0 on
each piece). Hence psi is odd, psi <= 0 on u > 0, and on u >= 0 the density is described piece by
piece: the formula for |psi| may change only at the points returned by
:meth:`NoiseFamily.is_piece_boundary`.

Float64 overrides. The float screens evaluate millions of densities; where the derived numpy form
overflows (u^p, u*u far in the tails) a family keeps a hand-written, numerically stable
``_logpdf_abs_np`` / ``_abs_score_np``. ``float64_overrides(family)`` lists them, and
tests/pipeline/test_family_definitions.py compares each with the derived form on random and extreme
arguments. There is no hand-written mpmath or arb path: those are always the derived ones.

Checked numerically (tests/pipeline/test_families.py): every density integrates to 1, including the
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
from flint import arb, ctx

from .family_eval import Program
from .lower import to_arb as lower_to_arb

__all__ = ["NoiseFamily", "Density", "float64_overrides", "exact_number", "to_arb", "to_mpf", "U", "S"]

U = sympy.Symbol("u", nonnegative=True)  # the standardised output |z| of the definitions
S = sympy.Symbol("s", nonnegative=True)  # the tail chart s = 1/u


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


def scale_bits(v) -> int:
    """ceil(|log2 v|) of an exact positive number: how many bits its scale lies from 1."""
    return int(mpmath.ceil(abs(mpmath.log(mpmath.mpf(sympy.N(v, 20)), 2))))


def to_arb(expr: sympy.Expr) -> arb:
    """Rigorous arb ball for an exact sympy number (rationals, pi, E, +, *, powers, exp, log)."""
    return lower_to_arb(sympy.sympify(expr))


def to_mpf(expr: sympy.Expr) -> mpmath.mpf:
    """mpmath value of an exact sympy number at the current mpmath precision."""
    if expr.is_Rational:
        return mpmath.mpf(int(expr.p)) / int(expr.q)
    return mpmath.mpf(sympy.N(expr, mpmath.mp.dps + 10))


def _abs_range(u: arb) -> tuple[arb, arb]:
    """Exact end points [lo, hi] of {|v| : v in u}."""
    lo, hi = u.lower(), u.upper()
    a, b = abs(lo), abs(hi)
    big = a if a >= b else b
    if lo <= 0 <= hi:
        return arb(0), big
    return (b if a >= b else a), big


# ---------------------------------------------------------------------------------------------
# The definition of a family


@dataclass(frozen=True)
class Density:
    """ln h(u) on u >= 0 of a symmetric density h, in the family's parameter symbols.

    pieces[k] is ln of the un-normalised density on [b_k, b_{k+1}] (b_0 = 0, b_K = inf), with
    breaks = (b_1, ..., b_{K-1}) exact, increasing, in (0, 1) for every valid parameter value;
    log_norm is ln c, c the constant multiplying exp(pieces[k]). Write ln's of 1 + x as
    log1p(x) (``gpaudit.model.family_eval.log1p``) and constant powers as exp(q log1p(r)) where
    accuracy near r = -1 matters; the score -d/du pieces[k] must be a ratio of sums c u^q.
    """

    pieces: tuple
    log_norm: sympy.Expr
    breaks: tuple = ()


class lazy_class_attribute:
    """A class attribute built on first access, then stored on its class in place of this object
    (a family's ``density``: building its sympy expressions would cost every import, and a run
    uses one or two families).  Assign it without a ClassVar annotation: a dataclass reads the
    value of every annotated class attribute when the class is made."""

    def __init__(self, build):
        self.build = build

    def __set_name__(self, owner, name):
        self.owner, self.name = owner, name

    def __get__(self, obj, cls=None):
        value = self.build()
        setattr(self.owner, self.name, value)
        return value


@dataclass(frozen=True)
class _Ratio:
    """sum(c u^q for c, q in num) / sum(c u^q for c, q in den), c and q exact numbers."""

    num: tuple
    den: tuple

    @staticmethod
    def poly(terms, var):
        return sympy.Add(*[c * var**q for c, q in terms])

    def expr(self, var):
        return self.poly(self.num, var) / self.poly(self.den, var)

    def times_u(self) -> "_Ratio":
        return _Ratio(tuple((c, q + 1) for c, q in self.num), self.den)

    @staticmethod
    def degree(terms) -> sympy.Expr:
        return _largest([q for _, q in terms])

    def at_infinity(self) -> "_Ratio":
        """The same function of s = 1/u, both sums multiplied by s^K (K the largest exponent), so
        that every power of s is >= 0: finite at s = 0 unless the numerator outgrows the
        denominator (then the denominator vanishes at s = 0)."""
        top = _largest([q for _, q in self.num + self.den])
        return _Ratio(tuple((c, top - q) for c, q in self.num), tuple((c, top - q) for c, q in self.den))

    def unbounded(self) -> bool:
        """Whether the ratio grows without bound as u -> inf."""
        return bool(self.degree(self.num) > self.degree(self.den))


def _largest(numbers):
    """The largest of exact sympy numbers (exact comparisons)."""
    best = numbers[0]
    for q in numbers[1:]:
        if bool(q > best):
            best = q
    return best


def _monomial(term):
    """(c, q) with term = c u^q, c free of u; ValueError otherwise."""
    coeff, q = [], sympy.Integer(0)
    for f in sympy.Mul.make_args(term):
        if not f.has(U):
            coeff.append(f)
        elif f == U:
            q += 1
        elif f.is_Pow and f.base == U and not f.exp.has(U):
            q += f.exp
        else:
            raise ValueError(f"not a power of u: {f}")
    return sympy.Mul(*coeff), q


def _terms(poly) -> tuple:
    """A sum of c u^q as ((c, q), ...), equal powers combined, zero terms dropped."""
    for p in poly.atoms(sympy.Pow):
        if p.base.is_Add and p.exp.is_Integer and abs(p.exp) > 8:
            raise ValueError(f"refusing to expand {p}")
    collected: dict = {}
    for term in sympy.Add.make_args(sympy.expand(poly)):
        c, q = _monomial(term)
        collected[q] = collected.get(q, 0) + c
    return tuple((c, q) for q, c in collected.items() if c != 0)


def _value_mp(terms, x):
    """sum c x^q at 30 digits (for signs only)."""
    with mpmath.workdps(30):
        x = to_mpf(sympy.sympify(x))
        return sum(to_mpf(c) * mpmath.exp(to_mpf(q) * mpmath.log(x)) for c, q in terms)


def _ratio(expr, point, label) -> _Ratio:
    """expr (numbers only) as a _Ratio whose denominator is positive at the interior point."""
    num, den = sympy.fraction(sympy.together(expr))
    r = _Ratio(_terms(num), _terms(den))
    if not r.den:
        raise ValueError(f"{label}: the score has a zero denominator")
    # scale both sums so that the denominator's leading coefficient is +-1 (1 + u, not
    # 10^30 u + 10^30: float64 overflows on the latter)
    lead = abs(next(c for c, q in r.den if q == r.degree(r.den)))
    if lead != 1:
        r = _Ratio(tuple((c / lead, q) for c, q in r.num), tuple((c / lead, q) for c, q in r.den))
    top, bottom = _value_mp(r.num, point), _value_mp(r.den, point)
    if bottom < 0:
        r, top, bottom = _Ratio(tuple((-c, q) for c, q in r.num), tuple((-c, q) for c, q in r.den)), -top, -bottom
    if not bottom > 0 or top < 0:
        raise ValueError(f"{label}: |psi| = -d/du ln h must be >= 0 (h non-increasing in |u|)")
    return r


# ---------------------------------------------------------------------------------------------
# What is derived from a definition, once per family instance


_SYMBOLIC: dict = {}  # family class -> (density, symbolic |psi| per piece)


def _symbolic(cls):
    hit = _SYMBOLIC.get(cls)
    if hit is None or hit[0] is not cls.density:
        dens = cls.density
        hit = _SYMBOLIC[cls] = (dens, tuple(-sympy.diff(piece, U) for piece in dens.pieces))
    return hit[1]


_Z3_MAX_DEGREE = 1024


class _Derived:
    """The derived forms of one family at its exact parameters (see the module docstring)."""

    def __init__(self, family: "NoiseFamily"):
        dens = type(family).density
        params = family.params()
        symbols = set()
        for e in (*dens.pieces, dens.log_norm, *dens.breaks):
            symbols |= sympy.sympify(e).free_symbols - {U}
        unknown = [s.name for s in symbols if s.name not in params]
        if unknown:
            raise ValueError(f"definition of {family.name}: unknown parameters {unknown}")
        values = {s: params[s.name] for s in symbols}
        unused = sorted(set(params) - {s.name for s in symbols})
        if unused:
            raise ValueError(f"definition of {family.name}: the density does not use {unused}")
        label = f"definition of {family.name}"
        if len(dens.breaks) != len(dens.pieces) - 1:
            raise ValueError(f"{label}: {len(dens.pieces)} pieces need {len(dens.pieces) - 1} breaks")
        self.breaks = [sympy.sympify(b).xreplace(values) for b in dens.breaks]
        ends = [sympy.Integer(0), *self.breaks, sympy.Integer(1)]
        if not all(a < b for a, b in zip(ends, ends[1:])):
            raise ValueError(f"{label}: breaks must increase within (0, 1), got {self.breaks}")
        points = [(a + b) / 2 for a, b in zip(ends, ends[1:])]  # one inside each piece
        self.ratios = [_ratio(psi.xreplace(values), points[k], f"{label}, piece {k}")
                       for k, psi in enumerate(_symbolic(type(family)))]
        last = self.ratios[-1]
        self.tail_a = last.at_infinity()  # |psi(1/s)|
        self.tail_b = last.times_u().at_infinity()  # u |psi(u)| at u = 1/s
        first = self.ratios[0]
        odd = all(q.is_Integer and q >= 0 and q % 2 == 1 for _, q in first.num)
        even = all(q.is_Integer and q >= 0 and q % 2 == 0 for _, q in first.den)
        self.smooth_at_zero = odd and even
        self.u_score_unbounded = last.times_u().unbounded()
        self.score_unbounded = last.unbounded()
        # evaluators
        self.logpdf = [Program(dens.log_norm + piece, U, values) for piece in dens.pieces]
        self.log_norm = Program(dens.log_norm, U, values)
        self.abs_score = [Program(r.expr(U), U, {}) for r in self.ratios]
        if self.tail_a.den == self.tail_b.den:  # one denominator, evaluated once per box
            self.tail = tuple(Program(_Ratio.poly(t, S), S, {})
                              for t in (self.tail_a.num, self.tail_b.num, self.tail_a.den))
        else:
            self.tail = (Program(self.tail_a.expr(S), S, {}), Program(self.tail_b.expr(S), S, {}))
        self.values = values
        self._break_cache: dict = {}
        self._constants: dict = {}

    def breaks_mp(self):
        key = ("mp", mpmath.mp.prec)
        hit = self._break_cache.get(key)
        if hit is None:
            hit = self._break_cache[key] = [to_mpf(b) for b in self.breaks]
        return hit

    def breaks_arb(self):
        key = ("arb", ctx.prec)
        hit = self._break_cache.get(key)
        if hit is None:
            hit = self._break_cache[key] = [to_arb(b) for b in self.breaks]
        return hit

    def breaks_np(self):
        hit = self._break_cache.get("np")
        if hit is None:
            hit = self._break_cache["np"] = [float(b) for b in self.breaks]
        return hit

    def constant(self, expr) -> Program:
        """A constant expression in the parameter symbols, compiled once."""
        hit = self._constants.get(expr)
        if hit is None:
            hit = self._constants[expr] = Program(expr, U, self.values)
        return hit


_DERIVED: dict = {}
_DERIVED_MAX = 512


def _derive(family: "NoiseFamily") -> _Derived:
    hit = _DERIVED.get(family)
    if hit is None:
        hit = _Derived(family)
        if len(_DERIVED) >= _DERIVED_MAX:
            _DERIVED.pop(next(iter(_DERIVED)))
        _DERIVED[family] = hit
    return hit


# ---------------------------------------------------------------------------------------------
# The base class


@dataclass(frozen=True)
class NoiseFamily:
    """A symmetric unimodal noise family at location 0, scale 1, given by its ``density``.

    A subclass (``gpaudit.model.family_defs``) declares its shape parameters as dataclass fields,
    its ``density`` (class attribute), ``check`` (parameter constraints), the survival function
    on u >= 0 (``_sf_pos_mp``, ``_sf_pos_np``), ``variance_mp`` and the sampler, and where they
    apply the papers' closed-form rates (``paper_rates``) and its own small scales
    (``scale_bits``). Everything else is derived; the float64 forms may be overridden (see the
    module docstring).
    """

    name: ClassVar[str] = ""
    density: ClassVar[Density]

    def __post_init__(self):
        for f in dataclasses.fields(self):
            object.__setattr__(self, f.name, exact_number(f.name, getattr(self, f.name)))
        self.check()

    def check(self) -> None:
        """Raise ValueError("<field>: <problem>") for parameters outside the family's domain."""

    # -- shape ---------------------------------------------------------------------------------
    def params(self) -> dict[str, sympy.Expr]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    @property
    def derived(self) -> _Derived:
        return _derive(self)

    def paper_rates(self, eta: sympy.Expr, gamma: sympy.Expr) -> list:
        """The papers' closed-form rates for this family with noise weight eta and growth gamma,
        [(citation, value: exact sympy or mpmath)], only where their stated hypotheses hold (the
        numbers a report shows beside the certified bound; none of them certifies anything)."""
        return []

    def scale_bits(self) -> int:
        """Bits of the family's own small scales beyond its pieces' boundaries, which the rate
        enclosure's boxes must resolve (gpaudit.certify.family_sup); 0 for none."""
        return 0

    def is_piece_boundary(self) -> list[sympy.Expr]:
        """Points u >= 0 where the density formula changes (or is not smooth)."""
        d = self.derived
        return ([] if d.smooth_at_zero else [sympy.Integer(0)]) + list(d.breaks)

    @property
    def u_score_unbounded(self) -> bool:
        """u psi(u) grows without bound (Laplace: u psi = -|u|): then the smooth term c |1 + u psi|
        of the pure rate is unbounded for any c > 0 (only what a report says depends on it)."""
        return self.derived.u_score_unbounded

    @property
    def score_unbounded(self) -> bool:
        """|psi(u)| grows without bound (Gaussian: |psi| = |u|): then eta a |psi| of the pure rate
        is unbounded for any eta a > 0."""
        return self.derived.score_unbounded

    def rational_score_pieces(self):
        """[(lo, hi, |psi(u)| as a sympy rational function of U)] on u >= 0, or None where a piece
        is not a rational function of u (a non-integer power, or a degree above 1024)."""
        d = self.derived
        for r in d.ratios:
            for _, q in r.num + r.den:
                if not (q.is_Integer and 0 <= q <= _Z3_MAX_DEGREE):
                    return None
        ends = [sympy.Integer(0), *d.breaks, sympy.oo]
        return [(ends[k], ends[k + 1], r.expr(U)) for k, r in enumerate(d.ratios)]

    # -- log-density and score, float64 -------------------------------------------------------
    def logpdf_np(self, u, overwrite_u=False) -> np.ndarray:
        """ln h(u) in float64.  overwrite_u: u is a float64 array its caller no longer needs, and
        |u| is written into it (one array less; the same values)."""
        u = np.asarray(u, dtype=float)
        return self._logpdf_abs_np(np.abs(u, out=u) if overwrite_u else np.abs(u))

    def score_np(self, u) -> np.ndarray:
        u = np.asarray(u, dtype=float)
        return -np.sign(u) * self._abs_score_np(np.abs(u))

    def _logpdf_abs_np(self, x):
        """ln h(x) for x >= 0, derived form (a family may override it: float64_overrides)."""
        return self._derived_np(self.derived.logpdf, x)

    def _abs_score_np(self, x):
        """|psi(x)| for x >= 0, derived form (a family may override it: float64_overrides)."""
        return self._derived_np(self.derived.abs_score, x)

    def _derived_np(self, programs, x):
        x = np.asarray(x, dtype=float)
        with np.errstate(all="ignore"):
            out = programs[0].np(x)
            for b, prog in zip(self.derived.breaks_np(), programs[1:]):
                out = np.where(x >= b, prog.np(x), out)
        return out

    @cached_property
    def _log_c_np(self) -> float:
        """ln c in float64 (computed once per family instance at 30 digits; every float64 density
        evaluation reads it).  A float in the instance's dict: a pickled family carries it."""
        return float(self.derived.log_norm.np(np.zeros(())))

    # -- any backend, one piece ----------------------------------------------------------------
    def _logpdf_piece(self, x, k):
        """ln h(x) on piece k; x an mpf, an arb ball or an arb_series."""
        return self.derived.logpdf[k](x)

    def _abs_score_piece(self, x, k):
        """|psi(x)| on piece k; x an mpf, an arb ball or an arb_series."""
        return self.derived.abs_score[k](x)

    # -- mpmath --------------------------------------------------------------------------------
    def logpdf_mp(self, u) -> mpmath.mpf:
        x = abs(mpmath.mpf(u))
        return self.derived.logpdf[self._piece_of_mp(x)].mpf(x)

    def score_mp(self, u) -> mpmath.mpf:
        u = mpmath.mpf(u)
        x = abs(u)
        return -mpmath.sign(u) * self.derived.abs_score[self._piece_of_mp(x)].mpf(x)

    def _piece_of_mp(self, x: mpmath.mpf) -> int:
        k = 0
        for b in self.derived.breaks_mp():
            if x >= b:
                k += 1
        return k

    # -- arb -----------------------------------------------------------------------------------
    def _piece_ranges(self, lo: arb, hi: arb):
        """Yield (piece, ball) covering the pieces that [lo, hi] (exact ends, >= 0) may meet."""
        ends = [arb(0)] + self.derived.breaks_arb() + [None]
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
                val = self.derived.logpdf[k].arb(x)
                out = val if out is None else out.union(val)
        return out

    def score_arb(self, u: arb) -> arb:
        """Ball containing psi(v) for all v in u (hull over pieces; psi odd, <= 0 on v > 0)."""
        if not u.is_finite():
            return arb.nan()
        lo, hi = _abs_range(u)
        mag = None
        for k, x in self._piece_ranges(lo, hi):
            val = self.derived.abs_score[k].arb(x)
            mag = val if mag is None else mag.union(val)
        if u > 0:
            return -mag
        if u < 0:
            return mag
        return mag.union(-mag)

    # -- certificate hooks (used by gpaudit.certify.family_sup) -------------------------------
    def score_parts_pos(self, x, piece: int):
        """(|psi(x)|, 1 + x psi(x)) for x > 0 in ``piece``; x an arb ball or arb_series."""
        a = self.derived.abs_score[piece](x)
        return a, 1 - x * a

    def score_parts_tail(self, s):
        """(|psi(1/s)|, 1 + psi(1/s)/s) for 0 <= s <= 1; s an arb ball or arb_series.

        Derived from the last piece: |psi(u)| and u |psi(u)| as ratios of sums of non-negative
        powers of s (``_Ratio.at_infinity``), so that a ball [0, s1] encloses the whole tail
        [1/s1, inf); where the family's rate is unbounded the ball is not finite."""
        tail = self.derived.tail
        if len(tail) == 3:
            num_a, num_b, den = tail
            d = den(s)
            return num_a(s) / d, 1 - num_b(s) / d
        a, b = tail
        return a(s), 1 - b(s)

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

    def _sf_pos_mp(self, x):
        raise NotImplementedError

    def _sf_pos_np(self, x):
        raise NotImplementedError

    # -- moments and constants -----------------------------------------------------------------
    def log_norm_const_mp(self) -> mpmath.mpf:
        """ln c, c the constant multiplying the un-normalised density shape."""
        return self.derived.log_norm.mpf(mpmath.mpf(0))

    def constant_mp(self, expr) -> mpmath.mpf:
        """A constant expression in the family's parameter symbols, at the working precision."""
        return self.derived.constant(expr).mpf(mpmath.mpf(0))

    def variance_mp(self) -> mpmath.mpf:
        raise NotImplementedError

    def sample(self, rng: np.random.Generator, size) -> np.ndarray:
        raise NotImplementedError


_OVERRIDABLE = ("_logpdf_abs_np", "_abs_score_np")


def float64_overrides(family) -> list[str]:
    """Names of the derived float64 forms that the family's class overrides by hand."""
    cls = family if isinstance(family, type) else type(family)
    return [name for name in _OVERRIDABLE if getattr(cls, name) is not getattr(NoiseFamily, name)]
