"""Every run ends: what the deterministic step budget cannot bound, the proof stage's wall clock does.

A 1-D bound with ten exp bumps made single z3 calls run for minutes (each nlsat step grows costly
with the polynomials of the exp facts), and the whole check ran more than 600 s.  Now the proof
stage stops at its wall-clock limit (gpaudit.prove.engine.STAGE_SECONDS), and the checks it left
undecided say so, naming the limit as the one nondeterministic one.

What no z3 limit reaches, sympy simplifying the rates of a smoothed SUM under the l2 metric for
minutes, once ran into the run's watchdog (112 s) and the user saw only "a loop that does not end";
now the stage's alarm (runtime.budget.alarm) stops it STAGE_GRACE_SECONDS after its wall clock.
"""

from __future__ import annotations

import contextlib
import signal
import threading
import time
from pathlib import Path

import pytest
import sympy as sp

from gpaudit.check import check_file
from gpaudit.kernel import z3door
from gpaudit.model.mechanism import build_mechanism
from gpaudit.prove import engine
from gpaudit.runtime import budget
from gpaudit.spec.load import load_spec

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "threshold-student-t.yaml"
# process-level (each test waits on a wall clock, or on a check's watchdog): in the slow tier
slow = pytest.mark.slow

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


@slow
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


@slow
def test_a_proof_stage_past_its_wall_clock_says_so_in_every_undecided_check(monkeypatch):
    from pathlib import Path
    monkeypatch.setattr(engine, "STAGE_SECONDS", 0)       # spent before the first call
    monkeypatch.setenv("GPAUDIT_NO_AHEAD", "1")
    example = Path(__file__).resolve().parents[2] / "examples" / "threshold-student-t.yaml"
    r = check_file(str(example))
    assert str(r.verdict) == "unknown"
    undecided = [c for c in r.checks if c.id.startswith("proof.") and str(c.status) == "unknown"]
    assert undecided and all("wall-clock limit: 0 s; the one nondeterministic limit" in c.detail for c in undecided)


@slow
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


@slow
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


@slow
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


class Rang(Exception):
    pass


class Outer(Exception):
    pass


def _busy(seconds):
    t0 = time.monotonic()
    while time.monotonic() - t0 < seconds:
        pass


def test_an_alarm_stops_a_busy_loop_and_gives_everything_back():
    """alarm(s, E) raises E in the main thread after s seconds of work that checks no clock, and
    leaves neither a timer nor its handler behind."""
    before = signal.getsignal(signal.SIGALRM)
    t0 = time.monotonic()
    with pytest.raises(Rang):
        with budget.alarm(0.2, Rang):
            _busy(5)
    assert time.monotonic() - t0 < 2
    assert signal.getsignal(signal.SIGALRM) is before and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    with budget.alarm(5, Rang):                 # work that ends in time: nothing raised
        _busy(0.05)
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


@contextlib.contextmanager
def outer_timer(seconds):
    """A timer of the caller's (the run's watchdog, say) whose handler raises Outer."""
    def outer(signum, frame):
        raise Outer()
    old = signal.signal(signal.SIGALRM, outer)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield outer
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def test_an_alarm_nested_in_a_later_timer_gives_it_back_less_the_time_spent():
    with outer_timer(1000) as outer:
        with pytest.raises(Rang):
            with budget.alarm(0.2, Rang):
                _busy(5)
        assert signal.getsignal(signal.SIGALRM) is outer
        assert 990 < signal.getitimer(signal.ITIMER_REAL)[0] < 999.9


def test_an_earlier_timer_that_ends_first_is_the_one_that_goes_off():
    """Nested in the run's watchdog with less time left than the stage's own: the run's goes off."""
    with outer_timer(0.2):
        with pytest.raises(Outer):
            with budget.alarm(10, Rang):
                _busy(5)


def test_no_alarm_off_the_main_thread():
    out = []

    def run():
        with budget.alarm(0.05, Rang):
            _busy(0.3)
        out.append(signal.getitimer(signal.ITIMER_REAL))
    t = threading.Thread(target=run)
    t.start()
    t.join()
    assert out == [(0.0, 0.0)]


def _endless_sympy(P, leaves):
    """Symbolic work that checks no clock (and ends on its own after 30 s, so that a stage
    without its alarm fails this test instead of hanging it)."""
    x = sp.Symbol("x")
    t0 = time.monotonic()
    while time.monotonic() - t0 < 30:
        sp.cancel(sp.together(sum(1 / (x + k) for k in range(8))))


@pytest.mark.parametrize("pieces", [True, False])
def test_the_proof_stage_stops_its_symbolic_work_at_its_alarm(monkeypatch, pieces):
    """A stage held in sympy past STAGE_SECONDS + STAGE_GRACE_SECONDS ends, every check unknown and
    saying why (the pieces' checks left to the kernel where it was asked to leave them)."""
    monkeypatch.setattr(engine, "STAGE_SECONDS", 0.5)
    monkeypatch.setattr(engine, "STAGE_GRACE_SECONDS", 0.5)
    monkeypatch.setattr(engine, "_prepare_rates", _endless_sympy)
    monkeypatch.setenv("GPAUDIT_NO_AHEAD", "1")
    mech = build_mechanism(load_spec(str(EXAMPLE)))
    t0 = time.monotonic()
    out = engine.prove_conditions(mech, pieces=pieces)
    assert time.monotonic() - t0 < 10
    checks = {c.id: c for c in out.checks}
    for name in ("proof.B_positive", "proof.cover", "proof.smooth"):
        assert str(checks[name].status) == "unknown"
        assert "wall clock stopped it after 1 s" in checks[name].detail and z3door.WALL_CLOCK_NOTE in checks[name].detail
    pieces_status = {str(checks[n].status) for n in ("proof.defined", "proof.continuity")}
    assert pieces_status == ({"unknown"} if pieces else {"skipped"})
    assert out.deferred is (not pieces)
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


@slow
def test_a_check_whose_stage_is_stopped_keeps_the_audit_and_the_kernels_pieces(monkeypatch):
    """The whole check, the stage run here: unknown, the audit's findings kept, the pieces
    certified by the kernel, the rates' checks naming the stage's alarm (not the run's watchdog)."""
    monkeypatch.setattr(engine, "STAGE_SECONDS", 0.5)
    monkeypatch.setattr(engine, "STAGE_GRACE_SECONDS", 0.5)
    monkeypatch.setattr(engine, "_prepare_rates", _endless_sympy)
    monkeypatch.setenv("GPAUDIT_NO_AHEAD", "1")
    t0 = time.monotonic()
    r = check_file(str(EXAMPLE))
    assert time.monotonic() - t0 < 25
    checks = {c.id: c for c in r.checks}
    assert str(r.verdict) == "unknown" and "run" not in checks
    assert "privacy.loss" in checks
    assert str(checks["proof.defined"].status) == "certified"
    assert "wall clock stopped it" in checks["proof.cover"].detail



@slow
def test_an_obligation_the_memory_watch_stopped_says_so_in_its_method(monkeypatch):
    """A reviewer reads why an obligation stayed unknown: a call the memory watch stopped names it
    in the obligation's method (here every call is stopped: the limit is 0 MB, polled at once)."""
    from gpaudit.runtime import cache as proof_cache
    monkeypatch.setattr(proof_cache, "_ON", False)
    monkeypatch.setenv("GPAUDIT_NO_AHEAD", "1")
    monkeypatch.setattr(budget, "MEMORY_SOFT_MB", 0)
    monkeypatch.setattr(budget, "MEMORY_POLL_SECONDS", 0)
    out = engine.prove_conditions(build_mechanism(load_spec(str(EXAMPLE))))
    methods = [ob["method"] for c in out.checks for ob in (c.evidence or {}).get("obligations", [])]
    stopped = [m for m in methods if "z3's memory passed 0 MB" in m]
    assert stopped and all(z3door.WALL_CLOCK_NOTE in m for m in stopped)
    assert str(out.status) != "certified"
