"""`gpaudit check` on configurations whose query and bound are users' Python callables: two files
whose modules have the same name are each judged on their own module; a callable that raises (or
calls sys.exit) makes its file unknown while the process goes on and checks the other files; and a
finding on a float64 model is shown in the summary line and in the reports."""

import json
import subprocess
import sys

import mpmath

from gpaudit.cli import main

from test_python_callables import B_OK, CLIP, RAISERS, make


def test_cli_two_same_named_modules(tmp_path, capsys):
    gentle = make(tmp_path / "one", "slope-one", CLIP.format(slope=1))
    steep = make(tmp_path / "two", "slope-three", CLIP.format(slope=3))
    out = tmp_path / "r.json"
    code = main(["check", str(gentle), str(steep), "--quiet", "--effort", "quick", "--json", str(out)])
    assert code == 1
    reports = {r["name"]: r for r in json.loads(out.read_text())}
    # both clips trace into exact formulas: the correct one is certified, the steep one refuted
    assert reports["slope-one"]["verdict"] == "certified"
    assert reports["slope-one"]["info"]["query_source"] == "traced"
    assert reports["slope-three"]["verdict"] == "refuted"
    assert mpmath.mpf(reports["slope-one"]["epsilon_lower"]) < mpmath.mpf(reports["slope-three"]["epsilon_lower"])


def test_cli_keeps_checking_the_other_files(tmp_path, capsys):
    bad = make(tmp_path / "bad", "exits", RAISERS["system-exit-5"][0] + B_OK)
    steep = make(tmp_path / "steep", "slope-three", CLIP.format(slope=3))
    out = tmp_path / "r.json"
    assert main(["check", str(bad), "--quiet", "--effort", "quick"]) == 3
    code = main(["check", str(bad), str(steep), "--effort", "quick", "--json", str(out)])
    captured = capsys.readouterr()
    assert code == 1  # refuted (1) is worse than unknown (3)
    assert "internal error" not in captured.err
    first, second = json.loads(out.read_text())
    assert first["verdict"] == "unknown"
    assert any(c["id"] == "user_code" and "SystemExit(5)" in c["detail"] for c in first["checks"])
    assert second["verdict"] == "refuted"


def test_sys_exit_in_user_code_does_not_end_the_process(tmp_path):
    cfg = make(tmp_path, "exits", RAISERS["sys-exit-0"][0] + B_OK)
    proc = subprocess.run([sys.executable, "-m", "gpaudit", "check", str(cfg), "--effort", "quick"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 3, proc.stderr
    assert proc.stdout.startswith("unknown")
    assert "user_code" in proc.stdout and "SystemExit(0)" in proc.stdout
    assert "Traceback" not in proc.stderr


def test_a_float_callables_finding_is_in_the_summary_and_the_reports(tmp_path, capsys):
    """A violation found on a float64 model is evidence only (unknown), but it is shown: in the
    summary line and at the top of both reports, with the rate against the claim."""
    cfg = make(tmp_path, "np-clamp", """\
        import numpy as np

        def f(x):
            return float(np.clip(2 * np.asarray(x, dtype=float)[0], 0.0, 1.0))   # numpy: not traced

        def B(x):
            return 1.0
        """)
    # a tolerance so large that the violation cannot be shown beyond it: evidence only
    cfg.write_text(cfg.read_text().replace('callable: "userfns:f"', 'callable: "userfns:f", tolerance: 1/2'))
    out = tmp_path / "r.json"
    assert main(["check", str(cfg), "--effort", "quick", "--no-config", "--json", str(out)]) == 3
    said = "found on an approximate model: rate 2.0 > 1, evidence only"
    assert f"exhibited none ({said})" in capsys.readouterr().out
    assert main(["report", "--from-json", str(out), "--out", str(tmp_path / "rep")]) == 3
    import html
    for name in ("report.md", "report.html"):
        assert said in html.unescape(next((tmp_path / "rep").rglob(name)).read_text())
    index = (tmp_path / "rep" / "README.md").read_text()
    assert "— (approximate model: 2.0, evidence only)" in index
