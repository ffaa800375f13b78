"""The points of a sweep: the configuration file with some ``params`` replaced.

A point's configuration is the file's text with the value of each varied ``params`` entry
replaced in place (everything else, comments included, stays byte for byte), so its
``config_sha256`` is exactly what ``gpaudit check`` computes on a file holding that text. When the
entry cannot be edited in place (an alias, a flow mapping PyYAML reports no position for), the
mapping is written out again with PyYAML (comments are then lost; the hash is still that of the
text the point is checked with). Either way the text is loaded again and compared with the
intended mapping before it is used.

A point is then validated exactly as ``gpaudit check`` validates a file (``spec_from_mapping``),
with the original file's path, so relative python callables resolve as they do for the file.
"""

from __future__ import annotations

import copy
import hashlib
import importlib.metadata
import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import yaml

from .. import __version__
from ..errors import ConfigError
from ..spec.load import load_spec, spec_from_mapping
from ..spec.types import Spec

POINT_SCHEMA = 1
RECORD_MODULES = ("points.py", "worker.py")   # the sweep's modules a point's record depends on


@dataclass(frozen=True)
class Point:
    index: int               # place in the grid (the row of sweep.csv)
    values: dict             # {param name: exact value string}
    text: str                # the substituted configuration
    spec: Spec               # validated from `text`
    seed: int                # the effective audit seed (--seed, else the file's audit.seed)
    effort: str              # the effective effort

    @property
    def sha256(self) -> str:
        return self.spec.sha256

    def label(self) -> str:
        return ", ".join(f"{k}={v}" for k, v in self.values.items())


def read_base(path: str) -> tuple[str, dict]:
    """(text, mapping) of the file being swept, after validating it as `gpaudit check` does."""
    load_spec(path)                                  # every configuration error, as check reports it
    text = Path(path).read_bytes().decode("utf-8")   # no newline translation: the hash is of the bytes
    return text, yaml.safe_load(text)


def check_names(path: str, raw: dict, names) -> None:
    """Every varied name is a ``params`` entry of the file (ConfigError naming --vary otherwise)."""
    params = raw.get("params") if isinstance(raw, dict) else None
    known = sorted(params) if isinstance(params, dict) else []
    for name in names:
        if name not in known:
            have = f"its params are {', '.join(known)}" if known else "it has no params section"
            raise ConfigError(path, f"--vary {name}", f"not a params entry of this file ({have})")


def substitute(text: str, raw: dict, values: dict) -> str:
    """The configuration text with params[name] = value for each item of `values`."""
    want = copy.deepcopy(raw)
    for name, value in values.items():
        want["params"][name] = _yaml_value(value)
    out = _edit_in_place(text, values)
    if out is None or yaml.safe_load(out) != want:
        out = yaml.safe_dump(want, sort_keys=False, allow_unicode=True, width=100)
        if yaml.safe_load(out) != want:    # cannot happen for plain YAML data; never check a wrong text
            raise ConfigError("", "--vary", "cannot write the substituted configuration")
    return out


def build_points(path: str, grid: list[dict], seed, effort) -> list[Point]:
    """Every point of the grid, substituted and validated (the first invalid one raises
    ConfigError naming the file, the point and the field) before any work starts."""
    text, raw = read_base(path)
    if grid:
        check_names(path, raw, grid[0])
    points = []
    for i, values in enumerate(grid):
        sub = substitute(text, raw, values)
        try:
            pspec = spec_of(sub, path)
        except ConfigError as err:
            where = ", ".join(f"{k}={v}" for k, v in values.items())
            raise ConfigError(err.path, f"--vary point {where}: {err.field}" if err.field else
                              f"--vary point {where}", err.problem) from None
        points.append(Point(i, dict(values), sub, pspec,
                            pspec.audit.seed if seed is None else seed, effort or pspec.audit.effort))
    return points


def spec_of(text: str, path: str) -> Spec:
    """The validated Spec of a configuration text, as `gpaudit check` would load it from a file
    at `path` holding exactly that text (same parser, same hash)."""
    data = text.encode("utf-8")
    try:
        raw = yaml.safe_load(text)
    except yaml.YAMLError as err:  # a substituted text always loads; kept for texts from elsewhere
        raise ConfigError(path, "", f"invalid YAML: {getattr(err, 'problem', None) or err}") from None
    return spec_from_mapping(raw, path, hashlib.sha256(data).hexdigest())


def point_key(sha256: str, seed: int, effort: str, full_evidence: bool, code: str) -> str:
    """The name of a finished point in DIR/points: everything its result depends on (the
    configuration, seed, effort, --full-evidence, and the code that checked it)."""
    text = f"gpaudit-sweep-point {POINT_SCHEMA}\0{code}\0{sha256}\0seed {seed}\0effort {effort}\0full {bool(full_evidence)}"
    return hashlib.sha256(text.encode()).hexdigest()[:32]


@lru_cache(maxsize=1)
def code_identity() -> str:
    """A digest of the code a result depends on: gpaudit's sources (of the sweep itself only the
    modules that make a point's record: the figures and tables of a sweep change no result) and
    the versions of the libraries that compute (z3, python-flint, mpmath, sympy, numpy, scipy)."""
    h = hashlib.sha256(f"gpaudit {__version__}\0".encode())
    root = Path(__file__).resolve().parents[1]
    here = Path(__file__).resolve().parent
    for f in sorted(root.rglob("*.py")):
        if f.parent == here and f.name not in RECORD_MODULES:
            continue
        h.update(f"\0{f.relative_to(root).as_posix()}\0".encode())
        h.update(f.read_bytes())
    for dist in ("z3-solver", "python-flint", "mpmath", "sympy", "numpy", "scipy"):
        try:
            version = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            version = "?"
        h.update(f"\0{dist} {version}".encode())
    return h.hexdigest()[:16]


_INTEGER = re.compile(r"-?[0-9]+")


def _yaml_value(value: str):
    """What a value string becomes in the YAML: an integer stays an integer, anything else is a
    string (which gpaudit's parser reads exactly: "0.1" is 1/10, never a binary float)."""
    return int(value) if _INTEGER.fullmatch(value) else value


def _scalar(value: str) -> str:
    return value if _INTEGER.fullmatch(value) else json.dumps(value)   # a YAML double-quoted string


def _edit_in_place(text: str, values: dict) -> str | None:
    """The text with each params[name] scalar replaced where it stands, or None."""
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return None
    params = _child(root, "params")
    if not isinstance(params, yaml.MappingNode):
        return None
    spans = []
    for name, value in values.items():
        node = _child(params, name)
        if not isinstance(node, yaml.ScalarNode) or node.start_mark is None:
            return None
        spans.append((node.start_mark.index, node.end_mark.index, _scalar(value)))
    for start, end, new in sorted(spans, reverse=True):
        text = text[:start] + new + text[end:]
    return text


def _child(node, key: str):
    if not isinstance(node, yaml.MappingNode):
        return None
    found = [v for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == key]
    return found[0] if len(found) == 1 else None
