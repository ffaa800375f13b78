"""gpaudit benchmark: prints figures, asserts nothing.

    python benchmarks/bench.py [--catalog-only] [--effort standard]

1. privacy-loss evaluations per second: the vectorised float64 screen and the mpmath reference
   (50 digits), on the paper's Student-t threshold mechanism;
2. wall time to a verdict for every catalog configuration (valid and broken), with the verdict;
3. the totals the project tracks: the whole catalog, and the median time to refute a broken variant.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import mpmath
import numpy as np

from gpaudit.check import check_spec
from gpaudit.model.mechanism import build_mechanism
from gpaudit.spec.load import load_spec

ROOT = Path(__file__).resolve().parents[1]


def throughput():
    mech = build_mechanism(load_spec(ROOT / "examples" / "threshold-student-t.yaml"))
    rng = np.random.default_rng(0)
    n = 200_000
    X = rng.uniform(-5, 5, (n, 1))
    Xp = X + rng.uniform(-1, 1, (n, 1))
    Y = rng.uniform(-10, 10, n)
    mech.log_ratio_np(X[:1000], Xp[:1000], Y[:1000])  # warm up
    t = time.perf_counter()
    mech.log_ratio_np(X, Xp, Y)
    float_rate = n / (time.perf_counter() - t)
    m = 300
    with mpmath.workdps(50):
        t = time.perf_counter()
        for i in range(m):
            mech.log_ratio_mp(tuple(X[i]), tuple(Xp[i]), float(Y[i]))
        mp_rate = m / (time.perf_counter() - t)
    print(f"privacy-loss evaluations/s  float64 screen: {float_rate:,.0f}   mpmath 50 digits: {mp_rate:,.0f}")


def catalog(effort):
    rows = []
    for path in sorted((ROOT / "examples").glob("*.yaml")) + sorted((ROOT / "examples" / "broken").glob("*.yaml")):
        spec = load_spec(path)
        t = time.perf_counter()
        r = check_spec(spec, effort=effort)
        dt = time.perf_counter() - t
        rows.append((path.relative_to(ROOT), r.verdict, dt))
        print(f"  {str(path.relative_to(ROOT)):<58} {r.verdict:<10} {dt:7.2f} s")
    total = sum(r[2] for r in rows)
    broken = [r[2] for r in rows if "broken" in str(r[0])]
    print(f"whole catalog: {total:.1f} s for {len(rows)} configurations; "
          f"median time to refute a broken variant: {statistics.median(broken):.2f} s")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--catalog-only", action="store_true")
    ap.add_argument("--effort", default=None, choices=["quick", "standard", "thorough"])
    args = ap.parse_args()
    if not args.catalog_only:
        throughput()
    print("wall time to a verdict:")
    catalog(args.effort)


if __name__ == "__main__":
    main()
