"""A `sat` answer's model as exact numbers: a candidate point for the generators (the proof stage's
witness search, the audit's seeds), which verify it in exact arithmetic before it refutes anything.
The kernel reads no model: only `unsat` proves anything (gpaudit.kernel.z3door.solve)."""

from __future__ import annotations

from fractions import Fraction

import z3


def model_value(v) -> Fraction:
    """A model's value as a Fraction (an algebraic number by a 30-digit rational near it)."""
    if z3.is_rational_value(v):
        return Fraction(v.numerator_as_long(), v.denominator_as_long())
    if z3.is_algebraic_value(v):
        dec = v.approx(30)
        return Fraction(dec.numerator_as_long(), dec.denominator_as_long())
    raise ValueError(str(v))


def model_of(s, want_model=()) -> dict:
    """The model of a solver whose answer is `sat`: variable name -> Fraction (the names of
    `want_model` that it leaves free: 0)."""
    model = {}
    m = s.model()
    for d in m.decls():
        try:
            model[d.name()] = model_value(m[d])
        except (ValueError, z3.Z3Exception):
            pass
    for name in want_model:
        model.setdefault(name, Fraction(0))
    return model
