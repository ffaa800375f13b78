"""The certificate stage: sound methods only.

Pure claims (delta = 0) on the convex domain R^d with the metric of a norm (input.metric): if,
region by region, ||grad f||_* <= a_R B and ||grad ln B||_* <= c_R in the dual norm (proved), with f
and B continuous, then along any segment |ln p_x(y) - ln p_x'(y)| <= eps_cert * dist with

    eps_cert = max_R sup_u [eta a_R |psi(u)| + c_R |1 + u psi(u)|]     (docs/certificate.md),

enclosed with arb (family_sup) or, where it meets the claim exactly, proved with z3 (family_z3).
Approximate claims: a certified pure epsilon <= the claim settles any delta; otherwise Laplace noise
with linear growth and B* exactly as Definition 9 uses Lemma 3.1 and Lemma 3.6, with the condition
delta <= 1/e that Lemma 3.6 needs and does not state; Laplace noise with exponential growth uses
Laud, Pankova and Pettai's Theorem 4 on the proved local conditions (docs/certificate.md).
"""

from __future__ import annotations

import mpmath
import sympy as sp

from ..kernel import numbers, profile
from ..model.mechanism import Mechanism
from ..verdict import CERTIFIED, REFUTED, SKIPPED, UNKNOWN, Check, all_hold
from ..spec.types import BoundKind, Growth
from . import handoff
from .family_sup import enclose_rate, paper_constants
from .family_z3 import prove_rate_at_most

TOL = 1e-9


def at_most_claim(value, claim) -> bool:
    """Sound `value <= claim` (kernel.numbers.le): True only when proved.  An infinite or NaN
    value (an unbounded rate) is never proved <= a finite claim."""
    if isinstance(value, mpmath.mpf) and not mpmath.isfinite(value):
        return False
    return numbers.le(value, claim) is True


def prove_stage(mech: Mechanism, pieces: bool = True, found=None):
    """The proof stage's outcome (gpaudit.prove): regions with certified rates, checks, seeds.
    ``pieces=False``: definedness and continuity of the pieces are left to the kernel
    (prove.engine.settle_pieces completes the outcome); ``found``: prove_conditions'."""
    from ..prove import prove_conditions  # deferred: z3 loads only when a certificate is wanted

    return prove_conditions(mech, pieces=pieces, found=found)


def bound_conditions(mech: Mechanism, proof=None):
    """(regions [(label, a, c)], checks, witness) from the proof stage (gpaudit.prove)."""
    out = proof if proof is not None else prove_stage(mech)
    return [(r.region, r.a, r.c) for r in out.regions], list(out.checks), out.witness


def family_rate(mech: Mechanism, regions):
    """(upper, lower, per-region evidence) of max_R sup_u [eta a_R |psi| + c_R |1 + u psi|]."""
    upper, lower, ev = mpmath.mpf(0), mpmath.mpf(0), []
    for label, a, c in regions:
        enc = enclose_rate(mech.family, exact(mech.eta) * exact(a), exact(c), tol=TOL)
        ev.append({"region": label, "a": str(a), "c": str(c),
                   "upper": numbers.decimal_up(enc.upper, 20), "lower": numbers.decimal_down(enc.lower, 20),
                   "u_star": mpmath.nstr(enc.u_star, 12), "boxes": enc.boxes})
        upper, lower = max(upper, enc.upper), max(lower, enc.lower)
    return upper, lower, ev


exact = numbers.exact   # mpf -> its exact dyadic value (never truncated), sympy -> itself


def certify(mech: Mechanism, outcome, proof=None):
    """(epsilon_upper or None, checks, within): `within` is True only when the rate is shown
    <= the claim by a sound comparison (kernel.numbers.le, or an exact z3 proof)."""
    checks = []
    regions, proof_checks, _ = bound_conditions(mech, proof)
    checks += proof_checks
    if not regions or not all_hold(c.status for c in proof_checks):
        checks.append(Check("certificate.rate", UNKNOWN, "none",
                            "the bound's conditions are not established by sound methods"))
        return None, checks, False
    upper, lower, ev = family_rate(mech, regions)
    claim_eps = mech.spec.claim.epsilon
    consts = [(lbl, mpmath.nstr(v, 12)) for lbl, v in paper_constants(mech.family, mech.eta, mech.spec.bound.gamma)]
    evidence = {"regions": ev, "paper_constants": consts}
    if not mpmath.isfinite(upper):
        approx = mech.spec.claim.delta != 0
        shown = mech.family.u_score_unbounded and any(sp.sympify(c).is_positive is True for _, _, c in regions)
        slope = mech.family.score_unbounded and any(sp.sympify(a).is_positive is True for _, a, _ in regions) \
            and sp.sympify(mech.eta).is_positive is True
        why = ("the pure rate is unbounded: c_R > 0 and |1 + u psi(u)| grows without bound for this family"
               if shown else
               "the pure rate is unbounded: a_R > 0 and the score |psi(u)| grows without bound for this family"
               if slope else "the arb branch-and-bound found no finite bound on the pure rate "
               "(not resolved within its box budget)")
        checks.append(Check("certificate.rate", SKIPPED if approx else UNKNOWN, "arb branch-and-bound",
                            why + ("; the approximate claim is decided by the hockey-stick route" if approx else ""),
                            evidence))
        return approximate(mech, checks, regions) if approx else (None, checks, False)
    detail = f"eps_cert in [{mpmath.nstr(lower, 10)}, {mpmath.nstr(upper, 10)}] (arb branch and bound, tol {TOL})"
    method = "arb branch-and-bound"
    eps_upper = upper
    within = at_most_claim(upper, claim_eps)
    if not within and at_most_claim(lower, claim_eps):
        # the enclosure straddles the claim: try an exact proof that the rate is <= the claim
        for label, a, c in regions:
            st, why = prove_rate_at_most(mech.family, sp.sympify(mech.eta) * sp.sympify(a), sp.sympify(c), claim_eps)
            evidence["z3"] = why
            if st != CERTIFIED:
                break
        else:
            eps_upper, within = numbers.up(claim_eps), True
            evidence["tie"] = True       # the rate meets the claim: the kernel is handed the claim itself
            method += " + z3"
            detail += f"; z3 proves eps_cert <= {claim_eps} exactly"
    checks.append(Check("certificate.rate", CERTIFIED, method, detail, evidence))
    if (mech.exact_model and outcome.epsilon_lower is not None
            and numbers.le(outcome.epsilon_lower, eps_upper) is False):
        checks.append(Check("consistency", REFUTED, "audit vs certificate",
                            "a loss rate verified on the exact model exceeds the certified bound: "
                            "the model or the certificate is wrong"))
        return None, checks, False
    if mech.spec.claim.delta != 0 and not within:
        return approximate(mech, checks, regions)
    return eps_upper, checks, within


def approximate(mech: Mechanism, checks, regions=()):
    """The delta > 0 routes: the exact profile (B a constant), Lemma 3.6 (linear growth) or Laud et
    al.'s Theorem 4 (exponential)."""
    bs = mech.spec.bound
    constant = bool(regions) and mech.bound.expr is not None and sp.sympify(mech.bound.expr).is_number
    if (constant and profile.covers(mech.family.name, handoff.problem(mech).log_density)
            and sp.sympify(bs.Lambda).is_finite is True):
        return exact_profile(mech, checks, regions)
    if (mech.family.name == "laplace" and bs.growth == Growth.LINEAR and bs.kind == BoundKind.SMOOTH_SENSITIVITY
            and mech.query.lipschitz is not None):
        return lemma_36(mech, checks)
    if mech.family.name == "laplace" and bs.growth == Growth.EXPONENTIAL and regions:
        return laud_theorem_4(mech, checks, regions)
    checks.append(Check("certificate.delta", UNKNOWN, "none",
                        "no sound hockey-stick bound for this family / growth / bound" + (
                            "; the exact profile of a constant B needs Laplace or Gaussian noise and a finite "
                            "Lambda (with Lambda = inf the shift bound A B dist grows without limit, and so the "
                            "profile's bound over the claim's pairs tends to 1)" if constant else "")))
    return None, checks, False


def exact_profile(mech: Mechanism, checks, regions):
    """Fixed-scale noise (B a constant; Laplace or Gaussian noise; Lambda finite): the exact
    hockey-stick divergence of the largest shift the proved cover conditions allow, A B Lambda with
    A = max a_R, at the pair distance Lambda (kernel.profile, docs/certificate.md)."""
    spec = mech.spec
    method = "exact privacy profile (hockey-stick divergence of the largest shift)"
    fam, lam = mech.family.name, sp.sympify(spec.bound.Lambda)
    A = sp.Max(*[sp.sympify(a) for _, a, _ in regions])
    H, mu = profile.worst_pair(fam, spec.claim.epsilon, A, mech.eta, lam)
    with mpmath.workdps(60):
        upper = numbers.decimal_up(H, 20)
    decided = numbers.le(H, spec.claim.delta)
    within = decided is True
    ev = {"route": "exact_profile", "A": str(A), "shift_in_scales": numbers.decimal_up(mu, 20),
          "delta_upper_at_claim": upper}
    checks.append(Check("certificate.delta", CERTIFIED, method,
                        f"|f(x) - f(x')| <= {A} B dist (proved), noise scale B/eta: at distance Lambda = {lam} the "
                        f"shift is {numbers.decimal_up(mu, 8)} scales and the {fam} divergence at epsilon Lambda "
                        f"is <= {numbers.decimal_up(H, 8)}" + {True: "", False: " > delta: the audit looks for a pair realising it",
                                                                 None: ", not decided against delta (its arb enclosures "
                                                                       "straddle delta)"}[decided],
                        ev))
    return (numbers.up(sp.sympify(spec.claim.epsilon)) if within else None), checks, within


def lemma_36(mech: Mechanism, checks):
    """Lemma 3.6 for Laplace noise, linear growth and B* exactly as Definition 9 (Lemma 3.1)."""
    bs, delta = mech.spec.bound, mech.spec.claim.delta
    bound = mech.eta + bs.gamma * sp.Max(1, sp.log(1 / sp.sympify(delta)))
    with mpmath.workdps(60):
        eps_upper = numbers.up(bound)
        within = at_most_claim(bound, mech.spec.claim.epsilon)   # exact (sympy decides a tie)
        ratio = (sp.sympify(mech.spec.claim.epsilon) - mech.eta) / bs.gamma
        delta_upper = sp.exp(-ratio) if numbers.le(1, ratio) is True else None   # exact; printed rounded up
    shown = "n/a (needs epsilon >= eta + gamma)" if delta_upper is None else numbers.decimal_up(delta_upper, 6)
    checks.append(Check("certificate.delta", CERTIFIED, "theorem: Liang-Yi Lemma 3.1 + Lemma 3.6 (delta <= 1/e)",
                        f"(eta + gamma max(1, ln 1/delta), delta)-GP: epsilon <= {numbers.decimal_up(eps_upper, 12)}; "
                        f"at the claimed epsilon, delta <= {shown}",
                        {"delta_upper_at_claim": None if delta_upper is None else numbers.decimal_up(delta_upper, 20),
                         "route": "lemma_3_6"}))
    return eps_upper, checks, within


def laud_theorem_4(mech: Mechanism, checks, regions):
    """Laud, Pankova and Pettai, Theorem 4 (App. C.3), on the proved local conditions.

    The proof stage showed ||grad f||_* <= a_R B and ||grad ln B||_* <= c_R on every region, with f
    and B continuous and B > 0. With A = max a_R and C = max c_R, c = A B is an upper bound on the
    derivative sensitivity that is C-smooth along segments, and the noise B/eta Z is c/b Z with
    b = A eta. For x, x' at distance L and epsilon >= b + C, the theorem's proof (Lemmas 19, 20 and
    the triangle inequality of d_DP: the scale moves from c(x) to the segment's maximum c_mu,
    the location moves at scale c_mu, and the scale moves back) gives, with k = 1 + (epsilon - b)/C,

        P[M(x) in S] <= e^(epsilon L) (P[M(x') in S] + 2 e^-k)

    (its statement (epsilon, 2 e^epsilon delta)-DP is this at L = 1). So the claim holds for all
    pairs with L <= Lambda when epsilon >= b + C and delta >= 2 e^(epsilon Lambda - k); every
    comparison below is exact (kernel.numbers.le)."""
    eps, delta, lam = (sp.sympify(mech.spec.claim.epsilon), sp.sympify(mech.spec.claim.delta),
                       sp.sympify(mech.spec.bound.Lambda))
    A = sp.Max(*[sp.sympify(a) for _, a, _ in regions])
    C = sp.Max(*[sp.sympify(c) for _, _, c in regions])
    b = sp.sympify(mech.eta) * A
    method = "theorem: Laud-Pankova-Pettai Theorem 4 (Laplace noise, beta-smooth bound)"
    ev = {"b": str(b), "beta": str(C), "Lambda": str(lam), "route": "laud_theorem_4"}
    if lam == sp.oo or not C.is_positive:
        why = ("it needs a finite Lambda: its delta grows as 2 e^(epsilon L - k) with the distance L"
               if lam == sp.oo else "it needs a positive smoothness beta")
        checks.append(Check("certificate.delta", UNKNOWN, method, f"not applicable: {why}", ev))
        return None, checks, False
    k = 1 + (eps - b) / C
    delta_at_claim = 2 * sp.exp(eps * lam - k)
    within = numbers.le(b + C, eps) is True and numbers.le(delta_at_claim, delta) is True
    if numbers.le(1, lam * C) is not False:
        # delta(epsilon) = 2 e^(epsilon (Lambda - 1/C) - 1 + b/C) does not decrease in epsilon
        checks.append(Check("certificate.delta", UNKNOWN, method,
                            f"not applicable: Lambda * beta = {lam * C} is not below 1, so no epsilon makes "
                            "2 e^(epsilon Lambda - k) small", ev))
        return None, checks, False
    eps_star = sp.Max(b + C, (sp.log(2 / delta) - 1 + b / C) / (1 / C - lam))
    with mpmath.workdps(60):
        eps_upper = numbers.up(eps_star)
    shown = (numbers.decimal_up(delta_at_claim, 6) if numbers.le(b + C, eps) is True
             else "n/a (needs epsilon >= b + beta)")
    ev["delta_upper_at_claim"] = None if shown.startswith("n/a") else numbers.decimal_up(delta_at_claim, 20)
    checks.append(Check("certificate.delta", CERTIFIED, method,
                        f"b = eta max a_R = {b}, beta = max c_R = {C}: (epsilon, 2 e^(epsilon Lambda - k))-GP "
                        f"with k = 1 + (epsilon - b)/beta for epsilon >= b + beta; at the claimed delta, "
                        f"epsilon <= {numbers.decimal_up(eps_upper, 12)}; at the claimed epsilon, delta <= {shown}",
                        ev))
    return eps_upper, checks, within
