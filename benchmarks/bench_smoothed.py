"""Smoothed-DP benchmark: prints how the exact computation grows, asserts nothing.

    python benchmarks/bench_smoothed.py [--quick] [--full]

For the sampling-histogram mechanism (without replacement, T = ceil(n/20), eps = 1, so e^eps is
enclosed and both bounds of every delta(h) are computed), one row per size:

    m, n, T, l (vertices of Pi), H (histograms), O (outputs), K (count vectors),
    the delta(h) table's seconds (H m(m-1) O big-integer terms),
    Algorithm 1's seconds (n polynomial steps of length ~n^(m-1) in C, K dot products in Python),
    the CPU seconds of the whole (on a shared machine the steadier figure).

The targets: m = 2, n = 3000 under 30 s; m = 3, n = 200 under 60 s (2-core machine). --full adds
m = 3, n = 200 with three vertices (K = 20301: the dot products dominate).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))   # this checkout's gpaudit, whatever is installed

import sympy as sp  # noqa: E402

from gpaudit.kernel.numbers import decimal_up  # noqa: E402
from gpaudit.smoothed import exact  # noqa: E402
from gpaudit.smoothed.mechs import SamplingHistogram, count_compositions  # noqa: E402

R = sp.Rational
PI = {2: {1: [(R(1, 2), R(1, 2))], 2: [(R(1, 10), R(9, 10)), (R(3, 5), R(2, 5))]},
      3: {2: [(R(1, 5), R(2, 5), R(2, 5)), (R(2, 5), R(1, 5), R(2, 5))],
          3: [(R(1, 5), R(2, 5), R(2, 5)), (R(2, 5), R(1, 5), R(2, 5)), (R(2, 5), R(2, 5), R(1, 5))]}}


def row(m, n, l):
    T = math.ceil(n / 20)
    c0, t0 = time.process_time(), time.perf_counter()
    mech = SamplingHistogram(n, m, T, False, cache_all=m > 2)
    table = exact.delta_table(mech, n, m, sp.Integer(1))
    t1 = time.perf_counter()
    E = exact.expectations(table, n, m, PI[m][l])
    t2 = time.perf_counter()
    best = decimal_up(max(exact.ball_bounds(b)[1] for b in E.values()), 4)
    print(f"{m:>2} {n:>5} {T:>4} {l:>2} {len(table.lo):>7} {len(mech.outputs):>5} {count_compositions(n, l):>6} "
          f"{t1 - t0:>8.2f} {t2 - t1:>8.2f} {time.process_time() - c0:>8.2f}   {best}", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="small sizes only")
    ap.add_argument("--full", action="store_true", help="also m = 3, n = 200 with three vertices")
    args = ap.parse_args()
    sizes = [(2, 500, 2), (2, 1000, 2), (2, 2000, 2), (2, 3000, 2), (2, 3000, 1),
             (3, 50, 2), (3, 100, 2), (3, 200, 2), (3, 50, 3), (3, 100, 3)]
    if args.quick:
        sizes = [(2, 500, 2), (2, 1000, 2), (3, 50, 2), (3, 50, 3)]
    if args.full:
        sizes.append((3, 200, 3))
    print(" m     n    T  l       H     O      K  table_s  alg1_s    cpu_s   smoothed delta (upper)")
    for m, n, l in sizes:
        row(m, n, l)


if __name__ == "__main__":
    main()
