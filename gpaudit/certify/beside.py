"""The proof stage beside the audit, on a free core.

The proof stage (``prove_stage``) does not use anything the audit finds: it reads only the
mechanism.  Where a core is free and forking is safe (``runtime.processes.may_fork``: Linux, two or more
cores, no other Python thread, not in a worker of ``check -j N`` or ``sweep -j N`` with N >= the
cores, ``GPAUDIT_NO_AHEAD`` unset), a forked copy of this process runs it while this process audits, and sends back its outcome
(the checks, the regions' certified rates, the witness, the route and the seed points; all plain
data and exact numbers).

Nothing about a verdict changes.  The copy makes the same calls, under the same deterministic work
budget, as this process would make after the audit; the outcome crosses a pipe by pickle, which
keeps exact numbers exact.  Where the copy sends nothing usable (it died, it raised, its outcome
held something that cannot be pickled), this process runs the proof stage itself, as if nothing had
been done beside, so that an error surfaces here exactly as before.  Where a verified witness settles
``refuted``, the copy is killed and its outcome is never read.  A copy dies with the process that
forked it, however that ends (``runtime.processes.die_with_parent``), and so does the copy it forks to decide
queries ahead.
"""

from __future__ import annotations

import os
import pickle
import signal

from ..runtime import processes
from .pipeline import prove_stage


class ProofBeside:
    """prove_stage(mech, pieces=False), started now in a forked copy where that is allowed (the
    pieces are the kernel's, check.kernel_prepare); `leaves()` gives the stage's regions as soon
    as it has found them, `result()` its outcome (the copy's, or this process's own), `close()`
    stops the copy.  A context manager."""

    def __init__(self, mech):
        self.mech = mech
        self.pid = None
        self.pipe = None
        self._pending = None     # a record of the copy's read before it was asked for
        self._own = None         # the outcome of the stage run in this process
        if processes.may_fork():
            self._start()

    def _start(self):
        try:
            self.pid, self.pipe = processes.fork_copy(self._send)
        except OSError:        # no process to spare: the proof stage runs here, after the audit
            pass

    def _send(self, out):  # pragma: no cover - runs in the copy (coverage is not measured there)
        # the checking process has the kernel decide the certificate-free obligations meanwhile
        # (check.kernel_prepare): with a copy deciding ahead too, three processes would share two
        # cores; and this stage leaves those obligations (the pieces defined and continuous) to it
        processes.set_ahead(False)
        quiet = os.open(os.devnull, os.O_WRONLY)
        os.dup2(quiet, 1)         # whatever it would print, this process prints if it runs the
        os.dup2(quiet, 2)         # stage itself

        def found(record):        # the regions, then each one's rates, as found: the kernel decides
            try:                  # what they settle meanwhile (check.kernel_prepare)
                data = pickle.dumps(record)
            except Exception:     # noqa: BLE001 - unpicklable: the kernel decides it all later
                return
            # whole or not at all: the stage's alarm (prove.engine.STAGE_GRACE_SECONDS) waits
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
            try:
                out.write(data)
                out.flush()
            except OSError:       # the checking process stopped listening
                pass
            finally:
                signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGALRM})
        try:
            data = pickle.dumps(("ok", _portable(prove_stage(self.mech, pieces=False, found=found))))
        except BaseException:     # noqa: BLE001 - this process runs the stage itself, and the
            data = pickle.dumps(("failed",))   # error surfaces there as before
        out.write(data)

    def _next(self):
        """The copy's next record (None: it sent nothing more)."""
        rec, self._pending = self._pending, None
        if rec is None and self.pipe is not None:
            try:
                rec = pickle.load(self.pipe)
            except Exception:  # noqa: BLE001 - the copy ended early
                rec = None
        return rec

    def leaves(self):
        """The proof stage's regions (route `regions`), as soon as it has them: the copy's first
        record; without a copy, the stage runs here, now.  None where there are none (another
        route, or the copy ended first)."""
        if self.pipe is None:
            self._own = self._own or prove_stage(self.mech, pieces=False)
            return self._own.leaves if self._own.route == "regions" else None
        rec = self._next()
        if rec is not None and rec[0] == "leaves":
            return rec[1]
        self._pending = rec
        return None

    def rates(self):
        """(label, a, c) of each region whose rates the proof stage has proved, as it proves them
        (after leaves(), in the regions' order; without a copy, from the stage run here)."""
        if self.pipe is None:
            for label, r in (self._own.rates.items() if self._own is not None and self._own.route == "regions" else ()):
                if r["a"] is not None and r["c"] is not None:
                    yield label, r["a"], r["c"]
            return
        while (rec := self._next()) is not None and rec[0] == "rates":
            yield rec[1:]
        self._pending = rec

    def result(self):
        """The proof stage's outcome (a ProofOutcome): the copy's where it sent one, else computed
        here."""
        from ..prove.prover import ProofOutcome   # (gpaudit.prove loads only where a proof is wanted)

        if self._own is not None:
            return self._own
        rec = self._next()
        while rec is not None and rec[0] in ("leaves", "rates"):    # (not asked for)
            rec = self._next()
        self.close()
        if rec is not None and rec[0] == "ok" and isinstance(rec[1], ProofOutcome):
            return rec[1]
        return prove_stage(self.mech, pieces=False)

    def close(self) -> None:
        """Stop the copy (a copy it forked dies with it) and reap it; nothing it sent is read."""
        if self.pid is not None:
            processes.stop_copy(self.pid)
            self.pid = None
        if self.pipe is not None:
            self.pipe.close()
            self.pipe = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


def _portable(out):
    """What `check` uses of the proof stage's outcome: the regions (leaves, sympy) and their rates,
    which become the kernel's certificate, without the obligation records (they hold z3 objects that
    stay in the copy; `gpaudit prove` runs in process)."""
    from ..prove.prover import ProofOutcome

    return ProofOutcome(out.checks, out.regions, out.witness, leaves=out.leaves, route=out.route, rates=out.rates,
                        seeds=out.seeds, reused=out.cache_reused(), deferred=out.deferred,
                        spent=out.spent)
