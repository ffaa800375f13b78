"""Smoothed-DP benchmark: prints how the computation grows, asserts nothing.

    python benchmarks/bench_smoothed.py [--quick]

For the sampling-histogram mechanism (without replacement, T = ceil(n/20), eps = 1, so e^eps is
enclosed and both bounds of every delta(h) are computed), one row per size, with

    m, n, T, l (vertices of Pi), H = C(n+m-1, m-1) histograms, O = C(T+m-1, m-1) outputs,
    K = C(n+l-1, l-1) count vectors, L = (n+1)^(m-1) array entries per histogram array,

the seconds of each stage of `gpaudit check` (wall clock; on a shared machine the CPU seconds of
the whole, last, are the steadier figure):

    table   the generator's delta(h) table: H m(m-1)/2 neighbour pairs x 2 directions x O big-integer
            terms (m = 2: a bisection over the monotone likelihood ratio, O(log T) per pair)
    alg1    Algorithm 1 over every count vector (gpaudit.kernel.smoothed.expectations): n backward
            steps of L entries, then per count vector one forward step and one dot product of at
            most L entries: about K L (m + 1) multiply-adds in numpy, binary64 (exact fmpq below
            1e5 entries), plus the worst count vector recomputed in arb balls (one PMF, H terms)
    kernel  the kernel's re-computation: its own delta(h) table (H m(m-1) O terms, no bisection)
            and the same Algorithm 1 again

The targets: m = 2, n = 3000 under 30 s; m = 3, n = 200 under 60 s (2-core machine).
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

from gpaudit.kernel import smoothed as ks  # noqa: E402
from gpaudit.kernel.numbers import decimal_up  # noqa: E402
from gpaudit.smoothed import exact  # noqa: E402
from gpaudit.smoothed.mechs import SamplingHistogram, count_compositions  # noqa: E402

R = sp.Rational
PI = {2: {1: [(R(1, 2), R(1, 2))], 2: [(R(1, 10), R(9, 10)), (R(3, 5), R(2, 5))]},
      3: {2: [(R(1, 5), R(2, 5), R(2, 5)), (R(2, 5), R(1, 5), R(2, 5))],
          3: [(R(1, 5), R(2, 5), R(2, 5)), (R(2, 5), R(1, 5), R(2, 5)), (R(2, 5), R(2, 5), R(1, 5))]}}


def row(m, n, l):
    T = math.ceil(n / 20)
    dists = PI[m][l]
    c0, t0 = time.process_time(), time.perf_counter()
    mech = SamplingHistogram(n, m, T, False, cache_all=m > 2)
    table = exact.delta_table(mech, n, m, sp.Integer(1))
    t1 = time.perf_counter()
    E, rel, slack = ks.expectations(*ks.arrays(table.hi, dists, n, m), n, m)
    kappa = max(E, key=E.get)
    exact.kappa_expectation(table, n, m, dists, kappa)
    t2 = time.perf_counter()
    P = ks.Problem("smoothed_dp", "sampling_histogram", n, m, T, False, None, tuple(dists), sp.Integer(1), R(1))
    upper = ks.bound(P, list(range(l)))
    t3 = time.perf_counter()
    print(f"{m:>2} {n:>5} {T:>4} {l:>2} {len(table.lo):>7} {count_compositions(T, m):>5} {len(E):>6} "
          f"{(n + 1) ** (m - 1):>6} {t1 - t0:>7.2f} {t2 - t1:>7.2f} {t3 - t2:>7.2f} {t3 - t0:>7.2f} "
          f"{time.process_time() - c0:>7.2f}   {decimal_up(upper, 4)}", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="small sizes only")
    args = ap.parse_args()
    sizes = [(2, 1000, 2), (2, 2000, 2), (2, 3000, 2), (2, 3000, 1), (3, 50, 3), (3, 100, 2), (3, 100, 3),
             (3, 200, 2), (3, 200, 3)]
    if args.quick:
        sizes = [(2, 500, 2), (2, 1000, 2), (3, 50, 2), (3, 50, 3)]
    print("what grows how: table ~ H m(m-1) O big-integer terms (m = 2: H log T by bisection); "
          "alg1 ~ K L (m + 1) binary64 multiply-adds (n L for the backward steps); "
          "kernel ~ H m(m-1) O terms (no bisection) + alg1 again")
    print(" m     n    T  l       H     O      K      L   table    alg1  kernel   total     cpu   smoothed delta (upper)")
    for m, n, l in sizes:
        row(m, n, l)


if __name__ == "__main__":
    main()
