"""`gpaudit prove`: directories as for check, -q, GPAUDIT_DEBUG."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from gpaudit.cli import main

EX = Path(__file__).resolve().parents[2] / "examples"
CERTIFIED = EX / "threshold-laplace-global.yaml"
REFUTED = EX / "broken" / "threshold-laplace-small-constant.yaml"


@pytest.fixture
def tree(tmp_path):
    root = tmp_path / "mechs"
    (root / "sub").mkdir(parents=True)
    (root / ".hidden").mkdir()
    shutil.copy(CERTIFIED, root / "z.yaml")
    shutil.copy(REFUTED, root / "sub" / "a.yml")
    (root / ".hidden" / "broken.yaml").write_text("not: [valid\n")
    return root


def test_a_directory_proves_every_yaml_under_it_quietly(tree, tmp_path, capsys):
    out = tmp_path / "proofs"
    assert main(["prove", str(tree), "--out", str(out), "-q"]) == 1      # the worst: refuted
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 2, lines                                         # -q: one line per file
    assert lines[0].startswith("refuted ") and str(tree / "sub" / "a.yml") in lines[0]
    assert lines[1].startswith("certified ") and str(tree / "z.yaml") in lines[1]
    assert (out / "threshold-laplace-global" / "obligations.smt2").exists()


def test_a_directory_without_yaml_is_a_usage_error(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    assert main(["prove", str(tmp_path / "empty"), "--out", str(tmp_path / "p")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(tmp_path / "empty") in err[0] and "no *.yaml" in err[0]
    assert not (tmp_path / "p").exists()


def test_gpaudit_debug_shows_the_traceback_of_an_internal_error(tree, tmp_path, capsys, monkeypatch):
    def boom(*args, **kwargs):
        raise RuntimeError("simulated bug")

    monkeypatch.setattr("gpaudit.prove.engine.prove_conditions", boom)
    monkeypatch.delenv("GPAUDIT_DEBUG", raising=False)
    assert main(["prove", str(tree / "z.yaml"), "--out", str(tmp_path / "p"), "-q"]) == 3
    err = capsys.readouterr().err
    assert "internal error" in err and "simulated bug" in err and "Traceback" not in err
    monkeypatch.setenv("GPAUDIT_DEBUG", "1")
    assert main(["prove", str(tree / "z.yaml"), "--out", str(tmp_path / "p"), "-q"]) == 3
    assert "Traceback" in capsys.readouterr().err
