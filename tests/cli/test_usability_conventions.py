"""What users of pytest, ruff and mypy expect of a checker: a closing summary line, --exit-zero,
--update-baseline, SARIF, colour that NO_COLOR turns off, a bad file reported while the others are
still checked, and the bare command's help as a usage error."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml

from gpaudit.cli import main

ROOT = Path(__file__).resolve().parents[2]
CERTIFIED = ROOT / "examples" / "threshold-student-t.yaml"
REFUTED = ROOT / "examples" / "broken" / "threshold-pointwise-bound.yaml"
QUICK = ["--effort", "quick", "--no-config"]


@pytest.fixture
def bad(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(CERTIFIED.read_text().replace("  tau: 1\n", "  tau: 0\n"))
    assert "tau: 0" in path.read_text()
    return path


def test_a_closing_summary_line_on_stderr(capsys):
    assert main(["check", str(CERTIFIED), str(REFUTED), *QUICK]) == 1
    out, err = capsys.readouterr()
    assert re.fullmatch(r"1 certified, 1 refuted, 0 unknown in \d+\.\d s", err.splitlines()[-1]), err
    assert "certified," not in out   # stdout keeps one line per file (and its checks)


def test_a_bad_file_is_reported_and_the_others_still_checked(tmp_path, bad, capsys):
    """Exit 2 at the end, and the JSON, JUnit and SARIF written for the files that could be checked
    (the bad one is an <error> in JUnit and a result in SARIF)."""
    js, xml, sarif = tmp_path / "r.json", tmp_path / "r.xml", tmp_path / "r.sarif"
    code = main(["check", str(CERTIFIED), str(bad), str(REFUTED), *QUICK, "--json", str(js),
                 "--junit", str(xml), "--sarif", str(sarif)])
    out, err = capsys.readouterr()
    assert code == 2
    assert f"gpaudit: error: {bad}:" in err and "query.tau: must be > 0" in err
    assert [line.split()[0] for line in out.splitlines() if not line.startswith(" ")] == ["certified", "refuted"]
    assert err.splitlines()[-1].startswith("1 certified, 1 refuted, 0 unknown, 1 configuration error in ")
    assert [r["verdict"] for r in json.loads(js.read_text())] == ["certified", "refuted"]
    root = ET.parse(xml).getroot()
    assert root.get("errors") == "1"
    error = root.find(f".//testsuite[@name='{bad}']/testcase[@name='configuration']/error")
    assert error is not None and "query.tau" in error.get("message")
    rules = [r["ruleId"] for r in json.loads(sarif.read_text())["runs"][0]["results"]]
    assert rules == ["gpaudit/configuration-error", "gpaudit/refuted"]


def test_exit_zero(bad, capsys):
    assert main(["check", str(REFUTED), *QUICK, "-q", "--exit-zero"]) == 0
    assert main(["check", str(REFUTED), str(bad), *QUICK, "-q", "--exit-zero"]) == 2   # bad input stays 2


def _sarif_structure_errors(log: dict) -> list[str]:
    """The required fields of SARIF 2.1.0 (sarif-schema-2.1.0.json: sarifLog, run, tool,
    toolComponent, result, message, location, physicalLocation, artifactLocation, region)."""
    errs = []
    need = lambda obj, key, where: errs.append(f"{where}: {key} missing") if key not in obj else None  # noqa: E731
    need(log, "version", "sarifLog")
    need(log, "runs", "sarifLog")
    if log.get("version") != "2.1.0":
        errs.append("sarifLog.version is not 2.1.0")
    for run in log.get("runs", []):
        need(run, "tool", "run")
        driver = run.get("tool", {}).get("driver")
        if not isinstance(driver, dict) or not driver.get("name"):
            errs.append("run.tool.driver.name missing")
        rules = [r["id"] for r in (driver or {}).get("rules", [])]
        for res in run.get("results", []):
            msg = res.get("message", {})
            if not (msg.get("text") or msg.get("id")):
                errs.append("result.message needs text or id")
            if res.get("level") not in (None, "none", "note", "warning", "error"):
                errs.append(f"result.level {res.get('level')!r}")
            if "ruleId" in res and res["ruleId"] not in rules:
                errs.append(f"ruleId {res['ruleId']} not among the rules")
            if "ruleIndex" in res and rules[res["ruleIndex"]] != res.get("ruleId"):
                errs.append("ruleIndex does not point at ruleId")
            for loc in res.get("locations", []):
                phys = loc.get("physicalLocation", {})
                if not phys.get("artifactLocation", {}).get("uri"):
                    errs.append("physicalLocation.artifactLocation.uri missing")
                line = phys.get("region", {}).get("startLine", 1)
                if not (isinstance(line, int) and line >= 1):
                    errs.append(f"region.startLine {line!r}")
    return errs


def test_sarif_2_1_0_on_stdout(bad, capsys):
    code = main(["check", str(CERTIFIED), str(REFUTED), str(bad), *QUICK, "--format", "sarif"])
    out, err = capsys.readouterr()
    log = json.loads(out)
    assert code == 2 and _sarif_structure_errors(log) == []
    results = log["runs"][0]["results"]
    assert [(r["ruleId"], r["level"]) for r in results] == [("gpaudit/configuration-error", "error"),
                                                            ("gpaudit/refuted", "error")]
    refuted = results[1]
    region = refuted["locations"][0]["physicalLocation"]["region"]
    claim_line = REFUTED.read_text().splitlines()[region["startLine"] - 1]
    assert claim_line.startswith("claim:")   # the result points at the claim it refutes
    assert "refuted" in refuted["message"]["text"] and "certified" in err


def test_update_baseline_creates_then_accepts(tmp_path, capsys):
    base = tmp_path / ".gpaudit" / "baseline.json"
    base.parent.mkdir()
    # created when missing (with --baseline pointing at it, as the [tool.gpaudit] table does)
    assert main(["check", str(CERTIFIED), *QUICK, "-q", "--baseline", str(base), "--update-baseline"]) == 0
    assert json.loads(base.read_text())["name"] == "threshold-student-t"
    raw = yaml.safe_load(CERTIFIED.read_text())
    raw["params"]["eta"] = f"(9/8)*({raw['params']['eta']})"
    moved = tmp_path / "threshold-student-t.yaml"
    moved.write_text(yaml.safe_dump(raw, sort_keys=False))
    assert main(["check", str(moved), *QUICK, "-q", "--baseline", str(base)]) == 4
    capsys.readouterr()
    assert main(["check", str(moved), str(REFUTED), *QUICK, "-q", "--baseline", str(base), "--update-baseline"]) == 1
    assert "(1 regression accepted)" in capsys.readouterr().err
    entries = json.loads(base.read_text())
    assert [e["name"] for e in entries] == ["threshold-student-t", "broken-threshold-pointwise-bound"]
    assert "regressions" not in entries[0]["info"]
    assert main(["check", str(moved), *QUICK, "-q", "--baseline", str(base)]) == 0   # the new normal
    assert main(["check", str(CERTIFIED), *QUICK, "-q", "--update-baseline"]) == 2   # needs a baseline


def test_colour_on_request_and_never_with_no_color(monkeypatch, capsys):
    monkeypatch.setenv("FORCE_COLOR", "1")
    main(["check", str(CERTIFIED), *QUICK, "-q"])
    assert capsys.readouterr().out.startswith("\033[32mcertified\033[0m ")
    monkeypatch.setenv("NO_COLOR", "1")
    main(["check", str(CERTIFIED), *QUICK, "-q"])
    assert "\033[" not in capsys.readouterr().out


def test_bare_command_prints_help_as_a_usage_error(capsys):
    assert main([]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("usage: gpaudit") and "check" in err
    assert err.splitlines()[-1] == "gpaudit: error: give a command (see above)"


def test_sweep_exit_zero(tmp_path, capsys):
    args = ["sweep", str(CERTIFIED), "--vary", "eta=1/2,3", "--effort", "quick", "-q", "-j", "1"]
    assert main([*args, "--out", str(tmp_path / "a")]) == 1          # eta = 3: refuted
    assert main([*args, "--out", str(tmp_path / "a"), "--exit-zero"]) == 0
