"""`gpaudit sweep` over a smoothed-DP configuration, varying n and an entry of a distribution: one
CSV row per point, each verdict the one its delta bounds give, and the bounds enclosing the delta
computed here by brute force (every database, sample and neighbour, sharing no code with gpaudit)."""

import math

import mpmath as mp

from gpaudit.cli import main

from test_smoothed import F, deltas, hockey_mp, shm_output   # the brute-force reference of the stage's tests


def test_sweep_over_n_and_a_distribution_entry(tmp_path, capsys):
    cfg = tmp_path / "s.yaml"
    cfg.write_text("gpaudit: 1\nname: s\nnotion: smoothed_dp\nparams:\n  n: 20\n  p: 1/10\n"
                   "mechanism: {kind: sampling_histogram, n: n, m: 2, eta: 1/10}\n"
                   "distributions: [[p, 1 - p]]\nclaim: {epsilon: 1, delta: 1/1000}\n")
    out = tmp_path / "sw"
    code = main(["sweep", str(cfg), "--vary", "p=1/10,1/2", "--vary", "n=10,20", "--out", str(out), "-j", "1", "-q"])
    assert code in (0, 1, 3)
    head, *lines = (out / "sweep.csv").read_text().splitlines()
    assert head.endswith("delta_lower,delta_upper") and len(lines) == 4
    import csv
    for row in csv.DictReader((out / "sweep.csv").read_text().splitlines()):
        n, p = int(row["n"]), F(row["p"])
        if n == 10:   # the reference, e^1 in 60-digit mpmath
            with mp.workdps(60):
                d = deltas(n, 2, lambda x: shm_output(x, 2, 1, False), mp.e, hs=hockey_mp)
                truth = max(sum(d[x] * math.prod(mp.mpf(q.numerator) / q.denominator
                                                 for q in ((p if xi == 0 else 1 - p) for xi in x)) for x in d)
                            for _ in [0])
                assert mp.mpf(row["delta_lower"]) <= truth * (1 + mp.mpf(10)**-25)
                assert truth <= mp.mpf(row["delta_upper"]) * (1 + mp.mpf(10)**-25)
        lo, hi = F(row["delta_lower"]), F(row["delta_upper"])
        assert lo <= hi and row["verdict"] == ("refuted" if lo > F(1, 1000) else "certified" if hi <= F(1, 1000)
                                               else "unknown")
