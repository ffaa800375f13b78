"""The import graph of gpaudit has no cycle.

Every module of the package is parsed with `ast` (nothing is imported), and every import of a gpaudit
module is an edge: absolute and relative, at module level and inside functions (an import deferred into
a function to dodge a cycle is still a cycle of the design).  `import a.b.c` is an edge to `a.b.c` and,
since Python runs `a/__init__` and `a/b/__init__` first, to `a` and `a.b` as well; `from p import x` is an
edge to the submodule `p.x` when there is one, and to the package `p` itself (its `__init__` runs first,
and a name that is not a submodule is read from it).

A module's own enclosing packages have begun to run before the module does, so the implicit edges to them
are left out; an explicit `from <enclosing package> import name` of a name that is not a submodule is kept
(it reads the package's namespace, which may not be filled in yet).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "gpaudit"


# -- the graph ---------------------------------------------------------------------------------

def modules(package_dir: Path) -> dict[str, Path]:
    """Dotted module name -> file, for every .py file of the package (a package is its __init__)."""
    out = {}
    base = package_dir.parent
    for path in sorted(package_dir.rglob("*.py")):
        parts = list(path.relative_to(base).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _ancestors(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def _resolve(importer: str, is_package: bool, level: int, module: str | None) -> str:
    """The absolute name of `from <level dots><module> import ...` written in `importer`."""
    if level == 0:
        return module or ""
    base = importer.split(".") if is_package else importer.split(".")[:-1]
    if level - 1 > len(base) - 1:
        raise ValueError(f"{importer}: relative import beyond the top-level package")
    base = base[:len(base) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def imports_of(name: str, path: Path, known: set[str]) -> dict[str, int]:
    """The gpaudit modules `name` imports anywhere in its source -> line of the first such import."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    own = set(_ancestors(name))
    edges: dict[str, int] = {}

    def add(target: str, line: int, implicit_parents: bool = True):
        if implicit_parents:
            for parent in _ancestors(target):
                if parent in known and parent not in own:
                    edges.setdefault(parent, line)
        if target in known:
            edges.setdefault(target, line)

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name, node.lineno)
        elif isinstance(node, ast.ImportFrom):
            source = _resolve(name, is_package, node.level, node.module)
            for parent in _ancestors(source):
                if parent in known and parent not in own:
                    edges.setdefault(parent, node.lineno)
            reads_namespace = False
            for alias in node.names:
                sub = f"{source}.{alias.name}"
                if alias.name != "*" and sub in known:
                    add(sub, node.lineno, implicit_parents=False)
                else:
                    reads_namespace = True
            if source in known and (reads_namespace or source not in own):
                edges.setdefault(source, node.lineno)
    edges.pop(name, None)
    return edges


def import_graph(package_dir: Path = PACKAGE) -> dict[str, dict[str, int]]:
    mods = modules(package_dir)
    known = set(mods)
    return {name: imports_of(name, path, known) for name, path in mods.items()}


def find_cycle(graph: dict[str, object]) -> list[str] | None:
    """A cycle [a, b, ..., a] of the directed graph (node -> iterable of successors), or None."""
    WHITE, GREY, BLACK = 0, 1, 2
    colour = {node: WHITE for node in graph}
    for start in sorted(graph):
        if colour[start] != WHITE:
            continue
        stack = [(start, iter(sorted(graph[start])))]
        path = [start]
        colour[start] = GREY
        while stack:
            node, successors = stack[-1]
            for succ in successors:
                state = colour.get(succ, WHITE)
                if state == GREY:
                    return path[path.index(succ):] + [succ]
                if state == WHITE and succ in graph:
                    colour[succ] = GREY
                    path.append(succ)
                    stack.append((succ, iter(sorted(graph[succ]))))
                    break
            else:
                colour[node] = BLACK
                path.pop()
                stack.pop()
    return None


def describe(cycle: list[str], graph: dict[str, dict[str, int]], mods: dict[str, Path]) -> str:
    lines = []
    for a, b in zip(cycle, cycle[1:]):
        line = graph[a][b]
        lines.append(f"  {a} -> {b}   ({mods[a].relative_to(ROOT)}:{line})")
    return "\n".join(lines)


# -- the package ---------------------------------------------------------------------------------

def test_gpaudit_has_no_import_cycle():
    graph = import_graph()
    mods = modules(PACKAGE)
    assert len(graph) > 40 and any(graph.values()), "the import graph was not built"
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle in gpaudit:\n" + describe(cycle, graph, mods)


def test_the_graph_sees_every_kind_of_import():
    graph = import_graph()
    # a relative module-level import, `from . import submodule`, the implicit edge to an intermediate
    # package, and imports deferred into functions (gpaudit.api imports its pieces on use)
    assert "gpaudit.verdict" in graph["gpaudit.api"]
    assert "gpaudit.prove.obligations" in graph["gpaudit.prove.engine"]
    assert "gpaudit.kernel" in graph["gpaudit.prove.engine"]
    assert {"gpaudit.report", "gpaudit.report.directory", "gpaudit.spec.load"} <= set(graph["gpaudit.api"])


def test_the_kernel_imports_nothing_outside_itself():
    """The trusted kernel reads nothing of the code it judges: no module of gpaudit.kernel imports a
    gpaudit module outside the kernel (runtime, prove, certify, audit, anything), at any depth of
    the import graph; the runtime (forks, the disk cache) may wrap the kernel, never the reverse."""
    graph = import_graph()
    kernel = [m for m in graph if m == "gpaudit.kernel" or m.startswith("gpaudit.kernel.")]
    assert "gpaudit.kernel.z3door" in kernel and "gpaudit.kernel.decide" in kernel
    outside = {m: sorted(t for t in graph[m] if not (t == "gpaudit.kernel" or t.startswith("gpaudit.kernel.")))
               for m in kernel}
    assert not any(outside.values()), outside
    assert "gpaudit.kernel.z3door" in graph["gpaudit.runtime"]          # the runtime wraps the kernel's door
    for m in ("gpaudit.runtime", "gpaudit.runtime.cache", "gpaudit.runtime.processes"):
        assert not any(t.startswith(("gpaudit.prove", "gpaudit.certify", "gpaudit.audit")) for t in graph[m]), m


FIRST_IMPORT = """
import importlib, sys
failed = []
for name in sys.argv[1:]:
    for loaded in [m for m in sys.modules if m == "gpaudit" or m.startswith("gpaudit.")]:
        del sys.modules[loaded]
    try:
        importlib.import_module(name)
    except Exception as err:
        failed.append(f"{name}: {type(err).__name__}: {err}")
print("\\n".join(failed))
sys.exit(1 if failed else 0)
"""


@pytest.mark.slow  # a fresh interpreter per module
def test_every_module_imports_first():
    """No module works only after another was imported: each one, imported with no gpaudit module
    loaded yet (in a separate interpreter; the third-party modules stay loaded, for speed), loads."""
    names = [n for n in sorted(modules(PACKAGE)) if n != "gpaudit.__main__"]   # __main__ runs the CLI
    proc = subprocess.run([sys.executable, "-c", FIRST_IMPORT, *names], capture_output=True, text=True,
                          cwd=ROOT, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr[-3000:]


# -- the cycle finder on graphs whose answer is known ------------------------------------------------

def test_find_cycle_finds_a_cycle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"d", "a"}, "d": set()}
    cycle = find_cycle(graph)
    assert cycle is not None and cycle[0] == cycle[-1]
    assert set(cycle) == {"a", "b", "c"}
    for x, y in zip(cycle, cycle[1:]):
        assert y in graph[x]


def test_find_cycle_finds_a_self_loop_and_a_deep_cycle():
    assert find_cycle({"a": {"a"}}) == ["a", "a"]
    n = 5000          # deeper than Python's recursion limit: the search is iterative
    chain = {i: {i + 1} for i in range(n)}
    chain[n] = {0}
    cycle = find_cycle(chain)
    assert cycle is not None and len(cycle) == n + 2


def test_find_cycle_accepts_a_dag():
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set(), "d": {"a", "c"}}) is None
    assert find_cycle({}) is None


def test_a_synthetic_package_with_cycles_is_caught(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "low.py").write_text("X = 1\n")
    # a deferred import inside a function still closes the cycle
    (pkg / "a.py").write_text("from .low import X\n\ndef f():\n    from .sub import b\n    return b\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "b.py").write_text("import pkg.a\n")
    graph = import_graph(pkg)
    assert graph["pkg.a"] == {"pkg.low": 1, "pkg.sub": 4, "pkg.sub.b": 4}
    assert set(graph["pkg.sub.b"]) == {"pkg.a"}
    cycle = find_cycle(graph)
    assert cycle is not None and {"pkg.a", "pkg.sub.b"} <= set(cycle)

    # a package __init__ that re-exports from a submodule which reads a name back from the package
    (pkg / "a.py").write_text("from .low import X\n")
    (pkg / "sub" / "b.py").write_text("from . import helper\n")
    (pkg / "sub" / "c.py").write_text("Y = 2\n")
    (pkg / "sub" / "__init__.py").write_text("from .b import *\nhelper = 1\n")
    graph = import_graph(pkg)
    assert find_cycle(graph) in (["pkg.sub", "pkg.sub.b", "pkg.sub"], ["pkg.sub.b", "pkg.sub", "pkg.sub.b"])
    # ... but a sibling import from inside the package is not a cycle with the package
    (pkg / "sub" / "b.py").write_text("from . import c\nfrom .c import Y\n")
    graph = import_graph(pkg)
    assert find_cycle(graph) is None, graph

    # an edge to a package through `import a.b.c` reaches the intermediate __init__
    (pkg / "sub" / "__init__.py").write_text("import pkg.a\n")
    (pkg / "low.py").write_text("import pkg.sub.c\n")
    graph = import_graph(pkg)
    assert "pkg.sub" in graph["pkg.low"]
    cycle = find_cycle(graph)
    assert cycle is not None and {"pkg.sub", "pkg.a", "pkg.low"} <= set(cycle)


@pytest.mark.parametrize("importer, is_package, level, module, expected", [
    ("p.q.m", False, 1, "x", "p.q.x"),
    ("p.q.m", False, 2, None, "p"),
    ("p.q", True, 1, "x", "p.q.x"),
    ("p.q", True, 2, "y", "p.y"),
    ("p.q.m", False, 0, "p.z", "p.z"),
])
def test_relative_imports_resolve(importer, is_package, level, module, expected):
    assert _resolve(importer, is_package, level, module) == expected
