"""`gpaudit check`'s text output says when answers from the proof cache were reused (they order the
work, they prove nothing); a cold run says nothing about the cache, and neither does `-q`."""

import json
from pathlib import Path

import pytest

from gpaudit.cli import main
from gpaudit.kernel import z3door as zb
from gpaudit.runtime import cache as rc

ROOT = Path(__file__).resolve().parents[2]
REFUTED_BY_COVER = ROOT / "examples" / "broken" / "laud-thm3-count3-linf-wrong-dual.yaml"   # z3: cover sat


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setattr(rc, "_ON", True)        # whatever ran before in this process
    monkeypatch.setenv("GPAUDIT_CACHE", str(tmp_path))
    monkeypatch.delenv("GPAUDIT_NO_CACHE", raising=False)
    monkeypatch.delenv("CI", raising=False)
    return tmp_path / "proofs"


def _records(d: Path) -> list:
    return [json.loads(f.read_text()) for f in sorted(d.glob("*.json"))]


def test_the_text_output_says_when_cached_answers_steered_the_run(cache_dir, capsys):
    rc_first = main(["check", str(REFUTED_BY_COVER), "--full-evidence"])
    first = capsys.readouterr().out
    assert rc_first == 1 and "proof cache:" not in first          # a cold run: nothing reused
    assert any(r["status"] == zb.SAT for r in _records(cache_dir))  # the cover's counterexamples
    rc_again = main(["check", str(REFUTED_BY_COVER), "--full-evidence"])
    again = capsys.readouterr().out
    (line,) = [ln for ln in again.splitlines() if "proof cache:" in ln]
    assert rc_again == 1 and "reused (they order work, they prove nothing)" in line
    assert int(line.split("proof cache:")[1].split()[0]) >= 1
    assert main(["check", str(REFUTED_BY_COVER), "--full-evidence", "-q"]) == 1
    assert "proof cache" not in capsys.readouterr().out                            # -q: the summary only
