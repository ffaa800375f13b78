"""The pipeline behind `gpaudit check`: spec -> mechanism -> audit and certificate -> verdict.

Only sound methods can raise a verdict to certified; the audit can only refute.
"""

from __future__ import annotations

import time


from .audit.run import audit_main, audit_seeds
from .certify.beside import ProofBeside
from .certify.pipeline import certify
from .kernel import numbers
from .kernel.decide import Evidence, decide
from .model.mechanism import build_mechanism
from .spec.load import load_spec
from .spec.types import two_point_needed
from .errors import ConfigError, FieldError, UserCodeError
from .verdict import CERTIFIED, REFUTED, SKIPPED, UNKNOWN, Check, Result


def user_code_result(spec, err: UserCodeError, seconds=None) -> Result:
    """The result of a file whose python callable raised: unknown, for that file alone."""
    info = {} if seconds is None else {"seconds": round(seconds, 3)}
    return Result(spec.name, spec.path, spec.sha256, UNKNOWN,
                  {"epsilon": str(spec.claim.epsilon), "delta": str(spec.claim.delta)},
                  checks=[Check("user_code", UNKNOWN, f"call of the user callable {err.ref}", err.detail(),
                                {"callable": err.ref, "x": [str(v) for v in err.x],
                                 "exception": type(err.exc).__name__})],
                  info=info)


def check_spec(spec, progress=None, seed=None, effort=None, full_evidence=False) -> Result:
    """Check one loaded configuration.  A python callable that raises (even SystemExit) gives this
    file an unknown result with a ``user_code`` check naming the input; a callable that cannot be
    loaded any more raises ConfigError.

    The audit's first phase runs before the proof stage: a witness it verifies on an exact model
    settles ``refuted``, and the proof stage is skipped (its result cannot change the verdict).
    ``full_evidence`` runs the proof stage anyway, for the certified bound and the consistency
    check of a refuted configuration; the witness is the same either way."""
    t0 = time.perf_counter()
    try:
        return _check_spec(spec, progress, seed, effort, t0, full_evidence)
    except UserCodeError as err:
        return user_code_result(spec, err, time.perf_counter() - t0)


def _check_spec(spec, progress, seed, effort, t0, full_evidence=False) -> Result:
    try:
        mech = build_mechanism(spec)
    except FieldError as err:  # a python callable's module vanished or broke since loading
        raise ConfigError(spec.path, err.field, err.problem) from None
    seed = spec.audit.seed if seed is None else seed
    effort = effort or spec.audit.effort
    # the proof stage reads only the mechanism: where a core is free, a copy of this process runs
    # it during the audit (certify.beside; the outcome is the same either way)
    with ProofBeside(mech) as beside:
        outcome = audit_main(mech, seed=seed, effort=effort, progress=progress)
        settled = outcome.witness is not None and mech.exact_model and not full_evidence
        if progress and not settled:
            progress("prove", 0.0)
        proof = None if settled else beside.result()
    info = {"audit": outcome.stats, "bound_source": mech.bound.source,
            "family": mech.family.name, "binary_floats": list(spec.binary_floats)}
    if settled:
        upper, cert_checks, within = None, [], False
        info["proof_stage"] = PROOF_SKIPPED
    else:
        outcome = audit_seeds(mech, outcome, proof.seeds)
        info["audit"] = outcome.stats
        upper, cert_checks, within = certify(mech, outcome, proof)
        info["certified_bound"] = _certified_bound(mech, proof)
        info["proof_cache_reused"] = proof.cache_reused()
    audit_checks = list(outcome.checks)
    witness, eps_lower = outcome.witness, outcome.epsilon_lower
    if not mech.exact_model:
        # a witness on an approximate model (numerical B*, a float64 callable) is evidence only
        info["model"] = ("approximate: " + "; ".join(
            t for t, on in ((f"f is {mech.query.note or 'approximate'}", mech.query.numeric),
                            (f"B is {mech.bound.source}", mech.bound.numeric)) if on)
            + "; witnesses found on it are evidence, not refutations")
        if witness is not None:
            info["approximate_witness"] = witness
        if eps_lower is not None:
            info["approximate_epsilon_lower"] = str(eps_lower)
        audit_checks = [_as_evidence(c) for c in audit_checks]
    why = two_point_needed(spec)
    if why is None:
        audit_checks = [_informational(c) for c in audit_checks]
    ev = Evidence(witness=witness is not None, witness_exact=mech.exact_model,
                  within_claim=bool(within), certificate_checks=tuple(c.status for c in cert_checks),
                  inconsistent=any(c.id == "consistency" and c.status == REFUTED for c in cert_checks))
    decision = decide(ev)
    if not mech.exact_model:
        witness, eps_lower = None, None
    claim = {"epsilon": str(spec.claim.epsilon), "delta": str(spec.claim.delta), "metric": mech.metric.label}
    info["decision"] = {"rule": decision.rule, "reason": decision.reason}
    if witness is not None and decision.verdict != REFUTED:
        info["witness_not_counted"] = witness
    if decision.verdict == UNKNOWN:
        info["advice"] = advice(mech, audit_checks + list(cert_checks), upper)
    info["seconds"] = round(time.perf_counter() - t0, 3)
    return Result(spec.name, spec.path, spec.sha256, decision.verdict, claim, eps_lower, upper,
                  witness if decision.verdict == REFUTED else None, audit_checks + list(cert_checks), info,
                  decision)


PROOF_SKIPPED = ("skipped: a witness verified on the exact model settles refuted, and no proof can change "
                 "that (--full-evidence runs the proof stage anyway)")


def _certified_bound(mech, proof) -> str:
    """Which B a certificate speaks about (the closed form is the mechanism only if it is B*)."""
    if proof.route == "theorem":
        return "B* exactly as Definition 9 defines it (Liang-Yi Lemma 3.1; the audit's grid only approximates it)"
    if mech.spec.bound.kind == "smooth_sensitivity":
        return (f"the {mech.bound.source}: the certificate holds for this B; that it equals Definition 9's B* "
                "is checked numerically against a brute-force B* (tests), not proved")
    return f"the configuration's own B ({mech.bound.source})"


def _as_evidence(c: Check) -> Check:
    """An audit check on an approximate model: a refutation there is evidence (status unknown)."""
    if c.status != REFUTED:
        return c
    return Check(c.id, UNKNOWN, c.method + " (approximate model)",
                 "found on an approximate model, not verified on the mechanism itself: " + c.detail, c.evidence)


def advice(mech, checks, upper) -> str:
    """One line for an unknown verdict: what would certify it, or that no route exists."""
    spec = mech.spec
    st = {c.id: c.status for c in checks}
    if spec.query.kind == "python" or spec.bound.kind == "python":
        return ("no route: a python callable is never certified (gpaudit cannot reason about its code); "
                "write f and B as expressions (kinds piecewise / constant / a built-in query) to certify")
    if spec.claim.delta != 0 and st.get("certificate.delta") == UNKNOWN and upper is None:
        return ("a delta > 0 claim is certified by a pure epsilon within the claim, by Lemma 3.6, which "
                "needs Laplace noise, linear growth and the built-in smooth sensitivity (bound.kind: "
                "smooth_sensitivity), or by Laud et al.'s Theorem 4, which needs Laplace noise, exponential "
                "growth, a finite Lambda and proved local conditions; none applies here")
    undecided = [c.id for c in checks if c.id.startswith("proof.") and c.status == UNKNOWN]
    if undecided:
        return (f"the proof stage did not decide {', '.join(undecided)}: simpler pieces, exact constants, or "
                "a larger work budget (`gpaudit prove FILE --timeout-ms N`, to see where) could certify it")
    if st.get("certificate.rate") == UNKNOWN:
        return ("the certified rate is unbounded or not resolved for this family and bound (see "
                "certificate.rate); a family with bounded |1 + u psi(u)| (Student-t, GenCauchy, PolyPlace) "
                "or gamma = 0 could certify it")
    if upper is not None:
        return (f"the certified bound {numbers.decimal_up(upper, 6)} is above the claim and no violation was found: "
                "the claim may hold but gpaudit cannot show it; audit harder (--effort thorough) to look "
                "for a witness, or claim epsilon >= the certified bound")
    return "no sound route certified this configuration (see the checks above)"


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
