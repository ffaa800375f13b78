"""gpaudit's own closed-form smooth sensitivities, as the claims evaluate them.

The closed forms of the built-in queries (``gpaudit.model.bounds``: ``threshold_bound``,
``bounded_range_bound``, ``two_way_bound``) are the ones the certificates use.  A claim about such a
closed form checks the paper's formula, re-typed as printed, against an independent computation, and
evaluates the model's closed form against the same computation here, so that its verdict also speaks
about the form gpaudit uses.
"""
from __future__ import annotations

from functools import lru_cache

import mpmath as mp

from .registry import Outcome
from .text import dec

# the built-in query kinds with a closed-form B* -> the dimension of their input and the model's function
MODEL_FORMS = {
    "soft_threshold": (1, "gpaudit.model.bounds.threshold_bound"),
    "bounded_range": (1, "gpaudit.model.bounds.bounded_range_bound"),
    "two_way_threshold": (2, "gpaudit.model.bounds.two_way_bound"),
}
MODEL_TOL = mp.mpf(10) ** -12  # largest relative difference accepted between the model and the reference


def _exact(v):
    """The sympy Rational equal to an mpf (or an int, a decimal string) exactly."""
    import sympy as sp
    v = mp.mpf(v)
    man, exp = v.man_exp  # |v| = man 2^exp
    return (-1 if v < 0 else 1) * sp.Integer(man) * sp.Integer(2) ** exp


@lru_cache(maxsize=None)
def _lowered(kind: str, gamma, fields: tuple):
    from ..model.bounds import smooth_sensitivity_closed_form
    from ..model.lower import to_mpmath
    from ..spec.types import input_symbols

    expr = smooth_sensitivity_closed_form(kind, {k: _exact(v) for k, v in fields}, _exact(gamma), "exponential")
    return to_mpmath(expr, input_symbols(MODEL_FORMS[kind][0]))


def model_bstar(kind: str, x, gamma, **fields):
    """The model's closed-form B*(x) of the built-in query ``kind`` with parameters ``fields`` (exponential
    growth, Lambda = inf), at the point x (a number in one dimension, a pair in two), in mpmath."""
    point = list(x) if MODEL_FORMS[kind][0] > 1 else [x]
    return _lowered(kind, mp.mpf(gamma), tuple(sorted((k, mp.mpf(v)) for k, v in fields.items())))(point)


def with_model(out: Outcome, kind: str, worst, n: int, against: str) -> Outcome:
    """Add to ``out`` the model's closed form's max relative difference ``worst`` over ``n`` points
    from ``against`` (the independent reference).  A verified claim whose model form disagrees becomes
    unknown: the paper's formula holds, but the form the certificates use was not confirmed."""
    name = MODEL_FORMS[kind][1]
    note = (f"gpaudit's closed form ({name}, the one the certificates use) against {against}: "
            f"{n} points, max rel. diff {dec(worst, 3)}")
    if worst < MODEL_TOL:
        out.evidence = out.evidence.rstrip(". ") + ". " + note
        return out
    note = note.replace("max rel. diff", "MODEL DIFFERS, max rel. diff")
    if out.verdict == "verified":
        return Outcome("unknown", out.evidence.rstrip(". ") + ". " + note, condition=out.condition, method=out.method)
    out.evidence = out.evidence.rstrip(". ") + ". " + note
    return out
