"""Where the points of a sweep are checked: local worker processes, or a Dask cluster.

Both executors take tasks ``{index: args}``, ``args`` being the arguments of
:func:`gpaudit.sweep.worker.run_point`, and yield ``(index, record)`` as each point finishes
(completion order; the caller puts rows back in grid order).

* :func:`run_local`: ``jobs`` long-lived worker processes forked from a server that has imported
  gpaudit once (as ``gpaudit check -j``); a worker keeps its in-process memos (the family suprema
  of ``certify.family_sup``, sympy's caches) from one point to the next. ``jobs <= 1`` checks the
  points in this process.
* :func:`run_dask`: one task per point on a Dask ``distributed`` cluster, streamed back with
  ``as_completed``. The workers need gpaudit installed (``pip install gpaudit[dask]``); a point
  whose worker dies is retried by Dask and, failing that, is an unknown record (tried again on
  the next run).
"""

from __future__ import annotations

import json
import os
import sys
import uuid

from ..runner import default_jobs, worker_context, worker_pool


cores = default_jobs   # -j's default: the cores this process may run on

CONNECT_TIMEOUT = "20s"   # how long --scheduler keeps trying to reach the scheduler


class SchedulerError(Exception):
    """--scheduler cannot be used (distributed missing, the scheduler unreachable): exit 2."""


def run_local(tasks: dict, jobs: int):
    from . import worker
    if jobs <= 1 or len(tasks) <= 1:
        for index, args in tasks.items():
            yield index, worker.run_point(*args)
        return
    import concurrent.futures

    ctx = worker_context(("gpaudit.check", "gpaudit.api", "gpaudit.sweep.worker"))
    with worker_pool(jobs, ctx) as pool:
        futures = {pool.submit(worker.run_point, *args): index for index, args in tasks.items()}
        try:
            for fut in concurrent.futures.as_completed(futures):
                yield futures[fut], _record_of(fut.result, tasks[futures[fut]])
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise


def connect(address: str):
    """A distributed.Client of the scheduler at `address` (SchedulerError when it cannot be)."""
    try:
        import distributed
    except ImportError:
        raise SchedulerError("--scheduler needs the 'distributed' package: pip install 'gpaudit[dask]'") from None
    try:
        return distributed.Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as err:
        raise SchedulerError(f"--scheduler {address}: cannot connect ({type(err).__name__}: {err})") from None


def run_dask(tasks: dict, client):
    from distributed import as_completed

    from . import worker
    run = uuid.uuid4().hex[:12]
    # a worker runs in its own working directory: the configuration's path (and with it the folder
    # its python callables are looked up in) goes out absolute, as this process resolves it
    tasks = {index: (text, os.path.abspath(path), *rest) for index, (text, path, *rest) in tasks.items()}
    futures = {client.submit(worker.run_point, *args, pure=False, key=f"gpaudit-sweep-{run}-{index}"): index
               for index, args in tasks.items()}
    try:
        for fut in as_completed(list(futures), loop=client.loop):   # this client, not a default one
            index = futures[fut]
            yield index, _record_of(fut.result, tasks[index])
            fut.release()
    except BaseException:
        client.cancel(list(futures))
        raise


def _record_of(get, args) -> dict:
    """The record a task returned, or an unknown one when its worker failed (fail closed)."""
    try:
        return get()
    except Exception as err:  # noqa: BLE001 - a worker died (killed, out of memory, lost)
        return failed_record(args, f"worker process failed: {type(err).__name__}: {err}")


def failed_record(args, detail: str) -> dict:
    """An unknown record for a point whose worker failed (nothing was decided)."""
    from .points import POINT_SCHEMA, code_identity, spec_of
    from ..runner import internal_error_result
    from ..report.json_report import result_to_json
    text, path, seed, effort, full_evidence = args[:5]
    spec = spec_of(text, path)
    return {"schema": POINT_SCHEMA, "kind": "internal", "code": code_identity(), "seed": seed,
            "effort": effort, "full_evidence": bool(full_evidence), "config_sha256": spec.sha256,
            "report": _plain(result_to_json(internal_error_result(spec, RuntimeError(detail)))),
            "evidence": None, "paper_constants": [], "error": detail, "seconds": None}


def _plain(obj):
    return json.loads(json.dumps(obj, default=str))


class Progress:
    """Points done out of all, on stderr: a bar that redraws itself on a terminal, else a plain
    line at every tenth of the way; nothing when quiet."""

    def __init__(self, total: int, reused: int, quiet: bool, stream=None):
        self.stream = stream or sys.stderr
        self.total, self.reused, self.done = total, reused, reused
        self.tty = self.stream.isatty() and not quiet
        self.plain = not quiet and not self.tty
        self._tenth = 10 * reused // max(total, 1)

    def step(self, label: str, verdict: str):
        self.done += 1
        if self.tty:
            frac = self.done / max(self.total, 1)
            line = f"\rsweep [{'#' * int(24 * frac):<24}] {self.done}/{self.total} {verdict:<9} {label}"
            self.stream.write(line[:79].ljust(79))
            self.stream.flush()
        elif self.plain and 10 * self.done // self.total > self._tenth:
            self._tenth = 10 * self.done // self.total
            print(f"sweep: {self.done}/{self.total} points done", file=self.stream, flush=True)

    def close(self):
        if self.tty:
            self.stream.write("\r" + " " * 79 + "\r")
            self.stream.flush()
