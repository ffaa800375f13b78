"""Every run ends: what the deterministic step budget cannot bound, the proof stage's wall clock does.

A 1-D bound with ten exp bumps made single z3 calls run for minutes (each nlsat step grows costly
with the polynomials of the exp facts), and the whole check ran more than 600 s.  Now the proof
stage stops at its wall-clock limit (gpaudit.prove.engine.STAGE_SECONDS), and the checks it left
undecided say so, naming the limit as the one nondeterministic one.
"""

from __future__ import annotations

import time

import pytest

from gpaudit.check import check_file
from gpaudit.kernel import z3door
from gpaudit.prove import engine

BUMPS = "1 + (" + " + ".join(f"exp(-(x - {k}*sqrt(2))^2)" for k in range(1, 11)) + ")/100"
CONFIG = f"""gpaudit: 1
name: bumps
input: {{dim: 1}}
query: {{kind: piecewise, pieces: [{{value: x}}]}}
bound:
  kind: piecewise
  growth: exponential
  gamma: 1
  pieces:
    - value: {BUMPS}
noise: {{family: student_t, nu: 3, eta: 1/2}}
claim: {{epsilon: 1}}
"""


@pytest.mark.slow  # up to the proof stage's wall-clock limit and the audit (about a minute)
def test_a_bound_with_ten_exp_bumps_ends_with_a_verdict_that_names_the_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(engine, "STAGE_SECONDS", 20)      # the same rule, sooner
    path = tmp_path / "bumps.yaml"
    path.write_text(CONFIG)
    t0 = time.perf_counter()
    r = check_file(str(path))
    assert time.perf_counter() - t0 < 120
    assert str(r.verdict) in ("certified", "refuted", "unknown")
    proof = {c.id: c for c in r.checks if c.id.startswith("proof.")}
    assert proof
    limited = [c for c in proof.values() if z3door.WALL_CLOCK_NOTE in c.detail]
    assert all(str(c.status) == "unknown" for c in limited)
    if str(r.verdict) != "certified":
        assert limited and "wall-clock limit: 20 s" in limited[0].detail


def test_a_proof_stage_past_its_wall_clock_says_so_in_every_undecided_check(monkeypatch):
    from pathlib import Path
    monkeypatch.setattr(engine, "STAGE_SECONDS", 0)       # spent before the first call
    monkeypatch.setenv("GPAUDIT_NO_AHEAD", "1")
    example = Path(__file__).resolve().parents[2] / "examples" / "threshold-student-t.yaml"
    r = check_file(str(example))
    assert str(r.verdict) == "unknown"
    undecided = [c for c in r.checks if c.id.startswith("proof.") and str(c.status) == "unknown"]
    assert undecided and all("wall-clock limit: 0 s; the one nondeterministic limit" in c.detail for c in undecided)


def test_the_kernels_watchdog_ends_its_check_unknown_and_names_itself(monkeypatch):
    # a gen_cauchy rate at p = 14 once held the kernel's check in one z3 call for 105 s: past its
    # watchdog the check leaves its obligations undecided, and the verdict is unknown, named
    from pathlib import Path
    from gpaudit import check
    monkeypatch.setattr(check, "RUN_SECONDS", 0)
    monkeypatch.setattr(check, "KERNEL_SECONDS_MIN", 0)
    monkeypatch.setattr(check, "PREPARE_SECONDS", 0)        # the pieces go to the proof stage
    example = Path(__file__).resolve().parents[2] / "examples" / "threshold-student-t.yaml"
    r = check_file(str(example))
    assert str(r.verdict) == "unknown"
    checks = {c.id: c for c in r.checks}
    assert str(checks["proof.defined"].status) == "certified"                 # decided by the proof stage
    assert "kernel:" not in checks["proof.defined"].method
    kernel = checks["kernel.certificate"]
    assert str(kernel.status) == "unknown"
    assert "the kernel's watchdog ended the check: wall-clock limit: 0 s" in kernel.detail
    assert z3door.WALL_CLOCK_NOTE in kernel.detail
