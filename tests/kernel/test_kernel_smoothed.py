"""gpaudit.kernel.smoothed: the kernel's own re-computation of the DP and smoothed delta of anonymous
mechanisms, against the brute-force reference of tests/pipeline/test_smoothed.py (databases record by record,
samples one by one, every assignment of Pi to the records), and a mutation test per rule."""

from __future__ import annotations

from fractions import Fraction

import mpmath as mp
import pytest
import sympy as sp

from gpaudit.kernel import certificate as kc
from gpaudit.kernel import smoothed as ks
from test_kernel_rules import _cases, _mutate
from test_smoothed import deltas, hockey_mp, shm_output, smoothed_truth

F = Fraction
R = sp.Rational


def problem(notion, n, m, T, rep, dists, eps, delta, kind="sampling_histogram", fn=None):
    return ks.Problem(notion, kind, n, m, T, rep, fn, tuple(tuple(R(x.numerator, x.denominator) for x in v)
                                                             for v in dists or ()), sp.sympify(eps), sp.sympify(delta))


CASES = [   # n, m, T, replacement, Pi, e^eps (rational)
    (5, 2, 2, False, [[F(1, 10), F(9, 10)], [F(3, 5), F(2, 5)]], F(2)),
    (4, 2, 3, True, [[F(1, 3), F(2, 3)], [F(1, 2), F(1, 2)]], F(5, 4)),
    (4, 3, 2, False, [[F(1, 5), F(2, 5), F(2, 5)], [F(3, 5), F(1, 5), F(1, 5)], [F(1, 5), F(1, 5), F(3, 5)]], F(3, 2)),
    (3, 3, 2, True, [[F(1, 2), F(1, 4), F(1, 4)], [F(1, 4), F(1, 2), F(1, 4)]], F(2)),
    (5, 2, 2, False, [[F(0), F(1)], [F(1, 2), F(1, 2)]], F(2)),
]
IDS = [f"n{c[0]}m{c[1]}T{c[2]}{'r' if c[3] else ''}" for c in CASES]


def truths(case):
    n, m, T, rep, dists, c = case
    d = deltas(n, m, lambda x: shm_output(x, m, T, rep), c)
    return max(d.values()), smoothed_truth(n, dists, d)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_exact_path_equals_the_brute_force(case):
    n, m, T, rep, dists, c = case
    dp, sdp = truths(case)
    eps = sp.log(R(c.numerator, c.denominator))
    assert ks.bound(problem("dp", n, m, T, rep, None, eps, 1)) == dp
    kept = list(range(len(dists)))
    assert ks.bound(problem("smoothed_dp", n, m, T, rep, dists, eps, 1), kept, {}) == sdp
    # a claim equal to the value is certified, one just below it is not
    v = ks.check(problem("smoothed_dp", n, m, T, rep, dists, eps, sp.Rational(sdp.numerator, sdp.denominator)), kept)
    assert kc.is_verified(v) and v.route == "smoothed_dp" and v.outcomes[0].holds
    below = sdp * (1 - F(1, 10**12))
    with pytest.raises(kc.Rejected, match="smoothed_dp.delta"):
        ks.check(problem("smoothed_dp", n, m, T, rep, dists, eps, R(below.numerator, below.denominator)), kept)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_binary64_path_bounds_the_brute_force_tightly(case, monkeypatch):
    n, m, T, rep, dists, c = case
    sdp = truths(case)[1]
    monkeypatch.setattr(ks, "EXACT_LIMIT", 0)
    P = problem("smoothed_dp", n, m, T, rep, dists, sp.log(R(c.numerator, c.denominator)), 1)
    b = ks.bound(P, list(range(len(dists))), {})
    assert sdp <= b <= sdp * (1 + F(1, 10**11)) + F(1, 10**89)
    # the error terms the bound adds: 2 K u relative (K roundings along a path), underflow absolute
    table = ks.delta_upper(P)
    grid, verts, scale = ks.arrays(table, P.dists, n, m)
    assert 2.0**499 <= grid.max() <= 2.0**501 and min(grid[h[:-1]] for h in table) >= ks.FLOOR_DELTA
    _, rel, slack = ks.expectations(grid, verts, scale, n, m)
    assert (rel - 1) * 2**53 >= 2 * (m * n + (n + 1) ** (m - 1)) and slack > 0


def test_binary64_path_is_tight_on_tiny_values(monkeypatch):
    """Theorem 5's smoothed setting (n = 400, T = 20, with replacement, Pi = {(1/2, 1/2)}): the value is
    about 1e-114, far below binary64's smallest normal number times the other factors; scaled, the
    binary64 bound is within 1e-10 of the exact one (and above it)."""
    P = problem("smoothed_dp", 400, 2, 20, True, [[F(1, 2), F(1, 2)]], sp.Rational(11, 10), 1)
    monkeypatch.setattr(ks, "EXACT_LIMIT", 10**6)
    exact = ks.bound(P, [0])
    monkeypatch.setattr(ks, "EXACT_LIMIT", 0)
    b = ks.bound(P, [0])
    assert F(1, 10**120) < exact <= b <= exact * (1 + F(1, 10**10))


@pytest.mark.parametrize("n, m, T, rep, dists", [
    (200, 2, 10, False, [[F(1, 10), F(9, 10)], [F(3, 5), F(2, 5)]]),
    (120, 2, 6, True, [[F(1, 3), F(2, 3)]]),
    (30, 3, 3, True, [[F(1, 5), F(2, 5), F(2, 5)], [F(2, 5), F(1, 5), F(2, 5)], [F(1, 3), F(1, 3), F(1, 3)]]),
    (40, 3, 2, False, [[F(1, 2), F(1, 4), F(1, 4)], [F(1, 10), F(1, 10), F(4, 5)]]),
])
def test_binary64_path_against_the_exact_path_at_moderate_sizes(n, m, T, rep, dists, monkeypatch):
    """Both paths of the kernel on the same problem, m = 2 and 3, with and without replacement."""
    P = problem("smoothed_dp", n, m, T, rep, dists, 1, 1)
    kept = list(range(len(dists)))
    monkeypatch.setattr(ks, "EXACT_LIMIT", 10**9)
    exact = ks.bound(P, kept)
    monkeypatch.setattr(ks, "EXACT_LIMIT", 0)
    assert exact <= ks.bound(P, kept) <= exact * (1 + F(1, 10**10))


def test_irrational_e_eps_is_rounded_against_privacy():
    """eps = 1, with replacement (delta(h) depends on e^eps there): the bounds, with e^eps from below,
    are above the values at 120 digits, and within 1e-30 of them (both notions)."""
    n, m, T = 5, 2, 3
    with mp.workdps(120):
        d = deltas(n, m, lambda x: shm_output(x, m, T, True), mp.e, hs=hockey_mp)
        dists = [[F(1, 10), F(9, 10)], [F(3, 5), F(2, 5)]]
        sdp = smoothed_truth(n, [[mp.mpf(x.numerator) / x.denominator for x in v] for v in dists], d)
        dp = min(v for v in d.values() if v < max(d.values()))     # a histogram whose delta depends on e^eps
        table = ks.delta_upper(problem("dp", n, m, T, True, None, 1, 1))
        assert any(dp <= mp.mpf(v.numerator) / v.denominator <= dp * (1 + mp.mpf(10) ** -30) for v in table.values())
        assert all(mp.mpf(v.numerator) / v.denominator >= dp for v in table.values() if v)
        b = ks.bound(problem("smoothed_dp", n, m, T, True, dists, 1, 1), [0, 1])
        assert sdp <= mp.mpf(b.numerator) / b.denominator <= sdp * (1 + mp.mpf(10) ** -30)


def test_the_hull_is_checked_from_the_weights():
    dists = [[F(1, 5), F(4, 5)], [F(1, 2), F(1, 2)], [F(4, 5), F(1, 5)]]
    P = problem("smoothed_dp", 6, 2, 2, False, dists, sp.log(2), 1)
    full = ks.bound(P, [0, 1, 2])
    assert ks.bound(P, [0, 2], {1: [F(1, 2), F(1, 2)]}) == full
    for weights in ({}, {1: [F(1, 3), F(2, 3)]}, {1: [F(3, 2), F(-1, 2)]}, {1: [F(1, 2)]}):
        with pytest.raises(kc.Rejected, match="hull"):
            ks.bound(P, [0, 2], weights)
    with pytest.raises(kc.Rejected, match="hull"):    # an end point dropped: the interior ones do not span it
        ks.bound(P, [0, 1], {2: [F(-1), F(2)]})


def test_python_mechanisms_are_evaluated_by_the_kernel():
    def exact_count(h):     # randomised response on the count of type 0: exact Fractions
        out = {k: F(1, 3 * (sum(h) + 1)) for k in range(sum(h) + 1)}
        out[h[0]] += F(2, 3)
        return out

    def mp_count(h):
        return {k: mp.mpf(v.numerator) / v.denominator for k, v in exact_count(h).items()}

    n, dists = 3, [[F(1, 4), F(3, 4)]]
    d = deltas(n, 2, lambda x: exact_count((x.count(0), len(x) - x.count(0))), F(2))
    sdp = smoothed_truth(n, dists, d)
    P = problem("smoothed_dp", n, 2, None, False, dists, sp.log(2), 1, kind="python", fn=exact_count)
    assert ks.bound(P, [0]) == sdp
    bm = ks.bound(problem("smoothed_dp", n, 2, None, False, dists, sp.log(2), 1, kind="python", fn=mp_count), [0])
    assert sdp <= bm <= sdp * (1 + F(1, 10**30))
    bad = {"floats": lambda h: {k: float(v) for k, v in exact_count(h).items()},
           "a float program": lambda h: {k: mp.mpf(float(v)) for k, v in exact_count(h).items()},
           "a float program summing to one": lambda h: {0: mp.mpf(1 / 3), 1: 1 - mp.mpf(1 / 3)},
           "unstable across precisions": lambda h: {k: v + mp.mpf(10) ** (-mp.mp.dps // 2)
                                                    for k, v in mp_count(h).items()},
           "raises": lambda h: 1 / 0, "not a dict": lambda h: [1], "sums to 2": lambda h: {0: 1, 1: 1},
           "negative": lambda h: {0: F(2), 1: F(-1)}}
    for name, fn in bad.items():
        with pytest.raises(kc.Rejected, match="mechanism"):
            ks.bound(problem("smoothed_dp", n, 2, None, False, dists, sp.log(2), 1, kind="python", fn=fn), [0])


def test_floating_point_is_probed_and_the_size_limited(monkeypatch):
    assert ks.ieee_ok()
    third = F(ks.float_up(F(1, 3)))
    assert F(1, 3) <= third < F(1, 3) + F(1, 2**54)
    with mp.workdps(50):
        assert mp.sqrt(2) <= ks.float_up(sp.sqrt(2)) < mp.sqrt(2) + 2.0**-51 and ks.float_up(F(1, 2)) == 0.5
    P = problem("smoothed_dp", 40, 2, 2, False, [[F(1, 5), F(4, 5)], [F(1, 2), F(1, 2)]], sp.log(2), 1)
    monkeypatch.setattr(ks, "EXACT_LIMIT", 0)
    monkeypatch.setattr(ks, "ieee_ok", lambda: False)
    with pytest.raises(kc.Rejected, match="binary64"):
        ks.bound(P, [0, 1])
    monkeypatch.undo()
    monkeypatch.setattr(ks, "WORK_LIMIT", 100)
    with pytest.raises(kc.Rejected, match="limit"):
        ks.check(P, [0, 1])
    monkeypatch.setattr(ks, "DIST_LIMIT", 100)       # 41 histograms x 3 outputs
    with pytest.raises(kc.Rejected, match="histograms x 3 outputs exceed"):
        ks.check(problem("dp", 40, 2, 2, False, None, sp.log(2), 1))


def test_the_kernel_counts_before_it_lists_and_bounds_its_arrays(monkeypatch):
    # gpaudit verify hands the kernel a configuration directly: it too counts the histograms and
    # outputs before listing them, and bounds the n + 1 arrays of Algorithm 1 (memory)
    import numpy as np

    def listed(*a):
        raise AssertionError("listed before the size was counted")
    monkeypatch.setattr(ks, "compositions", listed)
    with pytest.raises(ValueError, match="167668501 histograms x 23426 outputs exceed"):
        ks.delta_upper(problem("smoothed_dp", 1000, 4, 50, False, [[F(1, 4)] * 4], 1, F(1, 10**6)))
    monkeypatch.setattr(ks, "ARRAY_LIMIT", 15)
    with pytest.raises(ValueError, match="4 arrays of 4"):
        ks.expectations(np.zeros(4), [np.ones(2)], 0, 3, 2)
    monkeypatch.setattr(ks, "ARRAY_LIMIT", 16)
    assert ks.expectations(np.zeros(4), [np.ones(2)], 0, 3, 2)[0]


def test_the_bound_is_verified_only_with_the_kernels_token():
    with pytest.raises(TypeError):
        kc.Verified(sp.Integer(1), "smoothed_dp", ())


MUTANTS = {
    "Algorithm 1's arrays unbounded": ("expectations", " or (n + 1) * L > ARRAY_LIMIT", ""),
    "one direction only": ("delta_upper", "max(_hockey(*dists[h], *dists[h2], c), _hockey(*dists[h2], *dists[h], c))",
                           "_hockey(*dists[h], *dists[h2], c)"),
    "e^eps from above": ("_below", "arb.lower).man_exp()", "arb.upper).man_exp()"),
    "signed hockey-stick sum": ("_hockey", "sum(max(0, v * a - q.get(y, 0) * b)", "sum((v * a - q.get(y, 0) * b)"),
    "binomial row off by one": ("_row", "(a - b + 1) // b", "(a - b) // b"),
    "hull unchecked": ("bound", "if not kept or not _hull_ok(P, kept, weights or {}):", "if not kept:"),
    "float rounded to nearest": ("float_up", "math.nextafter(f, math.inf)", "f"),
    "no relative error term": ("expectations", "1 + Fraction(2 * K, 2**53)", "Fraction(1)"),
    "floating point not probed": ("bound", "if not ieee_ok():", "if False:"),
    "claim compared loosely": ("check", "P.delta) is True", "P.delta) is not None"),
    "mpmath taken as exact": ("_dist", "if err > Fraction(1, 10**40) * max(abs(v), Fraction(1, 10**200)):", "if False:"),
}


def _failing(first: bool = False) -> list:
    """The tests of this file (every parametrized case) that fail as kernel.smoothed is now (with
    `first`: up to the first that fails)."""
    import inspect
    import sys
    failed = []
    for name, fn in vars(sys.modules[__name__]).items():
        if not name.startswith("test_") or name.startswith("test_mutant") or not inspect.isfunction(fn):
            continue
        params = set(inspect.signature(fn).parameters)
        for case in _cases(fn):
            assert not params - set(case) - {"monkeypatch"}, (name, params)
            with pytest.MonkeyPatch.context() as mp_:
                kw = dict(case, monkeypatch=mp_) if "monkeypatch" in params else dict(case)
                try:
                    fn(**kw)
                except (Exception, pytest.fail.Exception):  # noqa: BLE001 - the mutant broke something
                    failed.append(name)
                    if first:
                        return failed
    return failed


@pytest.mark.slow
def test_mutant_none_leaves_every_test_passing():
    assert not _failing()


@pytest.mark.slow   # this file's tests once per mutant, up to the first that fails
@pytest.mark.parametrize("mutant", sorted(MUTANTS))
def test_mutant_is_caught(mutant, monkeypatch):
    func, old, new = MUTANTS[mutant]
    _mutate(monkeypatch, ks, func, old, new)
    assert _failing(first=True), f"no test of kernel.smoothed fails with: {mutant}"
