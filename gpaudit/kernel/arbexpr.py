"""sympy -> python-flint arb: a rigorous ball containing an exact expression.

Outward rounding is arb's own: every operation returns a ball that contains the exact result
for every point of its input balls.  An operation outside a function's domain (log of a ball
that reaches 0, the square root of a negative ball) gives a NaN or infinite ball, which every
caller treats as "not decided" (fail closed).
"""

from __future__ import annotations

import sympy as sp
from flint import arb, fmpq


def to_arb(e, env=None):
    """A rigorous arb ball containing e, its symbols ranging over the balls of env (Symbol -> arb).

    Rationals, pi, e, +, *, powers, exp, log, erf, erfc, Abs, Max and Min; anything else raises
    ValueError.
    """
    env = env or {}
    if isinstance(e, sp.Symbol):
        if e not in env:
            raise ValueError(f"arb: no value for {e}")
        return env[e]
    if e.is_Rational:
        return arb(fmpq(int(e.p), int(e.q)))
    if e is sp.pi:
        return arb.pi()
    if e is sp.E:
        return arb.const_e()
    if isinstance(e, sp.Add):
        out = arb(0)
        for a in e.args:
            out += to_arb(a, env)
        return out
    if isinstance(e, sp.Mul):
        out = arb(1)
        for a in e.args:
            out *= to_arb(a, env)
        return out
    if isinstance(e, sp.Pow):
        b = to_arb(e.base, env)
        if e.exp.is_Integer:
            n = int(e.exp)
            return b**n if n >= 0 else 1 / b**(-n)
        if e.exp == sp.Rational(1, 2):
            return b.sqrt()
        return (to_arb(e.exp, env) * b.log()).exp()
    if isinstance(e, sp.exp):
        return to_arb(e.args[0], env).exp()
    if isinstance(e, sp.log):
        return to_arb(e.args[0], env).log()
    if isinstance(e, sp.erfc):
        return to_arb(e.args[0], env).erfc()
    if isinstance(e, sp.erf):
        return to_arb(e.args[0], env).erf()
    if isinstance(e, sp.Abs):
        return abs(to_arb(e.args[0], env))
    if isinstance(e, (sp.Max, sp.Min)):
        vals = [to_arb(a, env) for a in e.args]
        out = vals[0]
        for v in vals[1:]:
            out = out.max(v) if isinstance(e, sp.Max) else out.min(v)
        return out
    raise ValueError(f"arb: cannot enclose {type(e).__name__}")
