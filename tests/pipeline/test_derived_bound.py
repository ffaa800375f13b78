"""`bound.kind: derived` (gpaudit/model/derive.py): Laud, Pankova and Pettai's rules propose a bound,
the kernel proves it.

- the rules give the expected h and smoothness on small formulas (exact comparisons), and every
  derived h is numerically an upper bound on DS[f] with the claimed smoothness;
- Table 2's rows, as 1-D configurations with a derived bound, are certified by the proof stage, and a
  deliberately wrong row (monkeypatched into the rule table) is not: the derivation is untrusted;
- bad input exits 2 with one line naming the file and the field;
- the derived count3 example proposes exactly the hand-written bound and certifies the same epsilon.
"""

from __future__ import annotations

import json
import random
import textwrap
from pathlib import Path

import mpmath as mp
import pytest
import sympy as sp

from gpaudit.cli import main
from gpaudit.model import derive as D
from gpaudit.model.metric import Metric
from gpaudit.spec.expr import parse_expr
from gpaudit.spec.load import load_spec
from gpaudit.spec.types import MetricSpec, input_symbols

ROOT = Path(__file__).resolve().parents[2]
R = sp.Rational


def derive(src, dim=1, metric=MetricSpec(), gamma=R(1, 10)):
    syms = input_symbols(dim)
    names = {str(s): s for s in syms}
    if dim == 1:
        names["x1"] = syms[0]
    return D.derive_bound(parse_expr(src, names), syms, metric, sp.sympify(gamma)), syms


def same(a, b) -> bool:
    return sp.simplify(sp.sympify(a) - sp.sympify(b)) == 0


# ---------------------------------------------------------------------------------------------
# The rules, formula by formula (exact)


def test_coordinates_and_affine_forms_follow_the_metric_weights():
    w = (R(2), R(4))
    assert derive("x1", 2, MetricSpec("l1", w))[0].h == R(1, 2)          # 1/w_1
    assert derive("3*x2 + 7", 2, MetricSpec("l1", w))[0].h == R(3, 4)    # constants add nothing
    assert derive("x1 + x2", 2, MetricSpec("l1", w))[0].h == R(1, 2)     # max_i |a_i|/w_i
    assert derive("x1 + x2", 2, MetricSpec("linf", w))[0].h == R(3, 4)   # sum_i |a_i|/w_i
    assert same(derive("x1 + x2", 2, MetricSpec("l2", w))[0].h, sp.sqrt(R(1, 4) + R(1, 16)))
    der, _ = derive("x1 - 2*x2", 2, MetricSpec("l1"))
    assert der.h == 2 and der.beta == 0


def test_sigmoid_rows_of_table_2():
    x = input_symbols(1)[0]
    a = R(1, 10)
    # beta >= alpha: h = alpha e^{alpha x}/(e^{alpha x} + 1)^2, alpha-smooth
    der, _ = derive("exp(x/10)/(exp(x/10) + 1)", gamma=R(1, 5))
    assert same(der.h, a * sp.exp(a * x) / (sp.exp(a * x) + 1)**2) and der.beta == a
    # beta < alpha: h = alpha e^{beta x}/(e^{beta x} + 1)^2, beta-smooth
    der, _ = derive("exp(2*x)/(exp(2*x) + 1)", gamma=a)
    assert same(der.h, 2 * sp.exp(a * x) / (sp.exp(a * x) + 1)**2) and der.beta == a
    assert "beta < alpha" in der.text
    # the form 1/(1 + exp(-a x)) is the same sigmoid (written in its own orientation)
    der, _ = derive("1/(1 + exp(-x/10))", gamma=a)
    assert same(der.h, a * sp.exp(a * x) / (sp.exp(a * x) + 1)**2) and der.beta == a
    assert der.h.has(sp.exp(-a * x))


def test_tauoid_and_exp_rows_of_table_2():
    x = input_symbols(1)[0]
    a = R(1, 10)
    der, _ = derive("2*exp(x/10)/(1 + exp(x/5))", gamma=a)
    assert same(der.h, 2 * a * sp.exp(a * x) / (1 + sp.exp(2 * a * x))) and der.beta == a
    der, _ = derive("3*exp(-x/20)", gamma=a)              # |r| <= beta: h = 3 |r| e^{rx}
    assert same(der.h, 3 * sp.exp(-x / 20) / 20) and der.beta == R(1, 20)
    der, _ = derive("exp(x)", gamma=a)                    # |r| > beta: the rule still answers,
    assert same(der.h, sp.exp(x)) and der.beta == 1       # with the smoothness it needs
    assert not der.within_gamma and "expected to fail" in der.text


def test_sums_products_min_max_and_powers():
    x1, x2 = input_symbols(2)
    s = lambda u: sp.exp(u) / (sp.exp(u) + 1)               # noqa: E731
    ds = lambda u: sp.exp(u) / (sp.exp(u) + 1)**2            # noqa: E731
    a = R(1, 10)
    # +_D with coefficients on shared variables: sum |c_i| h_i, max beta_i
    der, _ = derive("2*exp(x1/10)/(exp(x1/10) + 1) - 3*exp(x1/20)/(exp(x1/20) + 1)", 2, MetricSpec("l1"))
    assert same(der.h, 2 * a * ds(a * x1) + 3 * ds(x1 / 20) / 20) and der.beta == a
    # +_D on disjoint variables under l1: the dual combination is a max
    der, _ = derive("exp(x1/10)/(exp(x1/10) + 1) + exp(x2/10)/(exp(x2/10) + 1)", 2, MetricSpec("l1"))
    assert der.h == sp.Max(a * ds(a * x1), a * ds(a * x2)) and der.beta == a
    # *_D on disjoint variables under l1 (two-filter COUNT): max(g1 h2, g2 h1), g = sigma
    der, _ = derive("exp(x1/10)/(exp(x1/10) + 1) * exp(x2/10)/(exp(x2/10) + 1)", 2, MetricSpec("l1"))
    assert der.h == sp.Max(s(a * x1) * a * ds(a * x2), s(a * x2) * a * ds(a * x1)) and der.beta == a
    # ... under l2 the target is halved for g: g = 1 (0-smooth) and the full target for h
    der, _ = derive("exp(x1/10)/(exp(x1/10) + 1) * exp(x2/10)/(exp(x2/10) + 1)", 2, MetricSpec("l2"))
    assert same(der.h, sp.sqrt((a * ds(a * x1))**2 + (a * ds(a * x2))**2)) and der.beta == a
    # min/max: max_i h_i
    der, _ = derive("max(x1, 2*x2, 5)", 2, MetricSpec("l1"))
    assert der.h == 2 and der.beta == 0
    # powers: n (t^2 + c^2)^((n-1)/2), c = (n-1)/(2 gamma)
    x = input_symbols(1)[0]
    der, _ = derive("x^3", gamma=a)
    assert same(der.h, 3 * (x**2 + 100)) and der.beta == a
    # the Euclidean norm of shifted coordinates: the norm-equivalence constant
    assert derive("norm(x1 - 1, x2)", 2, MetricSpec("linf", (R(2), R(3))))[0].h == sp.sqrt(R(13)) / 6


FORMULAS = [  # (formula, dim, metric, gamma): numerically checked below
    ("exp(x/10)/(exp(x/10) + 1)", 1, MetricSpec(), R(1, 10)),
    ("exp(x)/(exp(x) + 1)", 1, MetricSpec(), R(1, 10)),
    ("1/(1 + exp(-x/2))", 1, MetricSpec(), R(1, 10)),
    ("2*exp(x)/(1 + exp(2*x))", 1, MetricSpec(), R(1, 10)),
    ("3*exp(-x/20)", 1, MetricSpec(), R(1, 10)),
    ("x^3 - 2*x", 1, MetricSpec(), R(1, 10)),
    ("x*exp(x/10)/(exp(x/10) + 1)", 1, MetricSpec(), R(1, 10)),
    ("x2*exp(x1/4)/(exp(x1/4) + 1) + x4*exp(x3/4)/(exp(x3/4) + 1)", 4, MetricSpec("l1"), R(1, 4)),
    ("x2*exp(x1/4)/(exp(x1/4) + 1) + x4*exp(x3/4)/(exp(x3/4) + 1)", 4, MetricSpec("linf", (1, 2, 3, 4)), R(1, 4)),
    ("exp(x1/3)/(exp(x1/3) + 1) * 2*exp(x2/5)/(1 + exp(2*x2/5))", 2, MetricSpec("l2", (2, R(1, 2))), R(1, 5)),
    ("max(x1, x2^2) + abs(x1 - x2)", 2, MetricSpec("l1"), R(1, 3)),
    ("exp(exp(x)/(exp(x) + 1))", 1, MetricSpec(), R(1, 2)),
    ("norm(x1, x2 - 1)*exp(x1/10)/(exp(x1/10) + 1)", 2, MetricSpec("l2"), R(1, 10)),
]


@pytest.mark.parametrize("src,dim,metric,gamma", FORMULAS, ids=[f[0][:40] for f in FORMULAS])
def test_derived_bound_is_numerically_an_upper_bound_with_the_claimed_smoothness(src, dim, metric, gamma):
    """Not a proof (the kernel proves): a check that the rules themselves are right, at random points
    and random pairs: ||grad f||_* <= h and |ln h(x) - ln h(x')| <= beta dist(x, x')."""
    der, syms = derive(src, dim, metric, gamma)
    assert der.within_gamma, der.text
    f = parse_expr(src, {**{str(s): s for s in syms}, **({"x1": syms[0]} if dim == 1 else {})})
    grad = [sp.lambdify(syms, sp.diff(f, s), modules="mpmath") for s in syms]
    h = sp.lambdify(syms, der.h, modules="mpmath")
    M = Metric(metric.kind, tuple(sp.sympify(w) for w in metric.weights), dim)
    rng = random.Random(0)
    with mp.workdps(30):
        for _ in range(300):
            scale = rng.choice([1, 10, 60])
            x = [mp.mpf(rng.uniform(-scale, scale)) for _ in range(dim)]
            hx = h(*x)
            assert M.dual_mp([g(*x) for g in grad]) <= hx * (1 + mp.mpf(10)**-20), (x, der.text)
            xp = [v + mp.mpf(rng.uniform(-1, 1)) * rng.choice([1e-3, 0.5, 5]) for v in x]
            dist = M.dist_mp(x, xp)
            assert abs(mp.log(hx) - mp.log(h(*xp))) <= der.beta * dist + mp.mpf(10)**-20, (x, xp, der.text)


# ---------------------------------------------------------------------------------------------
# Table 2's rows through the kernel; wrong rows are not certified

CONFIG = """\
gpaudit: 1
name: {name}
input:
  dim: 1
query:
  kind: piecewise
  pieces:
    - value: {f}
bound:
  kind: derived
  growth: {growth}
  gamma: {gamma}
noise:
  family: gen_cauchy
  p: 4
  eta: {eta}
claim:
  epsilon: {eps}
"""


def write(tmp_path, f, gamma="1/10", name="row", growth="exponential", eta="1/10", eps="(4 + 1)*(1/10 + 1/10)"):
    path = tmp_path / f"{name}.yaml"
    path.write_text(CONFIG.format(name=name, f=f, gamma=gamma, growth=growth, eta=eta, eps=eps))
    return path


def prove(tmp_path, path, capsys=None) -> int:
    code = main(["prove", str(path), "--out", str(tmp_path / "proofs"), "-q"])
    if capsys is not None:
        capsys.readouterr()
    return code


def proof_checks(tmp_path, path) -> dict:
    """{check id: status} of the proof stage, through `gpaudit check --json` (quick audit)."""
    out = tmp_path / f"{path.stem}.json"
    main(["check", str(path), "--json", str(out), "--quiet", "--effort", "quick", "--full-evidence"])
    rep = json.loads(out.read_text())
    return {c["id"]: c["status"] for c in rep["checks"]}, rep


TABLE2_ROWS = [  # (id, f, gamma)
    ("sigmoid-beta-ge-alpha", "exp(x/10)/(exp(x/10) + 1)", "1/10"),
    ("sigmoid-beta-lt-alpha", "exp(x)/(exp(x) + 1)", "1/10"),
    ("tauoid", "2*exp(x/10)/(1 + exp(x/5))", "1/10"),
    ("exp-r-le-beta", "exp(x/20)", "1/10"),
]
MORE_ROWS = [
    ("sigmoid-negative-form", "1/(1 + exp(-x/2))", "1/10"),
    ("exp-negative-r", "3*exp(-x/10)", "1/10"),
    ("power-2", "x^2", "1/10"),
    ("power-3", "x^3", "1/10"),
    ("abs", "abs(x - 1)", "1/10"),
]


@pytest.mark.parametrize("row,f,gamma", TABLE2_ROWS, ids=[r[0] for r in TABLE2_ROWS])
def test_table2_row_is_certified_by_the_proof_stage(tmp_path, capsys, row, f, gamma):
    path = write(tmp_path, f, gamma, name=row)
    assert load_spec(path).bound.fields["derived_from"] == "laud-rules"
    assert prove(tmp_path, path, capsys) == 0


@pytest.mark.slow
@pytest.mark.parametrize("row,f,gamma", MORE_ROWS, ids=[r[0] for r in MORE_ROWS])
def test_more_rows_are_certified_by_the_proof_stage(tmp_path, capsys, row, f, gamma):
    assert prove(tmp_path, write(tmp_path, f, gamma, name=row), capsys) == 0


def test_table2_pw_row_literally(tmp_path, capsys, monkeypatch):
    """Table 2's x^r row as written (pw_beta^r, with max/min): the proof stage certifies it for x^2;
    for x^3 it leaves it unknown (the two branches touch tangentially), never certified falsely."""
    monkeypatch.setitem(D.ROWS, "power", D.Table2Power)
    path = write(tmp_path, "x^2", name="pw2")
    assert load_spec(path).bound.pieces[0].value.has(sp.Max)
    assert prove(tmp_path, path, capsys) == 0


class _SigmoidExactRowAlways(D.Sigmoid):
    """WRONG: always Table 2's beta >= alpha row (c = 1), while claiming the smoothness asked for."""

    @staticmethod
    def slope(t, s, **_):
        right = D.Sigmoid.slope(t, s)
        return D.Uni(sp.exp(t) / (sp.exp(t) + 1)**2, right.s, right.sup, right.row)


class _SigmoidDroppedFactor(D.Sigmoid):
    """WRONG: the slope bound a factor 4 too small."""

    @staticmethod
    def slope(t, s, **_):
        right = D.Sigmoid.slope(t, s)
        return D.Uni(right.expr / 4, right.s, right.sup, right.row)


class _ExpClaimsNoSmoothness(D.Exp):
    """WRONG: e^t claimed 0-smooth (the rules would then think any gamma is met)."""

    @staticmethod
    def slope(t, s, **_):
        return D.Uni(sp.exp(t), sp.Integer(0), None, "wrong")


WRONG = [  # (id, row name, wrong row, f, gamma, the proof check that must fail)
    ("sigmoid-ge-row-used-below-alpha", "sigmoid", _SigmoidExactRowAlways, "exp(x)/(exp(x) + 1)", "1/10",
     "proof.smooth"),
    ("sigmoid-dropped-factor", "sigmoid", _SigmoidDroppedFactor, "exp(x/10)/(exp(x/10) + 1)", "1/10",
     "proof.cover"),
    ("exp-smoothness-miscounted", "exp", _ExpClaimsNoSmoothness, "exp(x)", "1/10", "proof.smooth"),
]


@pytest.mark.parametrize("case,row,wrong,f,gamma,check", WRONG, ids=[w[0] for w in WRONG])
def test_a_wrong_rule_is_not_certified(tmp_path, capsys, monkeypatch, case, row, wrong, f, gamma, check):
    monkeypatch.setitem(D.ROWS, row, wrong)
    path = write(tmp_path, f, gamma, name=case)
    der = D.derive_bound(load_spec(path).query.pieces[0].value, input_symbols(1), MetricSpec(), R(1, 10))
    assert der.within_gamma  # the wrong derivation believes its own claim ...
    assert prove(tmp_path, path, capsys) != 0  # ... the kernel does not
    if case == "sigmoid-ge-row-used-below-alpha":
        checks, rep = proof_checks(tmp_path, path)
        assert checks[check] != "certified" and rep["verdict"] != "certified"


# ---------------------------------------------------------------------------------------------
# Bad input: exit 2, one line naming the file and the field

BAD = [  # (id, f, growth, field, message part)
    ("no-rule-log", "log(1 + x^2)", "exponential", "bound.kind", "no rule"),
    ("no-rule-sigmoid-like", "exp(x)/(exp(2*x) + 3)", "exponential", "bound.kind", "no rule for sigmoid-like"),
    ("unbounded-inner", "exp(-x^2)", "exponential", "bound.kind", "unbounded"),
    ("constant-query", "3", "exponential", "bound.kind", "constant"),
    ("linear-growth", "exp(x/10)/(exp(x/10) + 1)", "linear", "bound.growth", "exponential"),
]


def _one_line_exit_2(path, capsys, field, part):
    code = main(["check", str(path)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2
    assert len(err) == 1 and "Traceback" not in err[0], err
    assert str(path) in err[0] and field in err[0] and part in err[0], err[0]


@pytest.mark.parametrize("case,f,growth,field,part", BAD, ids=[b[0] for b in BAD])
def test_bad_derived_configuration_exits_2(tmp_path, capsys, case, f, growth, field, part):
    _one_line_exit_2(write(tmp_path, f, growth=growth, name=case), capsys, field, part)


def test_derived_needs_a_one_formula_piecewise_query(tmp_path, capsys):
    text = textwrap.dedent("""\
        gpaudit: 1
        name: not-piecewise
        input:
          dim: 1
        query:
          kind: soft_threshold
          T: 0
          tau: 1
        bound:
          kind: derived
          growth: exponential
          gamma: 1/10
        noise:
          family: student_t
          nu: 3
          eta: 1/2
        claim:
          epsilon: 1
        """)
    path = tmp_path / "not-piecewise.yaml"
    path.write_text(text)
    _one_line_exit_2(path, capsys, "bound.kind", "soft_threshold")
    two = text.replace("kind: soft_threshold\n  T: 0\n  tau: 1",
                       "kind: piecewise\n  pieces:\n    - {where: x < 0, value: 0}\n    - value: x")
    path.write_text(two)
    _one_line_exit_2(path, capsys, "bound.kind", "one formula")


def test_gamma_zero_with_an_unbounded_factor_names_bound_gamma(tmp_path, capsys):
    _one_line_exit_2(write(tmp_path, "x^2", gamma="0", name="gamma-zero"), capsys, "bound.gamma", "gamma > 0")


# ---------------------------------------------------------------------------------------------
# The examples


def test_derived_count3_proposes_the_hand_written_bound():
    derived = load_spec(ROOT / "examples" / "laud-thm3-count3-l1-derived.yaml")
    hand = load_spec(ROOT / "examples" / "laud-thm3-count3-l1.yaml")
    assert derived.bound.kind == "piecewise" and len(derived.bound.pieces) == 1
    assert sp.simplify(derived.bound.pieces[0].value - hand.bound.pieces[0].value) == 0
    assert (derived.bound.gamma, derived.bound.growth) == (hand.bound.gamma, hand.bound.growth)
    assert derived.bound.fields["derived_beta"] == hand.bound.gamma
    assert "Table 2 sigmoid, beta >= alpha" in derived.bound.fields["derivation"]


def test_broken_derived_example_keeps_the_claimed_gamma():
    spec = load_spec(ROOT / "examples" / "broken" / "laud-derived-exp-rate-above-gamma.yaml")
    assert spec.bound.gamma == R(1, 10) and spec.bound.fields["derived_beta"] == 1


def test_markdown_mechanism_rows_show_the_derivation():
    from gpaudit.model.mechanism import build_mechanism
    from gpaudit.report.markdown import mechanism_rows
    rows = dict(mechanism_rows(build_mechanism(load_spec(ROOT / "examples" / "laud-thm3-count3-l1-derived.yaml"))))
    assert rows["bound B"].startswith("derived")
    assert "1/100" in rows["  smoothness the rules claim"]
    assert "Laud, Pankova and Pettai" in rows["  derivation"]


@pytest.mark.slow
def test_derived_count3_certifies_the_same_epsilon_as_the_hand_written(tmp_path):
    out = tmp_path / "r.json"
    paths = [ROOT / "examples" / "laud-thm3-count3-l1-derived.yaml", ROOT / "examples" / "laud-thm3-count3-l1.yaml"]
    assert main(["check", *map(str, paths), "--json", str(out), "--quiet", "--effort", "quick"]) == 0
    derived, hand = json.loads(out.read_text())
    assert derived["verdict"] == hand["verdict"] == "certified"
    assert derived["epsilon_upper"] == hand["epsilon_upper"]
