"""Tests of the PolyPlace claims (gpaudit/papers/polyplace.py, Hladik & Tetek).

1. every claim carries the paper's words verbatim (checked against the paper file), a reading,
   a method, and every non-verified one a severity (a typo also its intended statement);
2. expected verdicts and severities;
3. every refutation's witness recomputed here by separate code (a few lines of mpmath written
   from the paper, not calling the checkers);
4. every new checker can fail: a mutated statement fed to the same checking code is rejected,
   and the true statement passes.
"""
from __future__ import annotations

import re
from pathlib import Path

import mpmath as mp
import pytest

from claims_once import claim_results
from gpaudit.papers import polyplace as pp
from gpaudit.papers.registry import REGISTRY, run_one

PAPER = Path("/work/shared/papers/hladik-tetek-polyplace.md")
METHODS = {"proof", "exact", "enclosure", "exhaustive", "adversarial", "sweep"}


@pytest.fixture(autouse=True)
def _prec():
    with mp.workdps(50):
        yield


@pytest.fixture(scope="module")
def results():
    return {r.claim_id: r for r in claim_results("polyplace")}


def W(r, k):
    return mp.mpf(r.witness[k])


# --------------------------------------------------------------------------------------
# 1. quotes, readings, methods, severities
# --------------------------------------------------------------------------------------
def _norm(s):
    return re.sub(r"\s+", " ", s).strip()


@pytest.mark.slow  # the whole paper's claims (about 7 s), read by these tests
def test_quotes_are_verbatim_and_complete(results):
    text = _norm(PAPER.read_text()) if PAPER.exists() else None
    for cid, r in results.items():
        assert r.quote and r.reading, cid
        assert r.method in METHODS, (cid, r.method)
        if text is not None:
            for piece in r.quote.split(" [...] "):
                assert _norm(piece) in text, (cid, piece[:80])
        if r.verdict != "verified":
            assert r.severity in ("error", "minor", "typo"), cid
        if r.severity == "typo":
            assert r.intended, cid
        assert not r.evidence.startswith("checker error"), (cid, r.evidence)


EXPECTED = {
    "Lemma 7": ("verified", None), "Lemma 7 (proof, antiderivatives I_1, I_2)": ("verified", None),
    "Eq. (2) (scaling)": ("verified", None), "Lemma 10": ("verified", None),
    "Lemma 10 (proof, Eq. (11))": ("refuted", "typo"), "Lemma 11": ("verified", None), "Lemma 12": ("verified", None),
    "Lemma 13": ("refuted", "minor"), "Lemma 13 (proof, antiderivatives)": ("verified", None),
    "Lemma 13 (proof, final display)": ("refuted", "typo"), "Corollary 14": ("verified", None),
    "Theorem 8 (privacy)": ("verified", None), "Lemma 9 (proof, bound on lambda_s)": ("refuted", "typo"),
    "Lemma 9 (proof, step (8))": ("refuted", "minor"), "Lemma 15": ("verified", None),
    "Lemma 15 (proof, display of f_2)": ("refuted", "typo"),
    "Remark after Corollary 14 (Laplace variance)": ("verified", None),
    "Claim 16": ("verified", None), "Claim 17": ("verified", None), "Claim 18 (std and range)": ("refuted", "typo"),
    "Claim 18 (premise: NRS Laplace scaling)": ("verified", None),
    "Introduction (improvement over Student's T)": ("verified", None), "Introduction (range of gamma)": ("verified", None),
    "Introduction (improvement over Laplace)": ("verified", None),
}


@pytest.mark.slow
def test_expected_verdicts_and_severities(results):
    assert set(results) == set(EXPECTED)
    for cid, (v, sev) in EXPECTED.items():
        assert (results[cid].verdict, results[cid].severity) == (v, sev), (cid, results[cid].evidence)


# --------------------------------------------------------------------------------------
# 3. witnesses recomputed by separate code (own density, written from Definition 6)
# --------------------------------------------------------------------------------------
def f_pp(x, s, a):
    x, s, a = abs(mp.mpf(x)), mp.mpf(s), mp.mpf(a)
    norm = a / (2 * (2 * ((a - 1) / a) ** a + a - 1) * s)
    if x < s / a:
        return norm * (a - 1) * (1 - x / s) ** (a - 1)
    return norm * (a + 1) * (1 - 1 / a ** 2) ** a * (1 + x / s) ** (-a - 1)


def rc_lemma13(r):
    a = W(r, "alpha")
    v = 2 * (1 / a + 1) ** (-a) * ((19 * a ** 2 + 5) * (1 - 1 / a ** 2) ** a + (a - 2) * (a - 1) ** 2 * (1 / a + 1) ** a) / \
        ((2 * ((a - 1) / a) ** a + a - 1) * (a ** 4 - 5 * a ** 2 + 4))
    assert abs(v - W(r, "formula_variance")) < mp.mpf(10) ** -20 and v < 0
    # the second moment over [0, R] grows without bound (tail ~ R^(2 - alpha))
    m = [2 * mp.quad(lambda x: x * x * f_pp(x, 1, a), [0, 1 / a, 1, R]) for R in (10 ** 3, 10 ** 6)]
    assert m[1] > 10 * m[0] > 0


def rc_lemma13_display(r):
    a = W(r, "alpha")
    var = 2 * mp.quad(lambda x: x * x * f_pp(x, 1, a), [0, 1 / a, 1, 100, mp.inf])
    assert abs(var - W(r, "true_variance")) < mp.mpf(10) ** -20
    assert abs(var - 2 * W(r, "printed_fraction")) < mp.mpf(10) ** -20


def rc_lemma9(r):
    g, SS, SSp, dq = W(r, "gamma"), W(r, "SS_D"), W(r, "SS_D_prime"), W(r, "q_diff")
    assert SSp <= mp.exp(g) * SS * (1 + mp.mpf(10) ** -20) and dq <= min(SS, SSp)
    assert dq / SS > min(1, SS / SSp)


def rc_lemma9_step8(r):
    g, e, xp, lr = W(r, "gamma"), W(r, "eps"), W(r, "x_prime"), W(r, "lambda_r")
    s, a = 1 / g, e / g
    # (7) with lambda_s = 0 is the log density ratio itself
    seven = mp.log(f_pp(xp, mp.exp(lr * g) / g, a) / f_pp(xp, s, a))
    # X(y) = d/dl log f_{e^{l g}/g, a}(y) at l = 0, by a central difference of the own density (no Lemma 10)
    h = mp.mpf(10) ** -20

    def X(y):
        return (mp.log(f_pp(y, mp.exp(h * g) / g, a)) - mp.log(f_pp(y, mp.exp(-h * g) / g, a))) / (2 * h)
    eight = mp.quad(lambda t: lr * abs(X(mp.exp(-lr * t * g) * xp)), [0, 1])
    assert abs(seven - W(r, "exponent_7")) < mp.mpf(10) ** -15 and seven > 0 > eight
    assert seven > eight


def rc_lemma10_eq11(r):
    a, s, x = W(r, "alpha"), W(r, "s"), W(r, "x")
    h = mp.mpf(10) ** -20
    d = (mp.log(f_pp(x + h, s, a)) - mp.log(f_pp(x - h, s, a))) / (2 * h)
    assert abs(d - (-(a + 1) / (x + s))) < mp.mpf(10) ** -15
    assert abs(d - (-(a - 1) / (x + s))) > mp.mpf("0.1")


def rc_lemma15_f2(r):
    a, e, x, g = W(r, "a"), W(r, "eps"), W(r, "x"), W(r, "gamma")
    u = x * g / a
    ratio = (1 + u) ** (-e / g - 1) / ((1 + u) ** (-e / g) * (1 + u) ** (-e / g))
    assert abs(ratio - mp.e) < mp.mpf(10) ** -6


def rc_claim18(r):
    e, dl, g = W(r, "eps"), W(r, "delta"), W(r, "gamma")
    assert g < e / mp.log(1 / dl) and e - g * mp.log(2 / dl) < 0
    assert W(r, "claimed_std") < 0


PP_RECHECK = {
    ("polyplace", "Lemma 10 (proof, Eq. (11))"): rc_lemma10_eq11,
    ("polyplace", "Lemma 9 (proof, step (8))"): rc_lemma9_step8,
    ("polyplace", "Lemma 15 (proof, display of f_2)"): rc_lemma15_f2,
}
_ALL = dict(PP_RECHECK)
_ALL.update({("polyplace", "Lemma 13"): rc_lemma13, ("polyplace", "Lemma 13 (proof, final display)"): rc_lemma13_display,
             ("polyplace", "Lemma 9 (proof, bound on lambda_s)"): rc_lemma9, ("polyplace", "Claim 18 (std and range)"): rc_claim18})


@pytest.mark.slow
def test_every_refutation_rechecked_here(results):
    refuted = {("polyplace", c) for c, r in results.items() if r.verdict == "refuted"}
    assert refuted == set(_ALL)


@pytest.mark.slow
@pytest.mark.parametrize("key", sorted(_ALL))
def test_witness_recomputed(results, key):
    r = results[key[1]]
    assert r.verdict == "refuted" and r.witness
    _ALL[key](r)


# --------------------------------------------------------------------------------------
# 4. the checkers can fail (mutations) and pass on the true statements
# --------------------------------------------------------------------------------------
def test_mutation_lemma7_normaliser():
    assert pp.lemma7_proof()[0] and not pp.lemma7_proof("norm")[0]


def test_mutation_eq2_without_factor_c():
    assert all(d == 0 for d in pp.eq2_proof()) and not all(d == 0 for d in pp.eq2_proof("noc"))


def test_mutation_lemma10_printed_eq11_fails_the_proof():
    assert pp.lemma10_proof()[0] and not pp.lemma10_proof("eq11")[0]


def test_mutation_lemma12_wrong_total():
    assert pp.lemma12_proof()[0] and not pp.lemma12_proof(1)[0]


def test_mutation_lemma13_coefficient():
    assert pp.lemma13_proof()[0] and not pp.lemma13_proof(18)[0]


def test_mutation_lemma13_antiderivative():
    assert pp.lemma13_antiderivs(True).verdict == "verified"
    assert pp.lemma13_antiderivs(True, k=3).verdict == "refuted"


def test_mutation_cor14_constant():
    import sympy as sp
    k0, k1, ok = pp.cor14_series()
    assert ok and k0 == 1
    assert sp.simplify(k1 - (-(3 * sp.E - 16) / sp.E)) != 0


def test_mutation_lemma9_printed_bound_does_not_suffice():
    ok, parts = pp.lemma9_bounds_z3()
    assert ok and parts["i"] and parts["ii"]
    okp, partsp = pp.lemma9_bounds_z3(True)
    assert not okp and not partsp["ii"]


def test_mutation_student_t_bound():
    assert pp.t_improvement_proof() and not pp.t_improvement_proof(-1)


def test_theorem8_decomposition_of_eq7():
    assert pp.thm8_decomposition() < mp.mpf(10) ** -20


def test_student_t_ratio_grows():
    g1, g2 = mp.mpf(1) / 3 * (1 - mp.mpf(10) ** -2), mp.mpf(1) / 3 * (1 - mp.mpf(10) ** -4)
    r1, r2 = pp.t_std_opt(g1) / pp.pp_std_unit(g1), pp.t_std_opt(g2) / pp.pp_std_unit(g2)
    assert 1 < r1 < r2 and r2 > 1000
    # independent lower bound sqrt((alpha-1)/(alpha-3))/eps on the optimal Student's T std
    a = 1 / g2
    assert pp.t_std_opt(g2) > mp.sqrt((a - 1) / (a - 3))


def test_lemma9_step8_holds_for_positive_lambda_r():
    # same computation with lambda_r = +1 (SS' = e^gamma SS): no violation of the first line of (8)
    g, e, xp, lr = mp.mpf(1) / 2, mp.mpf(1), mp.mpf(1) / 10, mp.mpf(1)
    a = e / g
    seven = mp.log(pp.pp_pdf(xp, mp.exp(lr * g) / g, a)) - mp.log(pp.pp_pdf(xp, 1 / g, a))
    X = lambda y: mp.diff(lambda l: mp.log(pp.pp_pdf(y, mp.exp(l * g) / g, a)), 0)
    eight = mp.quad(lambda t: lr * abs(X(mp.exp(-lr * t * g) * xp)), [0, 1])
    assert seven <= eight + mp.mpf(10) ** -30


def test_intro_range_mutation_large_delta():
    # with delta = 1/2 the Laplace range eps/log(2/delta) exceeds eps/2: the same comparison fails
    assert 1 / mp.log(2 / mp.mpf("0.5")) > mp.mpf(1) / 2
    assert 1 / mp.log(2 / mp.mpf(10) ** -5) < mp.mpf(1) / 2


def test_claim18_intended_range_positive():
    e, dl = mp.mpf(1), mp.mpf(10) ** -5
    for frac in ("0.1", "0.5", "0.999"):
        g = mp.mpf(frac) * e / mp.log(2 / dl)
        assert mp.sqrt(2) / (e - g * mp.log(2 / dl)) > 0


def test_mutation_laplace_comparison():
    # true comparison passes; against Laplace with the full budget eps (no smoothness loss), PolyPlace is worse
    w, _ = pp.lap_ratio_min(60)
    assert w > 1
    wm, _ = pp.lap_ratio_min(60, comparator=lambda g: mp.sqrt(2))
    assert wm < 1


def test_mutation_cauchy_and_student_moments():
    assert all(v == 0 for v in pp.cauchy_moments_sympy()) and pp.cauchy_moments_sympy(1)[1] != 0
    assert pp.student_var_sympy() == 0 and pp.student_var_sympy(1) != 0


def test_remark_after_corollary14_per_unit_ss_squared():
    """Verified per unit SS^2 (Appendix B's convention): Var Lap(SS/eps) / SS^2 = 2/eps^2, by quadrature here."""
    for SS, e in ((mp.mpf(2), mp.mpf(1)), (mp.mpf("0.3"), mp.mpf("2.5"))):
        b = SS / e
        var = 2 * mp.quad(lambda y: y * y * mp.exp(-y / b) / (2 * b), [0, mp.inf])
        assert abs(var / SS ** 2 - 2 / e ** 2) < mp.mpf(10) ** -30
    r = run_one(next(c for c in REGISTRY if c.claim_id == "Remark after Corollary 14 (Laplace variance)"))
    assert r.verdict == "verified" and r.readings[0].holds and not r.readings[1].holds

