"""Regressions for the second review's classes: piecewise functions whose pieces do not cover the
input domain, pairs just outside Lambda, delta compared at double precision, non-real constants, and
a witness's distance in the configured metric.  Each configuration's truth is derived in its comment,
independently of gpaudit; each test asserts the verdict gpaudit must never give, and the one it gives."""

from functools import partial

import mpmath
import pytest
import sympy as sp

from gpaudit import api
from gpaudit.audit.run import dist_text, exceeds_delta
from gpaudit.errors import ConfigError
from gpaudit.model.mechanism import build_mechanism
from gpaudit.spec.load import load_spec

from test_soundness_regressions import ids, write

check = partial(api.check, full_evidence=True)


def test_an_uncovered_band_between_two_pieces_is_refuted(tmp_path):
    # f is 0 below the hyperbola x1 x2 = 1e8 and 1 above x1 x2 = 1e8 + 1; between them no piece owns
    # x.  Pairs straddling the band, e.g. (1e4, 9999.9999) and (1e4, 1e4 + 2e-4), are 3e-4 apart and f
    # differs by 1 there: with Laplace noise of scale 1 the loss rate is 1/3e-4 = 3333 > eps = 1.
    p = write(tmp_path, "band", """\
        gpaudit: 1
        name: band
        input: {dim: 2}
        query:
          kind: piecewise
          pieces:
            - where: x1*x2 < 100000000
              value: 0
            - where: x1*x2 > 100000001
              value: 1
        bound: {kind: constant, value: 1, growth: exponential, gamma: 0}
        noise: {family: laplace, eta: 1}
        claim: {epsilon: 1}
        """)
    r = check(p, effort="quick")
    assert ids(r)["proof.defined"] == "refuted"      # z3 finds a point of the band, mpmath shows f has no value
    assert r.verdict == "refuted"                     # and the band seeds the audit, which straddles it
    assert r.epsilon_lower > 100


def test_a_bound_given_on_half_the_line_is_never_certified(tmp_path):
    # B has a value only for x < 0: the mechanism is not defined for x >= 0.
    p = write(tmp_path, "half", """\
        gpaudit: 1
        name: half
        input: {dim: 1}
        query: {kind: piecewise, pieces: [{value: x}]}
        bound:
          kind: piecewise
          growth: exponential
          gamma: 0
          pieces:
            - where: x < 0
              value: 1
        noise: {family: laplace, eta: 1}
        claim: {epsilon: 1}
        """)
    r = check(p, effort="quick")
    assert r.verdict != "certified"
    assert ids(r)["proof.defined"] == "refuted"


def test_pieces_that_cover_with_a_last_condition_are_still_certified(tmp_path):
    # x < 0 and x >= 0 cover the line without a catch-all piece; f = |x| is 1-Lipschitz: eps = 1 holds.
    p = write(tmp_path, "covered", """\
        gpaudit: 1
        name: covered
        input: {dim: 1}
        query:
          kind: piecewise
          pieces:
            - where: x < 0
              value: -x
            - where: x >= 0
              value: x
        bound: {kind: constant, value: 1, growth: exponential, gamma: 0}
        noise: {family: laplace, eta: 1}
        claim: {epsilon: 1}
        """)
    r = check(p, effort="quick")
    assert r.verdict == "certified"


def test_a_condition_undefined_where_it_is_evaluated_is_not_covered(tmp_path):
    # The first condition, log(x) < 0, has no value for x <= 0, and x >= 1 does not hold there: no
    # piece owns x <= 0.
    p = write(tmp_path, "logcond", """\
        gpaudit: 1
        name: logcond
        input: {dim: 1}
        query:
          kind: piecewise
          pieces:
            - where: log(x) < 0
              value: x
            - where: x >= 1
              value: x
        bound: {kind: constant, value: 1, growth: exponential, gamma: 0}
        noise: {family: laplace, eta: 1}
        claim: {epsilon: 1}
        """)
    r = check(p, effort="quick")
    assert r.verdict != "certified"
    assert ids(r)["proof.defined"] != "certified"


HS_TIE = """\
    gpaudit: 1
    name: hs-tie
    input: {dim: 1}
    query: {kind: piecewise, pieces: [{value: x}]}
    bound: {kind: constant, value: 1, growth: exponential, gamma: 0, Lambda: 1}
    noise: {family: laplace, eta: 1}
    claim:
      epsilon: 1/2
      delta: DELTA
    """


@pytest.mark.parametrize("delta", ["1 - exp(-1/4)", "1 - exp(-1/4) + 1/10^18"])
def test_a_tight_delta_is_never_refuted(tmp_path, delta):
    # f = x, B = 1, Laplace(1): at distance d the largest divergence at level eps d is
    # 1 - e^(-d (1 - eps)/2), increasing in d; over d <= Lambda = 1 with eps = 1/2 it is exactly
    # 1 - e^(-1/4).  So delta = 1 - e^(-1/4) holds with equality, and anything above it holds.
    p = write(tmp_path, "tie", HS_TIE.replace("DELTA", delta))
    r = api.check(p, effort="quick")
    assert r.verdict != "refuted"
    assert r.witness is None


def test_a_delta_below_the_tie_is_refuted_with_a_pair_inside_lambda(tmp_path):
    # The same mechanism with delta 1/100 below the supremum: pairs at distance <= 1 exceed it.
    p = write(tmp_path, "below", HS_TIE.replace("DELTA", "1 - exp(-1/4) - 1/100"))
    r = api.check(p, effort="quick")
    assert r.verdict == "refuted"
    assert sp.Rational(r.witness["dist"]) <= 1        # exact, and inside the claim's Lambda


def test_pairs_outside_lambda_by_one_ulp_are_not_in_the_claim(tmp_path):
    p = write(tmp_path, "tie", HS_TIE.replace("DELTA", "1 - exp(-1/4)"))
    mech = build_mechanism(load_spec(p))
    x, xp = -0.00197572458185740242, 0.99802427541814264788    # float64 distance rounds to 1
    assert float(xp) - float(x) == 1.0
    assert sp.Rational(xp) - sp.Rational(x) > 1
    assert not mech.metric.within((x,), (xp,), mech.Lambda)
    assert mech.metric.within((0.0,), (1.0,), mech.Lambda)


def test_delta_is_compared_exactly_with_a_margin():
    delta = 1 - sp.exp(sp.Rational(-1, 4))
    with mpmath.workdps(100):
        at = mpmath.mpf(1) - mpmath.exp(mpmath.mpf(-1) / 4)
        assert not exceeds_delta(at, delta)                       # a tie never refutes
        assert not exceeds_delta(at + mpmath.mpf(10)**-30, delta)  # nor noise within the margin
        assert exceeds_delta(at + mpmath.mpf(10)**-20, delta)      # a real excess does
    # 53 bits would have rounded delta below its value, and a value at the tie would have exceeded it
    assert float(delta) < delta


@pytest.mark.parametrize("metric, expected", [("l1", "1.5"), ("linf", "1"), ("l2", None)])
def test_a_witness_distance_is_in_the_configured_metric(tmp_path, metric, expected):
    p = write(tmp_path, "m", f"""\
        gpaudit: 1
        name: m
        input: {{dim: 2, metric: {metric}}}
        query: {{kind: piecewise, pieces: [{{value: x1 + x2}}]}}
        bound: {{kind: constant, value: 2, growth: exponential, gamma: 0}}
        noise: {{family: laplace, eta: 1}}
        claim: {{epsilon: 1}}
        """)
    mech = build_mechanism(load_spec(p))
    text = dist_text(mech, (0.0, 0.0), (1.0, 0.5))
    if expected is not None:
        assert text == expected
    else:                    # sqrt(5)/2 is irrational: a decimal rounded up
        assert sp.sqrt(sp.Rational(5, 4)) <= sp.Rational(text) < sp.sqrt(sp.Rational(5, 4)) + sp.Rational(1, 10**15)


@pytest.mark.parametrize("where, value", [
    ("query", "x + (-1)^(1/3)"), ("query", "sqrt(-2) * x"), ("bound", "1 + log(-1)"), ("query", "x * (pi - 4)^(1/2)")])
def test_a_non_real_constant_is_bad_input(tmp_path, where, value):
    q = f"{{kind: piecewise, pieces: [{{value: '{value}'}}]}}" if where == "query" else \
        "{kind: piecewise, pieces: [{value: x}]}"
    b = (f"{{kind: constant, value: '{value}', growth: exponential, gamma: 0}}" if where == "bound" else
         "{kind: constant, value: 1, growth: exponential, gamma: 0}")
    p = write(tmp_path, "cplx", f"""\
        gpaudit: 1
        name: cplx
        input: {{dim: 1}}
        query: {q}
        bound: {b}
        noise: {{family: laplace, eta: 1}}
        claim: {{epsilon: 1}}
        """)
    with pytest.raises(ConfigError) as err:
        load_spec(p)
    assert "not a real number" in str(err.value)


def test_a_hockey_stick_witness_beside_a_certified_delta_route_is_inconsistent(tmp_path, monkeypatch):
    # Planted disagreement: the delta route is made to certify a claim the audit refutes.  The rule
    # table must then distrust both (unknown), not report either.
    import gpaudit.check as chk
    from gpaudit.verdict import CERTIFIED, Check

    def planted(mech, outcome, proof=None):
        return sp.Rational(1, 2), [Check("certificate.delta", CERTIFIED, "planted", "planted")], True
    monkeypatch.setattr(chk, "certify", planted)
    p = write(tmp_path, "below", HS_TIE.replace("DELTA", "1 - exp(-1/4) - 1/100"))
    r = check(p, effort="quick")
    assert ids(r).get("consistency") == "refuted"
    assert r.verdict == "unknown"
