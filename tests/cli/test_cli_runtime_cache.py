"""`gpaudit check`'s text output says when answers from the proof cache were reused (they order the
work, they prove nothing); a cold run says nothing about the cache, and neither does `-q`."""

from gpaudit.cli import main
from gpaudit.kernel import z3door as zb

from test_runtime_cache import REFUTED_BY_COVER, _records


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
