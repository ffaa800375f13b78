"""gpaudit benchmark: prints figures, asserts nothing.

    python benchmarks/bench.py [--skip-cli] [--effort standard] [--jobs 2]

1. privacy-loss evaluations per second on the paper's Student-t threshold mechanism: the float64
   screen (the lowered log-ratio the screen, the guided search and the polishing score), next to
   a tight numpy loop evaluating the same log-density ratio from the closed forms written out by
   hand (the practical limit on this machine), and the mpmath reference at 50 digits;
2. wall time to a verdict for every catalog configuration (valid and broken), in one process,
   with the verdict, and the median time to refute a broken variant;
3. the whole catalog through the command line, `gpaudit check -j N` (process start and imports
   included), and a cold `gpaudit check` of each configuration in its own process (the target:
   every valid one under 5 s on an idle 2-core machine), with the CPU time of
   that process next to its wall time (on a busy machine the CPU time is the steadier figure),
   and the two-way threshold once more without the forked copies that use the second core (the
   proof stage beside the audit, the proof queries decided ahead; GPAUDIT_NO_AHEAD=1; the CPU time
   includes the copies where there are any), with its system time and page faults.

The numeric caches (the radial B* tables, the proof cache) are pointed at an empty temporary
directory, so that every figure is a cold one unless it says otherwise.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))   # this checkout's gpaudit, whatever is installed
_CACHE = tempfile.TemporaryDirectory(prefix="gpaudit-bench-")   # removed at exit
os.environ["GPAUDIT_CACHE"] = _CACHE.name

import mpmath  # noqa: E402
import numpy as np  # noqa: E402

from gpaudit.audit.floatloss import score_bound, triple_rates  # noqa: E402
from gpaudit.check import check_spec  # noqa: E402
from gpaudit.model.mechanism import build_mechanism  # noqa: E402
from gpaudit.spec.load import load_spec  # noqa: E402


def _best_rate(fn, *args, repeat=5):
    """Evaluations per second of fn(*args) over len(args[-1]) triples: the best of `repeat` runs."""
    best = math.inf
    for _ in range(repeat):
        t = time.perf_counter()
        fn(*args)
        best = min(best, time.perf_counter() - t)
    return len(args[-1]) / best


def tight_loop(X, Xp, Y):
    """ln p_x(y) - ln p_x'(y) for the Student-t threshold example, written out in numpy: f the soft
    threshold at T = 0, tau = 1, B Lemma 4.1's closed form at gamma = 1/9, nu = 3, eta from the
    file.  No rounding correction, no checks: the fastest honest evaluation of the same ratio."""
    nu, gamma = 3.0, 1.0 / 9.0
    eta = (2.0 / 3.0) / ((nu + 1) / (2 * math.sqrt(nu)))
    logc = math.lgamma((nu + 1) / 2) - math.lgamma(nu / 2) - 0.5 * math.log(nu * math.pi)

    def logp(x):
        a = np.clip(x + 0.5, 0.0, 1.0)
        ax = np.abs(x)
        B = np.where(ax <= 0.5, 1.0, np.maximum(1.0 / (ax + 0.5), np.exp(1.0 / 18.0 - ax / 9.0)))
        b = B / eta
        u = (Y - a) / b
        return logc - (nu + 1) / 2 * np.log1p(u * u / nu) - np.log(b)
    return logp(X[:, 0]) - logp(Xp[:, 0])


def throughput():
    mech = build_mechanism(load_spec(ROOT / "examples" / "threshold-student-t.yaml"))
    rng = np.random.default_rng(0)
    n = 200_000
    X = rng.uniform(-5, 5, (n, 1))
    Xp = X + rng.uniform(-1, 1, (n, 1))
    Y = rng.uniform(-10, 10, n)
    psi = score_bound(mech)
    ref = tight_loop(X, Xp, Y)
    ours = mech.log_ratio_np(X, Xp, Y)
    diff = float(np.max(np.abs(ours - ref)))
    screen = _best_rate(lambda X, Xp, Y: triple_rates(mech, X, Xp, Y, psi), X, Xp, Y)
    plain = _best_rate(mech.log_ratio_np, X, Xp, Y)
    tight = _best_rate(tight_loop, X, Xp, Y)
    m = 300
    with mpmath.workdps(50):
        t = time.perf_counter()
        for i in range(m):
            mech.log_ratio_mp(tuple(X[i]), tuple(Xp[i]), float(Y[i]))
        mp_rate = m / (time.perf_counter() - t)
    print("privacy-loss evaluations per second (Student-t threshold, 200,000 triples, best of 5):")
    print(f"  float64 screen (lowered rate)   {screen:>14,.0f}   tight loop / screen = {tight / screen:.2f}x")
    print(f"  float64 log-ratio (model)       {plain:>14,.0f}   tight loop / model  = {tight / plain:.2f}x")
    print(f"  tight numpy loop (hand-written) {tight:>14,.0f}   (max |difference| from the model {diff:.1e})")
    print(f"  mpmath, 50 digits               {mp_rate:>14,.0f}")


def catalog_paths():
    return sorted((ROOT / "examples").glob("*.yaml")) + sorted((ROOT / "examples" / "broken").glob("*.yaml"))


def catalog(effort):
    rows = []
    print("wall time to a verdict, in one process (imports excluded; caches cold):")
    for path in catalog_paths():
        spec = load_spec(path)
        t = time.perf_counter()
        r = check_spec(spec, effort=effort)
        dt = time.perf_counter() - t
        rows.append((path.relative_to(ROOT), r.verdict, dt))
        print(f"  {str(path.relative_to(ROOT)):<58} {r.verdict:<10} {dt:7.2f} s")
    total = sum(r[2] for r in rows)
    broken = [r[2] for r in rows if "broken" in str(r[0])]
    valid = [r[2] for r in rows if "broken" not in str(r[0])]
    print(f"  sum {total:.1f} s for {len(rows)} configurations; median refute {statistics.median(broken):.2f} s, "
          f"slowest refute {max(broken):.2f} s; slowest certified {max(valid):.2f} s")


def _cli(args, **extra_env):
    """(wall seconds, CPU seconds of the command's process and of the copies it forks and reaps
    (the proof stage beside the audit; the queries decided ahead) -- not of the worker processes of
    -j, which its forkserver reaps -- and the completed process), with a new, empty cache."""
    import resource

    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with tempfile.TemporaryDirectory(prefix="gpaudit-bench-") as cache:
        env = dict(os.environ, GPAUDIT_CACHE=cache, PYTHONPATH=path, **extra_env)
        t = time.perf_counter()
        r = subprocess.run([sys.executable, "-m", "gpaudit", "check", "-q", *args], cwd=ROOT, env=env,
                           capture_output=True, text=True)
        dt = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    _cli.memory = (after.ru_stime - before.ru_stime, after.ru_minflt - before.ru_minflt)
    return dt, cpu, r


def _cli_row(path, **extra_env) -> float:
    """`gpaudit check path` in a new process, printed as one row; its wall seconds."""
    dt, cpu, r = _cli([str(path.relative_to(ROOT))], **extra_env)
    print(f"  gpaudit check {str(path.relative_to(ROOT)):<58} {r.stdout.split()[0] if r.stdout else '?':<9} "
          f"{dt:5.2f} s ({cpu:5.2f} s CPU)")
    return dt


def _startup(code):
    """Best-of-3 wall seconds of `python -c code` with this checkout on the path."""
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    best = math.inf
    for _ in range(3):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=dict(os.environ, PYTHONPATH=path), check=True)
        best = min(best, time.perf_counter() - t)
    return best


def cli(jobs):
    import compileall

    # as an installed package has it (pip compiles on install; PYTHONDONTWRITEBYTECODE would
    # otherwise make every process compile gpaudit's sources again)
    compileall.compile_dir(str(ROOT / "gpaudit"), quiet=1)
    print("through the command line (a new process: imports included; caches cold):")
    bare, imports = _startup("pass"), _startup("import gpaudit.cli, gpaudit.check")
    print(f"  every process pays first: python itself {bare:.2f} s, then gpaudit's imports "
          f"{imports - bare:.2f} s (best of 3)")
    t, cpu, r = _cli(["-j", str(jobs), "examples"])
    n = len(r.stdout.splitlines())
    print(f"  gpaudit check -j {jobs} examples   {t:6.1f} s for {n} configurations (exit {r.returncode})")
    times = {"valid": [], "broken": []}
    for path in catalog_paths():
        dt = _cli_row(path)
        times["broken" if "broken" in path.parts else "valid"].append(dt)
    print(f"  cold through the CLI: slowest certified {max(times['valid']):.2f} s; median refute "
          f"{statistics.median(times['broken']):.2f} s, slowest {max(times['broken']):.2f} s")
    two_way = ROOT / "examples" / "two-way-student-t.yaml"   # the entry with the most proof queries
    if two_way.exists():
        print("  the same without the forked copies (proof stage beside the audit, queries decided ahead; "
              "GPAUDIT_NO_AHEAD=1):")
        _cli_row(two_way, GPAUDIT_NO_AHEAD="1")
        system, faults = _cli.memory      # the allocator's thresholds (gpaudit/runtime/memory.py) show here
        print(f"    of its CPU time {system:.2f} s in the system, {faults} page faults")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--skip-cli", action="store_true", help="skip the command-line figures (part 3)")
    ap.add_argument("--effort", default=None, choices=["quick", "standard", "thorough"])
    ap.add_argument("--jobs", type=int, default=2, help="-j for the command-line catalog run (default 2)")
    args = ap.parse_args()
    print(f"machine: {os.cpu_count()} cores; python {sys.version.split()[0]}; numpy {np.__version__}")
    throughput()
    catalog(args.effort)
    if not args.skip_cli:
        cli(args.jobs)


if __name__ == "__main__":
    main()
