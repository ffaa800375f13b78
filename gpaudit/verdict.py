"""Verdicts (the ordered type of gpaudit.kernel.decide), results and evidence records."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .kernel.decide import (CERTIFIED, REFUTED, SKIPPED, UNKNOWN, Decision, Verdict, all_hold,  # noqa: F401
                           is_certified_decision, worst)

EXIT_CODES = {CERTIFIED: 0, REFUTED: 1, UNKNOWN: 3}
CONFIG_ERROR_EXIT = 2


def worst_exit(codes) -> int:
    """Several files: 2 before 1 before 3 before 0."""
    rank = {2: 0, 1: 1, 3: 2, 0: 3}
    codes = list(codes)
    return min(codes, key=rank.__getitem__) if codes else 0


@dataclass(frozen=True)
class Check:
    id: str
    status: str          # certified | refuted | unknown | skipped
    method: str
    detail: str
    evidence: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        out = {"id": self.id, "status": self.status, "method": self.method, "detail": self.detail}
        if self.evidence:
            out["evidence"] = self.evidence
        return out


@dataclass(frozen=True)
class Result:
    name: str
    path: str
    sha256: str
    verdict: str
    claim: dict
    epsilon_lower: Any = None     # mpf or None
    epsilon_upper: Any = None     # mpf or None
    witness: dict | None = None
    checks: list = field(default_factory=list)
    info: dict = field(default_factory=dict)
    decision: Decision | None = None

    def __post_init__(self):
        object.__setattr__(self, "verdict", Verdict(self.verdict))
        if self.verdict is CERTIFIED and not is_certified_decision(self.decision):
            raise ValueError("a certified result needs the kernel's certified Decision (gpaudit.kernel.decide)")

    @property
    def exit_code(self) -> int:
        return EXIT_CODES[self.verdict]
