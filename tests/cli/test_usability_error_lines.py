"""Configuration errors say where: FILE:LINE: field.path: problem when the field's line is known."""

from __future__ import annotations

import pytest

from gpaudit.api import ConfigError, load
from gpaudit.cli import main

# line numbers on the left are the file's
GOOD = """\
gpaudit: 1
name: range
description: a bounded-range query with generalized Cauchy noise
params:
  eps: 1
  gamma: eps/8
input:
  dim: 1
query:
  kind: bounded_range
  l: 0
  r: 2
  tau: 1
bound:
  kind: smooth_sensitivity
  growth: exponential
  gamma: gamma
noise:
  family: gen_cauchy
  p: 4
  eta: 1/4
claim:
  epsilon: eps
"""

PIECEWISE = """\
gpaudit: 1
name: pw
input:
  dim: 1
query:
  kind: piecewise
  pieces:
    - where: x < 0
      value: 0
    - where: x < 1
      value: x
    - value: 1
bound: {kind: constant, growth: exponential, gamma: 0, value: 1}
noise: {family: laplace, eta: 1}
claim: {epsilon: 1}
"""


def edit(old, new, text=GOOD):
    assert old in text, old
    return text.replace(old, new)


CASES = [
    # (id, text, line, field and problem as printed)
    ("value", edit("  tau: 1", "  tau: 0"), 13, "query.tau: must be > 0, got 0"),
    ("params", edit("  gamma: eps/8", "  gamma: eps/(8"), 6, "params.gamma: "),
    ("unknown-field", edit("  p: 4\n", "  p: 4\n  colour: red\n"), 21, "noise.colour: unknown field"),
    ("missing-field", edit("  p: 4\n", ""), 18, "noise.p: missing required field"),
    ("defaulted", edit("  epsilon: eps", "  epsilon: eps\n  delta: 1"), 24, "claim.delta: must be < 1"),
    ("list-item", edit("value: x\n", "value: x*1e310\n", PIECEWISE), 11,
     "query.pieces[1].value: constant 1.0e+310 is outside the range"),
    ("flow-mapping", edit("noise: {family: laplace, eta: 1}", "noise: {family: laplace, eta: -1}", PIECEWISE),
     14, "noise.eta: must be > 0"),
    ("dim", edit("dim: 1", "dim: 2"), 8, "input.dim: query kind bounded_range needs dim 1, got 2"),
    ("yaml-syntax", "gpaudit: 1\nname: [unclosed\n", 3, "invalid YAML at column 1: "),
    # a key given twice: refused at the second occurrence, whichever of the values is valid
    ("duplicate-valid-last", edit("  eps: 1\n", "  eps: 1/2\n  eps: 2\n"), 6,
     "params.eps: duplicate key (first given at line 5;"),
    ("duplicate-invalid-last", edit("  tau: 1\n", "  tau: 10\n  tau: 0\n"), 14,
     "query.tau: duplicate key (first given at line 13;"),
    ("duplicate-flow", edit("noise: {family: laplace, eta: 1}", "noise: {family: laplace, eta: 1, eta: 9}",
                            PIECEWISE), 14, "noise.eta: duplicate key (first given at line 14;"),
    ("duplicate-top", GOOD + "name: other\n", 24, "name: duplicate key (first given at line 2;"),
    # misspellings: the field named as written, and the closest known word suggested
    ("misspelt-key", edit("  family: gen_cauchy", "  famly: gen_cauchy"), 19,
     "noise.famly: unknown field; did you mean 'family'? (allowed:"),
    ("misspelt-family", edit("  family: gen_cauchy", "  family: gencauchy"), 19,
     "noise.family: unknown family 'gencauchy'; did you mean 'gen_cauchy'?"),
    ("misspelt-kind", edit("  kind: bounded_range", "  kind: bounded_rnge"), 10,
     "query.kind: unknown query kind 'bounded_rnge'; did you mean 'bounded_range'?"),
    ("misspelt-section", edit("claim:", "clam:"), 22, "clam: unknown field; did you mean 'claim'?"),
    ("quoted-version", edit("gpaudit: 1", 'gpaudit: "1"'), 1,
     "gpaudit: unsupported schema version '1' (write it unquoted: gpaudit: 1)"),
]


@pytest.mark.parametrize("case_id,text,line,message", CASES, ids=[c[0] for c in CASES])
def test_the_line_of_the_field_is_named(tmp_path, capsys, case_id, text, line, message):
    path = tmp_path / f"{case_id}.yaml"
    path.write_text(text)
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"gpaudit: error: {path}:{line}: {message}"), err
    assert err.count("\n") == 1
    with pytest.raises(ConfigError) as info:
        load(path)
    assert info.value.lineno == line and info.value.line().startswith(f"{path}:{line}: ")


def test_without_a_known_line_the_old_form_stays(tmp_path, capsys):
    missing = tmp_path / "m.yaml"
    missing.write_text(GOOD.split("claim:")[0])     # the top-level claim is missing: no line to name
    assert main(["check", str(missing)]) == 2
    assert capsys.readouterr().err == f"gpaudit: error: {missing}: claim: missing required field\n"
    assert main(["check", str(tmp_path / "none.yaml")]) == 2
    assert f"{tmp_path / 'none.yaml'}: cannot read file" in capsys.readouterr().err


def test_github_annotations_carry_the_line(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text(edit("  tau: 1", "  tau: 0"))
    top = tmp_path / "top.yaml"
    top.write_text(GOOD.split("claim:")[0])
    assert main(["check", str(bad), str(top), "--format", "github"]) == 2
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"::error file={bad},line=13,title=gpaudit configuration error::{bad}:13: query.tau:")
    assert out[1].startswith(f"::error file={top},title=gpaudit configuration error::")


def test_calibrate_and_report_name_the_line_too(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text(edit("  p: 4", "  p: 1"))
    assert main(["calibrate", str(bad), "--epsilon", "1"]) == 2
    assert f"{bad}:20: noise.p: must be > 1" in capsys.readouterr().err
    assert main(["report", str(bad), "--out", str(tmp_path / "o")]) == 2
    assert f"{bad}:20: noise.p: must be > 1" in capsys.readouterr().err
