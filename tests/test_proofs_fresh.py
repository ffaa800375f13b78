"""proofs/<name>/ is fresh: present for every catalog configuration, pinned to the config's current
sha256, and every SMT block a valid configuration relies on is `unsat` when z3 re-checks it.

Regenerate with:  gpaudit prove examples/*.yaml examples/broken/*.yaml
"""

import re
from pathlib import Path

import pytest
import z3

from gpaudit.spec.load import load_spec

ROOT = Path(__file__).resolve().parents[1]
VALID = sorted((ROOT / "examples").glob("*.yaml"))
BROKEN = sorted((ROOT / "examples" / "broken").glob("*.yaml"))
BLOCK = re.compile(r"^; obligation (\d+): condition=(\S+) region=(\S+) answer=(\S+)\n; claim: [^\n]*\n"
                   r"\(push\)\n(.*?)\n\(check-sat\)\n\(pop\)", re.S | re.M)
REGEN = "stale proofs: run `gpaudit prove examples/*.yaml examples/broken/*.yaml`"


def _artifacts(path):
    spec = load_spec(path)
    d = ROOT / "proofs" / spec.name
    assert (d / "proof.md").is_file() and (d / "obligations.smt2").is_file(), f"{d} missing; {REGEN}"
    text = (d / "obligations.smt2").read_text()
    m = re.search(r"^; config-sha256: ([0-9a-f]{64})$", text, re.M)
    assert m, "no sha256 header"
    assert m.group(1) == spec.sha256, f"{spec.name}: {REGEN}"
    assert spec.sha256 in (d / "proof.md").read_text(), f"{spec.name}: proof.md {REGEN}"
    return text


def _unsat(smt: str) -> bool:
    z3.set_param("smt.random_seed", 0)
    z3.set_param("nlsat.seed", 0)
    s = z3.Solver()
    s.set("timeout", 60000)
    s.from_string(smt)
    return s.check() == z3.unsat


@pytest.mark.parametrize("path", VALID + BROKEN, ids=lambda p: p.parent.name + "/" + p.stem)
def test_proofs_present_and_pinned(path):
    _artifacts(path)


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.stem)
def test_valid_obligations_recheck_unsat(path):
    text = _artifacts(path)
    blocks = BLOCK.findall(text)
    assert blocks, "no obligations"
    headers = re.findall(r"^; obligation \d+: .* answer=(\S+)$", text, re.M)
    assert set(headers) <= {"unsat", "arb"}, "a valid configuration's proof has an undecided obligation"
    for num, cond, region, answer, smt in blocks:
        assert answer == "unsat"
        assert _unsat(smt), f"obligation {num} ({cond} on {region}) is not unsat"


@pytest.mark.parametrize("path", BROKEN, ids=lambda p: p.stem)
def test_broken_recorded_proofs_recheck_unsat(path):
    """The parts of a broken configuration that were proved stay proved."""
    for num, cond, region, answer, smt in BLOCK.findall(_artifacts(path)):
        if answer == "unsat":
            assert _unsat(smt), f"obligation {num} ({cond} on {region}) is not unsat"
