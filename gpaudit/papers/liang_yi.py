"""Claims of Liang & Yi, "Smooth Sensitivity for Geo-Privacy": the noise families of
Section 2.1, the epsilon formulas of Section 3.2, and the closed-form smooth sensitivities
of Section 4 and Appendix C, each compared with an independent high-precision computation.
The brute-force engines (two-point loss, exact Laplace hockey-stick, smooth sensitivity
by search) live in :mod:`gpaudit.papers.rates`, :mod:`gpaudit.papers.paper_hockey` and
:mod:`gpaudit.papers.bstar`."""
from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache
from itertools import product

import mpmath as mp
import numpy as np

from .bstar import PWL, smooth_sens_1d, smooth_sens_2d, smooth_sens_smooth
from .closed_forms import closed_form_outcome, compare_closed_form, compare_ss_1d, ss_outcome
from .paper_families import GenCauchy, StudentT
from .paper_hockey import laplace_grid_sup
from .model_bstar import model_bstar, with_model
from .precision import rel_err
from .quadrature import quad0inf, quad_line, quad_outcome
from .rates import certificate_note, check_eps_formula, eps_outcome, logratio, rate_sup, two_point_sup
from .readings import Reading
from .registry import Outcome
from .registry import claim as _register
from .paper_search import golden_max, scan_roots
from .text import dec, wit

P = "liang-yi"

# --------------------------------------------------------------------------------------
# the paper's words (verbatim from the .md; " [...] " joins non-adjacent pieces) and
# gpaudit's reading of them, keyed by claim id
# --------------------------------------------------------------------------------------
NRS = "Nissim, Raskhodnikova & Smith 2007 (NRS07), 'Smooth sensitivity and sampling in private data analysis'"
QUOTES: dict[str, tuple[str, str, str | None]] = {
    "Sec 2.1 (Laplace variance)": (
        r"A random variable $Z \sim \text{Lap}(a, b)$ has mean a and variance $2b^2$.",
        "for the pdf (1/(2b)) e^{-|y-a|/b}, b > 0: E[Z] = a and E[(Z-a)^2] = 2 b^2; checked symbolically (sympy, "
        "general a, b > 0) and by 50-digit quadrature at six (a, b)", None),
    "Sec 2.1 (GenCauchy constant)": (
        r"where $c_{p, \theta} = \frac{p\Gamma(\theta)}{2\Gamma(1/p)\Gamma(\theta-1/p)}$. We denote this distribution family as $\text{GenCauchy}(a, b, p, \theta)$.",
        "c_{p,theta} * int_R (1+|z|^p)^-theta dz = 1 for b, p > 0, p theta > 1 (the display's c_{beta,theta} read as "
        "c_{p,theta}); quadrature at 8 (p, theta) pairs", None),
    "Sec 2.1 (GenCauchy p=4 variance)": (
        r"In particular, for $p = 4$ and $\theta = 1$, Z has variance $\text{Var}(Z) = 1$.",
        "Z ~ GenCauchy(0, 1, 4, 1) (scale b = 1, as in the paper's use of Z) has E[Z^2] = 1", None),
    "Sec 2.1 (Student-t constant and variance)": (
        r"where $c_\nu = \frac{\Gamma(\frac{\nu+1}{2})}{\sqrt{\pi}\Gamma(\frac{\nu}{2})}$. We denote this family as $\mathcal{T}_\nu(a, \tau)$. For $\nu > 2$, a random variable $Z \sim \mathcal{T}_\nu(a, \tau)$ has expectation $\mathbb{E}[Z] = a$ and variance $\text{Var}(Z) = \tau^2 \frac{\nu}{\nu-2}$.",
        "the printed pdf integrates to 1 for nu > 0 and its variance is tau^2 nu/(nu-2) for nu > 2; quadrature at "
        "nu in {0.5,1,2.5,3,5,30}, tau in {0.7,2}", None),
    "Sec 2.1 (GenCauchy = Student-t)": (
        r"Note that the generalized Cauchy distribution coincides with the student's t distribution for the special case where $p = 2$, $b = \sqrt{\nu}\tau$ and $\theta = (\nu + 1)/2$.",
        "the two printed pdfs agree pointwise for those parameters (16 parameter sets x 6 points)", None),
    "Lemma 3.3": (
        r"Fix $\varepsilon, \gamma > 0$, let $\Lambda \in \mathbb{R}_{>0} \cup \{\infty\}$. Suppose $B(\cdot)$ is a $g_E(\cdot; \gamma)$ -smooth upper bound on $L_{f,\Lambda}$ of a function $f : U \rightarrow \mathbb{R}$. Then the mechanism M which on input x releases $M(x) := f(x) + \frac{B(x)}{\eta} \cdot Z$, where $Z \sim \text{GenCauchy}(0, 1, p > 1, \theta \geq 1)$, is $(\varepsilon, 0, \Lambda)$ -GP, where $\varepsilon = \max(\gamma, (p\theta - 1)\gamma) + (p - 1)^{\frac{p-1}{p}} \theta \eta$.",
        "for every f, B with |f(x)-f(x')| <= B(x') d and B(x)/B(x') in [e^{-gamma d}, e^{gamma d}], the output "
        "densities satisfy |ln p_x(y) - ln p_x'(y)| <= eps d; checked as true worst-case rate (local rate and exact "
        "two-point sup) <= claimed eps over a (p, theta, gamma, eta) grid", None),
    "Corollary 3.2": (
        r"Let $f : U \rightarrow \mathbb{R}^m$ equipped with the ℓ_1 metric $\|\cdot\|_1$. Suppose $B(\cdot)$ is a $g_E(\cdot; \gamma)$ -smooth upper bound on $L_{f, \Lambda}$. Then the mechanism M which on input x releases $M(x) := f(x) + \frac{B(x)}{\eta} \cdot Z$, where $Z = [Z_1, \dots, Z_m]^T$ and each $Z_j \sim_{iid} \text{GenCauchy}(0, 1, p > 1, \theta \geq 1)$, is $(\varepsilon, 0, \Lambda)$ -GP, where $\varepsilon = \max(m\gamma, m(p\theta - 1)\gamma) + (p - 1)^{\frac{p-1}{p}} \theta \eta$.",
        "m independent coordinates sharing the scale B(x)/eta, ||f(x)-f(x')||_1 <= B d: the worst local loss rate "
        "(scale change on all m coordinates, the l1 shift budget on the best coordinate) <= claimed eps", None),
    "Lemma 3.5": (
        r"Then the mechanism M which on input x releases $M(x) := f(x) + \frac{B(x)}{\eta} \cdot Z$, where $Z \sim \mathcal{T}_\nu(0, 1)$ for $\nu > 1$, is $(\varepsilon, 0, \Lambda)$ -GP, where $\varepsilon = \nu\gamma + \frac{\nu+1}{2\sqrt{\nu}}\eta$.",
        "as for Lemma 3.3, with Student-t noise, nu in {1.5,2,3,4,10}", None),
    "Remark after Lemma 3.5 (numbers)": (
        r"As an example, plugging in $\gamma = 0.1$, $\eta = 0.5$ and $p = 4 = \nu$, Lemma 3.3 gives $\varepsilon \approx 1.44$ (vs. $\varepsilon = 3$ by [NRS07]), and Lemma 3.5 gives $\varepsilon = 1.025$ (vs. $\varepsilon = 1.125$ by [BS19]).",
        "Lemma 3.3 (theta = 1), NRS (p+1)(gamma+eta), Lemma 3.5 and BS (nu+1) gamma + (nu+1)/(2 sqrt nu) eta evaluated "
        "exactly at gamma = 0.1, eta = 0.5, p = nu = 4; '~1.44' read as rounding to 2 decimals",
        "the NRS07 and Bun & Steinke 2019 (BS19) constants, as the remark restates them"),
    "Remark after Lemma 3.5 (GenCauchy theta=1 constant)": (
        r"In particular, here we have with the $\text{GenCauchy}(0, 1, p > 1, 1)$ distribution, $\varepsilon = (p - 1)\gamma + (p - 1)^{(p-1)/p}\eta$ vs. $\varepsilon = (p + 1)\gamma + (p + 1)\eta$ in [NRS07]",
        "for every p > 1 the GenCauchy(0,1,p,1) mechanism with a g_E(gamma)-smooth bound is eps-GP (and, with "
        "dist_H, eps-DP) with eps = (p-1) gamma + (p-1)^((p-1)/p) eta; both p >= 2 (agrees with Lemma 3.3) and "
        "1 < p < 2 are checked", None),
    "Lemma 3.6": (
        r"Let g_L be the function defined by $g_L(x, x') = 1 + \gamma \cdot \text{dist}(x, x')$. Let $B(\cdot)$ be a g_L -smooth upper bound on $L_{f, \Lambda}$ of a function $f : U \rightarrow \mathbb{R}$. Then the mechanism M which on input x releases $M(x) := f(x) + \frac{B(x)}{\eta} \cdot Z$, where $Z \sim \text{Lap}(0, 1)$, is $(\varepsilon = \eta + \gamma \ln(1/\delta), \delta, \Lambda)$ -GP.",
        "for two inputs at distance d: b'/b in [1/(1+gamma d), 1+gamma d], |a-a'| <= eta d min(b,b'); the exact "
        "Laplace hockey-stick divergence at level e^{eps d} is <= delta", None),
    "Lemma 2.2(1)": (
        r"M is ε -DP, for $\gamma \leq \frac{\varepsilon}{2(p+1)}$, $\eta = \frac{\varepsilon}{2(p+1)}$, and Z drawn from a distribution with pdf $h(z) \propto \frac{1}{1+|z|^p}$ where $p > 1$;",
        "DP neighbours: b'/b in [e^-gamma, e^gamma], |shift| <= eta min(b,b'); the privacy loss is <= eps = 1", NRS),
    "Lemma 2.2(2)": (
        r"M is (ε, δ) -DP, for $\gamma \leq \frac{\varepsilon}{2 \ln(2/\delta)}$ with $\delta \in (0, 1)$, $\eta = \frac{\varepsilon}{2}$, and $Z \sim \text{Lap}(0, 1)$.",
        "DP neighbours as for Lemma 2.2(1); exact Laplace hockey-stick divergence at level e^eps <= delta", NRS),
    "Sec 4.1.3 (Student-t calibration)": (
        r"By Lemma 3.3, ε -GP is achieved if each user i sends $M_\nu(x_i) := f_\tau(x_i) + Z_i$, where $Z_i \sim \mathcal{T}_\nu(0, \frac{B^*(x_i)}{\eta})$, for appropriately chosen $\gamma > 0$, $\nu > 2$ and $\eta \leq \frac{2\sqrt{\nu}}{\nu+1}\varepsilon$.",
        "existential, as written: gamma, nu and eta are 'appropriately chosen', so the sentence says a choice with "
        "gamma > 0, nu > 2 and eta <= 2 sqrt(nu)/(nu+1) eps making M_nu eps-GP exists; checked by exhibiting one and "
        "proving it with gpaudit's certificate enclosure. Also checked: every eta strictly below the bound admits a "
        "gamma > 0 (Lemma 3.5's budget), and the boundary eta, where no gamma > 0 works (not what the sentence says)",
        None),
    "Claim 3.4": (
        r"For $c > 1$, the function $\phi_c : \mathbb{R}_{\geq 0} \rightarrow \mathbb{R}_{\geq 0}$ defined by $\phi_c(z) := \ln(1 + z^c)$ satisfies $\forall z : |\phi'_c(z)| \leq (c-1)^{\frac{c-1}{c}}$.",
        "sup_{z >= 0} c z^(c-1)/(1+z^c) = (c-1)^((c-1)/c) for every c > 1 (the bound and its tightness)", None),
    "Lemma 4.1": (
        r"For $g_E : (x, x') \mapsto e^{\gamma \text{dist}(x, x')}$, the g_E -smooth sensitivity for f_τ is",
        "B*(x) = sup_z L_{f_tau,inf}(z) e^{-gamma|x-z|} equals max(1/(|x-T|+tau/2), e^{-gamma(|x-T|-tau/2)}/tau) for "
        "|x-T| > tau/2 and 1/tau inside the band; brute force at points on both sides, near and far", None),
    "Lemma 4.1 (proof, final expression)": (
        r"Thus, φ is maximized at either end point, with function value $\varphi(v_x) = \frac{1}{v_x} = \frac{1}{|x-T|+\tau/2}$, or $\varphi(\tau) = \frac{1}{\tau}e^{-\gamma v_x-\tau} = \frac{1}{\tau}e^{-\gamma|x-T|+\tau/2-\tau} = \frac{1}{\tau}e^{-\gamma|x-T|-\tau/2}$.",
        "phi(v) = (1/v) e^{-gamma(v_x - v)} at v = tau, as printed ((1/tau) e^{-gamma|x-T| - tau/2}), against the "
        "true endpoint value and against the lemma's own statement (1/tau) e^{-gamma(|x-T|-tau/2)}; the note after "
        "the proof prints a third form, e^{-gamma|x-T|+tau/2}", None),
    "App. C.3 (bounded range)": (
        r"one can show that, for $g_E : (x, x') \mapsto e^{\gamma \text{dist}(x, x')}$, the g_E -smooth sensitivity for $L_{f,\infty}$ at x can be computed as",
        "for the tent f_tau (m read as (l+r)/2), B*(x) equals the printed three-case formula; brute force", None),
    "App. C.1 (sampler)": (
        r"H(q) := \int_0^q \frac{1}{1+z^4} dz = \frac{1}{4\sqrt{2}} \left(\ln \left(\frac{q^2 + \sqrt{2}q + 1}{q^2 - \sqrt{2}q + 1} \right) + 2 \tan^{-1} (1 + \sqrt{2}q) - 2 \tan^{-1} (1 - \sqrt{2}q) \right).",
        "the closed form of H equals the integral for q >= 0, and the printed F is the cdf of GenCauchy(0,1,4,1) "
        "(limits 0 and 1, F' = the pdf sqrt(2)/(pi (1+q^4)))", None),
    "Sec 1 / Table 1 (Laplace-based variances)": (
        r"This leads to an unbiased estimator of $\frac{1}{n} \sum_i f(x_i)$ with variance $1/(\varepsilon^2 n)$. [...] Both achieve the same variance $\Theta(\frac{1}{\varepsilon^2 n})$ up to a constant-factor difference.",
        "Table 1 ('Variance' row: Delta_f^2/(eps^2 n) for f(x_i)+Lap(Delta_f/eps), K_f^2/(eps^2 n) for the K_f "
        "column) and Section 1 (1/(eps^2 n) with Delta_f = 1): the variance of the mean of n iid "
        "Lap(0, Delta_f/eps) noises; Var Lap(b) = 2 b^2 gives 2 Delta_f^2/(eps^2 n)", None),
    "Sec 4.1.1 (noise-a-priori MSE)": (
        r"\mathbb{E}[(\tilde{A} - A)^2] &= \mathbb{E}\left[\left(\frac{1}{n} \sum_i (\tilde{y}_i - y_i)\right)^2\right]",
        "the printed final MSE expression (ordered pairs i != j) equals E[(A~ - A)^2] for M_0 with Lap(1/eps) noise; "
        "exact enumeration of the 2^n error patterns", None),
    "Sec 4.1.1 (pair counts)": (
        r"Then $|(i, j) \in I_{0,0} \cup I_{1,1} : i \neq j| = \frac{n_0(n_0-1)}{2} + \frac{n_1(n_1-1)}{2} = \frac{n(n-1)}{2} - n_0 \cdot n_1$, while $|(i, j) \in I_{0,1} \cup I_{1,0} : i \neq j| = n_0 \cdot n_1$.",
        "literal reading: I_{m,k} = {(i,j): i in I_m, j in I_k} are sets of ordered pairs (the paper's definition, "
        "and the MSE sums over ordered i != j); unordered reading: the number of pairs {i,j} of users. Both checked "
        "exactly for all n0, n1 <= 12", None),
    "Claim 4.2": (
        r"The function f_τ defined above is $\frac{1}{\tau}$ -Lipschitz on \mathbb{R}^2 (w.r.t. $\|\cdot\|$).",
        "|f_tau(p) - f_tau(q)| <= |p - q|/tau for all p, q in R^2 (f_tau as defined region by region)", None),
    "Lemma 4.3": (
        r"For $g_E(x, x') \mapsto e^{\gamma \text{dist}(x, x')}$, the g_E -smooth sensitivity of f_τ at $z = (z_1, z_2)$ can be computed as",
        "the printed 8-case B*(z) equals sup_y L_{f_tau,inf}(y) e^{-gamma|z-y|} for every z in R^2 and all "
        "0 < tau < 2 min(T1,T2), gamma > 0", None),
    "Claim 4.4": (
        r"Then $|\kappa_t(x) - \kappa_t(x')| \leq \frac{e^{-1/2}}{h} |x - x'|$ for all $x, x' \in \mathbb{R}$.",
        "the Lipschitz bound holds and e^{-1/2}/h is the sup of |kappa'|", None),
    "Lemma 4.6": (
        r"we have for $x \neq t$, the g_E -smooth sensitivity [...] \phi_0 : (c_w, c_z) &\mapsto e^{-c_w^2 c^2/2} - (1 + c^2(c_w - c_z)c_w) e^{-c_w^2 c^2/2},",
        "the closed form equals B*(x) = sup_{w != z} |kappa(w)-kappa(z)|/|w-z| e^{-gamma|x-z|} for x != t; two "
        "readings: as printed (S_1, S_2, S_3, phi_0, phi_1 exactly as printed), and with the two evident typos "
        "corrected (phi_0's first exponent -c_z^2 c^2/2 as in App. A.5 eq. (2), e^{-c^2/2} in the S_2 candidate)", None),
    "Lemma 4.7": (
        r"we have for $x = t$, the g_E -smooth sensitivity [...] \left| \frac{a(1+a) l_z^2 e^{-(1+a)^2 l_z^2/2}}{a l_z h} \right| e^{-\gamma l_z h} = \left| \frac{(1+a) l_z e^{-(1+a)^2 l_z^2/2}}{h} e^{-\gamma l_z h} \right|.",
        "the closed form of B*(t) equals sup_{w != z} |kappa(w)-kappa(z)|/|w-z| e^{-gamma|t-z|}; two readings: as "
        "printed, and with the S_1 term as App. A.4 derives it (no extra factor l_z)", None),
}


# claim id -> (method, severity of a non-verified result, intended statement) used where the checker
# itself does not set them
META: dict[str, tuple[str, str | None, str | None]] = {
    "Remark after Lemma 3.5 (numbers)": ("exact", None, None),
    "Remark after Lemma 3.5 (GenCauchy theta=1 constant)": ("exact", "minor", None),
    "Lemma 3.6": ("sweep", None, None),
    "Lemma 2.2(1)": ("sweep", None, None),
    "Lemma 2.2(2)": ("sweep", None, None),
    "Claim 3.4": ("sweep", None, None),
    "Lemma 4.1": ("sweep", None, None),
    "App. C.3 (bounded range)": ("sweep", None, None),
    "App. C.1 (sampler)": ("sweep", None, None),
    "Sec 4.1.1 (noise-a-priori MSE)": ("sweep", None, None),
    "Claim 4.4": ("sweep", None, None),
    "Lemma 4.6": ("adversarial", "error", None),
    "Lemma 4.7": ("adversarial", "error", None),
}


def claim(paper, claim_id, statement, sweep=True):
    """Register with the quote, reading and cited source of ``QUOTES[claim_id]``; the method and
    severity of ``META[claim_id]`` fill whatever the checker's Outcome leaves unset."""
    quote, reading, src = QUOTES[claim_id]
    method, severity, intended = META.get(claim_id, ("", None, None))

    def deco(fn):
        def run(quick):
            out = fn(quick)
            if not out.method:
                out.method = method
            if out.verdict != "verified":
                out.severity = out.severity or severity
                out.intended = out.intended or intended
            return out

        run.__name__ = run.__qualname__ = getattr(fn, "__name__", "check")
        _register(paper, claim_id, statement, sweep, quote=quote, reading=reading, restated_from=src)(run)
        return fn

    return deco


def _m(out, method, severity=None, intended=None):
    """Set the method (always) and, for a non-verified result, the severity and intended statement."""
    out.method = method
    if out.verdict != "verified":
        out.severity = severity
        out.intended = intended
    return out



# --------------------------------------------------------------------------------------
# Section 2.1: families
# --------------------------------------------------------------------------------------
def gc_const(p, th):
    p, th = mp.mpf(p), mp.mpf(th)
    return p * mp.gamma(th) / (2 * mp.gamma(1 / p) * mp.gamma(th - 1 / p))


def t_const(nu):
    nu = mp.mpf(nu)
    return mp.gamma((nu + 1) / 2) / (mp.sqrt(mp.pi) * mp.gamma(nu / 2))


@claim(P, "Sec 2.1 (Laplace variance)", "Lap(a, b) has mean a and variance 2 b^2")
def laplace_variance(quick):
    worst = mp.mpf(0)
    for a, b in product([0, mp.mpf("-1.5")], [mp.mpf("0.3"), 1, 7]):
        h = lambda y: mp.exp(-abs(y - a) / b) / (2 * b)
        mean = quad_line(lambda y: y * h(y + a), b) + a
        worst = max(worst, rel_err(quad_line(lambda y: y * y * h(y + a), b), 2 * b * b), abs(mean - a))
    out = quad_outcome(worst, "mpmath quad (50 digits) of the moments, a in {0,-1.5}, b in {0.3,1,7}", 40)
    ok_sym = _laplace_moments_sympy()
    if out.verdict == "verified" and not ok_sym:
        out = Outcome("unknown", out.evidence + "; the symbolic computation disagreed")
    out.evidence = "sympy (symbols a real, b > 0): int y h = a and int (y-a)^2 h = 2 b^2 exactly; cross-checked by " + out.evidence
    return _m(out, "proof")


def _laplace_moments_sympy():
    import sympy as sp
    y, a = sp.symbols("y a", real=True)
    b = sp.symbols("b", positive=True)
    h = sp.exp(-sp.Abs(y) / b) / (2 * b)  # centred density; mean a by translation
    hp = sp.exp(-y / b) / (2 * b)  # y >= 0 half; the density is even
    mass = sp.simplify(2 * sp.integrate(hp, (y, 0, sp.oo)))
    m1 = sp.simplify(sp.integrate(y * hp, (y, 0, sp.oo)) - sp.integrate(y * hp, (y, 0, sp.oo)))  # odd moment
    m2 = sp.simplify(2 * sp.integrate(y ** 2 * hp, (y, 0, sp.oo)))
    return mass == 1 and m1 == 0 and sp.simplify(m2 - 2 * b ** 2) == 0 and h.subs(y, -y) == h


@lru_cache(maxsize=None)
def beta_integral_proof():
    """sympy: int_0^oo u^(a-1) (1+u)^(-(a+b)) du = Gamma(a) Gamma(b)/Gamma(a+b) for a, b > 0 (symbols declared
    positive, so the convergence conditions hold), and the substitution u = z^p (z = u^(1/p), dz = (1/p) u^(1/p - 1)
    du) turns int_0^oo (1+z^p)^-theta dz into (1/p) B(1/p, theta - 1/p): with c_{p,theta}, 2 x that is 1 exactly
    (gammasimp).  Returns (beta integral ok, substitution ok, normalisation ok)."""
    import sympy as sp
    u, a, b, p, th = sp.symbols("u a b p theta", positive=True)
    beta = sp.integrate(u ** (a - 1) * (1 + u) ** (-(a + b)), (u, 0, sp.oo), conds="none")
    beta_ok = sp.simplify(sp.gammasimp(beta - sp.gamma(a) * sp.gamma(b) / sp.gamma(a + b))) == 0
    z = u ** (1 / p)
    subst_ok = sp.simplify((1 + z ** p) ** (-th) * sp.diff(z, u) - u ** (1 / p - 1) * (1 + u) ** (-th) / p) == 0
    c = p * sp.gamma(th) / (2 * sp.gamma(1 / p) * sp.gamma(th - 1 / p))
    norm_ok = sp.simplify(sp.gammasimp(c * 2 * (sp.gamma(1 / p) * sp.gamma(th - 1 / p) / sp.gamma(th)) / p - 1)) == 0
    return beta_ok, subst_ok, norm_ok


@claim(P, "Sec 2.1 (GenCauchy constant)",
       "c_{p,theta} = p Gamma(theta) / (2 Gamma(1/p) Gamma(theta - 1/p)) normalises (1+|z|^p)^-theta")
def gencauchy_const(quick):
    grid = [("0.5", 3), ("1.2", 1), (2, 1), (3, 1), (4, 1), (2, "1.5"), ("7.5", 2), (4, "0.4")]
    worst = max(rel_err(gc_const(p, th) * 2 * quad0inf(lambda z: (1 + z ** mp.mpf(p)) ** (-mp.mpf(th))), 1) for p, th in grid)
    proof = beta_integral_proof()
    out = quad_outcome(worst, f"proof (sympy): the Beta integral int_0^oo u^(a-1)(1+u)^-(a+b) du = B(a, b) for a, b > 0 "
                              f"({proof[0]}), the substitution u = z^p ({proof[1]}) with a = 1/p, b = theta - 1/p (> 0 "
                              f"exactly when p theta > 1), and c_(p,theta) x 2 B(1/p, theta - 1/p)/p = 1 ({proof[2]}); "
                              f"corroborated by quad (z = e^s substitution, 50 digits) for (p,theta) in {grid}",
                       cond="the pdf display writes c_{beta,theta}; read c_{p,theta}")
    return _m(out, "proof" if all(proof) else "sweep")


@claim(P, "Sec 2.1 (GenCauchy p=4 variance)", "for p = 4 and theta = 1, Var(Z) = 1")
def gencauchy_var4(quick):
    c, b = gc_const(4, 1), mp.mpf(3)
    var = 2 * c * quad0inf(lambda z: z * z / (1 + z ** 4))
    var_b = 2 * c / b * quad0inf(lambda y: y * y / (1 + (y / b) ** 4))
    import sympy as sp
    zz = sp.symbols("z", positive=True)
    c4 = sp.Integer(4) * sp.gamma(1) / (2 * sp.gamma(sp.Rational(1, 4)) * sp.gamma(sp.Rational(3, 4)))
    var_sym = sp.simplify(2 * c4 * sp.integrate(zz ** 2 / (1 + zz ** 4), (zz, 0, sp.oo)))
    out = quad_outcome(rel_err(var, 1), f"sympy: 2 c_(4,1) int_0^oo z^2/(1+z^4) dz = {var_sym} exactly; quad: Var = "
                                        f"{dec(var, 25)} for b = 1 (for scale b = 3 it is {dec(var_b, 12)} = b^2)",
                       40, cond="b = 1 (the sentence is about GenCauchy(a, b, 4, 1); in general Var = b^2)")
    if var_sym != 1:
        out = Outcome("unknown", out.evidence + " (symbolic value differs)")
    return _m(out, "proof")


@claim(P, "Sec 2.1 (Student-t constant and variance)",
       "c_nu = Gamma((nu+1)/2)/(sqrt(pi) Gamma(nu/2)); Var = tau^2 nu/(nu-2) for nu > 2")
def student_const_var(quick):
    worst = mp.mpf(0)
    for nu, tau in product(["0.5", 1, "2.5", 3, 5, 30], ["0.7", 2]):
        nu, tau = mp.mpf(nu), mp.mpf(tau)
        cst = t_const(nu) / (mp.sqrt(nu) * tau)
        h = lambda y: cst * (1 + (y / tau) ** 2 / nu) ** (-(nu + 1) / 2)
        worst = max(worst, rel_err(2 * quad0inf(h), 1))
        if nu > 2:
            worst = max(worst, rel_err(2 * quad0inf(lambda y: y * y * h(y)), tau ** 2 * nu / (nu - 2)))
    proof = student_t_proof()
    return _m(quad_outcome(worst, f"proof (sympy): with u = t^2/nu both integrals are Beta integrals (proved for symbolic "
                                  f"a, b > 0 in 'Sec 2.1 (GenCauchy constant)'): the normaliser 2 int_0^oo "
                                  f"(1+t^2/nu)^-((nu+1)/2) dt = sqrt(nu) B(1/2, nu/2) and c_nu sqrt(nu) B(1/2, nu/2)/sqrt(nu) "
                                  f"= 1 ({proof[0]}); the second moment is nu^(3/2) B(3/2, nu/2 - 1) (b > 0 iff nu > 2) and "
                                  f"c_nu nu B(3/2, nu/2 - 1) = nu/(nu-2) ({proof[1]}); substitutions checked ({proof[2]}); "
                                  f"corroborated by quad (50 digits), nu in {{0.5,1,2.5,3,5,30}}, tau in {{0.7,2}}"),
              "proof" if all(proof) and all(beta_integral_proof()) else "sweep")


@lru_cache(maxsize=None)
def student_t_proof():
    """sympy: (normalisation, variance, substitutions) of the Student-t density with tau = 1 (tau scales out:
    the density is (1/tau) h(y/tau), so the variance is tau^2 times the tau = 1 one)."""
    import sympy as sp
    nu, u = sp.symbols("nu u", positive=True)
    B = lambda a, b: sp.gamma(a) * sp.gamma(b) / sp.gamma(a + b)
    c = sp.gamma((nu + 1) / 2) / (sp.sqrt(sp.pi) * sp.gamma(nu / 2))
    norm_ok = sp.simplify(sp.gammasimp(c / sp.sqrt(nu) * sp.sqrt(nu) * B(sp.Rational(1, 2), nu / 2) - 1)) == 0
    var_ok = sp.simplify(sp.gammasimp(c / sp.sqrt(nu) * nu ** sp.Rational(3, 2) * B(sp.Rational(3, 2), nu / 2 - 1)
                                      - nu / (nu - 2))) == 0
    t = sp.sqrt(nu * u)  # t >= 0 half of the symmetric integrals, dt = sqrt(nu)/(2 sqrt(u)) du
    dens = (1 + t ** 2 / nu) ** (-(nu + 1) / 2)
    sub_norm = sp.simplify(2 * dens * sp.diff(t, u) - sp.sqrt(nu) * u ** (-sp.Rational(1, 2)) * (1 + u) ** (-(nu + 1) / 2)) == 0
    sub_var = sp.simplify(2 * t ** 2 * dens * sp.diff(t, u)
                          - nu ** sp.Rational(3, 2) * u ** sp.Rational(1, 2) * (1 + u) ** (-(nu + 1) / 2)) == 0
    return norm_ok, var_ok, sub_norm and sub_var


@claim(P, "Sec 2.1 (GenCauchy = Student-t)",
       "GenCauchy(a, sqrt(nu) tau, 2, (nu+1)/2) coincides with T_nu(a, tau)")
def coincidence(quick):
    worst = mp.mpf(0)
    for nu, tau, a in product(["0.5", 1, 3, 10], ["0.5", 2], [0, "1.3"]):
        nu, tau, a = mp.mpf(nu), mp.mpf(tau), mp.mpf(a)
        b, th = mp.sqrt(nu) * tau, (nu + 1) / 2
        for y in map(mp.mpf, [-5, -1, 0, "0.3", 2, 40]):
            g = gc_const(2, th) / b * (1 + abs((y - a) / b) ** 2) ** (-th)
            t = t_const(nu) / (mp.sqrt(nu) * tau) * (1 + ((y - a) / tau) ** 2 / nu) ** (-(nu + 1) / 2)
            worst = max(worst, rel_err(g, t))
    import sympy as sp
    nu_, tau_, u_ = sp.symbols("nu tau u", positive=True)
    th = (nu_ + 1) / 2
    c_gc = 2 * sp.gamma(th) / (2 * sp.gamma(sp.Rational(1, 2)) * sp.gamma(th - sp.Rational(1, 2)))
    c_t = sp.gamma((nu_ + 1) / 2) / (sp.sqrt(sp.pi) * sp.gamma(nu_ / 2))
    pdf_gc = c_gc / (sp.sqrt(nu_) * tau_) * (1 + (u_ / (sp.sqrt(nu_) * tau_)) ** 2) ** (-th)
    pdf_t = c_t / (sp.sqrt(nu_) * tau_) * (1 + (u_ / tau_) ** 2 / nu_) ** (-(nu_ + 1) / 2)
    sym_ok = sp.simplify(pdf_gc / pdf_t) == 1
    out = quad_outcome(worst, "sympy: the ratio of the two pdfs (u = y - a, symbols nu, tau > 0) simplifies to 1; "
                              "numerically, pdfs compared at 6 points x 16 parameter sets", 40)
    if not sym_ok:
        out = Outcome("unknown", out.evidence + " (the symbolic ratio did not simplify to 1)")
    return _m(out, "proof")


# --------------------------------------------------------------------------------------
# Section 3.2: epsilon formulas as upper bounds on the true worst-case loss rate
# --------------------------------------------------------------------------------------
def lemma33_eps(g, e, fam):
    p, th = fam.p, fam.theta
    return max(g, (p * th - 1) * g) + (p - 1) ** ((p - 1) / p) * th * e


GC_FAMS = lambda quick: [GenCauchy(p, th) for p, th in ([(2, 1), (4, 1), (3, 2)] if quick else
                         [("1.5", 1), (2, 1), (3, 1), (4, 1), (8, 1), (2, 2), (3, "3.5")])]


@claim(P, "Lemma 3.3", "GenCauchy(p>1, theta>=1) mechanism is eps-GP with eps = max(g,(p theta-1)g) + (p-1)^((p-1)/p) theta eta")
def lemma33(quick):
    w, a, n = check_eps_formula(GC_FAMS(quick), lemma33_eps, quick=quick)
    return _m(eps_outcome(w, a, n, "GenCauchy p in {1.5,2,3,4,8}, theta in {1,2,3.5}; (gamma,eta) in "
                                "{(1e-3,1),(1,1e-3),(0.1,0.5),(0.5,0.5),(0.3,0.05)}",
                          extra=certificate_note(GC_FAMS(quick), lemma33_eps, quick=quick)), "sweep")


@claim(P, "Corollary 3.2", "m iid GenCauchy coordinates (l1 output metric): eps = max(m g, m(p theta-1) g) + (p-1)^((p-1)/p) theta eta")
def cor32(quick):
    worst, warg, tot = mp.mpf(-1), None, 0
    for m in ([2, 3] if quick else [1, 2, 3, 5]):
        f = lambda g, e, fam, m=m: max(m * g, m * (fam.p * fam.theta - 1) * g) + (fam.p - 1) ** ((fam.p - 1) / fam.p) * fam.theta * e
        w, a, n = check_eps_formula(GC_FAMS(True), f, two_point=False, quick=quick, m=m)
        tot += n
        if w > worst:
            worst, warg = w, dict(a, m=m)
    return _m(eps_outcome(worst, warg, tot, "m in {1,2,3,5}, GenCauchy (p,theta) in {(2,1),(4,1),(3,2)}, local rate "
                                         "(coordinates independent, shift budget eta on the best coordinate)",
                       two_point=False), "sweep")


def lemma35_eps(g, e, fam):
    nu = fam.nu
    return nu * g + (nu + 1) / (2 * mp.sqrt(nu)) * e


T_FAMS = lambda quick: [StudentT(nu) for nu in ([2, 4] if quick else ["1.5", 2, 3, 4, 10])]


@claim(P, "Lemma 3.5", "Student-t (nu>1) mechanism is eps-GP with eps = nu gamma + (nu+1)/(2 sqrt(nu)) eta")
def lemma35(quick):
    w, a, n = check_eps_formula(T_FAMS(quick), lemma35_eps, quick=quick)
    return _m(eps_outcome(w, a, n, "Student-t nu in {1.5,2,3,4,10}; (gamma,eta) as for Lemma 3.3",
                          extra=certificate_note(T_FAMS(quick), lemma35_eps, quick=quick)), "sweep")


@claim(P, "Remark after Lemma 3.5 (numbers)",
       "gamma=0.1, eta=0.5, p=4=nu: Lemma 3.3 gives ~1.44 (NRS: 3), Lemma 3.5 gives 1.025 (BS: 1.125)", sweep=False)
def remark35_numbers(quick):
    g, e = Fraction(1, 10), Fraction(1, 2)
    l33 = mp.mpf(3) / 10 + mp.mpf(3) ** (mp.mpf(3) / 4) / 2
    nrs = 5 * g + 5 * e
    l35 = 4 * g + Fraction(5, 4) * e
    bs = 5 * g + Fraction(5, 4) * e
    ok = abs(l33 - mp.mpf("1.44")) < mp.mpf("0.005") and nrs == 3 and l35 == Fraction(41, 40) and bs == Fraction(9, 8)
    t33, _ = rate_sup(GenCauchy(4, 1), mp.mpf(1) / 10, mp.mpf(1) / 2)
    t35, _ = rate_sup(StudentT(4), mp.mpf(1) / 10, mp.mpf(1) / 2)
    return Outcome("verified" if ok else "refuted",
                   f"exact/mp arithmetic: Lemma 3.3 -> {dec(l33, 8)}, NRS -> {nrs}, Lemma 3.5 -> {l35} = 1.025, "
                   f"BS -> {bs} = 1.125. (True worst-case rates: GenCauchy {dec(t33, 6)}, Student-t {dec(t35, 6)}.)",
                   witness=None if ok else wit(l33=l33, l35=l35))


def remark_gc_eps(g, e, fam):
    p = fam.p
    return (p - 1) * g + (p - 1) ** ((p - 1) / p) * e


@claim(P, "Remark after Lemma 3.5 (GenCauchy theta=1 constant)",
       "with GenCauchy(0,1,p>1,1): eps = (p-1) gamma + (p-1)^((p-1)/p) eta")
def remark35_gc(quick):
    fams = [GenCauchy(p, 1) for p in [mp.mpf("1.5"), 2, 4]]
    w, a, n = check_eps_formula(fams, remark_gc_eps, two_point=False,
                                ge=[(mp.mpf(1), mp.mpf("0.1")), (mp.mpf("0.1"), mp.mpf("0.5"))])
    if w <= 1:
        return eps_outcome(w, a, n, "p in {1.5,2,4}")
    # p >= 2: the remark is Lemma 3.3 at theta = 1 (max(1, p-1) = p-1), which the registry verifies
    # 1 < p < 2: not too small everywhere -- the exact worst case at the remark's own example (gamma, eta)
    g0, e0 = mp.mpf("0.1"), mp.mpf("0.5")
    mid = []
    for p in (mp.mpf("1.7"), mp.mpf("1.9")):
        fam = GenCauchy(p, 1)
        true, _ = rate_sup(fam, g0, e0)
        mid.append((p, true / remark_gc_eps(g0, e0, fam)))
    # concrete witness: f = 0, B(x) = e^{gamma x}, x = 0, x' = 1: the output y = 0 has density
    # ratio b'/b = e^gamma, i.e. loss gamma * d, against the remark's ((p-1)gamma + ...) d.
    p, g, e = mp.mpf(3) / 2, mp.mpf(1), mp.mpf(1) / 10
    fam = GenCauchy(p, 1)
    loss = -logratio(fam, 0, mp.e ** g, 0)  # ln p_x(0) - ln p_x'(0) with b' = e b  ->  ln(b'/b)
    claimed = remark_gc_eps(g, e, fam)
    mid_txt = ", ".join(f"p = {dec(q, 2)}: {dec(r, 3)}" for q, r in mid)
    readings = [
        Reading("for every p > 1 (the remark's own range) and every gamma, eta > 0", False,
                f"p = 1.5, gamma = 1, eta = 0.1: the two-point loss at distance 1 is gamma = {dec(abs(loss), 6)} > "
                f"claimed {dec(claimed, 6)} (the witness is a pair at distance 1, so the DP reading with dist_H fails too)"),
        Reading("as the specialisation of Lemma 3.3 to theta = 1 that the remark announces ('In particular, here we "
                "have'): that would be max(1, p-1) gamma + (p-1)^((p-1)/p) eta, which the printed (p-1) gamma is only "
                "for p >= 2", False,
                "for 1 < p < 2 the printed value is below Lemma 3.3's whenever gamma > 0; it fails where the scale "
                "term dominates (the witness) and holds where the shift term does (at the remark's example gamma = "
                f"0.1, eta = 0.5 the exact worst case is {mid_txt} of the claim)"),
    ]
    return Outcome("refuted",
                   f"for p >= 2 the remark coincides with Lemma 3.3 at theta = 1 (verified). For 1 < p < 2, which the "
                   f"remark explicitly includes (p > 1), the scale term needs max(1, p-1) gamma (Lemma 3.3), not "
                   f"(p-1) gamma: the stated eps is too small when gamma is large against eta (two-point witness: "
                   f"f = 0, B(x) = exp(gamma x), x = 0, x' = 1, output y = 0 gives |ln ratio| = ln(B(1)/B(0)) = gamma; "
                   f"grid max true/claimed = {dec(w, 5)}), but not for every gamma: at gamma = 0.1, eta = 0.5 the exact "
                   f"worst-case loss rate is {mid_txt} of the claim. Severity minor: the lemma it specialises is "
                   f"right, the remark is right for p >= 2, and its point (smaller constants than NRS's (p+1) gamma + "
                   f"(p+1) eta) stands with max(1, p-1) gamma",
                   witness=wit(p=p, theta=1, gamma=g, eta=e, x=0, x_prime=1, y=0, B_x=1, B_x_prime=mp.e,
                               loss=abs(loss), claimed_eps_times_d=claimed),
                   condition="p >= 2 (then max(1, p-1) = p-1 and the remark agrees with Lemma 3.3), or max(1, p-1) gamma "
                             "in place of (p-1) gamma",
                   readings=readings)


def _laplace_gl_sup(g, e, delta, d, eps=None):
    """sup over the g_L two-point configurations at distance d of the exact HS divergence
    at level e^{eps d}; eps defaults to Lemma 3.6's eta + gamma ln(1/delta)."""
    eps = e + g * mp.log(1 / delta) if eps is None else eps
    rmax = 1 + g * d
    v, arg = laplace_grid_sup(eps * d, [rmax ** (mp.mpf(i) / 6) for i in range(-6, 7)], lambda rho: e * d * min(1, rho))
    return v, arg, eps


def lemma36_worst(quick, eps_fn=None):
    """max over the sweep of HS/delta; eps_fn(g, e, delta) overrides the lemma's epsilon."""
    worst, warg, n = mp.mpf(-1), None, 0
    gs = [mp.mpf("0.05"), mp.mpf("0.5")]
    es = [mp.mpf("0.1"), mp.mpf(1)]
    ds = [mp.mpf("0.01"), mp.mpf(1), mp.mpf(10)] if not quick else [mp.mpf(1)]
    for g, e, d, dl in product(gs, es, ds, [mp.mpf("1e-5")] if quick else [mp.mpf("1e-5"), mp.mpf("0.1")]):
        v, arg, eps = _laplace_gl_sup(g, e, dl, d, None if eps_fn is None else eps_fn(g, e, dl))
        n += 1
        if v / dl > worst:
            worst, warg = v / dl, dict(gamma=g, eta=e, d=d, delta=dl, hs=v, **{k: arg[k] for k in ("rho", "shift")})
    return worst, warg, n


@claim(P, "Lemma 3.6", "Laplace noise with a g_L-smooth bound is (eta + gamma ln(1/delta), delta, Lambda)-GP")
def lemma36(quick):
    worst, warg, n = lemma36_worst(quick)
    ok = worst <= 1
    return Outcome("verified" if ok else "refuted",
                   f"exact Laplace hockey-stick divergence (closed form, 50 digits) maximised over "
                   f"b'/b in [1/(1+gd), 1+gd] x shift in [0, eta d min(b,b')] (13x5 grid, both orders), "
                   f"{n} settings of gamma in {{0.05,0.5}}, eta in {{0.1,1}}, d in {{0.01,1,10}}, delta in {{1e-5,0.1}}; "
                   f"max HS/delta = {dec(worst, 6)}",
                   witness=None if ok else {k: dec(v) if not isinstance(v, str) else v for k, v in warg.items()})


@claim(P, "Lemma 2.2(1)", "[NRS] h ~ 1/(1+|z|^p), gamma <= eps/(2(p+1)), eta = eps/(2(p+1)): eps-DP")
def lemma22_1(quick):
    worst, warg = mp.mpf(-1), None
    ps = [mp.mpf("1.5"), 2, 4, 10, 50] if not quick else [2, 10]
    for p in ps:
        fam = GenCauchy(p, 1)
        g = e = mp.mpf(1) / (2 * (p + 1))
        v, arg = two_point_sup(fam, g, lambda rho: e * min(1, rho), n_rho=9, n_shift=5, n_y=20001)
        loc, _ = rate_sup(fam, g, e)
        for val, kind in ((v, "two-point"), (loc, "local")):
            if val > worst:
                worst, warg = val, dict(p=p, kind=kind, loss=val)
    ok = worst <= 1
    return Outcome("verified" if ok else "refuted",
                   f"eps = 1, DP neighbours: b'/b in [e^-g, e^g], |shift| <= eta min(b,b'); exact two-point sup and local "
                   f"rate for p in {{1.5,2,4,10,50}}; max loss = {dec(worst, 6)} <= 1",
                   witness=None if ok else {k: dec(v) if not isinstance(v, str) else v for k, v in warg.items()})


@claim(P, "Lemma 2.2(2)", "[NRS] Laplace, gamma <= eps/(2 ln(2/delta)), eta = eps/2: (eps, delta)-DP")
def lemma22_2(quick):
    worst, warg = mp.mpf(-1), None
    for eps, dl in [(1, "1e-5"), ("0.5", "0.01"), (2, "0.001"), (1, "0.1")]:
        eps, dl = mp.mpf(eps), mp.mpf(dl)
        g, e = eps / (2 * mp.log(2 / dl)), eps / 2
        v, arg = laplace_grid_sup(eps, [mp.exp(g * i / 4) for i in range(-4, 5)], lambda rho: e * min(1, rho), scale=dl)
        if v > worst:
            worst, warg = v, dict(eps=eps, delta=dl, **arg)
    ok = worst <= 1
    return Outcome("verified" if ok else "refuted",
                   f"exact Laplace hockey-stick over b'/b in [e^-g,e^g] x shift grid, (eps,delta) in "
                   f"{{(1,1e-5),(0.5,0.01),(2,1e-3),(1,0.1)}}; max HS/delta = {dec(worst, 6)}",
                   witness=None if ok else {k: dec(v) for k, v in warg.items()})


# Sec 4.1.3's choice exhibited: nu = 4, eps = 1, eta = 2/5 (half the bound 2 sqrt(nu)/(nu+1) eps = 4/5) and
# gamma = 1/8 = (eps - (nu+1)/(2 sqrt nu) eta)/nu, Lemma 3.5's budget with equality
SEC413_CHOICE = dict(nu=4, eps=Fraction(1), eta=Fraction(2, 5), gamma=Fraction(1, 8))


@claim(P, "Sec 4.1.3 (Student-t calibration)",
       "eps-GP is achieved with T_nu(0, B*/eta), for appropriately chosen gamma > 0, nu > 2 and eta <= 2 sqrt(nu)/(nu+1) eps")
def sec413(quick):
    from ..certify.family_sup import enclose_rate

    eps = mp.mpf(1)
    # (1) the existential reading: a suitable (gamma, nu, eta) exists -- exhibited and proved: the arb enclosure of
    # the local rate sup_u [eta|psi| + gamma|1 + u psi|] (the certificate's local argument, gpaudit's own code on the
    # model's Student-t family) is <= eps, so M_nu is eps-GP for every f with B* its g_E-smooth sensitivity
    ch = SEC413_CHOICE
    nu_c = ch["nu"]
    bound = Fraction(2 * 2, nu_c + 1) * ch["eps"]  # 2 sqrt(4)/(4+1) eps
    budget = nu_c * ch["gamma"] + Fraction(nu_c + 1, 2 * 2) * ch["eta"]  # Lemma 3.5 with sqrt(4) = 2
    fam_c = StudentT(nu_c)
    enc = enclose_rate(fam_c.model, ch["eta"], ch["gamma"])
    grid_rate, _ = rate_sup(fam_c, mp.mpf(ch["gamma"].numerator) / ch["gamma"].denominator,
                            mp.mpf(ch["eta"].numerator) / ch["eta"].denominator)
    exhibit_ok = (ch["eta"] <= bound and budget <= ch["eps"] and enc.upper <= mp.mpf(ch["eps"].numerator) / ch["eps"].denominator
                  and enc.lower - mp.mpf(10) ** -8 <= grid_rate <= enc.upper + mp.mpf(10) ** -8)
    # (2) for nu > 2 and every eta < 2 sqrt(nu)/(nu+1) eps some gamma > 0 works (gamma from Lemma 3.5's budget):
    # the true worst-case local loss rate stays <= eps (sweep)
    nat_worst, n_nat = mp.mpf(-1), 0
    for nu in ([3] if quick else [mp.mpf("2.5"), 3, 5]):
        nu = mp.mpf(nu)
        for frac in ([mp.mpf("0.5"), mp.mpf("0.99")] if quick else [mp.mpf("0.1"), mp.mpf("0.5"), mp.mpf("0.9"), mp.mpf("0.99")]):
            eta = frac * 2 * mp.sqrt(nu) / (nu + 1) * eps
            g = (eps - (nu + 1) / (2 * mp.sqrt(nu)) * eta) / nu
            rate, _ = rate_sup(StudentT(nu), g, eta)
            n_nat += 1
            if rate / eps > nat_worst:
                nat_worst = rate / eps
    nat_ok = nat_worst <= 1 + mp.mpf(10) ** -10
    # (3) the citation: Lemma 3.3 applied to T_nu = GenCauchy(p = 2, theta = (nu+1)/2) at scale sqrt(nu) B/eta
    # (eta' = eta/sqrt(nu)) gives the same budget as Lemma 3.5 for nu >= 1
    import sympy as sp
    nu_s, g_s, e_s = sp.symbols("nu gamma eta", positive=True)
    l33 = sp.Max(g_s, (2 * (nu_s + 1) / 2 - 1) * g_s) + 1 * (nu_s + 1) / 2 * e_s / sp.sqrt(nu_s)
    l35 = nu_s * g_s + (nu_s + 1) / (2 * sp.sqrt(nu_s)) * e_s
    same = sp.simplify((l33 - l35).subs(sp.Max(g_s, nu_s * g_s), nu_s * g_s)) == 0
    # (4) every eta up to and including the bound, for some gamma > 0: fails at the boundary
    nu, g = 3, mp.mpf(1) / 100
    eta_b = 2 * mp.sqrt(nu) / (nu + 1) * eps
    rate_b, _ = rate_sup(StudentT(nu), g, eta_b)
    nat_grid = ("nu = 3, eta/eta_max in {0.5,0.99}" if quick else "nu in {2.5,3,5}, eta/eta_max in {0.1,0.5,0.9,0.99}")
    readings = [
        Reading("existential, as written: for appropriately chosen gamma > 0, nu > 2 and eta within the bound, "
                "M_nu is eps-GP (a suitable choice exists)", exhibit_ok,
                f"exhibited: nu = 4, eps = 1, eta = 2/5 <= 4/5 = 2 sqrt(nu)/(nu+1) eps, gamma = 1/8 (Lemma 3.5's budget "
                f"nu gamma + (nu+1)/(2 sqrt nu) eta = {budget}); gpaudit's certificate enclosure of the local rate "
                f"(certify.family_sup.enclose_rate, arb, the model's Student-t family) is [{dec(enc.lower, 12)}, "
                f"{dec(enc.upper, 12)}] <= eps = 1, and contains the 50-digit grid value {dec(grid_rate, 12)}"),
        Reading("for nu > 2 and every eta strictly below the bound some gamma > 0 works", nat_ok,
                f"gamma = (eps - (nu+1) eta/(2 sqrt nu))/nu > 0: true local loss rate <= eps at {n_nat} settings "
                f"({nat_grid}); max rate/eps = {dec(nat_worst, 8)} (finite sweep; it follows from Lemma 3.5, verified)"),
        Reading("for every eta up to and including the bound some gamma > 0 works", rate_b <= eps, reasonable=False, why=
                f"at eta = 2 sqrt(nu)/(nu+1) eps the shift term alone reaches eps (sup|psi| = (nu+1)/(2 sqrt nu)) and "
                f"any gamma > 0 adds to it: local rate {dec(rate_b, 10)} > 1 at nu = 3, gamma = 0.01. Not what the "
                f"sentence says: eta is among the 'appropriately chosen' parameters, and the bound is the gamma -> 0 "
                f"limit of Lemma 3.5's budget"),
    ]
    ev = (f"existential reading, proved for an exhibited choice: nu = 4, eps = 1, eta = 2/5, gamma = 1/8 (Lemma 3.5's "
          f"budget exactly eps); the arb enclosure of the true local loss rate, gpaudit's certificate code on the model's "
          f"Student-t family, is <= {dec(enc.upper, 12)} <= eps. Also: for every eta < 2 sqrt(nu)/(nu+1) eps, gamma from "
          f"Lemma 3.5's budget gives true local rate <= eps at {n_nat} settings ({nat_grid}; max rate/eps = "
          f"{dec(nat_worst, 8)}). The citation of Lemma 3.3 gives the same budget via the coincidence T_nu = "
          f"GenCauchy(2, (nu+1)/2) of Sec 2.1 (sympy: {'identical' if same else 'NOT identical'}), so it is harmless")
    if exhibit_ok and same:
        return Outcome("verified", ev, method="enclosure", readings=readings)
    return Outcome("unknown", "the exhibited choice was not proved: " + ev, method="enclosure", readings=readings)


@claim(P, "Claim 3.4", "sup_z |phi_c'(z)| = (c-1)^((c-1)/c) for phi_c(z) = ln(1 + z^c), c > 1")
def claim34(quick):
    worst = mp.mpf(0)
    cs = [mp.mpf("1.01"), mp.mpf("1.5"), 2, 3, 4, 10, 100]
    for c in cs:
        c = mp.mpf(c)
        dphi = lambda z: mp.diff(lambda t: mp.log1p(t ** c), z)
        zs = np.linspace(1e-6, 4, 4001)
        v = c * zs ** (float(c) - 1) / (1 + zs ** float(c))
        i = int(np.argmax(v))
        _, m = golden_max(dphi, zs[max(i - 1, 0)], zs[min(i + 1, len(zs) - 1)], 80)
        worst = max(worst, rel_err(m, (c - 1) ** ((c - 1) / c)))
    ok = worst < mp.mpf(10) ** -20
    sym_ok = claim34_sympy()
    return Outcome("verified" if ok else "refuted",
                   f"sympy (symbols c > 1, z > 0): phi_c'' = c z^(c-2)((c-1) - z^c)/(1+z^c)^2 ({sym_ok}), so phi_c' "
                   f"increases up to z0 = (c-1)^(1/c) and decreases after, and phi_c'(z0) = (c-1)^((c-1)/c) ({sym_ok}); "
                   f"corroborated: maximised mp.diff(ln(1+z^c)) by grid + golden (50 digits) for c in "
                   f"{{1.01,1.5,2,3,4,10,100}}; max rel. diff from (c-1)^((c-1)/c): {dec(worst, 3)}",
                   witness=None if ok else wit(max_rel_diff=worst), method="proof" if sym_ok else "sweep")


def claim34_sympy(bound=None):
    """sympy (c = 1 + k, k > 0, z > 0): the derivative of phi_c' factors as c z^(c-2)((c-1) - z^c)/(1+z^c)^2
    and phi_c' at (c-1)^(1/c) equals ``bound(c)`` (default (c-1)^((c-1)/c)) exactly."""
    import sympy as sp
    k, z = sp.symbols("k z", positive=True)
    c = 1 + k
    d1 = c * z ** (c - 1) / (1 + z ** c)
    fact = sp.simplify(sp.diff(d1, z) - c * z ** (c - 2) * ((c - 1) - z ** c) / (1 + z ** c) ** 2) == 0
    b = k ** (k / c) if bound is None else bound(c)
    val = sp.simplify(sp.powdenest(d1.subs(z, k ** (1 / c)), force=True) - b)
    return bool(fact and val == 0)


# --------------------------------------------------------------------------------------
# Section 4.1 and Appendix C.3: one-dimensional smooth sensitivities
#
# lemma41_B, c3_B (and lemma43_B below) are the paper's formulas re-typed as printed, on purpose: these
# claims check the paper against brute force, and using gpaudit's model there would make the check
# circular.  The model's closed forms (gpaudit.model.bounds, through model_bstar) are evaluated
# against the same brute force alongside, so that the verdict also covers the form the certificates use.
# --------------------------------------------------------------------------------------
def soft_threshold(T, tau):
    T, tau = mp.mpf(T), mp.mpf(tau)
    return PWL([(T - tau / 2, 0), (T + tau / 2, 1)])


def lemma41_B(x, T, tau, g):
    x, T, tau, g = (mp.mpf(v) for v in (x, T, tau, g))
    a = abs(x - T)
    if a <= tau / 2:
        return 1 / tau
    return max(1 / (a + tau / 2), mp.exp(-g * (a - tau / 2)) / tau)


def tent(l, r, tau):
    l, r, tau = mp.mpf(l), mp.mpf(r), mp.mpf(tau)
    return PWL([(l - tau / 2, 0), ((l + r) / 2, 1), (r + tau / 2, 0)])


def c3_B(x, l, r, tau, g):
    x, l, r, tau, g = (mp.mpf(v) for v in (x, l, r, tau, g))
    W = (r - l) / 2 + tau / 2
    if x < l - tau / 2:
        return max(1 / abs((l + r) / 2 - x), mp.exp(-g * abs(l - tau / 2 - x)) / W)
    if x > r + tau / 2:
        return max(1 / abs((l + r) / 2 - x), mp.exp(-g * abs(r + tau / 2 - x)) / W)
    return 1 / W


def _thr_xs(T, tau, g, quick=False):
    T, tau, g = mp.mpf(T), mp.mpf(tau), mp.mpf(g)
    offs = [mp.mpf("1e-6"), mp.mpf("0.05"), mp.mpf("0.4"), 1 / g - tau / 2, 1 / g, 3 / g, mp.mpf(40)]
    xs = [T]
    for o in offs:
        if o > 0:
            xs += [T - tau / 2 - o, T + tau / 2 + o]
    return xs


THR_PARAMS = [(0, 1, "0.1"), (0, 1, 1), (3, "0.5", 5), (-2, 2, "0.3"), (0, "0.1", 2)]


@claim(P, "Lemma 4.1", "g_E-smooth sensitivity of the soft threshold: max(1/(|x-T|+tau/2), e^{-gamma(|x-T|-tau/2)}/tau) outside the band, 1/tau inside")
def lemma41(quick):
    prm = THR_PARAMS[:2] if quick else THR_PARAMS
    model = lambda x, T, tau, g: model_bstar("soft_threshold", x, g, T=T, tau=tau)
    res = compare_ss_1d(soft_threshold, {"paper": lemma41_B, "model": model}, prm, _thr_xs)
    w, a, n = res["paper"]
    out = ss_outcome(w, a, n, "(T,tau,gamma) in " + str([tuple(float(v) for v in p) for p in prm]) +
                     ", x at band, near and far on both sides", ["T", "tau", "gamma"])
    return with_model(out, "soft_threshold", res["model"][0], res["model"][2], "the same brute-force B*")


@claim(P, "Lemma 4.1 (proof, final expression)",
       "the endpoint value is phi(tau) = (1/tau) e^{-gamma|x-T| - tau/2}", sweep=False)
def lemma41_proof(quick):
    T, tau, g, x = 0, 1, mp.mpf(1) / 10, -2
    f = soft_threshold(T, tau)
    B, z = smooth_sens_1d(f.L_np, f.L_mp, x, g, f.K, extra_pts=f.x)
    printed = max(1 / (abs(x - T) + mp.mpf(tau) / 2), mp.exp(-g * abs(x - T) - mp.mpf(tau) / 2) / tau)
    endpoint_true = f.L_mp(T - mp.mpf(tau) / 2) * mp.exp(-g * abs(x - (T - mp.mpf(tau) / 2)))
    printed_endpoint = mp.exp(-g * abs(x - T) - mp.mpf(tau) / 2) / tau
    # the intended value: phi(tau) = (1/tau) e^{-gamma(v_x - tau)} = (1/tau) e^{-gamma(|x-T| - tau/2)}, checked symbolically
    # and against brute force at several points
    import sympy as sp
    a_s, t_s, g_s = sp.symbols("a tau gamma", positive=True)  # a = |x - T| > tau/2
    vx = a_s + t_s / 2
    phi_tau = sp.exp(-g_s * (vx - t_s)) / t_s
    sym_ok = sp.simplify(phi_tau - sp.exp(-g_s * (a_s - t_s / 2)) / t_s) == 0
    worst_int = mp.mpf(0)
    for xx in [mp.mpf(-2), mp.mpf("-0.7"), mp.mpf(3), mp.mpf(12)]:
        Bx, _ = smooth_sens_1d(f.L_np, f.L_mp, xx, g, f.K, extra_pts=f.x)
        worst_int = max(worst_int, rel_err(lemma41_B(xx, T, tau, g), Bx))
    int_ok = sym_ok and worst_int < mp.mpf(10) ** -12
    if rel_err(printed, B) < 1e-12:
        return Outcome("verified", "printed expression agrees with brute force", method="exact")
    return Outcome("refuted", "as printed (e^{-gamma v_x - tau} = e^{-gamma|x-T| - tau/2}) the endpoint value is wrong: "
                              "parentheses are missing, phi(tau) = (1/tau) e^{-gamma(v_x - tau)}. The lemma's statement "
                              "e^{-gamma(|x-T| - tau/2)} is right. The note after the proof also prints "
                              "e^{-gamma|x-T| + tau/2} (the same missing parentheses).",
                   witness=wit(T=T, tau=tau, gamma=g, x=x, true_B=B, B_with_printed_term=printed,
                               true_endpoint_term=endpoint_true, printed_endpoint_term=printed_endpoint, z_star=z),
                   condition="read (1/tau) e^{-gamma(|x-T| - tau/2)}", method="exact",
                   severity="typo" if int_ok else "error",
                   intended=f"phi(tau) = (1/tau) e^{{-gamma(|x-T| - tau/2)}} (the lemma's statement): sympy shows "
                            f"phi(tau) simplifies to it ({'yes' if sym_ok else 'NO'}), and Lemma 4.1 with it matches "
                            f"brute-force B* at x in {{-2,-0.7,3,12}} (T=0, tau=1, gamma=0.1; max rel. diff "
                            f"{dec(worst_int, 3)})")


C3_PARAMS = [(0, 1, 1, "0.2"), (-1, 3, "0.5", 2), (2, "2.5", "0.3", "0.05"), (0, 4, 2, 1)]


def _c3_xs(l, r, tau, g):
    l, r, tau, g = (mp.mpf(v) for v in (l, r, tau, g))
    xs = [(l + r) / 2, l]
    for o in [mp.mpf("1e-6"), mp.mpf("0.1"), 1 / g, 4 / g, mp.mpf(30)]:
        xs += [l - tau / 2 - o, r + tau / 2 + o]
    return xs


@claim(P, "App. C.3 (bounded range)",
       "B*(x) = max(1/|(l+r)/2 - x|, e^{-gamma|edge - x|}/((r-l)/2+tau/2)) outside [l-tau/2, r+tau/2], 1/((r-l)/2+tau/2) inside")
def appc3(quick):
    prm = C3_PARAMS[:2] if quick else C3_PARAMS
    model = lambda x, l, r, tau, g: model_bstar("bounded_range", x, g, l=l, r=r, tau=tau)
    res = compare_ss_1d(tent, {"paper": c3_B, "model": model}, prm, _c3_xs)
    w, a, n = res["paper"]
    out = ss_outcome(w, a, n, "(l,r,tau,gamma) in " + str([tuple(float(v) for v in p) for p in prm]) +
                     "; x at the peak, band edge, near and far on both sides", ["l", "r", "tau", "gamma"],
                     cond="m, used but not defined in the display of f_tau, must be (l+r)/2")
    return with_model(out, "bounded_range", res["model"][0], res["model"][2], "the same brute-force B*")


# --------------------------------------------------------------------------------------
# Appendix C.1: the GenCauchy(0,1,4,1) sampler
# --------------------------------------------------------------------------------------
def H_c1(q):
    q = mp.mpf(q)
    s2 = mp.sqrt(2)
    return (mp.log((q * q + s2 * q + 1) / (q * q - s2 * q + 1)) + 2 * mp.atan(1 + s2 * q)
            - 2 * mp.atan(1 - s2 * q)) / (4 * s2)


def F_c1(q):
    q = mp.mpf(q)
    c = mp.sqrt(2) / mp.pi
    return mp.mpf(1) / 2 - c * H_c1(abs(q)) if q < 0 else mp.mpf(1) / 2 + c * H_c1(q)


@claim(P, "App. C.1 (sampler)", "H(q) = int_0^q dz/(1+z^4) has the printed closed form; F is the cdf of GenCauchy(0,1,4,1)")
def appc1(quick):
    worst = mp.mpf(0)
    for q in [mp.mpf("0.01"), mp.mpf("0.5"), 1, mp.mpf("1.7"), 5, 100, mp.mpf(10) ** 6]:
        num = mp.quad(lambda z: 1 / (1 + z ** 4), [0, min(q, 1), q] if q > 1 else [0, q])
        worst = max(worst, rel_err(H_c1(q), num))
    Finf = F_c1(mp.mpf(10) ** 30)
    Fm = F_c1(-mp.mpf(10) ** 30)
    mono = all(F_c1(a) < F_c1(b) for a, b in zip([-50, -2, -0.3, 0, 0.4, 3], [-2, -0.3, 0, 0.4, 3, 60]))
    dens = max(abs(mp.diff(F_c1, q) - mp.sqrt(2) / mp.pi / (1 + q ** 4)) for q in [-3, mp.mpf("-0.2"), mp.mpf("0.7"), 2])
    ok = worst < mp.mpf(10) ** -30 and abs(Finf - 1) < mp.mpf(10) ** -25 and abs(Fm) < mp.mpf(10) ** -25 and mono and dens < 1e-20
    return Outcome("verified" if ok else "refuted",
                   f"H vs quad at q in {{0.01,0.5,1,1.7,5,100,1e6}}: max rel. diff {dec(worst, 3)}; F(+inf) = {dec(Finf, 30)}, "
                   f"F(-inf) = {dec(Fm, 3)}; F increasing on a grid; F' = pdf within {dec(dens, 3)}",
                   witness=None if ok else wit(H_err=worst, F_inf=Finf))


# --------------------------------------------------------------------------------------
# Section 1 / 4.1.1: variances and the noise-a-priori MSE
# --------------------------------------------------------------------------------------
@claim(P, "Sec 1 / Table 1 (Laplace-based variances)",
       "f(x_i) + Lap(Delta_f/eps) gives an unbiased mean estimator with variance Delta_f^2/(eps^2 n) (Table 1; 1/(eps^2 n) "
       "in Sec 1), up to a constant factor", sweep=False)
def table1_var(quick):
    import sympy as sp
    y_s = sp.symbols("y", real=True)
    b_s, n_s, e_s, D_s = sp.symbols("b n epsilon Delta", positive=True)
    var_lap = sp.simplify(2 * sp.integrate(y_s ** 2 * sp.exp(-y_s / b_s) / (2 * b_s), (y_s, 0, sp.oo)))  # = 2 b^2
    var_mean = sp.simplify(n_s * var_lap.subs(b_s, D_s / e_s) / n_s ** 2)  # n iid noises, mean
    claimed_s = D_s ** 2 / (e_s ** 2 * n_s)
    ratio = sp.simplify(var_mean / claimed_s)
    eps, Df, n = mp.mpf(1), mp.mpf(1), 1
    b = Df / eps
    var = 2 * mp.quad(lambda y: y * y * mp.exp(-y / b) / (2 * b), [0, b, 10 * b, mp.inf]) / n
    claimed = Df ** 2 / (eps ** 2 * n)
    const = ratio.is_number and ratio > 0  # a constant factor, independent of n, eps, Delta
    readings = [
        Reading("up to a constant factor, the convention of the table's Variance row: its fourth column, with a generic "
                "Noise(B*/eps), can only be read so, and Sec 1.2 compares the same variances as Theta(1/(eps^2 n)) 'up "
                "to a constant-factor difference'", bool(const),
                f"sympy: the variance of the mean is {var_mean} = {ratio} x the printed value, a constant factor for "
                f"every n, eps, Delta (the K_f column likewise)"),
        Reading("exactly, for every n, eps, Delta", not (ratio != 1 and rel_err(var, claimed) > 1e-6),
                f"the exact variance is {ratio} x the printed one (quad at n = eps = Delta = 1: {dec(var, 15)}; "
                f"Var Lap(b) = 2 b^2)"),
    ]
    return Outcome("verified" if const else "unknown",
                   f"sympy: Var(mean of n iid Lap(0, Delta/eps)) = {var_mean}, i.e. {ratio} x the printed "
                   f"Delta^2/(eps^2 n) for every n, eps, Delta (same for the K_f column); quad at n = eps = Delta = 1: "
                   f"{dec(var, 15)}. The printed values are the variances up to the constant factor {ratio}, the "
                   f"precision at which the table (whose last column has a generic noise) and Sec 1.2 (Theta(1/(eps^2 "
                   f"n)) 'up to a constant-factor difference') compare them", method="proof", readings=readings)


def _mse_formula(xs, T, eps):
    n = len(xs)
    e = [mp.exp(-eps * abs(x - T)) for x in xs]
    side = [0 if x <= T else 1 for x in xs]
    s = sum(e) / (2 * n * n)
    for i in range(n):
        for j in range(n):
            if i != j:
                s += (1 if side[i] == side[j] else -1) * e[i] * e[j] / (4 * n * n)
    return s


def _mse_enum(xs, T, eps):
    """E[(A~ - A)^2] by enumerating the 3^n outcomes of the per-user errors."""
    opts = []
    for x in xs:
        q = mp.exp(-eps * abs(x - T)) / 2
        opts.append([(0, 1 - q), (1 if x <= T else -1, q)])
    tot = mp.mpf(0)
    n = len(xs)
    for combo in product(*opts):
        pr = mp.fprod(p for _, p in combo)
        tot += pr * (mp.mpf(sum(v for v, _ in combo)) / n) ** 2
    return tot


@claim(P, "Sec 4.1.1 (noise-a-priori MSE)", "MSE = (1/2n^2) sum e^{-eps|x_i-T|} + same-side pair terms - opposite-side pair terms (sums over i != j)")
def sec411_mse(quick):
    worst = mp.mpf(0)
    rng = np.random.default_rng(1)
    cases = [([0.3, 2.0, -1.0], 1.0, 0.7), ([1.0, 1.0, 1.5, 0.2], 1.0, 2.0), ([5.0, -3.0, 0.1, 0.4, 2.2], 0.0, 0.5)]
    if not quick:
        cases += [(list(rng.normal(0, 2, 6)), 0.5, 1.3)]
    for xs, T, eps in cases:
        xs = [mp.mpf(x) for x in xs]
        worst = max(worst, rel_err(_mse_formula(xs, mp.mpf(T), mp.mpf(eps)), _mse_enum(xs, mp.mpf(T), mp.mpf(eps))))
    ok = worst < mp.mpf(10) ** -40
    return Outcome("verified" if ok else "refuted",
                   f"exact enumeration of all 3^n error patterns (n <= 6, incl. a tie x_i = T) vs the printed MSE "
                   f"with ordered pairs i != j; max rel. diff {dec(worst, 3)}", witness=None if ok else wit(err=worst))


@claim(P, "Sec 4.1.1 (pair counts)",
       "|{(i,j) in I00 u I11: i != j}| = n0(n0-1)/2 + n1(n1-1)/2 and |I01 u I10| = n0 n1", sweep=False)
def sec411_counts(quick):
    import sympy as sp
    a_s, b_s = sp.symbols("n0 n1", nonnegative=True, integer=True)
    n_s = a_s + b_s
    printed_same = a_s * (a_s - 1) / 2 + b_s * (b_s - 1) / 2
    identity = sp.expand(printed_same - (n_s * (n_s - 1) / 2 - a_s * b_s)) == 0  # the printed middle '=' holds
    ordered_ok = unordered_ok = True
    for n0, n1 in product(range(13), repeat=2):
        I0 = set(range(n0))
        idx = range(n0 + n1)
        same_o = sum(1 for i, j in product(idx, repeat=2) if i != j and (i in I0) == (j in I0))
        opp_o = sum(1 for i, j in product(idx, repeat=2) if (i in I0) != (j in I0))
        same_u = sum(1 for i in idx for j in idx if i < j and (i in I0) == (j in I0))
        opp_u = sum(1 for i in idx for j in idx if i < j and (i in I0) != (j in I0))
        ordered_ok &= same_o == printed_same.subs({a_s: n0, b_s: n1}) and opp_o == n0 * n1
        unordered_ok &= same_u == printed_same.subs({a_s: n0, b_s: n1}) and opp_u == n0 * n1
    n0, n1 = 1, 1
    ev = (f"exhaustive over n0, n1 <= 12: ordered pairs (the paper's I_(m,k) and the MSE's sum over i != j) "
          f"{'match' if ordered_ok else 'are twice'} the printed counts; unordered pairs {{i,j}} "
          f"{'match' if unordered_ok else 'do not match'} them; sympy: the printed identity n0(n0-1)/2 + n1(n1-1)/2 = "
          f"n(n-1)/2 - n0 n1 {'holds' if identity else 'FAILS'}. Both counts are off by the same factor 2, so the "
          f"following comparison of the two sums is unaffected")
    if ordered_ok:
        return Outcome("verified", ev, method="exhaustive")
    return Outcome("refuted", ev, witness=wit(n0=n0, n1=n1, opposite_pairs=2 * n0 * n1, printed_opposite=n0 * n1,
                                              same_side_pairs=0, printed_same_side=0),
                   condition="the printed counts are for unordered pairs (halve the ordered counts)", method="exhaustive",
                   severity="minor" if (unordered_ok and identity) else "error",
                   intended="the counts of unordered pairs {i,j}: verified exhaustively for n0, n1 <= 12 and the identity "
                            "by sympy")

# --------------------------------------------------------------------------------------
# Section 4.2: two-way threshold (Claim 4.2, Lemma 4.3)
# --------------------------------------------------------------------------------------
def _geom(T1, T2, tau):
    R1 = tau / math.sqrt(2) if isinstance(tau, float) else tau / mp.sqrt(2)
    return R1, R1 + tau, T1 + tau / 2 + R1, T2 + tau / 2 + R1


def twoway_np(p, T1, T2, tau):
    """f_tau of Section 4.2, region by region as printed (boundaries closed where the
    printed regions leave a gap; f is continuous there)."""
    p = np.asarray(p, dtype=float)
    p1, p2 = p[..., 0], p[..., 1]
    R1, R2, c1, c2 = _geom(float(T1), float(T2), float(tau))
    T1, T2, tau = float(T1), float(T2), float(tau)
    r = np.hypot(p1 - c1, p2 - c2)
    box = (p1 <= c1) & (p2 <= c2)
    conds = [box & (r >= R1) & (r <= R2),
             (p1 >= T1 - tau / 2) & (p1 <= T1 + tau / 2) & (p2 > c2),
             (p2 >= T2 - tau / 2) & (p2 <= T2 + tau / 2) & (p1 > c1),
             box & (r > R2), (p1 <= T1 - tau / 2) & (p2 > c2), (p2 <= T2 - tau / 2) & (p1 > c1),
             box & (r < R1), (p1 > T1 + tau / 2) & (p2 >= c2), (p2 > T2 + tau / 2) & (p1 >= c1)]
    vals = [(R2 - r) / tau, (p1 - (T1 - tau / 2)) / tau, (p2 - (T2 - tau / 2)) / tau, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0]
    out = np.select(conds, vals, default=np.nan)
    if np.isnan(out).any():
        raise ValueError("point outside every printed region")
    return out


def _tw_region(p1, p2, T1, T2, tau, sqrt):
    """(region, r, R1, R2) of the printed partition of R^2 (region names as in the paper)."""
    R1 = tau / sqrt(2)
    R2, c1, c2 = R1 + tau, T1 + tau / 2 + R1, T2 + tau / 2 + R1
    r = sqrt((p1 - c1) ** 2 + (p2 - c2) ** 2)
    box = p1 <= c1 and p2 <= c2
    if box:
        reg = "t,a" if R1 <= r <= R2 else "0,a" if r > R2 else "1,a"
    elif T1 - tau / 2 <= p1 <= T1 + tau / 2 and p2 > c2:
        reg = "t,1"
    elif T2 - tau / 2 <= p2 <= T2 + tau / 2 and p1 > c1:
        reg = "t,2"
    elif p1 <= T1 - tau / 2 and p2 > c2:
        reg = "0,1"
    elif p2 <= T2 - tau / 2 and p1 > c1:
        reg = "0,2"
    else:
        reg = "1,3" if (p1 > c1 and p2 > c2) else "1,1" if p2 > c2 else "1,2"
    return reg, r, R1, R2


def twoway_scalar(p1, p2, T1, T2, tau, sqrt=math.sqrt):
    """Same function on one point: float arithmetic with ``sqrt=math.sqrt`` (fast, for
    the local search), or mpmath numbers with ``sqrt=mp.sqrt``."""
    reg, r, R1, R2 = _tw_region(p1, p2, T1, T2, tau, sqrt)
    vals = {"t,a": lambda: (R2 - r) / tau, "t,1": lambda: (p1 - (T1 - tau / 2)) / tau,
            "t,2": lambda: (p2 - (T2 - tau / 2)) / tau}
    return vals[reg]() if reg in vals else 0 * tau + (1 if reg[0] == "1" else 0)


def twoway_mp(p, T1, T2, tau):
    return twoway_scalar(mp.mpf(p[0]), mp.mpf(p[1]), mp.mpf(T1), mp.mpf(T2), mp.mpf(tau), sqrt=mp.sqrt)


def lemma43_B(z, T1, T2, tau, g):
    z1, z2 = mp.mpf(z[0]), mp.mpf(z[1])
    T1, T2, tau, g = (mp.mpf(v) for v in (T1, T2, tau, g))
    reg, r, R1, R2 = _tw_region(z1, z2, T1, T2, tau, mp.sqrt)
    one = lambda a, b: max(1 / a, mp.exp(-g * b) / tau)  # max(1/(dist to far edge), e^{-g dist to band}/tau)
    c1 = lambda: one(z1 - (T1 - tau / 2), z1 - (T1 + tau / 2))
    c2 = lambda: one(z2 - (T2 - tau / 2), z2 - (T2 + tau / 2))
    cases = {"0,1": lambda: one(T1 + tau / 2 - z1, T1 - tau / 2 - z1), "0,2": lambda: one(T2 + tau / 2 - z2, T2 - tau / 2 - z2),
             "0,a": lambda: one(r - R1, r - R2), "1,1": c1, "1,2": c2, "1,3": lambda: max(c1(), c2()),
             "1,a": lambda: one(R2 - r, R1 - r)}
    return cases[reg]() if reg in cases else 1 / tau


TW_PARAMS = [(2, 3, 1, "0.5"), (1, 1, "0.4", 3)]


def _tw_points(T1, T2, tau, g):
    T1, T2, tau, g = (mp.mpf(v) for v in (T1, T2, tau, g))
    R1, R2, c1, c2 = _geom(T1, T2, tau)
    a = [tau / 3, 1 / g + tau]
    s2 = 1 / mp.sqrt(2)
    pts = [(c1 - (R1 + tau / 2) * s2, c2 - (R1 + tau / 2) * s2), (T1, c2 + tau)]  # band
    for d in a:
        pts += [(T1 - tau / 2 - d, c2 + tau), (c1 + tau, T2 - tau / 2 - d),
                (c1 - (R2 + d) * mp.cos(mp.pi / 8), c2 - (R2 + d) * mp.sin(mp.pi / 8)),
                (c1 + d, c2 + 2 * d)]
    pts += [(T1 + tau / 2 + R1 / 3, c2 + tau), (c1 + tau, T2 + tau / 2 + R1 / 2),
            (c1 - R1 * s2 / 2, c2 - R1 * s2 / 2)]
    return pts


# The two-way f_tau is a function of one signed distance: with Q = [c1, oo) x [c2, oo) (c0 = (c1, c2)) and
# rho(p) = dist(p, Q) outside Q, -dist(p, boundary Q) inside, every printed case is f_tau(p) = phi(rho(p)) with
# phi(r) = clip((R2 - r)/tau, 0, 1) -- a decreasing one-way soft threshold with centre T' = R1 + tau/2 and width
# tau.  rho is 1-Lipschitz (signed distance to a closed convex set), and from every p there is a ray (the outward
# normal, or the nearest-side axis direction inside Q) along which rho changes at unit speed in both directions
# (down to 0 outside Q, up without bound).  Hence L_f(z) = L_phi(rho(z)) and
#   B*(x) = sup_z L_phi(rho(z)) e^{-gamma|x-z|} = sup_r L_phi(r) e^{-gamma|rho(x) - r|} = B*_1D(rho(x)),
# (|x - z| >= |rho(x) - rho(z)| with equality on the ray; r < rho(x) <= 0 is dominated by r = rho(x)), i.e. Lemma 4.3
# is Lemma 4.1 evaluated at rho(x) -- provided each printed case equals lemma41_B(rho(x), T', tau, gamma), which
# _tw_symbolic checks with sympy region by region.
def tw_rho(p1, p2, T1, T2, tau, sqrt=mp.sqrt):
    R1 = tau / sqrt(2)
    c1, c2 = T1 + tau / 2 + R1, T2 + tau / 2 + R1
    d1, d2 = c1 - p1, c2 - p2
    if d1 <= 0 and d2 <= 0:
        return max(d1, d2)
    return sqrt(max(d1, 0) ** 2 + max(d2, 0) ** 2)


def tw_reduced_B(z, T1, T2, tau, g):
    """B*_1D(rho(z)): Lemma 4.1's formula for the soft threshold of centre R1 + tau/2 at rho(z)."""
    T1, T2, tau, g = (mp.mpf(v) for v in (T1, T2, tau, g))
    r = tw_rho(mp.mpf(z[0]), mp.mpf(z[1]), T1, T2, tau)
    return lemma41_B(r, tau / mp.sqrt(2) + tau / 2, tau, g)


@lru_cache(maxsize=None)
def _tw_symbolic():
    """sympy, region by region: f_tau = phi(rho) and each printed case of Lemma 4.3 = Lemma 4.1 at rho.
    Returns (all identities hold, number of identities)."""
    import sympy as sp
    T1, T2, tau, g = sp.symbols("T1 T2 tau gamma", positive=True)
    z1, z2, r = sp.symbols("z1 z2 r", real=True)
    R1 = tau / sp.sqrt(2)
    R2 = R1 + tau
    c1, c2 = T1 + tau / 2 + R1, T2 + tau / 2 + R1
    Tp = R1 + tau / 2
    phi_lin = lambda rr: (R2 - rr) / tau
    A = lambda d1: 1 / (d1 + tau / 2)  # Lemma 4.1 terms at |rho - T'| = d1
    E = lambda d1: -g * (d1 - tau / 2)  # exponent of the second term
    zero = lambda e: sp.simplify(e) == 0
    ids = [
        # f_tau = phi(rho) on the band and at the region boundaries of the constant regions
        zero(phi_lin(c1 - z1) - (z1 - (T1 - tau / 2)) / tau),  # S_{tau,1}: rho = c1 - z1
        zero(phi_lin(c2 - z2) - (z2 - (T2 - tau / 2)) / tau),  # S_{tau,2}
        zero((c1 - (T1 - tau / 2)) - R2), zero((c2 - (T2 - tau / 2)) - R2),  # S_{0,1}, S_{0,2}: rho >= R2 (phi = 0)
        zero((c1 - (T1 + tau / 2)) - R1), zero((c2 - (T2 + tau / 2)) - R1),  # S_{1,1}, S_{1,2}: rho < R1 (phi = 1)
        # the printed cases = Lemma 4.1 at rho (d1 = rho - T' above the band, T' - rho below it)
        zero(A(c1 - z1 - Tp) - 1 / (T1 + tau / 2 - z1)), zero(E(c1 - z1 - Tp) + g * (T1 - tau / 2 - z1)),  # S_{0,1}
        zero(A(c2 - z2 - Tp) - 1 / (T2 + tau / 2 - z2)), zero(E(c2 - z2 - Tp) + g * (T2 - tau / 2 - z2)),  # S_{0,2}
        zero(A(r - Tp) - 1 / (r - R1)), zero(E(r - Tp) + g * (r - R2)),  # S_{0,alpha}: rho = r = |z - c0| > R2
        zero(A(Tp - (c1 - z1)) - 1 / (z1 - (T1 - tau / 2))), zero(E(Tp - (c1 - z1)) + g * (z1 - (T1 + tau / 2))),  # S_{1,1}
        zero(A(Tp - (c2 - z2)) - 1 / (z2 - (T2 - tau / 2))), zero(E(Tp - (c2 - z2)) + g * (z2 - (T2 + tau / 2))),  # S_{1,2}
        zero(A(Tp - r) - 1 / (R2 - r)), zero(E(Tp - r) + g * (R1 - r)),  # S_{1,alpha}: rho = r < R1
        # S_{1,3}: rho = max_k (c_k - z_k) < 0 and both terms increase with rho below the band, so Lemma 4.1 at rho
        # is the max over k of the S_{1,k} pairs above (already shown equal): the printed 4-term max
        zero(sp.diff(A(Tp - r), r) - 1 / (Tp - r + tau / 2) ** 2), zero(sp.diff(E(Tp - r), r) - g),
        # band S_{tau,*}: R1 <= rho <= R2 is exactly |rho - T'| <= tau/2
        zero(R2 - Tp - tau / 2), zero(Tp - R1 - tau / 2),
    ]
    return all(ids), len(ids)


def _tw_grid(T1m, T2m, taum, g, n):
    """The n coordinates (per axis) of the exhaustive grid of Lemma 4.3's checks."""
    R1, R2, c1, c2 = _geom(T1m, T2m, taum)
    lo, hi = min(T1m, T2m) - 4 * taum - 2 / mp.mpf(g), max(c1, c2) + 3 * taum
    return [lo + (hi - lo) * mp.mpf(i) / (n - 1) for i in range(n)], R2


def _tw_grid_check(T1, T2, tau, g, n):
    """Exhaustive grid: printed lemma43_B vs B*_1D(rho) (mpmath) and twoway_np vs phi(rho) (floats)."""
    T1m, T2m, taum = (mp.mpf(v) for v in (T1, T2, tau))
    pts, R2 = _tw_grid(T1m, T2m, taum, g, n)
    worst_B, worst_f = mp.mpf(0), 0.0
    tf = [float(v) for v in (T1m, T2m, taum)]
    R2f = float(R2)
    regions = set()
    for a in pts:
        for b in pts:
            regions.add(_tw_region(a, b, T1m, T2m, taum, mp.sqrt)[0])
            worst_B = max(worst_B, rel_err(lemma43_B((a, b), T1m, T2m, taum, g), tw_reduced_B((a, b), T1m, T2m, taum, g)))
            r = tw_rho(float(a), float(b), *tf, sqrt=math.sqrt)
            worst_f = max(worst_f, abs(twoway_scalar(float(a), float(b), *tf) - min(1.0, max(0.0, (R2f - r) / tf[2]))))
    if len(regions) < 10:  # t,a t,1 t,2 0,a 0,1 0,2 1,a 1,1 1,2 1,3
        raise AssertionError(f"grid misses regions: {sorted(regions)}")
    return worst_B, worst_f, n * n


def _tw_model_grid(T1, T2, tau, g, n):
    """The same grid: gpaudit's closed form (two_way_bound) vs B*_1D(rho).  Returns (max rel. diff, points)."""
    T1m, T2m, taum = (mp.mpf(v) for v in (T1, T2, tau))
    pts, _ = _tw_grid(T1m, T2m, taum, g, n)
    worst = mp.mpf(0)
    for a in pts:
        for b in pts:
            model = model_bstar("two_way_threshold", (a, b), g, T1=T1m, T2=T2m, tau=taum)
            worst = max(worst, rel_err(model, tw_reduced_B((a, b), T1m, T2m, taum, g)))
    return worst, n * n


@claim(P, "Claim 4.2", "the two-way threshold f_tau is (1/tau)-Lipschitz on R^2", sweep=False)
def claim42(quick):
    rng = np.random.default_rng(42)
    worst, warg = -1.0, None
    n_tot = 0
    for T1, T2, tau, _ in TW_PARAMS:
        T1, T2, tau = float(T1), float(T2), float(tau)
        R1, R2, c1, c2 = _geom(T1, T2, tau)
        lo, hi = min(T1, T2) - 3 * tau, max(c1, c2) + 3 * tau
        N = 60000 if quick else 300000
        p = rng.uniform(lo, hi, (N, 2))
        # half the pairs short (across region boundaries), half long
        d = np.where(rng.random(N) < 0.5, np.exp(rng.uniform(np.log(1e-7), np.log(2 * tau), N)), rng.uniform(0, hi - lo, N))
        th = rng.uniform(0, 2 * np.pi, N)
        q = p + d[:, None] * np.stack([np.cos(th), np.sin(th)], 1)
        ratio = np.abs(twoway_np(q, T1, T2, tau) - twoway_np(p, T1, T2, tau)) / np.linalg.norm(q - p, axis=1) * tau
        n_tot += N
        for i in np.argsort(-ratio)[:5]:
            pm, qm = [mp.mpf(float(v)) for v in p[i]], [mp.mpf(float(v)) for v in q[i]]
            dm = mp.sqrt((pm[0] - qm[0]) ** 2 + (pm[1] - qm[1]) ** 2)
            r = abs(twoway_mp(qm, T1, T2, tau) - twoway_mp(pm, T1, T2, tau)) / dm * tau
            if r > worst:
                worst, warg = r, dict(T1=T1, T2=T2, tau=tau, p1=pm[0], p2=pm[1], q1=qm[0], q2=qm[1], ratio_times_tau=r)
    ok = worst <= 1 + mp.mpf(10) ** -30
    sym_ok, n_ids = _tw_symbolic()
    _, worst_f, n_grid = _tw_grid_check(2, 3, 1, "0.5", 31 if quick else 45)
    ev = (f"proof: f_tau = phi(rho) with rho the signed distance to the quarter plane [c1,oo) x [c2,oo) (1-Lipschitz, "
          f"convex set) and phi(r) = clip((R2 - r)/tau, 0, 1) ((1/tau)-Lipschitz), so f_tau is (1/tau)-Lipschitz; the "
          f"representation holds region by region (sympy, {n_ids} identities: {'all hold' if sym_ok else 'SOME FAIL'}; "
          f"grid of {n_grid} points: max |f_tau - phi(rho)| = {worst_f:.1e}). Corroborated by {n_tot} random pairs "
          f"(half at distances 1e-7..2 tau across region boundaries) for (T1,T2,tau) in {{(2,3,1),(1,1,0.4)}}; top "
          f"ratios re-evaluated at 50 digits: max tau*|df|/|dp| = {dec(worst, 12)}")
    if ok and not (sym_ok and worst_f < 1e-12):
        return Outcome("verified", ev + " (the symbolic reduction did not go through: sweep only)", method="sweep")
    return Outcome("verified" if ok else "refuted", ev, method="proof",
                   witness=None if ok else {k: dec(v) for k, v in warg.items()})


@claim(P, "Lemma 4.3", "closed-form g_E-smooth sensitivity of the two-way threshold f_tau (8 region cases)", sweep=False)
def lemma43(quick):
    # (1) proof: reduction to Lemma 4.1 (see the comment above tw_rho) + sympy region identities
    sym_ok, n_ids = _tw_symbolic()
    # (2) exhaustive grid: the printed 8-case formula = B*_1D(rho(x)) (every region, incl. boundaries)
    worst_red, n_grid = mp.mpf(0), 0
    worst_model = mp.mpf(0)
    for prm in (TW_PARAMS[:1] if quick else TW_PARAMS):
        wB, _, ng = _tw_grid_check(*prm, 31 if quick else 45)  # raises unless all 10 regions are hit
        worst_red, n_grid = max(worst_red, wB), n_grid + ng
        worst_model = max(worst_model, _tw_model_grid(*prm, 31 if quick else 45)[0])
    # (3) adversarial corroboration of the reduction itself: search over (z, w) in R^4 at points in every region
    worst_lo, worst_hi, warg, n = mp.mpf(0), mp.mpf(0), None, 0
    for prm in (TW_PARAMS[:1] if quick else TW_PARAMS):
        T1, T2, tau, g = prm
        pts = _tw_points(*prm)
        pts = pts[::4] if quick else pts[::3]
        fnp = lambda p: twoway_np(p, T1, T2, tau)
        fmp = lambda p: twoway_mp(p, T1, T2, tau)
        tf = [float(mp.mpf(v)) for v in (T1, T2, tau)]
        fsc = lambda a, b: twoway_scalar(a, b, *tf)
        for x in pts:
            xf = [float(x[0]), float(x[1])]
            xm = [mp.mpf(xf[0]), mp.mpf(xf[1])]
            B, z, w = smooth_sens_2d(fnp, fmp, xf, float(mp.mpf(g)), 1 / float(mp.mpf(tau)), float(mp.mpf(tau)),
                                     f_scalar=fsc)
            Bp = lemma43_B(xm, T1, T2, tau, g)
            n += 1
            up = (B - Bp) / Bp  # brute force above the formula: formula too small
            if up > worst_lo:
                worst_lo, warg = up, dict(T1=T1, T2=T2, tau=tau, gamma=g, x1=xm[0], x2=xm[1], paper_B=Bp,
                                          objective_at_zw=B, z1=z[0], z2=z[1], w1=w[0], w2=w[1])
            worst_hi = max(worst_hi, (Bp - B) / Bp)
    def done(out):  # the model's closed form, against the reduction proved below, on the grid of (2)
        return with_model(out, "two_way_threshold", worst_model, n_grid, "B*_1D(rho(x)) (Lemma 4.1 at rho(x), by the "
                          "reduction above) on the same exhaustive grid")

    if worst_lo > mp.mpf(10) ** -7:
        return done(Outcome("refuted", f"brute force exceeds the closed form ({n} points)",
                            witness={k: dec(v) for k, v in warg.items()}, method="adversarial", severity="error"))
    ev = (f"proof: f_tau = phi(rho(.)) with rho the signed distance to the quarter plane [c1,oo) x [c2,oo) and phi a "
          f"one-way soft threshold (centre R1 + tau/2, width tau); rho is 1-Lipschitz and changes at unit speed along "
          f"a ray from every point, so L_f(z) = L_phi(rho(z)) and B*(x) = B*_1D(rho(x)), Lemma 4.1 at rho(x). sympy "
          f"checks that each of the 8 printed cases equals Lemma 4.1 at rho on its region ({n_ids} identities: "
          f"{'all hold' if sym_ok else 'SOME FAIL'}); exhaustive grid of {n_grid} points hitting all 10 regions for (T1,T2,tau,"
          f"gamma) in {{(2,3,1,0.5),(1,1,0.4,3)}}: max rel. diff printed vs reduced = {dec(worst_red, 3)}. Adversarial "
          f"corroboration of the reduction: {n} points x in every region, search over (z,w) in R^4 (polar grids in the "
          f"window |z-x| <= ln(K/L(x))/gamma, Nelder-Mead, objective re-evaluated at 50 digits); max (brute-paper)/paper "
          f"= {dec(worst_lo, 3)}, max (paper-brute)/paper = {dec(worst_hi, 3)}. Lemma 4.1 itself is checked by its own "
          f"entry")
    if not sym_ok or worst_red > mp.mpf(10) ** -30:
        if worst_hi > mp.mpf(10) ** -6:
            return done(Outcome("unknown", ev + " (the search did not reach the closed-form value everywhere)",
                                method="adversarial"))
        return done(Outcome("verified", ev + " (the reduction did not go through: adversarial search only)",
                            method="adversarial"))
    if worst_hi > mp.mpf(10) ** -6:
        return done(Outcome("unknown", ev + " (the search did not reach the closed-form value everywhere, against the proof)",
                            method="proof"))
    return done(Outcome("verified", ev, method="proof"))


# --------------------------------------------------------------------------------------
# Section 4.3: Gaussian KDE (Claim 4.4, Lemmas 4.6, 4.7); t = 0
# --------------------------------------------------------------------------------------
def _kde(h):
    h = float(h)
    f_np = lambda u: np.exp(-np.asarray(u) ** 2 / (2 * h * h))
    df_np = lambda u: -np.asarray(u) / (h * h) * np.exp(-np.asarray(u) ** 2 / (2 * h * h))
    hm = mp.mpf(h)
    f_mp = lambda u: mp.exp(-mp.mpf(u) ** 2 / (2 * hm * hm))
    return f_np, df_np, f_mp


def kde_bstar(x, h, g):
    f_np, df_np, f_mp = _kde(h)
    K = mp.exp(-mp.mpf(1) / 2) / mp.mpf(h) * (1 + mp.mpf(10) ** -9)  # window only; any upper bound works
    return smooth_sens_smooth(f_np, df_np, f_mp, x, g, K, -14 * float(h), 14 * float(h))


def lemma46_B(x, h, g, printed=True):
    """Lemma 4.6 evaluated as printed (printed=True) or with the two evident typos fixed:
    phi_0's first term e^{-c_z^2 c^2/2}, and e^{-c^2/2} in the S_2 candidate."""
    h, g = mp.mpf(h), mp.mpf(g)
    c = abs(mp.mpf(x)) / h
    phi1 = lambda gg: h / (2 * c) * (gg + mp.sqrt(gg ** 2 + 4 / h ** 2))
    if printed:
        phi0 = lambda cw, cz: mp.exp(-cw ** 2 * c ** 2 / 2) - (1 + c ** 2 * (cw - cz) * cw) * mp.exp(-cw ** 2 * c ** 2 / 2)
        e2 = mp.exp(-c ** 2)
    else:
        phi0 = lambda cw, cz: mp.exp(-cz ** 2 * c ** 2 / 2) - (1 + c ** 2 * (cw - cz) * cw) * mp.exp(-cw ** 2 * c ** 2 / 2)
        e2 = mp.exp(-c ** 2 / 2)
    val1 = lambda cw, cz: c / h * cw * mp.exp(-cw ** 2 * c ** 2 / 2) / mp.exp(g * abs(cz - 1) * c * h)
    cands = [c / h * mp.exp(-c ** 2 / 2)]
    cw = phi1(-g)
    cands += [val1(cw, cz) for cz in scan_roots(lambda cz: phi0(cw, cz), 1 + mp.mpf(10) ** -20, 1 + 30 / c) if cz > 1]
    cw = phi1(g)
    cands += [val1(cw, cz) for cz in scan_roots(lambda cz: phi0(cw, cz), 0, 1 - mp.mpf(10) ** -20) if cz < 1]
    for cw in [mp.mpf(0)] + scan_roots(lambda cw: phi0(cw, 1), 0, 1 + 30 / c):
        if abs(cw - 1) > mp.mpf(10) ** -15:
            cands.append(abs(mp.exp(-cw ** 2 * c ** 2 / 2) - e2) / (abs(cw - 1) * c * h))
    for cz, ok in ((phi1(-g), lambda v: v > 1), (phi1(g), lambda v: v < 1)):
        if ok(cz):
            cands.append(val1(cz, cz))
    return max(cands)


def lemma47_B(h, g, printed=True):
    """Lemma 4.7 as printed, or without the extra factor l_z in the S_1 term (the form its
    own derivation in App. A.4 gives)."""
    h, g = mp.mpf(h), mp.mpf(g)
    phi1 = lambda cw: h / (2 * cw ** 2) * (-g + mp.sqrt(g ** 2 + 4 * cw ** 2 / h ** 2))
    phi0 = lambda cw, lz: mp.exp(-lz ** 2 / 2) - (1 + lz ** 2 * (cw - 1) * cw) * mp.exp(-cw ** 2 * lz ** 2 / 2)
    cands = []
    for cw in scan_roots(lambda cw: phi0(cw, phi1(cw)), mp.mpf("0.002"), 10, 1500) + [mp.mpf(1)]:
        lz = phi1(cw)
        s1 = cw * lz * mp.exp(-cw ** 2 * lz ** 2 / 2) / mp.exp(g * lz * h)
        cands.append(lz / h * s1 if printed else s1 / h)
    lw = mp.sqrt(-2 * mp.lambertw(-mp.exp(-mp.mpf(1) / 2) / 2, -1).real - 1)
    cands.append(abs(mp.exp(-lw ** 2 / 2) - 1) / (lw * h))
    lz = phi1(mp.mpf(1))
    cands.append(lz / h * mp.exp(-lz ** 2 / 2) / mp.exp(g * lz * h))
    return max(cands)


@claim(P, "Claim 4.4", "|kappa_t(x) - kappa_t(x')| <= e^{-1/2}/h |x - x'| (and the constant is the Lipschitz constant)")
def claim44(quick):
    worst_over, worst_gap = mp.mpf(-1), mp.mpf(0)
    for h in [mp.mpf("0.5"), 1, 3]:
        h = mp.mpf(h)
        f_np, df_np, f_mp = _kde(h)
        u = np.linspace(-10 * float(h), 10 * float(h), 3001)
        U, V = u[:, None], u[None, :]
        with np.errstate(divide="ignore", invalid="ignore"):
            S = np.abs(f_np(U) - f_np(V)) / np.where(U != V, np.abs(U - V), np.inf)
        i, j = np.unravel_index(np.argmax(S), S.shape)
        sec = abs(f_mp(u[i]) - f_mp(u[j])) / abs(mp.mpf(u[i]) - mp.mpf(u[j]))
        _, dmax = golden_max(lambda z: abs(mp.diff(f_mp, z)), 0.5 * float(h), 1.5 * float(h), 90)
        K = mp.exp(-mp.mpf(1) / 2) / h
        worst_over = max(worst_over, sec / K - 1, dmax / K - 1)
        worst_gap = max(worst_gap, abs(dmax / K - 1))
    ok = worst_over <= mp.mpf(10) ** -30 and worst_gap < mp.mpf(10) ** -20
    return Outcome("verified" if ok else "refuted",
                   f"h in {{0.5,1,3}}: max secant over a 3001^2 grid of pairs and max |kappa'| (golden, mp.diff) vs e^(-1/2)/h; "
                   f"max (value/K - 1) = {dec(worst_over, 3)}, |sup|kappa'|/K - 1| = {dec(worst_gap, 3)}",
                   witness=None if ok else wit(excess=worst_over))


KDE46 = [(1, "0.2"), (1, 1), (2, "0.2"), (2, 1)]
KDE47 = [(1, "0.5"), (1, 2), (2, "0.3"), ("0.5", 1)]


@lru_cache(maxsize=None)
def _kde_true(x, h, g):
    return kde_bstar(mp.mpf(x), mp.mpf(h), mp.mpf(g))


def _check_kde(points, formula):
    return compare_closed_form(points, lambda x, h, g: _kde_true(str(x), str(h), str(g)), formula,
                               ("x", "h", "gamma"), extra=dict(t=0))


def _kde_outcome(worst, warg, n, what, cond):
    return closed_form_outcome(worst, warg, n, what + ": brute-force B*(x) (grid over (z,w) + nested golden refinement at "
                               "50 digits; the true value is the objective at a concrete (z*,w*))", cond)


def _pts46(quick):
    return [(mp.mpf(xr) * mp.mpf(h), h, g) for h, g in (KDE46[:2] if quick else KDE46)
            for xr in (["3"] if quick else ["0.5", "1.5", "3"])]


def _kde_readings(pts, forms):
    """Check every reading (label, formula) of a KDE lemma at ``pts``; returns the readings, the witness of
    the most charitable failing reading (the last), and the per-reading worst relative differences."""
    out, worst, witness = [], {}, None
    for label, formula in forms:
        w, first, n = _check_kde(pts, formula)
        worst[label] = w
        ok = w < mp.mpf(10) ** -9
        out.append((label, ok, w, first, n))
        if not ok:
            witness = first
    return out, witness, worst


def _kde_verdict(results, witness, what, defect, readings_text, cond):
    readings = [Reading(readings_text[label], ok, (f"max rel. diff {dec(w, 4)} over {n} points" if ok else
                                                    f"max rel. diff {dec(w, 4)} over {n} points; {defect[label]}"))
                for label, ok, w, first, n in results]
    ev = (f"{what}: brute-force B*(x) (grid over (z,w) + nested golden refinement at 50 digits; the true value is the "
          f"objective at a concrete (z*,w*)); " + "; ".join(f"{label}: max rel. diff {dec(w, 4)}"
                                                           for label, ok, w, first, n in results))
    if any(ok for _, ok, _, _, _ in results):
        return Outcome("verified", ev, readings=readings)
    return Outcome("refuted", ev + ". " + defect["why"], witness={k: dec(v) for k, v in witness.items()},
                   condition=cond, readings=readings)


@claim(P, "Lemma 4.6", "closed-form B*(x), x != t, for the Gaussian kernel (sets S_1, S_2, S_3 via phi_0, phi_1), as printed "
                       "and with its two evident typos corrected")
def lemma46(quick):
    pts = _pts46(quick)
    res, witness, _ = _kde_readings(pts, [("as printed", lambda x, h, g: lemma46_B(x, h, g, True)),
                                          ("typos corrected", lambda x, h, g: lemma46_B(x, h, g, False))])
    why = ""
    if witness is not None:
        # where the true maximiser lies against the S_1 candidates (c = |x-t|/h, c_z = z*/x, c_w = w*/x)
        x, h, g = (mp.mpf(witness[k]) for k in ("x", "h", "gamma"))
        c = abs(x) / h
        cz, cw = mp.mpf(witness["z_star"]) / x, (mp.mpf(witness["w_star"]) / x if not isinstance(witness["w_star"], str)
                                                else None)
        phi1 = lambda gg: h / (2 * c) * (gg + mp.sqrt(gg ** 2 + 4 / h ** 2))
        fixed = phi1(-g) if cz > 1 else phi1(g)
        why = (f"At the witness the true maximiser has c_z* = z*/x = {dec(cz, 6)} and c_w* = w*/x = "
               f"{dec(cw, 6) if cw is not None else 'tangent'}, while S_1 fixes c_w = phi_1({'-' if cz > 1 else ''}gamma) = "
               f"{dec(fixed, 6)}: the stationarity system of the S_1 case (c_w from differentiating the objective after "
               f"substituting the c_w-stationarity condition) is not the joint stationarity of the objective, so the "
               f"maximiser is missed. With the typos corrected the formula is closer but still below the true B*(x)")
    return _kde_verdict(res, witness, "h in {1,2}, gamma in {0.2,1}, |x-t|/h in {0.5,1.5,3}",
                        {"as printed": "phi_0 as printed (e^{-c_w^2c^2/2} in both terms) vanishes only at c_w in {0, c_z}, "
                                       "and the S_2 candidate uses e^{-c^2} where e^{-c^2/2} is meant",
                         "typos corrected": "the S_1 case misses the interior maximiser (see the evidence)", "why": why},
                        {"as printed": "as printed (S_1, S_2, S_3, phi_0, phi_1 exactly as printed)",
                         "typos corrected": "with the two evident typos corrected: phi_0's first exponent -c_z^2 c^2/2 (as in "
                                            "App. A.5 eq. (2)) and e^{-c^2/2} in the S_2 candidate"},
                        "a closed form whose S_1 case solves the joint stationarity of the objective in (c_w, c_z); "
                        "gpaudit computes the KDE's B* numerically")


def lemma47_s1_roots(h, g):
    """The non-degenerate points of Lemma 4.7's S_1: roots c_w != 1 of phi_0(c_w, phi_1(c_w)) on
    [-10, -0.002] u [0.002, 10] (c_w = 1 is w = z, where the difference quotient is undefined)."""
    h, g = mp.mpf(h), mp.mpf(g)
    phi1 = lambda cw: h / (2 * cw ** 2) * (-g + mp.sqrt(g ** 2 + 4 * cw ** 2 / h ** 2))
    phi0 = lambda cw, lz: mp.exp(-lz ** 2 / 2) - (1 + lz ** 2 * (cw - 1) * cw) * mp.exp(-cw ** 2 * lz ** 2 / 2)
    F = lambda cw: phi0(cw, phi1(cw))
    roots = scan_roots(F, mp.mpf("0.002"), 10, 1500) + scan_roots(F, -10, mp.mpf("-0.002"), 1500)
    return [r for r in roots if abs(r - 1) > mp.mpf(10) ** -6]


@claim(P, "Lemma 4.7", "closed-form B*(t) at x = t for the Gaussian kernel, as printed and with the S_1 term as derived")
def lemma47(quick):
    prm = KDE47[:1] if quick else KDE47
    pts = [(0, h, g) for h, g in prm]
    res, witness, _ = _kde_readings(pts, [("as printed", lambda x, h, g: lemma47_B(h, g, True)),
                                          ("S_1 term as derived", lambda x, h, g: lemma47_B(h, g, False))])
    empty = [not lemma47_s1_roots(h, g) for h, g in prm]
    interior, s2_value = [], []
    lw = mp.sqrt(-2 * mp.lambertw(-mp.exp(-mp.mpf(1) / 2) / 2, -1).real - 1)
    for h, g in prm:
        B, z, w = _kde_true("0", str(mp.mpf(h)), str(mp.mpf(g)))
        interior.append(z != 0 and w is not None and w != z)
        s2 = abs(mp.exp(-lw ** 2 / 2) - 1) / (lw * mp.mpf(h))
        s2_value.append(abs(lemma47_B(h, g, True) - s2) < mp.mpf(10) ** -30 * s2)
    why = (f"What makes it fail is not the extra factor l_z: S_1 has no point with c_w != 1 (c_w = 1 is w = z, where "
           f"the difference quotient is undefined) at {sum(empty)} of {len(prm)} tested (h, gamma) (roots of "
           f"phi_0(c_w, phi_1(c_w)) on [-10,-0.002] u [0.002,10]), so the S_1 term is evaluated only at that degenerate point, "
           f"where it is not the maximum in either form, and both forms give the same B*(t). "
           f"The true B*(t) is attained at an interior pair z* != t, w* != z* at {sum(interior)} of {len(prm)} tested "
           f"(h, gamma), which none of S_1 (only c_w = 1), S_2 (z = t) and S_3 (w -> z) contains; the formula's value is "
           f"the S_2 candidate at {sum(s2_value)} of {len(prm)}")
    return _kde_verdict(res, witness, "(h,gamma) in {(1,0.5),(1,2),(2,0.3),(0.5,1)}",
                        {"as printed": "misses the interior maximiser (see the evidence)",
                         "S_1 term as derived": "misses the interior maximiser; the l_z factor plays no part (see the "
                                                "evidence)", "why": why},
                        {"as printed": "as printed",
                         "S_1 term as derived": "with the S_1 term as its own derivation in App. A.4 gives it (no extra "
                                                "factor l_z)"},
                        "a closed form whose candidate sets contain the interior maximiser (z* != t, w* != z*); "
                        "gpaudit computes the KDE's B* numerically")


# --------------------------------------------------------------------------------------
# claims added after an end-to-end reading (Sections 3.1, 5, Appendices A.1, A.2, B.2)
# --------------------------------------------------------------------------------------
QUOTES.update({
    "Corollary 3.1": (
        r"Let $f : U \rightarrow V$ be Λ -locally K -Lipschitz. A mechanism which on input x draws a $y \in V$ with $\text{pdf} \propto e^{-\frac{K}{\varepsilon} \text{dist}_V(f(x), y)}$, is $(\varepsilon, 0, \Lambda)$ -GP.",
        "V = R, dist_V = |.|, f(x) = K x (globally, hence Lambda-locally, K-Lipschitz): the density "
        "prop. to e^{-s|y - f(x)|} is eps-GP iff s K <= eps; printed s = K/eps, intended (Lemma 2.3, from which the "
        "corollary is 'immediately' derived) s = eps/K", None),
    "Sec 5 (M_3 calibration)": (
        r"where $\varepsilon = \nu\gamma + \frac{\nu+1}{2\sqrt{\nu}}\eta$. We set $\nu = 3, \nu\gamma = \frac{1}{3}\varepsilon$ in our experiments.",
        "nu = 3, gamma = eps/9 and eta solved from the budget (eta = eps/sqrt(3)) satisfy Lemma 3.5 with equality, "
        "meet Sec 4.1.3's eta <= 2 sqrt(nu)/(nu+1) eps, and the true worst-case loss rate of M_3 is <= eps (the rate "
        "is homogeneous in (gamma, eta), so eps = 1 covers every eps)", None),
    "App. B.2 (M_1 bias bound)": (
        r"Thus $\mathbb{E}[M_1(x)] \geq e^{-\frac{\|x-t\|^2}{2h^2}} e^{\frac{1}{\varepsilon^2 h^2} (\frac{\|x-t\|^2}{h^2} - 1)}$, i.e. $M_1(x)$ is positively biased for $\|x-t\| > h$ and $\varepsilon h > 1$.",
        "M_1(x) = exp(-(d + Z)^2/(2h^2)) with one draw Z ~ Lap(0, 1/eps), d = ||x-t||; in the range where the "
        "preceding MGF step applies (d/(eps h^2) < 1) and under the stated d > h, eps h > 1: (i) E[M_1(x)] >= "
        "e^{-d^2/(2h^2)} e^{(d^2/h^2 - 1)/(eps^2 h^2)} and (ii) E[M_1(x)] > e^{-d^2/(2h^2)}. The two preceding "
        "displays (the Laplace MGF and the Jensen bound on E[e^{-Z^2/(2h^2)}]) are checked too", None),
    "App. A.2 (Claim 4.2 proof, case (3))": (
        r"\|x_i - x_j\| \geq \sqrt{2}R_1 = \sqrt{2} \cdot \frac{\tau}{\sqrt{2}} = \tau \geq \tau \cdot |f_\tau(x_i) - f_\tau(x_j)|.",
        "inf { |p - q| : p in S_{tau,1}, q in S_{tau,2} } >= sqrt(2) R1 = tau for all T1, T2, tau > 0", None),
    "App. A.2 (Claim 4.2 proof, case (2) display)": (
        r"&= (T_2 + \tau/2 + R_1) - x_{j,2} - \|x_i - c_0\| \\ &= \sqrt{((T_2 + \tau/2 + R_1) - x_{j,2})^2 - \|x_i - c_0\|^2} \\",
        "the printed equality A - b = sqrt(A^2 - b^2) with A = c2 - x_{j,2}, b = ||x_i - c0||, for x_i in S_{tau,alpha}, "
        "x_j in S_{tau,2}; intended (as the next lines need): A - b = sqrt(A^2) - b <= sqrt(A^2 + B^2) - b = "
        "||x_j - c0|| - ||x_i - c0|| <= ||x_j - x_i|| with B = c1 - x_{j,1}", None),
    "Lemma 3.6 (proof, tail bound)": (
        r"Now since $|Z| \leq \ln(1/\delta)$ with probability at least $1 - \delta$, the desired inequality follows.",
        "Z ~ Lap(0, 1): P(|Z| <= ln(1/delta)) >= 1 - delta for every delta in (0, 1)", None),
})


def laplace_type_rate(s, K):
    """Exact max over a rational grid of (x, x', y) of ln(p_x(y)/p_x'(y))/|x - x'| for the density prop. to
    e^{-s|y - K x|} on R (the normaliser does not depend on x).  Equals s K (triangle inequality)."""
    from fractions import Fraction as Fr
    K, s = Fr(K), Fr(s)
    grid = [Fr(i, 4) for i in range(-12, 13)]
    lr = lambda x, xp, y: s * (abs(y - K * xp) - abs(y - K * x))
    return max(lr(x, xp, y) / abs(x - xp) for x in grid[::3] for xp in grid[::3] if x != xp for y in grid)


@claim(P, "Corollary 3.1", "the Laplace-type mechanism with pdf prop. to e^{-(K/eps) dist_V(f(x), y)} is (eps, 0, Lambda)-GP",
       sweep=False)
def cor31(quick):
    from fractions import Fraction as Fr
    K, eps = Fr(2), Fr(1)
    ln_ratio = lambda s, x, xp, y: s * (abs(y - K * xp) - abs(y - K * x))  # ln p_x(y) - ln p_x'(y), exact
    rate = lambda s: laplace_type_rate(s, K)
    printed_s, intended_s = K / eps, eps / K
    r_pr, r_in = rate(printed_s), rate(intended_s)
    x, xp, y = Fr(0), Fr(1), Fr(-1)
    loss = ln_ratio(printed_s, x, xp, y)
    ok_int = r_in == eps and r_pr == printed_s * K
    return Outcome("refuted",
                   f"exact rational arithmetic, V = R, f(x) = K x, K = 2, eps = 1: the loss rate of e^(-s|y - f(x)|) is "
                   f"s K (triangle inequality; the exact max over a 9 x 9 x 25 grid of (x, x', y) is {r_pr} for the "
                   f"printed s = K/eps and {r_in} for s = eps/K). With the printed K/eps the rate is K^2/eps > eps "
                   f"whenever K > eps; Lemma 2.3, cited as the source, has eps/K",
                   witness=wit(K=K, eps=eps, x=x, x_prime=xp, y=y, printed_scale_rate=printed_s,
                               ln_ratio=loss, allowed=eps * abs(x - xp)),
                   condition="pdf prop. to e^{-(eps/K) dist_V(f(x), y)} (as in Lemma 2.3)", method="exact",
                   severity="typo" if ok_int else "error",
                   intended=f"pdf prop. to e^(-(eps/K) dist_V(f(x), y)) is (eps, 0, Lambda)-GP: loss <= (eps/K)|f(x) - f(x')| "
                            f"<= eps d by the triangle inequality (proof); exact grid max rate = {r_in} = eps")


@claim(P, "Sec 5 (M_3 calibration)", "the experiments' nu = 3, nu gamma = eps/3 satisfy Lemma 3.5's budget and give eps-GP")
def sec5_calibration(quick):
    import sympy as sp
    e_s = sp.symbols("epsilon", positive=True)
    nu_s = sp.Integer(3)
    g_s = e_s / 3 / nu_s
    eta_s = sp.solve(sp.Eq(e_s, nu_s * g_s + (nu_s + 1) / (2 * sp.sqrt(nu_s)) * sp.Symbol("eta")), sp.Symbol("eta"))[0]
    eta_ok = sp.simplify(eta_s - e_s / sp.sqrt(3)) == 0
    bound_ok = sp.simplify(2 * sp.sqrt(nu_s) / (nu_s + 1) * e_s - eta_s).is_positive
    g, e = mp.mpf(1) / 9, 1 / mp.sqrt(3)
    w, a, n = check_eps_formula([StudentT(3)], lemma35_eps, ge=[(g, e)], quick=quick)
    ok = eta_ok and bool(bound_ok) and w <= 1 + mp.mpf(10) ** -10
    return Outcome("verified" if ok else "refuted",
                   f"sympy: eta = eps/sqrt(3) (budget met with equality: {eta_ok}), eta < 2 sqrt(nu)/(nu+1) eps = "
                   f"(sqrt(3)/2) eps ({bound_ok}), gamma = eps/9 > 0; true worst-case loss rate of T_3 noise at "
                   f"(gamma, eta) = (1/9, 1/sqrt 3) (eps = 1; the rate is homogeneous): local rate and exact two-point sup, "
                   f"max true/eps = {dec(w, 8)}",
                   witness=None if ok else wit(true_over_eps=w), method="exact", severity=None if ok else "error")


def m1_expectation(d, h, eps):
    """E[exp(-(d + Z)^2/(2 h^2))], Z ~ Lap(0, 1/eps), by 50-digit quadrature."""
    d, h, eps = mp.mpf(d), mp.mpf(h), mp.mpf(eps)
    f = lambda z: mp.exp(-(d + z) ** 2 / (2 * h * h)) * eps / 2 * mp.exp(-eps * abs(z))
    return mp.quad(f, [-mp.inf, -d - 10 * h, -d, 0, 10 / eps, mp.inf])


def m1_bound(d, h, eps):
    d, h, eps = mp.mpf(d), mp.mpf(h), mp.mpf(eps)
    return mp.exp(-d * d / (2 * h * h)) * mp.exp((d * d / (h * h) - 1) / (eps * eps * h * h))


@claim(P, "App. B.2 (M_1 bias bound)",
       "E[M_1(x)] >= e^{-d^2/2h^2} e^{(d^2/h^2 - 1)/(eps^2 h^2)}, so M_1 is positively biased for d > h, eps h > 1")
def appb2_m1(quick):
    h = mp.mpf(1)
    # the two preceding steps, at the witness: MGF and Jensen
    d, eps = mp.mpf("1.05"), mp.mpf("1.1")
    lap = lambda g: mp.quad(lambda z: g(z) * eps / 2 * mp.exp(-eps * abs(z)), [-mp.inf, 0, mp.inf])
    mgf = lap(lambda z: mp.exp(-z * d / h ** 2))
    mgf_ok = rel_err(mgf, 1 / (1 - d * d / (eps ** 2 * h ** 4))) < mp.mpf(10) ** -30
    jen_ok = lap(lambda z: mp.exp(-z * z / (2 * h * h))) >= mp.exp(-1 / (h * h * eps * eps))
    # a grid over the stated range (d > h, eps h > 1, d < eps h^2)
    fails_bound = fails_bias = tot = 0
    ehs = [mp.mpf("1.1"), 2] if quick else [mp.mpf("1.1"), 2, 5, 10]
    for eh in ehs:
        for frac in [mp.mpf("0.2"), mp.mpf("0.5"), mp.mpf("0.95")]:
            dd = h + frac * (eh * h - h)  # h < d < eps h^2
            E = m1_expectation(dd, h, eh / h)
            tot += 1
            fails_bound += E < m1_bound(dd, h, eh / h)
            fails_bias += E <= mp.exp(-dd * dd / (2 * h * h))
    eh_list = ",".join(dec(v, 3) for v in ehs)
    E = m1_expectation(d, h, eps)
    fx, lb = mp.exp(-d * d / (2 * h * h)), m1_bound(d, h, eps)
    ok = E >= lb and E > fx
    if ok:
        return Outcome("verified", f"quad: E[M_1] = {dec(E, 10)} >= bound {dec(lb, 10)}", method="sweep")
    return Outcome("refuted",
                   f"50-digit quadrature of E[M_1(x)] with one Laplace draw: the bound fails at {fails_bound}/{tot} grid "
                   f"points (h = 1, d = h + s (eps h^2 - h), s in {{0.2,0.5,0.95}}, eps h in {{{eh_list}}}) and E[M_1(x)] <= f(x) (bias <= 0) "
                   f"at {fails_bias}/{tot}. The MGF step ({'holds' if mgf_ok else 'FAILS'}) and the Jensen step "
                   f"({'holds' if jen_ok else 'FAILS'}) are right; the error is multiplying E[e^(-Zd/h^2)] and "
                   f"E[e^(-Z^2/(2h^2))] as if the two factors were independent (they share Z). Under that unsupported "
                   f"reading the bound would hold; M_1 is defined with a single Z",
                   witness=wit(d=d, h=h, eps=eps, E_M1=E, claimed_lower_bound=lb, f_x=fx, bias=E - fx),
                   condition="a correct lower bound must keep E[e^(-(2Zd + Z^2)/(2h^2))] together (Jensen gives only "
                             "e^(-1/(eps^2 h^2))); positive bias needs more than d > h and eps h > 1",
                   method="sweep", severity="error")


def case3_min_ok(c):
    """sympy: is the minimum distance sqrt(2) R1 (R1 = tau/sqrt 2) >= c tau for every tau > 0?"""
    import sympy as sp
    tau = sp.symbols("tau", positive=True)
    diff = sp.simplify(2 * (tau / sp.sqrt(2)) ** 2 - (sp.nsimplify(c) * tau) ** 2)
    return diff == 0 or bool(diff.is_nonnegative)


@claim(P, "App. A.2 (Claim 4.2 proof, case (3))", "points of S_{tau,1} and S_{tau,2} are at least sqrt(2) R1 = tau apart",
       sweep=False)
def appa2_case3(quick):
    import sympy as sp
    T1, T2, tau = sp.symbols("T1 T2 tau", positive=True)
    u, v = sp.symbols("u v", nonnegative=True)
    R1 = tau / sp.sqrt(2)
    c1, c2 = T1 + tau / 2 + R1, T2 + tau / 2 + R1
    # p in S_{tau,1}: p1 <= T1 + tau/2 = c1 - R1, p2 > c2; q in S_{tau,2}: q1 > c1, q2 <= T2 + tau/2 = c2 - R1
    gap1 = sp.simplify(c1 - (T1 + tau / 2) - R1) == 0
    gap2 = sp.simplify(c2 - (T2 + tau / 2) - R1) == 0
    # |p - q|^2 = (R1 + u)^2 + (R1 + v)^2 with u, v >= 0 the excesses: minimum 2 R1^2 = tau^2 at u = v = 0
    d2 = (R1 + u) ** 2 + (R1 + v) ** 2
    min_ok = case3_min_ok(1) and all(
        sp.simplify(sp.diff(d2, s)).subs({u: 0, v: 0}).is_positive for s in (u, v))
    ok = gap1 and gap2 and min_ok
    return Outcome("verified" if ok else "unknown",
                   f"sympy: S_tau,1 lies in {{p1 <= c1 - R1, p2 > c2}} and S_tau,2 in {{q1 > c1, q2 <= c2 - R1}} "
                   f"({gap1 and gap2}), so |p - q|^2 = (R1 + u)^2 + (R1 + v)^2 with u, v >= 0, increasing in u, v, "
                   f"minimum 2 R1^2 = tau^2 ({min_ok})", method="proof")


@claim(P, "App. A.2 (Claim 4.2 proof, case (2) display)",
       "(T2 + tau/2 + R1) - x_{j,2} - ||x_i - c0|| = sqrt(((T2 + tau/2 + R1) - x_{j,2})^2 - ||x_i - c0||^2)", sweep=False)
def appa2_case2(quick):
    T1, T2, tau = mp.mpf(2), mp.mpf(2), mp.mpf(1)
    R1, R2, c1, c2 = _geom(T1, T2, tau)
    s2 = 1 / mp.sqrt(2)
    xi = (c1 - mp.mpf("1.2") * s2, c2 - mp.mpf("1.2") * s2)  # |x_i - c0| = 1.2 in [R1, R2], in the box
    xj = (mp.mpf(4), mp.mpf(2))  # x_{j,1} > c1, |x_{j,2} - T2| <= tau/2
    reg_i = _tw_region(xi[0], xi[1], T1, T2, tau, mp.sqrt)[0]
    reg_j = _tw_region(xj[0], xj[1], T1, T2, tau, mp.sqrt)[0]
    A, b = c2 - xj[1], mp.sqrt((xi[0] - c1) ** 2 + (xi[1] - c2) ** 2)
    lhs, printed = A - b, mp.sqrt(A * A - b * b)
    worst = case2_chain_violation(T1, T2, tau)
    int_ok = worst <= mp.mpf(10) ** -40 and reg_i == "t,a" and reg_j == "t,2"
    return _case2_outcome(reg_i, reg_j, lhs, printed, worst, int_ok, T1, T2, tau, xi, xj, A, b)


def case2_chain_violation(T1, T2, tau, first=None):
    """max over a grid of x_i in S_tau,alpha, x_j in S_tau,2 of the violations of the intended chain
    A - b <= sqrt(A^2 + B^2) - b <= |x_j - x_i|; ``first(A, b)`` replaces its first member (mutation tests)."""
    R1, R2, c1, c2 = _geom(mp.mpf(T1), mp.mpf(T2), mp.mpf(tau))
    worst = mp.mpf(-1)
    for rr in [R1, (R1 + R2) / 2, R2]:
        for ang in [mp.pi * k / 16 for k in range(9)]:
            p = (c1 - rr * mp.cos(ang), c2 - rr * mp.sin(ang))
            for q1 in [c1 + mp.mpf("0.01"), c1 + 1, c1 + 5]:
                for q2 in [T2 - tau / 2, T2, T2 + tau / 2]:
                    Aq, Bq = c2 - q2, c1 - q1
                    bq = mp.sqrt((p[0] - c1) ** 2 + (p[1] - c2) ** 2)
                    chain = [Aq - bq if first is None else first(Aq, bq), mp.sqrt(Aq * Aq + Bq * Bq) - bq,
                             mp.sqrt((q1 - p[0]) ** 2 + (q2 - p[1]) ** 2)]
                    worst = max(worst, chain[0] - chain[1], chain[1] - chain[2])
    return worst


def _case2_outcome(reg_i, reg_j, lhs, printed, worst, int_ok, T1, T2, tau, xi, xj, A, b):
    return Outcome("refuted",
                   f"at x_i in S_tau,alpha (region {reg_i}) and x_j in S_tau,2 (region {reg_j}) the printed equality "
                   f"A - b = sqrt(A^2 - b^2) fails: {dec(lhs, 10)} vs {dec(printed, 10)}; the next printed line "
                   f"(sqrt(A^2 + B^2 - b^2)) is likewise not ||x_j - c0|| - ||x_i - c0||. Read as sqrt(A^2) - b and "
                   f"sqrt(A^2 + B^2) - b the chain is right and proves the case (Claim 4.2 is verified separately). "
                   f"Possibly a typesetting/extraction slip: the minus sign and square slid inside the root",
                   witness=wit(T1=T1, T2=T2, tau=tau, xi1=xi[0], xi2=xi[1], xj1=xj[0], xj2=xj[1], A=A, b=b,
                               A_minus_b=lhs, printed_sqrt=printed),
                   method="exact", severity="typo" if int_ok else "error",
                   intended=f"A - b = sqrt(A^2) - b <= sqrt(A^2 + B^2) - b = ||x_j - c0|| - ||x_i - c0|| <= ||x_j - x_i||: "
                            f"each step is exact algebra or the triangle inequality; checked at 50 digits on 243 pairs "
                            f"(max violation {dec(worst, 3)})")


def laplace_tail(threshold):
    """sympy: P(|Z| > threshold(delta)) for Z ~ Lap(0, 1), and whether it is <= delta for all delta in (0, 1)."""
    import sympy as sp
    z = sp.symbols("z", real=True)
    dl = sp.symbols("delta", positive=True)
    tail = sp.simplify(2 * sp.integrate(sp.exp(-z) / 2, (z, threshold(dl), sp.oo)))
    return tail, sp.simplify(tail - dl) == 0 or bool(sp.simplify(dl - tail).is_nonnegative)


@claim(P, "Lemma 3.6 (proof, tail bound)", "Z ~ Lap(0,1): P(|Z| <= ln(1/delta)) >= 1 - delta", sweep=False)
def lemma36_tail(quick):
    import sympy as sp
    tail, ok = laplace_tail(lambda dl: sp.log(1 / dl))
    return Outcome("verified" if ok else "unknown",
                   f"sympy: P(|Z| > ln(1/delta)) = 2 int_(ln 1/delta)^oo e^(-z)/2 dz = {tail}, so P(|Z| <= ln(1/delta)) "
                   f"= 1 - delta exactly (the bound is tight) for every delta in (0, 1)", method="proof")


QUOTES["Sec 2.1 (GenCauchy moments)"] = (
    r"The distribution reduces to a standard Cauchy distribution for $p = 2$ and $\theta = 1$, which has undefined mean and variance. For $Z \sim \text{GenCauchy}(a, b, p > 3, \theta = 1)$, we have $\mathbb{E}[Z] = a$ and the t -th central moment of $|Z - a|$ exists for $p > t + 1$ [BBZ05].",
    "(i) c_{2,1} = 1/pi, so GenCauchy(a, b, 2, 1) is the Cauchy law (no mean); (ii) for theta = 1, "
    "E|Z - a|^t < oo iff p > t + 1 (t > 0), so for p > 3 the mean exists (= a by symmetry)",
    "Bronstein, Bronstein & Zibulevsky 2005 (BBZ05), for the moment condition")


@claim(P, "Sec 2.1 (GenCauchy moments)", "p = 2, theta = 1 is Cauchy; for theta = 1, E|Z-a|^t < oo iff p > t + 1",
       sweep=False)
def gencauchy_moments(quick):
    import sympy as sp
    z = sp.symbols("z", positive=True)
    p, t = sp.symbols("p t", positive=True)
    c21 = sp.simplify(2 * sp.gamma(1) / (2 * sp.gamma(sp.Rational(1, 2)) * sp.gamma(sp.Rational(1, 2))))
    cauchy = c21 == 1 / sp.pi and sp.integrate(z / (1 + z ** 2), (z, 0, sp.oo)) == sp.oo
    # limit comparison at infinity: z^t/(1+z^p) ~ z^(t-p); int_1^oo z^s dz < oo iff s < -1
    ratio = sp.limit(z ** p / (1 + z ** p), z, sp.oo) == 1
    u = sp.symbols("u", positive=True)  # s = -1 - u (converges) vs s = -1 + u and s = -1 (diverge)
    conv = (sp.simplify(sp.integrate(z ** (-1 - u), (z, 1, sp.oo)) - 1 / u) == 0
            and sp.integrate(z ** (u - 1), (z, 1, sp.oo)) == sp.oo and sp.integrate(1 / z, (z, 1, sp.oo)) == sp.oo)
    # near 0 the integrand z^t/(1+z^p) is bounded for t > 0: no condition there.  Spot values, exact:
    fin = sp.integrate(z ** 2 / (1 + z ** 4), (z, 0, sp.oo))  # p = 4, t = 2 < p - 1: finite (pi/(2 sqrt 2))
    inf = sp.integrate(z ** 3 / (1 + z ** 4), (z, 0, sp.oo))  # p = 4, t = 3 = p - 1: diverges
    ok = cauchy and ratio and conv and fin.is_finite and inf == sp.oo
    return Outcome("verified" if ok else "unknown",
                   f"sympy: c_(2,1) = {c21} (standard Cauchy; int_0^oo z/(1+z^2) = oo, no mean); z^t/(1+z^p) ~ z^(t-p) "
                   f"at infinity (limit ratio 1: {ratio}) and int_1^oo z^s dz < oo iff s < -1 ({conv}), so "
                   f"E|Z-a|^t < oo iff p > t + 1; spot checks p = 4: t = 2 gives {fin}, t = 3 gives {inf}; the mean "
                   f"(t = 1) exists for p > 2, hence for the stated p > 3, and equals a by symmetry", method="proof")


QUOTES["Lemma 3.6 (proof, case b <= b')"] = (
    r"If $b \leq b'$, then [...] &\leq \ln(1 + \gamma \cdot \text{dist}(x, x')) + |a-a'|/b \\ &\leq \gamma \text{dist}(x, x') + \eta|f(x') - f(x)|/B(x') \leq (\gamma + \eta) \text{dist}(x, x').",
    "for b = B(x)/eta <= b' = B(x')/eta, a g_L-smooth B (B(x') <= (1 + gamma d) B(x)) and |f(x) - f(x')| <= "
    "min(B(x), B(x')) d: the middle step ln(1+gamma d) + |a-a'|/b <= gamma d + eta|f(x')-f(x)|/B(x') (literal), and "
    "the intended step with B(x) (|a-a'|/b = eta|f(x')-f(x)|/B(x)) followed by the final bound (gamma + eta) d",
    None)


def lemma36_step(Bx, Bxp, df, g, e, d, denom_is_Bxp=True):
    """(lhs, rhs) of the middle step of Lemma 3.6's proof for b <= b', with B(x') (printed) or B(x) in the
    denominator of the right-hand side."""
    Bx, Bxp, df, g, e, d = (mp.mpf(v) for v in (Bx, Bxp, df, g, e, d))
    lhs = mp.log(1 + g * d) + abs(df) / (Bx / e)
    rhs = g * d + e * abs(df) / (Bxp if denom_is_Bxp else Bx)
    return lhs, rhs


@claim(P, "Lemma 3.6 (proof, case b <= b')",
       "ln(1 + gamma d) + |a - a'|/b <= gamma d + eta |f(x') - f(x)|/B(x') <= (gamma + eta) d when b <= b'", sweep=False)
def lemma36_proof_step(quick):
    # admissible configuration: eta = gamma = d = 1, B(x) = 1, B(x') = 2 = (1 + gamma d) B(x), |f(x) - f(x')| = 1
    Bx, Bxp, df, g, e, d = 1, 2, 1, 1, 1, 1
    lhs, rhs = lemma36_step(Bx, Bxp, df, g, e, d)
    final = (mp.mpf(g) + e) * d
    # intended (B(x) in the denominator), over an admissible grid: middle step and final bound
    worst = mp.mpf(-1)
    for gg, ee, dd in product([mp.mpf("0.1"), 1, 3], [mp.mpf("0.2"), 1], [mp.mpf("0.01"), 1, 4]):
        for ratio in [1, (1 + gg * dd) ** mp.mpf("0.5"), 1 + gg * dd]:
            for frac in [0, mp.mpf("0.5"), 1]:
                B0 = mp.mpf(1)
                dfv = frac * B0 * dd  # |f(x) - f(x')| <= B(x) d (pointwise Lipschitz at x, d <= Lambda)
                l2, r2 = lemma36_step(B0, B0 * ratio, dfv, gg, ee, dd, denom_is_Bxp=False)
                worst = max(worst, l2 - r2, r2 - (gg + ee) * dd)
    int_ok = worst <= mp.mpf(10) ** -40
    if lhs <= rhs:
        return Outcome("verified", "the printed step holds at the configuration", method="exact")
    return Outcome("refuted",
                   f"admissible configuration eta = gamma = d = 1, B(x) = 1, B(x') = 2 (= (1 + gamma d) B(x), g_L-smooth), "
                   f"|f(x) - f(x')| = 1 <= min(B(x), B(x')) d: ln(1 + gamma d) + |a-a'|/b = {dec(lhs, 12)} > gamma d + "
                   f"eta |f(x')-f(x)|/B(x') = {dec(rhs, 12)} (|a-a'|/b = eta |f(x')-f(x)|/B(x), and B(x) < B(x') here). The "
                   f"final bound (gamma + eta) d = {dec(final, 3)} still holds, so the lemma is unaffected (Lemma 3.6 is "
                   f"verified separately)",
                   witness=wit(eta=e, gamma=g, d=d, B_x=Bx, B_x_prime=Bxp, abs_df=df, lhs=lhs, printed_rhs=rhs,
                               final_bound=final),
                   method="exact", severity="typo" if int_ok else "error",
                   intended=f"with B(x) for B(x'): ln(1+gamma d) + eta|f(x')-f(x)|/B(x) <= gamma d + eta d = (gamma + "
                            f"eta) d, using ln(1+u) <= u and |f(x)-f(x')| <= L(x) d <= B(x) d; checked on a grid of "
                            f"162 admissible configurations (max violation {dec(worst, 3)})")


# --------------------------------------------------------------------------------------
# Section 3.1: B* is the smallest g-smooth upper bound (Lemmas 3.1 and 3.2), for every smooth growth function
# --------------------------------------------------------------------------------------
QUOTES.update({
    "Lemma 3.1": (
        r"Lemma 3.1. *Let $\Lambda \in \mathbb{R}_{>0} \cup \{\infty\}$. For Λ -locally Lipschitz function $f : U \rightarrow \mathbb{R}$, the function B^* given in equation (1) is a g -smooth upper bound for $L_{f,\Lambda}$.*",
        "for every metric space U, every smooth growth function g (g = g_0(dist), g_0 nondecreasing, g_0(0) = 1, "
        "g_0(r1 + r2) <= g_0(r1) g_0(r2)) and every L = L_{f,Lambda} >= 0: B*(x) = sup_z L(z)/g(x, z) satisfies "
        "B* >= L and B*(x) <= g(x, x') B*(x') (Definition 8)", None),
    "Lemma 3.2": (
        r"Lemma 3.2. *For Λ -locally K -Lipschitz $f : U \rightarrow \mathbb{R}$ and any smooth growth function g , let B be any g -smooth upper bound for $L_{f,\Lambda}$ and let B^* be the g -smooth sensitivity function given in equation (1) for $L_{f,\Lambda}$. Then $\forall x \in U : B(x) \geq B^*(x)$.*",
        "every B with B >= L and B(x) <= g(x, x') B(x') for all x, x' satisfies B >= B* pointwise (B* is the smallest "
        "g-smooth upper bound)", None),
})


def _finite_spaces(n_spaces, seed, growth):
    """Random finite metric spaces (points of Q^2 with the l1 metric, 2..7 points) with random rational
    L >= 0 (zeros included) and g = growth(d): yields (dist matrix, L, g matrix), all Fractions."""
    rng = np.random.default_rng(seed)
    for _ in range(n_spaces):
        n = int(rng.integers(2, 8))
        pts = [(Fraction(int(a), 4), Fraction(int(b), 4)) for a, b in rng.integers(-12, 13, (n, 2))]
        D = [[abs(p[0] - q[0]) + abs(p[1] - q[1]) for q in pts] for p in pts]
        L = [Fraction(int(v), 8) if rng.random() > 0.2 else Fraction(0) for v in rng.integers(0, 40, n)]
        yield D, L, [[growth(d) for d in row] for row in D]


def bstar_finite(L, G):
    """B*(x) = max_z L(z)/g(x, z) on a finite space (exact)."""
    return [max(L[z] / G[x][z] for z in range(len(L))) for x in range(len(L))]


def smooth_upper_bound_violation(B, L, G):
    """The largest violation of Definition 8 by B (<= 0: B is a g-smooth upper bound); exact."""
    n = len(L)
    return max([L[x] - B[x] for x in range(n)] +
               [B[x] - G[x][y] * B[y] for x in range(n) for y in range(n)])


def _g_L(gamma):
    return lambda d: 1 + gamma * d


def _bstar_steps_z3():
    """z3 (through the kernel's door): the pointwise steps of the two proofs from the axioms of a smooth growth
    function, with every g-value an unknown real: (3.1) G(x',z) <= G(x,x') G(x,z) (monotone + submultiplicative
    after the triangle inequality), L >= 0, G >= 1 => L/G(x,z) <= G(x,x') L/G(x',z); and g(x,x) = g_0(0) = 1 gives
    B*(x) >= L(x); (3.2) B(z) >= L(z), B(z) <= G(z,x) B(x), G >= 1 => B(x) >= L(z)/G(z,x).  Taking the sup over z
    of a pointwise inequality preserves it."""
    import z3
    from .z3calls import z3_unsat
    L, Gxz, Gxpz, Gxxp, Gsum, dxz, dxpz, dxxp = z3.Reals("L Gxz Gxpz Gxxp Gsum dxz dxpz dxxp")
    # monotonicity and submultiplicativity as facts about these values: g_0(dxpz) <= g_0(dxxp + dxz) = Gsum <= Gxxp Gxz
    s31 = z3_unsat(L >= 0, Gxz >= 1, Gxpz >= 1, Gxxp >= 1, dxz >= 0, dxpz >= 0, dxxp >= 0, dxpz <= dxxp + dxz,
                   Gxpz <= Gsum, Gsum <= Gxxp * Gxz,
                   z3.Not(L / Gxz <= Gxxp * (L / Gxpz)))
    B, Bz, Gzx = z3.Reals("B Bz Gzx")
    s32 = z3_unsat(Gzx >= 1, Bz >= L, Bz <= Gzx * B, z3.Not(B >= L / Gzx))
    return s31, s32


@claim(P, "Lemma 3.1", "B*(x) = sup_z L(z)/g(x,z) is a g-smooth upper bound on L, for every smooth growth function g",
       sweep=False)
def lemma31(quick):
    s31, _ = _bstar_steps_z3()
    worst, n = None, 0
    for gamma in (Fraction(1, 3), Fraction(2)):
        for D, L, G in _finite_spaces(30 if quick else 200, 31, _g_L(gamma)):
            v = smooth_upper_bound_violation(bstar_finite(L, G), L, G)
            worst = v if worst is None else max(worst, v)
            n += 1
    ok = s31 and worst <= 0
    ev = (f"proof: z3 (kernel door) proves the pointwise step L(z)/g(x,z) <= g(x,x') L(z)/g(x',z) from the axioms of a "
          f"smooth growth function (triangle inequality, g_0 nondecreasing and submultiplicative, g >= 1): "
          f"{'unsat' if s31 else 'NOT proved'}; with g(x,x) = g_0(0) = 1 it gives B* >= L, and the sup over z keeps both. "
          f"Exact corroboration: {n} random finite metric spaces (2..7 points of Q^2, l1 metric, random L >= 0 with "
          f"zeros), g_L with gamma in {{1/3, 2}}: max violation of Definition 8 by B* = {worst} (<= 0)")
    return Outcome("verified" if ok else "unknown", ev, method="proof")


@claim(P, "Lemma 3.2", "every g-smooth upper bound B on L satisfies B >= B* pointwise", sweep=False)
def lemma32(quick):
    import z3
    from .z3calls import z3_unsat
    _, s32 = _bstar_steps_z3()
    n = proved = 0
    for gamma in (Fraction(1, 3), Fraction(2)):
        for D, L, G in _finite_spaces(8 if quick else 20, 32, _g_L(gamma)):
            Bs = z3.Reals(" ".join(f"B{i}" for i in range(len(L))))
            star = bstar_finite(L, G)
            cons = [Bs[x] >= L[x] for x in range(len(L))]
            cons += [Bs[x] <= G[x][y] * Bs[y] for x in range(len(L)) for y in range(len(L)) if x != y]
            for x in range(len(L)):  # a g-smooth upper bound below B* at x: must be impossible (linear arithmetic)
                n += 1
                proved += z3_unsat(*cons, Bs[x] < star[x])
    ok = s32 and proved == n
    ev = (f"proof: z3 (kernel door) proves the pointwise step B(x) >= B(z)/g(z,x) >= L(z)/g(z,x) from Definition 8 "
          f"(g >= 1): {'unsat' if s32 else 'NOT proved'}; the sup over z gives B >= B*. Exact corroboration: on random "
          f"finite metric spaces with g_L (gamma in {{1/3, 2}}), 'a g-smooth upper bound with B(x) < B*(x)' is "
          f"unsatisfiable (z3, linear real arithmetic, exact rationals) at {proved} of {n} points")
    return Outcome("verified" if ok else "unknown", ev, method="proof")


# --------------------------------------------------------------------------------------
# Section 4.3-4.4: the dimension reductions (Lemmas 4.5 and 4.8)
# --------------------------------------------------------------------------------------
QUOTES.update({
    "Lemma 4.5": (
        r"Lemma 4.5. Let $U \subseteq \mathbb{R}^d$ be equipped with the ℓ_2 metric. Fix $t \in \mathbb{R}^d$. For $f : U \rightarrow V \subseteq \mathbb{R}$, suppose there is $f_0 : \mathbb{R}_{\geq 0} \rightarrow \mathbb{R}$ such that $f(x) = f_0(\|x - t\|)$ for all $x \in U$. Suppose for $x \neq t$, we have (w^*, z^*) such that $B^*(x) = \frac{|f(w^*) - f(z^*)|}{\|w^* - z^*\| g(x, z^*)}$. Then there is a pair (w_L, z_L) on the line connecting x and t such that $\frac{|f(w_L) - f(z_L)|}{\|w_L - z_L\| g(x, z_L)} \geq B^*(x)$.",
        "U = R^d (l_2), f radial about t, g a smooth growth function: for every pair (w, z), w != z, the pair (w_L, z_L) "
        "on the ray from t through x at the same distances from t (the proof's construction) has f(w_L) = f(w), "
        "f(z_L) = f(z), ||w_L - z_L|| <= ||w - z|| and ||z_L - x|| <= ||z - x||, so its objective is at least as large "
        "(whenever w_L != z_L); in particular at the maximiser (w*, z*)", None),
    "Lemma 4.8": (
        r"Lemma 4.8. Fix $\beta_0 \in \mathbb{R}$, $\beta = [\beta_1, \beta_2, \dots, \beta_d] \in \mathbb{R}^d$ such that $\|\beta\| \neq 0$. Let $f : \mathbb{R}^d \rightarrow \mathbb{R}$ be defined by $f(x) = f_0(\varphi(x))$, where $f_0 : \mathbb{R} \rightarrow \mathbb{R}$ and $\varphi(x) := \beta_0 + \langle \beta, x \rangle$. Let (w^*, z^*) be such that $B^*(x) = \frac{|f(w^*) - f(z^*)|}{\|w^* - z^*\|g(x, z^*)}$. Then, there is (w_a, z_c) where $z_c := x + \frac{c}{\|\beta\|}\beta$, $w_a := z_c + \frac{a}{\|\beta\|}\beta$ for some $a, c \in \mathbb{R}$ such that $\frac{|f(w_a) - f(z_c)|}{\|w_a - z_c\|g(x, z_c)} \geq B^*(x)$.",
        "f a ridge function of phi(x) = beta_0 + <beta, x>: for every pair (w, z), the projections of z and w onto the "
        "line x + R beta (c = <beta, z - x>/||beta||, a = <beta, w - z>/||beta||) keep phi, hence f, and do not increase "
        "||w - z|| or ||z - x||, so the objective does not decrease (whenever a != 0)", None),
})


def _reduction_check(kind, quick):
    """Random (x, t or beta, z, w) in R^d, d in {2, 3, 5}, at 40 digits: the reduced pair keeps the f-arguments
    (||. - t|| resp. phi) exactly and does not increase ||w - z|| nor ||z - x||; the objective with a non-monotone
    f_0 (e^{-(r-1)^2} resp. sin) and g_E, g_L (gamma = 0.7) is then >= the original.  Returns (worst violation, n)."""
    rng = np.random.default_rng(45 if kind == "radial" else 48)
    worst, n = mp.mpf(-1), 0
    f0 = (lambda r: mp.exp(-(r - 1) ** 2)) if kind == "radial" else mp.sin
    gs = [lambda d: mp.exp(mp.mpf("0.7") * d), lambda d: 1 + mp.mpf("0.7") * d]
    with mp.workdps(40):
        for _ in range(150 if quick else 400):
            d = int(rng.choice([2, 3, 5]))
            vec = lambda: mp.matrix([mp.mpf(float(v)) for v in rng.normal(0, 2, d)])
            x, z, w, a = vec(), vec(), vec(), vec()
            nrm = lambda v: mp.sqrt(mp.fsum(c * c for c in v))
            dot = lambda u, v: mp.fsum(p * q for p, q in zip(u, v))
            if kind == "radial":
                t = a
                u = (x - t) / nrm(x - t)
                zL, wL = t + nrm(z - t) * u, t + nrm(w - t) * u
                arg = lambda v: nrm(v - t)
            else:
                beta, b0 = a, mp.mpf(float(rng.normal()))
                bn = nrm(beta)
                zL = x + (dot(beta, z - x) / bn) * (beta / bn)
                wL = zL + (dot(beta, w - z) / bn) * (beta / bn)
                arg = lambda v: b0 + dot(beta, v)
            keep = max(abs(arg(zL) - arg(z)), abs(arg(wL) - arg(w)))
            shrink = max(nrm(wL - zL) - nrm(w - z), nrm(zL - x) - nrm(z - x))
            worst = max(worst, keep, shrink)
            if nrm(wL - zL) > mp.mpf(10) ** -20:
                for g in gs:
                    obj = lambda p, q: abs(f0(arg(p)) - f0(arg(q))) / (nrm(p - q) * g(nrm(x - q)))
                    worst = max(worst, (obj(w, z) - obj(wL, zL)) / max(obj(w, z), mp.mpf(10) ** -30))
            n += 1
    return worst, n


_REDUCTION_TEXT = {
    "radial": ("(x, t, z, w)", "||z_L - t|| = ||z - t||, ||w_L - t|| = ||w - t||, ||w_L - z_L|| <= ||w - z||, ||z_L - x|| <= "
               "||z - x|| (the reverse triangle inequality)", "f_0(r) = e^(-(r-1)^2) (not monotone)"),
    "ridge": ("(x, beta, z, w)", "phi(z_c) = phi(z), phi(w_a) = phi(w), ||w_a - z_c|| <= ||w - z|| and ||z_c - x|| <= "
              "||z - x|| (Cauchy-Schwarz)", "f_0 = sin"),
}


def _reduction_outcome(kind, quick):
    worst, n = _reduction_check(kind, quick)
    pts, facts, f0 = _REDUCTION_TEXT[kind]
    return Outcome("verified" if worst <= mp.mpf(10) ** -30 else "unknown",
                   f"the proof's construction checked at 40 digits on {n} random {pts} in R^d, d in {{2,3,5}}: {facts}, "
                   f"and the objective with {f0} under g_E and g_L (gamma = 0.7) does not decrease: max violation "
                   f"{dec(worst, 3)}. The values of f are kept exactly, so this holds for every f_0", method="sweep")


@claim(P, "Lemma 4.5", "radial f (f = f_0(||x - t||)): B*(x) is attained (as a sup) by pairs on the line through x and t",
       sweep=True)
def lemma45(quick):
    return _reduction_outcome("radial", quick)


@claim(P, "Lemma 4.8", "ridge f (f = f_0(beta_0 + <beta, x>)): B*(x) is attained (as a sup) by pairs on the line x + R beta",
       sweep=True)
def lemma48(quick):
    return _reduction_outcome("ridge", quick)
