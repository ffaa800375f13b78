"""gpaudit sweep: exact grids, points that are what `gpaudit check` checks, resume, Dask, outputs.

Every row is compared with a check of the substituted configuration written to a file (verdict,
epsilon_upper, epsilon_lower, config sha256), never with numbers written down here."""

import csv
import json
import shutil
import sys
from pathlib import Path

import pytest
import sympy as sp
import yaml

from gpaudit import api
from gpaudit.cli import main
from gpaudit.sweep import catalog, worker
from gpaudit.sweep.figure import sweep_png
from gpaudit.sweep.grid import GridError, parse_vary, product
from gpaudit.sweep.points import build_points
from gpaudit.sweep.table import COLUMNS

ROOT = Path(__file__).resolve().parents[2]
STUDENT_T = ROOT / "examples" / "threshold-student-t.yaml"


# -- the grid ------------------------------------------------------------------------------------

def test_listed_values_stay_exact():
    axis = parse_vary("nu=1, 2,5/2,0.1")
    assert axis.name == "nu" and axis.texts == ("1", "2", "5/2", "0.1")
    assert axis.values == (1, 2, sp.Rational(5, 2), sp.Rational(1, 10))


def test_linear_range_is_exact_and_includes_both_ends():
    assert parse_vary("x=1:2:4").texts == ("1", "4/3", "5/3", "2")
    assert parse_vary("x=-1:1:5").texts == ("-1", "-0.5", "0", "0.5", "1")
    assert parse_vary("x=1/3:1/3:1").texts == ("1/3",)
    assert parse_vary("x=1:2:4").values[1] == sp.Rational(4, 3)


def test_log_range_keeps_its_ends_and_rounds_the_rest_to_six_digits():
    assert parse_vary("eta=log:0.01:1:3").texts == ("0.01", "0.1", "1")
    axis = parse_vary("eta=log:1:2:3")
    assert axis.texts == ("1", "1.41421", "2")
    assert axis.values[1] == sp.Rational(141421, 100000)


def test_the_grid_is_the_product_first_option_outermost():
    points = product([parse_vary("a=1,2"), parse_vary("b=3,4,5")])
    assert points == [{"a": "1", "b": "3"}, {"a": "1", "b": "4"}, {"a": "1", "b": "5"},
                      {"a": "2", "b": "3"}, {"a": "2", "b": "4"}, {"a": "2", "b": "5"}]


@pytest.mark.parametrize("option", ["nu", "nu=", "nu=1,,2", "nu=1:2", "nu=1:2:0", "nu=1:2:x", "nu=log:0:1:3",
                                    "nu=log:-1:1:3", "nu=eps", "nu=1,1.0", "nu=1:1:3", "nu=inf", "nu=(1"])
def test_malformed_specs_are_refused(option):
    with pytest.raises(GridError, match="--vary"):
        parse_vary(option)


@pytest.mark.parametrize("vary, says", [
    (["nolikeparam=1,2"], "not a params entry"),
    (["nu=1:2:0"], "count must be"),
    (["nu=log:0:4:3"], "must be positive"),
    (["nu=1,2,"], "empty value"),
    (["nu=3,-1"], "point nu=-1"),                   # a point out of a field's domain
    (["nu=3", "nu=4"], "varied twice"),
])
def test_bad_vary_exits_2_with_one_line_and_writes_nothing(tmp_path, capsys, vary, says):
    out = tmp_path / "out"
    argv = ["sweep", str(STUDENT_T), "--out", str(out), "-j", "1"]
    for v in vary:
        argv += ["--vary", v]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and says in err and "--vary" in err and str(STUDENT_T) in err
    assert not out.exists()


def test_an_invalid_point_stops_the_sweep_before_any_work(tmp_path, capsys, monkeypatch):
    calls = []
    monkeypatch.setattr(worker, "run_point", lambda *a: calls.append(a))
    assert main(["sweep", str(STUDENT_T), "--vary", "nu=3,4,0", "--out", str(tmp_path / "o"), "-j", "1"]) == 2
    assert "nu=0" in capsys.readouterr().err and calls == []


# -- points --------------------------------------------------------------------------------------

def test_a_point_is_the_file_with_the_value_replaced_and_hashes_as_check_does(tmp_path):
    pts = build_points(str(STUDENT_T), product([parse_vary("nu=5/2,3")]), None, None)
    original = STUDENT_T.read_text(encoding="utf-8")
    for p in pts:
        f = tmp_path / f"{p.index}.yaml"
        f.write_bytes(p.text.encode("utf-8"))
        assert api.load(f).sha256 == p.sha256
        assert yaml.safe_load(p.text)["params"]["nu"] in ("5/2", 3)
        # only the value changed: comments and layout kept
        assert [a for a, b in zip(original.splitlines(), p.text.splitlines()) if a != b] in ([], ["  nu: 3"])
    assert pts[0].spec.noise.shape["nu"] == sp.Rational(5, 2)
    assert pts[1].sha256 == api.load(STUDENT_T).sha256       # nu = 3 is the file itself
    # the seed and effort rules of check: the option, else the file's audit section
    assert (pts[0].seed, pts[0].effort) == (api.load(STUDENT_T).audit.seed, api.load(STUDENT_T).audit.effort)
    again = build_points(str(STUDENT_T), product([parse_vary("nu=3")]), 7, "quick")
    assert (again[0].seed, again[0].effort) == (7, "quick")


# -- a sweep against check -----------------------------------------------------------------------

def _csv(path):
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def _same_as_check(tmp_path, rows, name, effort):
    """Each row equals `gpaudit check` of the substituted configuration written to a file."""
    for row in rows:
        sweep_json = row["point_file"]
        text = (Path(sweep_json).with_suffix(".yaml")).read_text(encoding="utf-8")
        f = tmp_path / f"point-{row['params'][name]}.yaml".replace("/", "_")
        f.write_text(text, encoding="utf-8")
        out = tmp_path / "check.json"
        code = main(["check", str(f), "--effort", effort, "--json", str(out), "-q"])
        rep = json.loads(out.read_text())
        assert (row["verdict"], code) == (rep["verdict"], {"certified": 0, "refuted": 1, "unknown": 3}[rep["verdict"]])
        assert row["epsilon_upper"] == rep["epsilon_upper"]
        assert row["epsilon_lower"] == rep["epsilon_lower"]
        assert row["config_sha256"] == rep["config_sha256"]
        assert row["witness"] == rep["witness"]


@pytest.fixture(scope="module")
def eta_sweep(tmp_path_factory):
    """A certified and a refuted point, in this process (-j 1)."""
    out = tmp_path_factory.mktemp("eta")
    code = main(["sweep", str(STUDENT_T), "--vary", "eta=0.3,3", "--out", str(out), "--effort", "quick",
                 "-j", "1", "-q"])
    return code, out


def test_sweep_rows_are_checks_of_the_substituted_files(eta_sweep, tmp_path):
    code, out = eta_sweep
    doc = json.loads((out / "sweep.json").read_text())
    rows = doc["points"]
    for r in rows:
        r["point_file"] = str(out / r["point_file"])
    assert [r["params"] for r in rows] == [{"eta": "0.3"}, {"eta": "3"}]
    assert code == doc["exit_code"] == api.worst_exit(api.EXIT_CODES[r["verdict"]] for r in rows)
    _same_as_check(tmp_path, rows, "eta", "quick")


def test_outputs_exist_and_the_csv_has_its_columns(eta_sweep):
    _, out = eta_sweep
    for name in ("sweep.csv", "sweep.json", "sweep.png", "sweep.html"):
        assert (out / name).stat().st_size > 0
    rows = _csv(out / "sweep.csv")
    assert list(rows[0]) == ["eta", *COLUMNS]
    doc = json.loads((out / "sweep.json").read_text())
    for row, point in zip(rows, doc["points"]):
        assert row["verdict"] == point["verdict"] and row["epsilon_upper"] == (point["epsilon_upper"] or "")
        assert row["config_sha256"] == point["config_sha256"]
        assert (row["witness"] != "") == (point["verdict"] == "refuted")
        if point["paper_constants"]:
            assert row["paper_epsilon"] == point["paper_constants"][0]["epsilon"]
            assert row["paper_source"].startswith("Liang-Yi Lemma 3.5")
    assert (out / "sweep.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    html = (out / "sweep.html").read_text(encoding="utf-8")
    assert "Content-Security-Policy" in html and "data:image/png;base64," in html
    assert "src=\"http" not in html and html.count("<tr>") >= 1 + len(rows)


def test_resume_skips_finished_points(eta_sweep, tmp_path, monkeypatch):
    """A finished point is taken from the store only where that is not evidence: the certified one
    (eta = 0.3) after the kernel accepts its certificate again; the refuted one (eta = 3) is checked
    again."""
    _, done = eta_sweep
    out = tmp_path / "again"
    shutil.copytree(done, out)
    before = _csv(out / "sweep.csv")
    calls = []
    real = worker.run_point

    def counting(*args):
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(worker, "run_point", counting)
    argv = ["sweep", str(STUDENT_T), "--vary", "eta=0.3,3", "--out", str(out), "--effort", "quick", "-j", "1", "-q"]
    (out / "sweep.csv").unlink()
    assert main(argv) == 1
    assert len(calls) == 1 and 'eta: "0.3"' not in calls[0][0]   # the certified point reused ...
    assert _strip_seconds(_csv(out / "sweep.csv")) == _strip_seconds(before)   # ... the outputs the same
    # a point whose file is gone is computed again
    calls.clear()
    first = json.loads((out / "sweep.json").read_text())["points"][0]["point_file"]
    (out / first).unlink()
    assert main(argv) == 1
    assert sorted(c[0].count('eta: "0.3"') for c in calls) == [0, 1]
    assert _strip_seconds(_csv(out / "sweep.csv")) == _strip_seconds(before)
    # a grid that shares the certified point with the finished one reuses it
    calls.clear()
    argv[3] = "eta=0.3"
    assert main(argv) == 0 and calls == []


def test_a_planted_certified_record_is_not_evidence(eta_sweep, tmp_path, monkeypatch):
    """The store holds records, not proofs: the refuted point's file replaced by the certified
    point's record (its certificate, its evidence, the verdict) is checked by the kernel against
    the refuted point's configuration, rejected, and the point computed again: still refuted."""
    _, done = eta_sweep
    out = tmp_path / "planted"
    shutil.copytree(done, out)
    doc = json.loads((out / "sweep.json").read_text())
    good, bad = (out / p["point_file"] for p in doc["points"])
    planted = json.loads(good.read_text())
    kept = json.loads(bad.read_text())
    planted.update(config_sha256=kept["config_sha256"], key=kept["key"], values=kept["values"])
    planted["report"] = dict(planted["report"], config_sha256=kept["config_sha256"])
    bad.write_text(json.dumps(planted))
    assert worker.verdict_of(planted) == "certified"      # the rule table alone would take it
    calls = []
    real = worker.run_point
    monkeypatch.setattr(worker, "run_point", lambda *a: calls.append(a) or real(*a))
    argv = ["sweep", str(STUDENT_T), "--vary", "eta=0.3,3", "--out", str(out), "--effort", "quick", "-j", "1", "-q"]
    assert main(argv) == 1
    rows = json.loads((out / "sweep.json").read_text())["points"]
    assert [r["verdict"] for r in rows] == ["certified", "refuted"] and len(calls) == 1


def _strip_seconds(rows):
    return [{k: v for k, v in r.items() if k != "seconds"} for r in rows]


def test_a_record_is_decided_again_by_the_rule_table(eta_sweep):
    _, out = eta_sweep
    doc = json.loads((out / "sweep.json").read_text())
    rec = json.loads((out / doc["points"][0]["point_file"]).read_text())
    assert worker.verdict_of(rec) == rec["report"]["verdict"] == "certified"
    forged = dict(rec, evidence=dict(rec["evidence"], within_claim=False))
    assert worker.verdict_of(forged) == "unknown"
    refuted = dict(rec, report=dict(rec["report"], verdict="refuted"))
    assert worker.verdict_of(refuted) == "unknown"
    assert worker.verdict_of(dict(rec, evidence=None)) == "unknown"


# -- figures -------------------------------------------------------------------------------------

def _fake_rows(grid):
    verdicts = ["certified", "refuted", "unknown"]
    return [{"params": p, "verdict": verdicts[i % 3], "epsilon_claimed": "1", "epsilon_lower": str(0.5 + i / 10),
             "epsilon_upper": None if i % 3 == 1 else str(0.6 + i / 10),
             "paper_constants": [{"source": "Liang-Yi Lemma 3.5: ...", "epsilon": "1.5"}]} for i, p in enumerate(grid)]


def test_figure_for_one_and_two_parameters_and_none_beyond():
    one = product([parse_vary("nu=1:4:4")])
    two = product([parse_vary("nu=1,2"), parse_vary("eta=log:0.1:10:3")])
    three = product([parse_vary("a=1,2"), parse_vary("b=1"), parse_vary("c=1")])
    for names, grid in ((["nu"], one), (["nu", "eta"], two)):
        png = sweep_png(names, _fake_rows(grid), "t")
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert sweep_png(["a", "b", "c"], _fake_rows(three), "t") is None


# -- the catalog's sweeps --------------------------------------------------------------------------

def test_catalog_sweeps_are_up_to_date():
    assert catalog.stale(ROOT) == [], "regenerate with gpaudit.sweep.catalog.regenerate(root)"


def test_a_sweep_that_says_the_same_apart_from_its_timings_is_kept():
    """regenerate keeps the committed sweep.csv and sweep.json where the new run differs only in its
    seconds and the version that wrote it; a point that moved is a difference."""
    d = ROOT / "reports" / "sweeps" / "student-t-nu"
    texts = catalog._committed(d)
    data = json.loads(texts["sweep.json"])
    data["gpaudit_version"] = "0.0.0"
    data["points"][0]["seconds"] = 1234.5
    rows = list(csv.DictReader(texts["sweep.csv"].splitlines()))
    rows[0]["seconds"] = "1234.5"
    def as_csv(rows):
        import io
        out = io.StringIO()
        w = csv.DictWriter(out, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
        return out.getvalue()
    timed = {"sweep.json": json.dumps(data), "sweep.csv": as_csv(rows)}
    assert catalog._timeless(timed) == catalog._timeless(texts)
    data["points"][0]["epsilon_upper"] = "0.7"
    rows[0]["epsilon_upper"] = "0.7"
    for moved in ({"sweep.json": json.dumps(data), "sweep.csv": texts["sweep.csv"]},
                  {"sweep.json": texts["sweep.json"], "sweep.csv": as_csv(rows)}):
        assert catalog._timeless(moved) != catalog._timeless(texts)


# -- the issue's own example: four nu, locally and on a Dask cluster --------------------------------

NU = ["sweep", str(STUDENT_T), "--vary", "nu=1,2,3,4", "--effort", "quick", "-q"]


@pytest.fixture(scope="module")
def nu_local(tmp_path_factory):
    out = tmp_path_factory.mktemp("nu-local")
    code = main([*NU, "--out", str(out), "-j", "2"])
    return code, out


@pytest.mark.slow
def test_nu_sweep_rows_equal_check(nu_local, tmp_path):
    code, out = nu_local
    rows = json.loads((out / "sweep.json").read_text())["points"]
    assert len(_csv(out / "sweep.csv")) == 4
    assert [r["params"]["nu"] for r in rows] == ["1", "2", "3", "4"]
    for r in rows:
        r["point_file"] = str(out / r["point_file"])
    _same_as_check(tmp_path, rows, "nu", "quick")
    assert code == 0 if all(r["verdict"] == "certified" for r in rows) else code != 0


@pytest.mark.slow
def test_dask_cluster_gives_the_same_rows(nu_local, tmp_path):
    import distributed   # in the test extra: pip install -e '.[test]'
    _, local = nu_local
    # in this process: the worker's one thread checks the points while this thread only waits
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        code = main([*NU, "--out", str(tmp_path / "dask"), "--scheduler", cluster.scheduler_address])
    assert code == json.loads((local / "sweep.json").read_text())["exit_code"]
    assert _strip_seconds(_csv(tmp_path / "dask" / "sweep.csv")) == _strip_seconds(_csv(local / "sweep.csv"))


def test_an_unreachable_scheduler_exits_2(tmp_path, capsys, monkeypatch):
    from gpaudit.sweep import execute
    monkeypatch.setattr(execute, "CONNECT_TIMEOUT", "1s")
    out = tmp_path / "o"
    assert main([*NU, "--out", str(out), "--scheduler", "tcp://127.0.0.1:9"]) == 2
    assert "--scheduler" in capsys.readouterr().err and not out.exists()


CALLABLE_CONFIG = """\
gpaudit: 1
name: clamp
params: {eta: 1}
input: {dim: 1}
query: {kind: python, callable: "userfns:f"}
bound: {growth: exponential, gamma: 0, kind: python, callable: "userfns:B"}
noise: {family: laplace, eta: eta}
claim: {epsilon: 1}
"""


_REAL_RUN_POINT = worker.run_point
_WORKER_DIR = None   # set by the test below


def _run_point_from_elsewhere(*args, **kw):
    """worker.run_point after moving the process into _WORKER_DIR for good, as a task may."""
    import os
    os.chdir(_WORKER_DIR)
    return _REAL_RUN_POINT(*args, **kw)


def test_dask_sweep_of_a_callable_config_by_relative_path(tmp_path, monkeypatch):
    """A Dask worker has its own working directory: a configuration given by a relative path
    still finds its python callables there.  Here the worker runs in this process (processes=False)
    and moves the process into a folder of its own for good, as a task may: the sweep's outputs
    still land where --out said when the sweep began."""
    import os
    import distributed
    cfg_dir = tmp_path / "mechs"
    cfg_dir.mkdir()
    (cfg_dir / "userfns.py").write_text("def f(x):\n    return min(max(x[0], 0.0), 1.0)\n\n"
                                        "def B(x):\n    return 1.0\n")
    (cfg_dir / "mech.yaml").write_text(CALLABLE_CONFIG)
    elsewhere = tmp_path / "worker-cwd"
    elsewhere.mkdir()
    monkeypatch.setattr(sys.modules[__name__], "_WORKER_DIR", str(elsewhere))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(worker, "run_point", _run_point_from_elsewhere)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        code = main(["sweep", "mechs/mech.yaml", "--vary", "eta=1,2", "--effort", "quick", "-q",
                     "--out", "out", "--scheduler", cluster.scheduler_address])
    assert os.getcwd() == str(elsewhere)   # the move happened while the sweep ran
    rows = json.loads((tmp_path / "out" / "sweep.json").read_text())["points"]
    assert [r["verdict"] for r in rows] != ["error", "error"], rows[0]["note"]
    assert all(r["verdict"] != "error" and "cannot find module" not in r["note"] for r in rows)
    assert code in (1, 3)   # a float callable is never certified; eta = 2 (twice the noise needed) refutes
    assert not (elsewhere / "out").exists()


def test_catalog_sweeps_need_only_what_git_keeps(tmp_path):
    """sweep.png and sweep.html are built on demand (not in git): their absence is not staleness,
    a missing sweep.csv or sweep.json is."""
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    shutil.copytree(ROOT / "reports" / "sweeps", tmp_path / "reports" / "sweeps",
                    ignore=shutil.ignore_patterns("*.png", "*.html"))
    assert catalog.stale(tmp_path) == []
    (tmp_path / "reports" / "sweeps" / "student-t-nu" / "sweep.csv").unlink()
    assert catalog.stale(tmp_path) == ["reports/sweeps/student-t-nu: sweep.csv missing"]
