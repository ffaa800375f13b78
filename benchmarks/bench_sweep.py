"""gpaudit sweep benchmark: prints figures, asserts nothing.

    python benchmarks/bench_sweep.py [--points 50] [--jobs 2] [--effort quick|standard|thorough]

The cost of a sweep of eta over the Student-t threshold mechanism (examples/threshold-student-t.yaml,
eta from 0.3 to 0.9: certified below about 0.87, refuted above) against the same points checked
by independent `gpaudit check` processes, one substituted file each, as a shell loop would:

1. `gpaudit sweep --vary eta=0.3:0.9:N -j J` (one command: its J workers import gpaudit once and
   keep their memos from one point to the next);
2. N `gpaudit check FILE` processes one after the other;
3. the same N processes, J at a time (the loop given the same cores as the sweep).

Every run starts from its own empty cache directory (GPAUDIT_CACHE: the proof cache, the radial B*
tables), so no figure profits from another's work; within a run the cache fills as it would for a
user. The verdicts of the three are compared.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FILE = ROOT / "examples" / "threshold-student-t.yaml"


def _gpaudit(args, cache: str, cwd: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, GPAUDIT_CACHE=cache)
    return subprocess.run([sys.executable, "-m", "gpaudit", *args], cwd=cwd, env=env, capture_output=True, text=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--points", type=int, default=50, help="points of the sweep (default 50)")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    ap.add_argument("--effort", choices=["quick", "standard", "thorough"], default=None,
                    help="audit effort (default: the file's, standard)")
    args = ap.parse_args()
    from gpaudit.sweep.grid import parse_vary, product
    from gpaudit.sweep.points import build_points

    work = tempfile.mkdtemp(prefix="gpaudit-bench-sweep-")
    spec = f"eta=0.3:0.9:{args.points}"
    effort = ["--effort", args.effort] if args.effort else []
    print(f"machine: {os.cpu_count()} cores; python {sys.version.split()[0]}; "
          f"{args.points} points of {FILE.relative_to(ROOT)} --vary {spec}, effort {args.effort or 'standard'}")

    t = time.perf_counter()
    r = _gpaudit(["sweep", str(FILE), "--vary", spec, "--out", "sweep", "-j", str(args.jobs), "-q", *effort],
                 tempfile.mkdtemp(prefix="gpaudit-bench-"), work)
    t_sweep = time.perf_counter() - t
    rows = json.loads((Path(work) / "sweep" / "sweep.json").read_text())["points"]
    swept = [row["verdict"] for row in rows]

    files = []
    for p in build_points(str(FILE), product([parse_vary(spec)]), None, args.effort):
        f = Path(work) / f"point-{p.index:03d}.yaml"
        f.write_text(p.text, encoding="utf-8")
        files.append(str(f))

    def check(f, cache):
        out = _gpaudit(["check", "-q", f, *effort], cache, work)
        return out.stdout.split()[0] if out.stdout else f"no result (exit {out.returncode}: {out.stderr.strip()[-200:]})"

    t = time.perf_counter()
    cache = tempfile.mkdtemp(prefix="gpaudit-bench-")
    one_by_one = [check(f, cache) for f in files]
    t_loop = time.perf_counter() - t

    t = time.perf_counter()
    cache = tempfile.mkdtemp(prefix="gpaudit-bench-")
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        parallel = list(pool.map(lambda f: check(f, cache), files))
    t_par = time.perf_counter() - t

    n = args.points
    print(f"  gpaudit sweep -j {args.jobs}                  {t_sweep:7.1f} s   {t_sweep / n:5.2f} s a point "
          f"(exit {r.returncode}: {swept.count('certified')} certified, {swept.count('refuted')} refuted, "
          f"{n - swept.count('certified') - swept.count('refuted')} other)")
    print(f"  {n} x gpaudit check, one at a time    {t_loop:7.1f} s   {t_loop / n:5.2f} s a point   "
          f"sweep is {t_loop / t_sweep:4.1f}x faster")
    print(f"  {n} x gpaudit check, {args.jobs} at a time      {t_par:7.1f} s   {t_par / n:5.2f} s a point   "
          f"sweep is {t_par / t_sweep:4.1f}x faster")
    agree = sum(a == b == c for a, b, c in zip(swept, one_by_one, parallel))
    print(f"  verdicts agree on {agree}/{n} points")
    for row, b, c in zip(rows, one_by_one, parallel):
        if not row["verdict"] == b == c:
            print(f"    eta={row['params']['eta']}: sweep {row['verdict']}, check {b}, check in parallel {c}")


if __name__ == "__main__":
    main()
