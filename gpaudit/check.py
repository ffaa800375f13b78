"""The pipeline behind `gpaudit check`: spec -> mechanism -> audit and certificate -> verdict.

Only sound methods can raise a verdict to certified; the audit can only refute.
"""

from __future__ import annotations

import time


from .audit.run import audit
from .certify.pipeline import certify
from .model.mechanism import build_mechanism
from .spec.load import load_spec
from .verdict import CERTIFIED, REFUTED, SKIPPED, UNKNOWN, Result


def decide(witness, within_claim: bool, cert_checks) -> str:
    """refuted needs a verified witness; certified needs the certificate's sound comparison with
    the claim and every certificate check certified (or skipped); everything else is unknown."""
    if witness is not None:
        return REFUTED
    if not within_claim or not cert_checks:
        return UNKNOWN
    if any(c.status not in (CERTIFIED, SKIPPED) for c in cert_checks):
        return UNKNOWN
    return CERTIFIED


def check_spec(spec, progress=None, seed=None, effort=None) -> Result:
    t0 = time.perf_counter()
    mech = build_mechanism(spec)
    seed = spec.audit.seed if seed is None else seed
    effort = effort or spec.audit.effort
    outcome = audit(mech, seed=seed, effort=effort, progress=progress)
    upper, cert_checks, within = certify(mech, outcome)
    verdict = decide(outcome.witness, within, cert_checks)
    claim = {"epsilon": str(spec.claim.epsilon), "delta": str(spec.claim.delta)}
    info = {"audit": outcome.stats, "bound_source": mech.bound.source,
            "family": mech.family.name, "binary_floats": list(spec.binary_floats),
            "seconds": round(time.perf_counter() - t0, 3)}
    return Result(spec.name, spec.path, spec.sha256, verdict, claim, outcome.epsilon_lower, upper,
                  outcome.witness, outcome.checks + list(cert_checks), info)


def check_file(path, progress=None, seed=None, effort=None) -> Result:
    """Load, validate and check one configuration (raises ConfigError on bad input)."""
    return check_spec(load_spec(path), progress=progress, seed=seed, effort=effort)
