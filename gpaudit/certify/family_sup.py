"""Rigorous enclosure of the certificate rate of a noise family.

If |grad f| <= a B and |grad ln B| <= c (per unit distance), the mechanism
M(x) = f(x) + (B(x)/eta) Z has privacy-loss rate at most

    R = sup_u g(u),    g(u) = eta a |psi(u)| + c |1 + u psi(u)|,

(for a radial family in R^k, output.dim k: c |k + u psi(u)|, u the radius),

psi = h'/h the score of Z (docs/certificate.md). ``enclose_rate``
encloses R with python-flint arb: ``lower`` is attained (g at an explicit u_star) and ``upper``
is a guaranteed bound; NaN or infinity never becomes a finite ``upper`` (fail closed).

Symmetry. Every family's density h is even, so psi is odd: |psi(-u)| = |psi(u)| and
(-u) psi(-u) = u psi(u), hence g(-u) = g(u) and the supremum over R equals the one over u >= 0.

Compactification. [0, inf] is covered by two charts, u in [0, 1] and s = 1/u in [0, 1]; this
is the compactification t = u/(1+u) in [0, 1] cut at t = 1/2 (the t-box [t0, 1] is exactly the
s-box [0, (1-t0)/t0]), but boxes stay exact rationals in the variable the formulas use. In
the s chart the family supplies |psi(1/s)| and 1 + psi(1/s)/s in a form that extends
continuously to s = 0 (``NoiseFamily.score_parts_tail``, derived from the family's definition:
the score's last piece as a ratio of sums c u^q, both sums multiplied by s^K so that every power
of s is >= 0). An arb evaluation over a ball [0, s1] therefore encloses g on the whole tail
[1/s1, inf) -- the tail is bounded, never dropped -- and when g grows without bound (Laplace
with c > 0, the Gaussian) the ball is infinite and so is ``upper``.

Branch and bound. Boxes are split at the family's piece boundaries (psi's formula changes
there; a box whose piece cannot be decided is evaluated with ``score_arb``'s hull over both
pieces). On a box the bound is the smaller of (i) the plain interval evaluation of g and (ii) a
Taylor form: where 1 + u psi has a known sign sigma, g = eta a |psi| + sigma c (1 + u psi) is
analytic, and with arb power series

    g(m + d) in  sum_{k<n} g_k(m) d^k + g_n(X) d^n,   |d| <= r,

g_k the Taylor coefficients (at the exact box midpoint m, resp. enclosed over the whole box X).
The quadratic part is maximised exactly. The box with the largest upper end is split until
upper - lower <= tol, the box budget is spent, or the box cannot be split further; the answer
is the largest upper end among the boxes left, with every number kept as an exact dyadic
rational (no rounding outside arb's outward-rounded balls).

Point u = 0 (Laplace, PolyPlace, GenCauchy with p not even): the piece formula is evaluated on
the closed box [0, b], i.e. with psi's one-sided limit; since g(0) = c <= eta a |psi(0+)| + c,
this only over-covers.
"""

from __future__ import annotations

import heapq
import itertools
from dataclasses import dataclass
from fractions import Fraction

import mpmath
from flint import arb, arb_series, ctx, fmpq
from mpmath.libmp import from_man_exp

from gpaudit.model.families import NoiseFamily, exact_number, scale_bits, to_arb, to_mpf

__all__ = ["SupEnclosure", "enclose_rate", "paper_constants"]

_PREC = 128  # arb working precision (bits)
_ORDER = 4  # Taylor order n of the Taylor form
_MIN_WIDTH = Fraction(1, 2**64)  # boxes this narrow are not split again
_REL_TOL = Fraction(1, 10**12)  # the smallest relative tolerance asked of an enclosure
_INF = float("inf")


@dataclass(frozen=True)
class SupEnclosure:
    """lower <= sup_u g(u) <= upper; lower = g(u_star) (arb ball's lower end)."""

    lower: mpmath.mpf
    upper: mpmath.mpf
    u_star: mpmath.mpf
    boxes: int
    method: str


# ---------------------------------------------------------------------------------------------
# Exact dyadic numbers


_EXP_CAP = 1 << 14  # |ends| beyond 2^16384 (or below 2^-16384) are rounded outward to a bound
_BIG, _TINY = Fraction(1 << _EXP_CAP), Fraction(1, 1 << _EXP_CAP)


def _dyadic(man, exp, up: bool):
    """man 2^exp as an exact Fraction, or, where its binary exponent is beyond +-_EXP_CAP (arb
    balls keep any exponent: u^p at p = 1e30 is 2^(-1e30)), rounded outward -- up: to a number
    >= it (+inf above the cap); down: to one <= it -- instead of building a 1e30-bit integer."""
    man, exp = int(man), int(exp)
    if man == 0:
        return Fraction(0)
    top = exp + abs(man).bit_length()
    big, tiny = _BIG, _TINY
    if top > _EXP_CAP:
        if man > 0:
            return _INF if up else big
        return -big if up else -_INF
    if top < -_EXP_CAP:
        if man > 0:
            return tiny if up else Fraction(0)
        return Fraction(0) if up else -tiny
    return Fraction(man) * Fraction(2) ** exp


def _lower_end(x: arb):
    """Exact lower end of a ball as a Fraction (-inf if unbounded or NaN)."""
    if not x.is_finite():
        return -_INF
    man, exp = x.lower().man_exp()
    return _dyadic(man, exp, up=False)


def _upper_end(x: arb):
    """Exact upper end of a ball as a Fraction (+inf if unbounded or NaN: fail closed)."""
    if not x.is_finite():
        return _INF
    man, exp = x.upper().man_exp()
    return _dyadic(man, exp, up=True)


def _mpf(value) -> mpmath.mpf:
    """Exact mpf of a dyadic Fraction (or an infinity)."""
    if value in (_INF, -_INF):
        return mpmath.inf if value > 0 else -mpmath.inf
    den = value.denominator
    shift = den.bit_length() - 1
    assert den == 1 << shift, "not a dyadic rational"
    return mpmath.mp.make_mpf(from_man_exp(value.numerator, -shift, 0))


def _exact_arb(value: Fraction) -> arb:
    return arb(fmpq(value.numerator, value.denominator))


# ---------------------------------------------------------------------------------------------
# The objective on the two charts


@dataclass(frozen=True)
class _Chart:
    """tail=False: the u chart, piece = psi's formula index (None: undecided, use the hull).
    tail=True: the s = 1/u chart."""

    tail: bool
    piece: int | None


class _Objective:
    """g(u) = eta |psi(u)| + gamma |1 + u psi(u)| evaluated on boxes of one chart."""

    def __init__(self, family: NoiseFamily, eta: arb, gamma: arb, eta_zero: bool, gamma_zero: bool):
        self.family = family
        self.eta, self.gamma = eta, gamma
        self.eta_zero, self.gamma_zero = eta_zero, gamma_zero
        # a radial family in R^k: the smooth term is gamma |k + u psi(u)| = gamma |(1 + u psi) + (k - 1)|
        self.shift = int(getattr(family, "k", 1)) - 1

    def _combine(self, a, c, sigma=None):
        """eta a + gamma |c| (sigma None) or eta a + sigma gamma c; zero weights drop out."""
        out = 0
        if not self.eta_zero:
            out = self.eta * a
        if not self.gamma_zero:
            out = out + self.gamma * (abs(c) if sigma is None else sigma * c)
        return out if not isinstance(out, int) else arb(0)

    def parts(self, x, chart: _Chart):
        a, c = self._parts(x, chart)
        return a, (c + self.shift if self.shift else c)

    def _parts(self, x, chart: _Chart):
        if chart.tail:
            return self.family.score_parts_tail(x)
        if chart.piece is None:
            psi = self.family.score_arb(x)
            return abs(psi), 1 + x * psi
        return self.family.score_parts_pos(x, chart.piece)

    def at_u(self, u: arb) -> arb:
        """g at an explicit u through the family's public ``score_arb``."""
        psi = self.family.score_arb(u)
        return self._combine(abs(psi), 1 + self.shift + u * psi)

    def box_upper(self, X: arb, chart: _Chart):
        """Rigorous upper end of g over the ball X (Fraction or +inf)."""
        a, c = self.parts(X, chart)
        best = _upper_end(self._combine(a, c))
        sigma = self._sign(c)
        if sigma is not None and (chart.tail or chart.piece is not None):
            taylor = self._taylor(X, chart, sigma)
            if taylor is not None:
                best = min(best, _upper_end(taylor))
        return best

    def _sign(self, c: arb):
        if self.gamma_zero:
            return 1
        if c > 0:
            return 1
        if c < 0:
            return -1
        return None

    def _series(self, center: arb, length: int, chart: _Chart, sigma: int) -> list[arb]:
        a, c = self.parts(arb_series([center, 1], length), chart)
        out = self._combine(a, c, sigma)
        coeffs = out.coeffs() if isinstance(out, arb_series) else [out]
        return (list(coeffs) + [arb(0)] * length)[:length]

    def _taylor(self, X: arb, chart: _Chart, sigma: int):
        """Taylor-form enclosure of the analytic g on X, or None where it does not apply."""
        m, r = X.mid(), X.rad()
        try:
            whole = self._series(X, _ORDER + 1, chart, sigma)
            mid = self._series(m, _ORDER, chart, sigma)
        except (ValueError, ZeroDivisionError):  # e.g. a series pole inside X
            return None
        if not all(v.is_finite() for v in whole + mid):
            return None
        bound = mid[0] + _quadratic_max(mid[1], mid[2], r)
        for k in range(3, _ORDER):
            bound += abs(mid[k]) * r**k
        return bound + abs(whole[_ORDER]) * r**_ORDER


def _quadratic_max(c1: arb, c2: arb, r: arb) -> arb:
    """Upper bound of c1 d + c2 d^2 over |d| <= r (c1, c2 balls)."""
    a, b = abs(c1).upper(), c2.upper()  # c1 d <= a |d|, c2 d^2 <= b d^2
    if b >= 0 or a >= 2 * (-b) * r:  # maximum at |d| = r
        return a * r + b * r * r
    return a * a / (4 * (-b))  # concave: the vertex value bounds everything


# ---------------------------------------------------------------------------------------------
# Boxes


class _Breaks:
    """psi's piece boundaries on (0, 1), exact where rational."""

    def __init__(self, family: NoiseFamily):
        values = family.is_piece_boundary()
        positive = [b for b in values if b > 0]
        if any(not b < 1 for b in positive):
            raise ValueError("family: piece boundaries must lie below u = 1 (tail chart)")
        self.exact = [fmpq(int(b.p), int(b.q)) if b.is_Rational else to_arb(b) for b in positive]

    def rational_points(self) -> list[Fraction]:
        return [Fraction(int(b.p), int(b.q)) for b in self.exact if isinstance(b, fmpq)]

    def piece(self, lo: Fraction, hi: Fraction) -> int | None:
        """Index k with [lo, hi] inside piece k = [b_k, b_{k+1}], or None if undecided."""
        k = 0
        for b in self.exact:
            if _certainly_le(hi, b):
                return k
            if not _certainly_le(b, lo):
                return None
            k += 1
        return k


def _certainly_le(x, y) -> bool:
    """x <= y for sure; x, y are Fractions, fmpq or arb balls."""
    def as_exact(v):
        return fmpq(v.numerator, v.denominator) if isinstance(v, Fraction) else v
    x, y = as_exact(x), as_exact(y)
    if isinstance(x, fmpq) and isinstance(y, fmpq):
        return x <= y
    return arb(x) <= arb(y)


def _box_ball(lo: Fraction, hi: Fraction) -> arb:
    return _exact_arb(lo).union(_exact_arb(hi))


def _initial_boxes(breaks: _Breaks) -> list[tuple[_Chart, Fraction, Fraction]]:
    points = [Fraction(0)] + breaks.rational_points() + [Fraction(1)]
    head = [(_Chart(False, breaks.piece(lo, hi)), lo, hi) for lo, hi in zip(points, points[1:])]
    return head + [(_Chart(True, None), Fraction(0), Fraction(1))]


def _child_chart(chart: _Chart, breaks: _Breaks, lo: Fraction, hi: Fraction) -> _Chart:
    if chart.tail or chart.piece is not None:
        return chart
    return _Chart(False, breaks.piece(lo, hi))


# ---------------------------------------------------------------------------------------------


def _as_weight(field: str, value) -> tuple[arb, bool]:
    expr = exact_number(field, value)
    if not expr >= 0:
        raise ValueError(f"{field}: must be >= 0, got {expr}")
    return to_arb(expr), bool(expr == 0)


def _explicit_point(chart: _Chart, m: arb) -> arb:
    """The exact u represented by the chart point m (s chart: a dyadic u near 1/m)."""
    return (1 / m).mid() if chart.tail else m


def enclose_rate(family: NoiseFamily, eta_a, gamma_c, tol=1e-9, max_boxes=200000) -> SupEnclosure:
    """Enclose sup_u [eta_a |psi(u)| + gamma_c |1 + u psi(u)|] for the family's score psi.

    eta_a, gamma_c: exact or float weights >= 0 (a float means its binary value).
    ``upper - lower <= tol`` (absolute) on convergence; otherwise ``upper`` is still a rigorous
    bound (possibly +inf, meaning unknown or unbounded).

    The result is a function of the exact inputs alone, so it is kept (in this process) keyed by
    them: a calibration, a sweep or a certificate over many regions with equal constants encloses
    each supremum once.
    """
    try:
        key = (family, eta_a, gamma_c, tol, max_boxes)
        hash(key)
    except TypeError:  # an unhashable weight: just compute
        return _enclose_rate(family, eta_a, gamma_c, tol, max_boxes)
    hit = _RATE_MEMO.get(key)
    if hit is None:
        hit = _enclose_rate(family, eta_a, gamma_c, tol, max_boxes)
        if len(_RATE_MEMO) >= _RATE_MEMO_MAX:
            _RATE_MEMO.pop(next(iter(_RATE_MEMO)))  # the oldest entry
        _RATE_MEMO[key] = hit
    return hit


_RATE_MEMO: dict = {}
_RATE_MEMO_MAX = 4096


def _enclose_rate(family: NoiseFamily, eta_a, gamma_c, tol, max_boxes) -> SupEnclosure:
    tol = exact_number("tol", tol)
    if not tol >= 0:
        raise ValueError(f"tol: must be >= 0, got {tol}")
    extra = _extra_bits(family)
    with ctx.workprec(_PREC + extra):
        eta, eta_zero = _as_weight("eta_a", eta_a)
        gamma, gamma_zero = _as_weight("gamma_c", gamma_c)
        objective = _Objective(family, eta, gamma, eta_zero, gamma_zero)
        return _branch_and_bound(objective, _Breaks(family), Fraction(int(tol.p), int(tol.q)),
                                 max_boxes, _MIN_WIDTH / 2**extra)


def _extra_bits(family: NoiseFamily) -> int:
    """Bits of the family's own small scales, by which the working precision and the smallest box
    width are both extended (an arb radius carries only 30 bits, so a box must be about as narrow
    as the feature it has to resolve).  PolyPlace's 1/alpha lies 1e-200 below the pole u = 1 at
    alpha = 1 + 1e-200: a box [lo, 1/alpha] wider than that touches the pole."""
    extra = family.scale_bits()
    for b in family.is_piece_boundary():
        if b > 0 and b < 1:
            extra = max(extra, scale_bits(1 - b))
    return min(extra, 1100)


def _branch_and_bound(objective: _Objective, breaks: _Breaks, tol: Fraction, max_boxes: int,
                      min_width: Fraction = _MIN_WIDTH):
    heap: list = []
    counter = itertools.count()
    best = {"lower": -_INF, "u": None}
    boxes = 0

    def add(chart: _Chart, lo: Fraction, hi: Fraction):
        nonlocal boxes
        boxes += 1
        X = _box_ball(lo, hi)
        upper = objective.box_upper(X, chart)
        _offer_point(objective, chart, X.mid(), best)
        heapq.heappush(heap, (-upper, next(counter), chart, lo, hi))

    for chart, lo, hi in _initial_boxes(breaks):
        add(chart, lo, hi)
    while boxes < max_boxes:
        neg_upper, _, chart, lo, hi = heap[0]
        # tol is absolute, but never below 1e-12 relative: a rate of 1e30 (theta = 1e30) cannot be
        # enclosed to 1e-9 absolute, and splitting on would only spend the box budget
        floor = abs(best["lower"]) * _REL_TOL if best["lower"] not in (_INF, -_INF) else 0
        if -neg_upper - best["lower"] <= max(tol, floor) or hi - lo <= min_width:
            break
        heapq.heappop(heap)
        mid = (lo + hi) / 2
        add(_child_chart(chart, breaks, lo, mid), lo, mid)
        add(_child_chart(chart, breaks, mid, hi), mid, hi)
    upper = max(-entry[0] for entry in heap)
    method = (f"arb branch-and-bound ({_PREC}-bit balls) on u in [0,1] and s = 1/u in [0,1] "
              f"(t = u/(1+u) cut at 1/2), order-{_ORDER} Taylor forms on analytic pieces, "
              "interval hull elsewhere, tail s -> 0 by the family's closed form in s")
    if best["lower"] > upper:
        # lower comes from score_arb, upper from score_parts_*: they disagree, so one of the
        # family's formulas is wrong. Fail closed.
        upper = _INF
        method += "; INCONSISTENT (attained value above the bound): bound discarded"
    return SupEnclosure(
        lower=_mpf(best["lower"]),
        upper=_mpf(upper),
        u_star=mpmath.nan if best["u"] is None else _mpf(_upper_end(best["u"])),
        boxes=boxes,
        method=method,
    )


def _offer_point(objective: _Objective, chart: _Chart, m: arb, best: dict):
    """Update the attained lower bound with g at the explicit point behind chart point m."""
    u = _explicit_point(chart, m)
    value = _lower_end(objective.at_u(arb(u)))
    if value > best["lower"]:
        best["lower"], best["u"] = value, u


# ---------------------------------------------------------------------------------------------
# Constants claimed in the papers


def paper_constants(family: NoiseFamily, eta, gamma) -> list[tuple[str, mpmath.mpf]]:
    """The papers' closed-form rates for this family (NoiseFamily.paper_rates), as mpmath numbers
    at the current precision: each entry is (citation, value), only where the constant's stated
    hypotheses hold."""
    eta, gamma = exact_number("eta", eta), exact_number("gamma", gamma)
    return [(label, value if isinstance(value, mpmath.mpf) else to_mpf(value))
            for label, value in family.paper_rates(eta, gamma)]
