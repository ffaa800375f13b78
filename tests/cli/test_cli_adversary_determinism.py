"""`gpaudit check FILE --seed 0` prints the same witness whether or not other parts of gpaudit were
imported first (as `gpaudit report` does), and writes nothing into the working directory (no
`.hypothesis/` folder)."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BROKEN = ROOT / "examples" / "broken"
LARGE_GAMMA = BROKEN / "threshold-student-t-large-gamma.yaml"


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return env


def test_cli_witness_is_reproducible_and_writes_no_hypothesis_dir(tmp_path):
    """`gpaudit check FILE --seed 0` twice, once after importing report/claims first (as
    `gpaudit report` does), gives the same witness; nothing is written to the working directory."""
    work = tmp_path / "wd"
    work.mkdir()
    runs = [
        [sys.executable, "-m", "gpaudit", "check", str(LARGE_GAMMA), "--seed", "0", "--json", str(tmp_path / "a.json")],
        [sys.executable, "-c",
         "import sys, gpaudit.report, gpaudit.papers, gpaudit.prove; from gpaudit.cli import main; "
         f"sys.exit(main(['check', {str(LARGE_GAMMA)!r}, '--seed', '0', '--json', {str(tmp_path / 'b.json')!r}]))"],
    ]
    for cmd in runs:
        r = subprocess.run(cmd, capture_output=True, text=True, env=_env(), cwd=work, timeout=900)
        assert r.returncode == 1, r.stdout + r.stderr  # refuted
    a = json.loads((tmp_path / "a.json").read_text())
    b = json.loads((tmp_path / "b.json").read_text())
    assert a["witness"] is not None
    assert a["witness"] == b["witness"]
    assert not (work / ".hypothesis").exists()
    assert list(work.iterdir()) == []
