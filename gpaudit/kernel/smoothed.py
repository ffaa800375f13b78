"""Smoothed DP and DP of anonymous mechanisms: the kernel re-derives the claimed delta itself.

From the mechanism (the configuration) and the generator's certificate (the points of Pi kept as
the hull's vertices; exact convex weights over them for every point dropped):
  delta(h)  per histogram, max over neighbours and both directions of sum_y max(0, p_y - c q_y), c <=
            e^eps: an exact rational upper bound; dp: max_h delta(h) <= claim, compared exactly.
  smoothed  the weights checked exactly (then the maximum over Pi^n is on the kept points,
            Proposition 7); E_kappa = E[delta(X_1 + ... + X_l)], X_j ~ Mult(kappa_j, v_j), for every
            count vector, exactly (flint fmpq) when small, else in binary64 with an a-priori bound
            E <= E~ (1 + 2Ku) + slack (docs/smoothed-dp.md derives it); max <= claim, exactly.
A python callable is re-evaluated here: int / Fraction values as they are, mpmath values measured
at 50 and 100 digits (agreeing to 1e-40 relative; the difference widens them into an interval).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from fractions import Fraction

import mpmath
import numpy as np
import sympy as sp
from flint import arb, fmpq

from . import numbers
from .certificate import _TOKEN, Outcome, Rejected, Verified

DIST_LIMIT = 3 * 10**6      # histograms x outputs of the exact table (memory and time)
WORK_LIMIT = 2 * 10**9      # count vectors x array entries of the binary64 stage
ARRAY_LIMIT = 2 * 10**8     # entries of its n + 1 arrays Y (memory: n = 10^5, m = 2 needed 80 GB)
SCALE, FLOOR_DELTA, FLOOR_F = 500, 2.0**-100, 2.0**-800   # binary64: max delta(h) scaled to 2^500; floors
EXACT_LIMIT = 10**5         # ... below which it runs in exact rationals (flint fmpq) instead


@dataclass(frozen=True)
class Problem:
    notion: str              # smoothed_dp | dp
    kind: str                # sampling_histogram | python
    n: int
    m: int
    T: int | None
    replacement: bool
    fn: object               # python: hist -> {output: probability}
    dists: tuple             # Pi: tuples of exact sympy numbers
    epsilon: sp.Expr
    delta: sp.Expr


def compositions(total: int, parts: int):
    """Every tuple of `parts` non-negative integers summing to `total` (descending)."""
    if parts == 1:
        yield (total,)
        return
    for first in range(total, -1, -1):
        for rest in compositions(total - first, parts - 1):
            yield (first,) + rest


def _dist(P: Problem, h, outs) -> tuple[dict, dict, int]:
    """({y: numerator of an upper bound}, {y: ... lower bound}, denominator) of Pr[M(h) = y]."""
    if P.kind == "sampling_histogram":    # T draws: T!/prod s! prod h^s / n^T; a T-subset: prod C(h, s) / C(n, T)
        r, rows = P.replacement, [_row(a, P.T, P.replacement) for a in h]
        p = {s: (_multinomial(s) if r else 1) * math.prod(row[b] for row, b in zip(rows, s)) for s in outs}
        return p, p, P.n ** P.T if r else math.comb(P.n, P.T)
    a, b = _call(P, h, 50), _call(P, h, 100)
    hi, lo = {}, {}
    for y, u in b.items():
        exact = type(u) in (int, Fraction) and a.get(y) == u
        if not exact and not (isinstance(u, mpmath.mpf) and isinstance(a.get(y), mpmath.mpf) and mpmath.isfinite(u)):
            return _not_exact(h)
        if not exact and a[y] == u and u._mpf_[3] > 24:   # the same at 50 and 100 digits, yet a long
            return _not_exact(h)                            # mantissa: a float computation (usercode)
        v = Fraction(u) if exact else Fraction(str(numbers.exact(u)))
        err = 0 if exact else abs(Fraction(str(numbers.exact(a[y]))) - v) + abs(v) / 2**300
        if err > Fraction(1, 10**40) * max(abs(v), Fraction(1, 10**200)):
            return _not_exact(h)
        hi[y], lo[y] = v + err, max(v - err, Fraction(0))
    if set(a) != set(b) or not sum(lo.values()) <= 1 <= sum(hi.values()) or min(hi.values()) < 0:
        return _not_exact(h)
    den = math.lcm(*(x.denominator for x in (*hi.values(), *lo.values())))
    return {y: int(x * den) for y, x in hi.items()}, {y: int(x * den) for y, x in lo.items()}, den


@functools.lru_cache(maxsize=2**12)
def _row(a: int, T: int, replacement: bool) -> list:
    """[a^b or C(a, b) for b = 0..T], one multiplication (and division) per entry."""
    out = [1]
    for b in range(1, T + 1):
        out.append(out[-1] * a if replacement else out[-1] * (a - b + 1) // b)
    return out


@functools.lru_cache(maxsize=2**16)
def _multinomial(s: tuple) -> int:
    return math.factorial(sum(s)) // math.prod(map(math.factorial, s))


def _call(P: Problem, h, dps):   # the user's callable
    try:
        with mpmath.workdps(dps):
            got = P.fn(h)
    except Exception as exc:  # noqa: BLE001
        raise Rejected([Outcome("mechanism", False, f"the callable raised {type(exc).__name__} at {h}")]) from None
    return got if isinstance(got, dict) and got else _not_exact(h)


def _not_exact(h):
    raise Rejected([Outcome("mechanism", False, f"the callable's probabilities at {h} are not exact (int / Fraction) "
                            "or stable mpmath numbers summing to 1")])


def _hockey(p, _p_lo, dp, _q_hi, q, dq, c: Fraction) -> Fraction:
    """>= sum_y max(0, p_y - c q_y), with p from above and q from below (two _dist results):
    sum_y max(0, v_y a - w_y b) / (dp dq c_den / g), a = dq c_den / g, b = dp c_num / g, g = gcd(dp, dq)."""
    g = math.gcd(dp, dq)
    a, b = dq // g * c.denominator, dp // g * c.numerator
    return Fraction(sum(max(0, v * a - q.get(y, 0) * b) for y, v in p.items()), dp // g * dq * c.denominator)


def _below(x) -> Fraction:
    """An exact rational <= x (x itself when rational): the lower end of a 300-bit arb ball."""
    if numbers.exact(x).is_Rational:
        return Fraction(str(numbers.exact(x)))
    man, exp = numbers.enclose(x, 300, arb.lower).man_exp()
    return Fraction(int(man)) * Fraction(2) ** int(exp)


def delta_upper(P: Problem) -> dict:
    """{h: an exact rational >= delta(h)} for every histogram h (Definition 2, both directions)."""
    c = _below(sp.exp(P.epsilon))
    H, O = math.comb(P.n + P.m - 1, P.m - 1), math.comb(P.T + P.m - 1, P.m - 1) if P.kind == "sampling_histogram" else 1
    if H * O > DIST_LIMIT:                  # counted before anything is listed (or a callable run)
        raise ValueError(f"{H} histograms x {O} outputs exceed the kernel's limit {DIST_LIMIT:.0e}")
    outs = list(compositions(P.T, P.m)) if P.kind == "sampling_histogram" else None
    hists = list(compositions(P.n, P.m))
    dists = {h: _dist(P, h, outs) for h in hists}
    out = dict.fromkeys(hists, Fraction(0))
    for h in hists:
        for i in range(P.m):
            for j in range(i + 1, P.m):
                if h[i]:
                    h2 = tuple(v - (t == i) + (t == j) for t, v in enumerate(h))
                    d = max(_hockey(*dists[h], *dists[h2], c), _hockey(*dists[h2], *dists[h], c))
                    out[h], out[h2] = max(out[h], d), max(out[h2], d)
    return out


def ieee_ok() -> bool:
    """binary64, round to nearest, gradual underflow (no flush to zero), in numpy's einsum too."""
    one, tiny = np.float64(1), np.float64(2.0**-1000)
    return (one + 2.0**-53 == one and one + 2.0**-52 > one and tiny * 2.0**-60 == 2.0**-1060
            and float(np.einsum("i,i->", np.array([tiny, 0.0]), np.array([2.0**-60, 1.0]))) == 2.0**-1060)


def _step(A, v, back: bool):
    """One more record of distribution v: backward, Y'(h) = sum_t v_t Y(h + e_t) (same shape);
    forward, the PMF of one more record (one longer per axis: d records have h_1..h_(m-1) <= d)."""
    k = A.ndim
    if back:
        out = A * v[-1]
        for t in range(len(v) - 1):
            out[tuple(slice(0, -1) if i == t else slice(None) for i in range(k))] += \
                v[t] * A[tuple(slice(1, None) if i == t else slice(None) for i in range(k))]
        return out
    out = np.zeros(tuple(x + 1 for x in A.shape), dtype=A.dtype)
    out[(slice(0, -1),) * k] = A * v[-1]
    for t in range(len(v) - 1):
        out[tuple(slice(1, None) if i == t else slice(0, -1) for i in range(k))] += v[t] * A
    if out.dtype != object:     # no slow subnormal numbers: raising a value keeps the bound
        np.maximum(out, FLOOR_F, out=out, where=out > 0)
    return out


def expectations(delta, verts, scale: int, n: int, m: int) -> tuple[dict, Fraction, Fraction]:
    """({kappa: E~}, rel, slack): E_kappa <= E~ rel + slack when every entry of delta 2^-scale (indexed
    by h_1..h_(m-1)) and of verts is >= its exact value; on fmpq arrays exact: (1, 0)."""
    l, L = len(verts), (n + 1) ** (m - 1)
    count = math.comb(n + l - 1, l - 1)
    if count * L > WORK_LIMIT or (n + 1) * L > ARRAY_LIMIT:
        raise ValueError(f"{count} count vectors x {L} histograms, or {n + 1} arrays of {L}: beyond the kernel's limits")
    Y = [delta]
    for _ in range(n):
        Y.append(_step(Y[-1], verts[-1], True))
    E, level = {}, {(0,) * (l - 1): np.ones((1,) * (m - 1), dtype=delta.dtype)}
    for d in range(n + 1):
        for comp, F in level.items():
            y = Y[n - d][(slice(0, d + 1),) * (m - 1)].ravel()
            e = np.dot(F.ravel(), y) if F.dtype == object else np.einsum("i,i->", F.ravel(), y)
            E[comp + (n - d,)] = (Fraction(int(e.p), int(e.q)) if isinstance(e, fmpq) else Fraction(e)) / 2**scale
        if d < n and l > 1:
            nxt = {}
            for comp in compositions(d + 1, l - 1):
                j = next(t for t, v in enumerate(comp) if v)
                nxt[comp] = _step(level[comp[:j] + (comp[j] - 1,) + comp[j + 1:]], verts[j], False)
            level = nxt
        elif l == 1:
            break
    if delta.dtype == object:
        return E, Fraction(1), Fraction(0)
    K = m * n + L + 1
    return E, 1 + Fraction(2 * K, 2**53), Fraction((n + 2 * count) * m * L, 2**(1073 + scale))


def float_up(q) -> float:
    """The least binary64 >= the exact value of q (a Fraction or a sympy number)."""
    q = Fraction(q) if isinstance(q, (int, Fraction)) else Fraction(str(sp.Rational(numbers.exact(numbers.up(q, 128)))))
    f = float(q)
    return f if Fraction(f) >= q else math.nextafter(f, math.inf)


def arrays(values: dict, verts, n: int, m: int):
    """(delta(h) 2^scale indexed by h_1..h_(m-1), the vertices, scale): fmpq (exact, scale 0) when the
    problem is small and every vertex rational, else the least binary64 >= each value, the largest
    delta(h) scaled to about 2^500 (exactly: a power of two) and every one raised to >= 2^-100."""
    small = (n + math.comb(n + len(verts) - 1, len(verts) - 1)) * (n + 1) ** (m - 1) <= EXACT_LIMIT
    exact = small and all(sp.sympify(x).is_Rational for v in verts for x in v)
    conv = (lambda q: fmpq(*map(int, sp.fraction(sp.sympify(q))))) if exact else float_up
    grid = np.zeros((n + 1,) * (m - 1), dtype=object if exact else float)
    top = Fraction(max(values.values()))
    scale = 0 if exact or not top else SCALE - (top.numerator.bit_length() - top.denominator.bit_length())
    for h, d in values.items():
        grid[h[:-1]] = conv(d) if exact else max(conv(d * Fraction(2) ** scale), FLOOR_DELTA)
    return grid, [np.array([conv(x) for x in v], dtype=grid.dtype) for v in verts], scale


def _hull_ok(P: Problem, kept, weights) -> bool:
    for i, p in enumerate(P.dists):
        if i in kept:
            continue
        w = [Fraction(x) for x in weights.get(i, ())]
        if len(w) != len(kept) or min(w) < 0 or sum(w) != 1 or any(
                sp.expand(sum(sp.Rational(x.numerator, x.denominator) * P.dists[k][t] for x, k in zip(w, kept)) - p[t])
                != 0 for t in range(P.m)):
            return False
    return True


def bound(P: Problem, kept=(), weights=None) -> Fraction:
    """An exact rational >= the DP delta (notion dp) or the smoothed delta over the kept points
    (raises Rejected when the kept points do not span Pi, ValueError beyond the work limit)."""
    table = delta_upper(P)
    if P.notion == "dp":
        return max(table.values())
    kept = list(kept)
    if not kept or not _hull_ok(P, kept, weights or {}):
        raise Rejected([Outcome("hull", False, "a point of Pi is not shown to lie in the hull of the kept points")])
    if not ieee_ok():
        raise Rejected([Outcome("binary64", False, "numpy's floating point is not IEEE round-to-nearest")])
    E, rel, absolute = expectations(*arrays(table, [P.dists[k] for k in kept], P.n, P.m), P.n, P.m)
    return Fraction(max(E.values())) * rel + absolute


def check(P: Problem, kept=(), weights=None) -> Verified:
    """Verified when the re-computed delta bound is <= the claim; Rejected otherwise."""
    try:
        upper = bound(P, kept, weights)
    except ValueError as err:
        raise Rejected([Outcome("computation", False, str(err))]) from None
    ok = numbers.le(sp.Rational(upper.numerator, upper.denominator), P.delta) is True
    outcome = Outcome(f"{P.notion}.delta", ok, f"delta <= {numbers.decimal_up(upper, 12)} vs claim {P.delta}")
    if not ok:
        raise Rejected([outcome])
    return Verified(numbers.exact(P.epsilon), P.notion, (outcome,), _TOKEN)
