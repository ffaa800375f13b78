"""Coverage of the audit's search: seed points handed in by another stage (far from every landmark,
at a jump), a slope a hair above the bound, long pairs for (epsilon, delta) claims, and a bounded
numerical smooth sensitivity in five dimensions.  Every witness is recomputed here in mpmath or
scipy from its decimal strings, without gpaudit's model."""

import json
import subprocess
import sys
import textwrap
import time

import mpmath
import numpy as np
import pytest
from scipy import stats

from gpaudit.audit.candidates import seed_pairs
from gpaudit.audit.run import audit
from gpaudit.audit.search import Triple, push_tail
from gpaudit.model.mechanism import build_mechanism
from gpaudit.spec.load import load_spec


def mech_from(tmp_path, text, name="m.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return build_mechanism(load_spec(path))


def laplace_unit_loss(fx, fxp, y):
    """ln p_x(y) - ln p_x'(y) for M(x) = f(x) + Lap(1) (B = 1, eta = 1)."""
    return abs(y - fxp) - abs(y - fx)


def witness_excess(w, f):
    """ln-ratio minus epsilon * dist (epsilon = 1) of a pure witness, recomputed at 60 digits."""
    with mpmath.workdps(60):
        x, xp, y = mpmath.mpf(w["x"][0]), mpmath.mpf(w["x_prime"][0]), mpmath.mpf(w["y"])
        return laplace_unit_loss(f(x), f(xp), y) - abs(x - xp), x, xp


# f is 1-Lipschitz except for a slope-3 stretch on [100000, 100001], written as one piece so that
# the query has no landmark there (its only landmark is the origin)
FAR_SLOPE = """\
    gpaudit: 1
    name: far-slope
    input: {dim: 1}
    query:
      kind: piecewise
      pieces:
        - value: x + 2*min(max(x - 100000, 0), 1)
    bound: {growth: exponential, gamma: 0, kind: constant, value: 1}
    noise: {family: laplace, eta: 1}
    claim: {epsilon: 1}
    """


def far_f(x):
    return x + 2 * min(max(x - 100000, 0), 1)


@pytest.mark.parametrize("seed_point", [(100000.5,), ("100000.5",)])
def test_a_seed_far_from_every_landmark_is_searched(tmp_path, seed_point):
    mech = mech_from(tmp_path, FAR_SLOPE)
    out = audit(mech, seed=0, effort="quick", seeds=[seed_point])
    assert out.witness is not None
    excess, x, xp = witness_excess(out.witness, far_f)
    assert excess > 0
    assert abs(x - 100000) < 10 and abs(xp - 100000) < 10
    assert out.epsilon_lower > 2.9  # the true worst rate is 3


def test_malformed_and_irrelevant_seeds_are_harmless(tmp_path):
    mech = mech_from(tmp_path, FAR_SLOPE)
    seeds = [("not a number",), (1.0, 2.0), (float("nan"),), (-30000.0,), ("7/2",), (100000.5,)]
    out = audit(mech, seed=1, effort="quick", seeds=seeds)
    assert out.witness is not None and witness_excess(out.witness, far_f)[0] > 0
    assert out.stats["seed_points"] == 3  # -30000, 7/2 and 100000.5


STEP = """\
    gpaudit: 1
    name: step-in-one-piece
    input: {dim: 1}
    query:
      kind: piecewise
      pieces:
        - value: (1 + abs(x - 5000)/(x - 5000))/2
    bound: {growth: exponential, gamma: 0, kind: constant, value: 1}
    noise: {family: laplace, eta: 1}
    claim: {epsilon: 1}
    """


def step_f(x):
    assert x != 5000  # undefined there: a witness must straddle the jump without hitting it
    return mpmath.mpf(0) if x < 5000 else mpmath.mpf(1)


def test_a_jump_inside_one_piece_is_found_from_its_seed(tmp_path):
    mech = mech_from(tmp_path, STEP)
    out = audit(mech, seed=0, effort="quick", seeds=[(5000,)])
    assert out.witness is not None
    excess, x, xp = witness_excess(out.witness, step_f)
    assert excess > 0
    assert min(x, xp) < 5000 < max(x, xp)
    assert out.epsilon_lower > 1e6  # the loss rate near a jump is about 1/|x - x'|


def test_seed_pairs_reach_float_resolution_and_straddle_without_hitting():
    s = np.array([100000.5])
    X, Xp = seed_pairs(s, 1.0, 0.0, np.inf, 1)
    d = np.abs(X - Xp)[:, 0]
    assert d.min() < 1e-12 * 100000.5 * 2 and d.max() >= 100
    straddle = (np.minimum(X, Xp) < s) & (np.maximum(X, Xp) > s)
    assert straddle.sum() > 50
    assert (d[straddle[:, 0]] < 1e-6).sum() >= 5
    # with gamma > 0 and a finite Lambda: 1/gamma multiples, nothing longer than Lambda
    X, Xp = seed_pairs(np.array([0.0, 3.0]), 1.0, 0.1, 25.0, 2)
    d = np.linalg.norm(X - Xp, axis=1)
    assert d.max() <= 25.0 and np.any(np.isclose(d, 10.0)) and np.any(np.isclose(d, 20.0))


def test_seeds_never_make_a_valid_mechanism_refuted(tmp_path):
    # Lemma 3.5's Student-t threshold mechanism at its largest eta: certified elsewhere
    mech = mech_from(tmp_path, """\
        gpaudit: 1
        name: valid
        params: {eps: 1, nu: 3, gamma: 1/9}
        input: {dim: 1}
        query: {kind: soft_threshold, T: 0, tau: 1}
        bound: {growth: exponential, gamma: gamma, kind: smooth_sensitivity}
        noise: {family: student_t, nu: nu, eta: (eps - nu*gamma)/((nu + 1)/(2*sqrt(nu)))}
        claim: {epsilon: eps}
        """)
    out = audit(mech, seed=0, effort="quick", seeds=[(-0.5,), (0.5,), (0.0,), (100000.0,)])
    assert out.witness is None
    assert out.epsilon_lower is None or out.epsilon_lower <= 1


# a slope of 1 + 1e-7 against B = 1: Laplace's loss rate is exactly 1 + 1e-7 beyond both centres
SLOPE = """\
    gpaudit: 1
    name: slope-a-hair-above
    input: {dim: 1}
    query:
      kind: piecewise
      pieces:
        - value: min(max((1 + 1/10000000)*x, 0), 1)
    bound: {growth: exponential, gamma: 0, kind: constant, value: 1}
    noise: {family: laplace, eta: 1}
    claim: {epsilon: 1}
    """


def slope_f(x):
    return min(max((1 + mpmath.mpf(1) / 10**7) * x, 0), 1)


@pytest.mark.parametrize("seed", [0, 3])
def test_a_slope_a_hair_above_the_bound_is_refuted(tmp_path, seed):
    mech = mech_from(tmp_path, SLOPE)
    out = audit(mech, seed=seed, effort="quick")
    assert out.witness is not None
    excess, x, xp = witness_excess(out.witness, slope_f)
    assert excess > 0
    assert out.epsilon_lower > 1 + 0.9e-7


def test_push_tail_moves_y_out_where_the_laplace_loss_grows(tmp_path):
    # B(x) > B(x'): the Laplace loss ln p_x(y) - ln p_x'(y) grows linearly in |y| beyond both centres
    mech = mech_from(tmp_path, """\
        gpaudit: 1
        name: tail
        input: {dim: 1}
        query: {kind: piecewise, pieces: [{value: x}]}
        bound: {growth: exponential, gamma: 1, kind: piecewise, pieces: [{value: 1 + x^2}]}
        noise: {family: laplace, eta: 1}
        claim: {epsilon: 1}
        """)
    t = Triple((0.01,), (0.0,), 0.005, 0.0)
    p = push_tail(mech, t)
    assert abs(p.y) >= 1e9
    with mpmath.workdps(50):
        assert mech.log_ratio_mp(p.x, p.xp, p.y) > mech.log_ratio_mp(t.x, t.xp, t.y) + 1
    # equal scales (Student-t): the loss vanishes in the tails, so y at its maximum stays
    flat = mech_from(tmp_path, SLOPE.replace("family: laplace", "family: student_t, nu: 3"), "flat.yaml")
    ys = np.linspace(-20, 20, 40001)
    lr = flat.log_ratio_np(np.full((len(ys), 1), 0.25), np.full((len(ys), 1), 0.5), ys)
    y0 = float(ys[np.argmax(lr)])
    assert push_tail(flat, Triple((0.25,), (0.5,), y0, 0.0)).y == y0


# (1/10, 1/100) claimed for Student-t noise on a threshold: the pair (-1/2, 1/2) violates delta
HOCKEY = """\
    gpaudit: 1
    name: student-t-delta
    input: {dim: 1}
    query: {kind: soft_threshold, T: 0, tau: 1}
    bound: {growth: exponential, gamma: 0, kind: constant, value: 1LAMBDA}
    noise: {family: student_t, nu: 3, eta: 1}
    claim: {epsilon: 1/10, delta: 1/100}
    """


def hockey_independent(x, xp, ivs, eps=0.1):
    """P_x(S) - e^{eps d} P_x'(S) for the threshold + t_3 noise, from scipy's t distribution."""
    def f(v):
        return min(max(v + 0.5, 0.0), 1.0)
    d = abs(x - xp)
    total = 0.0
    for lo, hi in ivs:
        p = stats.t.cdf(hi - f(x), 3) - stats.t.cdf(lo - f(x), 3)
        q = stats.t.cdf(hi - f(xp), 3) - stats.t.cdf(lo - f(xp), 3)
        total += p - np.exp(eps * d) * q
    return total


def test_the_delta_claim_is_violated_at_a_long_pair():
    # the claim's premise, independently: sup_S P[f(1/2) + Z in S] - e^{0.1} P[f(-1/2) + Z in S]
    from scipy.integrate import quad
    gap = quad(lambda y: max(stats.t.pdf(y - 1, 3) - np.exp(0.1) * stats.t.pdf(y, 3), 0.0),
               -200, 200, points=[0, 1], limit=400)[0]
    assert gap > 0.3


@pytest.mark.parametrize("Lambda", [None, "3/4"])
def test_hockey_stick_search_considers_long_pairs(tmp_path, Lambda):
    text = HOCKEY.replace("LAMBDA", f", Lambda: {Lambda}" if Lambda else "")
    mech = mech_from(tmp_path, text)
    out = audit(mech, seed=0, effort="quick")
    w = out.witness
    assert w is not None and "hockey_stick" in w
    assert mpmath.mpf(w["hockey_stick"]) > mpmath.mpf(1) / 100
    x, xp = float(w["x"][0]), float(w["x_prime"][0])
    if Lambda:
        assert abs(x - xp) <= 0.75
    ivs = [(float(lo), float(hi)) for lo, hi in w["set"]]
    assert hockey_independent(x, xp, ivs) > 0.1  # the true worst value is about 0.3 (0.24 at 3/4)


FIVE_D = """\
    gpaudit: 1
    name: five-d-clip
    input: {dim: 5}
    query:
      kind: piecewise
      pieces:
        - where: x1 + x2 < 0
          value: 0
        - where: x1 + x2 <= 1
          value: x1 + x2
        - value: 1
    bound: {growth: exponential, gamma: 1/9, kind: smooth_sensitivity}
    noise: {family: student_t, nu: 3, eta: 1/2}
    claim: {epsilon: 1}
    audit: {effort: quick}
    """


def test_numerical_smooth_sensitivity_is_bounded_in_five_dimensions(tmp_path):
    from gpaudit.model.numeric_ss import GRID_POINTS
    t0 = time.perf_counter()
    mech = mech_from(tmp_path, FIVE_D)
    B = mech.bound.B_np
    assert mech.bound.numeric
    assert len(B.P) <= GRID_POINTS["quick"] + 100
    # the local slopes see the query's steepest slope |grad f| = sqrt(2) on a coarse grid
    assert abs(B.L.max() - np.sqrt(2)) < 1e-6
    X = np.random.default_rng(0).uniform(-3, 3, (2000, 5))
    v = B(X)
    assert np.all(np.isfinite(v) & (v > 0))
    assert time.perf_counter() - t0 < 30


@pytest.mark.slow
def test_check_of_a_five_dimensional_numeric_bound_ends_with_a_verdict(tmp_path):
    path = tmp_path / "five.yaml"
    path.write_text(textwrap.dedent(FIVE_D))
    out = tmp_path / "five.json"
    r = subprocess.run([sys.executable, "-m", "gpaudit", "check", str(path), "--effort", "quick",
                        "--json", str(out), "--quiet"], capture_output=True, text=True, timeout=60)
    assert r.returncode in (0, 1, 3), r.stderr
    assert json.loads(out.read_text())["verdict"] in ("certified", "refuted", "unknown")
