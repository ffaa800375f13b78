"""The audit: never refutes a valid mechanism, always refutes one with too little noise, and every
witness it reports is a real violation (hypothesis draws the configurations)."""

import mpmath
import sympy as sp
from hypothesis import HealthCheck, given, settings, strategies as st

from gpaudit.audit.run import audit
from gpaudit.model.mechanism import build_mechanism
from gpaudit.spec.load import spec_from_mapping

SETTINGS = settings(max_examples=6, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.nested_given])


def threshold_config(T, tau, nu, gamma, eta_factor, eps=1):
    """The Student-t threshold mechanism with eta = eta_factor x Lemma 3.5's largest eta."""
    return {
        "gpaudit": 1, "name": "h", "input": {"dim": 1},
        "params": {"eps": eps, "nu": nu, "gamma": str(gamma)},
        "query": {"kind": "soft_threshold", "T": str(T), "tau": str(tau)},
        "bound": {"growth": "exponential", "gamma": "gamma", "kind": "smooth_sensitivity"},
        "noise": {"family": "student_t", "nu": "nu",
                  "eta": f"{eta_factor}*(eps - nu*gamma)/((nu + 1)/(2*sqrt(nu)))"},
        "claim": {"epsilon": "eps"},
    }


rationals = st.fractions(min_value=sp.Rational(1, 5), max_value=5, max_denominator=20)


@SETTINGS
@given(T=st.integers(-3, 3), tau=rationals, nu=st.sampled_from([3, 4, 6]),
       gamma_frac=st.fractions(min_value=sp.Rational(1, 20), max_value=sp.Rational(9, 10), max_denominator=20))
def test_valid_configurations_are_never_refuted(T, tau, nu, gamma_frac):
    gamma = sp.Rational(gamma_frac) / nu  # nu * gamma < eps = 1
    mech = build_mechanism(spec_from_mapping(threshold_config(T, tau, nu, gamma, 1), "<hyp>", ""))
    out = audit(mech, seed=0, effort="quick")
    assert out.witness is None
    assert out.epsilon_lower is None or out.epsilon_lower <= 1


@SETTINGS
@given(T=st.integers(-3, 3), tau=rationals, nu=st.sampled_from([3, 4, 6]),
       gamma_frac=st.fractions(min_value=sp.Rational(1, 20), max_value=sp.Rational(1, 2), max_denominator=20))
def test_too_little_noise_is_always_refuted(T, tau, nu, gamma_frac):
    gamma = sp.Rational(gamma_frac) / nu
    # 2.5 x eta: the slope term alone is 2.5 (1 - nu gamma) >= 1.25 > 1 inside the band
    mech = build_mechanism(spec_from_mapping(threshold_config(T, tau, nu, gamma, sp.Rational(5, 2)), "<hyp>", ""))
    out = audit(mech, seed=0, effort="quick")
    assert out.witness is not None
    w = out.witness
    with mpmath.workdps(60):
        x, xp, y = (mpmath.mpf(w["x"][0]),), (mpmath.mpf(w["x_prime"][0]),), mpmath.mpf(w["y"])
        lr = mech.log_ratio_mp(x, xp, y)
        assert lr > abs(x[0] - xp[0])  # epsilon = 1
        assert out.epsilon_lower > 1


def test_guided_adversary_alone_finds_the_violation_and_is_deterministic():
    from pathlib import Path
    from gpaudit.audit.adversary import adversarial_triples
    from gpaudit.spec.load import load_spec
    root = Path(__file__).resolve().parents[2]
    mech = build_mechanism(load_spec(root / "examples" / "broken" / "threshold-student-t-too-much-eta.yaml"))
    a = adversarial_triples(mech, 3, "quick")
    assert a == adversarial_triples(mech, 3, "quick")
    x, xp, y, rate = a[0]
    assert rate > 1.2  # the true worst rate is 4/3; the claim is 1
    with mpmath.workdps(50):
        assert mech.log_ratio_mp(x, xp, y) > abs(mpmath.mpf(x[0]) - mpmath.mpf(xp[0]))
