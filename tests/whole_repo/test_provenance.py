"""The code identity (gpaudit.provenance.code_sha256): what it covers and what changes it: a change
to the code of a decision source does, a change to its comments or docstrings does not."""

import ast
import io
import os
import re
import shutil
import subprocess
import tokenize
from pathlib import Path

import pytest

from gpaudit import api
from gpaudit.provenance import (DECISION_SOURCES, PROOF_SOURCES, canonical_tree, code_sha256, decision_files,
                                proof_code_sha256)
from gpaudit.verdict import Check, Result
from test_import_graph import import_graph

ROOT = Path(__file__).resolve().parents[2]


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


def _edit_a_function_body(path: Path) -> str:
    """Insert an assignment before the first statement (after any docstring) of the last function
    of the module: the code changes, its comments and docstrings do not.  Returns its name."""
    text = path.read_text(encoding="utf-8")
    funcs = [n for n in ast.walk(ast.parse(text)) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    func = max(funcs, key=lambda n: n.lineno)
    body = func.body[1:] if len(func.body) > 1 and isinstance(func.body[0], ast.Expr) else func.body
    stmt = body[0]
    lines = text.splitlines(keepends=True)
    lines.insert(stmt.lineno - 1, " " * stmt.col_offset + "_edited = 0\n")
    path.write_text("".join(lines), encoding="utf-8")
    return func.name


def _docstring_nodes(tree):
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str)):
                yield first.value


def _rewrite_comments_and_docstrings(path: Path) -> int:
    """Rewrite every comment and every docstring of a module (the code unchanged); returns how many."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    spans = []                                     # (row, col, end_row, end_col, new text), 1-based rows
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.COMMENT:
            spans.append((*tok.start, *tok.end, "# a comment, rewritten"))

    def chars(row, byte_col):                      # ast columns count UTF-8 bytes
        return len(lines[row - 1].encode("utf-8")[:byte_col].decode("utf-8"))
    for doc in _docstring_nodes(ast.parse(text)):
        spans.append((doc.lineno, chars(doc.lineno, doc.col_offset), doc.end_lineno,
                      chars(doc.end_lineno, doc.end_col_offset), '"""A docstring,\n    rewritten."""'))
    for row, col, end_row, end_col, new in sorted(spans, reverse=True):
        head, tail = lines[row - 1][:col], lines[end_row - 1][end_col:]
        lines[row - 1:end_row] = [head + new + tail]
    path.write_text("".join(lines), encoding="utf-8")
    return len(spans)


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
                                    "gpaudit/audit/search.py", "gpaudit/verdict.py", "gpaudit/prove/engine.py",
                                    "gpaudit/certify/family_sup.py", "gpaudit/smoothed/exact.py"])
def test_an_edited_function_body_changes_it(tree, source):
    before, proof_before = code_sha256(tree), proof_code_sha256(tree)
    _edit_a_function_body(tree / source)
    assert code_sha256(tree) != before
    in_proof = source in decision_files(tree, PROOF_SOURCES)
    assert (proof_code_sha256(tree) != proof_before) == in_proof   # a proof is pinned to its own sources


@pytest.mark.parametrize("edit", ["1.0", "True", "-1", "'1'"])
def test_a_changed_constant_changes_it(tree, edit):
    """1, 1.0, True and '1' are different code (the canonical form keeps a constant's type)."""
    path = tree / "gpaudit" / "verdict.py"
    before = code_sha256(tree)
    path.write_text(path.read_text(encoding="utf-8") + "\n_PROBE = 1\n", encoding="utf-8")
    with_one = code_sha256(tree)
    assert with_one != before
    path.write_text(path.read_text(encoding="utf-8").replace("_PROBE = 1", f"_PROBE = {edit}"), encoding="utf-8")
    assert code_sha256(tree) not in (before, with_one)


def test_comments_and_docstrings_of_every_decision_source_change_nothing(tree):
    """Every comment and docstring of every decision source rewritten (and then removed): the code
    identities, hence every artefact pinned to them, stay as they are."""
    before, proof_before = code_sha256(tree), proof_code_sha256(tree)
    trees = {rel: canonical_tree((tree / rel).read_text(encoding="utf-8")) for rel in decision_files(tree)}
    rewritten = sum(_rewrite_comments_and_docstrings(tree / rel) for rel in decision_files(tree))
    assert rewritten > 1000                                     # the edit reached them all
    assert all(canonical_tree((tree / rel).read_text(encoding="utf-8")) == trees[rel] for rel in trees)
    assert (code_sha256(tree), proof_code_sha256(tree)) == (before, proof_before)
    for rel in decision_files(tree):                            # and now without any: ast.unparse drops comments
        path = tree / rel
        mod = ast.parse(path.read_text(encoding="utf-8"))
        for doc in _docstring_nodes(mod):
            doc.value = ""
        path.write_text(ast.unparse(mod), encoding="utf-8")
    assert (code_sha256(tree), proof_code_sha256(tree)) == (before, proof_before)


def test_no_decision_source_reads_a_docstring():
    """The identity leaves docstrings out; that is sound only while no decision source reads one."""
    for rel in decision_files():
        mod = ast.parse((ROOT / rel).read_text(encoding="utf-8"))
        names = {n.attr for n in ast.walk(mod) if isinstance(n, ast.Attribute)}
        names |= {n.id for n in ast.walk(mod) if isinstance(n, ast.Name)}
        names |= {n.value for n in ast.walk(mod) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
        assert not {"__doc__", "getdoc"} & names, f"{rel} reads a docstring"


def test_the_identity_is_the_same_under_every_python_at_hand():
    """The canonical form leaves out what differs between Python versions (ast.dump itself does
    not: 3.12 adds `type_params=[]`, 3.13 drops empty fields); any other Python 3.10+ on PATH that
    can parse the sources gives the same identities."""
    script = ("import importlib.util, sys\n"
              "s = importlib.util.spec_from_file_location('p', sys.argv[1])\n"
              "m = importlib.util.module_from_spec(s); s.loader.exec_module(m)\n"
              "print(m.code_sha256(sys.argv[2]), m.proof_code_sha256(sys.argv[2]))\n")
    want = f"{code_sha256()} {proof_code_sha256()}"
    ran = []
    for version in ("3.10", "3.11", "3.12", "3.13", "3.14"):
        exe = shutil.which(f"python{version}")
        if exe is None:
            continue
        run = subprocess.run([exe, "-c", script, str(ROOT / "gpaudit" / "provenance.py"), str(ROOT)],
                             capture_output=True, text=True, timeout=120,
                             env={**os.environ, "GPAUDIT_NO_CACHE": "1"})   # every tree parsed afresh
        if run.returncode != 0:      # a shim without that version installed, or an older parser
            continue
        assert run.stdout.split() == want.split(), f"python{version} computes {run.stdout.strip()}"
        ran.append(version)
    if not ran:
        pytest.skip("no Python 3.10+ interpreter on PATH besides the one running the tests")


@pytest.mark.parametrize("source", ["gpaudit/report/html.py", "gpaudit/report/markdown.py", "gpaudit/cli.py",
                                    "gpaudit/provenance.py", "docs/notes.md"])
def test_a_file_outside_the_decision_changes_nothing(tree, source):
    before = code_sha256(tree)
    _edit_one_byte(tree / source)
    assert code_sha256(tree) == before


def test_new_and_renamed_decision_files_count_line_endings_and_bytecode_do_not(tree):
    before = code_sha256(tree)
    broken = tree / "gpaudit" / "errors.py"
    text = broken.read_bytes()
    _edit_one_byte(broken)                                      # may not even parse: its bytes count then
    assert code_sha256(tree) != before
    broken.write_bytes(text)
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


def test_the_proof_sources_cover_what_the_proof_generator_imports():
    """PROOF_SOURCES (what a proof of `gpaudit prove` is pinned to) holds every module the proof
    generator imports, with the packages that run before them, and nothing outside DECISION_SOURCES."""
    graph = import_graph()
    needed = _closure(graph, ["gpaudit.prove.artifacts"])
    needed |= {".".join(m.split(".")[:i]) for m in needed for i in range(2, m.count(".") + 1)}
    files = decision_files(sources=PROOF_SOURCES)
    covered = {f[:-3].replace("/", ".").removesuffix(".__init__") for f in files}
    covered.add("gpaudit.provenance")
    assert needed - covered == set(), f"add to gpaudit.provenance.PROOF_SOURCES: {sorted(needed - covered)}"
    assert set(files) < set(decision_files())
    assert not any(f.startswith(("gpaudit/audit/", "gpaudit/certify/")) for f in files)


def test_every_json_report_records_the_identity():
    result = Result("n", "n.yaml", "0" * 64, "unknown", {"epsilon": "1", "delta": "0"},
                    checks=[Check("internal", "unknown", "none", "x")])
    js = api.to_json(result)
    assert js["code_sha256"] == code_sha256()
    assert list(js)[:5] == ["gpaudit_version", "schema", "name", "file", "config_sha256"]


def test_the_memo_of_tree_digests_saves_parsing_and_is_not_read_in_ci(tree, tmp_path, monkeypatch):
    """The on-disk memo (byte sha256 -> tree sha256) gives the identity a fresh computation gives;
    a planted record would be believed, so a gating run (CI) neither reads nor writes it."""
    import json as _json
    from gpaudit import provenance
    monkeypatch.setenv("GPAUDIT_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("GPAUDIT_NO_CACHE", raising=False)
    monkeypatch.setenv("CI", "1")
    fresh = code_sha256(tree)
    assert not (tmp_path / "cache" / "code-identity.json").exists()       # CI: nothing written
    monkeypatch.delenv("CI")
    assert code_sha256(tree) == fresh                                      # cold memo
    memo_file = tmp_path / "cache" / "code-identity.json"
    memo = _json.loads(memo_file.read_text())
    assert 0 < len(memo) <= len(decision_files(tree))                    # one entry per distinct file
    assert code_sha256(tree) == fresh                                      # warm memo, same identity
    memo = {k: "0" * 64 for k in memo}                                     # a planted memo
    memo_file.write_text(_json.dumps(memo))
    assert code_sha256(tree) != fresh                                      # believed outside CI ...
    monkeypatch.setenv("CI", "1")
    assert code_sha256(tree) == fresh                                      # ... never in a gating run
    assert _json.loads(memo_file.read_text()) == memo                      # and not rewritten there
    monkeypatch.delenv("CI")
    memo_file.write_text("not json")
    assert code_sha256(tree) == fresh                                      # an unreadable memo: computed
    _edit_a_function_body(tree / "gpaudit" / "verdict.py")
    assert code_sha256(tree) != fresh                                      # new bytes: a new key
    assert provenance.tree_sha256(b"x = (").startswith("bytes:")         # no parse: its bytes
