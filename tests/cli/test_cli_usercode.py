"""`gpaudit check a.yaml b.yaml`, two configurations whose Python callables are in modules of the
same name: each file is judged on its own module, so the clip that holds is never refuted and the
steep one is, with a witness."""

import json

import mpmath

from gpaudit.cli import main

from test_usercode import REPRO_A, make


REPRO_B = "def f(x):\n    return min(max(3*x[0] + 0.5, 0.0), 1.0)\n\ndef B(x):\n    return 1.0\n"


def test_repro_pair_each_file_on_its_own_module(tmp_path, capsys):
    a = make(tmp_path / "a", "py-a", REPRO_A)
    b = make(tmp_path / "b", "py-b", REPRO_B)
    out = tmp_path / "r.json"
    code = main(["check", str(a), str(b), "--effort", "quick", "--json", str(out)])
    capsys.readouterr()
    ra, rb = json.loads(out.read_text())
    assert code == 1
    assert ra["verdict"] in ("unknown", "certified")   # holds over the reals: never refuted
    assert rb["verdict"] == "refuted" and rb["witness"] is not None
    assert mpmath.mpf(rb["epsilon_lower"]) > 2.9
