"""proofs/<name>/ is fresh: present for every catalog configuration, pinned to the config's current
sha256, proof.md pinned to the obligations.smt2 beside it, both saying what the current code proves
(regenerated and compared apart from the code identity each records: a change of code that changes no
proof leaves them fresh), and every SMT block a valid configuration relies on is `unsat` when z3
re-checks it.

Regenerate with:  gpaudit prove examples/*.yaml examples/broken/*.yaml
"""

import re
from pathlib import Path

import pytest
import z3

from proved_once import proved
from gpaudit.model.mechanism import build_mechanism
from gpaudit.prove import artifacts
from gpaudit.prove.artifacts import CODE_MD, CODE_TAG, OBLIGATIONS_MD, SHA_TAG, proof_md, smt2_text, write_artifacts
from gpaudit.prove.engine import prove_conditions
from gpaudit.provenance import text_sha256
from gpaudit.spec.load import load_spec

ROOT = Path(__file__).resolve().parents[2]
# output.dim > 1 has no Definition 8 proof stage (`gpaudit prove` skips it): no proofs/ directory
VALID = [p for p in sorted((ROOT / "examples").glob("*.yaml")) if load_spec(p).output_dim == 1]
BROKEN = [p for p in sorted((ROOT / "examples" / "broken").glob("*.yaml")) if load_spec(p).output_dim == 1]
BLOCK = re.compile(r"^; obligation (\d+): condition=(\S+) region=(\S+) answer=(\S+)\n; claim: [^\n]*\n"
                   r"\(push\)\n(.*?)\n\(check-sat\)\n\(pop\)", re.S | re.M)
REGEN = "stale proofs: run `gpaudit prove examples/*.yaml examples/broken/*.yaml`"


def _header(text, tag):
    m = re.search(rf"^{re.escape(tag)}`?([0-9a-f]{{64}})`?", text, re.M)
    return m.group(1) if m else None


def stale_proof(spec, d: Path) -> list[str]:
    """What in the proof directory d of a configuration is missing or stale, seen without proving
    anything again ([] = fresh; that the current code proves the same is test_proofs_say_what_the_current_code_proves)."""
    rel = d.relative_to(d.parent.parent).as_posix()
    if not ((d / "proof.md").is_file() and (d / "obligations.smt2").is_file()):
        return [f"{rel} missing; {REGEN}"]
    texts = {"obligations.smt2": (d / "obligations.smt2").read_text(), "proof.md": (d / "proof.md").read_text()}
    out = []
    if _header(texts["obligations.smt2"], SHA_TAG) != spec.sha256:
        out.append(f"{rel}/obligations.smt2: its configuration changed (or no config-sha256 header); {REGEN}")
    if spec.sha256 not in texts["proof.md"]:
        out.append(f"{rel}/proof.md: its configuration changed; {REGEN}")
    codes = [_header(texts[name], tag) for name, tag in (("obligations.smt2", CODE_TAG), ("proof.md", CODE_MD))]
    if None in codes:
        out.append(f"{rel}: no code sha256 header (the code that wrote it); {REGEN}")
    if _header(texts["proof.md"], OBLIGATIONS_MD) != text_sha256(texts["obligations.smt2"]):
        out.append(f"{rel}/proof.md does not explain the obligations.smt2 beside it (its "
                   f"obligations.smt2 sha256 differs); {REGEN}")
    return out


def _artifacts(path):
    spec = load_spec(path)
    d = ROOT / "proofs" / spec.name
    problems = stale_proof(spec, d)
    assert not problems, "\n".join(problems)
    return (d / "obligations.smt2").read_text()


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


@pytest.mark.slow  # z3 re-decides every recorded block as one formula (about 20 s)
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


@pytest.mark.slow
@pytest.mark.parametrize("path", BROKEN, ids=lambda p: p.stem)
def test_broken_recorded_proofs_recheck_unsat(path):
    """The parts of a broken configuration that were proved stay proved."""
    for num, cond, region, answer, smt in BLOCK.findall(_artifacts(path)):
        if answer == "unsat":
            assert _unsat(smt), f"obligation {num} ({cond} on {region}) is not unsat"


@pytest.mark.slow  # the proof stage of every catalog configuration again (about 15 s)
@pytest.mark.parametrize("path", VALID + BROKEN, ids=lambda p: p.parent.name + "/" + p.stem)
def test_proofs_say_what_the_current_code_proves(path):
    """`gpaudit prove` today writes the committed obligations.smt2 and proof.md, apart from the code
    identity they record: nothing in proofs/ rests on code that proves otherwise."""
    spec = load_spec(path)
    mech, outcome = proved(path)                 # tests/pipeline/test_prove.py reads the same run
    obligations = smt2_text(mech, outcome, ROOT)
    assert artifacts.says_the_same(ROOT / "proofs" / spec.name, obligations, proof_md(mech, outcome, ROOT, obligations)), \
        f"proofs/{spec.name} is not what the current code proves; {REGEN}"


def test_a_proof_is_written_again_only_where_it_says_something_else(tmp_path, monkeypatch):
    """Another code identity alone leaves a written proof as it is (and fresh); a proof that says
    something else is written again, and a proof.md that does not explain the obligations beside it
    is stale."""
    mech = build_mechanism(load_spec(ROOT / "examples" / "threshold-laplace-global.yaml"))
    outcome = prove_conditions(mech, 3000)
    d = write_artifacts(mech, outcome, tmp_path / "proofs", ROOT)
    assert stale_proof(mech.spec, d) == []
    before = {n: (d / n).read_text() for n in ("obligations.smt2", "proof.md")}
    monkeypatch.setattr(artifacts, "proof_code_sha256", lambda: "f" * 64)    # other code, the same proof
    write_artifacts(mech, outcome, tmp_path / "proofs", ROOT)
    assert {n: (d / n).read_text() for n in before} == before and stale_proof(mech.spec, d) == []
    edited = before["obligations.smt2"].replace("answer=unsat", "answer=sat", 1)
    assert edited != before["obligations.smt2"]
    (d / "obligations.smt2").write_text(edited)                     # a proof that says something else
    assert not artifacts.says_the_same(d, before["obligations.smt2"], before["proof.md"])
    assert any("does not explain the obligations.smt2" in p for p in stale_proof(mech.spec, d))
    write_artifacts(mech, outcome, tmp_path / "proofs", ROOT)           # written again, by the other code
    assert (d / "obligations.smt2").read_text() != edited and "f" * 64 in (d / "proof.md").read_text()
    assert stale_proof(mech.spec, d) == []
    smt = (d / "obligations.smt2").read_text()
    (d / "obligations.smt2").write_text(smt.replace("(check-sat)", "(check-sat)\n(get-model)", 1))
    problems = stale_proof(mech.spec, d)             # an edited block: proof.md no longer explains it
    assert len(problems) == 1 and "does not explain the obligations.smt2" in problems[0]
    (d / "obligations.smt2").write_text(smt)
    assert stale_proof(mech.spec, d) == []
    (d / "proof.md").unlink()
    assert stale_proof(mech.spec, d) == [f"proofs/threshold-laplace-global missing; {REGEN}"]
