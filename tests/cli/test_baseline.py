"""gpaudit as a regression gate: a run compared against a previous JSON report."""

import json
from pathlib import Path

import pytest
import yaml

from gpaudit.api import CERTIFIED, REFUTED, UNKNOWN, check, compare_baseline, gate
from gpaudit.report.baseline import compare, unmatched
from gpaudit.report.json_report import result_to_json, write_json_atomic

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "examples" / "threshold-student-t.yaml"


@pytest.fixture(scope="module")
def baseline(tmp_path_factory):
    """The JSON report of a real run, written and read back as CI would keep it."""
    out = tmp_path_factory.mktemp("baseline") / "baseline.json"
    write_json_atomic(str(out), result_to_json(check(CONFIG, effort="quick")))
    return json.loads(out.read_text())


def test_unchanged_config_passes(baseline):
    assert compare([check(CONFIG, effort="quick")], baseline) == []


def test_raised_eta_fails(baseline, tmp_path):
    raw = yaml.safe_load(CONFIG.read_text())
    raw["params"]["eta"] = f"(3/2)*({raw['params']['eta']})"  # less noise: a larger epsilon
    cfg = tmp_path / CONFIG.name
    cfg.write_text(yaml.safe_dump(raw, sort_keys=False))
    regressions = compare([check(cfg, effort="quick")], baseline)
    assert regressions, "raising eta by half must fail the baseline comparison"
    assert all(r.startswith("threshold-student-t: ") for r in regressions)
    assert any("epsilon_upper increased" in r or "verdict got worse" in r for r in regressions)


def rep(name="m", verdict=UNKNOWN, upper="0.5", witness=None):
    return {"name": name, "verdict": verdict, "epsilon_upper": upper, "witness": witness,
            "claim": {"epsilon": "1", "delta": "0"}, "checks": []}


@pytest.mark.parametrize("old, new, expect", [
    (CERTIFIED, UNKNOWN, True), (CERTIFIED, REFUTED, True), (UNKNOWN, REFUTED, True),
    (UNKNOWN, UNKNOWN, False), (UNKNOWN, CERTIFIED, False), (REFUTED, UNKNOWN, False),
])
def test_verdict_order(old, new, expect):
    found = compare([rep(verdict=new)], rep(verdict=old))
    assert bool([r for r in found if "verdict got worse" in r]) is expect


def test_epsilon_upper_compared_as_decimals():
    old = rep(upper="0.666666666666666666666666666667")
    # equal as floats, larger as decimals: still a regression
    assert compare([rep(upper="0.666666666666666666666666666668")], old)
    assert compare([rep(upper="0.666666666666666666666666666666")], old) == []
    assert compare([rep(upper="0.666666666666666666666666666667")], old) == []
    assert any("lost" in r for r in compare([rep(upper=None)], old))
    assert compare([rep(upper="0.1")], rep(upper=None)) == []


def test_witness_appearing_is_a_regression():
    w = {"x": ["0"], "x_prime": ["1"], "y": "2", "dist": "1", "log_ratio": "3"}
    found = compare([rep(witness=w)], rep())
    assert any("a witness appeared" in r and "x_prime=['1']" in r for r in found)
    assert compare([rep(witness=w)], rep(witness=w)) == []


def test_matching_by_name_lists_and_subsets(tmp_path):
    base = [rep("a", CERTIFIED), rep("b", CERTIFIED)]
    assert compare([rep("b", UNKNOWN)], base) == ["b: verdict got worse: certified -> unknown"]
    assert compare([rep("c", REFUTED)], base) == []  # new configurations are not regressions
    assert unmatched([rep("c")], base) == (["c"], ["a", "b"])
    path = tmp_path / "base.json"
    path.write_text(json.dumps(base))
    assert compare_baseline([rep("a", UNKNOWN)], path) == ["a: verdict got worse: certified -> unknown"]
    with pytest.raises(ValueError):
        compare([rep()], "not a report")


def test_gate_exit_codes():
    base = rep(verdict=CERTIFIED, upper="0.5")
    assert gate([rep(verdict=CERTIFIED)]) == (0, [])
    assert gate([rep(verdict=CERTIFIED, upper="0.6")], base)[0] == 4  # verdicts pass, run regressed
    assert gate([rep(verdict=UNKNOWN)], base)[0] == 3  # unknown fails a gate regardless
    assert gate([rep(verdict=REFUTED, witness={"x": ["0"]})], base)[0] == 1


def test_a_regression_is_in_every_artefact(tmp_path, capsys):
    """Exit 4 alone is not enough: the regression is an ::error annotation, a JUnit failure, a field
    of the JSON report (info.regressions) and a notice in the reports rendered from that JSON."""
    import xml.etree.ElementTree as ET

    from gpaudit.cli import main
    base = tmp_path / "baseline.json"
    assert main(["check", str(CONFIG), "--effort", "quick", "--no-config", "-q", "--json", str(base)]) == 0
    raw = yaml.safe_load(CONFIG.read_text())
    raw["params"]["eta"] = f"(9/8)*({raw['params']['eta']})"  # less noise: still certified, larger epsilon
    cfg = tmp_path / CONFIG.name
    cfg.write_text(yaml.safe_dump(raw, sort_keys=False))
    capsys.readouterr()
    out_json, out_junit = tmp_path / "run.json", tmp_path / "run.xml"
    code = main(["check", str(cfg), "--effort", "quick", "--no-config", "--format", "github",
                 "--baseline", str(base), "--json", str(out_json), "--junit", str(out_junit)])
    assert code == 4
    stdout = capsys.readouterr().out
    assert any(line.startswith(f"::error file={cfg},title=gpaudit regression::threshold-student-t: "
                               "certified epsilon_upper increased") for line in stdout.splitlines()), stdout
    report = json.loads(out_json.read_text())
    assert report["verdict"] == CERTIFIED
    assert [r.split(":")[0] for r in report["info"]["regressions"]] == ["certified epsilon_upper increased"]
    root = ET.parse(out_junit).getroot()
    assert root.get("failures") == "1"
    failure = root.find(".//testcase[@name='baseline']/failure")
    assert failure is not None and failure.get("type") == "regression"
    assert main(["report", "--from-json", str(out_json), "--out", str(tmp_path / "rep")]) == 0
    md = next((tmp_path / "rep").rglob("report.md")).read_text()
    html = next((tmp_path / "rep").rglob("report.html")).read_text()
    assert "regression against the baseline: certified epsilon_upper increased" in md
    assert "regression against the baseline: certified epsilon_upper increased" in html
    # unchanged configuration against its own baseline: the baseline testcase passes, no annotation
    capsys.readouterr()
    assert main(["check", str(CONFIG), "--effort", "quick", "--no-config", "--format", "github",
                 "--baseline", str(base), "--junit", str(out_junit)]) == 0
    assert "gpaudit regression" not in capsys.readouterr().out
    case = ET.parse(out_junit).getroot().find(".//testcase[@name='baseline']")
    assert case is not None and case.find("failure") is None
