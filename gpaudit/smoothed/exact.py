"""delta_{eps,M}(x) (Definition 2), the DP delta, and the smoothed delta (Definition 3) by
Algorithm 1 / Proposition 7, with rigorous bounds.

1. Per pair of neighbouring histograms h ~ h' (one record's type replaced) and each direction,
   d(h, h') = max_S Pr[M(h) in S] - e^eps Pr[M(h') in S] = sum_y max(0, p_y - e^eps q_y), summed
   per output in the cancellation-free form (every term is >= 0).  With e^eps enclosed in
   [c_lo, c_hi] (exact rationals; c_lo = c_hi when e^eps is rational), sum_y max(0, p_y - c_hi q_y)
   <= d <= sum_y max(0, p_y - c_lo q_y): exact rational bounds (integers over one denominator for
   the sampling-histogram mechanism).  delta(h) = max(0, d(h, h'), d(h', h) over all h').
2. DP: max_h delta(h) (Theorem 1).
3. Smoothed: E_{x ~ pi}[delta(x)] is affine in each pi_i, so its maximum over Pi^n is attained with
   every pi_i a vertex of the hull of Pi (Proposition 7); the mechanism is anonymous, so only the
   number kappa_j of records drawn from each vertex j matters, and the histogram is the sum of
   independent Multinomial(kappa_j, v_j).  Every E_kappa is computed by gpaudit.kernel.smoothed's
   `expectations` (one record at a time, forward for the first l - 1 vertices, backward against
   delta for the last, one dot product per count vector): in exact rationals when small, else in
   binary64 with an a-priori error bound (an upper bound on every E_kappa); the largest count vector
   is then recomputed rigorously in arb balls (the witness, a lower bound).  The kernel re-derives
   the upper bound itself, from the mechanism, before anything is certified.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from fractions import Fraction

import sympy as sp
from flint import arb, arb_poly, ctx, fmpq

from ..kernel import smoothed as ks
from ..kernel.numbers import enclose
from .mechs import TooLarge, check_table, compositions, count_compositions

PREC = 192                 # bits of the arb stage
def exp_bounds(eps) -> tuple[Fraction, Fraction]:
    """Rationals c_lo <= e^eps <= c_hi (equal when e^eps is rational)."""
    c = sp.exp(eps)
    if c.is_Rational:
        return Fraction(int(c.p), int(c.q)), Fraction(int(c.p), int(c.q))
    return ball_bounds(enclose(c, 320))


def arb_fraction(x: arb) -> Fraction:
    """The exact value of an exact arb (a ball's midpoint or radius) as a Fraction."""
    man, exp = x.man_exp()
    man, exp = int(man), int(exp)
    return Fraction(man * 2**exp) if exp >= 0 else Fraction(man, 2**(-exp))


def ball_bounds(x: arb) -> tuple[Fraction, Fraction]:
    """The end points of a ball, exactly: mid -+ rad (both exact binary numbers; nothing rounded)."""
    if not x.is_finite():
        raise ValueError("not a finite ball")
    mid, rad = arb_fraction(x.mid()), arb_fraction(x.rad())
    return mid - rad, mid + rad


def hockey_bounds(P, Q, c_lo: Fraction, c_hi: Fraction) -> tuple[Fraction, Fraction]:
    """Bounds on sum_y max(0, p_y - c q_y), c in [c_lo, c_hi], for distributions (lo, hi, D):
    sum_y max(0, plo_y - c_hi qhi_y) <= it <= sum_y max(0, phi_y - c_lo qlo_y)."""
    plo, phi, dp = P
    qlo, qhi, dq = Q
    kp1, kq1 = dq * c_hi.denominator, dp * c_hi.numerator      # the lower bound, with c_hi
    if plo is phi and qlo is qhi and c_lo == c_hi:   # exact: one sum
        s = 0
        for p, q in zip(plo, qlo):
            if p:
                x = p * kp1 - q * kq1
                if x > 0:
                    s += x
        lo = Fraction(s, dp * dq * c_hi.denominator)
        return lo, lo
    kp2, kq2 = dq * c_lo.denominator, dp * c_lo.numerator      # the upper bound, with c_lo
    s1 = s2 = 0
    for p1, p2, q1, q2 in zip(plo, phi, qhi, qlo):
        if p2:
            x = p2 * kp2 - q2 * kq2
            if x > 0:
                s2 += x
                x = p1 * kp1 - q1 * kq1
                if x > 0:
                    s1 += x
    return Fraction(s1, dp * dq * c_hi.denominator), Fraction(s2, dp * dq * c_lo.denominator)


def hockey_monotone(P, Q, pre_p, pre_q, c_lo: Fraction, c_hi: Fraction) -> tuple[Fraction, Fraction]:
    """hockey_bounds for exact distributions whose likelihood ratio q_y/p_y is monotone along the
    support of P (the SHM with m = 2 between neighbours: moving one record from type i to type j
    scales Pr[s] by ((h_i - s)/h_i) ((h_j + 1)/(h_j + 1 - T + s)) without replacement, by
    ((h_i - 1)/h_i)^s ((h_j + 1)/h_j)^(T - s) with it, both monotone in s).  Then {y: p_y > c q_y} is
    an end of the support of P, found by bisection, and its sums are differences of prefix sums:
    O(log T) instead of O(T)."""
    p, _, dp = P
    q, _, dq = Q
    cum_p, a, b = pre_p
    cum_q = pre_q[0]

    def bound(c):
        kp, kq = dq * c.denominator, dp * c.numerator

        def pos(k):
            return p[k] * kp - q[k] * kq > 0
        left, right = pos(a), pos(b)
        if left and right:
            lo_k, hi_k = a, b
        elif not left and not right:
            return Fraction(0)
        elif right:                      # positive on a top segment [k, b]: the first positive k
            i, j = a, b                  # pos(i) false, pos(j) true
            while j - i > 1:
                mid = (i + j) // 2
                i, j = (i, mid) if pos(mid) else (mid, j)
            lo_k, hi_k = j, b
        else:                            # positive on a bottom segment [a, k]: the last positive k
            i, j = a, b                  # pos(i) true, pos(j) false
            while j - i > 1:
                mid = (i + j) // 2
                i, j = (mid, j) if pos(mid) else (i, mid)
            lo_k, hi_k = a, i
        sp_ = cum_p[hi_k + 1] - cum_p[lo_k]
        sq_ = cum_q[hi_k + 1] - cum_q[lo_k]
        return Fraction(sp_ * kp - sq_ * kq, dp * dq * c.denominator)

    lo = bound(c_hi)
    return lo, (lo if c_lo == c_hi else bound(c_lo))


@dataclass
class DeltaTable:
    """delta(h) bounds for every histogram, and for each the neighbour and direction attaining it."""
    lo: dict
    hi: dict
    arg: dict = field(default_factory=dict)   # h -> (h', "to" | "from") of the largest lower bound


def delta_table(mech, n: int, m: int, eps, monotone: bool = True) -> DeltaTable:
    c_lo, c_hi = exp_bounds(eps)
    check_table(count_compositions(n, m), m, len(mech.outputs))
    hists = list(compositions(n, m))
    lo = {h: Fraction(0) for h in hists}
    hi = dict(lo)
    fast = getattr(mech, "monotone", False) and monotone
    arg = {}

    def update(h, v_lo, v_hi, other, way):
        if v_lo > lo[h] or (h not in arg and v_lo == lo[h] and v_lo > 0):
            lo[h] = v_lo
            arg[h] = (other, way)
        if v_hi > hi[h]:
            hi[h] = v_hi

    for h in hists:
        P = mech.dist(h)
        for i in range(m):
            if h[i] == 0:
                continue
            for j in range(i + 1, m):
                h2 = tuple(v - (t == i) + (t == j) for t, v in enumerate(h))
                Q = mech.dist(h2)
                if fast:
                    pre_p, pre_q = mech.prefix(h), mech.prefix(h2)
                    a_lo, a_hi = hockey_monotone(P, Q, pre_p, pre_q, c_lo, c_hi)   # d(h, h2)
                    b_lo, b_hi = hockey_monotone(Q, P, pre_q, pre_p, c_lo, c_hi)   # d(h2, h)
                else:
                    a_lo, a_hi = hockey_bounds(P, Q, c_lo, c_hi)   # d(h, h2)
                    b_lo, b_hi = hockey_bounds(Q, P, c_lo, c_hi)   # d(h2, h)
                update(h, a_lo, a_hi, h2, "to")
                update(h, b_lo, b_hi, h2, "from")
                update(h2, a_lo, a_hi, h, "from")
                update(h2, b_lo, b_hi, h, "to")
    return DeltaTable(lo, hi, arg)


# ------------------------------------------------------------------------------------------------
# Pi: the vertices of its convex hull

def hull_vertices(dists) -> list[int]:
    """Indices (into dists) of a set of points of Pi that contains every vertex of its convex hull:
    the exact vertices for m = 2 and for rational points with m = 3; every distinct point
    otherwise (a superset of the vertices inside Pi gives the same maximum)."""
    distinct = []
    for i, v in enumerate(dists):
        if all(any(sp.simplify(a - b) != 0 for a, b in zip(v, dists[k])) for k in distinct):
            distinct.append(i)
    m = len(dists[0])
    if len(distinct) <= 2:
        return distinct
    if m == 2:
        key = sorted(distinct, key=lambda k: float(sp.N(dists[k][0], 50)))
        return [key[0], key[-1]]
    if m == 3 and all(x.is_Rational for k in distinct for x in dists[k]):
        pts = sorted(distinct, key=lambda k: (dists[k][0], dists[k][1]))

        def cross(o, a, b):
            (ox, oy), (ax, ay), (bx, by) = (dists[o][:2], dists[a][:2], dists[b][:2])
            return (ax - ox) * (by - oy) - (ay - oy) * (bx - ox)

        def half(seq):
            out = []
            for k in seq:
                while len(out) >= 2 and cross(out[-2], out[-1], k) <= 0:
                    out.pop()
                out.append(k)
            return out
        lower, upper = half(pts), half(reversed(pts))
        hull = lower[:-1] + upper[:-1]
        return sorted(hull) if len(hull) >= 2 else [pts[0], pts[-1]]
    return distinct


# ------------------------------------------------------------------------------------------------
# Algorithm 1: screening every count vector, the witness recomputed in arb balls

def hull_weights(dists, kept) -> dict | None:
    """{i: convex weights over the kept points} for every point i of Pi not kept, found exactly
    (Caratheodory: at most m of the kept points, by an exact linear solve), or None."""
    out = {}
    for i, p in enumerate(dists):
        if i in kept:
            continue
        for r in range(1, min(len(kept), len(p)) + 1):
            w = _convex(dists, kept, p, r)
            if w is not None:
                out[i] = w
                break
        else:
            return None
    return out


def _convex(dists, kept, p, r):
    for sub in itertools.combinations(range(len(kept)), r):
        ws = sp.symbols(f"w0:{r}")
        eqs = [sum(w * dists[kept[k]][t] for w, k in zip(ws, sub)) - p[t] for t in range(len(p))] + [sum(ws) - 1]
        sol = sp.solve(eqs, ws, dict=True)
        if len(sol) == 1 and all(sol[0].get(w) is not None and sol[0][w].is_Rational and sol[0][w] >= 0 for w in ws):
            full = [Fraction(0)] * len(kept)
            for w, k in zip(ws, sub):
                full[k] = Fraction(int(sol[0][w].p), int(sol[0][w].q))
            return full
    return None


def check_size(n: int, m: int, l: int) -> None:
    """Raise TooLarge when Algorithm 1 over l vertices would exceed the binary64 stage's limit."""
    work = count_compositions(n, l) * (n + 1) ** (m - 1)
    if work > ks.WORK_LIMIT:
        raise TooLarge(f"Algorithm 1 over {count_compositions(n, l)} count vectors ({l} vertices of Pi) x "
                       f"{(n + 1) ** (m - 1)} histograms = {work:.3g} (limit {ks.WORK_LIMIT:.1g})")


def kappa_expectation(table: DeltaTable, n: int, m: int, vertices, kappa) -> arb:
    """An arb ball around E_kappa[delta(x)] for one count vector: the PMF of the histogram as a
    polynomial (types as exponents, base n + 1) times the delta(h) balls."""
    old = ctx.prec
    ctx.prec = PREC
    try:
        shifts = [(n + 1) ** t for t in range(m - 1)] + [0]
        pmf = arb_poly([1])
        for v, k in zip(vertices, kappa):
            g = [arb(0)] * (max(shifts) + 1)
            for x, sh in zip(v, shifts):
                g[sh] += _arb_of(sp.sympify(x))
            pmf *= arb_poly(g) ** k
        c = pmf.coeffs()
        total = arb(0)
        for h in table.lo:
            e = sum(a * sh for a, sh in zip(h, shifts))
            if e < len(c) and table.hi[h]:
                total += c[e] * _ball(table.lo[h], table.hi[h])
        return total
    finally:
        ctx.prec = old


def _ball(lo: Fraction, hi: Fraction) -> arb:
    if lo == hi:
        return arb(fmpq(lo.numerator, lo.denominator))
    return arb(fmpq(lo.numerator, lo.denominator)).union(arb(fmpq(hi.numerator, hi.denominator)))


def _arb_of(x) -> arb:
    """An arb ball around an exact sympy number (rationals converted directly, at ctx.prec)."""
    if x.is_Rational:
        return arb(fmpq(int(x.p), int(x.q)))
    return enclose(x, ctx.prec + 64)


# ------------------------------------------------------------------------------------------------

@dataclass
class Outcome:
    notion: str
    lower: Fraction                  # delta_lower (exact)
    upper: Fraction                  # delta_upper (exact)
    witness: dict                    # what attains lower
    stats: dict
    certificate: dict = field(default_factory=dict)   # what the kernel re-checks (kernel.smoothed)


def smoothed_delta(mech, n, m, eps, dists) -> Outcome:
    idx = hull_vertices(dists)
    weights = hull_weights(dists, idx)
    if weights is None:      # the hull's vertices not shown exactly: every distinct point is kept
        idx = [i for i in range(len(dists))]
        weights = {}
    verts = [dists[i] for i in idx]
    check_size(n, m, len(verts))
    table = delta_table(mech, n, m, eps)
    E_hi, rel, slack = ks.expectations(*ks.arrays(table.hi, verts, n, m), n, m)
    exact_run = rel == 1 and slack == 0
    upper = max(E_hi.values()) * rel + slack
    if exact_run and any(table.lo[h] != table.hi[h] for h in table.lo):
        E_lo = ks.expectations(*ks.arrays(table.lo, verts, n, m), n, m)[0]
    else:
        E_lo = E_hi
    kappa = max(compositions(n, len(verts)), key=E_lo.get)   # the first of equal ones
    if exact_run:
        wlo, whi = E_lo[kappa], E_hi[kappa]
    else:        # the screening's best count vector, recomputed rigorously
        wlo, whi = ball_bounds(kappa_expectation(table, n, m, verts, kappa))
    lower = max(wlo, Fraction(0))
    witness = {"counts": list(kappa), "vertices": [[str(x) for x in v] for v in verts],
               "delta_lower": lower, "delta_upper": whi}
    stats = {"histograms": len(table.lo), "outputs": len(mech.outputs), "vertices": len(verts),
             "distributions": len(dists), "count_vectors": len(E_hi),
             "algorithm1": "exact rationals" if exact_run else
             "binary64 with an a-priori error bound (the witness in arb balls)"}
    cert = {"vertices": list(idx), "weights": {str(i): [str(x) for x in w] for i, w in weights.items()},
            "worst": list(kappa)}
    return Outcome("smoothed_dp", lower, upper, witness, stats, cert)


def dp_delta(mech, n, m, eps) -> Outcome:
    table = delta_table(mech, n, m, eps)
    h = max(table.lo, key=lambda k: table.lo[k])
    other, way = table.arg.get(h, (None, None))
    witness = {"counts": list(h), "delta_lower": table.lo[h], "delta_upper": table.hi[h]}
    if other is not None:
        witness["neighbour"] = list(other)
        witness["direction"] = ("d(x, x')" if way == "to" else "d(x', x)")
    stats = {"histograms": len(table.lo), "outputs": len(mech.outputs)}
    return Outcome("dp", table.lo[h], max(table.hi.values()), witness, stats)
