"""Where an expression is defined: the conditions of its partial functions.

    u ** (p/q)  (q > 1):     u >= 0   (u > 0 when p/q < 0)      real roots of the principal branch
    u ** (-n):               u != 0                                  a denominator
    log(u):                  u > 0

Everything else the expression language has (+, *, integer powers, exp, abs, min, max) is total
and continuous.  So a piece value whose conditions hold on the closure of the piece's region is
defined and continuous there: a jump INSIDE a piece (`abs(u)/u`, a denominator's zero, a root or
a logarithm at the edge of its domain) shows up as a failed `defined` obligation.  Splitting
Max/Min/Abs into their active sets creates no jump, since those functions are continuous.
"""

from __future__ import annotations

import sympy as sp


def conditions(expr) -> list:
    """The definedness conditions of expr (sympy relations), outermost first, deduplicated; left
    unevaluated: z3 decides them, not sympy's assumptions (which are also slow to ask)."""
    out: list = []

    def add(c):                # c is an unevaluated relation: never True or False
        if c not in out:
            out.append(c)

    def walk(e):
        if not isinstance(e, sp.Basic) or e.is_Atom:
            return
        if isinstance(e, sp.Pow):
            base, ex = e.base, e.exp
            if base.free_symbols and ex.is_Rational and not ex.is_Integer:
                add(sp.Gt(base, 0, evaluate=False) if ex < 0 else sp.Ge(base, 0, evaluate=False))
            elif base.free_symbols and ex.is_Integer and ex < 0:
                add(sp.Ne(base, 0, evaluate=False))
            elif base.free_symbols and not ex.is_Rational:
                add(sp.Gt(base, 0, evaluate=False))         # u ** a, a irrational or symbolic: exp(a log u)
        elif isinstance(e, sp.log) and e.args[0].free_symbols:
            add(sp.Gt(e.args[0], 0, evaluate=False))
        for a in e.args:
            walk(a)

    walk(sp.sympify(expr))
    return out


def defined(expr):
    """One sympy condition: expr is defined."""
    cs = conditions(expr)
    return sp.And(*cs) if cs else sp.true
