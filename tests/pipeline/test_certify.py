"""The certificate stage and calibration: certified where sound, rounded against privacy, and the
certified configurations survive the audit."""

from pathlib import Path

import mpmath as mp
import pytest
import sympy as sp
import yaml

from gpaudit.check import check_file
from gpaudit.cli import main

ROOT = Path(__file__).resolve().parents[2]
EX = ROOT / "examples"


def test_comparison_with_an_irrational_claim_rounds_against_privacy():
    """A bound a hair above the exact claim must not pass; the exact claim itself (a tie) does."""
    from gpaudit.certify.pipeline import at_most_claim
    from gpaudit.kernel.numbers import exact as exact_of
    claim = 1 / sp.sqrt(3)
    with mp.workdps(80):
        above = mp.mpf(1) / mp.sqrt(3) * (1 + mp.mpf(10) ** -45)
        below = mp.mpf(1) / mp.sqrt(3) * (1 - mp.mpf(10) ** -45)
    assert not at_most_claim(above, claim)
    assert at_most_claim(below, claim)
    assert at_most_claim(sp.sqrt(3) / 3, claim)
    assert not at_most_claim(exact_of(above), claim)


def test_student_t_experiment_region_wise_certificate_is_tight():
    """Paper config (nu = 3, nu gamma = eps/3, Lemma 3.5's eta): the slope and scale terms never meet,
    so the certified epsilon is max(eta (nu+1)/(2 sqrt nu), nu gamma) = 2/3, and the audit exhibits it."""
    r = check_file(EX / "threshold-student-t.yaml", effort="quick")
    assert r.verdict == "certified"
    assert abs(r.epsilon_upper - mp.mpf(2) / 3) < 1e-8
    assert r.epsilon_upper >= mp.mpf(2) / 3  # rounded against privacy
    assert r.epsilon_lower <= r.epsilon_upper and r.epsilon_upper - r.epsilon_lower < 1e-6


def _calibrated(tmp_path, name, eps, at=None):
    out = tmp_path / f"{name}.cal.yaml"
    args = ["calibrate", str(EX / f"{name}.yaml"), "--epsilon", str(eps), "--out", str(out)]
    for pt in at or []:
        args += ["--at", pt]
    assert main(args) == 0
    return out


def test_calibrated_eta_is_certified_rounded_down_and_survives_the_audit(tmp_path):
    out = _calibrated(tmp_path, "threshold-student-t", 1)
    raw = yaml.safe_load(out.read_text())
    eta = sp.Rational(raw["noise"]["eta"])
    exact_max = 2 * sp.sqrt(3) / 4  # eps * 2 sqrt(nu) / (nu + 1): the band's slope term alone
    assert eta <= exact_max and float(exact_max - eta) < 1e-7
    r = check_file(out, effort="standard")
    assert r.verdict == "certified" and r.witness is None
    assert r.epsilon_upper <= 1


@pytest.mark.slow  # 39 gamma values, a proof stage each
def test_calibrated_gamma_eta_split(tmp_path):
    out = _calibrated(tmp_path, "threshold-gen-cauchy", 1, at=["0", "3", "10"])
    r = check_file(out, effort="quick")
    assert r.verdict == "certified" and r.epsilon_upper <= 1


def test_calibrate_refuses_an_uncertifiable_configuration(tmp_path, capsys):
    bad = EX / "broken" / "threshold-pointwise-bound.yaml"
    code = main(["calibrate", str(bad), "--epsilon", "1", "--out", str(tmp_path / "x.yaml")])
    assert code == 3 and not (tmp_path / "x.yaml").exists()


def test_polyplace_tie_certified_by_z3_and_smaller_claim_refuted(tmp_path):
    r = check_file(EX / "threshold-polyplace.yaml", effort="quick")
    assert r.verdict == "certified" and r.epsilon_upper == 1
    assert any("z3" in c.method for c in r.checks if c.id == "certificate.rate")
    raw = yaml.safe_load((EX / "threshold-polyplace.yaml").read_text())
    raw["claim"]["epsilon"] = "99/100"
    p = tmp_path / "pp.yaml"
    p.write_text(yaml.safe_dump(raw))
    r2 = check_file(p, effort="quick")
    assert r2.verdict == "refuted"  # the loss rate is exactly 1 everywhere (Lemma 12)
    assert mp.mpf(r2.witness["log_ratio"]) > mp.mpf(r2.witness["epsilon_times_dist"])


def test_approximate_claim_certified_by_lemma_3_6_and_delta_checked(tmp_path):
    r = check_file(EX / "threshold-laplace-approx.yaml", effort="quick")
    assert r.verdict == "certified"
    delta_check = [c for c in r.checks if c.id == "certificate.delta"][0]
    assert delta_check.status == "certified"
    assert mp.mpf(delta_check.evidence["delta_upper_at_claim"]) <= mp.mpf("1e-6") * (1 + mp.mpf("1e-20"))
    raw = yaml.safe_load((EX / "threshold-laplace-approx.yaml").read_text())
    raw["claim"]["delta"] = "1/10000000"  # ten times smaller than Lemma 3.6 allows: not certified
    p = tmp_path / "ap.yaml"
    p.write_text(yaml.safe_dump(raw))
    assert check_file(p, effort="quick").verdict in ("unknown", "refuted")


def test_gamma_zero_laplace_with_varying_bound_is_not_certified(tmp_path):
    r = check_file(EX / "broken" / "threshold-laplace-pure.yaml", effort="quick", full_evidence=True)
    assert r.verdict == "refuted"
    rate = [c for c in r.checks if c.id == "certificate.rate"]
    assert rate and rate[0].status != "certified"


def test_calibrate_polyplace_tie_decided_by_z3(tmp_path):
    """PolyPlace's rate is alpha * max(eta, gamma): exactly eps for every eta <= gamma, so no enclosure
    certifies; the largest certified eta is gamma itself, proved exactly."""
    out = _calibrated(tmp_path, "threshold-polyplace", 1)
    assert sp.Rational(yaml.safe_load(out.read_text())["noise"]["eta"]) == sp.Rational(1, 5)
    assert check_file(out, effort="quick").verdict == "certified"


@pytest.mark.parametrize("name", ["threshold-laplace-approx", "laud-thm4-count-l1"])
def test_calibrate_says_why_an_unbounded_pure_rate_has_no_eta(tmp_path, capsys, name):
    """Laplace noise with gamma > 0 has a pure loss rate that is +inf at every eta: calibrate answers
    with that reason (exit 3, no file), never an internal error on the infinite rate."""
    out = tmp_path / "x.yaml"
    code = main(["calibrate", str(EX / f"{name}.yaml"), "--epsilon", "1", "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 3 and not out.exists()
    assert "internal error" not in err and "unbounded at every eta" in err and "delta > 0" in err


def test_at_most_claim_never_proves_an_infinite_rate():
    import mpmath

    from gpaudit.certify.pipeline import at_most_claim
    assert at_most_claim(mpmath.inf, 10**9) is False and at_most_claim(mpmath.nan, 1) is False
    assert at_most_claim(mpmath.mpf(1) / 2, 1) is True


def test_calibrate_keeps_comments_and_layout_and_marks_what_it_changed(tmp_path):
    """The calibrated file is the user's file with eta replaced: comments, flow style and the
    other expressions stay, the new value says what it replaced, and a parameter that no longer
    feeds anything says so (it was left stale and silent before)."""
    src = tmp_path / "m.yaml"
    text = (EX / "threshold-student-t.yaml").read_text()
    text = text.replace("input:\n  dim: 1\n", "input: {dim: 1}   # one coordinate\n")
    assert "input: {dim: 1}" in text
    src.write_text("# my team's threshold mechanism\n" + text)
    out = tmp_path / "out.yaml"
    assert main(["calibrate", str(src), "--epsilon", "1", "--out", str(out)]) == 0
    got = out.read_text()
    assert "# my team's threshold mechanism" in got and "input: {dim: 1}   # one coordinate" in got
    assert "  gamma: eps/(3*nu)\n" in got and "  epsilon: eps\n" in got   # unchanged values untouched
    [eta] = [ln for ln in got.splitlines() if ln.startswith("  eta: ") and "# calibrated (was" in ln]
    assert eta.endswith("# calibrated (was eta)")
    assert "# no longer used: noise.eta was calibrated" in got
    r = check_file(out, effort="quick")
    assert r.verdict == "certified" and r.epsilon_upper <= 1


KDE3 = """\
gpaudit: 1
name: kde3-constant
input:
  dim: 3
query:
  kind: gaussian_kde
  t: [0, 1, 0]
  h: 2
bound:
  growth: exponential
  gamma: 0
  kind: constant
  value: 1
noise:
  family: laplace
  eta: 1
claim:
  epsilon: {eps}
"""


def test_a_certificate_the_kernel_cannot_prove_at_its_tightest_is_checked_at_the_claims_constants(tmp_path):
    """3-D Gaussian KDE (h = 2), B = 1, Laplace with eta = 1: the loss rate is sup |grad f| =
    1/(h sqrt(e)) = 0.3033.  The proof stage proves a = 0.304 (by an arb enclosure of the
    exponential); z3 with the translator's Taylor facts of exp cannot, so the kernel rejects that
    certificate.  With the constants the claim requires (a = 1, c = gamma = 0) and E = epsilon, the
    kernel proves every obligation: certified <= 1, not tighter, and the report carries that
    certificate, which `gpaudit verify` accepts.  A claim below the rate is still refuted."""
    import json

    from gpaudit.cli import main as cli
    p = tmp_path / "kde3.yaml"
    p.write_text(KDE3.format(eps=1))
    r = check_file(str(p))
    kernel = next(c for c in r.checks if c.id == "kernel.certificate")
    assert r.verdict == "certified" and kernel.evidence["at_requirement"] is True
    assert mp.mpf(r.epsilon_upper) == 1 and "at the constants the claim requires" in kernel.detail
    assert [(g["a"], g["c"]) for g in r.info["certificate"]["regions"]] == [("1", "0")]
    out = tmp_path / "kde3.json"
    assert cli(["check", str(p), "--json", str(out), "-q"]) == 0
    assert json.loads(out.read_text())["epsilon_upper"].startswith("1")
    assert cli(["verify", str(out), str(p)]) == 0
    bad = tmp_path / "kde3-bad.yaml"
    bad.write_text(KDE3.format(eps="1/4"))
    assert check_file(str(bad)).verdict == "refuted"


def test_only_a_rejection_of_cover_and_smooth_below_the_requirement_is_retried():
    """at_requirement raises the regions' constants only where the kernel rejected nothing but
    cover / smooth bounds of a pure claim's regions route, and some constant is below 1 / gamma."""
    from types import SimpleNamespace

    from gpaudit.check import at_requirement
    from gpaudit.kernel import certificate as kc
    mech = SimpleNamespace(spec=SimpleNamespace(bound=SimpleNamespace(gamma=sp.Rational(1, 9)),
                                                claim=SimpleNamespace(epsilon=sp.Integer(1))))
    tight = kc.Region("R", (), (), sp.Rational(1, 2), sp.Rational(1, 20))
    cert = kc.Certificate("regions", (tight,), sp.Rational(1, 2))

    def rejected(*names):
        return kc.Rejected([kc.Outcome(n, False, "z3 unknown") for n in names] + [kc.Outcome("owned[f]", True, "z3 unsat")])
    raised = at_requirement(mech, cert, rejected("cover[R]", "smooth[R]"))
    assert raised.regions[0].a == 1 and raised.regions[0].c == sp.Rational(1, 9) and raised.epsilon_upper == 1
    assert at_requirement(mech, cert, rejected("cover[R]", "continuous[f1|f2]")) is None     # not a constant's fault
    assert at_requirement(mech, cert, rejected("rate[R]")) is None
    assert at_requirement(mech, kc.Certificate("regions", (tight,), sp.Rational(1, 2), "lemma_3_6"),
                          rejected("cover[R]")) is None                                      # a delta route
    at = kc.Region("R", (), (), sp.Integer(1), sp.Rational(1, 9))
    assert at_requirement(mech, kc.Certificate("regions", (at,), sp.Integer(1)), rejected("cover[R]")) is None
