"""Translations of one symbolic expression into the numeric backends (numpy, mpmath).

The expressions come from the safe parser or from the built-in kinds, never from user text,
so sympy's code printer is used as the translator.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import sympy as sp
from sympy.logic.boolalg import simplify_logic
from sympy.printing.numpy import NumPyPrinter


def _float_constants(expr):
    """(expr with every rational constant too long for a double replaced by a Dummy, dummies,
    their values as correctly rounded doubles (+-inf beyond the range, 0 below it)).

    The code printers write a rational as the Python integers p/q: an integer beyond int64 turns
    a numpy array into dtype object, and p/q beyond 1.8e308 raises OverflowError.  Values that
    fit in 53 bits are left to the printer (p/q is correctly rounded, as is float(Fraction))."""
    if not isinstance(expr, sp.Basic):
        return expr, [], []
    big = sorted((r for r in expr.atoms(sp.Rational) if max(abs(int(r.p)), int(r.q)) > 2**53),
                 key=sp.default_sort_key)
    if not big:
        return expr, [], []
    dummies = [sp.Dummy(f"c{i}") for i in range(len(big))]
    values = []
    for r in big:
        try:
            values.append(float(Fraction(int(r.p), int(r.q))))
        except OverflowError:
            values.append(float("inf") if r > 0 else float("-inf"))
    return expr.xreplace(dict(zip(big, dummies))), dummies, values


class _WherePrinter(NumPyPrinter):
    """sympy's numpy printer, with a Piecewise as nested ``where`` instead of one ``select``.

    Both take, at each entry, the value of the first piece whose condition holds, and NaN where
    none does; both evaluate every piece on the whole array.  ``select`` costs about 0.1 ms a
    call in argument checks and broadcasting alone, which is most of a call on the few dozen
    points of the audit's polishing; ``where`` is one ufunc-like call per piece."""

    def _print_Piecewise(self, expr):
        where = self._module_format(self._module + ".where")
        out = self._print(sp.nan)
        for arg in reversed(expr.args):
            cond = arg.cond
            if cond.has(sp.ITE):  # as sympy's printer does: no ITE inside a numpy condition
                cond = simplify_logic(cond)
            out = f"{where}({self._print(cond)}, {self._print(arg.expr)}, {out})"
        return out


# lambdify's modules=[np] (the module object) prints the same code as modules=["numpy"] and finds
# the same numpy functions, without the `from numpy import *` that the string form runs once per
# process (it loads numpy.f2py and numpy.testing: about 0.1 s of every run's start).
# docstring_limit=0 (here and wherever gpaudit lambdifies): no str(expr) for a docstring nobody
# reads (slow for large expressions).
def numpy_lambdify(args, expr):
    """lambdify to numpy with the settings lambdify gives its own printer, Piecewise by where.

    Python's parser takes at most 200 nested parentheses: a Piecewise of more pieces than that
    (or nested deeper) goes to sympy's own printer, whose select is not nested."""
    printer = _WherePrinter({"fully_qualified_modules": False, "inline": True,
                             "allow_unknown_functions": True, "user_functions": {}})
    try:
        return sp.lambdify(args, expr, modules=[np], printer=printer, docstring_limit=0)
    except SyntaxError:  # too many nested parentheses
        return sp.lambdify(args, expr, modules=[np], docstring_limit=0)


def to_numpy(expr, symbols):
    """f(X) for X of shape (n, d) -> array (n,), float64, errors silenced (screening only)."""
    body, dummies, values = _float_constants(expr)
    fn0 = numpy_lambdify(list(symbols) + dummies, body)   # see the note above
    const = not (expr.free_symbols & set(symbols))

    def fn(*cols):
        return fn0(*cols, *values)

    def f(X):
        X = np.asarray(X, dtype=float)
        with np.errstate(all="ignore"):
            out = fn(*[X[:, i] for i in range(X.shape[1])])
        out = np.asarray(out, dtype=float)
        if const or out.shape != (X.shape[0],):
            out = np.broadcast_to(out, (X.shape[0],)).copy()
        return out

    return f


def to_math(expr, symbols):
    """f(x) for one point given as a sequence of floats -> float (NaN on a domain error)."""
    body, dummies, values = _float_constants(expr)
    fn = sp.lambdify(list(symbols) + dummies, body, modules=["math"], docstring_limit=0)

    def f(x):
        try:
            return float(fn(*[float(v) for v in x], *values))
        except (ValueError, ZeroDivisionError, OverflowError, TypeError):  # TypeError: a complex value
            return float("nan")

    return f


def to_mpmath(expr, symbols):
    """f(x) for a sequence of mpf -> mpf at the current working precision."""
    fn = sp.lambdify(symbols, expr, modules=["mpmath"], docstring_limit=0)

    def f(x):
        """NaN where the expression is undefined (a complex value, a zero denominator)."""
        try:
            v = fn(*[mpmath.mpf(v) for v in x])
        except (ZeroDivisionError, ValueError, OverflowError):
            return mpmath.nan
        if isinstance(v, mpmath.mpc):
            return mpmath.nan if v.imag != 0 else mpmath.mpf(v.real)
        return mpmath.mpf(v)

    return f


from ..kernel.arbexpr import to_arb  # noqa: E402,F401  (one sympy -> arb translation, in the kernel)
