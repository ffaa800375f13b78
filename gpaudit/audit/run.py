"""One audit of one mechanism: privacy-loss search, hockey-stick for delta > 0, Definition 8 tests."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import mpmath
import numpy as np
import sympy as sp

from ..model.mechanism import Mechanism, exact_decimal, mp_exact
from ..verdict import Check, REFUTED, UNKNOWN
from .conditions import check_cover, check_smooth
from ..kernel import numbers
from .hockey import STABLE, worst_hockey_stick
from .search import Found, VerifiedTriple, search_main, search_seeds


def mpstr(v, digits=30) -> str:
    return mpmath.nstr(v, digits, strip_zeros=False) if v is not None else None


@dataclass(frozen=True)
class AuditOutcome:
    witness: dict | None
    epsilon_lower: object            # mpf or None
    best: VerifiedTriple | None
    checks: list = field(default_factory=list)
    stats: dict = field(default_factory=dict)
    found: Found | None = field(default=None, repr=False)  # the search's pairs and triples


def dist_text(mech: Mechanism, x, xp) -> str:
    """A witness pair's distance in the configured metric: its exact decimal expansion where the
    distance is rational (one dimension, l1, linf: the coordinates are binary fractions), else 30
    significant digits rounded up."""
    d = mech.metric.dist_exact(x, xp)
    if d.is_Rational:
        q = sp.Rational(d)
        twos = sp.multiplicity(2, q.q) if q.q > 1 else 0
        if q.q == 2**twos:     # a binary fraction: its decimal expansion ends after `twos` digits
            return exact_decimal_rational(q, twos)
    return numbers.decimal_up(d, 30)


def exact_decimal_rational(q, places: int) -> str:
    """The exact decimal expansion of a rational whose denominator divides 10^places."""
    scaled = int(q * 10**places)
    sign, digits = ("-" if scaled < 0 else ""), str(abs(scaled)).rjust(places + 1, "0")
    text = digits[:len(digits) - places] + ("." + digits[len(digits) - places:] if places else "")
    return sign + (text.rstrip("0").rstrip(".") if places else text)


def exceeds_delta(value, delta) -> bool:
    """A hockey-stick value at 100 digits exceeds delta by more than its stability margin, decided
    exactly (delta is not rounded to the working precision)."""
    with mpmath.workdps(110):
        low = value - STABLE
    return numbers.le(low, delta) is False


def triple_witness(mech: Mechanism, v: VerifiedTriple) -> dict:
    with mpmath.workdps(50):
        bound = mp_exact(mech.epsilon) * v.dist
    return {"x": [exact_decimal(float(c)) for c in v.x], "x_prime": [exact_decimal(float(c)) for c in v.xp], "y": exact_decimal(float(v.y)),
            "dist": dist_text(mech, v.x, v.xp), "log_ratio": mpstr(v.log_ratio),
            "epsilon_times_dist": mpstr(bound), "rate": mpstr(v.rate)}


def resolution_note(mech: Mechanism, n_pairs: int) -> str:
    """'' or why the float64 search says little here (a prefix for the search checks' details).

    Far from the origin a double cannot resolve a tiny query scale (tau = 1e-200 at T = 1e200):
    every candidate pair collapses onto one point.  The search stays sound (it only reports
    what it verifies); it is just vacuous, and the verdict rests on the certificate."""
    try:
        marks = np.abs(np.atleast_2d(np.asarray(mech.query.landmarks, float)))
        where = float(np.max(marks)) if marks.size else 0.0
        scale = float(mech.query.scale)
    except (TypeError, ValueError, OverflowError):
        return ""
    if where > 0 and not scale > where * 2.0**-40:
        return (f"float64 cannot resolve the query's scale {scale:.3g} at |x| ~ {where:.3g}, so the "
                f"search is vacuous (only the certificate can decide); ")
    if n_pairs == 0:
        return "no pair of distinct float64 inputs within Lambda could be formed; "
    return ""


def audit(mech: Mechanism, seed: int = 0, effort: str = "standard", progress=None, *,
          seeds=()) -> AuditOutcome:
    """Search (x, x', y) violating the claim; only triples verified in mpmath count.

    seeds: input points (sequences of d floats, decimal strings or fractions) where another stage
    saw a condition fail; when the first phase found no witness, the audit places pairs around
    each as around a landmark, down to float64 resolution, and always polishes and verifies the
    best of them (at most SEED_CAP[effort] seeds; malformed points are ignored)."""
    outcome = audit_main(mech, seed, effort, progress)
    return audit_seeds(mech, outcome, seeds) if seeds else outcome


def audit_main(mech: Mechanism, seed: int = 0, effort: str = "standard", progress=None) -> AuditOutcome:
    """The first phase: the screen around the query's landmarks and the guided adversary."""
    t0 = time.perf_counter()
    found = search_main(mech, np.random.default_rng(seed), effort, progress)
    return _outcome(mech, found, seed, effort, time.perf_counter() - t0)


def audit_seeds(mech: Mechanism, outcome: AuditOutcome, seeds) -> AuditOutcome:
    """The second phase, around seed points, only where the first found no witness (a witness
    already settles the audit; and so the witness does not depend on whether seeds were given)."""
    if outcome.witness is not None or not seeds:
        return outcome
    t0 = time.perf_counter()
    effort = outcome.stats["effort"]
    found = outcome.found.merged(search_seeds(mech, effort, seeds))
    out = _outcome(mech, found, outcome.stats["seed"], effort,
                   outcome.stats["seconds"] + time.perf_counter() - t0)
    out.stats["seed_points"] = len(found.seed_idx)
    return out


def _outcome(mech: Mechanism, found: Found, seed, effort, seconds) -> AuditOutcome:
    """The audit's checks and summaries from what the search found."""
    verified, n_pairs, X, Xp, rates, seed_idx = (found.verified, found.n_pairs, found.X, found.Xp,
                                                 found.rates, found.seed_idx)
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
                                f"{mpmath.nstr(mpmath.mpf(witness['epsilon_times_dist']), 12)}", {"pairs_screened": n_pairs}))
        else:
            checks.append(Check("privacy.loss", UNKNOWN, "float64 screen + Nelder-Mead + mpmath",
                                f"{resolution_note(mech, n_pairs)}no violating (x, x', y) among {n_pairs} pairs; "
                                "largest verified rate "
                                f"{mpstr(eps_lower, 8) if eps_lower is not None else 'n/a'}",
                                {"pairs_screened": n_pairs}))
    else:
        hs = worst_hockey_stick(mech, X, Xp, rates, effort=effort, must=seed_idx)
        if hs is not None and exceeds_delta(hs[0], mech.delta):
            val, x, xp, ivs = hs
            witness = {"x": [exact_decimal(float(c)) for c in x], "x_prime": [exact_decimal(float(c)) for c in xp],
                       "dist": dist_text(mech, x, xp),
                       "hockey_stick": mpstr(val), "set": [[exact_decimal(float(lo)), exact_decimal(float(hi))] for lo, hi in ivs]}
            checks.append(Check("privacy.hockey_stick", REFUTED, "exact distribution functions in mpmath",
                                f"P[M(x) in S] - e^(eps d) P[M(x') in S] = {mpstr(val, 12)} > delta",
                                {"pairs_screened": n_pairs}))
        else:
            checks.append(Check("privacy.hockey_stick", UNKNOWN, "exact distribution functions in mpmath",
                                f"{resolution_note(mech, n_pairs)}largest hockey-stick divergence found "
                                f"{mpstr(hs[0], 8) if hs else 'n/a'} <= delta (search cannot certify)"))
    checks.append(check_cover(mech, X, Xp))
    checks.append(check_smooth(mech, X, Xp))
    stats = {"pairs_screened": int(n_pairs), "seed": seed, "effort": effort, "seconds": round(seconds, 3)}
    if not pure and hs is not None:
        # delta > 0: what the claim is about is the divergence, not the pure loss rate
        stats["hockey_stick_max"] = numbers.decimal_down(hs[0], 8)
    return AuditOutcome(witness, eps_lower, best, checks, stats, found)
