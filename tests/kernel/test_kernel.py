"""The trusted kernel: directed rounding, the z3 door, definedness, the decision table, and the
import contract that keeps the certified verdict inside the kernel."""

import ast
import json
import random
from fractions import Fraction
from pathlib import Path

import mpmath
import pytest
import sympy as sp
import z3

from gpaudit.kernel import decide as kd
from gpaudit.kernel import domain, numbers, z3door
from gpaudit.runtime import budget
from gpaudit.runtime.models import model_of
from gpaudit.verdict import Check, Result
from verified import trivially_verified

ROOT = Path(__file__).resolve().parents[2]
KERNEL = ROOT / "gpaudit" / "kernel"
x = sp.Symbol("x", real=True)


# -- numbers ---------------------------------------------------------------------------------

def test_exact_keeps_every_bit_of_an_mpf():
    with mpmath.workprec(400):
        v = mpmath.mpf(1) + mpmath.mpf(2) ** -300
    q = numbers.exact(v)
    assert q == 1 + sp.Rational(1, 2**300)   # an 80-bit truncation would give exactly 1


@pytest.mark.parametrize("seed", range(5))
def test_up_and_down_bracket_the_exact_value(seed):
    rng = random.Random(seed)
    for _ in range(40):
        q = sp.Rational(rng.randint(-10**30, 10**30), rng.randint(1, 10**30))
        assert numbers.exact(numbers.down(q)) <= q <= numbers.exact(numbers.up(q))
        for e in (sp.sqrt(q * q + 1), sp.exp(q / 10**29), sp.log(q * q + 2)):
            assert numbers.exact(numbers.down(e)) < numbers.exact(numbers.up(e))
            assert numbers.le(numbers.exact(numbers.down(e)), e) is True
            assert numbers.le(e, numbers.exact(numbers.up(e))) is True


@pytest.mark.parametrize("value", [sp.Rational(1, 3), sp.Rational(-2, 3), 1 + sp.Rational(1, 2**100),
                                   sp.Rational(10**40 + 1, 10**40), sp.Rational(7, 10**12)])
def test_decimal_strings_round_in_the_named_direction(value):
    for digits in (3, 12, 30):
        assert sp.Rational(numbers.decimal_up(value, digits)) >= value
        assert sp.Rational(numbers.decimal_down(value, digits)) <= value
    assert numbers.decimal_up(1 + sp.Rational(1, 2**100), 40) != "1"


def test_le_is_sound_and_decides_exact_ties():
    assert numbers.le(1 + sp.Rational(1, 2**100), 1) is False
    assert numbers.le(1, 1 + sp.Rational(1, 2**100)) is True
    assert numbers.le(2 / sp.sqrt(3), 2 * sp.sqrt(3) / 3) is True          # a tie, shown exactly
    assert numbers.le(sp.sqrt(2), sp.Rational(14142135623730950488, 10**19)) is False
    assert numbers.le(1 - sp.Rational(1, 10**26), sp.Rational(99999999999999999999999999, 10**26)) is True


# -- the z3 door -----------------------------------------------------------------------------

def _empty(cond) -> bool:
    tr = z3door.Translator()
    q = z3door.Query(tr(cond), tr.facts, tr.notes)
    return z3door.solve(q, 2000).status == z3door.UNSAT


def test_partial_function_facts_do_not_leak_out_of_their_domain():
    # a later piece's region, after a guard with log(x), must not look empty
    guard = sp.And(x > 0, sp.log(x) < 40)
    assert not _empty(sp.And(sp.Not(guard), x < -1))
    assert not _empty(sp.And(sp.Not(sp.sqrt(x) > 3), x < -1))
    # and inside the domain the facts still work: sqrt(x) > 3 with x < 4 is empty
    assert _empty(sp.And(x >= 0, sp.sqrt(x) > 3, x < 4))
    assert _empty(sp.And(x > 1, sp.log(x) < 0))


def test_solve_is_deterministic_with_a_work_budget():
    a, b, c = z3.Reals("a b c")
    hard = z3.And(a * a * a + b * b * b + c * c * c == 33, a * b * c > 5, a + b + c < 1)
    answers = {z3door.solve(z3door.Query(hard, [], []), 1).status for _ in range(3)}
    assert answers == {z3door.UNKNOWN}          # 2000 solver steps are not enough, every time
    assert z3door.rlimit_of(1) == z3door.RLIMIT_PER_MS


def test_claim_cases_split_only_the_one_negated_conjunction():
    a, b, c = z3.Reals("a b c")
    h = z3.And(a > 0, b > 0)
    cases = z3door.claim_cases(z3.And(h, z3.Not(z3.And(a < 1, z3.And(b < 1, c < 1)))))
    assert len(cases) == 3          # nested conjunctions of the claim are flattened
    for case, part in zip(cases, [a < 1, b < 1, c < 1]):
        assert z3door._conjuncts(case)[:2] == [a > 0, b > 0] and z3door._conjuncts(case)[2].eq(z3.Not(part))
    # which negation is the claim is not known with two of them; a single inequality is one case
    assert len(z3door.claim_cases(z3.And(z3.Not(z3.And(a < 1, b < 1)), z3.Not(z3.And(b < 2, c < 2))))) == 1
    assert len(z3door.claim_cases(z3.And(h, z3.Not(a < 1)))) == 1
    assert len(z3door.claim_cases(z3.Or(a < 1, b < 1))) == 1


def _case_query(claim_b):
    a, b = z3.Reals("a b")
    # H: 0 < a < 1, 0 < b; claim: a < 1 and claim_b
    return z3door.Query(z3.And(a > 0, a < 1, b > 0, z3.Not(z3.And(a < 1, claim_b(b)))), [], [])


def test_a_claim_split_into_cases_is_unsat_only_when_every_case_is():
    proved = z3door.solve(_case_query(lambda b: b > -1), 1000)
    assert proved.status == z3door.UNSAT and proved.cases == 2
    # the second conjunct fails: sat, with a model of the whole formula (b >= 2 violates b < 2)
    refuted = z3door.solve(_case_query(lambda b: b < 2), 1000, model_of)
    assert refuted.status == z3door.SAT and refuted.cases == 2
    assert 0 < refuted.model["a"] < 1 and refuted.model["b"] >= 2


def test_a_case_left_unknown_falls_back_to_the_whole_formula(monkeypatch):
    real, calls = z3door.check_formula, []

    def first_case_unknown(assertions, budget_ms, digits=None, max_steps=None, transcendental=0):
        calls.append(len(calls))
        if len(calls) == 1:
            return z3.unknown, z3door.NotRun("a case out of steps"), 0.0
        return real(assertions, budget_ms, digits, max_steps, transcendental)
    monkeypatch.setattr(z3door, "check_formula", first_case_unknown)
    ans = z3door.solve(_case_query(lambda b: b > -1), 1000)
    # the other case is not tried; the whole formula is decided in one call, and proved
    assert calls == [0, 1] and ans.status == z3door.UNSAT and ans.cases == 1


def test_region_cases_split_only_the_one_disjunction():
    a, b = z3.Reals("a b")
    f = z3.And(a > 0, z3.Or(b < 1, z3.And(b > 2, b < 3), b > 5), a < b)
    cases = z3door.region_cases(f)
    assert len(cases) == 3
    for case, part in zip(cases, [b < 1, z3.And(b > 2, b < 3), b > 5]):
        top = z3door._conjuncts(case)
        assert top[0].eq(a > 0) and top[1].eq(a < b) and z3door._conjuncts(part)[-1].eq(top[-1])
    assert len(z3door.region_cases(z3.And(z3.Or(a < 1, a > 2), z3.Or(b < 1, b > 2)))) == 1
    assert len(z3door.region_cases(z3.And(a > 0, b > 0))) == 1


def _region_query(upper):
    a, b = z3.Reals("a b")
    # the region: a < -1 or a > 1; the claim a^2 > upper (negated)
    return z3door.Query(z3.And(z3.Or(a < -1, a > 1), b == a * a, z3.Not(b > upper)), [], [])


def test_a_region_split_into_cases_is_unsat_only_when_every_case_is(monkeypatch):
    proved = z3door.solve(_region_query(1), 1000)
    assert proved.status == z3door.UNSAT and proved.cases == 2 and proved.split == "region"
    refuted = z3door.solve(_region_query(4), 1000, model_of)   # a = -1.5: a^2 = 2.25 <= 4
    assert refuted.status == z3door.SAT and refuted.split == "region"
    m = refuted.model
    assert (m["a"] < -1 or m["a"] > 1) and m["b"] == m["a"] ** 2 and not m["b"] > 4
    # the cases share REGION_CASE_STEPS: out of them, the whole formula is decided as one call
    monkeypatch.setattr(z3door, "REGION_CASE_STEPS", 1)
    whole = z3door.solve(_region_query(1), 1000)
    assert whole.status == z3door.UNSAT and whole.cases == 1 and whole.split == ""


def test_long_numerals_shrink_the_step_budget():
    t = z3.Real("t")
    short = [t > z3.RealVal("1/3")]
    long_ = [t > z3.RealVal(f"1/{10**300}")]
    assert z3door.numeral_digits(short) == 1 and z3door.numeral_digits(long_) == 301
    # a step on 301-digit numerals costs about (301/30)^2 ordinary ones: the budget is that much smaller
    assert z3door.rlimit_of(1000, 301) * 100 <= z3door.rlimit_of(1000) <= z3door.rlimit_of(1000, 301) * 101
    assert z3door.step_weight(301) == 100 and z3door.step_weight(12) == 1
    huge = [t > z3.RealVal(f"1/{10**800}")]
    r, s, dt = z3door.check_formula(huge, 1000)     # not sent to z3 at all
    assert r == z3.unknown and dt == 0.0 and "801 digits" in s.reason_unknown()


def test_a_stage_budget_ends_a_stage_deterministically():
    y = z3.Real("y")
    easy = z3door.Query(z3.And(y > 1, y < 0), [], [])
    a, b, c = z3.Reals("a b c")
    hard = z3door.Query(z3.And(a * a * a + b * b * b + c * c * c == 33, a * b * c > 5, a + b + c < 1), [], [])
    with budget.work_budget(10**9) as work:
        assert z3door.solve(easy, 1000).status == z3door.UNSAT
        cost = work.spent
    assert 0 < cost < 10**6
    with budget.work_budget(cost + cost // 10) as work:
        assert z3door.solve(easy, 1000).status == z3door.UNSAT
        assert work.spent == cost          # each call has its own z3 context: the same count every time
        assert z3door.solve(hard, 10**6).status == z3door.UNKNOWN   # a few steps left
        assert work.spent >= work.cap
        # once spent, even an easy call is not made
        ans = z3door.solve(easy, 1000)
        assert ans.status == z3door.UNKNOWN and "budget" in ans.reason
    assert budget.WORK.cap is None


# -- definedness -------------------------------------------------------------------------------

def test_domain_conditions_of_partial_functions():
    assert domain.conditions(1 + x**sp.Rational(3, 2)) == [x >= 0]
    assert domain.conditions((1 + sp.Abs(x - 5000) / (x - 5000)) / 2) == [sp.Ne(x - 5000, 0)]
    assert domain.conditions(sp.log(x + 1) + x**-sp.Rational(1, 2)) in ([x + 1 > 0, x > 0], [x > 0, x + 1 > 0])
    assert domain.conditions(sp.exp(x) * sp.Max(x, 1) + x**2) == []


# -- the decision table ----------------------------------------------------------------------

CERT = ("certified", "certified", "skipped")
VERIFIED = trivially_verified()


@pytest.mark.parametrize("ev, verdict, rule", [
    (kd.Evidence(witness=True, witness_exact=True, within_claim=True, certificate_checks=CERT, inconsistent=True),
     kd.UNKNOWN, "inconsistent"),
    (kd.Evidence(witness=True, witness_exact=True), kd.REFUTED, "refuted"),
    (kd.Evidence(witness=True, witness_exact=False, within_claim=True, certificate_checks=CERT, verified=VERIFIED),
     kd.CERTIFIED, "certified"),
    (kd.Evidence(witness=True, witness_exact=False, within_claim=False, certificate_checks=CERT),
     kd.UNKNOWN, "approximate"),
    (kd.Evidence(within_claim=True, certificate_checks=CERT, verified=VERIFIED), kd.CERTIFIED, "certified"),
    (kd.Evidence(within_claim=True, certificate_checks=CERT), kd.UNKNOWN, "otherwise"),   # no kernel check
    (kd.Evidence(within_claim=True, certificate_checks=("certified", "unknown"), verified=VERIFIED),
     kd.UNKNOWN, "otherwise"),
    (kd.Evidence(within_claim=True, certificate_checks=(), verified=VERIFIED), kd.UNKNOWN, "otherwise"),
    (kd.Evidence(within_claim=False, certificate_checks=CERT, verified=VERIFIED), kd.UNKNOWN, "otherwise"),
    (kd.Evidence(within_claim=True, certificate_checks=("certified", "unknown")), kd.UNKNOWN, "otherwise"),
    (kd.Evidence(within_claim=True, certificate_checks=()), kd.UNKNOWN, "otherwise"),
    (kd.Evidence(within_claim=False, certificate_checks=CERT), kd.UNKNOWN, "otherwise"),
    # smoothed DP: a value within the claim certifies only with the kernel's re-computation (Verified)
    (kd.Evidence(within_claim=True, certificate_checks=("certified",)), kd.UNKNOWN, "otherwise"),
])
def test_rule_table(ev, verdict, rule):
    d = kd.decide(ev)
    assert (d.verdict, d.rule) == (verdict, rule)


def test_verdicts_are_ordered_and_worst_wins():
    assert kd.REFUTED.rank < kd.UNKNOWN.rank < kd.CERTIFIED.rank
    assert kd.worst("certified", "skipped", "unknown") is kd.UNKNOWN
    assert kd.worst("certified", "refuted") is kd.REFUTED
    assert kd.worst() is kd.UNKNOWN


def test_certified_needs_the_kernels_decision():
    with pytest.raises(TypeError):
        kd.Decision(kd.CERTIFIED, "certified", "forged")
    with pytest.raises(ValueError):
        Result("n", "p", "0" * 64, "certified", {"epsilon": "1", "delta": "0"})
    d = kd.decide(kd.Evidence(within_claim=True, certificate_checks=CERT, verified=VERIFIED))
    assert Result("n", "p", "0" * 64, "certified", {"epsilon": "1", "delta": "0"}, decision=d).verdict == "certified"
    refuted = kd.decide(kd.Evidence(witness=True, witness_exact=True))
    with pytest.raises(ValueError):
        Result("n", "p", "0" * 64, "certified", {"epsilon": "1", "delta": "0"}, decision=refuted)


# -- the import contract -----------------------------------------------------------------------

def _imports(path: Path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            yield ("." * node.level) + (node.module or ""), node
        elif isinstance(node, ast.Import):
            for a in node.names:
                yield a.name, node


def test_kernel_imports_nothing_from_gpaudit_outside_itself():
    for path in KERNEL.glob("*.py"):
        for mod, _ in _imports(path):
            if mod.startswith("gpaudit"):
                assert mod.startswith("gpaudit.kernel"), f"{path.name} imports {mod}"
            if mod.startswith(".."):
                pytest.fail(f"{path.name} imports {mod} from outside the kernel")


def test_nothing_outside_the_kernel_makes_a_decision():
    for path in (ROOT / "gpaudit").rglob("*.py"):
        if KERNEL in path.parents:
            continue
        text = path.read_text()
        assert "_TOKEN" not in text, path
        tree = ast.parse(text)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                assert name != "Decision", f"{path}: constructs a Decision"


def test_no_global_mpmath_precision_in_the_package():
    for path in (ROOT / "gpaudit").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Assign):
                for t in node.targets:
                    text = ast.unparse(t)
                    assert not text.endswith("mp.dps") and not text.endswith("mp.prec"), f"{path}: {text}"


def test_check_records_are_plain_strings_in_json():
    c = Check("x", kd.CERTIFIED, "m", "d")
    assert json.loads(json.dumps(c.to_json()))["status"] == "certified"
    assert Fraction(1, 3) == Fraction(*numbers.exact(Fraction(1, 3)).as_numer_denom())


def test_decimal_strings_of_astronomically_small_values_end_quickly():
    tiny = sp.exp(-9 * sp.Integer(10)**300)      # exp(-9e300): no decimal expansion can be printed
    from decimal import Decimal   # (sympy would expand 1e-99999999 into a 330-million-bit integer)
    assert Decimal(numbers.decimal_up(tiny, 6)) > 0
    assert Decimal(numbers.decimal_down(tiny, 6)) <= 0


def test_nary_terms_are_the_terms_z3py_makes():
    """conj / disj / real_sum make exactly z3.And / z3.Or / z3.Sum's term (same AST), and leave
    every argument list they do not handle (no term, a Python bool, mixed sorts or contexts) to z3py."""
    import z3
    from gpaudit.kernel.z3door import conj, disj, real_sum
    x, y = z3.Reals("x y")
    n = z3.Int("n")
    atoms = [x > 1, y < 2, x * y >= z3.RealVal("1/3"), z3.Not(x == y)]
    for k in range(1, len(atoms) + 1):
        assert conj(*atoms[:k]).eq(z3.And(*atoms[:k]))
        assert disj(*atoms[:k]).eq(z3.Or(*atoms[:k]))
    terms = [x, y * y, z3.RealVal(3), x * y]
    for k in range(1, len(terms) + 1):
        assert real_sum(terms[:k]).eq(z3.Sum(terms[:k]))
    # left to z3py: the same result as z3py, whatever it is
    assert conj(x > 1, True).eq(z3.And(x > 1, True))
    assert disj(False, y < 2).eq(z3.Or(False, y < 2))
    assert real_sum([x, n]).eq(z3.Sum([x, n]))            # an Int coerced to Real
    assert real_sum([n, n]).eq(z3.Sum([n, n]))
    other = z3.Context()
    xo = z3.Real("x", other)
    with pytest.raises(z3.Z3Exception):
        conj(x > 1, xo > 1)                                # z3py's own error for mixed contexts
    assert conj().eq(z3.And()) and disj().eq(z3.Or())


def test_the_connective_reader_agrees_with_z3py():
    """_op / _bool_args / _conjuncts read a term as z3.is_and / is_or / is_not and .children() do."""
    from gpaudit.kernel.z3door import _bool_args, _conjuncts, _op
    rng = random.Random(7)
    x, y = z3.Reals("x y")
    atoms = [x > 1, y < x, x * y == 2, z3.BoolVal(True), z3.Bool("p")]

    def term(depth):
        if depth == 0 or rng.random() < 0.3:
            return rng.choice(atoms)
        k = rng.randrange(3)
        if k == 0:
            return z3.And(*[term(depth - 1) for _ in range(rng.randint(1, 3))])
        if k == 1:
            return z3.Or(*[term(depth - 1) for _ in range(rng.randint(1, 3))])
        return z3.Not(term(depth - 1))

    def reference(e):
        return [c for a in e.children() for c in reference(a)] if z3.is_and(e) else [e]
    for _ in range(300):
        e = term(4)
        assert (_op(e) == z3.Z3_OP_AND) == z3.is_and(e)
        assert (_op(e) == z3.Z3_OP_OR) == z3.is_or(e)
        assert (_op(e) == z3.Z3_OP_NOT) == z3.is_not(e)
        if z3.is_and(e) or z3.is_or(e) or z3.is_not(e):
            assert [a.get_id() for a in _bool_args(e)] == [a.get_id() for a in e.children()]
        assert [a.get_id() for a in _conjuncts(e)] == [a.get_id() for a in reference(e)]
    assert _op(z3.RealVal(1) + x) != z3.Z3_OP_AND and _op(z3.ForAll([x], x > 0)) is None


# -- size --------------------------------------------------------------------------------------

KERNEL_CODE_LINES = 1500


def kernel_lines() -> tuple[int, int]:
    """(lines, lines of code) of gpaudit/kernel/*.py: code is every line that is not blank, a comment
    or part of a docstring of a module, class or function."""
    total = code = 0
    for path in sorted((ROOT / "gpaudit" / "kernel").glob("*.py")):
        src = path.read_text(encoding="utf-8")
        docs = set()
        for node in ast.walk(ast.parse(src)):
            body = getattr(node, "body", None)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and body \
                    and isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None), ast.Constant) \
                    and isinstance(body[0].value.value, str):
                docs.update(range(body[0].lineno, body[0].end_lineno + 1))
        lines = src.splitlines()
        total += len(lines)
        code += sum(1 for i, line in enumerate(lines, 1)
                    if line.strip() and not line.strip().startswith("#") and i not in docs)
    return total, code


def test_the_kernel_stays_small_enough_to_read():
    """The trusted kernel is read line by line: at most KERNEL_CODE_LINES lines of code (its
    docstrings and comments, which say what each rule rests on, are not counted against it)."""
    total, code = kernel_lines()
    assert 0 < code <= KERNEL_CODE_LINES, (total, code)


def test_the_allocator_keeps_freed_memory_for_the_next_z3_context():
    """gpaudit.runtime sets glibc's trim and mmap thresholds (runtime/memory.py), so that the ~16 MB
    a z3 context allocates and frees stays in the heap for the next one: glibc takes both (again, as
    often as asked), and a new context then touches almost no fresh page.  (What it saves, a
    thousand fresh pages a context where glibc would give the memory back, depends on the state of
    the heap; benchmarks/bench.py prints the page faults of a check.)"""
    import resource
    import sys

    from gpaudit.runtime import memory
    if not sys.platform.startswith("linux"):
        pytest.skip("glibc's mallopt")
    assert memory.keep_freed_memory() and memory.keep_freed_memory()
    z3.Context()                                        # the heap grows to a context's size once
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(10):
        z3.Context()
    assert resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before < 10 * 100
