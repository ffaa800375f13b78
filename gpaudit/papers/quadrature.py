"""High-precision quadrature on the half-line and the line, and the outcome of a quadrature comparison."""
from __future__ import annotations

import mpmath as mp

from .registry import Outcome
from .text import dec, wit


def quad0inf(f):
    """int_0^inf f(y) dy via y = e^s (turns algebraic tails into exponential ones)."""
    return mp.quad(lambda s: f(mp.exp(s)) * mp.exp(s), [-mp.inf, -10, 0, 10, mp.inf])


def quad_line(f, scale=1):
    s = mp.mpf(scale)
    return mp.quad(f, [-mp.inf, -10 * s, -s, 0, s, 10 * s, mp.inf])


def quad_outcome(worst, what, tol=20, cond=None):
    """Outcome of a quadrature comparison: verified if the max rel. error is < 10^-tol."""
    ok = worst < mp.mpf(10) ** -tol
    return Outcome("verified" if ok else "refuted", f"{what}; max rel. error {dec(worst, 3)}",
                   witness=None if ok else wit(max_rel_error=worst), condition=cond)
