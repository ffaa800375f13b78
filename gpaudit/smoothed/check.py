"""`gpaudit check` for `notion: smoothed_dp | dp`: the exact computation, the kernel's decision,
the Result and its text lines."""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..kernel import numbers
from ..kernel import smoothed as ks
from ..kernel.certificate import Rejected
from ..kernel.decide import Evidence, decide
from ..readable import readable_exact
from ..verdict import CERTIFIED, REFUTED, UNKNOWN, Check, Result
from . import exact
from .mechs import mechanism_for

NOTIONS = ("smoothed_dp", "dp")


@dataclass(frozen=True)
class SmoothedResult(Result):
    delta_lower: Any = None          # exact Fraction <= the mechanism's (smoothed) delta
    delta_upper: Any = None          # exact Fraction >= it


def describe(spec) -> str:
    if spec.kind == "python":
        return f"python mechanism {spec.callable} on n = {spec.n} records of m = {spec.m} types"
    how = "with replacement (counting)" if spec.replacement else "without replacement (Algorithm 2)"
    return f"sampling histogram, n = {spec.n}, m = {spec.m}, T = {spec.T} {how}"


def compute(spec):
    """(the exact.Outcome of a SmoothedSpec, its mechanism) (raises exact.TooLarge, UserCodeError,
    ConfigError)."""
    mech = mechanism_for(spec)
    if spec.notion == "dp":
        out = exact.dp_delta(mech, spec.n, spec.m, spec.claim.epsilon)
    else:
        out = exact.smoothed_delta(mech, spec.n, spec.m, spec.claim.epsilon, spec.distributions)
    out.stats["exact_probabilities"] = mech.exact
    return out, mech


def kernel_problem(spec, fn=None) -> ks.Problem:
    """What the configuration states, for the kernel's re-computation (fn: the python callable)."""
    return ks.Problem(spec.notion, spec.kind, spec.n, spec.m, spec.T, bool(spec.replacement), fn,
                      tuple(tuple(v) for v in (spec.distributions or ())), spec.claim.epsilon, spec.claim.delta)


def kernel_check(spec, fn, cert: dict):
    """(the kernel's Verified or None, what it said): the kernel re-derives the delta bound from
    the mechanism and the certificate's hull (gpaudit.kernel.smoothed) and compares it exactly."""
    weights = {int(i): [Fraction(x) for x in w] for i, w in (cert.get("weights") or {}).items()}
    try:
        v = ks.check(kernel_problem(spec, fn), [int(i) for i in cert.get("vertices") or ()], weights)
    except Rejected as err:
        return None, f"the kernel's re-computation does not confirm it: {err}"
    return v, v.outcomes[0].detail


def check_smoothed(spec) -> SmoothedResult:
    t0 = time.perf_counter()
    claim = {"notion": spec.notion, "epsilon": str(spec.claim.epsilon), "delta": str(spec.claim.delta)}
    quantity = "smoothed delta max_{pi in Pi^n} E[delta(x)]" if spec.notion == "smoothed_dp" else \
        "DP delta max_x delta(x)"
    cid = "smoothed.delta" if spec.notion == "smoothed_dp" else "dp.delta"
    info = {"mechanism": describe(spec), "notion": spec.notion}
    try:
        out, mech = compute(spec)
    except exact.TooLarge as err:
        ev = Evidence()
        decision = decide(ev)
        info.update(decision={"rule": decision.rule, "reason": decision.reason},
                    advice="the exact computation is too large for this configuration: smaller n, T, m or "
                           "fewer vertices of Pi", seconds=round(time.perf_counter() - t0, 3))
        return SmoothedResult(spec.name, spec.path, spec.sha256, decision.verdict, claim,
                              checks=[Check(cid, UNKNOWN, "exact", f"not computed: {err}")], info=info,
                              decision=decision)
    lower, upper = out.lower, out.upper
    below = numbers.le(upper, spec.claim.delta)            # sound: True only when proved
    above = numbers.le(lower, spec.claim.delta) is False   # lower > delta proved
    verified, said = None, None
    if below is True and not above:
        t1 = time.perf_counter()
        verified, said = kernel_check(spec, getattr(mech, "fn", None), out.certificate)
        info["kernel"] = {"verified": verified is not None, "detail": said,
                          "seconds": round(time.perf_counter() - t1, 3)}
    ev = Evidence(witness=above, witness_exact=above, within_claim=verified is not None,
                  certificate_checks=(CERTIFIED,) if verified is not None else (), verified=verified)
    decision = decide(ev)
    if verified is not None and decision.verdict is CERTIFIED:
        info["certificate"] = {"route": spec.notion, **out.certificate}
    method = ("exact rationals per histogram (e^eps enclosed when irrational), Algorithm 1 over the vertices "
              f"of the hull of Pi ({out.stats.get('algorithm1')})" if spec.notion == "smoothed_dp"
              else "exact rationals per pair of neighbouring histograms (e^eps enclosed when irrational)")
    if verified is not None:
        method += "; re-computed by the kernel from the mechanism (gpaudit.kernel.smoothed)"
    lo_s, hi_s = numbers.decimal_down(lower, 10), numbers.decimal_up(upper, 10)
    detail = f"{quantity} in [{lo_s}, {hi_s}]; claim delta {readable_exact(claim['delta'])}"
    status = {REFUTED: REFUTED, CERTIFIED: CERTIFIED}.get(decision.verdict, UNKNOWN)
    witness = None
    if decision.verdict is REFUTED:
        w = out.witness
        witness = {"counts": w["counts"], "delta": numbers.decimal_down(w["delta_lower"]),
                   "delta_upper": numbers.decimal_up(w["delta_upper"]), "exact": w["delta_lower"] == w["delta_upper"]}
        for key in ("vertices", "neighbour", "direction"):
            if key in w:
                witness[key] = w[key]
    info.update(out.stats)
    info["delta_lower"], info["delta_upper"] = numbers.decimal_down(lower), numbers.decimal_up(upper)
    if spec.kind == "sampling_histogram":
        info["T_over_n"] = numbers.decimal_down(Fraction(spec.T, spec.n), 12)
    info["decision"] = {"rule": decision.rule, "reason": decision.reason}
    if decision.verdict is UNKNOWN and below is True:
        info["advice"] = ("the generator's bound is below the claim, but the kernel did not certify it: " + said)
    elif decision.verdict is UNKNOWN:
        info["advice"] = ("the enclosure of delta contains the claim: the claim is too close to the exact value "
                          "to be decided at this precision")
    info["seconds"] = round(time.perf_counter() - t0, 3)
    return SmoothedResult(spec.name, spec.path, spec.sha256, decision.verdict, claim,
                          witness=witness, checks=[Check(cid, status, method, detail)], info=info,
                          decision=decision, delta_lower=lower, delta_upper=upper)


def summary_line(r) -> str:
    info = r.info or {}
    what = "smoothed delta" if r.claim.get("notion") == "smoothed_dp" else "DP delta"
    lo, hi = info.get("delta_lower"), info.get("delta_upper")
    value = (f"{what} in [{numbers.decimal_down(Fraction(lo), 6)}, {numbers.decimal_up(Fraction(hi), 6)}]"
             if lo is not None and hi is not None else f"{what} not computed")
    return (f"{r.verdict:<9} {r.name}  ({r.path})  {r.claim.get('notion')}: epsilon claimed "
            f"{readable_exact(r.claim['epsilon'])}, delta {readable_exact(r.claim['delta'])}; {value}")


def witness_line(w: dict) -> str:
    counts = " ".join(f"{c}" for c in w["counts"])
    if "vertices" in w:
        where = "records per vertex of Pi (" + "; ".join("(" + ", ".join(v) + ")" for v in w["vertices"]) + ")"
    else:
        where = f"histogram, neighbour {w.get('neighbour')} {w.get('direction', '')}".rstrip()
    return f"witness: counts [{counts}] ({where}) delta >= {w['delta']}"
