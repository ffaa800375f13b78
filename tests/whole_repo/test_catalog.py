"""The catalog: every broken variant refuted with a witness that an independent high-precision
recomputation confirms; no valid variant ever refuted; every verdict, bound and witness the one
recorded in reports/baseline.json; the committed reports/ decided by the current code."""

import json
import shutil
from pathlib import Path

import mpmath as mp
import pytest

import independent as ind
from gpaudit.cli import main
from gpaudit.provenance import code_sha256
from gpaudit.report.catalog import (BASELINE, BASELINE_EFFORT, REGENERATE, REGENERATE_BASELINE, baseline_differences,
                                    baseline_json, catalog_configs, config_identity, decision, dir_name, index_markdown,
                                    load_catalog_baseline, stale, stale_baseline)
from gpaudit.report.directory import write_report
from gpaudit.verdict import EXIT_CODES, Result


@pytest.fixture(autouse=True)
def _reference_precision():
    """The independent recomputations compare at 60 digits, set per test: the catalog itself is
    checked (in module fixtures) at the precision the command line uses."""
    with mp.workdps(ind.DPS):
        yield

ROOT = Path(__file__).resolve().parents[2]
VALID = sorted((ROOT / "examples").glob("*.yaml"))
BROKEN = sorted((ROOT / "examples" / "broken").glob("*.yaml"))

with mp.workdps(ind.DPS):  # module constants at the reference precision (not a global setting)
    ETA_PAPER = (mp.mpf(2) / 3) / (mp.mpf(4) / (2 * mp.sqrt(3)))  # nu = 3, eps = 1 (Section 5)
    NINE_TENTHS = mp.mpf(9) / 10
    LAUD_B_COUNT3, LAUD_B_BETA, LAUD_ALPHA_T1 = mp.mpf(19) / 100, mp.mpf(1) / 10, mp.mpf(1) / 80
    ETA_LEMMA_3_6 = 1 - mp.log(10**6) / 20   # threshold-laplace-approx: eps - gamma ln(10^6)
    LAUD_B_THM4 = mp.mpf(3) / 10
    ETA_DIFFPRIVLIB = mp.mpf(1) / 2 - mp.log(mp.mpf(99) / 100)   # eps - ln(1 - delta), (0.5, 0.01)
    ETA_GAUSS_LOG10 = 1 / mp.sqrt(2 * mp.log10(mp.mpf(5) / 4 * 10**5))  # sigma with log10 for ln


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
    "broken-threshold-laplace-approx-small-delta": (st, lambda x: _linear_lemma_4_1(x, mp.mpf(1) / 20),
                                                    ETA_LEMMA_3_6, ind.laplace_logpdf, 1),
    # fixed-scale noise on the identity query (the exact profile's catalog entries)
    "broken-diffprivlib-laplace-approx-delta-below-profile": (lambda x: x, lambda x: mp.mpf(1), ETA_DIFFPRIVLIB,
                                                              ind.laplace_logpdf, mp.mpf(1) / 2),
    "broken-gaussian-approx-log10-sigma": (lambda x: x, lambda x: mp.mpf(1), ETA_GAUSS_LOG10,
                                           ind.gaussian_logpdf, 1),
    # Laud et al.: (f, B, eta, log-density, epsilon, metric)
    "laud-thm3-count3-linf-wrong-dual": (lambda x: ind.sigmoid_count(x, mp.mpf(1) / 100),
                                         lambda x: ind.sigmoid_slope_max(x, mp.mpf(1) / 100),
                                         LAUD_B_COUNT3, lambda u: ind.gen_cauchy_logpdf(u, 4), 1,
                                         "linf"),
    "laud-thm3-beta-below-smoothness": (lambda x: ind.sigmoid_count(x, mp.mpf(1)),
                                        lambda x: ind.sigmoid_slope_max(x, mp.mpf(1)),
                                        LAUD_B_BETA, lambda u: ind.gen_cauchy_logpdf(u, 4), 1,
                                        "l1"),
    "laud-thm1-large-gamma": (lambda x: ind.sigmoid_count(x, mp.mpf(1) / 20),
                              lambda x: ind.sigmoid_slope_max(x, mp.mpf(1) / 20),
                              LAUD_ALPHA_T1, lambda u: ind.gen_cauchy_logpdf(u, 20), 1, "l1"),
    # bound.kind: derived (gpaudit/model/derive.py) for f = e^x1 + e^x2: h = max_i e^(x_i), 1-smooth,
    # against the claimed gamma = 1/10; b = 1/5 - 1/10
    "laud-derived-exp-rate-above-gamma": (lambda x: mp.fsum(mp.exp(v) for v in x),
                                          lambda x: max(mp.exp(v) for v in x),
                                          LAUD_B_BETA, lambda u: ind.gen_cauchy_logpdf(u, 4), 1, "l1"),
    # output.dim 2: (f, B, eta, ln of the radial density c_2 h(r), epsilon); y is a list
    "planar-laplace-smaller-epsilon": (lambda x: list(x), lambda x: 1, mp.mpf(1) / 10,
                                       lambda r: -r - mp.log(2 * mp.pi), mp.mpf(9) / 100),
    "linear-map-max-entry": (lambda x: [2 * x[0] + x[1], x[0] + 2 * x[1]], lambda x: 2, mp.mpf(1) / 2,
                             lambda r: -r - mp.log(2 * mp.pi), mp.mpf(1) / 2),
    "broken-laud-thm4-beta-below-smoothness": (lambda x: ind.sigmoid_count(x, mp.mpf(1) / 2),
                                               lambda x: ind.sigmoid_slope_max(x, mp.mpf(1) / 2),
                                               LAUD_B_THM4, ind.laplace_logpdf, 1, "l1"),
}


def _linear_lemma_4_1(x, gamma):
    rho = abs(x) - mp.mpf(1) / 2
    return mp.mpf(1) if rho <= 0 else max(1 / (rho + 1), 1 / (1 + gamma * rho))


# the two slowest certificates (about 13 s of the catalog's CPU time): checked with --slow
SLOW = {"two-way-student-t", "laud-thm3-sum2-l1-derived"}


@pytest.fixture(scope="module")
def reports(request, tmp_path_factory):
    """The catalog configurations the selected tests of this module read (all of them with
    --slow), checked once by the command line in two worker processes (-j 2), as a CI gate would;
    each file's exit code is the one a run on that file alone gives.  The quick effort refutes
    every broken variant (the standard one is the benchmark's and the reports')."""
    wanted = {item.callspec.params["path"] for item in request.session.items
              if item.module is request.module and "reports" in item.fixturenames
              and "path" in getattr(getattr(item, "callspec", None), "params", {})}
    # the longest check first, so that the two workers finish together
    paths = sorted([p for p in VALID + BROKEN if p in wanted] or VALID + BROKEN,
                   key=lambda p: (p.stem not in SLOW, p.stem != "two-way-student-t"))
    js = tmp_path_factory.mktemp("reports") / "catalog.json"
    code = main(["check", *map(str, paths), "--json", str(js), "--quiet", "-j", "2", "--effort", BASELINE_EFFORT])
    results = json.loads(js.read_text())
    results = results if len(paths) > 1 else [results]     # one file: one JSON object
    assert [r["file"] for r in results] == [str(p) for p in paths]
    assert code == max(EXIT_CODES[r["verdict"]] for r in results)  # the worst verdict's exit code
    return {p: (EXIT_CODES[r["verdict"]], r) for p, r in zip(paths, results)}


@pytest.mark.parametrize("path", BROKEN, ids=lambda p: p.stem)
def test_broken_variant_refuted_with_independently_verified_witness(reports, path):
    code, rep = reports[path]
    assert code == 1 and rep["verdict"] == "refuted"
    verify_witness(rep)


def verify_witness(rep):
    """The report's witness refutes its claim, recomputed by the independent reference
    implementations (tests/independent.py) at high precision."""
    w = rep["witness"]
    assert w is not None
    name = rep["name"]
    f, B, eta, logh, eps, *metric = REFERENCE[name]
    if "hockey_stick" in w:  # the approximate claim: recompute the divergence by quadrature
        conv = (lambda v: mp.mpf(v[0])) if len(w["x"]) == 1 else (lambda v: [mp.mpf(c) for c in v])
        x, xp = conv(w["x"]), conv(w["x_prime"])
        hs = ind.hockey_stick(f, B, eta, logh, x, xp, eps, w["set"], *metric)
        assert hs > eval_claim(rep["claim"]["delta"]), hs
        assert abs(hs - mp.mpf(w["hockey_stick"])) < mp.mpf(10) ** -20
        return
    dim = len(w["x"])
    if isinstance(w["y"], list):   # output.dim k: the radial density at ||y - f(x)||_2 / b
        x, xp, y = ([mp.mpf(c) for c in w[key]] for key in ("x", "x_prime", "y"))
        k = len(y)

        def logp(z):
            b = B(z) / eta
            return logh(mp.sqrt(mp.fsum((a - c) ** 2 for a, c in zip(y, f(z)))) / b) - k * mp.log(b)
        lr = logp(x) - logp(xp)
        assert lr > eps * ind.distance(x, xp, *metric), lr
        assert abs(lr - mp.mpf(w["log_ratio"])) < mp.mpf(10) ** -20 * max(1, abs(lr))
        return
    conv = (lambda v: mp.mpf(v[0])) if dim == 1 else (lambda v: tuple(mp.mpf(c) for c in v))
    x, xp, y = conv(w["x"]), conv(w["x_prime"]), mp.mpf(w["y"])
    lr = ind.log_ratio(f, B, eta, logh, x, xp, y)
    dist = abs(x - xp) if dim == 1 else ind.distance(x, xp, *metric)
    assert lr > eps * dist, (lr, eps * dist)
    assert abs(lr - mp.mpf(w["log_ratio"])) < mp.mpf(10) ** -20 * max(1, abs(lr))
    assert mp.mpf(rep["epsilon_lower"]) > eps


@pytest.mark.parametrize("path", [pytest.param(p, marks=pytest.mark.slow) if p.stem in SLOW else p for p in VALID],
                         ids=lambda p: p.stem)
def test_valid_variant_certified(reports, path):
    code, rep = reports[path]
    assert code == 0 and rep["verdict"] == "certified" and rep["witness"] is None
    upper, claim = mp.mpf(rep["epsilon_upper"]), eval_claim(rep["claim"]["epsilon"])
    assert upper <= claim
    if rep["epsilon_lower"] is not None and rep["claim"]["delta"] == "0":
        assert mp.mpf(rep["epsilon_lower"]) <= upper


@pytest.mark.parametrize("path", [pytest.param(p, marks=pytest.mark.slow) if p.stem in SLOW else p
                                  for p in VALID + BROKEN], ids=lambda p: p.parent.name + "/" + p.stem)
def test_verdict_bounds_and_witness_as_in_the_baseline(reports, path):
    """The run of the catalog (the fixture's one run) gives each configuration the verdict and
    certified bound reports/baseline.json records, to the last digit, and the exhibited bound and
    witness to the search's last digits (gpaudit.report.catalog.SEARCH_RTOL)."""
    _, rep = reports[path]
    assert baseline_differences([rep], load_catalog_baseline(ROOT), ROOT) == []


def test_the_baseline_holds_every_catalog_configuration_at_its_sha256():
    assert (ROOT / BASELINE).is_file(), f"{BASELINE} missing; generate it with `{REGENERATE_BASELINE}`"
    assert stale_baseline(ROOT) == []
    assert [e["file"] for e in load_catalog_baseline(ROOT)] == [p.relative_to(ROOT).as_posix()
                                                                for p in catalog_configs(ROOT)]


def test_baseline_differences_name_every_change(tmp_path):
    """A moved bound, another verdict or witness, a changed or new configuration: each is named;
    the baseline file is a list of JSON-report entries that `gpaudit check --baseline` reads."""
    rep = {"name": "n", "file": str(tmp_path / "examples" / "n.yaml"), "config_sha256": "a" * 64,
           "code_sha256": "c" * 64, "verdict": "certified", "epsilon_upper": "0.5", "epsilon_lower": "0.49",
           "witness": None, "claim": {"epsilon": "1", "delta": "0"}}
    base = json.loads(baseline_json([rep], tmp_path))
    assert base == [{"name": "n", "file": "examples/n.yaml", "config_sha256": "a" * 64, "verdict": "certified",
                     "epsilon_upper": "0.5", "epsilon_lower": "0.49", "witness": None, "effort": BASELINE_EFFORT}]
    assert baseline_differences([rep], base, tmp_path) == []
    assert baseline_differences([{**rep, "code_sha256": "d" * 64}], base, tmp_path) == []   # code alone: nothing
    for key, value in (("epsilon_lower", "0.4900000000001"), ("epsilon_lower", "0.490000000000000000001")):
        assert baseline_differences([{**rep, key: value}], base, tmp_path) == []   # the search's last digits
    for key, value in (("epsilon_upper", "0.5000000000000001"), ("epsilon_lower", "0.4900001"),
                       ("epsilon_lower", None), ("verdict", "unknown"), ("witness", {"x": ["1"]})):
        problems = baseline_differences([{**rep, key: value}], base, tmp_path)
        assert len(problems) == 1 and problems[0].startswith(f"n: {key} ") and REGENERATE_BASELINE in problems[0]
    witness = {"x": ["0.5"], "y": "3", "log_ratio": "2.0"}
    with_witness = json.loads(baseline_json([{**rep, "witness": witness}], tmp_path))
    for near in ({"x": ["0.5000000000001"], "y": "3", "log_ratio": "2.0"}, {"x": ["0.5"], "y": "3", "log_ratio": "2"}):
        assert baseline_differences([{**rep, "witness": near}], with_witness, tmp_path) == []
    for far in ({"x": ["0.51"], "y": "3", "log_ratio": "2.0"}, {"x": ["0.5"], "y": "3"},
                {"x": ["0.5", "0"], "y": "3", "log_ratio": "2.0"}, {**witness, "y": "nan"}):
        assert len(baseline_differences([{**rep, "witness": far}], with_witness, tmp_path)) == 1, far
    assert "changed since" in baseline_differences([{**rep, "config_sha256": "b" * 64}], base, tmp_path)[0]
    assert "not in" in baseline_differences([{**rep, "name": "m"}], base, tmp_path)[0]
    from gpaudit.report.baseline import compare
    assert compare([{**rep, "epsilon_upper": "0.6"}], base) == ["n: certified epsilon_upper increased: 0.5 -> 0.6"]


def test_report_baseline_only_writes_the_baseline(tmp_path):
    """`gpaudit report --catalog --baseline-only` writes reports/baseline.json alone, and the file
    is fresh for that root; a stale entry is named."""
    cfg = tmp_path / "examples" / "broken" / "threshold-laplace-pure.yaml"
    cfg.parent.mkdir(parents=True)
    shutil.copy(ROOT / "examples" / "broken" / "threshold-laplace-pure.yaml", cfg)
    assert main(["report", "--catalog", "--baseline-only", "--root", str(tmp_path), "-q"]) == 0
    assert sorted(p.relative_to(tmp_path).as_posix() for p in (tmp_path / "reports").rglob("*")) == [
        "reports/baseline.json"]
    (entry,) = load_catalog_baseline(tmp_path)
    assert entry["file"] == "examples/broken/threshold-laplace-pure.yaml" and entry["verdict"] == "refuted"
    assert entry["witness"] and stale_baseline(tmp_path) == []
    cfg.write_text(cfg.read_text() + "\n# edited\n")
    assert len(stale_baseline(tmp_path)) == 1 and "regenerate with" in stale_baseline(tmp_path)[0]
    assert main(["report", "--baseline-only"]) == 2                     # without --catalog: bad usage


def eval_claim(text):
    """A claim's exact string (a rational, or an expression such as 2*exp(-14)) at the reference precision."""
    import sympy as sp
    return mp.mpf(sp.N(sp.sympify(text), ind.DPS + 10))


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


# ---------------------------------------------------------------------------------------------
# reports/ pinned to the code that decided it


def test_check_json_records_the_code_identity(reports):
    assert {rep["code_sha256"] for _, rep in reports.values()} == {code_sha256()}


@pytest.mark.parametrize("path", [pytest.param(p, marks=pytest.mark.slow) if p.stem in SLOW else p
                                  for p in VALID + BROKEN], ids=lambda p: p.parent.name + "/" + p.stem)
def test_committed_report_decided_the_same_by_the_current_code(reports, path):
    """A committed report is pinned to its decision, not to the code as a whole: the catalog's run
    today decides its configuration the same way (the verdict, the claim, and for a certified one the
    bound and the certificate the kernel accepted, digit for digit), and a committed witness still
    refutes, recomputed independently.  A change of code that moves no decision leaves it fresh."""
    name, _ = config_identity(path)
    report = ROOT / "reports" / dir_name(name) / "report.json"
    rel = report.relative_to(ROOT).as_posix()
    assert report.is_file(), f"{rel} missing; regenerate with `{REGENERATE}`"
    committed = json.loads(report.read_text())
    _, now = reports[path]
    assert decision(committed) == decision(now), (f"{rel} is stale: the current code decides {name} otherwise; "
                                                  f"regenerate with `{REGENERATE}`")
    if committed["verdict"] == "refuted":
        verify_witness(committed)


def test_a_report_that_decides_the_same_is_kept_as_written(tmp_path):
    """`gpaudit report --catalog` (keep_same) leaves report.json and report.md of a configuration the
    current code decides the same as they are, whatever code wrote them, and writes one again where
    the decision moved."""
    from gpaudit.report import catalog as cat
    cfg = tmp_path / "examples" / "threshold-laplace-global.yaml"
    cfg.parent.mkdir(parents=True)
    shutil.copy(ROOT / "examples" / cfg.name, cfg)
    written = cat.regenerate(tmp_path, effort="quick")
    d = tmp_path / "reports" / "threshold-laplace-global"
    before = {n: (d / n).read_text() for n in ("report.json", "report.md")}
    assert d / "report.json" in written and stale(tmp_path) == []
    data = json.loads(before["report.json"])
    data["code_sha256"] = "f" * 64                      # written by other code, decided the same
    md = before["report.md"].replace(code_sha256(), "f" * 64)
    (d / "report.json").write_text(json.dumps(data, indent=2))
    (d / "report.md").write_text(md)
    kept = {n: (d / n).read_text() for n in before}
    written = cat.regenerate(tmp_path, effort="quick")
    assert {n: (d / n).read_text() for n in before} == kept and d / "report.json" not in written
    assert (d / "report.html").is_file() and stale(tmp_path) == []
    assert "f" * 64 in (tmp_path / "reports" / "README.md").read_text()       # the index lists the kept report
    data["epsilon_upper"] = "0.5"                        # a decision that moved: written again
    (d / "report.json").write_text(json.dumps(data, indent=2))
    written = cat.regenerate(tmp_path, effort="quick")
    again = json.loads((d / "report.json").read_text())
    assert d / "report.json" in written and again["code_sha256"] == code_sha256()
    assert decision(again)["epsilon_upper"] == json.loads(before["report.json"])["epsilon_upper"]


def test_stale_names_what_changed_without_a_run(tmp_path):
    """stale() sees what needs no run: a missing file, a changed configuration, a report.md not
    written with the report.json beside it.  Another code identity alone is not stale."""
    cfg = tmp_path / "examples" / "broken" / BROKEN[0].name
    cfg.parent.mkdir(parents=True)
    shutil.copy(BROKEN[0], cfg)
    assert catalog_configs(tmp_path) == [cfg]
    name, sha = config_identity(cfg)
    result = Result(name, cfg.relative_to(tmp_path).as_posix(), sha, "unknown", {"epsilon": "1", "delta": "0"})
    write_report(result, None, tmp_path / "reports" / dir_name(name))
    (tmp_path / "reports" / "README.md").write_text(index_markdown([result]))
    assert stale(tmp_path) == []
    for built in (tmp_path / "reports").rglob("*"):           # HTML and figures are built on demand
        if built.suffix in (".html", ".png"):
            built.unlink()
    assert stale(tmp_path) == []
    d = f"reports/{dir_name(name)}"
    (tmp_path / d / "report.md").unlink()
    assert stale(tmp_path) == [f"{name}: {d}/report.md missing"]
    write_report(result, None, tmp_path / d)
    report = tmp_path / d / "report.json"
    data = json.loads(report.read_text())
    data["code_sha256"] = "f" * 64                  # other code wrote the report.json than the report.md
    report.write_text(json.dumps(data))
    problems = stale(tmp_path)
    assert len(problems) == 1 and f"{d}/report.md was not written with the report.json" in problems[0], problems
    assert REGENERATE in problems[0]
    md = tmp_path / d / "report.md"
    md.write_text(md.read_text().replace(code_sha256(), "f" * 64))    # both by the other code: fresh
    assert stale(tmp_path) == []
    cfg.write_text(cfg.read_text() + "\n# an edit\n")
    problems = stale(tmp_path)
    assert any("changed since its report" in p for p in problems) and any("no row for" in p for p in problems)
