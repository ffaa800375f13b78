"""A malformed input.metric (an unknown name, a wrong number of weights, a zero weight, two metrics
at once) ends `gpaudit check` with exit 2 and one line on stderr naming the field, not a traceback."""

import subprocess
import sys

import pytest

from test_metric import LINEAR


@pytest.mark.parametrize("text, field", [
    ("manhattan", "input.metric"),
    ("{l1: [1]}", "input.metric.l1"),
    ("{l1: [1, 0]}", "input.metric.l1[1]"),
    ("{l3: [1, 1]}", "input.metric.l3"),
    ("{l1: [1, 1], linf: [1, 1]}", "input.metric"),
])
def test_a_bad_metric_is_a_configuration_error(tmp_path, text, field):
    p = tmp_path / "bad.yaml"
    p.write_text(LINEAR.format(name="bad", dim=2, metric=text, f="x1", B="1"))
    out = subprocess.run([sys.executable, "-m", "gpaudit", "check", str(p)], capture_output=True, text=True)
    assert out.returncode == 2
    err = out.stderr.strip()
    assert len(err.splitlines()) == 1 and field in err and "Traceback" not in err
