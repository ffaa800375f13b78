"""The adversarial audit: search (x, x', y) for the largest privacy-loss rate.

Screen in vectorised float64, polish the best candidates with a batched local search (all starts
at once, in numpy), then re-verify in mpmath at 50 and at 100 digits.  Only verified triples count:
the audit can refute, never certify.

The search runs in two phases.  ``search_main`` screens pairs placed around the query's landmarks
and runs the guided adversary; ``search_seeds`` screens pairs around seed points handed in from
elsewhere (where the proof stage saw a condition fail).  ``gpaudit check`` runs the first before
the proof stage, so that a verified witness settles ``refuted`` without proving anything, and the
second only when the first found no witness: the witness for a seed is the same whichever of
``check``, ``check --full-evidence`` or ``report`` printed it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import mpmath
import numpy as np

from ..model.mechanism import Mechanism, mp_exact
from .candidates import U_GRID, as_points, candidate_pairs, seed_pairs
from .floatloss import lowered_log_ratio, score_bound, triple_rates
from ..model.fp import nelder_mead_batch  # noqa: F401 (re-exported: the audit's polishing)

VERIFY_DPS = (50, 100)
# seed points from elsewhere: how many get guaranteed polish slots, and how many triples each
SEED_CAP = {"quick": 8, "standard": 16, "thorough": 48}
SEED_POLISH = {"quick": 2, "standard": 3, "thorough": 6}
SEED_PAIRS = {"quick": 1500, "standard": 3000, "thorough": 8000}  # pairs per seed
N_POLISH = {"quick": 6, "standard": 12, "thorough": 30}
# iterations of the batched Nelder-Mead (every start advances one step per iteration)
POLISH_ITERS = {"quick": 120, "standard": 200, "thorough": 400}
# output multiples of the noise scale tried far beyond both centres before verification
TAIL_MULTIPLES = (10.0, 1e2, 1e3, 1e4, 1e6, 1e9, 1e12)
# pairs per block of the screen: a block's temporaries (rows x 2 len(U_GRID) doubles, about 0.6 MB)
# stay in a core's cache; blocks of 4000 rows ran the screen 1.5-2x slower on this kind of machine
SCREEN_ROWS = 256
_WORSE = 1e300  # the objective of an undefined point (finite, so the simplex arithmetic stays finite)


@dataclass
class Triple:
    x: tuple
    xp: tuple
    y: float
    rate: float  # float screen value


@dataclass
class VerifiedTriple:
    x: tuple            # floats (exact binary values are the witness)
    xp: tuple
    y: float
    dist: mpmath.mpf
    log_ratio: mpmath.mpf
    rate: mpmath.mpf
    violates: bool      # log_ratio > epsilon * dist, at both precisions


@dataclass
class Found:
    """What one phase of the search produced: the verified triples (best first), the screened
    pairs and their float rates, and for every seed point the indices of its pairs in X."""
    verified: list
    X: np.ndarray
    Xp: np.ndarray
    rates: np.ndarray
    seed_idx: list = field(default_factory=list)

    @property
    def n_pairs(self) -> int:
        return len(self.X)

    def merged(self, other: "Found") -> "Found":
        """Both phases' evidence: pairs concatenated (other's seed indices shifted), triples merged."""
        shift = len(self.X)
        verified = sorted(self.verified + other.verified, key=lambda v: -v.rate)
        return Found(verified, np.concatenate([self.X, other.X]), np.concatenate([self.Xp, other.Xp]),
                     np.concatenate([self.rates, other.rates]),
                     self.seed_idx + [i + shift for i in other.seed_idx])


def screen_rates(mech: Mechanism, X, Xp, chunk=SCREEN_ROWS):
    """For each pair, the best y on the output grid and its rate (NaN-safe: NaN never wins).

    Each log-ratio is lowered by a bound on its float64 rounding error (floatloss).  Every step
    is row by row, so the chunk size changes the speed only, never a value."""
    best_rate = np.full(len(X), -np.inf)
    best_y = np.zeros(len(X))
    d = mech.dist_np(X, Xp)
    psi = score_bound(mech)
    for s in range(0, len(X), chunk):
        sl = slice(s, s + chunk)
        a, b = mech.centre_scale_np(X[sl])
        ap, bp = mech.centre_scale_np(Xp[sl])
        with np.errstate(all="ignore"):  # b * 1e12 overflows for b near 1e300: inf never wins
            Y = np.concatenate([a[:, None] + b[:, None] * U_GRID[None, :],
                                ap[:, None] + bp[:, None] * U_GRID[None, :]], axis=1)
            lr = lowered_log_ratio(mech, a[:, None], b[:, None], ap[:, None], bp[:, None], Y, psi)
        lr[~np.isfinite(lr)] = -np.inf
        k = np.argmax(lr, axis=1)
        rows = np.arange(len(k))
        with np.errstate(all="ignore"):
            best_rate[sl] = lr[rows, k] / d[sl]
        best_y[sl] = Y[rows, k]
    best_rate[~np.isfinite(best_rate)] = -np.inf
    return best_rate, best_y


def _top_distinct(rates, k):
    order = np.argsort(-rates)
    return [i for i in order[:k] if np.isfinite(rates[i])]


def polish_all(mech: Mechanism, triples, Lambda: float, local, iters: int):
    """Batched Nelder-Mead on (x, x' - x, v), y = f(x) + b(x) sinh(v): climbs each triple's rate.

    local[k] starts triple k from a simplex scaled to its pair's length (instead of 5% of each
    coordinate, scipy's default), so that a pair at a point of large magnitude (a seed far from the
    origin) stays where it is.  Returns, for each triple, the better of it and its polished form."""
    if not triples:
        return []
    d = mech.dim
    psi = score_bound(mech)
    X0 = np.array([t.x for t in triples], float)
    S0 = np.array([t.xp for t in triples], float) - X0
    a, b = mech.centre_scale_np(X0)
    y0 = np.array([t.y for t in triples], float)
    with np.errstate(all="ignore"):
        v0 = np.where(np.isfinite(b) & (b > 0), np.arcsinh((y0 - a) / b), 0.0)
    v0 = np.where(np.isfinite(v0), v0, 0.0)
    Z0 = np.concatenate([X0, S0, v0[:, None]], axis=1)

    def unpack(Z):
        """(X, X', Y, (centre, scale) at X) of the points Z."""
        X, S = Z[:, :d], Z[:, d:2 * d]
        if np.isfinite(Lambda):
            n = mech.metric.dist_np(S)
            with np.errstate(all="ignore"):
                S = S * np.where(n > Lambda, Lambda / n, 1.0)[:, None]
        aa, bb = mech.centre_scale_np(X)
        with np.errstate(all="ignore"):
            Y = aa + bb * np.sinh(np.clip(Z[:, -1], -40.0, 40.0))
        return X, X + S, Y, (aa, bb)

    def objective(Z):
        X, Xp, Y, at_x = unpack(Z)
        r = triple_rates(mech, X, Xp, Y, psi, at_x)
        return np.where(np.isfinite(r), -r, _WORSE)

    widths = np.where(Z0 != 0, 0.05 * np.abs(Z0), 0.00025)
    for k, is_local in enumerate(local):
        if is_local:
            h = max(math.hypot(*S0[k]), 1e-300)
            widths[k, :2 * d] = 0.25 * h
            widths[k, -1] = max(0.5, 0.05 * abs(v0[k]))
    Z, F = nelder_mead_batch(objective, Z0, widths, iters)
    X, Xp, Y, _ = unpack(Z)
    out = []
    for k, t in enumerate(triples):
        rate = -F[k] if F[k] < _WORSE else -np.inf
        if np.isfinite(rate) and rate > t.rate:
            out.append(Triple(tuple(map(float, X[k])), tuple(map(float, Xp[k])), float(Y[k]), float(rate)))
        else:
            out.append(t)
    return out


def push_tail(mech: Mechanism, t: Triple) -> Triple:
    """The same pair with y moved far beyond both centres if that raises the loss (checked at 50
    digits, where float64 cannot resolve it): for Laplace noise the loss is flat or grows there, so
    the largest rate of a pair is often attained as |y| -> inf."""
    with mpmath.workdps(VERIFY_DPS[0]):
        a, b = mech.centre_scale_mp(t.x)
        ap, bp = mech.centre_scale_mp(t.xp)
        if not (mpmath.isfinite(a) and mpmath.isfinite(ap) and b > 0 and bp > 0
                and mpmath.isfinite(b) and mpmath.isfinite(bp)):
            return t

        def lr(y):
            y = mpmath.mpf(y)
            return mech.log_density_mp(a, b, y) - mech.log_density_mp(ap, bp, y)

        best_y, best = t.y, lr(t.y)
        if not mpmath.isfinite(best):
            best = mpmath.mpf("-inf")
        lo, hi = float(min(a, ap)), float(max(a, ap))
        scale = float(max(b, bp))
        for k in TAIL_MULTIPLES:
            for y in (hi + k * scale, lo - k * scale):
                if not np.isfinite(y):
                    continue
                v = lr(y)
                if mpmath.isfinite(v) and (not mpmath.isfinite(best)
                                           or v - best > mpmath.mpf(10) ** -25 * max(1, abs(best))):
                    best_y, best = float(y), v
    if best_y == t.y:
        return t
    dist = float(mech.dist_np(np.array(t.xp, float), np.array(t.x, float))[0])
    return Triple(t.x, t.xp, best_y, float(best) / dist if dist > 0 else t.rate)


def verify(mech: Mechanism, t: Triple) -> VerifiedTriple | None:
    """Recompute ln p_x(y) - ln p_x'(y) at 50 and 100 digits from the exact binary inputs.  A pair
    whose distance is not proved <= Lambda (exactly, not in float64) is outside the claim: None."""
    if not mech.metric.within(t.x, t.xp, mech.Lambda):
        return None
    vals = []
    for dps in VERIFY_DPS:
        with mpmath.workdps(dps):
            lr = mech.log_ratio_mp(t.x, t.xp, t.y)
            dist = mech.dist_mp(t.x, t.xp)
            if not mpmath.isfinite(lr) or dist == 0:
                return None
            bound = mp_exact(mech.epsilon) * dist
            vals.append((lr, dist, lr - bound > mpmath.mpf(10) ** -30 * max(1, abs(bound))))
    (lr50, _, v50), (lr100, dist, v100) = vals
    with mpmath.workdps(VERIFY_DPS[-1]):
        if abs(lr100 - lr50) > mpmath.mpf(10) ** -30 * max(1, abs(lr100)):
            return None  # not stable in precision: do not trust it either way
        return VerifiedTriple(t.x, t.xp, t.y, dist, lr100, lr100 / dist, bool(v50 and v100))


def _verify_all(mech: Mechanism, triples):
    verified = [v for v in (verify(mech, push_tail(mech, t)) for t in triples) if v is not None]
    verified.sort(key=lambda v: -v.rate)
    return verified


def search_main(mech: Mechanism, rng, effort="standard", progress=None) -> Found:
    """The grid screen around the query's landmarks and the guided adversary, polished and
    verified (the first phase: no seed points)."""
    Lambda = float(mech.Lambda)
    gamma = float(mech.spec.bound.gamma)
    scale = float(mech.query.scale)
    X, Xp = candidate_pairs(mech.query.landmarks, scale, gamma, Lambda, mech.dim, effort, rng, mech.metric)
    if progress:
        progress("screen", 0.0)
    rates, ys = screen_rates(mech, X, Xp)
    if progress:
        progress("screen", 1.0)
    n_polish = N_POLISH[effort]
    tops = [Triple(tuple(X[i]), tuple(Xp[i]), float(ys[i]), float(rates[i]))
            for i in _top_distinct(rates, n_polish)]
    from .adversary import adversarial_triples
    seed = int(rng.integers(0, 2**31))
    guided = [Triple(x, xp, y, rate) for x, xp, y, rate in adversarial_triples(mech, seed, effort)]
    polished = polish_all(mech, tops + guided, Lambda, [False] * (len(tops) + len(guided)),
                          POLISH_ITERS[effort])
    if progress:
        progress("polish", 1.0)
    # a screened triple and its polished form both compete; a guided one only in its best form
    triples = tops + [p for p, t in zip(polished, tops) if p is not t] + polished[len(tops):]
    triples.sort(key=lambda t: -t.rate)
    return Found(_verify_all(mech, triples[: 2 * n_polish]), X, Xp, rates)


def search_seeds(mech: Mechanism, effort="standard", seeds=()) -> Found:
    """Pairs around each seed point (see candidates.seed_pairs) down to float64 resolution; the
    best of each seed's own pairs are polished locally and always verified (the second phase)."""
    Lambda = float(mech.Lambda)
    gamma = float(mech.spec.bound.gamma)
    scale = float(mech.query.scale)
    pts = as_points(seeds, mech.dim)[:SEED_CAP[effort]]
    empty = np.zeros((0, mech.dim))
    if not pts:
        return Found([], empty, empty.copy(), np.zeros(0))
    SX, SXp = zip(*(seed_pairs(p, scale, gamma, Lambda, mech.dim, budget=SEED_PAIRS[effort],
                                            metric=mech.metric) for p in pts))
    seed_idx, start = [], 0
    for a in SX:
        seed_idx.append(np.arange(start, start + len(a)))
        start += len(a)
    X, Xp = np.concatenate(SX), np.concatenate(SXp)
    rates, ys = screen_rates(mech, X, Xp)
    starts = [Triple(tuple(X[i]), tuple(Xp[i]), float(ys[i]), float(rates[i]))
              for idx in seed_idx for i in idx[_top_distinct(rates[idx], SEED_POLISH[effort])]]
    seeded = polish_all(mech, starts, Lambda, [True] * len(starts), POLISH_ITERS[effort])
    return Found(_verify_all(mech, seeded), X, Xp, rates, seed_idx)
