"""Comparison of a closed-form smooth sensitivity B(x) with a brute-force B*(x), and the outcomes
of such comparisons."""
from __future__ import annotations

import mpmath as mp

from .bstar import smooth_sens_1d
from .registry import Outcome
from .text import dec


def check_ss_1d(pwl_of, formula, params, xs_of, quick=False):
    """Compare a closed-form B(x) with brute-force B*(x) (exact L of the piecewise-linear f,
    windowed grid over z, golden refinement at 50 digits).  Returns (worst_rel, arg, n)."""
    return compare_ss_1d(pwl_of, {"paper": formula}, params, xs_of)["paper"]


def compare_ss_1d(pwl_of, formulas, params, xs_of):
    """:func:`check_ss_1d` for several closed forms at once (one brute-force B*(x) per point):
    ``formulas`` maps a name to ``formula(x, *params)``; returns name -> (worst_rel, arg, n)."""
    worst = {k: (mp.mpf(-1), None) for k in formulas}
    n = 0
    for prm in params:
        prm = tuple(mp.mpf(v) for v in prm)
        f = pwl_of(*prm[:-1])
        g = prm[-1]
        for x in xs_of(*prm):
            B, z = smooth_sens_1d(f.L_np, f.L_mp, x, g, f.K, extra_pts=f.x)
            n += 1
            for k, formula in formulas.items():
                Bp = formula(x, *prm)
                r = (B - Bp) / B  # > 0: formula below the true smooth sensitivity
                if abs(r) > worst[k][0]:
                    worst[k] = (abs(r), dict(params=prm, x=x, true=B, paper=Bp, z_star=z))
    return {k: (w, a, n) for k, (w, a) in worst.items()}


def ss_outcome(worst, warg, n, what, names, cond=None):
    if worst < mp.mpf(10) ** -12:
        return Outcome("verified", f"{what}: brute-force B*(x) = sup_z L(z) e^(-gamma|x-z|) with exact L of the "
                                   f"piecewise-linear f, windowed 6001-point z-grid + golden refinement at 50 digits, "
                                   f"{n} points; max rel. diff {dec(worst, 3)}", condition=cond)
    w = {k: dec(v) for k, v in zip(names, warg["params"])}
    w.update(x=dec(warg["x"]), true_B=dec(warg["true"]), paper_B=dec(warg["paper"]), z_star=dec(warg["z_star"]))
    return Outcome("refuted", f"{what}: closed form differs from brute-force B* ({n} points; max rel. diff "
                              f"{dec(worst, 6)})", witness=w, condition=cond)


def compare_closed_form(points, true_fn, formula, names, extra=None, tol=mp.mpf(10) ** -9):
    """Compare formula(*point) with true_fn(*point) -> (B, z*, w*) over points.  Returns
    (max rel. diff, record of the first point failing by more than tol, number of points)."""
    worst, first = mp.mpf(0), None
    for pt in points:
        B, z, w = true_fn(*pt)
        pm = [mp.mpf(v) for v in pt]
        Bp = formula(*pm)
        r = abs(B - Bp) / B
        worst = max(worst, r)
        if r > tol and first is None:
            first = dict(zip(names, pm), **(extra or {}), true_B=B, paper_B=Bp, z_star=z,
                         w_star=w if w is not None else "tangent (w -> z)")
    return worst, first, len(points)


def closed_form_outcome(worst, first, n, what, cond=None, tol=mp.mpf(10) ** -9):
    ev = f"{what}; {n} points; max rel. diff {dec(worst, 4)}"
    if worst < tol:
        return Outcome("verified", ev + "; no counterexample", condition=cond)
    return Outcome("refuted", ev + "; witness = first failing point", witness={k: dec(v) for k, v in first.items()},
                   condition=cond)
