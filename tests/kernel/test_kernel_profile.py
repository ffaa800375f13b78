"""The exact privacy profile of fixed-scale noise (kernel.profile, the delta route `exact_profile`).

The closed forms are checked against numerical integration of the densities in mpmath (the worst
set located independently, by a root of the log ratio), and their monotonicity in the shift and in
the pair distance, on which the route rests, is sampled.  The kernel certifies a claim at or above
the profile, refuses one below it, refuses whatever its hypotheses exclude, and leaves a claim
unknown (not certified) where arb cannot separate the profile from delta.  End to end: the catalog's
diffprivlib-style Laplace and Gaussian entries (tests/whole_repo/test_catalog.py refutes their broken twins
with an independently recomputed witness), the exact tie, the straddle, and `gpaudit verify`."""

import dataclasses
import json
from pathlib import Path

import mpmath as mp
import pytest
import sympy as sp

from gpaudit.cli import main
from gpaudit.kernel import certificate as kc
from gpaudit.kernel import numbers, profile
from test_kernel_certificate import LAPLACE, STUDENT3, failed, problem, region, x

ROOT = Path(__file__).resolve().parents[2]
GAUSSIAN = (-kc.U**2 / 2,)
HALF = sp.Rational(1, 2)
CASES = [(HALF, HALF - sp.log(sp.Rational(99, 100))), (1, sp.Rational(3, 10)), (sp.Rational(1, 5), 2),
         (3, sp.Rational(3, 2)), (0, 1), (2, 7)]


def integrated(family, eps, mu):
    """sup_S P(S) - e^eps Q(S) for P = h(y), Q = h(y - mu), by quadrature of p - e^eps q over the set
    where the log ratio exceeds eps (a half-line; its end found by bisection, not from the formula)."""
    with mp.workdps(40):
        eps, mu = (mp.mpf(sp.N(v, 60)) for v in (eps, mu))
        if family == "laplace":
            logp = lambda y: -abs(y) - mp.log(2)                      # noqa: E731
        else:
            logp = lambda y: -y * y / 2 - mp.log(2 * mp.pi) / 2        # noqa: E731
        excess = lambda y: logp(y) - logp(y - mu) - eps              # noqa: E731 (decreasing in y)
        lo, hi = -mu - 60, mu + 60
        if excess(lo) <= 0:
            return mp.mpf(0)
        end = mp.findroot(excess, (lo, hi), solver="anderson") if excess(hi) < 0 else hi
        g = lambda y: mp.exp(logp(y)) - mp.exp(eps + logp(y - mu))    # noqa: E731
        return mp.quad(g, [-mp.inf, min(mp.mpf(0), end), end])


@pytest.mark.parametrize("family", ["laplace", "gaussian"])
@pytest.mark.parametrize("eps,mu", CASES)
def test_closed_form_equals_the_integral(family, eps, mu):
    H = profile.divergence(family, eps, mu)
    with mp.workdps(40):
        lo, hi = numbers.down(H), numbers.up(H)
        assert 0 <= lo <= hi < lo + mp.mpf(10) ** -14
        value = integrated(family, eps, mu)
        assert lo - mp.mpf(10) ** -20 <= value <= hi + mp.mpf(10) ** -20, (value, lo, hi)


def test_the_diffprivlib_profile_is_the_issues_number():
    eta = HALF - sp.log(sp.Rational(99, 100))
    H, mu = profile.worst_pair("laplace", HALF, 1, eta, 1)
    assert mu == eta and H == 1 - sp.sqrt(sp.Rational(99, 100))       # 1 - e^(ln 0.99 / 2), exactly
    assert numbers.decimal_up(H, 5) == "0.0050126"


@pytest.mark.parametrize("family", ["laplace", "gaussian"])
def test_the_profile_grows_with_the_shift_and_with_the_distance(family):
    """The route's two monotonicity facts, sampled: H(eps, mu) nondecreasing in mu, and
    H(epsilon d, A eta d) nondecreasing in d (docs/certificate.md proves both)."""
    mus = [sp.Rational(k, 8) for k in range(1, 60)]
    for eps in (0, sp.Rational(1, 3), 1, 4):
        vals = [numbers.up(profile.divergence(family, eps, m), 80) for m in mus]
        assert all(a <= b + mp.mpf(10) ** -20 for a, b in zip(vals, vals[1:])), (eps, vals)
    for epsilon, a_eta in ((sp.Rational(1, 2), 1), (1, sp.Rational(1, 3)), (2, 3)):
        vals = [numbers.up(profile.worst_pair(family, epsilon, 1, a_eta, d)[0], 80) for d in mus]
        assert all(a <= b + mp.mpf(10) ** -20 for a, b in zip(vals, vals[1:])), (epsilon, a_eta)


# -- the kernel's route ----------------------------------------------------------------------------

def fixed(family=("laplace", LAPLACE), *, eta=HALF - sp.log(sp.Rational(99, 100)), epsilon=HALF,
          delta=sp.Rational(1, 100), Lambda=1, a=1, B=1):
    """The identity query with B constant; Lambda = 1 (DP on neighbouring inputs)."""
    P = problem(x, sp.sympify(B), log_density=family[1], family=family[0], eta=eta, gamma=0,
                epsilon=epsilon, delta=delta, Lambda=Lambda, bound_kind="constant")
    return P, kc.Certificate("regions", (region("all", [], x, B, a, 0),), None, "exact_profile")


def test_the_kernel_certifies_laplace_at_and_above_its_profile():
    P, cert = fixed()
    v = kc.check(P, cert)
    assert kc.is_verified(v) and v.route == "regions+exact_profile" and v.epsilon_upper == HALF
    assert {"cover", "B_positive", "exact_profile.delta"} <= {o.name.split("[")[0] for o in v.outcomes}
    # the exact tie: delta written as the closed form itself
    assert kc.is_verified(kc.check(dataclasses.replace(P, delta=1 - sp.sqrt(sp.Rational(99, 100))), cert))


def test_the_kernel_refuses_a_delta_below_the_profile():
    P, cert = fixed()
    below = dataclasses.replace(P, delta=sp.Rational(99, 100) * (1 - sp.sqrt(sp.Rational(99, 100))))
    assert failed(below, cert) == {"exact_profile.delta"}
    # a rate constant below the query's slope is caught by the cover obligation, not by the profile
    assert "cover" in failed(P, dataclasses.replace(cert, regions=(region("all", [], x, 1, HALF, 0),)))


def test_the_kernel_leaves_a_straddling_delta_undecided():
    """delta above the profile by e^-1000-ish (true), and below it by as much (false): arb at 1024
    bits cannot separate either from the profile, so neither is certified."""
    P, cert = fixed()
    for sign in (1, -1):
        tiny = sign * sp.Rational(1, 10**400)
        # written so that sympy cannot cancel the difference to a rational
        straddle = dataclasses.replace(P, delta=1 - sp.exp(sp.log(sp.Rational(99, 100)) / 2 - tiny))
        assert failed(straddle, cert) == {"exact_profile.delta"}


def test_the_kernel_certifies_the_gaussian_mechanism_and_refuses_too_little_noise():
    delta = sp.Rational(1, 10**5)
    good = 1 / sp.sqrt(2 * sp.log(sp.Rational(5, 4) / delta))                     # classical sigma
    P, cert = fixed(("gaussian", GAUSSIAN), eta=good, epsilon=1, delta=delta)
    assert kc.check(P, cert).route == "regions+exact_profile"
    assert failed(dataclasses.replace(P, eta=good * sp.sqrt(sp.log(10))), cert) == {"exact_profile.delta"}


@pytest.mark.parametrize("change", [
    {"family": ("student_t", STUDENT3)},            # no closed form (and no monotonicity) for Student-t
    {"family": ("laplace", GAUSSIAN)},              # the name and the density must agree
    {"Lambda": sp.oo},                              # the shift bound grows without limit
])
def test_the_kernel_refuses_what_the_route_does_not_cover(change):
    P, cert = fixed(**change)
    assert "exact_profile.hypotheses" in failed(P, cert)


def test_the_kernel_refuses_a_bound_that_is_not_constant():
    P, cert = fixed()
    B = sp.sqrt(x**2 + 1)                  # |grad ln B| <= 1/2, |grad f| <= B: only the profile fails
    P = dataclasses.replace(P, B=B)
    cert = dataclasses.replace(cert, regions=(region("all", [], x, B, 1, HALF),))
    assert "exact_profile.hypotheses" in failed(P, cert)


# -- end to end ------------------------------------------------------------------------------------

def _run(tmp_path, path, delta=None):
    text = Path(path).read_text()
    if delta is not None:
        text = text.replace("  delta: delta\n", f"  delta: {delta}\n")
        assert f"delta: {delta}" in text
    cfg = tmp_path / "mech.yaml"
    cfg.write_text(text)
    out = tmp_path / "report.json"
    code = main(["check", str(cfg), "--json", str(out), "--quiet", "--effort", "quick"])
    return code, json.loads(out.read_text()), out


def test_the_catalog_laplace_is_certified_and_verified_again(tmp_path, capsys):
    code, rep, out = _run(tmp_path, ROOT / "examples" / "diffprivlib-laplace-approx.yaml")
    assert code == 0 and rep["verdict"] == "certified"
    assert rep["certificate"]["delta_route"] == "exact_profile"
    assert main(["verify", str(out)]) == 0
    rep["certificate"]["regions"][0]["a"] = "1/2"                   # a tampered slope constant
    out.write_text(json.dumps(rep))
    assert main(["verify", str(out)]) == 1
    assert "cover" in capsys.readouterr().out


def test_a_claim_written_as_the_profile_itself_is_certified(tmp_path):
    code, rep, _ = _run(tmp_path, ROOT / "examples" / "diffprivlib-laplace-approx.yaml",
                        delta="1 - exp((eps - (eps - log(1 - delta)))/2)")
    assert code == 0 and rep["verdict"] == "certified"


def test_a_claim_arb_cannot_separate_from_the_profile_is_unknown(tmp_path):
    code, rep, _ = _run(tmp_path, ROOT / "examples" / "diffprivlib-laplace-approx.yaml",
                        delta="1 - exp((eps - (eps - log(1 - delta)))/2 - 10^-400)")
    assert code == 3 and rep["verdict"] == "unknown"
    assert "straddle" in next(c["detail"] for c in rep["checks"] if c["id"] == "certificate.delta")


@pytest.mark.parametrize("metric,B", [("l1", "1"), ("linf", "2")])
@pytest.mark.parametrize("factor,verdict", [("101/100", "certified"), ("99/100", "refuted")])
def test_a_sum_of_two_inputs_under_a_norm_is_decided_at_its_profile(tmp_path, metric, B, factor, verdict):
    """f = x1 + x2 with its sensitivity B in the metric (the dual norm of (1, 1): 1 for l1, 2 for
    linf), Gaussian noise of scale 1, Lambda = 1: the profile's shift is B; a delta 1% above it is
    certified, 1% below it refuted with a pair the claim covers (exactly within Lambda)."""
    H, mu = profile.worst_pair("gaussian", 1, 1, sp.sympify(B), 1)
    delta = sp.nsimplify(sp.Rational(factor) * sp.Rational(numbers.decimal_up(H, 12)))
    cfg = tmp_path / "sum.yaml"
    cfg.write_text(f"""\
gpaudit: 1
name: sum-{metric}
input: {{dim: 2, metric: {metric}}}
query: {{kind: piecewise, pieces: [{{value: x1 + x2}}]}}
bound: {{kind: constant, value: {B}, growth: exponential, gamma: 0, Lambda: 1}}
noise: {{family: gaussian, eta: {B}}}
claim: {{epsilon: 1, delta: {delta}}}
""")
    out = tmp_path / "sum.json"
    main(["check", str(cfg), "--json", str(out), "--quiet", "--effort", "quick"])
    rep = json.loads(out.read_text())
    assert rep["verdict"] == verdict
    if verdict == "refuted":
        w = rep["witness"]
        assert sp.Rational(w["dist"]) <= 1 and mp.mpf(w["hockey_stick"]) > mp.mpf(sp.N(delta, 30))


def test_the_kernel_refuses_the_route_for_a_vector_output():
    """The closed forms are those of one-dimensional noise: planar Laplace's profile is another."""
    P, cert = fixed()
    P = dataclasses.replace(P, f=(x, x), k=2)
    cert = dataclasses.replace(cert, regions=(region("all", [], (x, x), 1, 2, 0),))
    assert "exact_profile.hypotheses" in failed(P, cert)
