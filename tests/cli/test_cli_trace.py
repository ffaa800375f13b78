"""`gpaudit check` on the catalog's traced configurations (examples/usercode/traced-*.yaml): each
gets its verdict and exit code (certified 0, refuted 1), and the JSON says that both the query and
the bound were traced from the user's code."""

import json

import pytest

from gpaudit.cli import main


EXAMPLES = {"traced-threshold.yaml": ("certified", 0), "traced-threshold-bound-too-small.yaml": ("refuted", 1),
            "traced-threshold-no-cap.yaml": ("refuted", 1)}


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_usercode_examples(name, tmp_path, capsys):
    from pathlib import Path
    root = Path(__file__).resolve().parents[2] / "examples" / "usercode"
    assert sorted(p.name for p in root.glob("traced-*.yaml")) == sorted(EXAMPLES)
    out = tmp_path / "r.json"
    code = main(["check", str(root / name), "--effort", "quick", "--json", str(out)])
    rep = json.loads(out.read_text())
    assert (rep["verdict"], code) == EXAMPLES[name]
    assert rep["info"]["query_source"] == rep["info"]["bound_source"] == "traced"
