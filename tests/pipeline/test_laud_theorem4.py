"""Laud, Pankova and Pettai's Theorem 4 as a certificate route (Laplace noise, exponential growth,
delta > 0): the route's arithmetic on the proved local rates, its refusals, and the catalog entry.

The route certifies (epsilon, delta, Lambda)-Geo-Privacy when epsilon >= b + C and
delta >= 2 e^(epsilon Lambda - k), k = 1 + (epsilon - b)/C, b = eta max a_R, C = max c_R
(docs/certificate.md).  The end-to-end verdicts of examples/laud-thm4-count-l1.yaml (certified) and
examples/broken/laud-thm4-beta-below-smoothness.yaml (refuted, witness recomputed independently)
are checked by tests/whole_repo/test_catalog.py.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import mpmath as mp
import pytest
import sympy as sp

from gpaudit.certify.pipeline import approximate, laud_theorem_4
from gpaudit.model.mechanism import build_mechanism
from gpaudit.spec.load import load_spec
from gpaudit.spec.types import two_point_needed
from gpaudit.verdict import CERTIFIED, UNKNOWN

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "laud-thm4-count-l1.yaml"
EPS, B, BETA = sp.Integer(1), sp.Rational(3, 10), sp.Rational(1, 20)
K = 1 + (EPS - B) / BETA                      # 15
PAPER_DELTA = 2 * sp.exp(EPS) * sp.exp(-K)    # the theorem's (eps, 2 e^eps e^-k) at Lambda = 1


@pytest.fixture(scope="module")
def mech():
    return build_mechanism(load_spec(EXAMPLE))


def _with(mech, *, delta=None, epsilon=None, Lambda=None, eta=None, family=None):
    spec = mech.spec
    claim = dataclasses.replace(spec.claim, **{k: v for k, v in (("delta", delta), ("epsilon", epsilon))
                                               if v is not None})
    bound = dataclasses.replace(spec.bound, **({"Lambda": Lambda} if Lambda is not None else {}))
    noise = dataclasses.replace(spec.noise, **({"eta": eta} if eta is not None else {}))
    spec = dataclasses.replace(spec, claim=claim, bound=bound, noise=noise)
    return build_mechanism(spec) if family is None else dataclasses.replace(
        build_mechanism(spec), family=family)


def _route(m, regions=(("R", 1, BETA),)):
    eps_upper, checks, within = laud_theorem_4(m, [], list(regions))
    (check,) = checks
    return eps_upper, check, within


def test_the_papers_delta_at_lambda_one_is_certified(mech):
    eps_upper, check, within = _route(mech)
    assert within and check.status == CERTIFIED and "Theorem 4" in check.method
    # the smallest epsilon at the claimed delta is exactly the claim here (delta = 2 e^(eps - k))
    assert abs(eps_upper - 1) < mp.mpf(10) ** -25 and eps_upper >= 1
    assert mp.mpf(check.evidence["delta_upper_at_claim"]) >= mp.mpf(sp.N(PAPER_DELTA, 30))


def test_a_delta_below_the_theorems_is_not_certified(mech):
    # Theorem 4's delta without its factor 2 e^eps: the route cannot show it (and must not)
    _, check, within = _route(_with(mech, delta=sp.exp(-K)))
    assert not within and check.status == CERTIFIED
    assert check.evidence["delta_upper_at_claim"] is not None


def test_epsilon_below_b_plus_beta_is_not_certified(mech):
    # b + beta = 7/20: a claim of 1/3 with a huge delta still fails the theorem's hypothesis
    _, check, within = _route(_with(mech, epsilon=sp.Rational(1, 3), delta=sp.Rational(1, 2)))
    assert not within and "n/a" in check.detail


def test_rates_from_the_proof_stage_enter_as_b_and_beta(mech):
    # a_R = 2 doubles b: b + beta = 13/20 and k = 1 + (1 - 3/5)/(1/20) = 9 > the claimed delta's
    _, check, within = _route(mech, regions=(("R1", 1, BETA), ("R2", 2, BETA / 2)))
    assert not within and check.evidence["b"] == "3/5" and check.evidence["beta"] == "1/20"
    delta9 = 2 * sp.exp(1 - 9)
    _, _, within = _route(_with(mech, delta=delta9), regions=(("R1", 1, BETA), ("R2", 2, BETA / 2)))
    assert within


def test_infinite_lambda_is_not_applicable(mech):
    _, check, within = _route(_with(mech, Lambda=sp.oo))
    assert not within and check.status == UNKNOWN and "finite Lambda" in check.detail


def test_lambda_beta_at_least_one_is_not_applicable(mech):
    _, check, within = _route(_with(mech, Lambda=sp.Integer(20), delta=sp.Rational(1, 2)))
    assert not within and check.status == UNKNOWN and "not below 1" in check.detail


def test_epsilon_upper_is_the_smallest_epsilon_meeting_both_conditions(mech):
    delta, lam = sp.Rational(1, 10**4), sp.Rational(1, 2)
    eps_upper, check, _ = _route(_with(mech, delta=delta, Lambda=lam))
    with mp.workdps(100):                                         # eps_upper is exact to 256 bits
        e = mp.mpf(eps_upper)

        def delta_at(eps):
            return 2 * mp.exp(eps * mp.mpf(1) / 2 - (1 + (eps - mp.mpf(3) / 10) * 20))
        assert delta_at(e) <= mp.mpf(delta.p) / delta.q           # enough at epsilon_upper ...
        assert delta_at(e - mp.mpf(10) ** -9) > mp.mpf(delta.p) / delta.q   # ... and not below it
    assert e >= mp.mpf(3) / 10 + mp.mpf(1) / 20


def test_only_laplace_with_exponential_growth_takes_the_route(mech):
    from gpaudit.model.families import make_family
    m = _with(mech, family=make_family("student_t", nu=sp.Integer(3)))
    eps_upper, checks, within = approximate(m, [], [("R", 1, BETA)])
    assert eps_upper is None and not within and checks[-1].status == UNKNOWN


def test_exponential_growth_never_needs_the_two_point_conditions(mech):
    assert two_point_needed(mech.spec) is None
    linear = dataclasses.replace(mech.spec, bound=dataclasses.replace(mech.spec.bound, growth="linear"))
    assert two_point_needed(linear) == "delta > 0 and Lambda < inf"
