"""Independent high-precision reference implementations of the catalog mechanisms.

Written straight from the papers' formulas (the paper's own region lists for the two-way threshold,
densities from mpmath's gamma function), sharing no code with gpaudit's model, so that a witness
recomputed here is a real check of the tool.
"""

import mpmath as mp
import numpy as np

DPS = 60   # every function works at 60 digits locally; nothing sets a global precision
with mp.workdps(DPS):
    SQ2 = mp.sqrt(2)


@mp.workdps(DPS)
def soft_threshold(x, T=0, tau=1):
    if x - T < -mp.mpf(tau) / 2:
        return mp.mpf(0)
    if x - T <= mp.mpf(tau) / 2:
        return (x - T) / tau + mp.mpf(1) / 2
    return mp.mpf(1)


@mp.workdps(DPS)
def lemma_4_1(x, gamma, T=0, tau=1):
    if abs(x - T) <= mp.mpf(tau) / 2:
        return 1 / mp.mpf(tau)
    return max(1 / (abs(x - T) + mp.mpf(tau) / 2), mp.exp(-gamma * (abs(x - T) - mp.mpf(tau) / 2)) / tau)


@mp.workdps(DPS)
def two_way_paper(p, T1, T2, tau):
    """f_tau of Section 4.2 via the paper's own sets S_{1,*}, S_{0,*}, S_{tau,*}."""
    p1, p2 = p
    R1 = tau / SQ2
    R2 = R1 + tau
    c = (T1 + tau / 2 + R1, T2 + tau / 2 + R1)
    r = mp.sqrt((p1 - c[0])**2 + (p2 - c[1])**2)
    if p1 >= c[0] and p2 >= c[1]:  # S_{1,3} and its boundary
        return mp.mpf(1)
    if T1 + tau / 2 < p1 < c[0] and T2 + tau / 2 < p2 < c[1] and r < R1:  # S_{1,alpha}
        return mp.mpf(1)
    if T1 + tau / 2 < p1 < c[0] and p2 > c[1]:  # S_{1,1}
        return mp.mpf(1)
    if T2 + tau / 2 < p2 < c[1] and p1 > c[0]:  # S_{1,2}
        return mp.mpf(1)
    if p1 <= c[0] and p2 <= c[1]:
        if r > R2:
            return mp.mpf(0)  # S_{0,alpha}
        if R1 <= r <= R2:
            return (R2 - r) / tau  # S_{tau,alpha}
        return mp.mpf(1)
    if p2 > c[1]:
        if p1 <= T1 - tau / 2:
            return mp.mpf(0)  # S_{0,1}
        return (p1 - (T1 - tau / 2)) / tau  # S_{tau,1}
    if p2 <= T2 - tau / 2:
        return mp.mpf(0)  # S_{0,2}
    return (p2 - (T2 - tau / 2)) / tau  # S_{tau,2}


@mp.workdps(DPS)
def student_t_logpdf(u, nu):
    nu = mp.mpf(nu)
    return (mp.loggamma((nu + 1) / 2) - mp.loggamma(nu / 2) - mp.log(mp.sqrt(nu * mp.pi))
            - (nu + 1) / 2 * mp.log(1 + u * u / nu))


@mp.workdps(DPS)
def laplace_logpdf(u):
    return -abs(u) - mp.log(2)


@mp.workdps(DPS)
def gaussian_logpdf(u):
    return -u * u / 2 - mp.log(2 * mp.pi) / 2


@mp.workdps(DPS)
def log_ratio(f, B, eta, logh, x, xp, y):
    """ln p_x(y) - ln p_x'(y) for M(x) = f(x) + (B(x)/eta) Z."""
    b, bp = B(x) / eta, B(xp) / eta
    return (logh((y - f(x)) / b) - mp.log(b)) - (logh((y - f(xp)) / bp) - mp.log(bp))


@mp.workdps(DPS)
def hockey_stick(f, B, eta, logh, x, xp, eps, intervals, metric="l2"):
    """P_x(S) - e^(eps d) P_x'(S) on a union of intervals, by adaptive quadrature of the densities."""
    d = distance(x, xp, metric) if isinstance(x, (list, tuple)) else abs(mp.mpf(x) - mp.mpf(xp))
    k = mp.exp(eps * d)

    def dens(z, y):
        b = B(z) / eta
        return mp.exp(logh((y - f(z)) / b)) / b

    total = mp.mpf(0)
    for lo, hi in intervals:
        lo = -mp.inf if lo == "-inf" else mp.mpf(lo)
        hi = mp.inf if hi == "inf" else mp.mpf(hi)
        pts = [lo] + [v for v in (f(x), f(xp)) if lo < v < hi] + [hi]
        total += mp.quad(lambda y: dens(x, y) - k * dens(xp, y), sorted(pts))
    return total


@mp.workdps(DPS)
def two_way_dropped_bound(p, T1=1, T2=2, tau=mp.mpf(1) / 2):
    """examples/broken/two-way-dropped-term.yaml's B: Lemma 4.3 without its exponential term."""
    T1, T2, tau = mp.mpf(T1), mp.mpf(T2), mp.mpf(tau)
    R1 = tau / SQ2
    R2 = R1 + tau
    a, b = T1 + tau / 2 + R1, T2 + tau / 2 + R1
    x1, x2 = p
    if x1 >= a and x2 >= b:
        rho = R1 + min(x1 - a, x2 - b)
    else:
        D = mp.sqrt(max(a - x1, 0)**2 + max(b - x2, 0)**2)
        if R1 < D < R2:
            return 1 / tau
        rho = R1 - D if D <= R1 else D - R2
    return 1 / (rho + tau)


@mp.workdps(DPS)
def gen_cauchy_logpdf(u, p):
    """GenCauchy(p) of Laud et al. Definition 5: density proportional to 1/(1 + |u|^p); the
    normaliser is int 1/(1 + |u|^p) du = 2 (pi/p) / sin(pi/p)."""
    p = mp.mpf(p)
    return -mp.log(1 + abs(u)**p) - mp.log(2 * (mp.pi / p) / mp.sin(mp.pi / p))


@mp.workdps(DPS)
def sigmoid_count(x, alpha):
    """sum_i e^(alpha x_i) / (e^(alpha x_i) + 1)."""
    return mp.fsum(mp.exp(alpha * v) / (mp.exp(alpha * v) + 1) for v in x)


@mp.workdps(DPS)
def sigmoid_slope_max(x, alpha):
    """max_i alpha e^(alpha x_i) / (e^(alpha x_i) + 1)^2."""
    return max(alpha * mp.exp(alpha * v) / (mp.exp(alpha * v) + 1)**2 for v in x)


@mp.workdps(DPS)
def distance(x, xp, metric="l2"):
    d = [abs(a - b) for a, b in zip(x, xp)]
    return {"l1": mp.fsum(d), "linf": max(d), "l2": mp.sqrt(mp.fsum(v * v for v in d))}[metric]


def pointwise_lipschitz(F, P, dist, block=400):
    """L(z_i) = max_j |F_i - F_j| / dist(z_i, z_j) on a grid (Definition 9's inner supremum, by
    brute force in float64): F the values at the grid points P, dist(A, P) the (len(A), len(P))
    distances.  By blocks of rows, so that no len(P)^2 array is ever made."""
    L = np.empty(len(P))
    for i in range(0, len(P), block):
        d = dist(P[i:i + block], P)
        with np.errstate(all="ignore"):
            q = np.abs(F[i:i + block, None] - F[None, :]) / d
        q[d == 0] = 0
        L[i:i + block] = q.max(axis=1)
    return L
