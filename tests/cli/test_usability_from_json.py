"""`gpaudit report --from-json`: the reports of a `gpaudit check --json` output, without checking again."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from lxml import html as lxml_html

from gpaudit.cli import main

EX = Path(__file__).resolve().parents[2] / "examples"
CERTIFIED = EX / "threshold-laplace-global.yaml"                    # certified, fast
REFUTED = EX / "broken" / "threshold-laplace-small-constant.yaml"    # refuted, fast


@pytest.fixture(scope="module")
def checked(tmp_path_factory):
    """Both configurations copied into a directory and checked once: (directory, report.json)."""
    d = tmp_path_factory.mktemp("from-json")
    for cfg in (CERTIFIED, REFUTED):
        shutil.copy(cfg, d / cfg.name)
    out = d / "gpaudit-report.json"
    code = main(["check", str(d / CERTIFIED.name), str(d / REFUTED.name), "--effort", "quick", "-q",
                 "-j", "1", "--json", str(out)])
    assert code == 1
    return d, out


def _witness_cells(md: str) -> str:
    return md.split("## Witness", 1)[1].split("## Mechanism", 1)[0]


def test_renders_the_json_verdicts_and_witness_without_checking(checked, tmp_path, capsys, monkeypatch):
    d, report = checked
    monkeypatch.setattr("gpaudit.check.check_spec", lambda *a, **k: pytest.fail("--from-json must not check"))
    out = tmp_path / "reports"
    assert main(["report", "--from-json", str(report), "--out", str(out)]) == 1  # the worst verdict, as check
    recorded = {e["name"]: e for e in json.loads(report.read_text())}
    assert sorted(p.name for p in out.iterdir()) == ["README.md", *sorted(recorded)]
    for name, entry in recorded.items():
        rd = out / name
        assert json.loads((rd / "report.json").read_text()) == entry  # the recorded object, unchanged
        md = (rd / "report.md").read_text()
        assert f"## {'✅ CERTIFIED' if entry['verdict'] == 'certified' else '❌ REFUTED'}" in md
        assert f"rendered from | {report}" in md
        page = lxml_html.fromstring((rd / "report.html").read_text())
        assert entry["verdict"].upper() in page.get_element_by_id("verdict").text_content()
        assert sorted(p.name for p in rd.glob("*.png")) == ["family.png", "loss.png", "query.png"]
        if entry["witness"]:
            cells = _witness_cells(md)
            for key in ("x", "x_prime", "y", "log_ratio"):
                value = entry["witness"][key]
                assert (value[0] if isinstance(value, list) else value) in cells
    assert "REFUTED" not in (out / "threshold-laplace-global" / "report.md").read_text()
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("certified threshold-laplace-global") and lines[1].startswith("refuted")


@pytest.mark.slow
def test_same_verdict_and_witness_as_a_direct_report(checked, tmp_path):
    d, report = checked
    assert main(["report", "--from-json", str(report), "--out", str(tmp_path / "a"), "-q"]) == 1
    assert main(["report", str(d / REFUTED.name), str(d / CERTIFIED.name), "--effort", "quick",
                 "--out", str(tmp_path / "b"), "-q"]) == 1
    for name in ("broken-threshold-laplace-small-constant", "threshold-laplace-global"):
        a = json.loads((tmp_path / "a" / name / "report.json").read_text())
        b = json.loads((tmp_path / "b" / name / "report.json").read_text())
        assert (a["verdict"], a["witness"]) == (b["verdict"], b["witness"])
        md_a = (tmp_path / "a" / name / "report.md").read_text()
        md_b = (tmp_path / "b" / name / "report.md").read_text()
        assert md_a.split("## Epsilons")[0] == md_b.split("## Epsilons")[0]   # title, verdict, claim
        if a["witness"]:
            assert _witness_cells(md_a) == _witness_cells(md_b)


def test_a_changed_configuration_gives_a_report_without_model_figures(checked, tmp_path, capsys):
    d, report = checked
    work = tmp_path / "w"
    shutil.copytree(d, work)
    data = json.loads(report.read_text())
    for e in data:
        e["file"] = str(work / Path(e["file"]).name)
    edited = work / "gpaudit-report.json"
    edited.write_text(json.dumps(data))
    cfg = work / REFUTED.name
    cfg.write_text(cfg.read_text() + "# edited after the check\n")
    out = tmp_path / "reports"
    assert main(["report", "--from-json", str(edited), "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert f"{cfg} changed since the check" in err
    rd = out / "broken-threshold-laplace-small-constant"
    md = (rd / "report.md").read_text()
    assert "❌ REFUTED" in md and "changed since the check" in md
    assert "figure loss not drawn" in md and not list(rd.glob("*.png"))
    assert data[1]["witness"]["log_ratio"] in md                     # the witness is still the JSON's
    assert sorted(p.name for p in (out / "threshold-laplace-global").glob("*.png"))  # unchanged: drawn


@pytest.mark.parametrize("content,where", [
    ("{not json", "not valid JSON (line 1"),
    ("[]", "not a gpaudit JSON report"),
    ('{"schema": 1}', "name: missing"),
    ("[{}]", "[0].schema"),
])
def test_malformed_json_is_one_line_and_writes_nothing(tmp_path, capsys, content, where):
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    out = tmp_path / "reports"
    assert main(["report", "--from-json", str(bad), "--out", str(out)]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"gpaudit: error: {bad}: ") and where in lines[0], lines
    assert "Traceback" not in captured.err and not out.exists()


def test_a_bad_field_of_one_entry_names_it(checked, tmp_path, capsys):
    _, report = checked
    data = json.loads(report.read_text())
    data[1]["verdict"] = "maybe"
    bad = tmp_path / "r.json"
    bad.write_text(json.dumps(data))
    assert main(["report", "--from-json", str(bad), "--out", str(tmp_path / "o")]) == 2
    line = capsys.readouterr().err.strip()
    assert line == f"gpaudit: error: {bad}: [1].verdict: must be one of certified, refuted, unknown, not 'maybe'"
    assert not (tmp_path / "o").exists()


def test_missing_report_and_mixed_arguments_are_usage_errors(tmp_path, capsys):
    assert main(["report", "--from-json", str(tmp_path / "none.json")]) == 2
    assert "none.json: cannot read file" in capsys.readouterr().err
    assert main(["report", str(CERTIFIED), "--from-json", str(tmp_path / "none.json")]) == 2
    assert "--from-json takes no FILE" in capsys.readouterr().err


def test_reads_the_report_from_stdin(checked, tmp_path, monkeypatch, capsys):
    import io
    _, report = checked
    one = json.loads(report.read_text())[0]
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(one)))
    assert main(["report", "--from-json", "-", "--out", str(tmp_path / "o"), "-q"]) == 0
    assert (tmp_path / "o" / "threshold-laplace-global" / "report.html").exists()
    md = (tmp_path / "o" / "threshold-laplace-global" / "report.md").read_text()
    assert "| rendered from | \\<stdin>: " in md  # '<' escaped in the Markdown table
