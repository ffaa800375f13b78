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

# process-level (each test waits on a wall clock, or on a check's watchdog): in the slow tier
pytestmark = pytest.mark.slow

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


def test_a_bound_with_ten_exp_bumps_ends_with_a_verdict_that_names_the_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(engine, "STAGE_SECONDS", 5)       # the same rule, sooner
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
        assert limited and "wall-clock limit: 5 s" in limited[0].detail


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


def test_what_the_wall_clock_cut_is_not_remembered_by_the_next_check(monkeypatch):
    """A check whose proof stage the wall clock stopped, then the same configuration again in the
    same process: the second gets the verdict and bound of a fresh process (certified <= 2/3).  The
    proof stage's memo of non-empty regions once kept the stopped run's unknowns as "non-empty", and
    the second check certified only the family's rate (0.8139) on regions it could not prune."""
    from pathlib import Path

    import mpmath as mp
    example = Path(__file__).resolve().parents[2] / "examples" / "threshold-student-t.yaml"
    with monkeypatch.context() as m:
        m.setattr(engine, "STAGE_SECONDS", 0)
        m.setenv("GPAUDIT_NO_AHEAD", "1")
        assert str(check_file(str(example)).verdict) == "unknown"
    r = check_file(str(example))
    assert str(r.verdict) == "certified" and abs(r.epsilon_upper - mp.mpf(2) / 3) < 1e-8


def test_a_replayed_answer_is_never_one_the_wall_clock_cut():
    """runtime.solve's replay memo keeps the answers of calls made, not a call the wall clock stopped."""
    from gpaudit import runtime
    from gpaudit.runtime import budget
    import z3
    x = z3.Real("x")
    q = z3door.Query(z3.And(x * x < 0), [], [])
    replay: dict = {}
    with budget.work_budget(10**8, 0):
        time.sleep(0.01)
        ans = runtime.solve(q, 1000, use_cache=False, replay=replay)
    assert ans.status == z3door.UNKNOWN and z3door.WALL_CLOCK_NOTE in ans.reason
    assert replay == {}
    assert runtime.solve(q, 1000, use_cache=False, replay=replay).status == z3door.UNSAT and len(replay) == 1
