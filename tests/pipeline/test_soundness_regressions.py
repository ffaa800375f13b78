"""Regressions for the classes of wrong verdicts a new user found: each configuration's truth was
established independently (it is re-derived in the comments), and each test asserts the verdict
gpaudit must never give, and the one it should give."""

import textwrap
from functools import partial

import pytest
import sympy as sp

from gpaudit import api
from gpaudit.kernel.numbers import exact

# these tests read the proof stage's checks of refuted configurations too: run every stage
check = partial(api.check, full_evidence=True)

QUICK = "quick"


def write(tmp_path, name, text):
    p = tmp_path / f"{name}.yaml"
    p.write_text(textwrap.dedent(text))
    return p


def ids(result):
    return {c.id: c.status for c in result.checks}


def test_step_inside_one_piece_is_refuted(tmp_path):
    # f = (1 + |x - 7000| / (x - 7000)) / 2 is 0 left of 7000 and 1 right of it: a unit jump written
    # without a Piecewise.  Pairs straddling 7000 at distance h have loss rate ~ 1/h: eps = 1 is false.
    p = write(tmp_path, "step", """\
        gpaudit: 1
        name: jump-in-a-formula
        input: {dim: 1}
        query:
          kind: piecewise
          pieces:
            - value: (1 + abs(x - 7000)/(x - 7000))/2
        bound: {kind: constant, growth: exponential, gamma: 0, value: 1}
        noise: {family: laplace, eta: 1}
        claim: {epsilon: 1}
        """)
    r = check(p, effort=QUICK)
    assert ids(r)["proof.defined"] == "refuted"          # 0/0 at 7000, found by z3, shown in mpmath
    assert r.verdict == "refuted"
    assert r.witness is not None and abs(float(r.witness["x"][0]) - 7000) < 1


def test_bound_jump_inside_one_piece_is_refuted_without_a_crash(tmp_path):
    # B = 3/4 - |x - 2|/(4 (x - 2)): 1 left of 2, 1/2 right of it; ln B jumps by ln 2.
    p = write(tmp_path, "jump", """\
        gpaudit: 1
        name: hidden-bound-jump
        input: {dim: 1}
        query: {kind: soft_threshold, T: 0, tau: 1}
        bound:
          growth: exponential
          gamma: 1/9
          kind: piecewise
          pieces:
            - value: 3/4 - abs(x - 2)/(4*(x - 2))
        noise: {family: student_t, nu: 3, eta: 2/3}
        claim: {epsilon: 1}
        """)
    r = check(p, effort=QUICK)
    assert "internal" not in ids(r)
    assert ids(r)["proof.defined"] == "refuted"
    assert r.verdict == "refuted"


def test_rate_above_the_claim_by_2_to_the_minus_100_is_never_certified(tmp_path):
    # Laplace, slope 1, B = 1, eta = 1 + 2^-100: the loss rate is exactly eta at far outputs.
    p = write(tmp_path, "trunc", """\
        gpaudit: 1
        name: hair-above
        input: {dim: 1}
        query: {kind: soft_threshold, T: 0, tau: 1}
        bound: {kind: constant, growth: exponential, gamma: 0, value: 1}
        noise: {family: laplace, eta: 1 + 1/2^100}
        claim: {epsilon: 1}
        """)
    r = check(p, effort=QUICK)
    assert r.verdict != "certified"
    assert r.epsilon_upper is not None and exact(r.epsilon_upper) >= 1 + sp.Rational(1, 2**100)


def test_polyplace_a_hair_below_the_tie_is_never_certified(tmp_path):
    # eta = gamma (1 - 1e-20), alpha = 5: the rate tends to alpha * gamma = 1 > 1 - 1e-26.
    p = write(tmp_path, "pp", """\
        gpaudit: 1
        name: polyplace-hair
        params: {gamma: 1/5}
        input: {dim: 1}
        query: {kind: soft_threshold, T: 0, tau: 1}
        bound: {kind: smooth_sensitivity, growth: exponential, gamma: gamma}
        noise: {family: polyplace, alpha: 5, eta: gamma*(1 - 10^-20)}
        claim: {epsilon: 1 - 10^-26}
        """)
    r = check(p, effort=QUICK)
    assert r.verdict != "certified"
    assert r.epsilon_upper is None or exact(r.epsilon_upper) > 1 - sp.Rational(1, 10**26)


def test_undefined_bound_is_named_and_never_certified(tmp_path):
    # B = 2 + x^(3/2) is not real for x < 0 (half of the band).  The claim is generous (eps = 50),
    # so only the undefinedness stands between it and a certificate.
    p = write(tmp_path, "partial", """\
        gpaudit: 1
        name: partial-bound
        input: {dim: 1}
        query: {kind: soft_threshold, T: 0, tau: 1}
        bound:
          kind: piecewise
          growth: exponential
          gamma: 1
          pieces:
            - value: 2 + x^(3/2)
        noise: {family: laplace, eta: 1}
        claim: {epsilon: 50}
        """)
    r = check(p, effort=QUICK)
    assert r.verdict != "certified"
    assert ids(r)["proof.defined"] == "refuted"
    assert "internal" not in ids(r)
    from gpaudit.cli import main
    assert main(["prove", str(p), "--out", str(tmp_path / "proofs")]) != 0


def test_partial_guard_does_not_hide_a_later_piece(tmp_path):
    # The first piece's guard uses log(x); the second piece (x <= 0) carries the band of the
    # threshold at T = -5 with B = 1/2 < slope 1: condition 1 fails there, and eps = 1 is false
    # (Laplace with B/eta = 1/2 at slope 1 gives loss rate 2).
    p = write(tmp_path, "guard", """\
        gpaudit: 1
        name: guarded-log
        input: {dim: 1}
        query: {kind: soft_threshold, T: -5, tau: 1}
        bound:
          kind: piecewise
          growth: exponential
          gamma: 0
          pieces:
            - where: x > 0 and log(x) < 40
              value: 1
            - value: 1/2
        noise: {family: laplace, eta: 1}
        claim: {epsilon: 1}
        """)
    r = check(p, effort=QUICK)
    assert ids(r)["proof.cover"] == "refuted"
    assert r.verdict == "refuted"


@pytest.mark.parametrize("claim, verdict", [("2/3", "unknown"), ("814/1000", "certified")])
def test_numerical_smooth_sensitivity_never_refutes(tmp_path, claim, verdict):
    # The one-way threshold with B* of Definition 9 at Lambda = 10 (numerical grid in the audit).
    # Inside the band B* = 1/tau, so the true rate is exactly 2/3; Lemma 3.1's route certifies
    # 0.81384 < 0.814.  A float64 grid model of B* must not refute either claim.
    p = write(tmp_path, "numB", f"""\
        gpaudit: 1
        name: numeric-bstar
        params: {{eps: 1, nu: 3, gamma: eps/(3*nu), eta: (2/3)*eps/((nu+1)/(2*sqrt(nu)))}}
        input: {{dim: 1}}
        query: {{kind: soft_threshold, T: 0, tau: 1}}
        bound: {{growth: exponential, gamma: gamma, kind: smooth_sensitivity, Lambda: 10}}
        noise: {{family: student_t, nu: nu, eta: eta}}
        claim: {{epsilon: {claim}}}
        """)
    r = check(p, effort=QUICK)
    assert r.verdict == verdict
    assert r.witness is None and r.epsilon_lower is None
    assert r.info["decision"]["rule"] in ("certified", "approximate", "otherwise")


def test_float64_callable_is_not_refuted_on_rounding_noise(tmp_path):
    # f = clip(x + 1/2, 0, 1) computed with math.fsum (a float64 program), B = 1, Laplace
    # eta = eps = 1: 1-Lipschitz over the reals, so the claim holds; float rounding of close pairs
    # must not refute it.  (An array of float64 keeps it from being traced into an exact formula.)
    (tmp_path / "fns.py").write_text(textwrap.dedent("""\
        import math
        import numpy as np
        def f(x):
            return min(max(math.fsum([float(np.asarray(x, dtype=float)[0]), 0.5]), 0.0), 1.0)
        def B(x):
            return 1.0
        """))
    p = write(tmp_path, "py", """\
        gpaudit: 1
        name: float-callable
        input: {dim: 1}
        query: {kind: python, callable: "fns:f"}
        bound: {growth: exponential, gamma: 0, kind: python, callable: "fns:B"}
        noise: {family: laplace, eta: 1}
        claim: {epsilon: 1}
        """)
    r = check(p, effort=QUICK)
    assert r.verdict != "refuted"
