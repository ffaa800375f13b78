"""Exact values read as the user wrote them: a YAML float's binary value is shown as the shortest
decimal that reads back to it, marked binary64; a missing bound is said in words."""

from pathlib import Path

import pytest

from gpaudit.cli import summary_line
from gpaudit.readable import readable_exact
from gpaudit.report.junit import _summary
from gpaudit.verdict import REFUTED, Result

ROOT = Path(__file__).resolve().parents[2]


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


def test_a_quiet_pass_collapses_informational_rows_and_says_what_it_rests_on(capsys):
    """Informational rows that found nothing are one line (-v lists them); a certified result says
    which proved checks its certificate rests on."""
    from gpaudit.cli import main
    path = Path(__file__).resolve().parents[2] / "examples" / "threshold-student-t.yaml"
    assert main(["check", str(path), "--effort", "quick", "--no-config"]) == 0
    out = capsys.readouterr().out
    assert "definition8.cover   " not in out and "informational, not needed" not in out
    [line] = [ln for ln in out.splitlines() if "informational check" in ln]
    assert "4 informational checks the verdict does not rest on (definition8.cover," in line
    [basis] = [ln for ln in out.splitlines() if ln.strip().startswith("rests on: ")]
    assert "proof.cover" in basis and "certificate.rate" in basis
    assert main(["check", str(path), "--effort", "quick", "--no-config", "-v"]) == 0
    assert "    skipped   definition8.cover" in capsys.readouterr().out


def test_rests_on_explains_a_bound_that_is_not_a_definition8_bound():
    """A certified result whose B fails Definition 8's two-point cover (found by the audit) is still
    certified; the sentence says why, instead of leaving a reader to file a bug."""
    from types import SimpleNamespace

    from gpaudit.report.notices import rests_on
    from gpaudit.verdict import Check
    checks = [Check("proof.cover", "certified", "z3", "ok"), Check("certificate.rate", "certified", "arb", "ok"),
              Check("definition8.cover", "skipped", "grid", "informational, not needed for the verdict (...); "
                    "found: the secant slope 0.0055 exceeds B(x) = 2.3e-9")]
    text = rests_on(SimpleNamespace(verdict="certified", checks=checks, info={}))
    assert text.startswith("proof.cover, certificate.rate (each proved")
    assert "B is not a Definition 8 bound (definition8.cover), and that is fine" in text
    assert rests_on(SimpleNamespace(verdict="refuted", checks=checks, info={})) is None


def test_a_refutation_says_why_and_what_to_do(capsys):
    """Laplace noise with gamma > 0 and a pure claim is refuted with a witness of rate 1e17: the
    advice says that the rate is unbounded and what to use instead; other refutations get advice too."""
    from gpaudit.cli import main
    broken = Path(__file__).resolve().parents[2] / "examples" / "broken"
    assert main(["check", str(broken / "threshold-laplace-pure.yaml"), str(broken / "threshold-pointwise-bound.yaml"),
                 "--effort", "quick", "--no-config"]) == 1
    advice = [ln for ln in capsys.readouterr().out.splitlines() if ln.strip().startswith("advice: ")]
    assert len(advice) == 2
    assert "unbounded pure loss rate" in advice[0] and "claim delta > 0" in advice[0]
    assert "unbounded" not in advice[1] and "more noise" in advice[1]
