"""When a witness on a python callable counts: exact at its points, or beyond the tolerance.

A callable's value at a point is *exact* where it is measured so (model.usercode.UserFn.exact_at:
agreement at 50 and 100 digits and a response below float64 resolution).  Elsewhere the callable is
a float64 program there, and its value v is taken to be within the tolerance of the real function:
every value in [v - r, v + r]: r = tol * |v| for B (a positive scale), r = tol * max(|v|, M) for f, M
the largest |value| f gave at its probe points (so that a value of f near 0 that lost digits to
cancellation still gets room).  A
violating triple then counts when a rigorous enclosure (python-flint arb) of

    ln p_x(y) - ln p_x'(y)  over every f(x), f(x'), B(x), B(x') in those balls

lies above eps * dist(x, x') (the kernel's rule 2: "a violation exceeding a rigorous bound on the
model's error").  Rounding noise cannot pass: a violation of 1e-15 relative is far inside a 1e-9
ball.  Values of built-in (symbolic) parts and exact callable values enter as their 100-digit
values with a radius of 10^-90 relative.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import mpmath
import numpy as np
from flint import arb, ctx, fmpq

from ..kernel.arbexpr import to_arb
from ..model.mechanism import Mechanism
from ..spec.types import Norm

PREC_BITS = 320
MAX_TRIED = 8          # violating triples tried, best first
_EXACT_REL = mpmath.mpf(10) ** -90


@dataclass
class WitnessJudgement:
    counts: bool          # the witness refutes (kernel: witness_exact)
    triple: object        # the VerifiedTriple judged (the witness to report), or None
    how: str              # "exact", "tolerance", or why it does not count
    tolerance: dict       # callable name -> tolerance used (python callables judged as float programs)
    rate_lower: object = None  # "tolerance": a rigorous lower bound on the witness's rate (mpf)


def user_fns(mech: Mechanism):
    """The python callables of the mechanism ((name, UserFn, tolerance) for f and B)."""
    out = []
    for part, spec in ((mech.query, mech.spec.query), (mech.bound, mech.spec.bound)):
        u = getattr(part, "user", None)
        if u is not None:
            out.append((u.name, u, spec.fields.get("tolerance")))
    return out


def judge(mech: Mechanism, outcome) -> WitnessJudgement:
    """Whether the audit's witness refutes, for a mechanism with python callables (for one without,
    the witness counts exactly when the model is exact, as before)."""
    fns = user_fns(mech)
    best = outcome.best if outcome.witness is not None else None
    if not fns:
        return WitnessJudgement(mech.exact_model and outcome.witness is not None, best, "exact", {})
    if outcome.witness is None:
        return WitnessJudgement(False, None, "no witness", {})
    other_numeric = ((mech.query.numeric and getattr(mech.query, "user", None) is None)
                     or (mech.bound.numeric and getattr(mech.bound, "user", None) is None))
    if other_numeric:
        return WitnessJudgement(False, best, "a numerical part of the model (not a callable) is approximate", {})
    if mech.delta != 0:  # a hockey-stick witness: counted only where every callable is exact
        pts = [outcome.witness["x"], outcome.witness["x_prime"]]
        exact = all(u.exact_at([mpmath.mpf(c) for c in p]) for _, u, _ in fns for p in pts)
        return WitnessJudgement(exact, best, "exact" if exact else "a callable is not exact at the witness", {})
    violating = [v for v in outcome.found.verified if v.violates][:MAX_TRIED]
    for v in violating:
        exact = {(u.name, i): u.exact_at(p) for _, u, _ in fns for i, p in enumerate((v.x, v.xp))}
        if all(exact.values()):
            return WitnessJudgement(True, v, "exact", {})
        tols = {name: tol for name, u, tol in fns if not all(exact[(name, i)] for i in (0, 1))}
        for w in _with_outputs(mech, v):
            lower = enclosure_violates(mech, w, exact, dict((n, t) for n, _, t in fns))
            if lower is not None:
                return WitnessJudgement(True, w, "tolerance", tols, lower)
    tols = {name: tol for name, u, tol in fns}
    return WitnessJudgement(False, best, "within the float programs' tolerance", tols)


_OUTPUT_STEPS = (0.5, 1.0, 2.0, 4.0, 16.0, 64.0)


def _with_outputs(mech: Mechanism, v):
    """The triple, then the same pair at outputs y within a few noise scales of either centre: far
    in the tail (where the search may have pushed y), a relative tolerance on B blurs the
    log-density by tol * |y - f| / b, so a violation is shown more easily near the centres."""
    yield v
    a, b = mech.centre_scale_np([v.x, v.xp])
    for centre, scale in zip(a, b):
        if not (np.isfinite(centre) and np.isfinite(scale) and scale > 0):
            continue
        for s in _OUTPUT_STEPS:
            for y in (centre + s * scale, centre - s * scale):
                if np.isfinite(y):
                    yield replace(v, y=float(y))


def _arb_of_mpf(v: mpmath.mpf) -> arb:
    """The exact value of a finite mpf as an arb (sign * man * 2^exp)."""
    sign, man, exp, _ = mpmath.mpf(v)._mpf_
    return arb(fmpq(-int(man) if sign else int(man))) * arb(2) ** int(exp)


def _ball(v: mpmath.mpf, rad: mpmath.mpf) -> arb:
    return _arb_of_mpf(v) + arb(0, 1) * _arb_of_mpf(rad)


def _value_ball(mech, part, name, x, exact, tol) -> arb | None:
    """The ball of the value of f or B at x (part: the Query or the Bound)."""
    evaluate = mech.query.f_mp if part is mech.query else mech.bound.B_mp
    with mpmath.workdps(100):
        v = evaluate([mpmath.mpf(c) for c in x])
        if not mpmath.isfinite(v):
            return None
        u = getattr(part, "user", None)
        if u is None or exact:
            return _ball(v, abs(v) * _EXACT_REL)
        t = mpmath.mpf(int(tol.p)) / int(tol.q)
        # f: room for digits lost to cancellation near 0; B (a positive scale): relative
        rad = t * (max(abs(v), mpmath.mpf(u.magnitude)) if name == "f" else abs(v))
        # a little more than t: the float program's tolerance is relative to the real value
        return _ball(v, rad * (1 + 4 * t) + abs(v) * _EXACT_REL)


def _dist_arb(mech, x, xp) -> arb:
    m = mech.metric
    terms = [abs(arb(fmpq(*float(a).as_integer_ratio())) - arb(fmpq(*float(b).as_integer_ratio()))) * to_arb(w)
             for a, b, w in zip(x, xp, m.w_exact)]
    if m.kind == Norm.L1 or len(terms) == 1:
        return sum(terms[1:], terms[0])
    if m.kind == Norm.LINF:
        hi = max(t.upper() for t in terms)
        lo = max(t.lower() for t in terms)
        return arb(lo).union(arb(hi))
    return sum((t * t for t in terms[1:]), terms[0] * terms[0]).sqrt()


def enclosure_violates(mech: Mechanism, v, exact: dict, tols: dict):
    """A lower bound on the rate (ln p_x(y) - ln p_x'(y)) / dist over every f and B value in their
    balls when it exceeds eps (the violation is proved), else None."""
    old = ctx.prec
    ctx.prec = PREC_BITS
    try:
        eta = to_arb(mech.eta)
        y = arb(fmpq(*float(v.y).as_integer_ratio()))
        logs = []
        for i, pt in enumerate((v.x, v.xp)):
            balls = []
            for part, name in ((mech.query, "f"), (mech.bound, "B")):
                ball = _value_ball(mech, part, name, pt, exact.get((name, i), True), tols.get(name))
                if ball is None:
                    return None
                balls.append(ball)
            F, B = balls
            b = B / eta
            if not b > 0:
                return None
            ld = mech.family.logpdf_arb((y - F) / b) - b.log()
            if not ld.is_finite():
                return None
            logs.append(ld)
        dist = _dist_arb(mech, v.x, v.xp)
        lr = logs[0] - logs[1]
        excess = lr - to_arb(mech.epsilon) * dist
        if not (excess.is_finite() and excess > 0 and dist > 0):
            return None
        rate = (lr / dist).lower()
        with mpmath.workdps(30):
            return mpmath.mpf(rate.mid().str(40, radius=False)) * (1 - mpmath.mpf(10) ** -25)
    except (ValueError, ZeroDivisionError, TypeError):
        return None
    finally:
        ctx.prec = old
