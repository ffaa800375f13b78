"""Numbers with a named direction.

Every conversion that can lose information says which way it rounds, and the kernel picks the
direction that costs privacy: an upper bound (a certified rate, a proved constant) may only move
up, a lower bound (an exhibited rate) only down.

- `exact(v)`: an mpf, Fraction, int or sympy number as an exact sympy number (an mpf IS a
  dyadic rational, so nothing is lost; nothing is truncated).
- `up(v)` / `down(v)`: an mpf >= / <= the exact value of a sympy expression (an arb enclosure,
  outward rounded, its end point taken), at `bits` of precision.
- `le(a, b)`: a sound decision of a <= b for exact values: True only when proved (exactly for
  rationals, by structural equality, else by arb enclosures that exclude the other side), False
  only when a > b is proved, None otherwise (no heuristic rewriting decides anything).
- `decimal_up(v)` / `decimal_down(v)`: decimal strings for reports, rounded up / down.
"""

from __future__ import annotations

from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal, localcontext
from fractions import Fraction

import mpmath
import sympy as sp
from flint import arb, ctx

from .arbexpr import to_arb

BITS = 256


def exact(v) -> sp.Expr:
    """The exact value of v as a sympy number (mpf and float by their binary value)."""
    if isinstance(v, mpmath.mpf):
        if not mpmath.isfinite(v):
            raise ValueError(f"not a finite number: {v}")
        sign, man, exp, _ = v._mpf_           # the exact binary value (-1)^sign * man * 2^exp
        man = -int(man) if sign else int(man)
        return sp.Rational(man * 2**exp) if exp >= 0 else sp.Rational(man, 2**(-exp))
    if isinstance(v, float):
        return sp.Rational(*Fraction(v).as_integer_ratio())
    if isinstance(v, Fraction):
        return sp.Rational(v.numerator, v.denominator)
    if isinstance(v, int):
        return sp.Integer(v)
    return sp.sympify(v)


def _mpf_of_exact_arb(a: arb) -> mpmath.mpf:
    man, exp = a.man_exp()
    with mpmath.workprec(max(64, int(man).bit_length() + 8)):
        return mpmath.ldexp(mpmath.mpf(int(man)), int(exp))


def enclose(v, bits: int = BITS, end=None) -> arb:
    """An arb ball containing the exact value of v (or its `end`, arb.lower or arb.upper, taken at
    the same precision: outside it, arb would round that end to the caller's); raises ValueError
    when it cannot."""
    old = ctx.prec
    ctx.prec = bits
    try:
        e = exact(v)
        b = to_arb(e)
        if not b.is_finite() or b.is_nan():
            raise ValueError(f"no finite enclosure of {e}")
        return b if end is None else end(b)
    finally:
        ctx.prec = old


def up(v, bits: int = BITS) -> mpmath.mpf:
    """An mpf >= the exact value of v (exactly v when v is an mpf)."""
    return _rounded(v, bits, "c", arb.upper)


def down(v, bits: int = BITS) -> mpmath.mpf:
    """An mpf <= the exact value of v (exactly v when v is an mpf)."""
    return _rounded(v, bits, "f", arb.lower)


def _rounded(v, bits: int, rounding: str, end) -> mpmath.mpf:
    """v rounded at `bits` bits: a rational in mpmath's `rounding` ("c" ceiling, "f" floor), any
    other value by the `end` (arb.upper, arb.lower) of its arb enclosure."""
    if isinstance(v, mpmath.mpf):
        return v
    e = exact(v)
    if e.is_Rational:
        with mpmath.workprec(bits):
            return mpmath.mpf(mpmath.libmp.from_rational(int(e.p), int(e.q), bits, rounding))
    return _mpf_of_exact_arb(enclose(e, bits, end))


def le(a, b) -> bool | None:
    """Sound a <= b: True proved, False (a > b) proved, None undecided."""
    a, b = exact(a), exact(b)
    if a.is_Rational and b.is_Rational:
        return bool(a <= b)
    d = a - b
    if d.is_Rational:
        return bool(d <= 0)
    for bits in (BITS, 4 * BITS):
        try:
            enc = enclose(d, bits)
        except ValueError:
            return None
        if enc <= 0:
            return True
        if enc > 0:
            return False
    if a == b:   # the same expression (structural equality): an exact tie no enclosure can show
        return True
    return None


def _decimal(v, digits: int, rounding) -> str:
    if v is None:
        return None
    if isinstance(v, mpmath.mpf) and not mpmath.isfinite(v):
        return str(v)
    if not isinstance(v, mpmath.mpf):
        q = exact(v)
        v = None if q.is_Rational else up(q) if rounding == ROUND_CEILING else down(q)
    if v is not None:
        # beyond 10^(+-10^8) no decimal string is printed exactly: give a bound in the named direction
        sign, man, exp, bc = v._mpf_
        if man and abs(exp + bc) > 3 * 10**8:
            huge = exp + bc > 0
            if rounding == ROUND_CEILING:
                return ("-1e99999999" if sign else "inf") if huge else ("-0" if sign else "1e-99999999")
            return ("-inf" if sign else "1e99999999") if huge else ("-1e-99999999" if sign else "0")
        q = exact(v)
    with localcontext() as c:
        c.prec = digits
        c.rounding = rounding
        c.Emin, c.Emax = -10**9, 10**9
        d = Decimal(int(q.p)) / Decimal(int(q.q))   # one division, rounded in the named direction
        return format(d.normalize(), "g") if d != 0 else "0"


def decimal_up(v, digits: int = 30) -> str:
    """A decimal string >= v, with at most `digits` significant digits."""
    return _decimal(v, digits, ROUND_CEILING)


def decimal_down(v, digits: int = 30) -> str:
    """A decimal string <= v, with at most `digits` significant digits."""
    return _decimal(v, digits, ROUND_FLOOR)
