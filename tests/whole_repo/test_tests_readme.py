"""tests/README.md assigns every test file to its tier, and a file in a tier's folder is the tier
the table says (a new test file without a row, or in the wrong folder, fails here)."""

import re
from pathlib import Path

from conftest import TESTS, TIERS, tier_of

ROW = re.compile(r"^\| `((?:\w+/)?test_\w+\.py)` \| (\w+) \|$", re.M)


def test_every_test_file_has_its_tier_in_the_readme():
    rows = ROW.findall((TESTS / "README.md").read_text(encoding="utf-8"))
    table = {Path(name).name: tier for name, tier in rows}
    assert len(table) == len(rows), "a file is listed twice"
    assert set(table.values()) <= set(TIERS)
    files = sorted(TESTS.rglob("test_*.py"))
    assert {f.name for f in files} == set(table), "tests/README.md's table and the test files differ"
    for f in files:
        folder = tier_of(f)
        assert folder in (None, table[f.name]), f"{f.relative_to(TESTS)} is in {folder}/, the table says {table[f.name]}"
        assert folder is not None or f.parent == TESTS, f"{f.relative_to(TESTS)}: not in a tier's folder"
