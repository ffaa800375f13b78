"""Definition 8's two conditions, tested on the audit's pairs (search: it can only refute).

1. B(x) >= L_{f,Lambda}(x): a secant |f(w) - f(x)| / |w - x| > B(x) with |w - x| <= Lambda is a witness.
2. B(x) <= g(x, x') B(x'): a pair with ln B(x) - ln B(x') > ln g(|x - x'|) is a witness.
Each witness is re-checked in mpmath at 50 digits before it is reported.
"""

from __future__ import annotations

import mpmath
import numpy as np
import sympy as sp

from ..model.mechanism import Mechanism, exact_decimal
from ..verdict import Check, REFUTED, UNKNOWN

DPS = 50
MARGIN = mpmath.mpf(10) ** -30  # relative: a violation must be far above rounding at 50 digits
MODEL_MARGIN = mpmath.mpf(10) ** -6  # a numerical model of B* is only this accurate


def _margin(mech):
    return MODEL_MARGIN if mech.bound.numeric else MARGIN


def _fmt(v, digits=12):
    return mpmath.nstr(v, digits)


def check_cover(mech: Mechanism, X, Xp) -> Check:
    """Condition 1 on every screened pair, in both directions."""
    f, B = mech.query.f_np, mech.bound.B_np
    A = np.concatenate([X, Xp])
    W = np.concatenate([Xp, X])
    lam = mech.bound.Lambda
    with np.errstate(all="ignore"):
        d = mech.dist_np(A, W)
        slope = np.abs(f(W) - f(A)) / d
        excess = slope / B(A)
    excess[~np.isfinite(excess)] = 0
    if lam != sp.oo:
        # L_{f,Lambda} takes secants no longer than Lambda (decided exactly in the re-check)
        excess[d > float(lam) * (1 + 1e-9)] = 0
    for i in np.argsort(-excess)[:5]:
        if excess[i] <= 1:
            break
        with mpmath.workdps(DPS):
            x, w = A[i], W[i]
            dxw = mech.dist_mp(x, w)
            if lam != sp.oo and not dxw <= mpmath.mpf(sp.N(lam, DPS + 10)) * (1 - mpmath.mpf(10) ** -40):
                continue   # (a secant within 1e-40 of Lambda is not taken: no witness on a rounding tie)
            s = abs(mech.query.f_mp(w) - mech.query.f_mp(x)) / dxw
            bx = mech.bound.B_mp(x)
            if s > bx * (1 + _margin(mech)):
                return Check("definition8.cover", REFUTED, "grid search + mpmath re-check",
                             f"the secant slope {_fmt(s)} exceeds B(x) = {_fmt(bx)}",
                             {"x": [exact_decimal(float(c)) for c in x], "w": [exact_decimal(float(c)) for c in w],
                              "slope": _fmt(s, 30), "B": _fmt(bx, 30)})
    return Check("definition8.cover", UNKNOWN, "grid search",
                 f"{_model_note(mech)}no secant above B on {len(A)} screened pairs (search cannot certify)")


def check_smooth(mech: Mechanism, X, Xp) -> Check:
    """Condition 2 on every screened pair, in both directions."""
    B = mech.bound.B_np
    with np.errstate(all="ignore"):
        lb, lbp = np.log(B(X)), np.log(B(Xp))
        lg = np.log(mech.bound.g_np(mech.dist_np(X, Xp)))
        excess = np.maximum(lb - lbp, lbp - lb) - lg
    excess[~np.isfinite(excess)] = -np.inf
    for i in np.argsort(-excess)[:5]:
        if excess[i] <= 0:
            break
        x, xp = (X[i], Xp[i]) if lb[i] >= lbp[i] else (Xp[i], X[i])
        with mpmath.workdps(DPS):
            bx, bxp = mech.bound.B_mp(x), mech.bound.B_mp(xp)
            lhs = mpmath.log(bx) - mpmath.log(bxp)
            rhs = mech.bound.log_g_mp(mech.dist_mp(x, xp))
            if lhs - rhs > _margin(mech) * max(1, abs(rhs)):
                return Check("definition8.smooth", REFUTED, "grid search + mpmath re-check",
                             f"ln B(x) - ln B(x') = {_fmt(lhs)} > ln g(x, x') = {_fmt(rhs)}",
                             {"x": [exact_decimal(float(c)) for c in x], "x_prime": [exact_decimal(float(c)) for c in xp],
                              "B_x": _fmt(bx, 30), "B_x_prime": _fmt(bxp, 30)})
    return Check("definition8.smooth", UNKNOWN, "grid search",
                 f"{_model_note(mech)}no pair with B(x) > g(x, x') B(x') among {len(X)} screened pairs (search cannot certify)")


def _model_note(mech):
    if not mech.bound.numeric:
        return ""
    if getattr(mech.bound, "user", None) is not None:
        return "B is a float64 program (its findings here carry a margin of 1e-6 relative); "
    return "B is a numerical model (relative accuracy ~1e-6); "
