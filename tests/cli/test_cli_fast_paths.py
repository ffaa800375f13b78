"""`gpaudit check` as a user runs it, the console script in a subprocess: with -j 2 the text and the
JSON are those of -j 1, in input order, and -j 0 is a one-line error.  The JSON written to a pipe is
whole when the script exits, and a reader that leaves early gets one line and exit 3, no traceback."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BROKEN = ROOT / "examples" / "broken"


def _run(args, cwd=ROOT):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return subprocess.run([sys.executable, "-m", "gpaudit", "check", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600)


def _strip_times(x):
    if isinstance(x, dict):
        return {k: _strip_times(v) for k, v in x.items() if not k.startswith("seconds")}
    if isinstance(x, list):
        return [_strip_times(v) for v in x]
    return x


def test_parallel_check_equals_sequential_in_input_order(tmp_path):
    files = [str(BROKEN / "threshold-laplace-small-constant.yaml"),
             str(ROOT / "examples" / "threshold-laplace-global.yaml"),
             str(BROKEN / "threshold-laplace-pure.yaml")]
    outs = {}
    for j in (1, 2):
        r = _run(["--effort", "quick", "-j", str(j), "--json", str(tmp_path / f"j{j}.json"), *files])
        assert r.returncode == 1, r.stderr   # refuted is the worst of the three
        outs[j] = (r.stdout, json.loads((tmp_path / f"j{j}.json").read_text()))
    (text1, json1), (text2, json2) = outs[1], outs[2]
    assert [r["file"] for r in json2] == files  # input order, not completion order
    assert _strip_times(json1) == _strip_times(json2)
    assert [line.split()[:2] for line in text1.splitlines() if not line.startswith(" ")] == \
        [line.split()[:2] for line in text2.splitlines() if not line.startswith(" ")]


def test_jobs_must_be_a_positive_integer():
    r = _run(["-j", "0", "examples/threshold-laplace-global.yaml"])
    assert r.returncode == 2 and "positive integer" in r.stderr and "Traceback" not in r.stderr


def test_the_console_script_flushes_everything_before_it_exits(tmp_path):
    """The console script leaves without the interpreter's teardown (os._exit): the JSON on a pipe
    must still be whole (with -j 2 as well) and the exit code the verdict's."""
    files = [str(BROKEN / "threshold-laplace-small-constant.yaml"), str(BROKEN / "threshold-laplace-pure.yaml")]
    out = _run([*files, "--json", "-", "-j", "2", "--quiet"])
    assert out.returncode == 1, out.stderr
    results = json.loads(out.stdout)          # complete: it parses
    assert [r["verdict"] for r in results] == ["refuted", "refuted"]
    assert "Traceback" not in out.stderr


@pytest.mark.parametrize("jobs", ["1", pytest.param("2", marks=pytest.mark.slow)])   # -j 2: two worker processes
def test_a_reader_that_leaves_early_is_one_line_and_exit_3(jobs):
    """`gpaudit check a b | head -1`: no 'internal error', no traceback; exit 3 (not every result
    was written, so a gate cannot pass).  Here the reader leaves before the first line, so the
    first write already finds the pipe closed.  With -j 2 the worker pool is shut down too: no
    orphaned worker keeps stderr open (the read below would never end)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    files = [str(BROKEN / "threshold-laplace-small-constant.yaml"), str(BROKEN / "threshold-laplace-pure.yaml"),
             str(BROKEN / "threshold-bound-jump.yaml"), str(ROOT / "examples" / "threshold-student-t.yaml")]
    proc = subprocess.Popen([sys.executable, "-m", "gpaudit", "check", *files, "-j", jobs], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    proc.stdout.close()
    _, err = proc.communicate(timeout=300)   # a guard against a hang (orphaned workers), not a speed check
    assert proc.returncode == 3
    assert "internal error" not in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1 and "closed early" in err
