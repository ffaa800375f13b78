"""The identity of the code that decides a verdict.

Generated artefacts (``reports/``, ``proofs/``) and every JSON report record :func:`code_sha256`:
a SHA-256 over the sources of the modules a verdict or a proof depends on, listed once in
:data:`DECISION_SOURCES`.  A change to any of them (a constant, a rule, a search) may change a
verdict, so an artefact whose recorded identity differs from the current one is stale; a change
elsewhere (the text and HTML reports, the command line's presentation, documentation) leaves the
identity, and the artefacts, as they are.

The digest covers, in the order of their paths, every ``*.py`` file under the listed packages and the
listed modules: for each, its path relative to the directory holding ``gpaudit/`` (with ``/``), its
length, then its bytes with line endings normalised to ``\\n``.  It depends on nothing else (not the
checkout's location, not byte-compiled files), so a copy of the tree elsewhere has the same identity.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

# Paths relative to the directory that holds the gpaudit package: packages (every *.py below them)
# and single modules.  tests/test_provenance.py checks that this covers every module `gpaudit check`
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

_INSTALLED_ROOT = Path(__file__).resolve().parent.parent


def decision_files(root=None) -> list[str]:
    """The decision-relevant source files, as sorted paths relative to ``root`` (default: the
    directory holding this gpaudit package)."""
    root = Path(root) if root is not None else _INSTALLED_ROOT
    files = set()
    for entry in DECISION_SOURCES:
        path = root / entry
        if path.is_dir():
            files.update(p for p in path.rglob("*.py") if "__pycache__" not in p.parts)
        elif path.is_file():
            files.add(path)
        else:
            raise FileNotFoundError(f"{path}: a decision-relevant source named in gpaudit.provenance is missing")
    return sorted(p.relative_to(root).as_posix() for p in files)


def _digest(root: Path) -> str:
    h = hashlib.sha256()
    for rel in decision_files(root):
        data = (root / rel).read_bytes().replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        h.update(f"{rel}\n{len(data)}\n".encode("utf-8"))
        h.update(data)
    return h.hexdigest()


@lru_cache(maxsize=1)
def _installed() -> str:
    return _digest(_INSTALLED_ROOT)


def code_sha256(root=None) -> str:
    """The SHA-256 (hex) of the decision-relevant sources under ``root``; by default those of the
    running gpaudit, computed once per process."""
    if root is None:
        return _installed()
    return _digest(Path(root))

