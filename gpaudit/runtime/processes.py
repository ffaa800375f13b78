"""Forked copies of this process, and the count of cores.

Where a core is free, work can be done by a forked copy of this process while this one does other
work (threads would not do: z3py makes a C call, releasing and retaking Python's lock, for every
term, and two threads doing that slow each other down more than the second core gains):

- the proof stage beside the audit (gpaudit.certify.beside);
- proof queries decided ahead (`ahead`): the proof stage hands the queries that wait for no other
  answer to a copy, which decides them by the kernel's own calls (z3door.decide_terms), each in a
  fresh context with the same step limit as at its turn.  What comes back is advice, not evidence
  (gpaudit.runtime): the copy's `sat` (with its model) or `unknown` is taken at the query's turn,
  where the stage's budget left then would have cut none of its calls, and charged its steps; its
  `unsat` is not taken -- the query is decided again, in this process, at its turn.
"""

from __future__ import annotations

import os
import pickle
import sys
from contextlib import contextmanager

import z3

from ..kernel import z3door as zb
from . import cache, texts
from .models import model_of

# -- deciding ahead --------------------------------------------------------------------------
_AHEAD = None
_AHEAD_ON = True
# Fewer queries than this are decided at their turn: a fork costs about 10 ms, and every page this
# process writes afterwards is copied once (measured: a stage with 4 short continuity queries took
# 0.15 s with a copy against 0.12 s without; the two-way threshold's 110 took 5.5-6.6 s against 6.6-6.9 s).
AHEAD_MIN_QUERIES = 12


def set_ahead(enabled: bool) -> None:
    """Allow or forbid forked copies in this process (may_fork: deciding ahead, and the proof stage
    beside the audit); forbidden where every core already checks a file of its own (the workers of
    check -j N or sweep -j N with N >= the cores: gpaudit.runner.worker_pool)."""
    global _AHEAD_ON
    _AHEAD_ON = bool(enabled)


def may_fork() -> bool:
    """Whether a forked copy of this process may work beside it: on Linux, with a second core,
    with no other Python thread, not forbidden in this process (set_ahead) or by GPAUDIT_NO_AHEAD."""
    return (_AHEAD_ON and sys.platform.startswith("linux") and cores() >= 2 and _one_thread()
            and not os.environ.get("GPAUDIT_NO_AHEAD"))


def fork_copy(work):
    """Fork a copy of this process that runs work(out), `out` the write end of a pipe (a binary
    file), and then ends, dying with this process if this one ends first (die_with_parent).  Returns
    (the copy's pid, the pipe's read end as a binary file); raises OSError, leaving nothing open,
    where no process or pipe can be had."""
    read, write = os.pipe()
    parent = os.getpid()
    try:
        pid = os.fork()
    except OSError:
        os.close(read)
        os.close(write)
        raise
    if pid == 0:  # pragma: no cover - the copy (coverage is not measured in it)
        code = 1
        try:
            die_with_parent(parent)
            os.close(read)
            with os.fdopen(write, "wb") as out:
                work(out)
            code = 0
        finally:
            os._exit(code)
    os.close(write)
    return pid, os.fdopen(read, "rb")


def die_with_parent(parent: int) -> None:
    """In a forked copy, first thing: be killed (SIGKILL) when the process that forked it ends,
    however it ends (Linux's PR_SET_PDEATHSIG), and end at once if it already has -- so that no
    copy outlives a process that was itself killed, and a copy's own copy goes with it."""
    import ctypes
    import signal

    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL))   # 1: PR_SET_PDEATHSIG
    except (OSError, AttributeError):    # not Linux's libc: the parent still kills it in close()
        pass
    if os.getppid() != parent:
        os._exit(1)


def stop_copy(pid: int) -> None:
    """Kill a forked copy (SIGKILL: whatever it is doing, any copy of its own dies with it) and
    reap it."""
    import signal

    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass
    try:
        os.waitpid(pid, 0)
    except OSError:
        pass


def _one_thread() -> bool:
    """Whether this is the process's one Python thread (a fork copies only the thread that makes
    it, and a lock another thread holds then stays locked in the copy)."""
    import threading

    return threading.active_count() == 1


def cores() -> int:
    """The cores this process may run on (also -j's default: gpaudit.runner.default_jobs)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


class _Ahead:
    """The queries given to `ahead`, decided in order by a forked copy of this process, which
    sends (status, steps, seconds, cases, split) for each down a pipe."""

    def __init__(self, queries, budget_ms: int):
        zb.configure_z3()
        self.index, self.jobs = {}, []   # jobs holds each query, so no other object takes its id
        for q in queries:
            if id(q) not in self.index and q.digits <= zb.NUMERAL_DIGITS_MAX:
                self.index[id(q)] = len(self.jobs)
                self.jobs.append(q)
        self.budget_ms = budget_ms
        self.got: dict = {}
        self.last = None               # the status of the record take() read last
        # (OSError where no process or pipe can be had: the caller decides everything at its turn)
        self.pid, self.pipe = fork_copy(self._send_all)

    def _send_all(self, out):  # pragma: no cover - runs in the copy (coverage is not measured there)
        for i, q in enumerate(self.jobs):
            pickle.dump((i, *self._decide(q)), out)
            out.flush()                # each record as soon as it is decided

    def _decide(self, q):
        limit, used = zb.rlimit_of(self.budget_ms, q.digits, q.transcendental), [0]

        def call(assertions, max_steps=None):
            r, s, dt = zb.call(assertions, limit, q.digits, max_steps)
            if not isinstance(s, zb.NotRun):
                used[0] += s.steps
            return r, s, dt
        r, s, dt, cases, split = zb.decide_terms(list(q.facts), q.formula, call)
        model = model_of(s) if r == z3.sat else {}
        why = "" if r != z3.unknown else s.reason_unknown()
        return str(r), used[0], dt, cases, split, model, why

    def take(self, q, budget_ms: int):
        """(Answer, weighted steps) of q decided ahead, where it is `sat` or `unknown` and the one
        the kernel would get now; else None (an `unsat` is decided again at the query's turn)."""
        i = self.index.get(id(q))
        if i is None or budget_ms != self.budget_ms or not cache.fits(q, budget_ms, 0):
            return None                # (not waited for where the budget left would cut it anyway)
        while i not in self.got and self.pipe is not None:
            try:
                rec = pickle.load(self.pipe)
                self.got[rec[0]] = rec[1:]
            except Exception:  # noqa: BLE001 - the copy ended early (killed, crashed): decide at the turn
                self.pipe = None
        rec = self.got.pop(i, None)
        self.last = None if rec is None else rec[0]
        if rec is None or rec[0] not in ("sat", "unknown"):
            return None
        status, used, dt, cases, split, model, why = rec
        steps = used * zb.step_weight(q.digits)
        if not cache.fits(q, budget_ms, steps):
            return None
        return zb.Answer(status, model=model, seconds=dt, reason=f"decided ahead: {why}" if why else "decided ahead",
                         cases=cases, split=split), steps

    def close(self):
        stop_copy(self.pid)
        if self.pipe is not None:
            self.pipe.close()


@contextmanager
def ahead(queries, budget_ms: int):
    """Decide `queries` (Query objects, asked for later with this budget) ahead, in a forked copy
    of this process, while the body runs -- where a core is free for it and forking is safe (Linux,
    no other Python thread).  The answers are the same either way."""
    global _AHEAD
    queries = [q for q in queries if q is not None]
    if _AHEAD is not None or len(queries) < AHEAD_MIN_QUERIES or not may_fork():
        yield
        return
    cdir = cache.cache_dir()
    if cdir is not None:               # an answer in the proof cache is read there at its turn
        queries = [q for q in queries if not (cdir / f"{cache.cache_key(texts.key_text(q), budget_ms)}.json").exists()]
        if len(queries) < AHEAD_MIN_QUERIES:
            yield
            return
    try:
        _AHEAD = _Ahead(queries, budget_ms)
    except OSError:                    # no fork, no pipe: everything is decided at its turn
        yield
        return
    try:
        yield
    finally:
        a, _AHEAD = _AHEAD, None
        a.close()


def recall(q, budget_ms: int):
    """The advice of the copy deciding ahead for q (see _Ahead.take), or None."""
    return None if _AHEAD is None else _AHEAD.take(q, budget_ms)
