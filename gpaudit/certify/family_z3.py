"""Exact (z3) proof that a family's certificate rate is at most a given bound E.

Where the rate meets the claim exactly (PolyPlace with eta = gamma has rate alpha*gamma at every u,
Hladik-Tetek Lemma 12), no enclosure of finite width can certify; this proves

    for all u >= 0 in each piece:  eta*a*|psi(u)| +- gamma*c*(1 + u psi(u)) <= E

as polynomial inequalities (denominators cleared after z3 shows they are positive) for families
whose score is a rational function of u with algebraic coefficients.  unsat certifies; sat,
unknown, a timeout or an expression the kernel's translator cannot take (an irrational exponent) is
unknown.
"""

from __future__ import annotations

import sympy as sp

from ..kernel import z3door
from ..model.families import U  # the variable of the families' derived score forms


def abs_score_pieces(family):
    """[(lo, hi, |psi(u)| as a sympy rational function of U)] on u >= 0, or None if not rational.

    Derived from the family's definition (``NoiseFamily.rational_score_pieces``: -d/du ln h per
    piece, with its exact break points), never typed again here."""
    return family.rational_score_pieces()


def _prove_le(expr, lo, hi, budget_ms):
    """Prove expr(u) <= 0 for u in [lo, hi) (hi may be oo); returns 'unsat' | 'sat' | 'unknown'.

    Two claims, each translated by the kernel's one translator (z3door.Translator): den > 0 on
    the piece (-den >= 0 unsat), then num*den <= 0 (num*den > 0 unsat), so num/den <= 0."""
    num, den = sp.fraction(sp.together(sp.expand(expr)))
    results = []
    for target, strict in ((-den, False), (num * den, True)):
        tr = z3door.Translator()
        try:
            t, u = tr(sp.expand(target)), tr(U)
            cond = [u >= tr(sp.sympify(lo))] + ([u < tr(sp.sympify(hi))] if hi != sp.oo else [])
        except z3door.Unsupported:
            return "unknown"
        r, _, _ = z3door.check_formula(tr.facts + cond + [t > 0 if strict else t >= 0], budget_ms)
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
