"""gpaudit check -j: the workers run the code this process runs, and a worker that dies costs
one retry of the files it held, never the verdicts of the others."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from gpaudit.cli import main

ROOT = Path(__file__).resolve().parents[2]
CERTIFIED = ROOT / "examples" / "threshold-student-t.yaml"
REFUTED = ROOT / "examples" / "broken" / "threshold-pointwise-bound.yaml"


def test_workers_import_this_gpaudit_not_one_in_the_working_directory(tmp_path):
    """Run from a folder that holds another, older gpaudit package: the workers' server started
    there imported that one (its preload looks in the working directory first), and every file
    ended 'worker process failed: BrokenProcessPool' and unknown."""
    old = tmp_path / "gpaudit"
    old.mkdir()
    for name in ("__init__.py", "check.py", "api.py"):
        (old / name).write_text("VERSION = 'an older gpaudit without runner.check_one'\n")
    # this gpaudit first on sys.path, as a console script has it (no working directory entry)
    launcher = f"import sys; sys.path[0] = {str(ROOT)!r}; from gpaudit.cli import main; sys.exit(main())"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run([sys.executable, "-c", launcher, "check", "-j", "2", "--effort", "quick", "-q",
                           "--no-config", str(CERTIFIED), str(REFUTED)],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert "worker process failed" not in proc.stderr, proc.stderr
    verdicts = [line.split()[0] for line in proc.stdout.splitlines()]
    assert verdicts == ["certified", "refuted"] and proc.returncode == 1, proc.stdout + proc.stderr


KILLER = """\
import os
import pathlib
import signal

MARK = pathlib.Path(__file__).with_name("died-once")
PARENT = int(pathlib.Path(__file__).with_name("parent-pid").read_text())


def f(x):
    # in a worker (not the process that loads the file), the first call kills the worker
    if os.getpid() != PARENT and not MARK.exists():
        MARK.write_text("killed")
        os.kill(os.getpid(), signal.SIGKILL)
    return 0.0


def B(x):
    return 1.0
"""

CONFIG = """\
gpaudit: 1
name: kills-its-worker-once
input: {dim: 1}
query: {kind: python, callable: "killer:f"}
bound: {growth: exponential, gamma: 0, kind: python, callable: "killer:B"}
noise: {family: laplace, eta: 1}
claim: {epsilon: 1}
"""


def test_a_dead_worker_is_replaced_and_its_files_checked_again(tmp_path, capsys):
    (tmp_path / "killer.py").write_text(textwrap.dedent(KILLER))
    (tmp_path / "parent-pid").write_text(str(os.getpid()))   # a file: workers may predate any env change
    cfg = tmp_path / "mech.yaml"
    cfg.write_text(CONFIG)
    code = main(["check", "-j", "2", "--effort", "quick", "-q", "--no-config", str(cfg), str(CERTIFIED), str(REFUTED)])
    out, err = capsys.readouterr()
    assert (tmp_path / "died-once").exists()            # a worker did die
    assert "worker process failed" not in err, err
    verdicts = [line.split()[0] for line in out.splitlines()]
    # the callable traces to f = 0, B = 1 (certified on its own merits), and the others unharmed
    assert verdicts == ["certified", "certified", "refuted"] and code == 1, out
