"""What `gpaudit check` and `gpaudit sweep` share: checking one loaded configuration without
raising, the default number of worker processes, and the integer types of --seed and -j."""

from __future__ import annotations

import argparse
import traceback
from contextlib import contextmanager

from .errors import ConfigError


def default_jobs() -> int:
    """-j's default: the cores this process may run on (the count that also decides where a forked
    copy may work beside this process: gpaudit.runtime.processes.may_fork)."""
    from .runtime.processes import cores

    return cores()


def worker_context(preload=("gpaudit.check", "gpaudit.api")):
    """The start method of the workers of -j: forked from a server that has imported gpaudit once
    (``preload``), else spawned.  The server is started as ``python -c`` in this process's working
    directory, so it looks modules up there first (Python 3.11's forkserver does not apply this
    process's sys.path): where that folder holds another ``gpaudit`` package (a checkout of another
    version), preloading would import that one, and every worker would run other code than this
    process.  Then nothing is preloaded, and each worker imports gpaudit after taking this
    process's sys.path, as a spawned process does."""
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    if ctx.get_start_method() == "forkserver":
        ctx.set_forkserver_preload([] if shadowed_in_cwd() else list(preload))
    return ctx


def shadowed_in_cwd() -> bool:
    """Whether a process started in the working directory with it first on sys.path (python -c)
    would import another gpaudit package than the one running here."""
    import importlib.machinery
    import os

    found = importlib.machinery.PathFinder.find_spec("gpaudit", [os.getcwd()])
    if found is None or not found.origin:
        return False
    here = os.path.realpath(os.path.dirname(os.path.abspath(__file__)))
    return os.path.realpath(os.path.dirname(found.origin)) != here


def worker_pool(jobs: int, ctx):
    """`jobs` worker processes (start method `ctx`) that check files or sweep points.  A worker
    forks copies of itself (the proof stage beside the audit, z3 queries decided ahead) only where
    the workers leave a core free: with jobs >= the cores, every core already checks one of its own."""
    import concurrent.futures

    from .runtime import processes
    return concurrent.futures.ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, initializer=processes.set_ahead,
                                                  initargs=(jobs < default_jobs(),))


def check_one(spec, seed, effort, full_evidence, cache, progress=None, reraise=()):
    """Check one loaded configuration: ("result", Result), ("config", error line) or ("internal",
    Result, detail, traceback text); exceptions of the classes in `reraise` propagate instead.

    The one path from every command (check, sweep, report, the python API) to check.check_spec,
    which turns user-code errors into results; the one place where the proof cache is set for a
    check (as given, and restored after: a caller in this process keeps its own setting) and where
    an internal error is fail-closed (an unknown result, its traceback for GPAUDIT_DEBUG).  Runs in
    this process or in a worker."""
    from .check import check_spec
    with proof_cache_set(cache):
        try:
            return ("result", check_spec(spec, progress=progress, seed=seed, effort=effort,
                                         full_evidence=full_evidence))
        except reraise:
            raise
        except ConfigError as err:   # a python callable's module broke after loading
            return ("config", err.line())
        except Exception as err:  # noqa: BLE001 - fail closed: an internal error is unknown
            return ("internal", internal_error_result(spec, err), f"{type(err).__name__}: {err}",
                    traceback.format_exc())


@contextmanager
def proof_cache_set(enabled: bool):
    """The proof cache on or off for the body, the caller's setting restored after."""
    from .runtime import cache as proof_cache
    was = proof_cache.cache_enabled()
    proof_cache.set_cache(enabled)
    try:
        yield
    finally:
        proof_cache.set_cache(was)


def internal_error_result(spec, err: BaseException):
    """The fail-closed result of a check that raised: unknown, with the error as its only check."""
    from .verdict import UNKNOWN, Check, Result
    return Result(spec.name, spec.path, spec.sha256, UNKNOWN,
                  {"epsilon": str(spec.claim.epsilon), "delta": str(spec.claim.delta)},
                  checks=[Check("internal", UNKNOWN, "none", f"{type(err).__name__}: {err}")])


def int_at_least(lo: int, what: str):
    """An argparse type: a decimal integer >= lo (anything else is a usage error, exit 2)."""
    def parse(text: str) -> int:
        try:
            value = int(text, 10)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a {what} integer, not {text!r}") from None
        if value < lo:
            raise argparse.ArgumentTypeError(f"must be a {what} integer, not {text}")
        return value
    return parse


nonnegative_int = int_at_least(0, "non-negative")   # --seed
positive_int = int_at_least(1, "positive")           # -j
