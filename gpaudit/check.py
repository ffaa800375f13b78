"""The pipeline behind `gpaudit check`: spec -> mechanism -> audit and certificate -> verdict.

Only sound methods can raise a verdict to certified; the audit can only refute.
"""

from __future__ import annotations

import dataclasses
import time

import sympy as sp


from .audit.run import audit_main, audit_seeds, triple_witness
from .audit.tolerance import judge, user_fns
from .certify.beside import ProofBeside
from .certify.pipeline import certify
from .certify import handoff
from .kernel import certificate as kcert
from .kernel import numbers
from .kernel import z3door as zb
from .kernel.decide import Evidence, decide
from .model.mechanism import build_mechanism
from .model import usercode
from .model.usercode import user_code_checks
from .model.trace import trace_info, untraced
from .runtime import budget
from .spec.load import load_spec
from .spec.types import BoundKind, QueryKind, two_point_needed
from .errors import ConfigError, FieldError, RunOutOfTime, UserCodeError
from .verdict import CERTIFIED, REFUTED, SKIPPED, UNKNOWN, Check, Result, all_hold


def _stopped_result(spec, check: Check, seconds=None) -> Result:
    """Unknown, for that file alone, with the one check that says why the check stopped."""
    info = {} if seconds is None else {"seconds": round(seconds, 3)}
    return Result(spec.name, spec.path, spec.sha256, UNKNOWN,
                  {"epsilon": str(spec.claim.epsilon), "delta": str(spec.claim.delta)}, checks=[check], info=info)


def user_code_result(spec, err: UserCodeError, seconds=None) -> Result:
    """The result of a file whose python callable raised: unknown, for that file alone."""
    return _stopped_result(spec, Check("user_code", UNKNOWN, f"call of the user callable {err.ref}", err.detail(),
                                       {"callable": err.ref, "x": [str(v) for v in err.x],
                                        "exception": type(err.exc).__name__}), seconds)


# The last resort of "every run ends": whatever the budgets above do not bound (a callable whose loop
# never ends: 2 ms calls are bounded by usercode.SECONDS, an endless one is not), SIGALRM ends the
# check of one file after RUN_WATCHDOG_SECONDS (runtime.budget.alarm), unknown, the detail naming the
# one nondeterministic limit.  In the main thread only (signals reach no other); a z3 call under way
# ends by its own limits.
RUN_WATCHDOG_SECONDS = 112


def out_of_time_result(spec, seconds) -> Result:
    """The result of a file its watchdog stopped: unknown, for that file alone."""
    return _stopped_result(spec, Check("run", UNKNOWN, "watchdog",
                                       f"the run's watchdog stopped the check after {RUN_WATCHDOG_SECONDS} s (a loop "
                                       f"that does not end, in a python callable or elsewhere; {zb.WALL_CLOCK_NOTE})"),
                           seconds)


def check_spec(spec, progress=None, seed=None, effort=None, full_evidence=False) -> Result:
    """Check one loaded configuration.  A python callable that fails at an input (an exception,
    SystemExit included, NaN, a value that changes between precisions) gives that input no value and
    a ``user_code`` check; the audit goes on elsewhere (model.usercode).  A UserCodeError still
    reaching here gives this file an unknown result naming the input; a callable that cannot be
    loaded any more raises ConfigError.

    The audit's first phase runs before the proof stage: a witness it verifies on an exact model
    settles ``refuted``, and the proof stage is skipped (its result cannot change the verdict).
    ``full_evidence`` runs the proof stage anyway, for the certified bound and the consistency
    check of a refuted configuration; the witness is the same either way."""
    t0 = time.perf_counter()
    try:
        with budget.alarm(RUN_WATCHDOG_SECONDS, RunOutOfTime), usercode.time_budget():
            return _check_spec(spec, progress, seed, effort, t0, full_evidence)
    except UserCodeError as err:
        return user_code_result(spec, err, time.perf_counter() - t0)
    except RunOutOfTime:
        return out_of_time_result(spec, time.perf_counter() - t0)


def _check_spec(spec, progress, seed, effort, t0, full_evidence=False) -> Result:
    if getattr(spec, "notion", "geo_privacy") != "geo_privacy":   # smoothed DP / DP: gpaudit/smoothed
        from .smoothed.check import check_smoothed
        return check_smoothed(spec)
    try:
        mech = build_mechanism(spec)
    except FieldError as err:  # a python callable's module vanished or broke since loading
        raise ConfigError(spec.path, err.field, err.problem) from None
    seed = spec.audit.seed if seed is None else seed
    effort = effort or spec.audit.effort
    if spec.output_dim > 1:              # vector outputs: the audit in R^k, the k-dim certificate
        from .certify.vector import check_vector
        return check_vector(spec, mech, seed, effort, t0)
    # the proof stage reads only the mechanism: where a core is free, a copy of this process runs
    # it during the audit (certify.beside; the outcome is the same either way)
    with ProofBeside(mech) as beside:
        outcome = audit_main(mech, seed=seed, effort=effort, progress=progress)
        judged = judge(mech, outcome)
        settled = judged.counts and not full_evidence
        if progress and not settled:
            progress("prove", 0.0)
        # the kernel decides what no certificate changes, the pieces of f and B owned, defined and
        # continuous, then what no rate changes, about the regions the copy found, while the copy
        # finds the rates, and each region's own obligations as its rates come (where there is a
        # copy; else after the stage, here); the proof stage leaves the pieces to it
        prepared = None if settled else kernel_prepare(mech)
        if not settled and prepared is not None:
            leaves, rates = beside.leaves(), {}
            prepared = kernel_prepare(mech, leaves, prepared)
            for label, a, c in beside.rates() if leaves is not None else ():
                rates[label] = {"a": a, "c": c}
                ready = kernel_prepare(mech, leaves, prepared, rates)
                if ready is None or ready is prepared:   # a region's did not all hold: the check decides
                    break                                 # them (its own budget; at_requirement's constants)
                prepared = ready
        proof = None if settled else beside.result()
    if proof is not None and proof.deferred:
        # the kernel's answers where they all hold, else the proof stage's own (a witness)
        from .prove.engine import settle_pieces
        proof = settle_pieces(mech, proof, None if prepared is None else prepared.pieces)
    info = {"audit": outcome.stats, "bound_source": mech.bound.source,
            "family": mech.family.name, "binary_floats": list(spec.binary_floats)}
    verified = None
    info.update(trace_info(mech.query, mech.bound))
    if settled:
        upper, cert_checks, within = None, [], False
        info["proof_stage"] = PROOF_SKIPPED if judged.how == "exact" else PROOF_SKIPPED_TOLERANCE
    else:
        outcome = audit_seeds(mech, outcome, proof.seeds)
        judged = judge(mech, outcome)
        info["audit"] = outcome.stats
        upper, cert_checks, within = certify(mech, outcome, proof)
        if within and spec.claim.delta != 0 and outcome.witness is not None and judged.counts:
            # a route certified (eps, delta) while the audit verified a larger divergence: one is wrong
            cert_checks = list(cert_checks) + [Check(
                "consistency", REFUTED, "audit vs certificate",
                "a hockey-stick divergence verified on the exact model exceeds the delta a route "
                "certified: the model or the certificate is wrong")]
            within = False
        verified, kernel_check, cert_json = kernel_check_of(
            mech, proof, upper, cert_checks, within, prepared,
            seconds=round(max(KERNEL_SECONDS_MIN, RUN_SECONDS - (time.perf_counter() - t0))))
        if cert_json is not None:
            info["certificate"] = cert_json
        if kernel_check is not None:
            if kernel_check.evidence.get("at_requirement"):
                upper = numbers.up(verified.epsilon_upper)      # what the kernel certified: the claim
            cert_checks = list(cert_checks) + [kernel_check]
        info["certified_bound"] = _certified_bound(mech, proof)
        info["proof_cache_reused"] = proof.cache_reused()
    audit_checks = list(outcome.checks)
    witness, eps_lower = outcome.witness, outcome.epsilon_lower
    # python callables: a witness counts where their values are exact, or beyond their tolerance
    approx = not mech.exact_model and not judged.counts or witness is not None and not judged.counts
    if judged.counts and judged.triple is not None and judged.triple is not outcome.best:
        witness = triple_witness(mech, judged.triple)
    if judged.how == "tolerance":
        eps_lower = judged.rate_lower
        audit_checks = [_within_tolerance(c, judged.tolerance) for c in audit_checks]
    info.update(_user_code_info(mech, judged))
    if spec.literal_notes:
        info["notes"] = list(spec.literal_notes) + info.get("notes", [])
    if approx:
        # a witness on an approximate model (numerical B*, a float64 callable) is evidence only
        parts = [t for t, on in ((f"f is {mech.query.note or 'approximate'}", mech.query.numeric),
                                 (f"B is {mech.bound.source}", mech.bound.numeric)) if on]
        info["model"] = ("approximate: " + "; ".join(
            parts or ["the python callables' values at the witness are not measured exact"])
            + "; witnesses found on it are evidence, not refutations")
        if witness is not None:
            info["approximate_witness"] = witness
        if eps_lower is not None:
            info["approximate_epsilon_lower"] = str(eps_lower)
        audit_checks = [_as_evidence(c) for c in audit_checks]
    why = two_point_needed(spec)
    if why is None:
        audit_checks = [_informational(c) for c in audit_checks]
    cert_checks = list(cert_checks) + user_code_checks([u for _, u, _ in user_fns(mech)])
    ev = Evidence(witness=witness is not None, witness_exact=judged.counts,
                  within_claim=bool(within), certificate_checks=tuple(c.status for c in cert_checks),
                  verified=verified,
                  inconsistent=any(c.id == "consistency" and c.status == REFUTED for c in cert_checks))
    decision = decide(ev)
    if approx:
        witness, eps_lower = None, None
    claim = {"epsilon": str(spec.claim.epsilon), "delta": str(spec.claim.delta), "metric": mech.metric.label}
    info["decision"] = {"rule": decision.rule, "reason": decision.reason}
    if witness is not None and decision.verdict != REFUTED:
        info["witness_not_counted"] = witness
    if decision.verdict == UNKNOWN:
        info["advice"] = advice(mech, audit_checks + list(cert_checks), upper, untraced(info))
    elif decision.verdict == REFUTED:
        info["advice"] = refuted_advice(mech)
    info["seconds"] = round(time.perf_counter() - t0, 3)
    return Result(spec.name, spec.path, spec.sha256, decision.verdict, claim, eps_lower, upper,
                  witness if decision.verdict == REFUTED else None, audit_checks + list(cert_checks), info,
                  decision)


# kernel_prepare decides the pieces' obligations for the report (proof.defined, proof.continuity)
# and for the kernel's check, under a small deterministic work budget of its own, so that it cannot
# hold a core the proof copy needs for long (two-way-student-t, the catalog's largest, needs about
# 2 s).  Where it runs out, the proof stage decides them with what is left of its own budget.
PREPARE_STEPS = 2 * 10**7
# Every run ends.  z3's step count does not bound the time of every nonlinear query (a step of
# nlsat on high-degree polynomials can cost seconds), so the kernel's prepare and check also have
# a wall-clock watchdog: the check's ends the run at RUN_SECONDS after it began (at least
# KERNEL_SECONDS_MIN from the check's start).  The catalog's checks end in seconds, far inside
# it; past it, the obligations left are unknown and the detail names the watchdog, the one
# nondeterministic limit (z3door.WALL_CLOCK_NOTE).
PREPARE_SECONDS = 30
RUN_SECONDS = 110
KERNEL_SECONDS_MIN = 10


def kernel_prepare(mech, leaves=None, prepared=None, rates=None):
    """kernel.certificate.prepare of the mechanism's problem, and with `leaves` (the proof stage's
    regions, and the `rates` of those it has proved so far: label -> {"a", "c"}) of the obligations
    about them that no bound E enters, from what `prepared` decided already.  Where the pieces'
    obligations do not all hold: None (the proof stage decides them itself, and finds a witness
    where one fails); where the regions' do not: `prepared` (the kernel's check decides them again,
    with its larger budget)."""
    P = handoff.problem(mech)
    try:
        with budget.work_budget(PREPARE_STEPS, PREPARE_SECONDS):
            ready = kcert.prepare(P, None if leaves is None else handoff.regions_of(leaves, rates, partial=True),
                                  prepared)
    except (ValueError, TypeError, zb.Unsupported):
        return prepared
    if not all(o.holds for o in ready.pieces):
        return None
    local = ready.local.run.outcomes if ready.local is not None else ()
    return ready if all(o.holds for o in ready.structure + tuple(local)) else prepared


# The kernel's check ends: a total budget of weighted z3 steps (the catalog's largest check,
# laud-thm3-sum2-l1-derived, spends 5.6e6), on top of each obligation's own, and the watchdog
# above. Either only leaves obligations undecided (unknown), never decides one.
KERNEL_STEPS = 10**8


def kernel_check_of(mech, proof, upper, cert_checks, within, prepared=None, seconds=None):
    """(Verified or None, the `kernel.certificate` check or None, the certificate as JSON or None).

    Where the generators (proof stage, rate enclosure, delta routes) say the claim is within reach,
    their findings are handed to the kernel as a certificate; the kernel re-derives every obligation
    from the mechanism and decides it (z3, no cache).  Only its `Verified` can make the verdict
    certified (kernel.decide)."""
    if not within or not all_hold(c.status for c in cert_checks):
        return None, None, None
    delta = next((c for c in cert_checks if c.id == "certificate.delta" and c.status == CERTIFIED), None)
    rate = next((c for c in cert_checks if c.id == "certificate.rate"), None)
    delta_route = delta.evidence.get("route") if delta is not None else None
    tie = rate is not None and rate.status == CERTIFIED and rate.evidence.get("tie") is True
    try:
        cert = handoff.from_proof(mech, proof, None if delta_route else upper, delta_route, tie)
        cert_json = handoff.to_json(cert)
    except (ValueError, TypeError) as err:
        return None, Check("kernel.certificate", UNKNOWN, "kernel", f"no certificate could be written: {err}"), None
    t0 = time.perf_counter()
    v, err, ended, stopped = _kernel_run(mech, cert, prepared, seconds)
    looser = None if v is not None or ended or stopped else at_requirement(mech, cert, err)
    if looser is not None:
        # the generator's tightest constants are beyond what the kernel can prove (a bound proved by
        # an arb enclosure, say); the constants the claim requires may not be: the kernel decides
        # the certificate with those, and certifies the claim itself, no tighter
        left = None if seconds is None else max(1, round(seconds - (time.perf_counter() - t0)))
        v2, err2, ended, stopped = _kernel_run(mech, looser, prepared, left)
        if v2 is not None:
            v, cert, cert_json = v2, looser, handoff.to_json(looser)
        else:
            err = err2
    if v is None:
        failed = [o.name for o in err.outcomes if not o.holds]
        return None, Check("kernel.certificate", UNKNOWN, "kernel: every obligation re-derived and decided (z3, no cache)",
                           f"the kernel did not accept the certificate: {', '.join(failed[:6])}"
                           + (f" and {len(failed) - 6} more" if len(failed) > 6 else "")
                           + (f" (its work budget of {KERNEL_STEPS:.0e} weighted z3 steps ended the check: "
                              "those obligations were not decided)" if ended else "")
                           + (f" (the kernel's watchdog ended the check: {stopped})" if stopped else ""),
                           {"failed": failed, "obligations": len(err.outcomes)}), cert_json
    n = len(v.outcomes)
    how = (" (at the constants the claim requires: the generator's tighter ones were not all proved)"
           if looser is not None and cert is looser else "")
    return v, Check("kernel.certificate", CERTIFIED, "kernel: every obligation re-derived and decided (z3, no cache)",
                    f"{n} obligations of route {v.route} hold; rate <= {numbers.decimal_up(v.epsilon_upper, 12)}{how}",
                    {"obligations": n, "seconds": round(time.perf_counter() - t0, 3),
                     "at_requirement": cert is looser}), cert_json


def _kernel_run(mech, cert, prepared, seconds):
    """(Verified or None, Rejected or None, the work budget ended, the watchdog's note or "")."""
    try:
        with budget.work_budget(KERNEL_STEPS, seconds) as work:
            try:
                v = kcert.check(handoff.problem(mech), cert, prepared)
            finally:
                ended, stopped = work.left() <= 0, work.stopped()
    except kcert.Rejected as err:
        return None, err, ended, stopped
    return v, None, ended, stopped


def at_requirement(mech, cert, rejected):
    """The certificate with every region's constants raised to what the claim requires (a = 1,
    c = gamma) and the bound E set to the claim's epsilon, where the kernel rejected only the
    regions' cover and smooth bounds of a pure claim's regions route and some constant is below
    that; else None.  The kernel decides it afresh: nothing of the first check is kept."""
    failed = [o.name for o in rejected.outcomes if not o.holds]
    if (cert.route != "regions" or cert.delta_route is not None or not failed
            or not all(n.startswith(("cover[", "smooth[")) for n in failed)):
        return None
    one, gamma = sp.Integer(1), sp.sympify(mech.spec.bound.gamma)
    raised = tuple(dataclasses.replace(r, a=one if numbers.le(r.a, one) else r.a,
                                       c=gamma if numbers.le(r.c, gamma) else r.c) for r in cert.regions)
    if raised == cert.regions:
        return None
    return dataclasses.replace(cert, regions=raised, epsilon_upper=sp.sympify(mech.spec.claim.epsilon))


PROOF_SKIPPED = ("skipped: a witness verified on the exact model settles refuted, and no proof can change "
                 "that (--full-evidence runs the proof stage anyway)")


PROOF_SKIPPED_TOLERANCE = ("skipped: a witness that holds for every value of the float64 programs within their "
                           "tolerance settles refuted, and no proof can change that (--full-evidence runs the "
                           "proof stage anyway)")


def _certified_bound(mech, proof) -> str:
    """Which B a certificate speaks about (the closed form is the mechanism only if it is B*)."""
    if proof.route == "theorem":
        return "B* exactly as Definition 9 defines it (Liang-Yi Lemma 3.1; the audit's grid only approximates it)"
    if mech.spec.bound.kind == BoundKind.SMOOTH_SENSITIVITY:
        return (f"the {mech.bound.source}: the certificate holds for this B; that it equals Definition 9's B* "
                "is checked numerically against a brute-force B* (tests), not proved")
    return f"the configuration's own B ({mech.bound.source})"


def _within_tolerance(c: Check, tolerance: dict) -> Check:
    """The refuting loss check of a witness counted beyond the float programs' tolerance."""
    if c.status != REFUTED or c.id != "privacy.loss":
        return c
    tols = ", ".join(f"{name} within relative tolerance {float(t):g}" for name, t in tolerance.items())
    return Check(c.id, c.status, c.method + " + arb enclosure over the float programs' tolerance",
                 f"{c.detail}, for every value of {tols} (arb enclosure)", c.evidence)


def _user_code_info(mech, judged) -> dict:
    """info fields of python callables: the sources and how the witness was judged (notes)."""
    fns = user_fns(mech)
    if not fns:
        return {}
    out = {"query_source" if name == "f" else "bound_source": mech.query.note if name == "f" else mech.bound.source
           for name, _, _ in fns}
    notes = []
    for name, u, tol in fns:
        if not u.exact or judged.how in ("tolerance", "within the float programs' tolerance"):
            field = "query.tolerance" if name == "f" else "bound.tolerance"
            notes.append(f"{name} ({u.ref}) is judged as a float64 program where its values are not measured exact: "
                         f"its values are taken within relative tolerance {float(tol):g} of the real function "
                         f"({field})")
    if judged.how not in ("exact", "no witness"):
        out["witness_judgement"] = judged.how
    if notes:
        out["notes"] = notes
    return out


def _as_evidence(c: Check) -> Check:
    """An audit check on an approximate model: a refutation there is evidence (status unknown)."""
    if c.status != REFUTED:
        return c
    return Check(c.id, UNKNOWN, c.method + " (approximate model)",
                 "found on an approximate model, not verified on the mechanism itself: " + c.detail, c.evidence)


def advice(mech, checks, upper, untraced: str = "") -> str:
    """One line for an unknown verdict: what would certify it, or that no route exists."""
    spec = mech.spec
    st = {c.id: c.status for c in checks}
    failed = [c for c in checks if c.id == "user_code"]
    if any(c.evidence.get("counts", {}).get("time") for c in failed):
        return (f"the python callables used up their wall-clock budget of {usercode.SECONDS} s before the audit "
                "was done (the audit calls them tens of thousands of times, at two precisions): make them "
                "faster, or traceable (docs/traceable-code.md) so that they are judged on their traces and "
                "never called, then check again")
    if failed:
        return (f"a python callable failed at an input ({failed[0].detail}); make it return a real number "
                "there (or restrict the claim), then check again")
    if (mech.query.expr is None and spec.query.kind == QueryKind.PYTHON
            or mech.bound.expr is None and spec.bound.kind == BoundKind.PYTHON):
        return ("no route: a python callable that cannot be traced is never certified (gpaudit cannot reason "
                f"about its code; tracing stopped: {untraced or 'see docs/traceable-code.md'}); make the code "
                "traceable (docs/traceable-code.md) or write f and B as expressions (kinds piecewise / constant / "
                "a built-in query) to certify")
    if spec.claim.delta != 0 and st.get("certificate.delta") == UNKNOWN and upper is None:
        return ("a delta > 0 claim is certified by a pure epsilon within the claim, by the exact profile, "
                "which needs a constant B, Laplace or Gaussian noise and a finite Lambda, by Lemma 3.6, which "
                "needs Laplace noise, linear growth and the built-in smooth sensitivity (bound.kind: "
                "smooth_sensitivity), or by Laud et al.'s Theorem 4, which needs Laplace noise, exponential "
                "growth, a finite Lambda and proved local conditions; none applies here")
    profile = next((c for c in checks if c.id == "certificate.delta" and c.status == CERTIFIED
                    and (c.evidence or {}).get("route") == "exact_profile"), None)
    if spec.claim.delta != 0 and profile is not None and upper is None:
        return (f"the exact profile bound {profile.evidence['delta_upper_at_claim']} (the largest shift the proved "
                "slope allows, at distance Lambda) is not shown <= delta and no pair exceeding delta was found: "
                "if the query's slope bound is not attained, a tighter B could certify it; else use more noise")
    undecided = [c.id for c in checks if c.id.startswith("proof.") and c.status == UNKNOWN]
    if undecided:
        return (f"the proof stage did not decide {', '.join(undecided)}: simpler pieces, exact constants, or "
                "a larger work budget (`gpaudit prove FILE --timeout-ms N`, to see where) could certify it")
    if st.get("certificate.rate") == UNKNOWN:
        return ("the certified rate is unbounded or not resolved for this family and bound (see "
                "certificate.rate); a family with bounded |1 + u psi(u)| (Student-t, GenCauchy, PolyPlace) "
                "or gamma = 0 could certify it")
    kernel = next((c for c in checks if c.id == "kernel.certificate" and c.status == UNKNOWN), None)
    if kernel is not None:
        failed = (kernel.evidence or {}).get("failed", [])
        return (f"the proof stage's certificate is within the claim but the kernel could not prove "
                f"{', '.join(failed[:3]) or 'its obligations'} (see kernel.certificate), and nothing is certified without "
                "it: simpler formulas for f and B, or exact constants, could certify it")
    if upper is not None:
        return (f"the certified bound {numbers.decimal_up(upper, 6)} is above the claim and no violation was found: "
                "the claim may hold but gpaudit cannot show it; audit harder (--effort thorough) to look "
                "for a witness, or claim epsilon >= the certified bound")
    return "no sound route certified this configuration (see the checks above)"


def refuted_advice(mech) -> str:
    """One line for a refuted verdict: why it cannot hold where that is structural, and what to do."""
    spec = mech.spec
    if (mech.family.name == "laplace" and spec.claim.delta == 0 and spec.bound.kind != BoundKind.CONSTANT
            and getattr(spec.bound.gamma, "is_positive", False)):
        return ("Laplace noise with gamma > 0 has an unbounded pure loss rate (the scale term gamma |1 + u psi(u)| "
                "= gamma (1 + |u|) grows without limit in the output), so no pure (delta = 0) claim can hold at "
                "any eta: claim delta > 0 (Lemma 3.6 with linear growth, or Laud et al.'s Theorem 4 with "
                "exponential growth and a finite Lambda), or use a heavy-tailed family (student_t, gen_cauchy, "
                "polyplace)")
    return ("the witness violates the claim: use more noise (a smaller eta; `gpaudit calibrate FILE --epsilon E` "
            "finds the least certified one), claim a larger epsilon, or fix B where the witness is")


INFORMATIONAL = ("informational, not needed for the verdict (only Lemma 3.6, with linear growth, rests on the two-point "
                 "conditions: docs/certificate.md)")


def _informational(c: Check) -> Check:
    """A search for the two-point conditions of Definition 8 where the certificate does not rest on
    them: what it found is reported, but it is neither a failure nor a verdict."""
    if not c.id.startswith("definition8.") or c.status == SKIPPED:
        return c
    found = "found: " if c.status == REFUTED else ""
    return Check(c.id, SKIPPED, c.method, f"{INFORMATIONAL}; {found}{c.detail}", c.evidence)


def check_file(path, progress=None, seed=None, effort=None, full_evidence=False) -> Result:
    """Load, validate and check one configuration (raises ConfigError on bad input)."""
    return check_spec(load_spec(path), progress=progress, seed=seed, effort=effort,
                      full_evidence=full_evidence)
