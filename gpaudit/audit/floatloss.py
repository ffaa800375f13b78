"""The privacy-loss rate in vectorised float64, as every float search of the audit scores it.

The screen, the guided adversary and the polishing all rank triples (x, x', y) by

    rate = (ln p_x(y) - ln p_x'(y) - err) / |x - x'|,

where err bounds the float64 rounding error of the log-ratio: the error of (y - f(x)) / b times the
family's largest score, for both densities.  Far in the tails, or at inputs of large magnitude, the
float value of a tiny pair's loss is rounding noise; lowering it by its own error bound keeps such
noise from crowding real candidates out.  None of this is evidence: every triple the audit reports
is re-verified in mpmath (``search.verify``).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..model.mechanism import Mechanism

EPS64 = np.finfo(float).eps
# where |psi| is sampled for its maximum: the body, the shoulders and the far tails
_PSI_GRID = np.unique(np.concatenate([np.linspace(-6, 6, 601),
                                      np.outer([-1, 1], np.logspace(-4, 12, 49)).ravel()]))


def score_bound(mech: Mechanism) -> float:
    """max |psi| of the family, sampled (at least 1): scales the rounding error of a log-density."""
    return _family_score_bound(mech.family)


@lru_cache(maxsize=256)
def _family_score_bound(family) -> float:
    """score_bound, once per family (a frozen dataclass: equal parameters, one entry)."""
    with np.errstate(all="ignore"):
        v = np.abs(family.score_np(_PSI_GRID))
    v = v[np.isfinite(v)]
    return max(1.0, float(v.max()) if v.size else 1.0)


def lowered_log_ratio(mech: Mechanism, a, b, ap, bp, Y, psi: float):
    """ln p_x(y) - ln p_x'(y) minus its rounding-error bound; a, b (resp. ap, bp) are the centre
    and scale at x (resp. x') and broadcast against Y.  Non-finite entries stay non-finite."""
    with np.errstate(all="ignore"):
        lr = mech.log_density_np(a, b, Y) - mech.log_density_np(ap, bp, Y)
        aY = np.abs(Y)
        err = aY + np.abs(a)
        if err.shape != lr.shape or aY.shape != lr.shape or aY.dtype != np.float64:  # no reuse
            return lr - 4 * EPS64 * psi * (err / b + (aY + np.abs(ap)) / bp)
        # the same operations as on the line above, in three arrays instead of eight
        err /= b
        aY += np.abs(ap)
        aY /= bp
        err += aY
        err *= 4 * EPS64 * psi
        lr -= err
        return lr


def triple_rates(mech: Mechanism, X, Xp, Y, psi: float, at_x=None):
    """The lowered rate of each row triple (X[i], Xp[i], Y[i]); -inf where it is undefined (a
    zero float distance, a scale that is not finite and positive, a non-finite value).  at_x:
    the centre and scale at X, (a, b), where the caller has already computed them."""
    a, b = mech.centre_scale_np(X) if at_x is None else at_x
    ap, bp = mech.centre_scale_np(Xp)
    dist = mech.dist_np(Xp, X)  # what float64 kept of the step
    with np.errstate(all="ignore"):
        rate = lowered_log_ratio(mech, a, b, ap, bp, Y, psi) / dist
    ok = ((dist > 0) & (b > 0) & (bp > 0) & np.isfinite(b) & np.isfinite(bp)
          & np.isfinite(Y) & np.isfinite(rate))
    return np.where(ok, rate, -np.inf)
