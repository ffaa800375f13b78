"""One audit of one mechanism: privacy-loss search, hockey-stick for delta > 0, Definition 8 tests."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import mpmath
import numpy as np

from ..model.mechanism import Mechanism, exact_decimal, mp_exact
from ..verdict import Check, REFUTED, UNKNOWN
from .conditions import check_cover, check_smooth
from .hockey import worst_hockey_stick
from .search import VerifiedTriple, search


def mpstr(v, digits=30) -> str:
    return mpmath.nstr(v, digits, strip_zeros=False) if v is not None else None


@dataclass
class AuditOutcome:
    witness: dict | None
    epsilon_lower: object            # mpf or None
    best: VerifiedTriple | None
    checks: list = field(default_factory=list)
    stats: dict = field(default_factory=dict)


def triple_witness(mech: Mechanism, v: VerifiedTriple) -> dict:
    with mpmath.workdps(50):
        bound = mp_exact(mech.epsilon) * v.dist
    return {"x": [exact_decimal(float(c)) for c in v.x], "x_prime": [exact_decimal(float(c)) for c in v.xp], "y": exact_decimal(float(v.y)),
            "dist": mpstr(v.dist), "log_ratio": mpstr(v.log_ratio),
            "epsilon_times_dist": mpstr(bound), "rate": mpstr(v.rate)}


def audit(mech: Mechanism, seed: int = 0, effort: str = "standard", progress=None) -> AuditOutcome:
    t0 = time.perf_counter()
    rng = np.random.default_rng(seed)
    verified, n_pairs, (X, Xp, rates) = search(mech, rng, effort, progress)
    best = verified[0] if verified else None
    eps_lower = best.rate if best is not None and best.rate > 0 else None
    pure = mech.delta == 0
    witness, checks = None, []
    violating = [v for v in verified if v.violates]
    if pure:
        if violating:
            v = violating[0]
            witness = triple_witness(mech, v)
            checks.append(Check("privacy.loss", REFUTED, "float64 screen + Nelder-Mead + mpmath (50 and 100 digits)",
                                f"ln p_x(y) - ln p_x'(y) = {mpstr(v.log_ratio, 12)} > epsilon*dist = "
                                f"{witness['epsilon_times_dist'][:14]}", {"pairs_screened": n_pairs}))
        else:
            checks.append(Check("privacy.loss", UNKNOWN, "float64 screen + Nelder-Mead + mpmath",
                                f"no violating (x, x', y) among {n_pairs} pairs; largest verified rate "
                                f"{mpstr(eps_lower, 8) if eps_lower is not None else 'n/a'}",
                                {"pairs_screened": n_pairs}))
    else:
        hs = worst_hockey_stick(mech, X, Xp, rates)
        delta = mp_exact(mech.delta)
        if hs is not None and hs[0] > delta:
            val, x, xp, ivs = hs
            witness = {"x": [exact_decimal(float(c)) for c in x], "x_prime": [exact_decimal(float(c)) for c in xp],
                       "dist": mpstr(mpmath.sqrt(sum((mpmath.mpf(a) - mpmath.mpf(b))**2 for a, b in zip(x, xp)))),
                       "hockey_stick": mpstr(val), "set": [[exact_decimal(float(lo)), exact_decimal(float(hi))] for lo, hi in ivs]}
            checks.append(Check("privacy.hockey_stick", REFUTED, "exact distribution functions in mpmath",
                                f"P[M(x) in S] - e^(eps d) P[M(x') in S] = {mpstr(val, 12)} > delta",
                                {"pairs_screened": n_pairs}))
        else:
            checks.append(Check("privacy.hockey_stick", UNKNOWN, "exact distribution functions in mpmath",
                                "largest hockey-stick divergence found "
                                f"{mpstr(hs[0], 8) if hs else 'n/a'} <= delta (search cannot certify)"))
    checks.append(check_cover(mech, X, Xp))
    checks.append(check_smooth(mech, X, Xp))
    stats = {"pairs_screened": int(n_pairs), "seed": seed, "effort": effort,
             "seconds": round(time.perf_counter() - t0, 3)}
    return AuditOutcome(witness, eps_lower, best, checks, stats)
