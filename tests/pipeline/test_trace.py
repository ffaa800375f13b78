"""Tracing users' Python (kind python) into the exact formula it computes (gpaudit/model/trace.py).

Plain-Python threshold code traces to the same function as the hand-written formula; a correct
traced configuration is certified end to end and broken ones are refuted; code a formula cannot
follow stops tracing with the construct and the user's file:line; the traced path conditions are
disjoint and cover R^d; float literals are read as their exact binary values."""

import importlib.util
import json
import math
import random

import mpmath
import pytest
import sympy as sp

from gpaudit.cli import main
from gpaudit.kernel import z3door as zb
from gpaudit.model.bounds import threshold_bound
from gpaudit.model.queries import soft_threshold
from gpaudit.model.trace import Sym, Traced, TraceStop, trace, traced_pieces
from gpaudit.spec.types import Piece, input_symbols

X = input_symbols(1)[0]

USER = '''\
import math
import mpmath
import numpy as np
from scipy.optimize import brentq

DATA = [0.01 * i for i in range(400)]


def threshold(x, T=10.0, tau=2.0):
    d = x[0] - T
    if d < -tau / 2:
        return 0.0
    elif d <= tau / 2:
        return d / tau + 0.5
    return 1.0


def smooth_bound(x, T=10.0, tau=2.0, gamma=0.1):
    rho = abs(x[0] - T) - tau / 2
    if rho <= 0:
        return 1 / tau
    return max(1 / (rho + tau), math.exp(-gamma * rho) / tau)


def clipped(x):
    return min(max(x[0] + 0.5, 0.0), 1.0)


def three_ifs(x):
    a = 1 if x[0] > 0 else 0
    b = 2 if x[1] > 0 else 0
    c = 4 if x[0] + x[1] > 0 else 0
    return a + b + c


def plateau(x):
    if x[0] > 1 and x[1] > 1:
        if x[0] > 2:
            return 1.0
        elif x[1] > 2:
            return 1.0
        elif x[0] + x[1] > 3.5:
            return 1.0
        return 0.5
    return 0.0


def kde_over_data(x, h=0.5):
    total = 0.0
    for t in DATA:
        total += math.exp(-(x[0] - t) ** 2 / (2 * h * h))  # <- loop
    return total


def cube_root(x):
    return brentq(lambda t: t ** 3 - x[0], -100.0, 100.0)  # <- brentq


def gamma_fn(x):
    return math.gamma(x[0] + 3)  # <- gamma


def halvings(x):
    n, y = 0, x[0]
    while y > 1:  # <- while
        y = y / 2
        n += 1
    return n


def float_array(x):
    a = np.asarray(x, dtype=float)  # <- array
    return a[0] * 2


_GRID = None


def cached_grid(x):
    global _GRID
    if _GRID is None:
        _GRID = [0.5 * k for k in range(3)]
    return x[0] * _GRID[1]


def lookup(x):
    if x[0] in {0.0, 1.0}:  # <- hash
        return 1.0
    return x[0]


def raises_on_a_path(x):
    if x[0] > 3:
        raise ValueError("out of range")  # <- raise
    return x[0]


def tenth(x):
    return 0.1 * x[0]


TAU = 1600.0


def constants(x, k=3):
    return x[0] / TAU + 0.1 * k + 1 / TAU


def libraries(x):
    y = float(x[0])
    return np.exp(-y) + mpmath.sqrt(mpmath.mpf(y) ** 2 + 1) + math.log1p(y * y) + np.maximum(y, 0.0)


CALLS = []


def stateful(x):
    CALLS.append(1)
    if len(CALLS) > 1:
        return 0.0
    return 1.0 if x[0] > 0 else 0.0


def mp_style(x):
    assert math.isclose(2.0, 2.0)          # constants reach other functions as the program's floats
    return mpmath.mpf("0.1") * x[0] + mpmath.mpf(1) / 3


def scalar(x, scale=2):
    return abs(x) * scale
'''


@pytest.fixture(scope="module")
def user(tmp_path_factory):
    path = tmp_path_factory.mktemp("trace") / "usermod.py"
    path.write_text(USER)
    spec = importlib.util.spec_from_file_location("gpaudit_test_usermod", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mod.PATH = path
    return mod


def line_of(mod, marker):
    [n] = [i for i, text in enumerate(USER.splitlines(), 1) if text.rstrip().endswith(f"# <- {marker}")]
    return f"{mod.PATH.name}:{n}"


def regions_1d(*exprs):
    """Test points of the real line: every breakpoint of the formulas' conditions and a point
    inside every interval between them (exact rationals)."""
    cuts = set()
    for e in exprs:
        for rel in e.atoms(sp.core.relational.Relational):
            for r in sp.solve(sp.Eq(rel.lhs - rel.rhs, 0), X):
                if r.is_real:
                    cuts.add(sp.nsimplify(r))
    cuts = sorted(cuts)
    mids = [cuts[0] - 1] + [(a + b) / 2 for a, b in zip(cuts, cuts[1:])] + [cuts[-1] + 1]
    return cuts, mids


def active(pw, point):
    """The value expression of a Piecewise that applies at `point` (first match)."""
    if not isinstance(pw, sp.Piecewise):
        return pw
    for value, cond in pw.args:
        if cond.subs(X, point) == sp.true:
            return value
    raise AssertionError(f"no piece of {pw} applies at {point}")


def assert_same_function_1d(traced, hand, rng_seed=0):
    """Symbolically: on every interval between breakpoints the active values differ by 0 (sympy),
    and at every breakpoint the values agree exactly; numerically at random points with mpmath."""
    cuts, mids = regions_1d(traced, hand)
    for m in mids:
        assert sp.simplify(active(traced, m) - active(hand, m)) == 0, m
    for c in cuts:
        assert sp.simplify(traced.subs(X, c) - hand.subs(X, c)) == 0, c
    f1, f2 = sp.lambdify(X, traced, "mpmath"), sp.lambdify(X, hand, "mpmath")
    rng = random.Random(rng_seed)
    with mpmath.workdps(50):
        for _ in range(300):
            x = mpmath.mpf(rng.uniform(float(cuts[0]) - 5, float(cuts[-1]) + 5))
            assert abs(f1(x) - f2(x)) <= mpmath.mpf(10) ** -45


# -- tracing into the hand-written formula ---------------------------------------------------------

def test_threshold_query_traces_to_the_soft_threshold(user):
    t = trace(user.threshold, 1)
    assert isinstance(t, Traced) and len(t.pieces) == 3
    hand, *_ = soft_threshold(sp.Integer(10), sp.Integer(2))
    assert_same_function_1d(t.piecewise(), hand)
    assert t.source.endswith("usermod.py:threshold")


def test_smooth_bound_with_if_max_and_math_exp_traces_to_lemma_41(user):
    t = trace(user.smooth_bound, 1)
    assert isinstance(t, Traced) and len(t.pieces) == 2
    gamma = sp.Rational(*(0.1).as_integer_ratio())       # the literal 0.1, read in binary
    hand = threshold_bound(sp.Integer(10), sp.Integer(2), gamma, "exponential")
    assert_same_function_1d(t.piecewise(), hand)
    assert t.piecewise().has(sp.Max, sp.exp)             # max and math.exp mapped, not forked


def test_a_changed_constant_is_a_different_function(user):
    # the comparison above can fail: the same code against another gamma differs
    t = trace(user.smooth_bound, 1)
    hand = threshold_bound(sp.Integer(10), sp.Integer(2), sp.Rational(1, 10), "exponential")
    with pytest.raises(AssertionError):
        assert_same_function_1d(t.piecewise(), hand)


def test_float_literal_is_read_as_its_exact_binary_value(user):
    t = trace(user.tenth, 1)
    assert t.piecewise() == sp.Rational(3602879701896397, 36028797018963968) * X
    assert sp.Rational(3602879701896397, 36028797018963968) != sp.Rational(1, 10)


def test_float_constants_are_exact_in_arithmetic(user):
    # module floats, literals and keyword defaults are exact while traced: 0.1 * k (k = 3) is three
    # times the binary 0.1 (not the float 0.30000000000000004), 1 / TAU is 1/1600.  (0.1 * 3 written
    # out is folded by Python's compiler into the float 0.30000000000000004: docs/traceable-code.md)
    t = trace(user.constants, 1)
    tenth = sp.Rational(*(0.1).as_integer_ratio())
    assert t.piecewise() == X / 1600 + 3 * tenth + sp.Rational(1, 1600)
    assert 3 * tenth != sp.Rational(*(0.1 * 3).as_integer_ratio())


def test_math_numpy_mpmath_and_float_map_to_exact_functions(user):
    t = trace(user.libraries, 1)
    assert isinstance(t, Traced)
    want = sp.exp(-X) + sp.sqrt(X**2 + 1) + sp.log(1 + X**2) + sp.Max(X, 0)
    f1, f2 = sp.lambdify(X, t.piecewise(), "mpmath"), sp.lambdify(X, want, "mpmath")
    with mpmath.workdps(40):
        for v in (-3, -0.5, 0, 0.25, 7):
            assert abs(f1(mpmath.mpf(v)) - f2(mpmath.mpf(v))) < mpmath.mpf(10) ** -35


def test_mpmath_constants_are_exact(user):
    # mpf('0.1') is the decimal 1/10 and mpf(1)/3 is 1/3: mpmath code is traced at infinite precision
    t = trace(user.mp_style, 1)
    assert t.piecewise() == X / 10 + sp.Rational(1, 3)


def test_scalar_input_and_exact_args(user):
    t = trace(user.scalar, 1, scalar=True, args={"scale": sp.Rational(1, 3)})
    assert sp.simplify(t.piecewise() - sp.Abs(X) / 3) == 0


# -- paths: every branch explored, infeasible ones pruned, the conditions a partition -------------

def test_three_sequential_ifs_give_eight_paths_pruned_to_the_feasible_six(user):
    t = trace(user.three_ifs, 2)
    x1, x2 = input_symbols(2)
    assert isinstance(t, Traced)
    # (x1 > 0, x2 > 0, x1 + x2 <= 0) and (x1 <= 0, x2 <= 0, x1 + x2 > 0) are empty: z3 proves it
    assert len(t.pieces) == 6 and t.pruned == 2
    assert sorted(v for _, v in t.pieces) == [0, 1, 2, 5, 6, 7]
    conds = [c for c, _ in t.pieces]
    # the path conditions are pairwise disjoint and together cover R^2 (every side of every branch
    # was explored or proved empty), proved by z3 through the kernel's door
    for i in range(len(conds)):
        for j in range(i + 1, len(conds)):
            assert _unsat(sp.And(conds[i], conds[j]))
    assert _unsat(sp.Not(sp.Or(*conds)))
    # and each piece is the function there; the first-match Piecewise agrees with the program
    pw = t.piecewise()
    rng = random.Random(1)
    for _ in range(200):
        p = (rng.choice([0, 1, -1, 0.5, -0.5]) * rng.uniform(0, 3), rng.uniform(-3, 3))
        subs = {x1: sp.Rational(p[0]), x2: sp.Rational(p[1])}
        assert sum(bool(c.subs(subs)) for c in conds) == 1
        assert pw.subs(subs) == user.three_ifs(list(p))


def _unsat(formula) -> bool:
    tr = zb.Translator("_test")
    q = tr.query(tr(formula))
    return zb.solve(q, 2000).status == zb.UNSAT


def test_equal_values_in_a_row_are_one_piece_without_a_normal_form(user):
    # sympy merges equal neighbours itself, but multiplies the disjunction out (exponentially)
    t = trace(user.plateau, 2)
    pw = t.piecewise()
    assert len(pw.args) == 3 and sp.count_ops(pw.args[0][1]) < 20, pw
    x1, x2 = input_symbols(2)
    rng = random.Random(2)
    for _ in range(300):
        p = [rng.uniform(0, 3), rng.uniform(0, 3)]
        assert float(pw.subs({x1: sp.Rational(p[0]), x2: sp.Rational(p[1])})) == user.plateau(p)


def test_min_max_become_min_max_not_paths(user):
    t = trace(user.clipped, 1)
    assert len(t.pieces) == 1 and t.piecewise().has(sp.Min, sp.Max)


def test_loader_pieces_end_with_the_default_piece(user):
    pieces, t = traced_pieces(user.threshold, 1)
    assert isinstance(t, Traced) and all(isinstance(p, Piece) for p in pieces)
    assert pieces[-1].where is sp.true and len(pieces) == 3
    none, stop = traced_pieces(user.gamma_fn, 1)
    assert none is None and isinstance(stop, TraceStop)


# -- where tracing stops --------------------------------------------------------------------------

@pytest.mark.parametrize("fn,marker,words", [
    ("kde_over_data", "loop", "loop over data"),
    ("cube_root", "brentq", "brentq"),
    ("gamma_fn", "gamma", "unsupported function math.gamma"),
    ("halvings", "while", "trip count depends on the input"),
    ("float_array", "array", "converted to a float (by compiled code"),
    ("raises_on_a_path", "raise", "ValueError"),
    ("lookup", "hash", "dict key or set member"),
])
def test_trace_stop_names_the_construct_and_the_users_line(user, fn, marker, words):
    stop = trace(getattr(user, fn), 1)
    assert isinstance(stop, TraceStop), stop
    assert words in stop.construct
    assert stop.where.endswith(line_of(user, marker)), (stop.where, line_of(user, marker))
    assert stop.source.endswith(f"usermod.py:{fn}")


def test_a_program_that_changes_between_runs_stops(user):
    user.CALLS.clear()
    stop = trace(user.stateful, 1)
    assert isinstance(stop, TraceStop) and "does not branch the same way" in stop.construct


def test_the_users_module_is_restored_after_tracing(user):
    before = dict(user.__dict__)
    defaults = user.smooth_bound.__defaults__
    code = user.smooth_bound.__code__
    trace(user.smooth_bound, 1)
    trace(user.cube_root, 1)
    assert user.__dict__.keys() == before.keys()
    assert all(user.__dict__[k] is v for k, v in before.items())
    assert user.smooth_bound.__defaults__ is defaults and user.smooth_bound.__code__ is code
    assert user.smooth_bound([12.5]) == max(1 / 3.5, math.exp(-0.1 * 1.5) / 2)   # real floats again
    assert not any(isinstance(v, Sym) for v in user.__dict__.values())
    # what the traced code stored in its module (a cache of traced constants) is gone
    assert isinstance(trace(user.cached_grid, 1), Traced) and user._GRID is None
    assert user.cached_grid([2.0]) == 1.0 and user._GRID == [0.0, 0.5, 1.0]


# -- end to end: gpaudit check on kind python -----------------------------------------------------

MODULE = '''\
import math


def threshold(x, T=0.0, tau=1.0):
    return min(max((x[0] - T) / tau + 0.5, 0.0), 1.0)


def threshold_no_cap(x, T=0.0, tau=1.0):
    return max((x[0] - T) / tau + 0.5, 0.0)


def bound(x, T=0.0, tau=1.0, gamma=0.125):
    rho = abs(x[0] - T) - tau / 2
    if rho <= 0:
        return 1 / tau
    return max(1 / (rho + tau), math.exp(-gamma * rho) / tau)


def bound_too_small(x, T=0.0, tau=1.0, gamma=0.125):
    rho = abs(x[0] - T) - tau / 2
    if rho <= 0:
        return 0.5 / tau
    return max(1 / (rho + tau), math.exp(-gamma * rho) / tau)
'''

CONFIG = '''\
gpaudit: 1
name: {name}
params: {{gamma: 0.125, nu: 3, eps: 3*nu*gamma, eta: (2/3)*eps/((nu+1)/(2*sqrt(nu)))}}
input: {{dim: 1}}
query: {{kind: python, callable: "thr:{f}"}}
bound: {{kind: python, callable: "thr:{B}", growth: exponential, gamma: gamma}}
noise: {{family: student_t, nu: nu, eta: eta}}
claim: {{epsilon: eps}}
'''


def _check(tmp_path, capsys, name, f, B):
    (tmp_path / "thr.py").write_text(MODULE)
    cfg = tmp_path / f"{name}.yaml"
    cfg.write_text(CONFIG.format(name=name, f=f, B=B))
    out = tmp_path / f"{name}.json"
    code = main(["check", str(cfg), "--effort", "quick", "--json", str(out)])
    return code, json.loads(out.read_text()), capsys.readouterr().out


def test_traced_threshold_configuration_is_certified(tmp_path, capsys):
    code, rep, text = _check(tmp_path, capsys, "traced", "threshold", "bound")
    assert code == 0 and rep["verdict"] == "certified"
    assert rep["info"]["query_source"] == "traced" and rep["info"]["bound_source"] == "traced"
    assert rep["info"]["traced"]["bound"]["from"].endswith("thr.py:bound")
    assert "B traced from" in text and "thr.py:bound" in text and "Max(" in text


@pytest.mark.parametrize("name,f,B", [("too-small", "threshold", "bound_too_small"),
                                      ("missing-branch", "threshold_no_cap", "bound")])
def test_broken_traced_configurations_are_refuted(tmp_path, capsys, name, f, B):
    code, rep, _ = _check(tmp_path, capsys, name, f, B)
    assert code == 1 and rep["verdict"] == "refuted"
    w = rep["witness"]
    assert mpmath.mpf(w["log_ratio"]) > mpmath.mpf(w["epsilon_times_dist"])


def test_build_query_and_bound_trace_with_exact_args(tmp_path):
    # the hook of kind python: args (exact numbers from params) reach the traced code
    from gpaudit.model.bounds import build_bound
    from gpaudit.model.queries import build_query
    from gpaudit.spec.types import BoundSpec, QuerySpec
    (tmp_path / "thr.py").write_text(MODULE)
    args = {"T": sp.Integer(3), "tau": sp.Rational(1, 3)}
    q = build_query(QuerySpec("python", {"callable": "thr:threshold", "args": args}), 1, str(tmp_path))
    assert q.kind == "python" and q.note.startswith("traced from") and not q.numeric
    assert sp.simplify(q.expr - sp.Min(sp.Max(3 * (X - 3) + sp.Rational(1, 2), 0), 1)) == 0
    bs = BoundSpec("python", "exponential", sp.Rational(1, 8), sp.oo,
                   {"callable": "thr:bound", "args": dict(args, gamma=sp.Rational(1, 8))})
    b = build_bound(bs, q, 1, str(tmp_path))
    assert b.source.startswith("traced from") and b.source.endswith("thr.py:bound")
    want = threshold_bound(sp.Integer(3), sp.Rational(1, 3), sp.Rational(1, 8), "exponential")
    assert_same_function_1d(b.expr, want)
