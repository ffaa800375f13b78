"""The working precision of the claims' reference computations and two small mpmath helpers."""
from __future__ import annotations

from fractions import Fraction

import mpmath as mp

DPS = 50  # working precision (decimal digits) of every mpmath reference computation


def rel_err(a, b):
    a, b = mp.mpf(a), mp.mpf(b)
    return abs(a - b) / max(abs(b), mp.mpf(10) ** (-40))


def mpq(x):
    """mpf from int/str/float/Fraction/mpf."""
    if isinstance(x, Fraction):
        return mp.mpf(x.numerator) / x.denominator
    return mp.mpf(x)
