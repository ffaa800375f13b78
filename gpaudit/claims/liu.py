"""Claims of Liu, Wang & Xia, "Smoothed Differential Privacy": exact privacy profiles of
the sampling mechanisms (exact rational binomial / hypergeometric probabilities, mpmath
for e^eps) compared with the paper's bounds."""
from __future__ import annotations

import math
from fractions import Fraction
from itertools import combinations

import mpmath as mp
import numpy as np

from .registry import Outcome, claim, dec, mpq, wit

P = "liu"


def hs_discrete(p, q, E):
    """max_S p(S) - E q(S) = sum_a max(0, p(a) - E q(a)) for finite distributions (dicts)."""
    keys = set(p) | set(q)
    return sum(max(0, p.get(a, 0) - E * q.get(a, 0)) for a in keys)


def adj_utility(dists, E):
    """Adjusted utility u(e^eps/(e^eps+1), x_-i) of Justification 3 for candidate outputs
    distributions dists[X] = Pr[M(x_-i u {X}) = .] (uniform prior)."""
    t = E / (E + 1)
    keys = set().union(*dists)
    best = 0
    for Xi in range(len(dists)):
        tot = 0
        for a in keys:
            ps = [d.get(a, 0) for d in dists]
            s = sum(ps)
            if s == 0:
                continue
            maxpost = max(ps) / s
            tot += dists[Xi].get(a, 0) * max(0, maxpost - t)
        best = max(best, tot / (1 - t))
    return best


@claim(P, "Eq. (2)", "(eps, delta)-DP implies Pr_{a~M(x)}[1/(2e^eps) <= Pr[M(x)=a]/Pr[M(x')=a] <= 2e^eps] >= 1 - 2 delta", sweep=False)
def eq2(quick):
    F = Fraction
    E, delta = F(2), F(1, 100)  # eps = ln 2
    Mx = {"A": F(196, 10000), "B": F(48, 10000), "C": F(9756, 10000)}
    Mxp = {"A": F(48, 10000), "B": F(196, 10000), "C": F(9756, 10000)}
    d1, d2 = hs_discrete(Mx, Mxp, E), hs_discrete(Mxp, Mx, E)
    dp = d1 <= delta and d2 <= delta
    good = sum(p for a, p in Mx.items() if Mxp[a] > 0 and F(1, 2 * E) <= p / Mxp[a] <= 2 * E)
    ok = not dp or good >= 1 - 2 * delta
    return Outcome("verified" if ok else "refuted",
                   "exact rationals: a 3-output mechanism on neighbours x, x' (e^eps = 2, delta = 1/100) satisfies both "
                   f"hockey-stick conditions (HS = {d1}, {d2} <= delta) but the likelihood ratio leaves [1/(2e^eps), 2e^eps] "
                   f"with probability {1 - good} > 2 delta under M(x)",
                   witness=None if ok else dict(eps="ln 2 = 0.69314718055994530942", delta=dec(delta),
                                                M_x="A: 0.0196, B: 0.0048, C: 0.9756", M_x_prime="A: 0.0048, B: 0.0196, C: 0.9756",
                                                hs_x_xprime=dec(d1), hs_xprime_x=dec(d2), prob_outside=dec(1 - good), two_delta=dec(2 * delta)),
                   condition="the probability of the bad ratios is at most 2 delta + delta e^-eps (the two tails: < 2 delta "
                             "and < delta e^-eps), so '1 - 2 delta' needs to be '1 - (2 + e^-eps) delta'")


def _rand_mech(rng, k):
    v = rng.integers(0, 20, size=k)
    if rng.random() < 0.3:
        v[rng.integers(0, k)] = 0
    v = v + (v.sum() == 0)
    tot = int(v.sum())
    return {i: Fraction(int(c), tot) for i, c in enumerate(v)}


@claim(P, "Lemma 1", "(eps, delta)-DP implies u(e^eps/(e^eps+1), x_-i) <= 2 delta")
def lemma1(quick):
    rng = np.random.default_rng(11)
    worst = Fraction(-1)
    n = 0
    for _ in range(300 if quick else 3000):
        k, m = int(rng.integers(2, 5)), int(rng.integers(2, 4))
        dists = [_rand_mech(rng, k) for _ in range(m)]
        E = Fraction(int(rng.integers(1, 8)), int(rng.integers(1, 4)))
        if E < 1:
            continue
        delta = max(hs_discrete(p, q, E) for p in dists for q in dists)
        if delta == 0:
            continue
        u = adj_utility(dists, E)
        n += 1
        worst = max(worst, u / (2 * delta))
    ok = worst <= 1
    return Outcome("verified" if ok else "refuted",
                   f"{n} random mechanisms with |X| in 2..3 candidates and 2..4 outputs (exact rationals, e^eps rational "
                   f">= 1); delta = the smallest DP delta; max u/(2 delta) = {dec(worst, 6)}",
                   witness=None if ok else wit(ratio=worst))


@claim(P, "Lemma 2 / Lemma 10 / Cor. 3 (strict inequality)",
       "u(e^eps/(e^eps+1), x n x') < d_eps(x,x') + d_eps(x',x) for every pair of neighbours", sweep=False)
def lemma2_strict(quick):
    F = Fraction
    E = F(2)
    Mx, Mxp = {0: F(1, 10), 1: F(9, 10)}, {0: F(0), 1: F(1)}
    u = adj_utility([Mx, Mxp], E)
    d = hs_discrete(Mx, Mxp, E) + hs_discrete(Mxp, Mx, E)
    ok = u < d
    return Outcome("verified" if ok else "refuted",
                   f"exact rationals, |X| = 2, eps = ln 2: M(x) = (1/10, 9/10), M(x') = (0, 1): u = {u}, d + d' = {d}",
                   witness=None if ok else dict(eps="ln 2 = 0.69314718055994530942", M_x="(0.1, 0.9)", M_x_prime="(0, 1)",
                                                u=dec(u), d_sum=dec(d)),
                   condition="'<=' (equality occurs when an output has Pr[M(x') = a] = 0 or when both d's vanish)")


@claim(P, "Lemma 10 (upper part)", "for |X| = 2: d_eps(x,x') + d_eps(x',x) <= 3 u(e^eps/(e^eps+1), x n x')")
def lemma10(quick):
    rng = np.random.default_rng(10)
    worst, n = Fraction(-1), 0
    for _ in range(500 if quick else 5000):
        k = int(rng.integers(2, 5))
        p, q = _rand_mech(rng, k), _rand_mech(rng, k)
        E = Fraction(int(rng.integers(1, 10)), int(rng.integers(1, 5)))
        if E < 1:
            continue
        d = hs_discrete(p, q, E) + hs_discrete(q, p, E)
        u = adj_utility([p, q], E)
        if d > 0:
            n += 1
            worst = max(worst, d / (3 * u) if u > 0 else Fraction(10 ** 9))
    ok = worst <= 1
    return Outcome("verified" if ok else "refuted",
                   f"{n} random output-distribution pairs (2..4 outputs, exact rationals, e^eps >= 1): max (d+d')/(3u) = {dec(worst, 6)}",
                   witness=None if ok else wit(ratio=worst))


# --------------------------------------------------------------------------------------
# sampling-histogram mechanism (m = 2 types), exact
# --------------------------------------------------------------------------------------
def _hyper(n, T, H):
    """Pr[h type-1 items among T drawn without replacement | H type-1 among n] (exact)."""
    tot = math.comb(n, T)
    return {h: Fraction(math.comb(H, h) * math.comb(n - H, T - h), tot)
            for h in range(max(0, T - (n - H)), min(T, H) + 1)}


def _delta_H(n, T, H, E):
    """delta_{eps,M}(x) for the SHM with hist(x) = (H, n-H): max over the neighbours H +- 1."""
    P0 = _hyper(n, T, H)
    best = 0
    for Hp in (H - 1, H + 1):
        if 0 <= Hp <= n:
            Q = _hyper(n, T, Hp)
            best = max(best, hs_discrete(P0, Q, E), hs_discrete(Q, P0, E))
    return best


def shm_sdp(n, T, p, eps):
    """Exact smoothed delta of the SHM for Pi = {(p, 1-p)} (a single i.i.d. distribution):
    E_{H ~ Bin(n, p)}[delta(H)], with binomial weights exact and e^eps at 50 digits."""
    E = mp.exp(mp.mpf(eps))
    p = Fraction(p)
    tot = mp.mpf(0)
    for H in range(n + 1):
        w = math.comb(n, H) * p ** H * (1 - p) ** (n - H)
        P0 = _hyper(n, T, H)
        best = mp.mpf(0)
        for Hp in (H - 1, H + 1):
            if 0 <= Hp <= n:
                Q = _hyper(n, T, Hp)
                for A, B in ((P0, Q), (Q, P0)):
                    s = mp.mpf(0)
                    for a in set(A) | set(B):
                        v = mpq(A.get(a, 0)) - E * mpq(B.get(a, 0))
                        if v > 0:
                            s += v
                    best = max(best, s)
        tot += mpq(w) * best
    return tot


def remark8_bound(n, eta, eps, f, m=2):
    eta, eps, f = mpq(eta), mp.mpf(eps), mpq(f)
    g = ((1 - mp.exp(-eps)) / eta - 1) ** 2
    return mp.exp(-g * f * n / 6) + m * mp.exp(-f * n / 8)


@claim(P, "Theorem 3(iii) (DP)", "for every eps > 0 the SHM is not (eps, delta)-DP for any delta < eta (appendix: < T/n)")
def thm3iii(quick):
    F = Fraction
    rows, ok = [], True
    for n, T in ([(5, 2), (8, 3)] if quick else [(5, 2), (8, 3), (12, 5), (20, 1)]):
        for E in (F(1), F(3), F(100)):
            dp = max(max(hs_discrete(_hyper(n, T, H), _hyper(n, T, Hp), E) for H in range(n + 1) for Hp in (H - 1, H + 1)
                         if 0 <= Hp <= n), 0)
            rows.append((n, T, E, dp))
            ok &= dp >= F(T, n)
    return Outcome("verified" if ok else "refuted",
                   "exact DP delta (max hockey-stick over all neighbouring histograms, m = 2) for (n,T) in "
                   "{(5,2),(8,3),(12,5),(20,1)}, e^eps in {1,3,100}: always >= T/n >= eta (equal to T/n for large eps): " +
                   ", ".join(f"n={a},T={b},e^eps={c}: {dec(d, 6)}" for a, b, c, d in rows[:6]),
                   witness=None if ok else wit(rows=str(rows)))


@claim(P, "Remark 8 / Theorem 3(i) (explicit bound)",
       "SHM is (eps, exp(-g(eta,eps) f n/6) + m exp(-f n/8), Pi)-smoothed DP for eps > ln(1/(1-eta))")
def remark8(quick):
    # Pi = {uniform on 2 types} (f = 1/2, m = 2); eta = 1/50, eps = 1/25 > ln(1/(1-eta)) = 0.0202...
    eta, eps, f = Fraction(1, 50), mp.mpf(1) / 25, Fraction(1, 2)
    rows, first = [], None
    for n in ([100, 200] if quick else [100, 150, 200, 250]):
        T = n // 50
        exact = shm_sdp(n, T, f, eps)
        bound = remark8_bound(n, eta, eps, f)
        rows.append((n, exact, bound))
        if exact > bound and first is None:
            first = (n, T, exact, bound)
    ev = ("exact smoothed delta E_{H~Bin(n,1/2)}[delta(H)] (exact hypergeometric/binomial rationals, e^eps at 50 digits), "
          "m = 2, f = 1/2, eta = 1/50, eps = 1/25: " + ", ".join(f"n={a}: exact {dec(b, 5)} vs bound {dec(c, 5)}" for a, b, c in rows))
    if first is None:
        return Outcome("verified", ev)
    n, T, exact, bound = first
    return Outcome("refuted", ev, witness=wit(n=n, T=T, eta=eta, eps=eps, f=f, m=2, exact_smoothed_delta=exact,
                                              remark8_bound=bound),
                   condition="the proof's Chernoff step drops the mean factor T/n: P[h > (1-e^-eps) H] <= "
                             "exp(-d^2 (T/n) H/3) (and only for d <= 1), not exp(-d^2 H/3)")


@claim(P, "Theorem 3(i) (asymptotic)", "for eps >= ln(1/(1-eta)) + c the SHM is (eps, m exp(-Theta(f n)), Pi)-smoothed DP", sweep=False)
def thm3i(quick):
    return Outcome("unknown", "asymptotic statement with unspecified constants; not decidable by finite computation "
                              "(exact values for n <= 250 decay exponentially, see Remark 8, whose explicit constants fail)")


@claim(P, "Theorem 3(ii) (tightness)", "no delta = exp(-omega(ln f(m,n) n)) makes the SHM smoothed DP", sweep=False)
def thm3ii(quick):
    return Outcome("unknown", "asymptotic lower-bound statement (omega(.)); not decidable by finite computation")


@claim(P, "Theorem 4", "continuous sampling-average: no delta < eta (appendix: T/n) gives (eps, delta, Pi)-smoothed DP")
def thm4(quick):
    rng = np.random.default_rng(4)
    worst = Fraction(10)
    cases = [(5, 2), (6, 3), (7, 1)] if quick else [(5, 2), (6, 3), (7, 1), (8, 4)]
    for n, T in cases:
        for _ in range(3):
            xs = [Fraction(int(v), 10 ** 6) for v in rng.integers(0, 10 ** 6, n)]
            xp = xs[:-1] + [Fraction(int(rng.integers(0, 10 ** 6)), 10 ** 6)]
            def outdist(db):
                c = {}
                for S in combinations(range(n), T):
                    a = sum(db[i] for i in S) / T
                    c[a] = c.get(a, 0) + Fraction(1, math.comb(n, T))
                return c
            d = max(hs_discrete(outdist(xp), outdist(xs), Fraction(10 ** 6)), hs_discrete(outdist(xs), outdist(xp), Fraction(10 ** 6)))
            worst = min(worst, d / Fraction(T, n))
    ok = worst >= 1
    return Outcome("verified" if ok else "refuted",
                   f"random databases with values drawn from a continuous-like grid (1e-6) in [0,1], exact enumeration of all "
                   f"C(n,T) samples, (n,T) in {cases}: d_eps(x',x) at e^eps = 1e6 is >= T/n >= eta in every case "
                   f"(min ratio {dec(worst, 6)}); so E[delta(x)] >= T/n for generic databases",
                   witness=None if ok else wit(min_ratio=worst))


@claim(P, "Theorem 5 (DP part)", "SHM with replacement (counting, T samples): for every eps >= 0 there is no delta <= T/(n+1) "
                                 "with (eps, delta)-DP (proof: 1 - (1-1/n)^T >= T/(n+1))", sweep=False)
def thm5(quick):
    F = Fraction
    n, T = 10, 3
    def cnt(M):  # output: number of sampled 'balls' among T draws with replacement, M balls in n bins
        return {k: F(math.comb(T, k)) * F(M, n) ** k * F(n - M, n) ** (T - k) for k in range(T + 1)}
    tv = max(hs_discrete(cnt(M), cnt(Mp), F(1)) for M in range(n + 1) for Mp in (M - 1, M + 1) if 0 <= Mp <= n)
    bound = F(T, n + 1)
    ok = tv > bound
    return Outcome("verified" if ok else "refuted",
                   f"exact rationals, n = {n}, T = {T}: the largest total-variation distance between neighbours is "
                   f"{tv} = 1 - (1-1/n)^T, so M_C is (eps, {tv})-DP for every eps >= 0, and {tv} < T/(n+1) = {bound}",
                   witness=None if ok else wit(n=n, T=T, delta_dp_eps0=tv, claimed_lower=bound),
                   condition="1 - (1-1/n)^T >= T/(n+1) holds for T <= 2 only; it fails for T = 3 at every n (and, checked exactly, for "
                             "every 3 <= T < 40, n < 300), so the DP claim needs delta < 1 - (1-1/n)^T instead")


@claim(P, "Theorem 5 (smoothed part)", "for T = o(n) the SHM with replacement is (1 + 2T/n, exp(-Theta(n)), Pi)-smoothed DP", sweep=False)
def thm5s(quick):
    return Outcome("unknown", "asymptotic (T = o(n), Theta(n)) statement; the proof also switches to eps = 2T/n midway")


@claim(P, "Proposition 7", "smoothed-DP delta is the same for Pi and for the vertices of its convex hull")
def prop7(quick):
    n, T, eps = 10, 3, mp.mpf(1) / 2
    E = mp.exp(eps)
    dH = [_delta_mp(n, T, H, E) for H in range(n + 1)]

    def exp_delta(ps):  # independent agents with type-1 probabilities ps
        dist = [mp.mpf(1)] + [mp.mpf(0)] * n
        for p in ps:
            p = mpq(p)
            dist = [dist[k] * (1 - p) + (dist[k - 1] * p if k > 0 else 0) for k in range(n + 1)]
        return sum(w * d for w, d in zip(dist, dH))
    verts = [Fraction(1, 5), Fraction(4, 5)]
    best_v = max(exp_delta([verts[1]] * k + [verts[0]] * (n - k)) for k in range(n + 1))
    rng = np.random.default_rng(7)
    best_in = max(exp_delta([Fraction(int(v), 1000) for v in rng.integers(200, 801, n)]) for _ in range(60))
    ok = best_in <= best_v * (1 + mp.mpf(10) ** -40)
    return Outcome("verified" if ok else "refuted",
                   f"SHM n = 10, T = 3, eps = 1/2, Pi = {{(p,1-p): p in [0.2,0.8]}}: max over vertex assignments "
                   f"{dec(best_v, 10)} >= max over 60 random interior assignments {dec(best_in, 10)}",
                   witness=None if ok else wit(vertex=best_v, interior=best_in))


def _delta_mp(n, T, H, E):
    P0 = _hyper(n, T, H)
    best = mp.mpf(0)
    for Hp in (H - 1, H + 1):
        if 0 <= Hp <= n:
            Q = _hyper(n, T, Hp)
            for A, B in ((P0, Q), (Q, P0)):
                best = max(best, sum(max(mp.mpf(0), mpq(A.get(a, 0)) - E * mpq(B.get(a, 0))) for a in set(A) | set(B)))
    return best
