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
   independent Multinomial(kappa_j, v_j).  E_kappa = [z^N] prod_j G_j(z)^kappa_j Delta(z) with
   G_j the generating polynomial of one record from vertex j (histograms as exponents, base n + 1)
   and Delta(z) = sum_h delta(h) z^(N - e(h)); evaluated in arb ball arithmetic (python-flint), the
   histograms' delta(h) entering as balls around their rational bounds.  Nothing underflows: arb
   exponents are unbounded.
"""

from __future__ import annotations

import math
import operator
from dataclasses import dataclass, field
from fractions import Fraction

import sympy as sp
from flint import arb, arb_poly, ctx, fmpq, fmpq_poly

from ..kernel.numbers import enclose
from .mechs import compositions, count_compositions

PREC = 192                 # bits of the arb stage
WORK_LIMIT = 4 * 10**8     # per-output terms in the delta(h) table before the computation refuses


class TooLarge(Exception):
    """The exact computation would take too long: the verdict is unknown."""


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
    hists = list(compositions(n, m))
    work = len(hists) * m * (m - 1) * len(mech.outputs)
    if work > WORK_LIMIT:
        raise TooLarge(f"{len(hists)} histograms x {m * (m - 1)} neighbours x {len(mech.outputs)} outputs "
                       f"= {work:.3g} terms (limit {WORK_LIMIT:.1g})")
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
# Algorithm 1 in arb balls

def _ball(lo: Fraction, hi: Fraction) -> arb:
    if lo == hi:
        return arb(fmpq(lo.numerator, lo.denominator))
    return arb(fmpq(lo.numerator, lo.denominator)).union(arb(fmpq(hi.numerator, hi.denominator)))


def _arb_of(x) -> arb:
    """An arb ball around an exact sympy number (rationals converted directly, at ctx.prec)."""
    if x.is_Rational:
        return arb(fmpq(int(x.p), int(x.q)))
    return enclose(x, ctx.prec + 64)


DOT_LIMIT = 4 * 10**7       # multiply-adds of Algorithm 1's dot products (Python) before it refuses
HELD_LIMIT = 2 * 10**6      # arb coefficients held at once by the products over the first l - 1 vertices


def check_size(n: int, m: int, l: int, budget: float = 2e9) -> None:
    """Raise TooLarge when Algorithm 1 over l vertices would exceed its limits (checked before any work)."""
    stride = n + 1
    smax, N = stride ** (m - 2), n * stride ** (m - 2)
    n_kappa = count_compositions(n, l)
    if l == 1:
        terms, held = count_compositions(n, m), 1
    else:
        terms = sum(count_compositions(d, l - 1) * count_compositions(d, m) for d in range(n + 1))
        held = max(count_compositions(d, l - 1) * (d * smax + 1) for d in range(n + 1))
    if n_kappa * (N + 1) > budget or terms > DOT_LIMIT or held > HELD_LIMIT:
        raise TooLarge(f"Algorithm 1 over {n_kappa} count vectors ({l} vertices of Pi): {terms:.3g} dot-product terms "
                       f"(limit {DOT_LIMIT:.1g}), {held:.3g} coefficients held (limit {HELD_LIMIT:.1g})")


def expectations(table: DeltaTable, n: int, m: int, vertices, budget: float = 2e9) -> dict:
    """{kappa: arb ball of E_kappa[delta(x)]} for every count vector kappa over the vertices
    (vertices: probability vectors, exact sympy numbers)."""
    old = ctx.prec
    ctx.prec = PREC
    try:
        return _expectations(table, n, m, vertices, budget)
    finally:
        ctx.prec = old


def _expectations(table, n, m, vertices, budget):
    stride = n + 1
    shifts = [stride ** t for t in range(m - 1)] + [0]      # type t -> exponent; the last type at 0
    N = n * stride ** (m - 2)
    l = len(vertices)
    check_size(n, m, l, budget)
    smax = max(shifts)
    coeffs = [arb(0)] * (N + 1)
    for h in table.lo:
        e = sum(v * s for v, s in zip(h, shifts))
        coeffs[N - e] = _ball(table.lo[h], table.hi[h])
    delta_poly = arb_poly(coeffs)
    G = [[None if x == 0 else _arb_of(x) for x in v] for v in vertices]

    def times(P, j, length):
        out = None
        for t in range(m):
            if G[j][t] is None:
                continue
            term = (P.left_shift(shifts[t]) if shifts[t] else P) * G[j][t]
            out = term if out is None else out + term
        out = arb_poly([0]) if out is None else out
        return out.truncate(length) if length is not None else out

    # W_r = G_last^r Delta, needed at the exponents N - e(h) of histograms h of n - r records only:
    # kept as (polynomial, offset), coefficient k standing for z^(offset + k), offset = low(r).

    def low(r):
        return max(0, N - (n - r) * smax)

    def step(W, r):
        P, off = W
        new = low(r + 1)
        Q = times(P, last, None)
        if new > off:
            Q = Q.right_shift(new - off)
        return Q.truncate(N - new + 1), new

    last = l - 1
    B = max(1, math.isqrt(n + 1))
    checkpoints, W = {}, (delta_poly, 0)
    for r in range(n + 1):
        if r % B == 0:
            checkpoints[r] = W
        if r < n:
            W = step(W, r)
    block = {}

    def W_at(r):
        if r not in block:
            block.clear()
            start = r - r % B
            Wb = checkpoints[start]
            for k in range(start, min(start + B, n + 1)):
                block[k] = Wb
                if k < n and k + 1 < start + B:
                    Wb = step(Wb, k)
        return block[r]

    prepared = {}   # level d -> what every dot product with W_(n-d) shares (built once per level)

    def dot(Q, W, d):
        """[z^N] Q(z) W(z) = sum_i Q[i] W[N - i] over the exponents i of Q's histograms (d records;
        for m >= 3 the Kronecker gaps are skipped)."""
        if d not in prepared:
            prepared.clear()
            P, off = W
            K = N - off + 1
            wc = P.coeffs()[:K]
            wc += [arb(0)] * (K - len(wc))
            wc.reverse()                                   # wc[i] = W[N - i]
            if m == 2:
                prepared[d] = (None, wc, 0)
            else:
                idx = [sum(v * s for v, s in zip(h, shifts)) for h in compositions(d, m)] + [0]
                pick = operator.itemgetter(*idx)
                prepared[d] = (pick, pick(wc), max(idx))
        pick, wsel, top = prepared[d]
        qc = Q.coeffs()
        if pick is None:
            return sum(map(operator.mul, qc, wsel), arb(0))
        if len(qc) <= top:
            qc += [arb(0)] * (top + 1 - len(qc))
        return sum(map(operator.mul, pick(qc)[:-1], wsel[:-1]), arb(0))

    out = {}
    if l == 1:
        out[(n,)] = dot(arb_poly([1]), W_at(n), 0)
        return out
    anti = {tuple([0] * (l - 1)): arb_poly([1])}
    for d in range(n + 1):
        Wr = W_at(n - d)
        for comp, Q in anti.items():
            out[comp + (n - d,)] = dot(Q, Wr, d)
        if d == n:
            break
        nxt = {}
        for comp in compositions(d + 1, l - 1):
            j = next(t for t, v in enumerate(comp) if v > 0)
            parent = comp[:j] + (comp[j] - 1,) + comp[j + 1:]
            nxt[comp] = times(anti[parent], j, None)
        anti = nxt
    return out


# ------------------------------------------------------------------------------------------------

@dataclass
class Outcome:
    notion: str
    lower: Fraction                  # delta_lower (exact)
    upper: Fraction                  # delta_upper (exact)
    witness: dict                    # what attains lower
    stats: dict


EXACT_LIMIT = 3 * 10**5   # count vectors x histograms below which Algorithm 1 runs in exact rationals


def exact_expectations(table: DeltaTable, n: int, m: int, vertices) -> dict | None:
    """{kappa: E_kappa} in exact rationals (flint fmpq polynomials), when every delta(h) is exact,
    every vertex rational and the problem small; else None."""
    l = len(vertices)
    if count_compositions(n, l) * len(table.lo) > EXACT_LIMIT:
        return None
    if any(table.lo[h] != table.hi[h] for h in table.lo) or not all(x.is_Rational for v in vertices for x in v):
        return None
    stride = n + 1
    shifts = [stride ** t for t in range(m - 1)] + [0]
    G = []
    for v in vertices:
        coeffs = [fmpq(0)] * (max(shifts) + 1)
        for x, sh in zip(v, shifts):
            coeffs[sh] += fmpq(int(x.p), int(x.q))
        G.append(fmpq_poly(coeffs))
    delta = [(sum(v * sh for v, sh in zip(h, shifts)), table.lo[h]) for h in table.lo if table.lo[h]]
    out = {}
    for kappa in compositions(n, l):
        P = fmpq_poly([1])
        for g, k in zip(G, kappa):
            if k:
                P *= g ** k
        c = P.coeffs()
        total = Fraction(0)
        for e, d in delta:
            if e < len(c) and c[e] != 0:
                q = c[e]
                total += d * Fraction(int(q.p), int(q.q))
        out[kappa] = total
    return out


def smoothed_delta(mech, n, m, eps, dists) -> Outcome:
    idx = hull_vertices(dists)
    verts = [dists[i] for i in idx]
    check_size(n, m, len(verts))
    table = delta_table(mech, n, m, eps)
    exact_E = exact_expectations(table, n, m, verts)
    E = exact_E if exact_E is not None else expectations(table, n, m, verts)
    best_lo, best_hi, arg = None, None, None
    for kappa, ball in E.items():
        lo, hi = (ball, ball) if exact_E is not None else ball_bounds(ball)
        lo = max(lo, Fraction(0))
        if best_lo is None or lo > best_lo:
            best_lo, arg = lo, (kappa, lo, hi)
        if best_hi is None or hi > best_hi:
            best_hi = hi
    kappa, wlo, whi = arg
    witness = {"counts": list(kappa), "vertices": [[str(x) for x in v] for v in verts],
               "delta_lower": wlo, "delta_upper": whi}
    stats = {"histograms": len(table.lo), "outputs": len(mech.outputs), "vertices": len(verts),
             "distributions": len(dists), "count_vectors": len(E),
             "algorithm1": "exact rationals" if exact_E is not None else "arb balls"}
    return Outcome("smoothed_dp", best_lo, best_hi, witness, stats)


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
