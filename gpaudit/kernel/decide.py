"""The verdict: an ordered type, and `decide`, the one function that can return `certified`.

Verdicts are ordered refuted < unknown < certified; a result is the worst of its parts.  The
decision is an explicit rule table, read top to bottom, the first rule that applies wins:

  1. inconsistent  a privacy loss verified on the exact model exceeds the certified bound: the
                   model or the certificate is wrong                                   -> unknown
  2. refuted       a privacy witness verified in high precision on an EXACT model of the
                   mechanism (symbolic f and B, or callables evaluated in mpmath), or whose
                   violation exceeds a rigorous bound on the model's error               -> refuted
  3. certified     the kernel checked the certificate (kernel.certificate: every obligation of
                   its route re-derived from the mechanism and decided here; kernel.smoothed: the
                   smoothed / DP delta re-computed from the mechanism), the rate is shown <= the
                   claim, and every check it rests on is certified or skipped       -> certified
                   (the certificate is about the exact mechanism; a witness on an approximate model
                   of it, rule 4, says nothing sound against it)
  4. approximate   a witness found only on an approximate model (a numerical B*, a float64
                   callable): evidence, not a refutation                                -> unknown
  5. otherwise                                                                           -> unknown

A `Decision` can only be made here (its constructor checks a private token), and the result
type refuses a `certified` verdict without a certified Decision: nothing outside the kernel
constructs the certified verdict.
"""

from __future__ import annotations

from dataclasses import InitVar, dataclass, field
from enum import Enum

from .certificate import is_verified

_TOKEN = object()


class Verdict(str, Enum):
    REFUTED = "refuted"
    UNKNOWN = "unknown"
    CERTIFIED = "certified"

    @property
    def rank(self) -> int:
        return {"refuted": 0, "unknown": 1, "certified": 2}[self.value]

    def __str__(self) -> str:
        return self.value

    def __format__(self, spec) -> str:
        return format(self.value, spec)


REFUTED, UNKNOWN, CERTIFIED = Verdict.REFUTED, Verdict.UNKNOWN, Verdict.CERTIFIED
SKIPPED = "skipped"   # a check's status (not needed for this claim), never a verdict


def all_hold(statuses) -> bool:
    """Every status certified or skipped (none at all: False): the rule a certificate's checks
    meet (rule 3), and the one place it is written."""
    statuses = tuple(statuses)
    return bool(statuses) and all(s in (CERTIFIED, SKIPPED) for s in statuses)


def worst(*statuses) -> Verdict:
    """The worst of several verdicts or check statuses (skipped ignored; none at all: unknown)."""
    vs = [Verdict(s) for s in statuses if s != SKIPPED]
    return min(vs, key=lambda v: v.rank) if vs else UNKNOWN


@dataclass(frozen=True)
class Evidence:
    """What the stages established, in the terms the rule table needs."""
    witness: bool = False               # a privacy witness verified in high precision
    witness_exact: bool = False         # ... on an exact model, or beyond the model's error bound
    within_claim: bool = False          # the certified rate <= the claim, by a sound comparison
    certificate_checks: tuple = ()      # statuses of every check the certificate rests on
    inconsistent: bool = False          # an exact-model verified rate above the certified bound
    verified: object = None             # the kernel's check of the certificate (kernel.certificate,
                                        # kernel.smoothed)


@dataclass(frozen=True)
class Decision:
    verdict: Verdict
    rule: str
    reason: str
    evidence: Evidence = None
    key: InitVar[object] = None       # decide's token: not a field, so dataclasses.replace cannot pass it on
    _token: object = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self, key):
        if key is not _TOKEN:
            raise TypeError("a Decision is made only by gpaudit.kernel.decide.decide")
        object.__setattr__(self, "_token", _TOKEN)

    def __reduce__(self):
        # Sent to another process (gpaudit check -j N), a Decision is not copied: the receiving
        # process applies the rule table to the same evidence again.
        return (decide, (self.evidence,))


def decide(ev: Evidence) -> Decision:
    """Apply the rule table to the evidence (see the module docstring)."""
    def made(verdict, rule, reason):
        return Decision(verdict, rule, reason, ev, _TOKEN)

    if ev.inconsistent:
        return made(UNKNOWN, "inconsistent", "a verified loss rate exceeds the certified bound: the model "
                                             "and the certificate disagree, so neither is trusted")
    if ev.witness and ev.witness_exact:
        return made(REFUTED, "refuted", "a privacy witness verified in high precision on an exact model")
    checks = tuple(ev.certificate_checks)
    if ev.within_claim and all_hold(checks) and is_verified(ev.verified):
        return made(CERTIFIED, "certified", "the certified rate is at most the claim and every condition "
                                            "it rests on is proved")
    if ev.witness:
        return made(UNKNOWN, "approximate", "a violation was found only on an approximate model of the "
                                            "mechanism (numerical B* or a float64 callable): evidence, "
                                            "not a refutation")
    return made(UNKNOWN, "otherwise", "neither a verified witness nor a complete certificate")


def is_certified_decision(d) -> bool:
    return isinstance(d, Decision) and d.verdict is CERTIFIED and d._token is _TOKEN
