"""No cache is evidence (gpaudit.runtime.cache, docs/certificate.md "The proof cache").

The proof cache keeps only answers that proved nothing (`sat` with its candidate model, `unknown` at
a step limit), so that a query known to fail is not asked again.  An `unsat` is never written and
never read, and gpaudit.runtime.solve refuses an `unsat` from the cache or the copy deciding ahead: planting `unsat`
records for every query of a refuted configuration changes neither its verdict nor any proof check.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import z3

from gpaudit.check import check_file
from gpaudit.kernel import z3door as zb
from gpaudit import runtime
from gpaudit.runtime import budget, texts
from gpaudit.runtime import cache as rc

ROOT = Path(__file__).resolve().parents[2]
REFUTED_BY_COVER = ROOT / "examples" / "broken" / "laud-thm3-count3-linf-wrong-dual.yaml"   # z3: cover sat
# refuted only through the proof stage's seed point (a band 1 wide at x1 x2 = 1e8): the planted
# cover record of the review's finding R4 made it `certified`
RAMP2D = """gpaudit: 1
name: ramp2d
input: {dim: 2}
query:
  kind: piecewise
  pieces:
    - where: x1*x2 < 100000000
      value: 0
    - where: x1*x2 <= 100000001
      value: x1*x2 - 100000000
    - value: 1
bound: {kind: constant, value: 1, growth: exponential, gamma: 0}
noise: {family: laplace, eta: 1}
claim: {epsilon: 1}
"""


def _records(d: Path) -> list:
    return [json.loads(f.read_text()) for f in sorted(d.glob("*.json"))]


def test_an_unsat_answer_is_never_stored_and_a_sat_one_is_reused(cache_dir):
    x = z3.Real("x")
    unsat_q = zb.Query(z3.And(x > 1, x < 0), [], [])
    assert runtime.solve(unsat_q, 2000).status == zb.UNSAT
    assert not _records(cache_dir)
    a, b = z3.Reals("a b")
    sat_q = zb.Query(z3.And(a > 0, a < 1, b > 0, z3.Not(z3.And(a < 1, b < 2))), [], [])   # split into two cases
    first = runtime.solve(sat_q, 1000, want_model=("c",))
    (rec,) = _records(cache_dir)
    assert rec["status"] == zb.SAT and not first.cached
    again = runtime.solve(sat_q, 1000, want_model=("c",))
    assert again.cached and (again.status, again.model, again.cases, again.split) == \
        (first.status, first.model, first.cases, first.split) == (zb.SAT, first.model, 2, "claim")
    assert again.model["c"] == 0 and again.model["b"] >= 2


def test_a_planted_unsat_record_is_never_read(cache_dir):
    x = z3.Real("x")
    q = zb.Query(x > 1, [], [])              # sat
    for budget in (100, 2000):
        key = rc.cache_key(texts.key_text(q), budget)
        cache_dir.mkdir(parents=True, exist_ok=True)
        (cache_dir / f"{key}.json").write_text(json.dumps({"key": key, "status": "unsat", "steps": 0}))
        ans = runtime.solve(q, budget)
        assert ans.status == zb.SAT and not ans.cached


def test_an_unsat_from_the_cache_or_the_copy_ahead_is_refused(monkeypatch):
    learned = []
    monkeypatch.setattr(rc, "recall", lambda q, budget_ms: (zb.Answer(zb.UNSAT, cached=True), 0))
    monkeypatch.setattr(rc, "learn", lambda q, budget_ms, answer, steps: learned.append(answer.status))
    x = z3.Real("x")
    ans = runtime.solve(zb.Query(x > 1, [], []), 1000)
    assert ans.status == zb.SAT and not ans.cached and learned == [zb.SAT]
    monkeypatch.setattr(rc, "recall", lambda q, budget_ms: None)
    from gpaudit.runtime import processes
    monkeypatch.setattr(processes, "recall", lambda q, budget_ms: (zb.Answer(zb.UNSAT, cached=True), 0))
    assert runtime.solve(zb.Query(x > 1, [], []), 1000).status == zb.SAT
    monkeypatch.setattr(processes, "recall", lambda q, budget_ms: (zb.Answer(zb.UNKNOWN, cached=True), 7))
    with budget.work_budget(10**6) as work:
        ans = runtime.solve(zb.Query(x > 1, [], []), 1000, want_model=("c",))
        assert ans.status == zb.UNKNOWN and ans.cached and work.spent == 7 and ans.model == {"c": 0}
    assert runtime.solve(zb.Query(x > 1, [], []), 1000, use_cache=False).status == zb.SAT   # not asked


def test_a_record_is_used_only_where_the_budget_left_cuts_no_call(cache_dir):
    a, b, c = z3.Reals("a b c")
    hard = zb.Query(z3.And(a * a * a + b * b * b + c * c * c == 33, a * b * c > 5, a + b + c < 1), [], [])
    assert runtime.solve(hard, 1).status == zb.UNKNOWN
    (rec,) = _records(cache_dir)
    assert rec["status"] == zb.UNKNOWN and rec["steps"] > 0
    again = runtime.solve(hard, 1)
    assert again.cached and again.status == zb.UNKNOWN and "from the proof cache" in again.reason
    with budget.work_budget(rec["steps"]) as work:     # less than the call's own limit: made again, not read
        ans = runtime.solve(hard, 1)
        assert not ans.cached and ans.status == zb.UNKNOWN and work.spent <= work.cap


def test_an_unknown_of_the_wall_clock_is_never_stored(cache_dir):
    x = z3.Real("x")
    q = zb.Query(x > 1, [], [])
    rc.learn(q, 100, zb.Answer(zb.UNKNOWN, reason=f"wall-clock limit: 60 s; {zb.WALL_CLOCK_NOTE}"), 5)
    assert not _records(cache_dir)
    rc.learn(q, 100, zb.Answer(zb.UNKNOWN, reason="max. resource limit exceeded"), 5)
    assert [r["status"] for r in _records(cache_dir)] == [zb.UNKNOWN]


def test_the_cache_is_off_when_gating(cache_dir, monkeypatch):
    x = z3.Real("x")
    q = zb.Query(x > 1, [], [])
    runtime.solve(q, 100)
    assert runtime.solve(q, 100).cached
    monkeypatch.setenv("CI", "true")
    assert not runtime.solve(q, 100).cached
    monkeypatch.delenv("CI")
    rc.set_cache(False)
    try:
        assert not runtime.solve(q, 100).cached
    finally:
        rc.set_cache(True)


def _plant_unsat_for_every_query(path, cache_dir, monkeypatch):
    """Run the check with a spy on the kernel's door, then write an `unsat` record, in the cache's
    own format and key, for every query it asked (at every budget it asked it with)."""
    asked, real = set(), zb.solve

    def spy(q, budget_ms, read_model=None):
        asked.add((texts.key_text(q), budget_ms))
        return real(q, budget_ms, read_model)
    monkeypatch.setattr(zb, "solve", spy)
    monkeypatch.setenv("GPAUDIT_NO_AHEAD", "1")      # every query asked in this process, where the spy sees it
    honest = check_file(str(path), full_evidence=True)
    monkeypatch.delenv("GPAUDIT_NO_AHEAD")
    monkeypatch.setattr(zb, "solve", real)
    cache_dir.mkdir(parents=True, exist_ok=True)
    for f in cache_dir.glob("*.json"):
        f.unlink()
    for text, budget in asked:
        key = rc.cache_key(text, budget)
        (cache_dir / f"{key}.json").write_text(json.dumps({"key": key, "status": "unsat", "steps": 0,
                                                           "z3": texts.z3_version(), "cases": 1, "split": ""}))
    assert asked
    return honest, len(asked)


@pytest.mark.parametrize("name", ["linf-wrong-dual", "ramp2d"])
def test_planted_unsat_records_change_no_verdict_and_no_proof_check(name, cache_dir, monkeypatch, tmp_path):
    path = REFUTED_BY_COVER
    if name == "ramp2d":
        path = tmp_path / "ramp2d.yaml"
        path.write_text(RAMP2D)
    honest, planted = _plant_unsat_for_every_query(path, cache_dir, monkeypatch)
    assert honest.verdict == "refuted" and planted > 5
    again = check_file(str(path), full_evidence=True)
    checks = lambda r: [(c.id, c.status, c.detail) for c in r.checks if c.id.startswith("proof.")]  # noqa: E731
    assert again.verdict == honest.verdict == "refuted"
    assert checks(again) == checks(honest)
    assert ("proof.cover", "refuted") in [c[:2] for c in checks(again)]
    assert again.info["proof_cache_reused"] == 0
