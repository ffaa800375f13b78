"""The proof stage run beside the audit, in a forked copy (gpaudit.certify.beside), changes nothing.

Each test checks one configuration twice, once with the copy and once with nothing forked, and
compares the whole JSON result (timings aside).  It also counts the proof stages run in this
process: none where the copy's outcome is taken, one where the copy sent nothing usable (it died,
it raised, its outcome would not pickle, the fork failed), so that each test can fail.
"""

from __future__ import annotations

import os
import sys
import threading
import time
import types
from pathlib import Path

import pytest
import sympy as sp

from gpaudit.certify import beside
from gpaudit.check import check_spec
from gpaudit.runtime import cache as proof_cache
from gpaudit.runtime import processes as zb
from gpaudit.model.mechanism import build_mechanism
from gpaudit.report.json_report import result_to_json
from gpaudit.spec.load import load_spec

ROOT = Path(__file__).resolve().parents[2]
CERTIFIED = ROOT / "examples" / "threshold-student-t.yaml"
BROKEN = ROOT / "examples" / "broken" / "threshold-bound-jump.yaml"
_real_one_thread = zb._one_thread

# process-level (forked copies of this process, each test a check twice): in the slow tier
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not sys.platform.startswith("linux") or zb.cores() < 2,
                                 reason="the proof stage runs beside the audit only on Linux with a second core")]


def _timeless(o):
    if isinstance(o, dict):
        return {k: _timeless(v) for k, v in o.items() if "second" not in k}
    if isinstance(o, list):
        return [_timeless(v) for v in o]
    return o


@pytest.fixture
def here(monkeypatch):
    """Counts of proof stages run in this process and of forks made beside; forking allowed (an
    earlier test in this process may have left a thread behind: test_no_copy_where_forbidden checks
    that rule itself), the proof cache off (every answer from z3)."""
    monkeypatch.setattr(zb, "_one_thread", lambda: True)
    monkeypatch.setattr(proof_cache, "_ON", False)
    monkeypatch.setattr(zb, "_AHEAD_ON", True)
    monkeypatch.delenv("GPAUDIT_NO_AHEAD", raising=False)
    seen = {"stages": 0, "forks": 0, "pids": []}
    me = os.getpid()
    real_stage, real_start = beside.prove_stage, beside.ProofBeside._start

    def counting_stage(mech, **kw):
        if os.getpid() == me:
            seen["stages"] += 1
        return real_stage(mech, **kw)

    def counting_start(self):
        real_start(self)
        seen["forks"] += self.pid is not None
        seen["pids"].append(self.pid)
    monkeypatch.setattr(beside, "prove_stage", counting_stage)
    monkeypatch.setattr(beside.ProofBeside, "_start", counting_start)
    return seen


def _check(path, monkeypatch, forking: bool):
    if forking:
        monkeypatch.delenv("GPAUDIT_NO_AHEAD", raising=False)
    else:
        monkeypatch.setenv("GPAUDIT_NO_AHEAD", "1")
    return _timeless(result_to_json(check_spec(load_spec(path))))


def _reaped(pid) -> bool:
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


def test_certified_outcome_is_the_copys_and_the_same(here, monkeypatch):
    plain = _check(CERTIFIED, monkeypatch, forking=False)
    assert here == {"stages": 1, "forks": 0, "pids": []}
    with_copy = _check(CERTIFIED, monkeypatch, forking=True)
    assert here["forks"] == 1 and here["stages"] == 1      # the copy's outcome was taken
    assert with_copy == plain and plain["verdict"] == "certified"
    assert _reaped(here["pids"][0])


def test_refuted_stops_the_copy_and_is_the_same(here, monkeypatch):
    plain = _check(BROKEN, monkeypatch, forking=False)
    assert here["stages"] == 0                            # the witness settled it: no proof stage
    with_copy = _check(BROKEN, monkeypatch, forking=True)
    assert here["forks"] == 1 and here["stages"] == 0
    assert with_copy == plain and plain["verdict"] == "refuted" and plain["witness"]
    assert _reaped(here["pids"][0])


def test_full_evidence_takes_the_copys_outcome(here, monkeypatch):
    monkeypatch.setenv("GPAUDIT_NO_AHEAD", "1")
    plain = _timeless(result_to_json(check_spec(load_spec(BROKEN), full_evidence=True)))
    monkeypatch.delenv("GPAUDIT_NO_AHEAD")
    with_copy = _timeless(result_to_json(check_spec(load_spec(BROKEN), full_evidence=True)))
    assert here["stages"] == 1 and here["forks"] == 1
    assert with_copy == plain and any(c["id"].startswith("proof.") for c in plain["checks"])


def test_a_copy_that_dies_changes_nothing(here, monkeypatch):
    plain = _check(CERTIFIED, monkeypatch, forking=False)
    me, stage = os.getpid(), beside.prove_stage

    def dying(mech, **kw):
        if os.getpid() != me:
            os._exit(3)
        return stage(mech, **kw)
    monkeypatch.setattr(beside, "prove_stage", dying)
    assert _check(CERTIFIED, monkeypatch, forking=True) == plain
    assert here["forks"] == 1 and here["stages"] == 2     # run here again after the copy died


def test_the_copy_sends_the_regions_before_their_rates(here, monkeypatch):
    """The copy sends the regions first (the kernel decides what no rate enters while it finds the
    rates), then each region's rates as it proves them: leaves() gives the outcome's own leaves,
    rates() its proved rates in the regions' order, result() the outcome; without a copy, leaves()
    runs the stage here, once.  The kernel's preparation of them is what its check decides."""
    from gpaudit import check as ck
    from gpaudit.certify import handoff
    from gpaudit.kernel import certificate as kc
    mech = build_mechanism(load_spec(CERTIFIED))
    for forking in (True, False):
        if forking:
            monkeypatch.delenv("GPAUDIT_NO_AHEAD", raising=False)
        else:
            monkeypatch.setenv("GPAUDIT_NO_AHEAD", "1")
        with beside.ProofBeside(mech) as b:
            assert (b.pid is not None) is forking
            leaves = b.leaves()
            rates = list(b.rates())
            out = b.result()
        assert [(l.label, l.conds) for l in leaves] == [(l.label, l.conds) for l in out.leaves] and out.regions
        assert rates == [(l.label, out.rates[l.label]["a"], out.rates[l.label]["c"]) for l in out.leaves]
    assert here["stages"] == 1 and here["forks"] == 1
    ready = ck.kernel_prepare(mech, leaves, ck.kernel_prepare(mech))
    assert ready.structure and all(o.holds for o in ready.structure) and ready.local is None
    done = {}
    for label, a, c in rates:
        done[label] = {"a": a, "c": c}
        ready = ck.kernel_prepare(mech, leaves, ready, done)
        assert [r.label for r in ready.local.done] == list(done)
    cert = handoff.from_proof(mech, out, sp.Rational(2, 3))
    assert kc.check(handoff.problem(mech), cert, ready).outcomes == kc.check(handoff.problem(mech), cert).outcomes


def test_a_copy_that_dies_after_sending_the_regions_changes_nothing(here, monkeypatch):
    plain = _check(CERTIFIED, monkeypatch, forking=False)
    me, stage = os.getpid(), beside.prove_stage

    def dying_after_leaves(mech, **kw):
        if os.getpid() != me:
            def early(leaves):
                kw["on_leaves"](leaves)
                os._exit(3)
            return stage(mech, **dict(kw, on_leaves=early))
        return stage(mech, **kw)
    monkeypatch.setattr(beside, "prove_stage", dying_after_leaves)
    assert _check(CERTIFIED, monkeypatch, forking=True) == plain
    assert here["forks"] == 1 and here["stages"] == 2     # run here again after the copy died


def test_an_error_in_the_copy_surfaces_here(here, monkeypatch):
    me, stage = os.getpid(), beside.prove_stage
    plain = _check(CERTIFIED, monkeypatch, forking=False)

    def raising_there(mech, **kw):
        if os.getpid() != me:
            raise RuntimeError("only in the copy")
        return stage(mech, **kw)
    monkeypatch.setattr(beside, "prove_stage", raising_there)
    assert _check(CERTIFIED, monkeypatch, forking=True) == plain
    assert here["stages"] == 2

    def raising(mech, **kw):
        stage(mech, **kw)
        raise RuntimeError("everywhere")
    monkeypatch.setattr(beside, "prove_stage", raising)
    with pytest.raises(RuntimeError, match="everywhere"):
        _check(CERTIFIED, monkeypatch, forking=True)
    assert here["forks"] == 2 and here["stages"] == 3


def test_an_outcome_that_does_not_pickle_is_computed_here(here, monkeypatch):
    plain = _check(CERTIFIED, monkeypatch, forking=False)
    portable = beside._portable

    def unpicklable(out):
        out = portable(out)
        out.seeds = out.seeds + [lambda: None]
        return out
    monkeypatch.setattr(beside, "_portable", unpicklable)
    assert _check(CERTIFIED, monkeypatch, forking=True) == plain
    assert here["forks"] == 1 and here["stages"] == 2


def test_a_failed_fork_changes_nothing_and_leaks_nothing(here, monkeypatch):
    plain = _check(CERTIFIED, monkeypatch, forking=False)

    def no_fork():
        raise OSError("no process to spare")
    monkeypatch.setattr(os, "fork", no_fork)
    fds = len(os.listdir("/proc/self/fd"))
    assert _check(CERTIFIED, monkeypatch, forking=True) == plain
    assert len(os.listdir("/proc/self/fd")) == fds
    assert here["forks"] == 0 and here["stages"] == 2


def test_no_copy_where_forbidden(here, monkeypatch):
    mech = build_mechanism(load_spec(CERTIFIED))
    monkeypatch.setenv("GPAUDIT_NO_AHEAD", "1")
    assert beside.ProofBeside(mech).pid is None
    monkeypatch.delenv("GPAUDIT_NO_AHEAD")
    monkeypatch.setattr(zb, "_AHEAD_ON", False)           # a check -j N worker, N >= the cores
    assert beside.ProofBeside(mech).pid is None
    monkeypatch.setattr(zb, "_AHEAD_ON", True)
    monkeypatch.setattr(zb, "_one_thread", _real_one_thread)
    stop = threading.Event()
    t = threading.Thread(target=stop.wait)
    t.start()
    try:
        assert beside.ProofBeside(mech).pid is None     # a fork would copy only this thread
    finally:
        stop.set()
        t.join()
    assert here["forks"] == 0


def _state(pid):
    """A process's state letter; None once it is gone (a zombie, Z, is dead but not yet reaped)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return None


def _dies(pid, seconds=5.0) -> bool:
    for _ in range(int(seconds / 0.05)):
        if _state(pid) in (None, "Z", "X"):
            return True
        time.sleep(0.05)
    return False


def _stalling_stage(write):
    """A proof stage that starts a real copy deciding ahead (whose decisions never end), tells the
    test its pid, and never ends either."""
    def stage(mech, **kw):
        a = zb._Ahead([types.SimpleNamespace(digits=1)], 1000)
        os.write(write, f"{a.pid}\n".encode())
        time.sleep(60)
    return stage


def test_close_stops_the_copy_and_the_copy_it_forked(here, monkeypatch):
    """A copy killed mid-stage takes the copy it forked to decide queries ahead with it."""
    read, write = os.pipe()
    monkeypatch.setattr(zb._Ahead, "_decide", lambda self, q: time.sleep(60))
    monkeypatch.setattr(beside, "prove_stage", _stalling_stage(write))
    b = beside.ProofBeside(build_mechanism(load_spec(CERTIFIED)))
    assert b.pid is not None
    import select
    assert select.select([read], [], [], 60)[0], "the copy never reported the copy it forked"
    ahead = int(os.read(read, 64).decode())
    os.close(read)
    os.close(write)
    assert _state(ahead) not in (None, "Z", "X")
    b.close()
    assert _reaped(here["pids"][0])
    assert _dies(ahead), f"the copy deciding ahead ({ahead}) outlived the copy that forked it"


def test_copies_die_with_a_process_that_is_killed(tmp_path):
    """A process killed outright (no cleanup runs) leaves no copy running: neither the proof stage
    beside its audit nor the copy that one forked."""
    import subprocess

    script = tmp_path / "killed.py"
    script.write_text(f"""
import os, sys, time, types
sys.path.insert(0, {str(ROOT)!r})
from gpaudit.certify import beside
from gpaudit.runtime import cache as proof_cache
from gpaudit.runtime import processes as zb
from gpaudit.model.mechanism import build_mechanism
from gpaudit.spec.load import load_spec
zb._one_thread = lambda: True
zb._Ahead._decide = lambda self, q: time.sleep(60)
import signal
signal.alarm(120)        # a copy that never reports: this script ends, and the test fails, not hangs
read, write = os.pipe()
def stage(mech, **kw):
    a = zb._Ahead([types.SimpleNamespace(digits=1)], 1000)
    os.write(write, f"{{a.pid}}\\n".encode())
    time.sleep(60)
beside.prove_stage = stage
b = beside.ProofBeside(build_mechanism(load_spec({str(CERTIFIED)!r})))
print(b.pid, int(os.read(read, 64).decode()), flush=True)
time.sleep(60)
""")
    env = dict(os.environ)
    env.pop("GPAUDIT_NO_AHEAD", None)
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True, env=env)
    try:
        copy, ahead = map(int, proc.stdout.readline().split())
        assert _state(copy) not in (None, "Z", "X") and _state(ahead) not in (None, "Z", "X")
        proc.kill()
        proc.wait()
        assert _dies(copy), f"the proof stage's copy ({copy}) outlived the killed process"
        assert _dies(ahead), f"the copy deciding ahead ({ahead}) outlived the killed process"
    finally:
        proc.kill()
        proc.wait()


def test_a_refutation_loads_no_proof_module():
    """The proof stage's modules load only where its outcome is wanted: in the copy, or here when
    no witness settled the file (a refutation in a new process pays for none of them)."""
    import subprocess

    code = ("import sys; from gpaudit.check import check_file; "
            f"r = check_file({str(BROKEN)!r}); "
            "print(r.verdict, sorted(m for m in sys.modules if m.startswith('gpaudit.prove')))")
    for no_copy in ("", "1"):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                             env=dict(os.environ, GPAUDIT_NO_AHEAD=no_copy, GPAUDIT_NO_CACHE="1"))
        assert out.stdout.split(None, 1) == ["refuted", "[]\n"], out.stdout + out.stderr


def test_pool_workers_fork_only_where_a_core_is_free(monkeypatch):
    """`check -j N` and a sweep's local workers: with N >= the cores every core already checks a
    file of its own, and a worker forks no copy; with a core to spare it may."""
    import multiprocessing

    from gpaudit.runner import default_jobs, worker_pool

    monkeypatch.delenv("GPAUDIT_NO_AHEAD", raising=False)
    ctx = multiprocessing.get_context("fork")
    for jobs, allowed in ((default_jobs(), False), (default_jobs() + 1, False), (default_jobs() - 1, True)):
        with worker_pool(jobs, ctx) as pool:
            assert pool.submit(zb.may_fork).result() is allowed, jobs


def test_pieces_the_kernel_leaves_undecided_are_decided_by_the_proof_stage(here, monkeypatch):
    """The proof stage leaves the pieces (defined, continuous) to the kernel (check.kernel_prepare),
    which decides them from the mechanism alone under a deterministic budget of its own.  Where it
    does not show them all (here its budget is cut), the proof stage decides them itself: the same
    verdict and bound, the same statuses, and the kernel's check decides them all again."""
    from gpaudit import check as ck
    mech = build_mechanism(load_spec(CERTIFIED))
    ready = ck.kernel_prepare(mech)
    assert ready is not None and ready.pieces and all(o.holds for o in ready.pieces)
    plain = _check(CERTIFIED, monkeypatch, forking=True)
    checks = {c["id"]: c for c in plain["checks"]}
    assert checks["proof.continuity"]["method"].startswith("kernel: z3 unsat")
    monkeypatch.setattr(ck, "PREPARE_STEPS", 1)           # every call cut: unknown, so not taken
    assert ck.kernel_prepare(mech) is None
    for forking in (True, False):
        cut = _check(CERTIFIED, monkeypatch, forking=forking)
        assert (cut["verdict"], cut["epsilon_upper"]) == (plain["verdict"], plain["epsilon_upper"]) == (
            "certified", plain["epsilon_upper"])
        own = {c["id"]: c for c in cut["checks"]}
        assert {k: c["status"] for k, c in own.items()} == {k: c["status"] for k, c in checks.items()}
        assert own["proof.continuity"]["method"].startswith("z3 unsat")   # the proof stage's own


def test_the_kernels_check_ends_within_its_budget(monkeypatch):
    """The kernel's check runs under a total work budget and a wall clock of its own (every run
    ends); spent, it leaves obligations undecided: unknown, saying so, never certified."""
    from gpaudit import check as ck
    monkeypatch.setattr(proof_cache, "_ON", False)
    monkeypatch.setattr(ck, "KERNEL_STEPS", 1)
    r = check_spec(load_spec(CERTIFIED))
    kern = next(c for c in r.checks if c.id == "kernel.certificate")
    assert r.verdict == "unknown" and kern.status == "unknown"
    assert "work budget" in kern.detail and "not decided" in kern.detail


def test_a_stage_its_alarm_stopped_in_the_copy_is_taken_not_run_again(here, monkeypatch):
    """The copy's proof stage held in sympy past its alarm (prove.engine.STAGE_GRACE_SECONDS) sends
    its stopped outcome like any other: this process takes it (runs no stage of its own, which would
    double the time), and the result is the one of a check with nothing forked."""
    from gpaudit.prove import engine

    def endless(P, leaves):      # symbolic work that checks no clock (ends by itself after 30 s)
        x, t0 = sp.Symbol("x"), time.monotonic()
        while time.monotonic() - t0 < 30:
            sp.cancel(sp.together(sum(1 / (x + k) for k in range(8))))
    monkeypatch.setattr(engine, "STAGE_SECONDS", 0.5)
    monkeypatch.setattr(engine, "STAGE_GRACE_SECONDS", 0.5)
    monkeypatch.setattr(engine, "_prepare_rates", endless)
    plain = _check(CERTIFIED, monkeypatch, forking=False)
    assert here["stages"] == 1
    t0 = time.monotonic()
    with_copy = _check(CERTIFIED, monkeypatch, forking=True)
    assert time.monotonic() - t0 < 25
    assert here["forks"] == 1 and here["stages"] == 1      # the copy's outcome was taken
    assert with_copy == plain and plain["verdict"] == "unknown"
    checks = {c["id"]: c for c in plain["checks"]}
    assert "wall clock stopped it" in checks["proof.cover"]["detail"]
    assert checks["proof.defined"]["status"] == "certified"
