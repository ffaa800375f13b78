from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

# Bytecode is cached even where PYTHONDONTWRITEBYTECODE is set (as on some CI images): each of the
# suite's processes (the xdist workers, the command-line tests' own) would otherwise compile gpaudit
# and rewrite the test modules' asserts again, about a sixth of the suite's time.  The caches go to
# __pycache__/ folders, which git ignores; user modules are compiled from their bytes as before.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

# helpers (verified.py, independent.py) and test modules other tiers import (from test_x import ...)
for _folder in ("", "kernel", "pipeline", "cli", "whole_repo", "papers"):
    sys.path.insert(0, str(Path(__file__).resolve().parent / _folder))


def pytest_terminal_summary(terminalreporter):
    """Say it when the HTML-report browser tests were skipped (their reason shows only with -rs)."""
    skipped = terminalreporter.stats.get("skipped", [])
    if any("chromium" in str(getattr(r, "longrepr", "")) for r in skipped):
        terminalreporter.write_line("note: the browser tests of the HTML reports were skipped: no chromium on "
                                    "PATH (install Debian's chromium to run them, as .ci/run does)", yellow=True)


def pytest_addoption(parser):
    parser.addoption("--slow", action="store_true",
                     help="also run the tests marked slow (the default selection leaves them out; "
                          ".ci/run and the README's test command run everything)")


TESTS = Path(__file__).resolve().parent
# the tiers of tests/README.md: a test in tests/<tier>/ carries the marker <tier>
TIERS = ("kernel", "pipeline", "cli", "papers", "whole_repo")


def tier_of(path) -> str | None:
    """The tier of a test file: the folder under tests/ it sits in, when that is a tier."""
    try:
        parts = Path(path).resolve().relative_to(TESTS).parts
    except ValueError:
        return None
    return parts[0] if len(parts) > 1 and parts[0] in TIERS else None


def pytest_configure(config):
    for tier in TIERS:
        config.addinivalue_line("markers", f"{tier}: a test of the tests/{tier}/ tier (tests/README.md)")
    pool_worker()


def pool_worker():
    """A pytest-xdist worker among as many as there are cores (-n auto, pyproject's addopts) runs as
    a worker of `gpaudit check -j N` with N >= the cores does (gpaudit.runner.worker_pool): it forks
    no copy of itself, for the proof stage beside the audit or for queries decided ahead, since every
    core already runs a worker and a copy would only add its fork and the pages it copies (the fast
    tier: about 50 s instead of 60).  The tests of the copies themselves (test_beside.py,
    test_ahead.py) allow them explicitly; with -n 0, or fewer workers than cores, nothing changes."""
    workers = os.environ.get("PYTEST_XDIST_WORKER_COUNT")
    if os.environ.get("PYTEST_XDIST_WORKER") and workers:
        from gpaudit.runtime import processes
        if int(workers) >= processes.cores():
            processes.set_ahead(False)


# The files that take longest (minutes of the whole suite's time, measured with --durations), run
# first: pytest-xdist hands out files in the order collected (--dist loadfile), and a long file
# started last leaves the other workers idle at the end.  Order only: every test still runs.
LONGEST_FIRST = ("test_sympy_cache_independent.py", "test_param_range.py", "test_kernel_rules.py",
                 "test_catalog.py", "test_metric.py", "test_claims.py", "test_every_run_ends.py",
                 "test_proofs_fresh.py", "test_smoothed.py", "test_sweep.py",
                 "test_usercode.py", "test_certify.py", "test_prove.py", "test_model.py")


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """--dist loadfile (pyproject's addopts), except that the files which share a run are one unit,
    run by one worker: the files of tests/papers/ (each claim of the registry once: tests/claims_once.py)
    and the two that read the catalog's proof stages (tests/proved_once.py)."""
    if config.getoption("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class SharedRunsTogether(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            scope = super()._split_scope(nodeid)
            return next((unit for start, unit in SHARED_UNITS if scope.startswith(start)), scope)
    return SharedRunsTogether(config, log)


# (the start of a file's node id, the unit it runs in)
SHARED_UNITS = (("tests/papers/", "claims registry"), ("tests/pipeline/test_prove.py", "catalog proofs"),
                ("tests/whole_repo/test_proofs_fresh.py", "catalog proofs"))


def pytest_collection_modifyitems(config, items):
    """Mark each test with its tier (``-m kernel``, ``-m "pipeline and not slow"``) and put the
    longest files first; then, without --slow (and without an explicit -m), deselect the tests
    marked slow."""
    for item in items:
        tier = tier_of(item.path)
        if tier is not None:
            item.add_marker(tier)
    rank = {name: k for k, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))     # stable: the rest keep their order
    if config.getoption("--slow") or config.option.markexpr:
        return
    slow = [item for item in items if item.get_closest_marker("slow")]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if not item.get_closest_marker("slow")]


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    """A proof cache of the test's own, on whatever this process or its environment set before
    (GPAUDIT_NO_CACHE, CI): the directory its records go to."""
    from gpaudit.runtime import cache as rc
    monkeypatch.setattr(rc, "_ON", True)
    monkeypatch.setenv("GPAUDIT_CACHE", str(tmp_path))
    monkeypatch.delenv("GPAUDIT_NO_CACHE", raising=False)
    monkeypatch.delenv("CI", raising=False)
    return tmp_path / "proofs"
