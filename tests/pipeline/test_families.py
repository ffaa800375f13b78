"""Noise families: normalisation, backends agree, enclosures are rigorous, samplers are right."""

import math
import sys

import mpmath
import numpy as np
import pytest
import sympy
from flint import arb, ctx
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from gpaudit.model.families import Gaussian, GenCauchy, Laplace, PolyPlace, StudentT, make_family

R = sympy.Rational

FAMILIES = [
    make_family("laplace"),
    make_family("gen_cauchy", p=4),
    make_family("gen_cauchy", p="5/2", theta="3/2"),
    make_family("gen_cauchy", p="3/2"),
    make_family("student_t", nu=3),
    make_family("student_t", nu="1/2"),
    make_family("polyplace", alpha=3),
    make_family("polyplace", alpha="5/2"),
    make_family("polyplace", alpha=20),
    make_family("gaussian"),
]
IDS = [f"{f.name}{tuple(f.params().values())}" for f in FAMILIES]


@pytest.fixture(autouse=True)
def _mp50():
    with mpmath.workdps(50):
        yield


def _breaks_mp(fam):
    return [mpmath.mpf(sympy.N(b, 60)) for b in fam.is_piece_boundary() if b > 0]


def _pdf_mp(fam):
    return lambda z: mpmath.exp(fam.logpdf_mp(z))


def _integrate_pos(fam, fn, start=0):
    """Integral of fn over [start, inf), split at the piece boundaries; z = e^x beyond 100 (so
    that polynomial tails decay exponentially; all families here are below 1e-80 of 1 past
    z = e^400)."""
    start = mpmath.mpf(start)
    cuts = [*_breaks_mp(fam), mpmath.mpf(1), mpmath.mpf(10)]
    pts = sorted({start, *(c for c in cuts if c > start), mpmath.mpf(100)})
    head = mpmath.quad(fn, pts)
    tail = mpmath.quad(lambda x: fn(mpmath.exp(x)) * mpmath.exp(x), [mpmath.log(100), 10, 30, 100, 400])
    return head + tail


def _probe_points(fam):
    pts = [0.0, 1e-300, 1e-20, 1e-8, 0.05, 0.3, 1.0, 1.7, 2.0, 10.0, 123.456, 1e3, 1e6, 1e20,
           1e100, 1e150, 1e300]
    for b in _breaks_mp(fam):
        pts += [float(b) * (1 - 1e-9), float(b), float(b) * (1 + 1e-9)]
    return pts + [-x for x in pts]


# ---------------------------------------------------------------------------------------------
# Densities


@pytest.mark.parametrize("fam", FAMILIES, ids=IDS)
def test_density_integrates_to_one(fam):
    mpmath.mp.dps = 30
    total = 2 * _integrate_pos(fam, _pdf_mp(fam))
    assert abs(total - 1) < 1e-25


def test_generalized_cauchy_constant_matches_paper_formula():
    for p, th in [(4, 1), (R(5, 2), R(3, 2)), (3, 2)]:
        fam = GenCauchy(p, th)
        p_, th_ = mpmath.mpf(sympy.N(p, 60)), mpmath.mpf(sympy.N(th, 60))
        c = p_ * mpmath.gamma(th_) / (2 * mpmath.gamma(1 / p_) * mpmath.gamma(th_ - 1 / p_))
        assert abs(fam.log_norm_const_mp() - mpmath.log(c)) < 1e-45
    # Liang-Yi Appendix C.1: GenCauchy(0, 1, 4, 1) has density sqrt(2)/(pi (1+z^4))
    assert abs(GenCauchy(4).logpdf_mp(0) - mpmath.log(mpmath.sqrt(2) / mpmath.pi)) < 1e-45


def test_student_t_matches_scipy_and_is_gen_cauchy_rescaled():
    fam = StudentT(3)
    for u in [0.0, 0.5, 2.0, 40.0]:
        assert math.isclose(float(fam.logpdf_mp(u)), stats.t.logpdf(u, 3), rel_tol=1e-13)
    # Liang-Yi Section 2.1: T_nu is GenCauchy with p = 2, theta = (nu+1)/2, scale sqrt(nu)
    gc = GenCauchy(2, 2)
    u = mpmath.mpf("1.3")
    assert abs(fam.logpdf_mp(u) - gc.logpdf_mp(u / mpmath.sqrt(3)) + mpmath.log(mpmath.sqrt(3))) < 1e-45


@pytest.mark.parametrize("alpha", [R(3, 2), 3, 20])
def test_polyplace_is_continuous_at_one_over_alpha(alpha):
    fam = PolyPlace(alpha)
    b = 1 / mpmath.mpf(sympy.N(alpha, 60))
    near = fam._logpdf_piece(b, 0)
    far = fam._logpdf_piece(b, 1)
    assert abs(near - far) < 1e-45
    # and so is the score (Hladik-Tetek Lemma 10): both pieces give -alpha
    assert abs(fam._abs_score_piece(b, 0) - fam._abs_score_piece(b, 1)) < 1e-45
    assert abs(fam._abs_score_piece(b, 0) - 1 / b) < 1e-45


@pytest.mark.parametrize("fam", FAMILIES, ids=IDS)
def test_logpdf_np_agrees_with_mp_everywhere(fam):
    pts = _probe_points(fam)
    got = fam.logpdf_np(np.array(pts))
    for u, g in zip(pts, got):
        want = fam.logpdf_mp(u)
        if want < -sys.float_info.max:  # the Gaussian's -u^2/2 beyond u = 1.9e154: below the float range
            assert g == -np.inf, (u, g, want)
            continue
        assert abs(g - want) <= 1e-12 * max(1, abs(want)), (u, g, want)


@pytest.mark.parametrize("fam", [f for f in FAMILIES if f.name != "gaussian"],
                         ids=[i for f, i in zip(FAMILIES, IDS) if f.name != "gaussian"])
def test_polynomial_tails_do_not_underflow(fam):
    far = fam.logpdf_np(np.array([1e150, -1e150, 1e300]))
    assert np.all(np.isfinite(far))
    if fam.name == "laplace":
        assert far[0] == -1e150 - math.log(2)


@pytest.mark.parametrize("fam", FAMILIES, ids=IDS)
def test_score_np_agrees_with_mp(fam):
    pts = _probe_points(fam)
    got = fam.score_np(np.array(pts))
    for u, g in zip(pts, got):
        want = fam.score_mp(u)
        assert abs(g - want) <= 1e-12 * abs(want) + 1e-300, (u, g, want)
    assert fam.score_np(0.0) == 0 and fam.score_mp(0) == 0  # convention psi(0) = 0


@pytest.mark.parametrize("fam", FAMILIES, ids=IDS)
def test_score_is_derivative_of_logpdf(fam):
    pts = [mpmath.mpf(x) for x in ("0.01", "0.2", "0.7", "1.3", "4", "55", "-0.45", "-3")]
    pts += [b * k for b in _breaks_mp(fam) for k in (mpmath.mpf("0.9"), mpmath.mpf("1.1"))]
    for u in pts:
        num = mpmath.diff(fam.logpdf_mp, u)  # tiny adaptive step: stays inside one piece
        assert abs(num - fam.score_mp(u)) < mpmath.mpf("1e-25") * max(1, abs(num)), u


# ---------------------------------------------------------------------------------------------
# Rigorous enclosures


def _contains(ball: arb, value: mpmath.mpf) -> bool:
    slack = mpmath.mpf("1e-40") * max(1, abs(value))
    return mpmath.mpf(ball.lower()) - slack <= value <= mpmath.mpf(ball.upper()) + slack


def _check_enclosures(fam, center: float, radius: float, fractions):
    with ctx.workprec(200):
        ball = arb(center, radius)
        lp, sc = fam.logpdf_arb(ball), fam.score_arb(ball)
        for f in fractions:
            u = mpmath.mpf(center) + mpmath.mpf(radius) * (2 * mpmath.mpf(f) - 1)
            assert _contains(lp, fam.logpdf_mp(u)), (center, radius, u)
            assert _contains(sc, fam.score_mp(u)), (center, radius, u)


@pytest.mark.parametrize("fam", FAMILIES, ids=IDS)
@settings(max_examples=40, deadline=None, derandomize=True, database=None)
@given(
    center=st.one_of(st.floats(-30, 30), st.floats(-1e8, 1e8)),
    radius=st.floats(0, 2),
    fractions=st.lists(st.floats(0, 1), min_size=1, max_size=4),
)
def test_arb_enclosures_contain_mp_values(fam, center, radius, fractions):
    _check_enclosures(fam, center, radius, fractions + [0.0, 1.0])


@pytest.mark.parametrize("fam", FAMILIES, ids=IDS)
def test_arb_enclosures_straddling_piece_boundaries(fam):
    for b in [0.0] + [float(x) for x in _breaks_mp(fam)]:
        for radius in (1e-12, 1e-3, 0.2):
            _check_enclosures(fam, b, radius, [0.0, 0.25, 0.5, 0.5 + 1e-9, 0.75, 1.0])
            _check_enclosures(fam, -b, radius, [0.0, 0.5, 1.0])


def test_arb_score_hull_at_laplace_jump():
    ball = Laplace().score_arb(arb(0, 1e-6))
    assert ball.lower() <= -1 and ball.upper() >= 1


# ---------------------------------------------------------------------------------------------
# Distribution functions, moments


@pytest.mark.parametrize("fam", FAMILIES, ids=IDS)
def test_cdf_and_sf(fam):
    assert abs(fam.cdf_mp(0) - mpmath.mpf(1) / 2) < 1e-45
    for u in ["0.1", "0.9", "3", "-2.5"]:
        u = mpmath.mpf(u)
        if u > 0:
            direct = _integrate_pos(fam, _pdf_mp(fam), start=u)
            assert abs(fam.sf_mp(u) - direct) < 1e-20
        assert abs(fam.cdf_mp(u) + fam.sf_mp(u) - 1) < 1e-45
        assert abs(fam.cdf_mp(-u) - fam.sf_mp(u)) < 1e-45
    grid = np.array([-1e6, -7.0, -0.3, 0.0, 0.01, 0.5, 2.0, 30.0, 1e4])
    for u, c, s in zip(grid, fam.cdf_np(grid), fam.sf_np(grid)):
        assert abs(c - fam.cdf_mp(u)) <= 1e-12 * fam.cdf_mp(u) + 1e-300
        assert abs(s - fam.sf_mp(u)) <= 1e-12 * fam.sf_mp(u) + 1e-300


@pytest.mark.parametrize("fam", FAMILIES, ids=IDS)
def test_variance(fam):
    var = fam.variance_mp()
    if var == mpmath.inf:
        assert fam.name in ("student_t", "gen_cauchy", "polyplace")
        return
    direct = 2 * _integrate_pos(fam, lambda z: z * z * _pdf_mp(fam)(z))
    assert abs(var - direct) < 1e-20 * var


def test_known_variances_and_infinite_ones():
    assert Laplace().variance_mp() == 2
    assert abs(GenCauchy(4).variance_mp() - 1) < 1e-45  # Liang-Yi Section 2.1
    assert StudentT(3).variance_mp() == 3
    assert StudentT(2).variance_mp() == mpmath.inf
    assert GenCauchy(3).variance_mp() == mpmath.inf
    assert PolyPlace(2).variance_mp() == mpmath.inf
    assert Gaussian().variance_mp() == 1


def test_piece_boundaries():
    assert Laplace().is_piece_boundary() == [0]
    assert PolyPlace(4).is_piece_boundary() == [0, R(1, 4)]
    assert StudentT(3).is_piece_boundary() == []
    assert GenCauchy(4).is_piece_boundary() == []
    assert GenCauchy(R(5, 2)).is_piece_boundary() == [0]
    assert GenCauchy(3).is_piece_boundary() == [0]
    assert Gaussian().is_piece_boundary() == []


# ---------------------------------------------------------------------------------------------
# Samplers


@pytest.mark.parametrize("fam", FAMILIES, ids=IDS)
def test_sampler_matches_cdf(fam):
    draws = fam.sample(np.random.default_rng(20240607), 20000)
    assert draws.shape == (20000,) and np.all(np.isfinite(draws))
    assert stats.kstest(draws, fam.cdf_np).pvalue > 1e-3


@pytest.mark.parametrize("fam", FAMILIES, ids=IDS)
def test_sampler_is_reproducible(fam):
    a = fam.sample(np.random.default_rng(7), (3, 5))
    b = fam.sample(np.random.default_rng(7), (3, 5))
    assert a.shape == (3, 5) and np.array_equal(a, b)


# ---------------------------------------------------------------------------------------------
# Parameters


def test_parameters_are_exact():
    assert GenCauchy("5/2").p == R(5, 2)
    assert make_family("gen_cauchy", p=2.5, theta="0.75").params() == {"p": R(5, 2), "theta": R(3, 4)}
    assert make_family("student_t", nu=0.1).nu == R(0.1)  # a float is its binary value
    assert make_family("student_t", nu="0.1").nu == R(1, 10)
    assert make_family("polyplace", alpha=sympy.sqrt(2)).alpha == sympy.sqrt(2)
    assert GenCauchy(4).theta == 1


@pytest.mark.parametrize(
    "name, params, field",
    [
        ("gen_cauchy", {"p": 1}, "p"),
        ("gen_cauchy", {"p": "1/2"}, "p"),
        ("gen_cauchy", {"p": 3, "theta": 0}, "theta"),
        ("gen_cauchy", {"p": 3, "theta": -1}, "theta"),
        ("gen_cauchy", {"p": 2, "theta": "0.4"}, "theta"),  # p*theta <= 1
        ("gen_cauchy", {}, "p"),
        ("student_t", {"nu": 0}, "nu"),
        ("student_t", {"nu": -3}, "nu"),
        ("student_t", {"nu": float("nan")}, "nu"),
        ("student_t", {"nu": float("inf")}, "nu"),
        ("student_t", {"nu": "three"}, "nu"),
        ("student_t", {"nu": True}, "nu"),
        ("polyplace", {"alpha": 1}, "alpha"),
        ("polyplace", {"alpha": "0.5"}, "alpha"),
        ("polyplace", {"alpha": 3, "beta": 2}, "beta"),
        ("laplace", {"b": 1}, "b"),
        ("gaussian", {"sigma": 1}, "sigma"),
        ("cauchy", {}, "family"),
    ],
)
def test_invalid_parameters_raise(name, params, field):
    with pytest.raises(ValueError, match=f"^{field}: "):
        make_family(name, **params)
