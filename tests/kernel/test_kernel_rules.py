"""The kernel's own tests, and tests that they can fail.

Every rule of the trusted kernel (gpaudit/kernel/) is exercised here or in tests/kernel/test_kernel.py,
and each test of this file says what would be wrong if it failed:

- translation (z3door.Translator): every construct it takes, what it refuses (Unsupported: the
  obligation stays unknown), exact constants, one name per symbol;
- the solve path: case splits, the guard (a stage's step budget and wall-clock limit, installed by
  gpaudit.runtime.budget), and the runtime's replay memo around it;
- numbers: directed rounding, exact ties only by structure, decimal strings;
- arbexpr, domain and decide.

Branch coverage of gpaudit/kernel/ by the kernel's own tests is at least 95%; the command, run by
`test_kernel_branch_coverage_floor` (slow), is

    python3 -m pytest -n 0 -p no:cacheprovider tests/kernel/test_kernel*.py \
        -m "not slow" --cov=gpaudit.kernel --cov-branch --cov-report=term-missing --cov-fail-under=95

Mutation tests (`test_mutant_*`): each rule of kernel/decide.py and each rounding of
kernel/numbers.py is changed in place (the function's source, edited and compiled into the real
module's namespace, with monkeypatch restoring it), and the kernel tests of both files are run
against it: at least one must fail, or the rule is not tested.  So is the door accepting `unknown`
as `unsat`, or ignoring the wall clock.
"""

from __future__ import annotations

import inspect
import os
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from fractions import Fraction
from pathlib import Path

import mpmath
import pytest
import sympy as sp
import z3
from flint import arb

from gpaudit.kernel import arbexpr, domain, numbers, z3door
from gpaudit.kernel import certificate as kc
from gpaudit.kernel import decide as kd
from gpaudit import runtime
from gpaudit.runtime import budget, texts
from verified import trivially_verified

ROOT = Path(__file__).resolve().parents[2]
x, y = sp.symbols("x y", real=True)


def _proved(claim, budget=2000, tr=None) -> bool:
    """Whether the kernel proves `claim` (a sympy condition) for all real values of its symbols."""
    tr = tr or z3door.Translator()
    q = tr.query(z3.Not(tr(claim)))
    return z3door.solve(q, budget).status == z3door.UNSAT


def _imp(a, b):
    return sp.Or(sp.Not(a), b)


def _status(claim, budget=2000) -> str:
    tr = z3door.Translator()
    return z3door.solve(tr.query(z3.Not(tr(claim))), budget).status


# -- translation ---------------------------------------------------------------------------------

def test_constants_pi_and_e_are_inside_their_intervals():
    assert _proved(sp.And(sp.pi > sp.Rational(314, 100), sp.pi < sp.Rational(315, 100)))
    assert _proved(sp.And(sp.E > sp.Rational(271, 100), sp.E < sp.Rational(272, 100)))
    assert not _proved(sp.pi > sp.Rational(3141592654, 10**9))      # beyond the interval: not proved
    tr = z3door.Translator()
    tr(sp.pi + sp.pi * x)
    assert len([f for f in tr.facts]) == 1                             # one fact per constant


def test_an_enclosed_constant_is_a_relaxation_and_ties_are_decided_exactly():
    # Translator(enclose=True): an irrational constant is a variable between arb's outward-rounded
    # rational ends, so what it proves is true; a claim that holds only at the exact constant (a
    # tie) is not proved relaxed, and certificate._unsat then decides it exactly
    c = sp.Integer(13) ** sp.Rational(1, 14)
    lo, hi = z3door.enclosure(c)
    assert sp.N(c - lo, 60) > 0 and sp.N(hi - c, 60) > 0 and hi - lo < sp.Rational(1, 2**60)
    enc = z3door.Translator(enclose=True)
    assert _proved(_imp(x >= c, x > sp.Rational(6, 5)), tr=enc) and enc.enclosed == 1
    assert not _proved(_imp(x >= c, x > sp.Rational(121, 100)), tr=z3door.Translator(enclose=True))  # false
    tie = _imp(x >= sp.sqrt(2), x**2 >= 2)
    assert not _proved(tie, tr=z3door.Translator(enclose=True)) and _proved(tie)
    assert kc._unsat(sp.Not(tie), relax=True) == (True, "z3 unsat")           # exactly, after the relaxation
    assert kc._unsat(sp.And(x > sp.sqrt(2), x**2 < 2 + sp.Rational(1, 10**30)), relax=True) == (False, "z3 sat")
    assert z3door.enclosure(sp.sqrt(-2)) is None                              # not real: translated as it is
    assert z3door.enclosure(sp.exp(sp.Rational(1, 3)))[0] < sp.exp(sp.Rational(1, 3)) < z3door.enclosure(sp.exp(sp.Rational(1, 3)))[1]
    # pi and e are enclosed in either mode, and do not count as a relaxation
    tr = z3door.Translator()
    tr(sp.pi * x + sp.E)
    assert tr.enclosed == 0 and len(tr.facts) == 2
    # a gen_cauchy rate at p = 14: exactly, nlsat works with 13^(1/14) for minutes; relaxed, at once
    u = kc.U
    rate = 28 * c * u**13 / (195 * (u**14 + 1)) > sp.Rational(13, 15)
    assert kc._unsat(rate, relax=True) == (True, "z3 unsat with its constants enclosed")
    assert kc._unsat(_imp(x >= c, x > sp.Rational(6, 5))) == (False, "z3 sat")   # satisfiable, relaxed or not
    assert kc._unsat(_imp(x >= c, x > sp.Rational(6, 5)), relax=True) == (False, "z3 sat")


def test_a_symbols_sign_assumption_reaches_z3():
    # sympy takes u >= 0 as true for a nonnegative u and drops it from a formula: z3 must know it
    # (without it, u = -1 makes 1/(u^3 + 1) a division by 0, any value, and a true rate bound fails)
    u, p = sp.Symbol("u", nonnegative=True), sp.Symbol("p", positive=True)
    assert sp.Ge(u, 0) is sp.true and sp.Gt(1 / (u**3 + 1), 0) is sp.true
    assert _proved(u**3 - u**2 + 1 > 0) and _proved(p**3 - 2 * p**2 + 2 * p > 0)    # false at -1
    assert not _proved(x**3 - x**2 + 1 > 0) and not _proved(u**3 - u**2 > 0)       # real x; u = 0


def test_a_float_is_taken_at_its_exact_binary_value():
    f = sp.Float("0.1", 60)                                            # 200 bits, not 53
    tr = z3door.Translator()
    t = tr(f)
    assert Fraction(t.as_fraction()) == Fraction(sp.Rational(f).p, sp.Rational(f).q)
    assert Fraction(t.as_fraction()) != Fraction(0.1)
    assert any("exact binary value" in n for n in tr.notes)


def test_two_symbols_of_one_name_are_refused():
    plain, real = sp.Symbol("x"), sp.Symbol("x", real=True)
    with pytest.raises(z3door.Unsupported, match="two different symbols named x"):
        z3door.Translator()(plain + real)
    a, b = sp.Dummy("A"), sp.Dummy("A")
    with pytest.raises(z3door.Unsupported):
        z3door.Translator()(a + b)
    tr = z3door.Translator()                 # a user symbol named like a fresh abstraction
    tr(sp.exp(x))
    with pytest.raises(z3door.Unsupported):
        tr(sp.Symbol("exp_1") + 1)
    tr = z3door.Translator()
    tr(real + real)
    assert tr.vars.keys() == {"x"}


def test_connectives_relations_and_piecewise():
    assert _proved(sp.Or(x > 0, x <= 0))
    assert _proved(sp.Not(sp.And(x > 0, x < 0)))
    assert _proved(sp.Eq(sp.Abs(x), sp.Max(x, -x)))
    assert _proved(sp.Ne(sp.Min(x, 1) - 2, 0))
    assert _proved(sp.Piecewise((x, x > 0), (-x, True)) >= 0)
    assert _proved(sp.Max(x, y, 0) >= sp.Min(x, y, 0))
    assert not _proved(sp.Abs(x) > 0)
    tr = z3door.Translator()
    assert z3.is_true(z3.simplify(tr(sp.true))) and z3.is_false(z3.simplify(tr(sp.false)))
    assert z3.is_true(z3.simplify(tr(True))) and z3.is_false(z3.simplify(tr(False)))


def test_powers_and_roots():
    assert _proved(_imp(x > 0, x**-2 > 0))
    assert not _proved(x**-2 > 0)                       # x = 0: z3's x/0 is any value, nothing is proved
    assert _proved(sp.sqrt(x**2 + 1) >= 1)
    assert _proved(_imp(x >= 0, (x**3)**sp.Rational(1, 3) >= 0))
    assert not _proved(x**sp.Rational(3, 2) > 0)       # x = 0 and below (undefined there: r is free)
    assert _proved(_imp(x > 1, x**sp.Rational(3, 2) >= 1))
    assert _proved(_imp(x > 0, x**sp.Rational(-1, 2) > 0))
    with pytest.raises(z3door.Unsupported, match="exponent"):
        z3door.Translator()(x**sp.pi)
    with pytest.raises(z3door.Unsupported, match="cannot translate"):
        z3door.Translator()(sp.sin(x))
    for bad in (sp.oo, -sp.oo, sp.zoo, sp.nan):
        with pytest.raises(z3door.Unsupported, match="non-finite"):
            z3door.Translator()(bad)
    tr = z3door.Translator()
    assert tr(sp.sqrt(x) + sp.sqrt(x) ** 3) is not None and len(tr.facts) == 1   # one root, reused


def test_exp_and_log_facts_prove_true_claims_and_only_those():
    assert _proved(sp.exp(x) >= 1 + x)
    assert _proved(_imp(x <= y, sp.exp(x) <= sp.exp(y)))
    assert _proved(_imp(x < y, sp.exp(x) < sp.exp(y)))
    assert _proved(_imp(x <= 0, sp.exp(x) <= 1))
    assert _proved(_imp(x > 0, sp.log(x) <= x - 1))
    assert _proved(_imp(sp.And(x > 0, y > x), sp.log(x) <= sp.log(y)))
    assert _proved(_imp(sp.And(y > 0, x > y), sp.log(y) <= sp.log(x)))
    # false claims: the facts are true of exp and log, so no false claim is ever proved
    assert not _proved(sp.exp(x) >= 1 + 2 * x)
    assert not _proved(_imp(x > 0, sp.log(x) >= 0))
    assert not _proved(sp.exp(x) <= 100)


def test_query_texts_and_counts():
    tr = z3door.Translator()
    q = tr.query(tr(sp.exp(x) + sp.log(x + 2) > 10**40))
    assert q.transcendental == 2 and q.digits == 41
    assert texts.key_text(q).startswith("low-level\n") and "declare-fun" in texts.smt2(q) and texts.text(q)
    odd = z3door.Query(z3.Bool("p"), [], [])                     # not a translator's query
    assert texts.key_text(odd).startswith("smt-lib\n") and odd.transcendental == 0
    assert z3door.text_digits("a 007 b 0") == 1 and z3door.numeral_digits([]) == 0


def test_the_step_budget_shrinks_with_transcendental_abstractions():
    free = z3door.TRANSCENDENTAL_FREE
    assert z3door.rlimit_of(1000, 0, free) == z3door.rlimit_of(1000)
    assert z3door.rlimit_of(1000, 0, 2 * free) * 2 == z3door.rlimit_of(1000)


# -- the solve path --------------------------------------------------------------------------------

def test_a_model_gives_exact_values_and_algebraic_approximations():
    """A `sat` answer's model is read outside the kernel (gpaudit.runtime.models): exact rationals,
    an algebraic value by a rational within 1e-20, a name left free 0; the kernel's own solve reads
    none (only unsat proves anything)."""
    from gpaudit import runtime
    from gpaudit.runtime import models
    a = z3.Real("a")
    q = z3door.Query(z3.And(a * a == 2, a > 0), [], [])
    ans = runtime.solve(q, 1000, want_model=("b",), use_cache=False)
    assert ans.status == z3door.SAT and abs(ans.model["a"] - Fraction(14142135623730950488, 10**19)) < Fraction(1, 10**20)
    assert ans.model["b"] == 0
    assert z3door.solve(q, 1000).status == z3door.SAT and z3door.solve(q, 1000).model == {}
    with pytest.raises(ValueError):
        models.model_value(z3.BoolVal(True))


def test_a_z3_exception_is_unknown(monkeypatch):
    def boom(self, *a):
        raise z3.Z3Exception("out of memory")
    monkeypatch.setattr(z3.Solver, "check", boom)
    a = z3.Real("a")
    ans = z3door.solve(z3door.Query(a > 0, [], []), 100)
    assert ans.status == z3door.UNKNOWN
    r, s, _ = z3door.check_formula([a > 0], 100)
    assert r == z3.unknown and s.steps >= 0


def test_the_replay_memo_answers_an_identical_query_and_charges_its_steps():
    a = z3.Real("a")
    memo: dict = {}
    with budget.work_budget(10**9) as work:
        first = runtime.solve(z3door.Query(z3.And(a > 1, a < 0), [], []), 1000, use_cache=False, replay=memo)
        cost = work.spent
        again = runtime.solve(z3door.Query(z3.And(a > 1, a < 0), [], []), 1000, use_cache=False, replay=memo)
        assert again is first and work.spent == 2 * cost
    with budget.work_budget(cost + 1) as work:        # a limit cut by the budget: the call is made again
        third = runtime.solve(z3door.Query(z3.And(a > 1, a < 0), [], []), 1000, use_cache=False, replay=memo)
        assert third is not first and third.status == z3door.UNSAT


def test_the_default_guard_limits_nothing_and_a_stage_guard_is_restored():
    g = z3door.Guard()
    assert g.left() is None and g.seconds() is None and g.stopped() == "" and g.charge(5) is None
    with g.watch(None) as why:               # the kernel alone watches no call's memory
        assert why() == ""
    old = z3door.set_guard(None)
    try:
        assert type(z3door.GUARD) is z3door.Guard
        a = z3.Real("a")
        assert z3door.solve(z3door.Query(z3.And(a > 1, a < 0), [], []), 1000).status == z3door.UNSAT
    finally:
        z3door.set_guard(old)
    assert z3door.GUARD is budget.WORK


def test_unsat_only_when_every_case_is_and_shared_steps_run_out(monkeypatch):
    a, b = z3.Reals("a b")
    region = z3door.Query(z3.And(a > 0, z3.Or(b < 1, b > 2), a * a + b * b < 0), [], [])
    monkeypatch.setattr(z3door, "REGION_CASE_STEPS", 0)           # no steps shared: decided whole
    ans = z3door.solve(region, 1000)
    assert ans.status == z3door.UNSAT and ans.cases == 1
    assert len(z3door.claim_cases(a > 0)) == 1 and len(z3door.claim_cases(z3.Not(z3.And(a > 0, a > 0)))) == 2
    r = z3.Real("r")                                   # not a formula: left whole
    assert z3door.claim_cases(r)[0].eq(r) and z3door.region_cases(r)[0].eq(r)
    assert len(z3door.region_cases(z3.Or(a > 0))) == 1


def test_a_session_shares_one_context_and_charges_each_call_its_own_steps():
    """Inside z3door.session the calls share one z3 context, where z3's step count accumulates; a
    call may still make its own step limit (z3's rlimit counts from where the context's count
    stands) and is charged only the steps it made.  Outside, each call has a context of its own."""
    a, b = z3.Reals("a b")
    hard = [a * a * a - 2 * a + b * b == 1, a * b > 3, a < 10, b < 10]
    r, s, _ = z3door.call(hard, 10**6, 0)
    alone = s.steps
    assert r == z3.sat and alone > 100
    with z3door.session():
        runs = [z3door.call(hard, 2 * alone, 0) for _ in range(5)]      # 5 alone > 2 alone: relative
        assert [r for r, _, _ in runs] == [z3.sat] * 5
        assert [s.steps for _, s, _ in runs] == [alone] * 5
        assert all(s.ctx is runs[0][1].ctx for _, s, _ in runs)
        r, s, _ = z3door.call(hard, alone // 2, 0)                      # the limit still binds
        assert r == z3.unknown and 0 < s.steps < alone
    assert z3door.call(hard, 10**6, 0)[1].ctx is not runs[0][1].ctx


def test_the_wall_clock_limit_ends_a_call_and_says_so(monkeypatch):
    import time
    a = z3.Real("a")
    timeouts = []

    def slow(self, *args):                   # a call that outlives the limit, as z3 stops it
        timeouts.append(self.param_descrs() is not None)
        time.sleep(0.06)
        return z3.unknown
    with budget.work_budget(10**12, seconds=0.05):
        with monkeypatch.context() as mp:
            mp.setattr(z3.Solver, "check", slow)
            ans = z3door.solve(z3door.Query(a > 0, [], []), 1000)
        assert timeouts
        assert ans.status == z3door.UNKNOWN and z3door.WALL_CLOCK_NOTE in ans.reason
        assert budget.past_wall_clock()
        begun = []                           # a call past the limit is not even begun: were it made,
        with monkeypatch.context() as mp:    # this z3 would say unsat (however loaded the machine)
            mp.setattr(z3.Solver, "check", lambda self, *args: begun.append(1) or z3.unsat)
            late = z3door.solve(z3door.Query(z3.And(a > 1, a < 0), [], []), 1000)
        assert not begun and late.status == z3door.UNKNOWN and "wall-clock limit: 0.05 s" in late.reason
    assert budget.WORK.seconds() is None and not budget.past_wall_clock()
    with budget.work_budget(10**12, seconds=600):
        assert z3door.solve(z3door.Query(z3.And(a > 1, a < 0), [], []), 1000).status == z3door.UNSAT


def _five_squares():
    """A query nlsat answers `sat` in about 0.1 s: a point of the unit 5-ball with a*b*c*d*e > 1/56."""
    a, b, c, d, e = z3.Reals("a b c d e")
    return [z3.And(a * a + b * b + c * c + d * d + e * e <= 1, a * b * c * d * e > z3.RealVal("1/56"))]


def test_a_call_past_the_memory_watch_is_unknown_and_the_context_stays_usable(monkeypatch):
    """z3's hard memory limit (memory_max_size) fails an allocation mid-operation and can leave the
    process corrupted (a double free; a later call segfaulted): the guard's watch interrupts a call
    whose memory passes MEMORY_SOFT_MB instead.  Here the limit is 0 MB, so the call is stopped at
    the first poll: unknown, the reason named; then, in the same session, the same call decides as
    before (the interrupt leaves the context usable), and no thread is left behind."""
    threads = threading.active_count()
    with z3door.session():
        with budget.work_budget(10**9):
            r, s, _ = z3door.call(_five_squares(), 10**8, 0)
            assert r == z3.sat                               # the watch changes nothing below its limit
            monkeypatch.setattr(budget, "MEMORY_SOFT_MB", 0)
            monkeypatch.setattr(budget, "MEMORY_POLL_SECONDS", 0.002)
            r, s, _ = z3door.call(_five_squares(), 10**8, 0)
            assert r == z3.unknown and isinstance(s, z3door.NotRun)
            assert "z3's memory passed 0 MB" in s.reason and z3door.WALL_CLOCK_NOTE in s.reason
            monkeypatch.setattr(budget, "MEMORY_SOFT_MB", 1024)
            r, s, _ = z3door.call(_five_squares(), 10**8, 0)
            assert r == z3.sat
    assert threading.active_count() == threads


# -- numbers ---------------------------------------------------------------------------------------

def test_exact_of_every_kind_of_number():
    assert numbers.exact(0.1) == sp.Rational(3602879701896397, 36028797018963968)
    assert numbers.exact(Fraction(1, 3)) == sp.Rational(1, 3) and numbers.exact(7) == 7
    assert numbers.exact(mpmath.mpf(3) * 2**70) == 3 * 2**70
    assert numbers.exact("1/3") == sp.Rational(1, 3)
    with pytest.raises(ValueError):
        numbers.exact(mpmath.inf)


def test_up_and_down_of_mpfs_and_irrationals():
    v = mpmath.mpf("0.1")
    assert numbers.up(v) is v and numbers.down(v) is v
    third = sp.Rational(1, 3)
    assert numbers.exact(numbers.down(third)) < third < numbers.exact(numbers.up(third))
    assert sp.Rational(314159265358979323846, 10**20) < numbers.exact(numbers.down(sp.pi)) < sp.pi \
        < numbers.exact(numbers.up(sp.pi)) < sp.Rational(314159265358979323847, 10**20)
    assert numbers.exact(numbers.up(sp.sqrt(2))) > sp.Rational(14142135623, 10**10)
    assert numbers.exact(numbers.down(sp.sqrt(2))) < sp.Rational(14142135624, 10**10)
    # at the precision asked, not the caller's 53 bits (arb rounds an end to the current precision)
    for bits in (80, 256):
        lo, hi = numbers.exact(numbers.down(sp.sqrt(2), bits)), numbers.exact(numbers.up(sp.sqrt(2), bits))
        assert lo < sp.sqrt(2) < hi and hi - lo < sp.Rational(1, 2**(bits - 8))
    with pytest.raises(ValueError):
        numbers.enclose(sp.log(0 * x + 0))


def test_le_decides_ties_only_by_structure():
    assert numbers.le(sp.sqrt(2) + 1, sp.sqrt(2)) is False           # the difference is rational
    assert numbers.le(sp.sqrt(2), sp.sqrt(2) + sp.Rational(1, 10**100)) is True
    assert numbers.le(sp.exp(sp.Rational(1, 3)), sp.exp(sp.Rational(1, 3))) is True   # the same expression
    assert numbers.le(sp.log(2) + sp.log(3), sp.log(6)) is None      # a true tie, not structural: undecided
    assert numbers.le(sp.log(6), sp.log(2) + sp.log(3)) is None
    assert numbers.le(sp.log(-1 + 0 * sp.pi) + sp.pi, 1) is None    # no finite enclosure: undecided
    assert numbers.le(sp.pi, 4) is True and numbers.le(4, sp.pi) is False


def test_decimal_strings_at_the_edges():
    assert numbers.decimal_up(None) is None
    assert numbers.decimal_up(mpmath.inf) == "+inf" and numbers.decimal_down(mpmath.mpf("-inf")) == "-inf"
    assert numbers.decimal_up(0) == "0" and numbers.decimal_down(sp.Integer(0)) == "0"
    assert float(numbers.decimal_up(sp.pi, 5)) > float(sp.pi) > float(numbers.decimal_down(sp.pi, 5))
    huge = mpmath.mpf(2) ** (2 * 10**9)
    tiny = mpmath.mpf(2) ** (-2 * 10**9)
    assert (numbers.decimal_up(huge), numbers.decimal_down(huge)) == ("inf", "1e99999999")
    assert (numbers.decimal_up(-huge), numbers.decimal_down(-huge)) == ("-1e99999999", "-inf")
    assert (numbers.decimal_up(tiny), numbers.decimal_down(tiny)) == ("1e-99999999", "0")
    assert (numbers.decimal_up(-tiny), numbers.decimal_down(-tiny)) == ("-0", "-1e-99999999")


# -- arbexpr, domain, decide -----------------------------------------------------------------------

def test_arb_enclosures_of_every_construct():
    env = {x: arb(2), y: arb("0.5")}
    cases = [(sp.pi, mpmath.pi), (sp.E, mpmath.e), (x**-2, 0.25), (sp.sqrt(x), mpmath.sqrt(2)),
             (x**sp.Rational(3, 2), 2**1.5), (sp.log(x), mpmath.log(2)), (sp.exp(y), mpmath.exp(0.5)),
             (sp.Abs(y - x), 1.5), (sp.Max(x, y, 1), 2), (sp.Min(x, y), 0.5), (x * y + 1, 2)]
    for e, v in cases:
        b = arbexpr.to_arb(e, env)
        assert b.is_finite() and abs(float(b.mid()) - float(v)) < 1e-12, e
    with pytest.raises(ValueError, match="no value"):
        arbexpr.to_arb(x)
    with pytest.raises(ValueError, match="cannot enclose"):
        arbexpr.to_arb(sp.sin(x), env)


def test_domain_conditions_of_every_partial_function():
    assert domain.conditions(x**sp.pi) == [x > 0]
    assert domain.conditions(sp.log(x) + sp.log(x)) == [x > 0]
    assert domain.conditions(5) == [] and domain.defined(x + 1) is sp.true
    assert domain.defined(1 / x) == sp.Ne(x, 0)
    assert domain.conditions(sp.sqrt(2) + x) == []                     # a constant radicand needs no condition


def test_verdicts_print_as_their_names_and_a_decision_crosses_processes_by_its_evidence():
    import pickle
    assert str(kd.CERTIFIED) == "certified" and f"{kd.REFUTED:>8}" == " refuted"
    d = kd.decide(kd.Evidence(within_claim=True, certificate_checks=("certified",), verified=trivially_verified()))
    again = pickle.loads(pickle.dumps(d))
    assert again == d and kd.is_certified_decision(again) and again is not d


def test_a_forged_decision_is_not_certified():
    forged = object.__new__(kd.Decision)     # no __init__, so no token check: built field by field
    for name, value in (("verdict", kd.CERTIFIED), ("rule", "certified"), ("reason", "forged"),
                        ("evidence", None), ("_token", object())):
        object.__setattr__(forged, name, value)
    assert not kd.is_certified_decision(forged)
    assert kd.is_certified_decision(kd.decide(kd.Evidence(within_claim=True, certificate_checks=("certified",), verified=trivially_verified())))


def test_a_kernel_value_is_not_remade_with_other_fields():
    """dataclasses.replace makes a new instance through the constructor with every field of the old
    one: the kernel's token is no field (an InitVar), so it is not passed on and the constructor
    refuses.  An unknown decision is not turned certified, a checked certificate's bound is not
    changed, a prepared problem is not moved to another one; a pickled one is the same value."""
    import dataclasses
    import pickle

    from gpaudit.kernel import certificate as kc
    unknown = kd.decide(kd.Evidence())
    with pytest.raises(TypeError):
        dataclasses.replace(unknown, verdict=kd.CERTIFIED, rule="certified")
    v = trivially_verified()
    with pytest.raises(TypeError):
        dataclasses.replace(v, epsilon_upper=sp.Integer(0))
    x = sp.Symbol("x", real=True)
    P = kc.Problem((x,), x, sp.Integer(1), "l2", (sp.Integer(1),), "laplace", (-kc.U,), (), sp.Integer(1),
                   sp.Integer(0), "exponential", sp.oo, sp.Integer(1), sp.Integer(0), "piecewise")
    ready = kc.prepare(P)
    with pytest.raises(TypeError):
        dataclasses.replace(ready, pieces=())
    assert kc.is_verified(pickle.loads(pickle.dumps(v))) and pickle.loads(pickle.dumps(v)) == v


# -- mutation tests ----------------------------------------------------------------------------------

def _cases(fn):
    """The parameter sets of a test function (its parametrize marks), as keyword dicts."""
    cases = [{}]
    for mark in getattr(fn, "pytestmark", []):
        if mark.name != "parametrize":
            continue
        names = [n.strip() for n in mark.args[0].split(",")] if isinstance(mark.args[0], str) else list(mark.args[0])
        rows = []
        for v in mark.args[1]:
            v = v.values if hasattr(v, "values") and not isinstance(v, dict) else v
            rows.append(dict(zip(names, v if len(names) > 1 else (v,))))
        cases = [dict(c, **r) for c in cases for r in rows]
    return cases


def kernel_tests():
    """(name, callable) for every case of every kernel test of tests/kernel/test_kernel.py and this file
    that needs no fixture but monkeypatch and tmp_path (the mutation tests themselves excluded)."""
    import test_kernel
    out = []
    for mod in (test_kernel, sys.modules[__name__]):
        for name, fn in vars(mod).items():
            if not name.startswith("test_") or name.startswith("test_mutant") or not inspect.isfunction(fn):
                continue
            if any(m.name == "slow" for m in getattr(fn, "pytestmark", [])):
                continue
            params = set(inspect.signature(fn).parameters)
            for case in _cases(fn):
                if params - set(case) - {"monkeypatch", "tmp_path"}:
                    continue
                out.append((f"{mod.__name__}.{name}{case or ''}", fn, case, params))
    return out


# seconds each kernel test took in the unmutated run (test_mutant_none_..., which runs first): a
# mutant tries the quickest tests first, so the first failure comes sooner.  Order only: a mutant
# that no test catches still runs every test.
SECONDS: dict = {}


def failing_tests(first: bool = False) -> list:
    """The kernel tests that fail as the kernel is now (with `first`: stop at the first, enough to
    say a mutant is caught, trying the quickest first)."""
    failed = []
    tests = kernel_tests()
    if first:
        tests.sort(key=lambda t: SECONDS.get(t[0], 0.0))
    for name, fn, case, params in tests:
        t0 = time.perf_counter()
        with pytest.MonkeyPatch.context() as mp:
            kw = dict(case)
            if "monkeypatch" in params:
                kw["monkeypatch"] = mp
            if "tmp_path" in params:
                kw["tmp_path"] = Path(tempfile.mkdtemp(prefix="gpaudit-mutant-"))
            try:
                fn(**kw)
            except Exception:      # noqa: BLE001 - AssertionError, or the mutant broke something
                failed.append(name)
                if first:
                    break
        if not first:
            SECONDS[name] = time.perf_counter() - t0
    return failed


def _mutate(monkeypatch, module, func_name, old, new):
    """Replace `old` by `new` in the source of module.func_name and put the compiled result in the
    module, or the class (monkeypatch restores the original)."""
    src = textwrap.dedent(inspect.getsource(getattr(module, func_name)))
    assert old in src, f"{func_name}: {old!r} not in its source"
    space: dict = {}
    home = sys.modules[module.__module__] if inspect.isclass(module) else module      # a method: its class's module
    exec(compile(src.replace(old, new), home.__file__, "exec"), vars(home), space)
    monkeypatch.setattr(module, func_name, space[func_name])


DECIDE_MUTANTS = {
    "rule 1 dropped (inconsistent)": ("decide", "if ev.inconsistent:", "if False:"),
    "rule 2 dropped (refuted)": ("decide", "if ev.witness and ev.witness_exact:", "if False:"),
    "rule 2 without an exact model": ("decide", "if ev.witness and ev.witness_exact:", "if ev.witness:"),
    "rule 3 without within_claim": ("decide", "if ev.within_claim and all_hold(checks)", "if all_hold(checks)"),
    "rule 3 without its checks": ("decide", "and all_hold(checks) and", "and"),
    "rule 3 on no checks at all": ("all_hold", "return bool(statuses) and all(", "return all("),
    "rule 3 taking unknown checks": ("all_hold", "(CERTIFIED, SKIPPED)", "(CERTIFIED, SKIPPED, UNKNOWN)"),
    "rule 3 without the kernel's check": ("decide", "and is_verified(ev.verified)", ""),
    "rule 4 dropped (approximate)": ("decide", "if ev.witness:", "if False:"),
    "worst picks the best": ("worst", "min(vs", "max(vs"),
    "is_certified_decision without the token": ("is_certified_decision", " and d._token is _TOKEN", ""),
}

NUMBERS_MUTANTS = {
    "up rounds a rational down": ("up", '"c"', '"f"'),
    "up takes the lower end of the ball": ("up", "arb.upper)", "arb.lower)"),
    "down rounds a rational up": ("down", '"f"', '"c"'),
    "down takes the upper end of the ball": ("down", "arb.lower)", "arb.upper)"),
    "a rational rounded the other way": ("_rounded", "bits, rounding))", "bits, {'c': 'f', 'f': 'c'}[rounding]))"),
    "decimal_up rounds down": ("decimal_up", "ROUND_CEILING", "ROUND_FLOOR"),
    "decimal_down rounds up": ("decimal_down", "ROUND_FLOOR", "ROUND_CEILING"),
    "_decimal's huge sentinels swapped": ("_decimal", 'return ("-1e99999999" if sign else "inf")',
                                          'return ("-inf" if sign else "1e99999999")'),
    "_decimal's tiny sentinels swapped": ("_decimal", '("-0" if sign else "1e-99999999")',
                                          '("-1e-99999999" if sign else "0")'),
    "exact truncates an mpf to a double": ("exact", "        sign, man, exp, _ = v._mpf_",
                                           "        v = mpmath.mpf(float(v))\n        sign, man, exp, _ = v._mpf_"),
    "an end taken at the caller's precision": ("_rounded", "enclose(e, bits, end)", "end(enclose(e, bits))"),
    "le takes an enclosure's overlap as <=": ("le", "if enc <= 0:", "if enc.mid() <= 0:"),
    "le takes any tie for <=": ("le", "if a == b:", "if True:"),
    "le rounds rationals": ("le", "return bool(a <= b)", "return bool(float(a) <= float(b))"),
}

DOOR_MUTANTS = {
    "unknown accepted as unsat": ("solve", "if r == z3.unsat:", "if r in (z3.unsat, z3.unknown):"),
    "a case left unknown counts as unsat": ("_by_cases", "if r != z3.unsat:\n            return None, spent",
                                            "if r not in (z3.unsat, z3.unknown):\n            return None, spent"),
    "the wall clock ignored": ("call", "if steps < 1 else GUARD.stopped())", "if steps < 1 else \"\")"),
    "the memory watch ignored": ("call", "why = stopped() or (", "why = ("),
}

ENCLOSURE_MUTANTS = {
    "an enclosure's ends swapped": (z3door, "enclosure", "return numbers.exact(numbers.down(e, ENCLOSE_BITS)), "
                                    "numbers.exact(numbers.up(e, ENCLOSE_BITS))",
                                    "return numbers.exact(numbers.up(e, ENCLOSE_BITS)), "
                                    "numbers.exact(numbers.down(e, ENCLOSE_BITS))"),
    "an enclosure rounded inward": (z3door, "enclosure", "numbers.exact(numbers.down(e, ENCLOSE_BITS)), ",
                                    "numbers.exact(numbers.up(e, ENCLOSE_BITS)), "),
    "a sign assumption kept from z3": (z3door.Translator, "_tr", "if e.is_nonnegative:", "if False:"),
    "no exact decision after a relaxation": (kc, "_unsat", "for enclose in ((True, False) if relax", "for enclose in ((True,) if relax"),
}


@pytest.mark.slow
def test_mutant_none_leaves_every_kernel_test_passing():
    assert not failing_tests()


MUTANTS = [(kd, name, *spec) for name, spec in sorted(DECIDE_MUTANTS.items())] + \
          [(numbers, name, *spec) for name, spec in sorted(NUMBERS_MUTANTS.items())] + \
          [(z3door, name, *spec) for name, spec in sorted(DOOR_MUTANTS.items())] + \
          [(spec[0], name, *spec[1:]) for name, spec in sorted(ENCLOSURE_MUTANTS.items())]


@pytest.mark.slow  # the kernel tests, once per mutant, up to the first that fails
@pytest.mark.parametrize("module, mutant, func, old, new", MUTANTS, ids=[m[1] for m in MUTANTS])
def test_mutant_is_caught(module, mutant, func, old, new, monkeypatch):
    _mutate(monkeypatch, module, func, old, new)
    assert failing_tests(first=True), f"no kernel test fails with: {mutant} ({module.__name__}.{func})"


@pytest.mark.slow  # runs the kernel tests under coverage in a fresh interpreter (about a minute)
def test_kernel_branch_coverage_floor():
    own = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tests" / "kernel").glob("test_kernel*.py"))
    cmd = [sys.executable, "-m", "pytest", "-n", "0", "-q", "-p", "no:cacheprovider", "-m", "not slow",
           *own, "-k", "not mutant",
           "--cov=gpaudit.kernel", "--cov-branch", "--cov-report=term", "--cov-fail-under=95"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    run = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert "Required test coverage of 95% reached" in run.stdout
