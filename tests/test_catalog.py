"""The catalog: every broken variant refuted with a witness that an independent high-precision
recomputation confirms; no valid variant ever refuted."""

import json
from pathlib import Path

import mpmath as mp
import pytest

import independent as ind
from gpaudit.cli import main
from gpaudit.verdict import EXIT_CODES


@pytest.fixture(autouse=True)
def _reference_precision():
    """The independent recomputations compare at 60 digits, set per test: the catalog itself is
    checked (in module fixtures) at the precision the command line uses."""
    with mp.workdps(ind.DPS):
        yield

ROOT = Path(__file__).resolve().parents[1]
VALID = sorted((ROOT / "examples").glob("*.yaml"))
BROKEN = sorted((ROOT / "examples" / "broken").glob("*.yaml"))

with mp.workdps(ind.DPS):  # module constants at the reference precision (not a global setting)
    ETA_PAPER = (mp.mpf(2) / 3) / (mp.mpf(4) / (2 * mp.sqrt(3)))  # nu = 3, eps = 1 (Section 5)
    NINE_TENTHS = mp.mpf(9) / 10


def _piecewise_jump(x):
    return mp.mpf(1) if x < 3 else mp.mpf(1) / 2


def _pointwise(x):
    return mp.mpf(1) if abs(x) <= mp.mpf(1) / 2 else 1 / (abs(x) + mp.mpf(1) / 2)


t3 = lambda u: ind.student_t_logpdf(u, 3)  # noqa: E731
st = ind.soft_threshold
REFERENCE = {  # name -> (f, B, eta, log-density, epsilon)
    "broken-threshold-student-t-too-much-eta": (st, lambda x: ind.lemma_4_1(x, mp.mpf(1) / 9), 2 * ETA_PAPER, t3, 1),
    "broken-threshold-student-t-large-gamma": (st, lambda x: ind.lemma_4_1(x, mp.mpf(1) / 2), ETA_PAPER, t3, 1),
    "broken-threshold-laplace-pure": (st, lambda x: ind.lemma_4_1(x, mp.mpf(1) / 10), NINE_TENTHS,
                                      ind.laplace_logpdf, 1),
    "broken-threshold-pointwise-bound": (st, _pointwise, ETA_PAPER, t3, 1),
    "broken-threshold-laplace-small-constant": (st, lambda x: mp.mpf(1) / 2, mp.mpf(1), ind.laplace_logpdf, 1),
    "broken-threshold-bound-jump": (st, _piecewise_jump, ETA_PAPER, t3, 1),
    "broken-two-way-dropped-term": (lambda p: ind.two_way_paper(p, mp.mpf(1), mp.mpf(2), mp.mpf(1) / 2),
                                    ind.two_way_dropped_bound, ETA_PAPER, t3, 1),
}


def _linear_lemma_4_1(x, gamma):
    rho = abs(x) - mp.mpf(1) / 2
    return mp.mpf(1) if rho <= 0 else max(1 / (rho + 1), 1 / (1 + gamma * rho))


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    """The whole catalog, checked once by the command line in two worker processes (-j 2), as a
    CI gate would; each file's exit code is the one a run on that file alone gives.  The quick
    effort refutes every broken variant (the standard one is the benchmark's and the reports')."""
    js = tmp_path_factory.mktemp("reports") / "catalog.json"
    # the longest check first, so that the two workers finish together
    paths = sorted(VALID + BROKEN, key=lambda p: p.stem != "two-way-student-t")
    code = main(["check", *map(str, paths), "--json", str(js), "--quiet", "-j", "2", "--effort", "quick"])
    results = json.loads(js.read_text())
    assert [r["file"] for r in results] == [str(p) for p in paths]
    assert code == 1  # the worst of certified and refuted
    return {p: (EXIT_CODES[r["verdict"]], r) for p, r in zip(paths, results)}


@pytest.mark.parametrize("path", BROKEN, ids=lambda p: p.stem)
def test_broken_variant_refuted_with_independently_verified_witness(reports, path):
    code, rep = reports[path]
    assert code == 1 and rep["verdict"] == "refuted"
    w = rep["witness"]
    assert w is not None
    name = rep["name"]
    if "hockey_stick" in w:  # the approximate claim: recompute the divergence by quadrature
        gamma = mp.mpf(1) / 20
        eta = 1 - gamma * mp.log(10**6)
        x, xp = mp.mpf(w["x"][0]), mp.mpf(w["x_prime"][0])
        hs = ind.hockey_stick(ind.soft_threshold, lambda z: _linear_lemma_4_1(z, gamma), eta,
                              ind.laplace_logpdf, x, xp, 1, w["set"])
        assert hs > mp.mpf(10) ** -12, hs
        assert abs(hs - mp.mpf(w["hockey_stick"])) < mp.mpf(10) ** -20
        return
    f, B, eta, logh, eps = REFERENCE[name]
    dim = len(w["x"])
    conv = (lambda v: mp.mpf(v[0])) if dim == 1 else (lambda v: tuple(mp.mpf(c) for c in v))
    x, xp, y = conv(w["x"]), conv(w["x_prime"]), mp.mpf(w["y"])
    lr = ind.log_ratio(f, B, eta, logh, x, xp, y)
    dist = abs(x - xp) if dim == 1 else mp.sqrt(sum((a - b)**2 for a, b in zip(x, xp)))
    assert lr > eps * dist, (lr, eps * dist)
    assert abs(lr - mp.mpf(w["log_ratio"])) < mp.mpf(10) ** -20 * max(1, abs(lr))
    assert mp.mpf(rep["epsilon_lower"]) > eps


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.stem)
def test_valid_variant_certified(reports, path):
    code, rep = reports[path]
    assert code == 0 and rep["verdict"] == "certified" and rep["witness"] is None
    upper, claim = mp.mpf(rep["epsilon_upper"]), eval_claim(rep["claim"]["epsilon"])
    assert upper <= claim
    if rep["epsilon_lower"] is not None and rep["claim"]["delta"] == "0":
        assert mp.mpf(rep["epsilon_lower"]) <= upper


def eval_claim(text):
    return mp.mpf(text) if "/" not in text else mp.mpf(text.split("/")[0]) / mp.mpf(text.split("/")[1])


def test_paper_region_list_matches_model_two_way():
    """The model's clip((R2 - D)/tau) form of f_tau equals the paper's region-by-region definition."""
    import numpy as np
    from gpaudit.model.queries import two_way_threshold
    from gpaudit.spec.types import input_symbols
    from gpaudit.model.lower import to_mpmath
    import sympy as sp
    T1, T2, tau = sp.Integer(1), sp.Integer(2), sp.Rational(1, 2)
    expr = two_way_threshold(T1, T2, tau)[0]
    f = to_mpmath(expr, input_symbols(2))
    rng = np.random.default_rng(0)
    for p in rng.uniform(-1, 5, size=(3000, 2)):
        p = (mp.mpf(p[0]), mp.mpf(p[1]))
        assert abs(f(p) - ind.two_way_paper(p, mp.mpf(1), mp.mpf(2), mp.mpf(1) / 2)) < mp.mpf(10) ** -40


def test_deterministic_for_a_seed(tmp_path):
    path = BROKEN[0]
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    main(["check", str(path), "--json", str(a), "--quiet", "--seed", "7", "--effort", "quick"])
    main(["check", str(path), "--json", str(b), "--quiet", "--seed", "7", "--effort", "quick"])
    ja, jb = json.loads(a.read_text()), json.loads(b.read_text())
    for k in ("verdict", "witness", "epsilon_lower"):
        assert ja[k] == jb[k]
