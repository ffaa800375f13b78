"""Output distributions of anonymous mechanisms, per histogram, as exact integers or rational
intervals over one list of outputs.

A distribution is ``(lo, hi, D)``: lists of integers over the mechanism's outputs and a common
denominator, Pr[M(h) = y] in [lo[y]/D, hi[y]/D] (``lo is hi`` when it is exact).

* sampling_histogram, replacement false (Algorithm 2): T of the n records drawn uniformly without
  replacement, output the histogram s of their types: Pr[s | h] = prod_t C(h_t, s_t) / C(n, T).
* sampling_histogram, replacement true (Theorem 5's counting algorithm, generalised to m types):
  T independent uniform draws, Pr[s | h] = T!/prod s_t! prod_t h_t^s_t / n^T.
* python: fn(hist) returns {output: probability}; int / Fraction values are exact; mpmath values
  are measured (the callable is run at 50 and at 100 digits; the two must agree, and their
  difference widens the interval).
"""

from __future__ import annotations

import math
import time
from fractions import Fraction
from functools import lru_cache

import mpmath

from ..errors import ConfigError, UserCodeError
from ..model import usercode
from ..kernel.smoothed import ARRAY_LIMIT, DIST_LIMIT
from ..kernel.smoothed import compositions  # noqa: F401 - re-exported

WORK_LIMIT = 4 * 10**8     # per-output terms in the delta(h) table before the computation refuses


class TooLarge(Exception):
    """The exact computation would take too long: the verdict is unknown."""


def count_compositions(total: int, parts: int) -> int:
    return math.comb(total + parts - 1, parts - 1)


def check_table(n_hist: int, m: int, n_out: int) -> None:
    """Raise TooLarge when the delta(h) table of n_hist histograms x m (m - 1) neighbours x n_out
    outputs is beyond the limits; from the counts alone, before anything is enumerated (listing the
    167 million histograms of n = 1000, m = 4 only to refuse them took 106 s)."""
    work = n_hist * m * (m - 1) * n_out
    if work > WORK_LIMIT or n_hist * n_out > DIST_LIMIT:
        raise TooLarge(f"{n_hist} histograms x {m * (m - 1)} neighbours x {n_out} outputs = {work:.3g} terms "
                       f"(limit {WORK_LIMIT:.1g}; the kernel's re-computation holds at most {DIST_LIMIT:.0e} "
                       "histograms x outputs)")


class SamplingHistogram:
    """Algorithm 2 (without replacement) or the counting mechanism with replacement."""

    def __init__(self, n: int, m: int, T: int, replacement: bool, cache_all: bool):
        self.n, self.m, self.T, self.replacement = n, m, T, replacement
        self.outputs = list(compositions(T, m))
        self.exact = True
        if replacement:
            self.D = n ** T
            fT = math.factorial(T)
            self._multi = [fT // math.prod(math.factorial(v) for v in s) for s in self.outputs]
        else:
            self.D = math.comb(n, T)
        self._row = lru_cache(maxsize=None if cache_all else 4 * m + 8)(self._row_uncached)
        self.dist = lru_cache(maxsize=None if cache_all else 4 * m * m + 8)(self._dist)
        # m = 2: between neighbours the likelihood ratio is monotone in the output (exact.hockey_monotone)
        self.monotone = m == 2
        self.prefix = lru_cache(maxsize=None if cache_all else 4 * m * m + 8)(self._prefix)

    def _prefix(self, h: tuple):
        """(prefix sums of the numerators, first and last output of the support)."""
        vals = self.dist(h)[0]
        cum, s = [0], 0
        for v in vals:
            s += v
            cum.append(s)
        nz = [k for k, v in enumerate(vals) if v]
        return cum, nz[0], nz[-1]

    def _row_uncached(self, a: int) -> list:
        T = self.T
        if self.replacement:
            out, v = [], 1
            for _ in range(T + 1):
                out.append(v)
                v *= a
            return out
        out, v = [1], 1
        for b in range(min(a, T)):
            v = v * (a - b) // (b + 1)
            out.append(v)
        return out + [0] * (T - min(a, T))

    def _dist(self, h: tuple):
        rows = [self._row(a) for a in h]
        if self.m == 2:
            r0, r1, T = rows[0], rows[1], self.T
            vals = [r0[s] * r1[T - s] for s in range(T, -1, -1)]   # outputs (T, 0), (T-1, 1), ...
        else:
            vals = [math.prod(r[v] for r, v in zip(rows, s)) for s in self.outputs]
        if self.replacement:
            vals = [a * b for a, b in zip(vals, self._multi)]
        return vals, vals, self.D


class PythonMechanism:
    """A user callable fn(hist) -> {output: probability}, evaluated on every histogram."""

    def __init__(self, spec, fn):
        self.n, self.m, self.spec, self.fn = spec.n, spec.m, spec, fn
        self.exact = True
        index, raw = {}, {}
        start, total = time.monotonic(), count_compositions(spec.n, spec.m)
        for h in compositions(spec.n, spec.m):
            # the kernel evaluates the callable again on every histogram: half the callables' wall
            # clock for this pass, so that both end within it (usercode.SECONDS)
            if usercode.DEADLINE[0] is not None and time.monotonic() - start > usercode.SECONDS / 2:
                raise TooLarge(f"the callable was stopped after {len(raw)} of {total} histograms: half the user "
                               f"callables' wall-clock budget of {usercode.SECONDS} s is spent (the kernel "
                               f"evaluates it again; {usercode.TIME_NOTE})")
            raw[h] = self._measured(h)
            for y in raw[h]:
                index.setdefault(y, len(index))
        self.outputs = list(index)
        self._dists = {}
        for h, probs in raw.items():
            den = 1
            for lo, hi in probs.values():
                den = math.lcm(den, lo.denominator, hi.denominator)
            lo_l, hi_l = [0] * len(index), [0] * len(index)
            for y, (lo, hi) in probs.items():
                lo_l[index[y]] = int(lo * den)
                hi_l[index[y]] = int(hi * den)
            self._dists[h] = (lo_l, lo_l if lo_l == hi_l else hi_l, den)

    def dist(self, h):
        return self._dists[h]

    def _call(self, h, dps):
        try:
            with mpmath.workdps(dps):
                out = self.fn(h)
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # noqa: BLE001 - a callable that raises is a finding
            raise UserCodeError("M", self.spec.callable, h, exc) from None
        if not isinstance(out, dict) or not out:
            self._bad(h, f"returned {type(out).__name__}, expected a non-empty dict output -> probability")
        return out

    def _bad(self, h, problem):
        raise ConfigError(self.spec.path, "mechanism.callable", f"{self.spec.callable} at hist {h}: {problem}")

    def _measured(self, h) -> dict:
        """{output: (lo, hi)} Fractions: exact values, or mpmath values measured at two precisions."""
        a, b = self._call(h, 50), self._call(h, 100)
        if set(a) != set(b):
            self._bad(h, "returned different outputs at 50 and 100 digits")
        probs, exact = {}, True
        for y in a:
            u, v = a[y], b[y]
            if isinstance(u, bool) or isinstance(v, bool):
                self._bad(h, f"probability of {y!r} is a boolean")
            if isinstance(u, (int, Fraction)) and isinstance(v, (int, Fraction)):
                if u != v:
                    self._bad(h, f"probability of {y!r} differs between two calls")
                lo = hi = Fraction(u)
            elif isinstance(u, mpmath.mpf) and isinstance(v, mpmath.mpf):
                if not (mpmath.isfinite(u) and mpmath.isfinite(v)):
                    self._bad(h, f"probability of {y!r} is not finite")
                if u == v and v._mpf_[3] > 24:     # as the kernel rules (kernel.smoothed)
                    self._bad(h, f"probability of {y!r} is the same {v._mpf_[3]}-bit number at 50 and 100 "
                                 "digits: an mpmath number made from a float (compute in mpmath, or give a Fraction)")
                with mpmath.workdps(110):
                    err = abs(u - v)
                    if err > mpmath.mpf(10) ** -40 * max(abs(v), mpmath.mpf(10) ** -200):
                        self._bad(h, f"probability of {y!r} is not stable across precisions "
                                     f"({mpmath.nstr(u, 8)} at 50 digits, {mpmath.nstr(v, 8)} at 100)")
                    rad = err + abs(v) * mpmath.mpf(2) ** -320
                    lo, hi = _fraction(v - rad, "f"), _fraction(v + rad, "c")
                exact = False
            else:
                self._bad(h, f"probability of {y!r} is a {type(u).__name__}: give exact Fractions (or ints) or "
                             "mpmath numbers (a float is not exact)")
            if hi < 0:
                self._bad(h, f"probability of {y!r} is negative ({float(hi):.6g})")
            probs[y] = (max(lo, Fraction(0)), hi)
        lo_sum, hi_sum = sum(p[0] for p in probs.values()), sum(p[1] for p in probs.values())
        if exact and lo_sum != 1:
            self._bad(h, f"probabilities sum to {lo_sum}, not 1")
        if not exact and not lo_sum <= 1 <= hi_sum:
            self._bad(h, f"probabilities sum to {float(hi_sum):.17g}, not 1")
        if not exact:
            self.exact = False
        return probs


def _fraction(v, rnd) -> Fraction:
    """The exact binary value of v rounded to 340 bits in direction rnd ('f' down, 'c' up)."""
    x = mpmath.mpf(mpmath.libmp.mpf_pos(v._mpf_, 340, rnd))
    sign, man, exp, _ = x._mpf_
    q = Fraction(int(man)) * (Fraction(2) ** exp)
    return -q if sign else q


def mechanism_for(spec):
    """The distribution source of a SmoothedSpec (raises TooLarge, from the counts alone, where the
    computation would be beyond its limits)."""
    n_hist = count_compositions(spec.n, spec.m)
    if spec.notion == "smoothed_dp" and (spec.n + 1) ** spec.m > ARRAY_LIMIT:
        raise TooLarge(f"Algorithm 1 keeps {spec.n + 1} arrays of {(spec.n + 1) ** (spec.m - 1)} histograms = "
                       f"{(spec.n + 1) ** spec.m:.3g} entries (limit {ARRAY_LIMIT:.1g})")
    if spec.kind == "sampling_histogram":
        outs = count_compositions(spec.T, spec.m)
        check_table(n_hist, spec.m, outs)
        return SamplingHistogram(spec.n, spec.m, spec.T, spec.replacement,
                                 cache_all=spec.m > 2 and n_hist * outs <= 5 * 10**6)
    from ..errors import FieldError
    from .spec import load_mechanism_callable
    try:
        fn = load_mechanism_callable(spec.callable, spec.base)[0]
    except FieldError as err:
        raise ConfigError(spec.path, "mechanism.callable", err.problem) from None
    check_table(n_hist, spec.m, 1)           # at least one output each, before the callable runs
    return PythonMechanism(spec, fn)
