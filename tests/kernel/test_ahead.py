"""Deciding z3 queries ahead in a forked copy (gpaudit.runtime.processes.ahead) changes no answer.

The proof stage hands the queries that wait for no other answer (definedness, B > 0 on each region,
continuity) to a copy of the process, which decides them while the stage works on the rates.  Every outcome here is compared with the same stage run with
nothing decided ahead: the checks, every obligation's record and the weighted z3 steps charged to
the stage's budget must be the same, whatever the copy's answers were (unsat, sat), whether the
budget left would have cut a call, and whether the copy died on the way.
"""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

import pytest

from gpaudit.kernel import z3door as zb
from gpaudit.runtime import cache as rc
from gpaudit.runtime import budget, texts
from gpaudit.runtime import processes as rp
from gpaudit.model.mechanism import build_mechanism
from gpaudit.prove import engine
from gpaudit.spec.load import load_spec
from gpaudit.verdict import REFUTED

ROOT = Path(__file__).resolve().parents[2]
_real_one_thread = rp._one_thread

# process-level (forked copies deciding ahead): in the slow tier
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not sys.platform.startswith("linux") or rp.cores() < 2,
                                 reason="deciding ahead needs Linux and a second core")]


def _outcome(mech):
    out = engine.prove_conditions(mech)
    checks = [(c.id, c.status, c.method, c.detail) for c in out.checks]
    records = [(r.obligation.condition, r.obligation.region, texts.text(r.obligation.query) if r.obligation.query else None,
                r.status, r.method, r.cached, r.decisive, r.cases, r.split) for r in out.records]
    return checks, records, out.witness, budget.WORK.spent


@pytest.fixture
def watch(monkeypatch):
    """Counts of what the proof stage took from the copy, with every query decided ahead however
    few, and the proof cache off (an answer must come from z3, here or in the copy)."""
    # gpaudit forks only where it is the process's one Python thread; an earlier test in this
    # process may have left some behind (a sweep's dask cluster), and the copy here touches
    # nothing of theirs (test_no_fork_beside_another_thread checks the rule itself)
    monkeypatch.setattr(rp, "_one_thread", lambda: True)
    monkeypatch.setattr(rp, "_AHEAD_ON", True)      # (a worker of the suite's pool forks none: conftest)
    seen = {"forks": 0, "taken": 0, "offered": 0, "cut": 0, "unsat ahead": 0, "asked": []}
    monkeypatch.setattr(rp, "AHEAD_MIN_QUERIES", 1)
    monkeypatch.setattr(rc, "_ON", False)
    monkeypatch.delenv("GPAUDIT_NO_AHEAD", raising=False)
    init, take, fits = rp._Ahead.__init__, rp._Ahead.take, rc.fits

    def counting_init(self, *a, **k):
        seen["forks"] += 1
        init(self, *a, **k)
        seen["asked"].append(len(self.jobs))

    def counting_take(self, q, budget_ms):
        seen["offered"] += (self.index.get(id(q)) is not None)
        i = self.index.get(id(q))
        got = take(self, q, budget_ms)
        seen["taken"] += got is not None
        seen["unsat ahead"] += i is not None and self.last == "unsat"
        return got

    def counting_fits(q, budget_ms, used, left=None):
        ok = fits(q, budget_ms, used, left)
        seen["cut"] += not ok
        return ok
    monkeypatch.setattr(rp._Ahead, "__init__", counting_init)
    monkeypatch.setattr(rp._Ahead, "take", counting_take)
    monkeypatch.setattr(rc, "fits", counting_fits)
    return seen


def _both(mech, monkeypatch):
    """(outcome with nothing decided ahead, outcome with the copy), after a first run that fills
    the process's memos (a memoised region answer costs no z3 steps the second time)."""
    monkeypatch.setattr(rp, "_AHEAD_ON", False)
    _outcome(mech)
    plain = _outcome(mech)
    monkeypatch.setattr(rp, "_AHEAD_ON", True)
    return plain, _outcome(mech)


def test_unsat_answers_decided_ahead_are_decided_again_at_their_turn(watch, monkeypatch):
    mech = build_mechanism(load_spec(ROOT / "examples" / "threshold-student-t.yaml"))
    plain, ahead = _both(mech, monkeypatch)
    assert watch["forks"] == 1
    assert watch["unsat ahead"] >= 1 and watch["taken"] == 0   # the copy proved, and none of it was taken ...
    assert ahead == plain                 # ... and nothing differs: checks, records, steps charged


def test_a_sat_answer_ahead_is_taken_as_the_answer_at_its_turn(watch, monkeypatch):
    # B jumps at a piece boundary: the continuity query is sat, and the copy's sat (with its model) is taken
    mech = build_mechanism(load_spec(ROOT / "examples" / "broken" / "threshold-bound-jump.yaml"))
    plain, ahead = _both(mech, monkeypatch)
    assert watch["forks"] == 1 and watch["offered"] > watch["taken"] >= 1
    assert dict((c[0], c[1]) for c in plain[0])["proof.continuity"] == REFUTED
    assert ahead == plain


def test_a_budget_that_would_cut_a_call_makes_it_again_at_its_turn(watch, monkeypatch):
    mech = build_mechanism(load_spec(ROOT / "examples" / "threshold-student-t.yaml"))
    monkeypatch.setattr(rp, "_AHEAD_ON", False)
    _outcome(mech)
    spent = _outcome(mech)[3]
    # a cap just below what the stage spends: its last calls are cut when made in turn
    monkeypatch.setattr(engine, "STAGE_STEPS", spent - 1)
    plain, ahead = _both(mech, monkeypatch)
    assert watch["cut"] >= 1              # the copy's answer was not taken where the budget was short
    assert ahead == plain


def test_a_copy_that_dies_changes_nothing(watch, monkeypatch):
    mech = build_mechanism(load_spec(ROOT / "examples" / "threshold-student-t.yaml"))
    decide = rp._Ahead._decide

    def dies_on_the_second(self, q):
        if self.jobs.index(q) == 1:
            os._exit(3)                   # in the copy only: the test process never decides ahead
        return decide(self, q)
    monkeypatch.setattr(rp._Ahead, "_decide", dies_on_the_second)
    plain, ahead = _both(mech, monkeypatch)
    assert watch["forks"] == 1
    assert ahead == plain


def test_nothing_is_decided_ahead_where_it_is_not_allowed(watch, monkeypatch):
    mech = build_mechanism(load_spec(ROOT / "examples" / "threshold-student-t.yaml"))
    monkeypatch.setattr(rp, "_AHEAD_ON", False)
    engine.prove_conditions(mech)
    monkeypatch.setattr(rp, "_AHEAD_ON", True)
    monkeypatch.setenv("GPAUDIT_NO_AHEAD", "1")
    engine.prove_conditions(mech)
    monkeypatch.delenv("GPAUDIT_NO_AHEAD")
    monkeypatch.setattr(rp, "AHEAD_MIN_QUERIES", 10**6)
    engine.prove_conditions(mech)
    assert watch["forks"] == 0


def test_an_answer_fits_only_where_every_call_would_get_its_own_limit():
    # at its turn a call's limit is the smaller of its own and the budget left; an answer made
    # ahead (with its own limit) is the same only where the budget left exceeds that limit plus
    # the steps of the calls before it, whatever the calls needed
    q = zb.Translator().query(zb.z3.BoolVal(True))
    own, used = zb.rlimit_of(1000, q.digits), 12345
    with budget.work_budget(10**12) as work:
        work.spent = work.cap - (own + used)
        assert rc.fits(q, 1000, used)
        work.spent += 1
        assert not rc.fits(q, 1000, used)
        assert rc.fits(q, 1000, used - 1)
    assert rc.fits(q, 1000, used)          # no stage budget: nothing is cut


def test_no_fork_beside_another_thread(watch, monkeypatch):
    mech = build_mechanism(load_spec(ROOT / "examples" / "threshold-student-t.yaml"))
    monkeypatch.setattr(rp, "_one_thread", _real_one_thread)     # the rule itself, not the fixture's
    release = threading.Event()
    other = threading.Thread(target=release.wait, daemon=True)
    other.start()
    try:
        engine.prove_conditions(mech)
    finally:
        release.set()
        other.join()
    assert watch["forks"] == 0


def test_answers_in_the_proof_cache_are_not_decided_ahead(watch, monkeypatch, tmp_path):
    mech = build_mechanism(load_spec(ROOT / "examples" / "broken" / "threshold-bound-jump.yaml"))
    monkeypatch.setattr(rc, "_ON", True)
    monkeypatch.setenv("GPAUDIT_CACHE", str(tmp_path))
    monkeypatch.delenv("GPAUDIT_NO_CACHE", raising=False)
    monkeypatch.delenv("CI", raising=False)
    first = _outcome(mech)
    assert watch["forks"] == 1 and watch["taken"] >= 1
    second = _outcome(mech)               # the sat answers now come from the cache (an unsat is never stored)
    assert watch["forks"] == 2 and watch["asked"][1] < watch["asked"][0]
    assert [c[:2] for c in second[0]] == [c[:2] for c in first[0]]


def test_a_fork_that_fails_changes_nothing_and_leaks_no_pipe(watch, monkeypatch):
    mech = build_mechanism(load_spec(ROOT / "examples" / "threshold-student-t.yaml"))
    plain = _both(mech, monkeypatch)[0]

    def no_fork():
        raise OSError("Resource temporarily unavailable")
    monkeypatch.setattr(rp.os, "fork", no_fork)
    fds = len(os.listdir("/proc/self/fd"))
    assert _outcome(mech) == plain
    assert watch["forks"] == 2 and watch["unsat ahead"] >= 1   # the first copy (in _both) was real
    assert len(os.listdir("/proc/self/fd")) == fds
