"""The code identity (gpaudit.provenance.code_sha256): what it covers and what changes it."""

import re
import shutil
from pathlib import Path

import pytest

from gpaudit import api
from gpaudit.provenance import DECISION_SOURCES, code_sha256, decision_files
from gpaudit.verdict import Check, Result
from test_import_graph import import_graph

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def tree(tmp_path):
    """A copy of the gpaudit package (sources only) and a docs/ folder beside it."""
    shutil.copytree(ROOT / "gpaudit", tmp_path / "gpaudit", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "notes.md").write_text("# notes\n\nepsilon = 1\n")
    return tmp_path


def _edit_one_byte(path: Path):
    data = bytearray(path.read_bytes())
    i = data.rindex(b"=")          # an assignment's `=` becomes `-`: one byte, in the code itself
    data[i] = ord("-")
    path.write_bytes(bytes(data))


def test_the_identity_is_a_sha256_of_the_installed_sources():
    code = code_sha256()
    assert re.fullmatch(r"[0-9a-f]{64}", code)
    assert code == code_sha256() == code_sha256(ROOT)
    files = decision_files()
    assert files == sorted(files) and "gpaudit/kernel/decide.py" in files and "gpaudit/check.py" in files
    assert not any(f.startswith("gpaudit/report/") for f in files)
    assert not {"gpaudit/cli.py", "gpaudit/api.py", "gpaudit/provenance.py"} & set(files)


def test_a_copy_elsewhere_has_the_same_identity(tree):
    assert code_sha256(tree) == code_sha256()


@pytest.mark.parametrize("source", ["gpaudit/kernel/decide.py", "gpaudit/model/families.py",
                                    "gpaudit/audit/search.py", "gpaudit/verdict.py", "gpaudit/prove/engine.py"])
def test_one_byte_of_a_decision_relevant_file_changes_it(tree, source):
    before = code_sha256(tree)
    _edit_one_byte(tree / source)
    assert code_sha256(tree) != before


@pytest.mark.parametrize("source", ["gpaudit/report/html.py", "gpaudit/report/markdown.py", "gpaudit/cli.py",
                                    "gpaudit/provenance.py", "docs/notes.md"])
def test_a_file_outside_the_decision_changes_nothing(tree, source):
    before = code_sha256(tree)
    _edit_one_byte(tree / source)
    assert code_sha256(tree) == before


def test_new_and_renamed_decision_files_count_line_endings_and_bytecode_do_not(tree):
    before = code_sha256(tree)
    decide = tree / "gpaudit" / "kernel" / "decide.py"
    decide.write_bytes(decide.read_bytes().replace(b"\n", b"\r\n"))
    assert code_sha256(tree) == before                          # CRLF checkout: same code
    cache = tree / "gpaudit" / "kernel" / "__pycache__"
    cache.mkdir()
    (cache / "decide.cpython-311.pyc").write_bytes(b"\0" * 16)
    assert code_sha256(tree) == before                          # byte-compiled files are not sources
    extra = tree / "gpaudit" / "model" / "extra.py"
    extra.write_text("")
    with_extra = code_sha256(tree)
    assert with_extra != before                                 # a new module (even empty) counts
    extra.rename(tree / "gpaudit" / "model" / "other.py")
    assert code_sha256(tree) not in (before, with_extra)        # so does its name


def test_a_missing_decision_source_is_an_error(tree):
    (tree / "gpaudit" / "verdict.py").unlink()
    with pytest.raises(FileNotFoundError, match="verdict.py"):
        code_sha256(tree)


def _closure(graph, starts):
    seen, todo = set(), list(starts)
    while todo:
        node = todo.pop()
        if node not in seen:
            seen.add(node)
            todo += graph[node]
    return seen


def test_the_sources_cover_everything_check_and_prove_import():
    """A module the verdict or a proof depends on is in DECISION_SOURCES (a new package imported
    by the pipeline must be listed there)."""
    graph = import_graph()
    needed = _closure(graph, ["gpaudit.check", "gpaudit.prove.artifacts", "gpaudit.prove.symbolic"])
    covered = {f[:-3].replace("/", ".").removesuffix(".__init__") for f in decision_files()}
    covered.add("gpaudit.provenance")  # the digest itself: a change to what it covers changes it anyway
    assert needed - covered == set(), f"add to gpaudit.provenance.DECISION_SOURCES: {sorted(needed - covered)}"
    assert all(not s.startswith("gpaudit/report") for s in DECISION_SOURCES)


def test_every_json_report_records_the_identity():
    result = Result("n", "n.yaml", "0" * 64, "unknown", {"epsilon": "1", "delta": "0"},
                    checks=[Check("internal", "unknown", "none", "x")])
    js = api.to_json(result)
    assert js["code_sha256"] == code_sha256()
    assert list(js)[:5] == ["gpaudit_version", "schema", "name", "file", "config_sha256"]
