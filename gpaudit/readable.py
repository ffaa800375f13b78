"""Exact numbers as a person reads them on a terminal line or in a report (display only: nothing
here decides anything)."""

from __future__ import annotations

from fractions import Fraction


def readable_exact(text: str) -> str:
    """An exact claim value for a terminal line: a YAML float was taken at its exact binary value
    (3602879701896397/36028797018963968 for 0.1), which is shown as the shortest decimal that
    reads back to that double, marked as such; anything else as it is."""
    try:
        v = Fraction(text)
    except (TypeError, ValueError, ZeroDivisionError):
        return str(text)
    den = v.denominator
    if den > 1024 and den & (den - 1) == 0:   # a power of two: a binary fraction
        try:
            f = float(v)
        except OverflowError:
            return str(text)
        if Fraction(f) == v:
            return f"{f!r} (binary64)"
    return str(text)
