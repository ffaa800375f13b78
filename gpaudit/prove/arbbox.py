"""python-flint arb branch-and-bound: what z3 leaves `unknown`, closed over boxes.

The input space is split into a bounded core box [c - X, c + X]^d and its complement.  On the core,
boxes are bisected (widest side first): a box is done when the region's conditions are certainly
false on it, or when the claim is certainly true on it, both decided by arb's outward-rounded balls
(tri-state logic: a comparison is True or False only when it holds for every point of the balls).
The unbounded complement (the tail) is handed back to z3 as the same obligation restricted to
|x_i - c_i| >= X for some i; only an `unsat` there closes it.  The obligation is certified only when
every core box is done AND the tail is unsat; a box budget, a NaN or an infinite ball leaves it
unknown (fail closed).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction

import sympy as sp
from flint import arb, ctx, fmpq

from ..model.lower import to_arb
from ..kernel import z3door as zb
from .. import runtime
from ..runtime import budget

PREC = 128
MAX_BOXES = 50000
CORE = 8


@dataclass
class Enclosure:
    proved: bool
    method: str
    seconds: float
    boxes: int = 0


def _q(v: Fraction) -> arb:
    return arb(fmpq(v.numerator, v.denominator))


def _interval(lo: Fraction, hi: Fraction) -> arb:
    return _q(lo).union(_q(hi))


def evaluate(e, env):
    """An arb ball containing e over the box env (Symbol -> arb); raises on what it cannot do."""
    try:
        return to_arb(e, env)
    except ValueError as err:
        raise zb.Unsupported(str(err)) from None


def decide(c, env):
    """Tri-state truth of a condition over a box: True, False or None (not decided)."""
    if c is sp.true or c is True:
        return True
    if c is sp.false or c is False:
        return False
    if isinstance(c, sp.And):
        vals = [decide(a, env) for a in c.args]
        return False if False in vals else (True if all(v is True for v in vals) else None)
    if isinstance(c, sp.Or):
        vals = [decide(a, env) for a in c.args]
        return True if True in vals else (False if all(v is False for v in vals) else None)
    if isinstance(c, sp.Not):
        v = decide(c.args[0], env)
        return None if v is None else not v
    if isinstance(c, sp.core.relational.Relational):
        d = evaluate(c.lhs - c.rhs, env)
        if not d.is_finite() or d.is_nan():
            return None
        op = c.rel_op
        if op in ("<", "<="):
            return True if (d < 0 if op == "<" else d <= 0) else (False if (d >= 0 if op == "<" else d > 0) else None)
        if op in (">", ">="):
            return True if (d > 0 if op == ">" else d >= 0) else (False if (d <= 0 if op == ">" else d < 0) else None)
        if op == "==":
            return False if (d > 0 or d < 0) else None
        if op == "!=":
            return True if (d > 0 or d < 0) else None
    raise zb.Unsupported(f"arb: condition {type(c).__name__}")


def branch_and_bound(region, claim, syms, box, max_boxes=MAX_BOXES):
    """True when the claim holds on region /\\ box (every leaf box decided), else False."""
    old = ctx.prec
    ctx.prec = PREC
    try:
        stack, n = [box], 0
        while stack:
            b = stack.pop()
            n += 1
            if n > max_boxes or (n % 64 == 0 and budget.past_wall_clock()):
                return False, n
            env = {s: _interval(lo, hi) for s, (lo, hi) in zip(syms, b)}
            try:
                if decide(region, env) is False or decide(claim, env) is True:
                    continue
            except (zb.Unsupported, ZeroDivisionError, ValueError):
                pass
            k = max(range(len(b)), key=lambda i: b[i][1] - b[i][0])
            lo, hi = b[k]
            if hi - lo < Fraction(1, 2**40):
                return False, n
            mid = (lo + hi) / 2
            stack.append(b[:k] + [(lo, mid)] + b[k + 1:])
            stack.append(b[:k] + [(mid, hi)] + b[k + 1:])
        return True, n
    finally:
        ctx.prec = old


def try_close(o, syms, params, timeout_ms=10000, centre=None):
    """Close an obligation z3 left unknown: arb on the core box, z3 on the tail."""
    if o.sym_claim is None or o.rebuild is None:
        return None
    t0 = time.perf_counter()
    syms = list(syms)
    c = centre or [Fraction(0)] * len(syms)
    X = Fraction(CORE)
    box = [(ci - X, ci + X) for ci in c]
    region = sp.And(*o.sym_region) if o.sym_region else sp.true
    try:
        ok, n = branch_and_bound(region, o.sym_claim, syms, box)
    except zb.Unsupported as err:
        return Enclosure(False, f"arb: {err}", time.perf_counter() - t0)
    if not ok:
        return Enclosure(False, f"arb branch-and-bound: not closed ({n} boxes)", time.perf_counter() - t0, n)
    tail = sp.Or(*[sp.Or(s <= sp.Rational(ci - X), s >= sp.Rational(ci + X)) for s, ci in zip(syms, c)])
    q = o.rebuild(tail)
    ans = runtime.solve(q, timeout_ms) if q is not None else zb.Answer(zb.UNKNOWN)
    dt = time.perf_counter() - t0
    if ans.status == zb.UNSAT:
        return Enclosure(True, f"arb branch-and-bound ({n} boxes on [-{CORE}, {CORE}]^{len(syms)} about the "
                         f"centre) + z3 unsat on the tail", dt, n)
    why = f" ({ans.reason})" if zb.WALL_CLOCK_NOTE in (ans.reason or "") else ""     # a limit stopped it
    return Enclosure(False, f"arb closed the core ({n} boxes), z3 {ans.status} on the tail{why}", dt, n)
