"""Exact (z3) proof that a family's certificate rate is at most a given bound E.

Where the rate meets the claim exactly (PolyPlace with eta = gamma has rate alpha*gamma at every u,
Hladik-Tetek Lemma 12), no enclosure of finite width can certify; this proves

    for all u >= 0 in each piece:  eta*a*|psi(u)| +- gamma*c*(1 + u psi(u)) <= E

as polynomial inequalities (denominators cleared after z3 shows they are positive) for families
whose score is a rational function of u with algebraic coefficients.  unsat certifies; sat,
unknown, a timeout or an expression z3 cannot take (exp, log, an irrational exponent) is unknown.
"""

from __future__ import annotations

import sympy as sp
import z3

from ..kernel import z3door
from ..model.families import U  # the variable of the families' derived score forms


def abs_score_pieces(family):
    """[(lo, hi, |psi(u)| as a sympy rational function of U)] on u >= 0, or None if not rational.

    Derived from the family's definition (``NoiseFamily.rational_score_pieces``: -d/du ln h per
    piece, with its exact break points), never typed again here."""
    return family.rational_score_pieces()


class _Z3:
    """sympy -> z3 for polynomials in u with algebraic constants (sqrt via fresh roots)."""

    def __init__(self):
        self.facts, self.u, self.roots = [], z3.Real("u"), {}

    def __call__(self, e):
        e = sp.sympify(e)
        if e == U:
            return self.u
        if e.is_Rational:
            return z3.RealVal(f"{e.p}/{e.q}")
        if e.is_Add:
            return z3.Sum([self(a) for a in e.args])
        if e.is_Mul:
            return z3.Product([self(a) for a in e.args])
        if e.is_Pow and e.exp.is_Integer:
            base = self(e.base)
            if e.exp >= 0:
                out = z3.RealVal(1)
                for _ in range(int(e.exp)):
                    out = out * base
                return out
        if e.is_Pow and e.exp == sp.Rational(1, 2) and e.base.is_Rational and e.base > 0:
            if e not in self.roots:
                r = z3.Real(f"root{len(self.roots)}")
                self.facts += [r >= 0, r * r == self(e.base)]   # e.base is a positive rational
                self.roots[e] = r
            return self.roots[e]
        if e.is_Pow and e.exp == -sp.Rational(1, 2) and e.base.is_Rational and e.base > 0:
            return 1 / self(sp.sqrt(e.base))
        raise ValueError(f"not polynomial/algebraic: {e}")


def _prove_le(expr, lo, hi, budget_ms):
    """Prove expr(u) <= 0 for u in [lo, hi) (hi may be oo); returns 'unsat' | 'sat' | 'unknown'."""
    num, den = sp.fraction(sp.together(sp.expand(expr)))
    results = []
    for target in (-den, num * den):  # den > 0 on the piece, then num*den <= 0 <=> num/den <= 0
        tr = _Z3()
        try:
            t = tr(sp.expand(target))
        except ValueError:
            return "unknown"
        cond = [tr.u >= tr(lo)] + ([tr.u < tr(hi)] if hi != sp.oo else [])
        r, _, _ = z3door.check_formula(tr.facts + cond + [t >= 0 if target is not num * den else t > 0],
                                       budget_ms)
        results.append(str(r))
    if all(r == "unsat" for r in results):
        return "unsat"
    return "sat" if "sat" in results else "unknown"


def prove_rate_at_most(family, eta_a, gamma_c, E, timeout_ms=5000):
    """(status, detail): status 'certified' when every piece and sign case is unsat.  timeout_ms
    is a deterministic work budget (see gpaudit.kernel.z3door), not wall-clock."""
    pieces = abs_score_pieces(family)
    if pieces is None:
        return "unknown", f"{family.name}: score not rational in u"
    for lo, hi, psi in pieces:
        one_plus = 1 - U * psi  # 1 + u psi(u) with psi = -|psi| on u >= 0
        for sign in (1, -1):
            expr = sp.sympify(eta_a) * psi + sign * sp.sympify(gamma_c) * one_plus - E
            res = _prove_le(expr, lo, hi, timeout_ms)
            if res != "unsat":
                return "unknown", f"z3 {res} on u in [{lo}, {hi}) (sign {sign:+d})"
    return "certified", f"z3 unsat on {len(pieces)} piece(s) x 2 sign cases (seed 0, rlimit {z3door.rlimit_of(timeout_ms)})"
