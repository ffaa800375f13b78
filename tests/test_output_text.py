"""Exact values read as the user wrote them: a YAML float's binary value is shown as the shortest
decimal that reads back to it, marked binary64; a missing bound is said in words."""

from pathlib import Path

import pytest

from gpaudit.cli import summary_line
from gpaudit.report.readable import readable_exact
from gpaudit.report.junit import _summary
from gpaudit.verdict import REFUTED, Result

ROOT = Path(__file__).resolve().parents[1]


def test_readable_exact():
    assert readable_exact("3602879701896397/36028797018963968") == "0.1 (binary64)"
    assert readable_exact("8106479329266893/9007199254740992") == "0.9 (binary64)"
    assert readable_exact("1/3") == "1/3"              # not a binary fraction
    assert readable_exact("1/2") == "1/2"              # a short exact fraction stays as written
    assert readable_exact("1/1000000") == "1/1000000"
    assert readable_exact("0") == "0" and readable_exact("eps") == "eps"
    # a power-of-two denominator that is not a double's value (more than 53 bits) stays exact
    big = "36028797018963969/36028797018963968"
    assert readable_exact(big) == big


def test_summary_lines_read_well():
    r = Result("n", "n.yaml", "0" * 64, REFUTED,
               {"epsilon": "3602879701896397/36028797018963968", "delta": "0"}, 2, None)
    line = summary_line(r)
    assert "epsilon claimed 0.1 (binary64)" in line and "no certified bound" in line
    rep = {"verdict": "refuted", "name": "n", "file": "n.yaml", "epsilon_lower": "2", "epsilon_upper": None,
           "claim": {"epsilon": "3602879701896397/36028797018963968", "delta": "0"}}
    text = _summary(rep)
    assert "no certified bound" in text and "None" not in text and "0.1 (binary64)" in text


@pytest.mark.slow  # a full report run over several configurations
def test_report_exits_with_the_worst_verdict(tmp_path):
    from gpaudit.cli import main
    broken = ROOT / "examples" / "broken" / "threshold-laplace-small-constant.yaml"
    valid = ROOT / "examples" / "threshold-laplace-global.yaml"
    assert main(["report", str(valid), "--out", str(tmp_path / "a"), "--effort", "quick"]) == 0
    assert main(["report", str(valid), str(broken), "--out", str(tmp_path / "b"), "--effort", "quick"]) == 1
    assert (tmp_path / "b" / "README.md").exists()  # the reports are written whatever the verdict


def test_claims_json_and_markdown_to_stdout(capsys):
    import json
    from gpaudit.cli import main
    assert main(["claims", "--paper", "liu", "--quick", "--json", "-"]) == 0
    out, err = capsys.readouterr()
    data = json.loads(out)   # stdout carries the JSON alone
    assert data and all(d["paper"] == "liu" for d in data)
    assert "claims:" in err and "verdict" in err
    assert main(["claims", "--paper", "liu", "--quick", "--markdown", "-"]) == 0
    out, err = capsys.readouterr()
    assert "### [liu]" in out and "claims:" in err
    assert main(["claims", "--paper", "liu", "--json", "-", "--markdown", "-"]) == 2
