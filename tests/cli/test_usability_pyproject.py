"""[tool.gpaudit] in pyproject.toml: project defaults for `gpaudit check` and `gpaudit report`."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from gpaudit.cli import main
from gpaudit.pyproject import find_project_config

ROOT = Path(__file__).resolve().parents[2]
EX = ROOT / "examples"
CERTIFIED = EX / "threshold-laplace-global.yaml"                    # certified, fast
REFUTED = EX / "broken" / "threshold-laplace-small-constant.yaml"    # refuted, fast


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A repository (it has .git) with mechanisms/ and a pyproject.toml; the cwd is its root."""
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    (root / "mechanisms").mkdir()
    (root / "docs").mkdir()
    shutil.copy(CERTIFIED, root / "mechanisms" / "a.yaml")
    monkeypatch.chdir(root)
    return root


def write(root: Path, table: str) -> Path:
    path = root / "pyproject.toml"
    path.write_text('[project]\nname = "mechs"\n\n[tool.gpaudit]\n' + table)
    return path


def run_json(capsys, *argv):
    code = main(["check", *argv, "--json", "-", "-j", "1"])
    out = capsys.readouterr().out
    report = json.loads(out) if out.strip() else None
    return code, (report if isinstance(report, list) or report is None else [report])


def test_paths_effort_and_seed_come_from_the_table(project, capsys):
    write(project, 'paths = ["mechanisms"]\neffort = "quick"\nseed = 5\n')
    code, report = run_json(capsys)
    assert code == 0 and [e["name"] for e in report] == ["threshold-laplace-global"]
    assert report[0]["file"] == "mechanisms/a.yaml"
    assert (report[0]["info"]["audit"]["effort"], report[0]["info"]["audit"]["seed"]) == ("quick", 5)


def test_the_command_line_overrides_the_table(project, capsys):
    write(project, 'paths = ["mechanisms"]\neffort = "quick"\nseed = 5\n')
    shutil.copy(REFUTED, project / "b.yaml")
    code, report = run_json(capsys, "b.yaml", "--seed", "7")
    assert code == 1 and [e["file"] for e in report] == ["b.yaml"]          # FILE replaces paths
    assert (report[0]["info"]["audit"]["effort"], report[0]["info"]["audit"]["seed"]) == ("quick", 7)
    code, report = run_json(capsys, "--no-config", "b.yaml", "--effort", "quick")
    assert report[0]["info"]["audit"]["seed"] == 0                          # --no-config: the table ignored


def test_paths_are_relative_to_the_pyproject_directory(project, capsys, monkeypatch):
    write(project, 'paths = ["mechanisms"]\neffort = "quick"\n')
    monkeypatch.chdir(project / "docs")
    code, report = run_json(capsys)
    assert code == 0 and report[0]["file"] == "../mechanisms/a.yaml"


def test_the_search_stops_at_the_repository_root(project, capsys, monkeypatch):
    outer = project.parent / "pyproject.toml"
    outer.write_text('[tool.gpaudit]\npaths = ["repo/mechanisms"]\n')
    assert find_project_config() is None                  # above the .git directory: not this project's
    assert main(["check"]) == 2
    assert "give FILE" in capsys.readouterr().err
    nested = project / "docs" / "pyproject.toml"
    nested.write_text('[project]\nname = "docs"\n')       # no table: the search goes on upwards
    write(project, 'paths = ["mechanisms"]\n')
    monkeypatch.chdir(project / "docs")
    assert find_project_config().path == "../pyproject.toml"


def test_format_and_baseline_from_the_table(project, capsys):
    write(project, 'paths = ["mechanisms"]\neffort = "quick"\nformat = "github"\n'
                   'baseline = "gate/baseline.json"\n')
    (project / "gate").mkdir()
    assert main(["check", "--no-config", "mechanisms", "--effort", "quick", "--json", "gate/baseline.json"]) == 0
    capsys.readouterr()
    base = json.loads((project / "gate" / "baseline.json").read_text())
    base["epsilon_upper"] = "0.5"                          # the run's bound 1 is now a regression
    (project / "gate" / "baseline.json").write_text(json.dumps(base))
    assert main(["check"]) == 4
    captured = capsys.readouterr()
    assert captured.out.startswith("::notice file=mechanisms/a.yaml,")
    assert "regression: threshold-laplace-global: certified epsilon_upper increased" in captured.err
    assert main(["check", "--json", "-"]) == 4             # '--json -' takes stdout: format not applied
    assert json.loads(capsys.readouterr().out)["verdict"] == "certified"


def test_report_takes_paths_effort_and_seed(project, capsys):
    write(project, 'paths = ["mechanisms"]\neffort = "quick"\nseed = 3\njobs = 2\n')
    assert main(["report", "--out", "out", "-q"]) == 0
    rep = json.loads((project / "out" / "threshold-laplace-global" / "report.json").read_text())
    assert (rep["info"]["audit"]["effort"], rep["info"]["audit"]["seed"]) == ("quick", 3)


@pytest.mark.parametrize("table,key,problem", [
    ('colour = "red"\n', "colour", "unknown key (known: baseline, effort, format, jobs, paths, seed)"),
    ('basline = "b.json"\n', "basline",
     "unknown key; did you mean 'baseline'? (known: baseline, effort, format, jobs, paths, seed)"),
    ('effort = "fast"\n', "effort", "must be one of quick, standard, thorough, not 'fast'"),
    ("effort = 3\n", "effort", "must be one of quick, standard, thorough, not 3"),
    ('paths = "mechanisms"\n', "paths", "expected a non-empty list of files or directories, got a string"),
    ("paths = []\n", "paths", "expected a non-empty list of files or directories, got an array"),
    ('paths = ["a", 1]\n', "paths", "item 2: expected a non-empty string, got an integer"),
    ("jobs = 0\n", "jobs", "must be a positive integer, not 0"),
    ("jobs = true\n", "jobs", "must be a positive integer, not true"),
    ("seed = -1\n", "seed", "must be a non-negative integer, not -1"),
    ("seed = 1.5\n", "seed", "must be a non-negative integer, not 1.5"),
    ('format = "xml"\n', "format", "must be one of text, json, github, junit, sarif, not 'xml'"),
    ("baseline = 4\n", "baseline", "expected the path of a JSON report (a non-empty string), got an integer"),
])
def test_bad_values_are_one_line_errors(project, capsys, table, key, problem):
    write(project, table)
    for argv in (["check", "mechanisms"], ["report", "mechanisms", "--out", "o"]):
        assert main(argv) == 2
        captured = capsys.readouterr()
        assert captured.err == f"gpaudit: error: pyproject.toml: tool.gpaudit.{key}: {problem}\n"
        assert captured.out == ""
    assert not (project / "o").exists()


def test_a_broken_pyproject_counts_only_when_it_names_the_table(project, capsys):
    (project / "pyproject.toml").write_text("[project\nname = 'x'\n")
    assert main(["check", "mechanisms", "--effort", "quick", "-q"]) == 0     # not ours: ignored
    capsys.readouterr()
    (project / "pyproject.toml").write_text("[tool.gpaudit]\npaths = [\n")
    assert main(["check", "mechanisms"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("gpaudit: error: pyproject.toml: tool.gpaudit: pyproject.toml is not valid TOML")
    assert err.count("\n") == 1


def test_no_table_leaves_the_behaviour_unchanged(project, capsys):
    (project / "pyproject.toml").write_text('[project]\nname = "x"\n[tool.other]\npaths = ["nope"]\n')
    assert find_project_config() is None
    assert main(["check"]) == 2 and "give FILE" in capsys.readouterr().err
    assert main(["check", "mechanisms", "--effort", "quick", "-q"]) == 0


def test_gpaudits_own_pyproject_has_no_table():
    assert find_project_config(ROOT) is None
