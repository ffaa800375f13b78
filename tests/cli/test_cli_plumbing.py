"""CLI plumbing of `gpaudit check`: usage errors, directories, stdout formats, -q / -v."""

from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from gpaudit.cli import main

EX = Path(__file__).resolve().parents[2] / "examples"
CERTIFIED = EX / "threshold-laplace-global.yaml"                    # certified, fast
REFUTED = EX / "broken" / "threshold-laplace-small-constant.yaml"    # refuted, fast
CERTIFIED_NAME, REFUTED_NAME = "threshold-laplace-global", "broken-threshold-laplace-small-constant"


@pytest.fixture
def tree(tmp_path):
    """A directory holding a certified and (in a subdirectory) a refuted configuration, a non-YAML
    file and a hidden directory with an invalid YAML file that must be skipped."""
    root = tmp_path / "mechs"
    (root / "a-sub").mkdir(parents=True)
    (root / ".hidden").mkdir()
    shutil.copy(CERTIFIED, root / "z-certified.yaml")
    shutil.copy(REFUTED, root / "a-sub" / "refuted.yaml")
    (root / "notes.txt").write_text("not a configuration\n")
    (root / ".hidden" / "broken.yaml").write_text("this: [is not valid\n")
    return root


def one_line_error(captured) -> str:
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert "Traceback" not in captured.err
    assert captured.out == ""
    return lines[0]


# -- 1. user errors are exit 2 with one line -------------------------------------------------------

def test_negative_seed_is_refused_at_parsing(capsys):
    assert main(["check", str(CERTIFIED), "--seed", "-3", "--effort", "quick"]) == 2
    line = one_line_error(capsys.readouterr())
    assert "--seed" in line and "non-negative" in line and "internal error" not in line


@pytest.mark.parametrize("argv,flag", [
    (["check", "{f}", "--seed", "seven"], "--seed"),
    (["report", "{f}", "--seed", "-1"], "--seed"),
    (["calibrate", "{f}", "--epsilon", "-1"], "--epsilon"),
    (["calibrate", "{f}", "--epsilon", "1", "--at", "nan"], "--at"),
    (["calibrate", "{f}", "--epsilon", "1", "--at", "1,inf"], "--at"),
    (["prove", "{f}", "--timeout-ms", "0"], "--timeout-ms"),
    (["prove", "{f}", "--timeout-ms", "99999999999"], "--timeout-ms"),
    (["check", "{f}", "--format", "xml"], "--format"),
    (["check", "{f}", "-q", "-v"], "--verbose"),
])
def test_bad_numeric_flags_are_usage_errors(tmp_path, capsys, argv, flag):
    # a file that does not exist: argument parsing must refuse the flag before the file is read
    missing = str(tmp_path / "missing.yaml")
    assert main([a.replace("{f}", missing) for a in argv]) == 2
    line = one_line_error(capsys.readouterr())
    assert flag in line and "missing.yaml" not in line


def test_at_point_of_the_wrong_dimension_names_at(capsys):
    assert main(["calibrate", str(CERTIFIED), "--epsilon", "1", "--at", "1,2"]) == 2
    line = one_line_error(capsys.readouterr())
    assert "--at" in line and "--epsilon" not in line


def test_stdout_can_carry_only_one_output(capsys):
    assert main(["check", str(CERTIFIED), "--format", "junit", "--json", "-"]) == 2
    line = one_line_error(capsys.readouterr())
    assert "stdout" in line


def test_json_out_that_is_a_directory_is_a_usage_error(tmp_path, capsys):
    assert main(["check", str(CERTIFIED), "--json", str(tmp_path)]) == 2
    assert "--json" in one_line_error(capsys.readouterr())


def test_gpaudit_debug_documented_and_shows_tracebacks(monkeypatch, capsys):
    assert main(["--help"]) == 0
    assert "GPAUDIT_DEBUG" in capsys.readouterr().out

    def boom(*args, **kwargs):
        raise RuntimeError("simulated bug")

    monkeypatch.setattr("gpaudit.check.check_spec", boom)
    monkeypatch.delenv("GPAUDIT_DEBUG", raising=False)
    assert main(["check", str(CERTIFIED), "-q"]) == 3
    err = capsys.readouterr().err
    assert "internal error" in err and "simulated bug" in err and "Traceback" not in err
    monkeypatch.setenv("GPAUDIT_DEBUG", "1")
    assert main(["check", str(CERTIFIED), "-q"]) == 3
    assert "Traceback" in capsys.readouterr().err


# -- 2. directories --------------------------------------------------------------------------------

def test_directory_checks_every_yaml_under_it_in_sorted_order(tree, capsys):
    assert main(["check", str(tree), "--effort", "quick", "-q"]) == 1
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 2, lines
    assert lines[0].startswith("refuted") and str(tree / "a-sub" / "refuted.yaml") in lines[0]
    assert lines[1].startswith("certified") and str(tree / "z-certified.yaml") in lines[1]


def test_directory_without_yaml_is_a_usage_error(tmp_path, capsys):
    empty = tmp_path / "empty"
    (empty / "sub").mkdir(parents=True)
    (empty / "notes.txt").write_text("x\n")
    assert main(["check", str(CERTIFIED), str(empty)]) == 2
    assert str(empty) in one_line_error(capsys.readouterr())


# -- 3./4. stdout formats; exit codes as in text mode ----------------------------------------------

def test_json_dash_writes_the_report_to_stdout(tree, capsys):
    assert main(["check", str(tree), "--effort", "quick", "--json", "-"]) == 1
    captured = capsys.readouterr()
    report = json.loads(captured.out)  # nothing but JSON on stdout
    assert [(e["name"], e["verdict"]) for e in report] == [(REFUTED_NAME, "refuted"), (CERTIFIED_NAME, "certified")]
    assert report[0]["file"] == str(tree / "a-sub" / "refuted.yaml")
    assert "refuted" in captured.err and "certified" in captured.err  # the text summary went to stderr


def test_format_github_one_annotation_per_file(capsys):
    # explicit files keep their order
    assert main(["check", str(CERTIFIED), str(REFUTED), "--effort", "quick", "--format", "github"]) == 1
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 2, lines
    assert lines[0].startswith(f"::notice file={CERTIFIED},title=gpaudit certified::{CERTIFIED_NAME}: ")
    assert lines[1].startswith(f"::error file={REFUTED},title=gpaudit refuted::{REFUTED_NAME}: ")


def test_format_github_unknown_is_a_warning(monkeypatch, capsys):
    def boom(*args, **kwargs):
        raise RuntimeError("simulated bug")

    monkeypatch.setattr("gpaudit.check.check_spec", boom)
    assert main(["check", str(CERTIFIED), "--format", "github"]) == 3
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"::warning file={CERTIFIED},title=gpaudit unknown::")


def test_github_escaping():
    from gpaudit.cli import github_annotation
    line = github_annotation("error", "dir,x/a:b.yaml", "t,1", "50% done\r\nnext: a, b")
    assert line == "::error file=dir%2Cx/a%3Ab.yaml,title=t%2C1::50%25 done%0D%0Anext: a, b"


def test_format_junit_is_xml_on_stdout(capsys):
    assert main(["check", str(REFUTED), str(CERTIFIED), "--effort", "quick", "--format", "junit"]) == 1
    root = ET.fromstring(capsys.readouterr().out.encode("utf-8"))
    suites = {s.get("name"): s for s in root.iter("testsuite")}
    assert set(suites) == {REFUTED_NAME, CERTIFIED_NAME}
    verdict = [c for c in suites[REFUTED_NAME].iter("testcase") if c.get("name") == "verdict"]
    assert len(verdict) == 1 and verdict[0].find("failure") is not None


def _entries(fmt: str, out: str) -> list:
    """The verdicts on stdout, read back from each format."""
    if fmt == "text":
        return [line.split()[0] for line in out.splitlines() if not line.startswith(" ")]
    if fmt == "json":
        report = json.loads(out)
        return [e["verdict"] for e in (report if isinstance(report, list) else [report])]
    if fmt == "github":
        return [line.split("title=gpaudit ", 1)[1].split("::", 1)[0] for line in out.splitlines()]
    root = ET.fromstring(out.encode("utf-8"))
    return [p.get("value") for p in root.iter("property") if p.get("name") == "verdict"]


@pytest.mark.parametrize("fmt", ["text", "json", "github", "junit"])
def test_exit_codes_do_not_depend_on_the_format(fmt, capsys):
    assert main(["check", str(CERTIFIED), "--effort", "quick", "--format", fmt]) == 0
    assert _entries(fmt, capsys.readouterr().out) == ["certified"]
    assert main(["check", str(CERTIFIED), str(REFUTED), "--effort", "quick", "--format", fmt]) == 1
    assert _entries(fmt, capsys.readouterr().out) == ["certified", "refuted"]


# -- 5. -q / -v ------------------------------------------------------------------------------------

def test_quiet_short_flag_and_verbose(capsys):
    assert main(["check", str(CERTIFIED), "--effort", "quick", "-q"]) == 0
    quiet = capsys.readouterr().out.strip().splitlines()
    assert len(quiet) == 1 and quiet[0].startswith("certified")
    assert main(["check", str(CERTIFIED), "--effort", "quick"]) == 0
    normal = capsys.readouterr().out
    assert main(["check", str(CERTIFIED), "--effort", "quick", "-v"]) == 0
    verbose = capsys.readouterr().out
    assert "method:" not in normal and "decision:" not in normal
    assert "method: z3 unsat" in verbose and "decision: certified" in verbose
    assert len(verbose.splitlines()) > len(normal.splitlines()) > 1


def test_the_refuting_check_keeps_the_exponent_of_epsilon_times_dist():
    import mpmath
    from gpaudit import api
    r = api.check(EX / "broken/threshold-laplace-small-constant.yaml", effort="quick")
    assert r.verdict == api.REFUTED
    detail = next(c.detail for c in r.checks if c.id == "privacy.loss")
    shown = mpmath.mpf(detail.rsplit("= ", 1)[1])
    exact = mpmath.mpf(r.witness["epsilon_times_dist"])
    assert abs(shown - exact) <= abs(exact) * mpmath.mpf("1e-10"), (detail, r.witness["epsilon_times_dist"])


def test_a_delta_claim_is_summarised_by_its_hockey_stick_divergence(capsys):
    rc = main(["check", str(EX / "threshold-laplace-approx.yaml"), "--effort", "quick", "-q"])
    out = capsys.readouterr().out
    assert rc == 0 and "largest hockey-stick divergence found" in out and "exhibited" not in out
    rc = main(["check", str(EX / "threshold-laplace-approx.yaml"), "--effort", "quick", "--json", "-"])
    rep = json.loads(capsys.readouterr().out)
    rep = rep[0] if isinstance(rep, list) else rep
    import sympy as sp
    assert 0 < sp.Rational(rep["info"]["audit"]["hockey_stick_max"]) <= sp.Rational(rep["claim"]["delta"])


def test_a_gating_run_leaves_the_callers_proof_cache_setting_alone(tmp_path):
    from gpaudit.runtime import cache as z3door
    assert z3door.cache_enabled()
    rc = main(["check", str(EX / "threshold-laplace-global.yaml"), "--effort", "quick", "-q",
               "--junit", str(tmp_path / "j.xml")])
    assert rc == 0 and z3door.cache_enabled()


def test_a_gating_run_reads_and_writes_no_proof_cache_but_a_plain_run_does(tmp_path, monkeypatch):
    """The cache setting of a check is made in one place (runner.check_one) from what the command
    asks: a gate (--junit here) decides from fresh proofs; the same file without it uses the cache."""
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("GPAUDIT_NO_CACHE", raising=False)
    monkeypatch.setenv("GPAUDIT_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("GPAUDIT_NO_AHEAD", "1")
    cfg = str(EX / "broken" / "laud-thm3-count3-linf-wrong-dual.yaml")   # z3: cover sat
    records = lambda: list((tmp_path / "cache").rglob("*.json"))  # noqa: E731
    assert main(["check", cfg, "--effort", "quick", "-q", "--full-evidence", "--junit", str(tmp_path / "j.xml")]) == 1
    assert not records()
    assert main(["check", cfg, "--effort", "quick", "-q", "--full-evidence"]) == 1
    assert records()
