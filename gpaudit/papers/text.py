"""Decimal strings for the claims' evidence and witnesses."""
from __future__ import annotations

from fractions import Fraction

import mpmath as mp

from .precision import DPS


def dec(x, digits: int = 25) -> str:
    """A decimal string for ints, Fractions, floats and mpf values."""
    if isinstance(x, str):
        return x
    if isinstance(x, bool):
        return str(x)
    if isinstance(x, int):
        return str(x)
    if isinstance(x, Fraction):
        if x.denominator == 1:
            return str(x.numerator)
        with mp.workdps(digits + 10):
            return mp.nstr(mp.mpf(x.numerator) / x.denominator, digits)
    with mp.workdps(max(digits + 10, DPS)):
        v = mp.mpf(x)
        if mp.isinf(v):
            return "inf" if v > 0 else "-inf"
        return mp.nstr(v, digits)


def wit(**kw) -> dict[str, str]:
    return {k: dec(v) for k, v in kw.items()}
