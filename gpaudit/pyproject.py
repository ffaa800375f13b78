"""Project defaults from ``[tool.gpaudit]`` in ``pyproject.toml`` (docs/cli.md).

The file is found as ruff and mypy find theirs: the nearest ``pyproject.toml`` with a
``[tool.gpaudit]`` table, from the working directory upwards, stopping after a directory that
holds ``.git`` (the repository's root). Paths in it are relative to its own directory. Options on
the command line override it. A ``pyproject.toml`` without the table changes nothing.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

EFFORTS = ("quick", "standard", "thorough")
FORMATS = ("text", "json", "github", "junit", "sarif")
KEYS = ("baseline", "effort", "format", "jobs", "paths", "seed")
TABLE = "tool.gpaudit"


class ProjectConfigError(Exception):
    """A problem in ``[tool.gpaudit]``: one line, ``pyproject.toml: tool.gpaudit.KEY: problem``."""

    def __init__(self, path: str, key: str, problem: str):
        self.path, self.key, self.problem = path, key, problem
        super().__init__(self.line())

    def line(self) -> str:
        where = f"{TABLE}.{self.key}" if self.key else TABLE
        return f"{self.path}: {where}: {self.problem}"


@dataclass
class ProjectConfig:
    path: str                 # the pyproject.toml, as messages show it (relative to the working directory)
    root: str                 # its directory, as paths in it are resolved against
    values: dict = field(default_factory=dict)   # validated keys; paths and baseline resolved

    def get(self, key: str, default=None):
        return self.values.get(key, default)


def _toml():
    try:
        import tomllib  # Python >= 3.11
    except ModuleNotFoundError:  # pragma: no cover - Python 3.10
        import tomli as tomllib
    return tomllib


def _shown(path: Path) -> str:
    """A path as messages show it: relative to the working directory when that is shorter."""
    try:
        rel = os.path.relpath(path)
    except ValueError:  # pragma: no cover - another drive (Windows)
        return str(path)
    return rel if len(rel) <= len(str(path)) else str(path)


def find_project_config(start=None) -> ProjectConfig | None:
    """The ``[tool.gpaudit]`` table that applies in ``start`` (default: the working directory), or
    None. Raises :class:`ProjectConfigError` for an invalid table (or a pyproject.toml that
    mentions ``[tool.gpaudit]`` but is not valid TOML)."""
    here = Path(start or os.getcwd()).resolve()
    for d in (here, *here.parents):
        candidate = d / "pyproject.toml"
        if candidate.is_file():
            table = _table(candidate)
            if table is not None:
                return _validate(table, candidate)
        if (d / ".git").exists():
            break
    return None


def _table(candidate: Path):
    """The [tool.gpaudit] value of one pyproject.toml, or None when it has none.

    A file that cannot be read or parsed is skipped as having no table, unless its text mentions
    the table: then it is an error (a broken gpaudit configuration must not be ignored silently)."""
    try:
        text = candidate.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    toml = _toml()
    try:
        data = toml.loads(text)
    except toml.TOMLDecodeError as err:
        if "tool.gpaudit" in text.replace(" ", ""):
            raise ProjectConfigError(_shown(candidate), "", f"pyproject.toml is not valid TOML ({err})") from None
        return None
    tool = data.get("tool")
    if not isinstance(tool, dict) or "gpaudit" not in tool:
        return None
    return tool["gpaudit"]


def _validate(table, candidate: Path) -> ProjectConfig:
    shown = _shown(candidate)

    def fail(key, problem):
        raise ProjectConfigError(shown, key, problem)

    if not isinstance(table, dict):
        fail("", f"expected a table, got {_kind(table)}")
    root = candidate.parent
    rel_root = _shown(root)
    values = {}
    for key in sorted(table, key=str):
        value = table[key]
        if key not in KEYS:
            from .errors import did_you_mean
            fail(key, f"unknown key{did_you_mean(key, KEYS)} (known: {', '.join(KEYS)})")
        if key == "paths":
            if not isinstance(value, list) or not value:
                fail(key, f"expected a non-empty list of files or directories, got {_kind(value)}")
            for i, item in enumerate(value):
                if not isinstance(item, str) or not item.strip():
                    fail(key, f"item {i + 1}: expected a non-empty string, got {_kind(item)}")
            values[key] = [_resolve(rel_root, item) for item in value]
        elif key == "baseline":
            if not isinstance(value, str) or not value.strip():
                fail(key, f"expected the path of a JSON report (a non-empty string), got {_kind(value)}")
            values[key] = _resolve(rel_root, value)
        elif key in ("effort", "format"):
            allowed = EFFORTS if key == "effort" else FORMATS
            if value not in allowed:
                fail(key, f"must be one of {', '.join(allowed)}, not {_repr(value)}")
            values[key] = value
        else:  # jobs, seed
            lo = 1 if key == "jobs" else 0
            if isinstance(value, bool) or not isinstance(value, int) or value < lo:
                what = "a positive integer" if key == "jobs" else "a non-negative integer"
                fail(key, f"must be {what}, not {_repr(value)}")
            values[key] = value
    return ProjectConfig(shown, str(root), values)


def _resolve(rel_root: str, path: str) -> str:
    """A path of the table, relative to its pyproject.toml's directory (absolute paths stay)."""
    return os.path.normpath(os.path.join(rel_root, os.path.expanduser(path)))


def _kind(value) -> str:
    names = {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "an array",
             dict: "a table"}
    return names.get(type(value), type(value).__name__)


def _repr(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, str) else str(value)
