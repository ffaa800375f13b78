"""The identity of the code that decides a verdict or a proof.

Every JSON report, and each generated artefact (``reports/``, ``proofs/``), records :func:`code_sha256`:
a SHA-256 over what the modules a verdict or a proof depends on *do*, listed once in
:data:`DECISION_SOURCES` (and, for the proofs of ``gpaudit prove``, the subset :data:`PROOF_SOURCES`
that the proof generator imports).  It says which code wrote a report.  A change to the code of any
of them (a constant, a rule, a search) may change a verdict; a change elsewhere (the text and HTML
reports, the command line's presentation, documentation), and a change to a comment or a docstring
anywhere, leaves the identity as it is.  The catalog's committed artefacts are not pinned to it but
to what decides each of them, by value (gpaudit.report.catalog, gpaudit.prove.artifacts): a change
of code that moves no decision and no proof leaves them as they are, with the identity of the code
that wrote them.

What is hashed is each module's syntax tree, not its bytes: the file is parsed with :mod:`ast`, the
docstrings of the module, its classes and its functions are dropped (comments never reach the
tree), and the tree is written out in a canonical form of :func:`canonical_tree` that is the same
under every Python 3.10+ (no line numbers; no field a newer Python adds empty or absent, such as
``type_params``; not the ``u`` prefix of a string).  No decision source reads ``__doc__``
(tests/whole_repo/test_provenance.py checks it), so a docstring cannot change what the code does.  A file that
does not parse is hashed by its bytes (it cannot run, and any edit of it counts).

The digest covers, in the order of their paths, every ``*.py`` file under the listed packages and the
listed modules: for each, its path relative to the directory holding ``gpaudit/`` (with ``/``), then
the SHA-256 of its canonical tree.  It depends on nothing else (not the checkout's location, not line
endings, not byte-compiled files), so a copy of the tree elsewhere has the same identity.

Parsing every decision source costs about half a second, so the tree digest of each file is kept
in a small memo on disk, keyed by the SHA-256 of the file's bytes, the canonical form's version and
the Python version
(``$GPAUDIT_CACHE/code-identity.json``, default ``~/.cache/gpaudit``); a process that writes a JSON
report then pays a few milliseconds.  The memo decides no verdict, only the identity an artefact
records, and it is neither read nor written under ``CI`` or ``GPAUDIT_NO_CACHE``: a gating run
computes every tree afresh.

Each artefact is pinned to what is its own: a report to its configuration's sha256 and its decision,
a proof to its configuration's sha256 and its own text, and ``proof.md`` to the sha256 of the
``obligations.smt2`` it explains (:func:`text_sha256`).
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import sys
from functools import lru_cache
from pathlib import Path

# Paths relative to the directory that holds the gpaudit package: packages (every *.py below them)
# and single modules.  tests/whole_repo/test_provenance.py checks that this covers every module `gpaudit check`
# and `gpaudit prove` import.
DECISION_SOURCES = (
    "gpaudit/audit",
    "gpaudit/certify",
    "gpaudit/kernel",
    "gpaudit/model",
    "gpaudit/prove",
    "gpaudit/smoothed",
    "gpaudit/runtime",
    "gpaudit/spec",
    "gpaudit/readable.py",
    "gpaudit/check.py",
    "gpaudit/errors.py",
    "gpaudit/verdict.py",
)

# What decides a proof of `gpaudit prove` (proofs/<name>/): the modules the proof generator
# (gpaudit.prove.artifacts) imports, a subset of DECISION_SOURCES.  The search of the audit, the
# certificate's family suprema and the smoothed-DP computation are not among them, so a change there
# leaves the proofs fresh.  tests/whole_repo/test_provenance.py checks that this covers everything the generator
# imports.
PROOF_SOURCES = (
    "gpaudit/kernel",
    "gpaudit/model",
    "gpaudit/prove",
    "gpaudit/runtime",
    "gpaudit/spec",
    "gpaudit/smoothed/__init__.py",
    "gpaudit/smoothed/spec.py",
    "gpaudit/errors.py",
    "gpaudit/verdict.py",
)

# Fields left out of the canonical form: `kind` is the `u` prefix of a string literal and
# `type_comment` a `# type:` comment; neither changes what the code does.
_IGNORED_FIELDS = frozenset({"kind", "type_comment"})
_DOCUMENTED = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)

_INSTALLED_ROOT = Path(__file__).resolve().parent.parent


def _files(root: Path, sources) -> list[str]:
    files = set()
    for entry in sources:
        path = root / entry
        if path.is_dir():
            files.update(p for p in path.rglob("*.py") if "__pycache__" not in p.parts)
        elif path.is_file():
            files.add(path)
        else:
            raise FileNotFoundError(f"{path}: a decision-relevant source named in gpaudit.provenance is missing")
    return sorted(p.relative_to(root).as_posix() for p in files)


def decision_files(root=None, sources=DECISION_SOURCES) -> list[str]:
    """The decision-relevant source files (of ``sources``, default :data:`DECISION_SOURCES`), as
    sorted paths relative to ``root`` (default: the directory holding this gpaudit package)."""
    return _files(Path(root) if root is not None else _INSTALLED_ROOT, sources)


def _is_docstring(stmt) -> bool:
    return (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
            and isinstance(stmt.value.value, str))


def _canonical(node) -> str:
    if isinstance(node, ast.AST):
        fields = []
        body_doc = isinstance(node, _DOCUMENTED) and node.body and _is_docstring(node.body[0])
        for name, value in ast.iter_fields(node):
            if name in _IGNORED_FIELDS or value is None or value == []:
                continue
            if name == "body" and body_doc:
                value = value[1:]
            fields.append(f"{name}={_canonical(value)}")
        return f"{type(node).__name__}({','.join(fields)})"
    if isinstance(node, list):
        return f"[{','.join(_canonical(v) for v in node)}]"
    return f"{type(node).__name__}:{node!r}"  # a constant, with its type (1, 1.0 and True differ)


def canonical_tree(source: str | bytes) -> str:
    """The canonical form of a module's syntax tree without its docstrings (raises SyntaxError)."""
    return _canonical(ast.parse(source))


# the memo's key: a file's bytes, the canonical form's version (bump it when _canonical changes) and
# the parsing Python's version (whose trees the canonical form is meant to, but may not, agree on)
_MEMO_SALT = f"gpaudit canonical tree v1, python {sys.version_info[0]}.{sys.version_info[1]}\n".encode()


def tree_sha256(data: bytes) -> str:
    """The SHA-256 of a module's canonical tree (of its bytes, marked so, when it does not parse)."""
    try:
        text = "ast:" + canonical_tree(data)
    except (SyntaxError, ValueError):   # does not parse (or holds a NUL byte): its bytes decide
        return "bytes:" + hashlib.sha256(data).hexdigest()
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _memo_path() -> Path | None:
    if os.environ.get("CI") or os.environ.get("GPAUDIT_NO_CACHE"):
        return None
    root = os.environ.get("GPAUDIT_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "gpaudit")
    return Path(root) / "code-identity.json"


def _read_memo(path: Path | None) -> dict:
    try:
        memo = json.loads(path.read_text(encoding="utf-8")) if path is not None else {}
    except (OSError, ValueError):
        return {}
    return memo if isinstance(memo, dict) else {}


def _write_memo(path: Path, memo: dict) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.tmp{os.getpid()}")
        tmp.write_text(json.dumps(memo, sort_keys=True), encoding="utf-8")
        tmp.replace(path)
    except OSError:
        pass                            # a memo that cannot be written is only slower


_TREES: dict = {}   # the tree hashes this process computed, by the same key (PROOF_SOURCES share files)


def _digest(root: Path, sources) -> str:
    path = _memo_path()
    memo, used = _read_memo(path), {}
    h = hashlib.sha256()
    for rel in _files(root, sources):
        data = (root / rel).read_bytes()
        key = hashlib.sha256(_MEMO_SALT + data).hexdigest()
        tree = memo.get(key)
        if not isinstance(tree, str):
            tree = _TREES.get(key) or _TREES.setdefault(key, tree_sha256(data))
        used[key] = tree
        h.update(f"{rel}\n{tree}\n".encode("utf-8"))
    if path is not None and any(memo.get(k) != v for k, v in used.items()):
        _write_memo(path, {**memo, **used} if len(memo) < 2000 else used)
    return h.hexdigest()


@lru_cache(maxsize=4)
def _installed(sources) -> str:
    return _digest(_INSTALLED_ROOT, sources)


def code_sha256(root=None, sources=DECISION_SOURCES) -> str:
    """The SHA-256 (hex) of the code (the docstring-free syntax trees) of the decision-relevant
    sources under ``root``; by default those of the running gpaudit, computed once per process.
    ``sources``: :data:`DECISION_SOURCES` (what decides a verdict) or :data:`PROOF_SOURCES` (what
    decides a proof)."""
    if root is None:
        return _installed(tuple(sources))
    return _digest(Path(root), sources)


def proof_code_sha256(root=None) -> str:
    """:func:`code_sha256` of :data:`PROOF_SOURCES`: the code identity a proof of ``gpaudit
    prove`` records."""
    return code_sha256(root, PROOF_SOURCES)


def text_sha256(text: str) -> str:
    """The SHA-256 (hex) of a generated text (UTF-8, line endings normalised to ``\\n``)."""
    return hashlib.sha256(text.replace("\r\n", "\n").replace("\r", "\n").encode("utf-8")).hexdigest()
