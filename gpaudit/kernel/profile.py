"""Exact privacy profiles of fixed-scale noise: the hockey-stick divergence of a shift.

For M(x) = f(x) + s Z with a constant scale s and Z of density e^{-|u|}/2 (Laplace) or
e^{-u^2/2}/sqrt(2 pi) (Gaussian), two inputs whose outputs are shifted by D = |f(x) - f(x')| give,
with mu = D / s, the divergence (the supremum over sets S of P[M(x) in S] - e^eps P[M(x') in S])

    Laplace:   H(eps, mu) = max(0, 1 - e^{(eps - mu)/2})
    Gaussian:  H(eps, mu) = Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu)   (Balle and Wang 2018)

(the supremum is attained on S = {y : ln p_x(y) - ln p_x'(y) > eps}, a half-line: both families are
symmetric and log-concave, so the log ratio is monotone in y).  Both are nondecreasing in mu for a
fixed eps (d/dmu of the Gaussian one is phi(mu/2 - eps/mu) > 0, by e^eps phi(mu/2 + eps/mu) =
phi(mu/2 - eps/mu)).  A claim (epsilon, delta, Lambda) quantifies over pairs at distance d <= Lambda
with eps = epsilon d; a proved |f(x) - f(x')| <= A B d and s = B / eta give mu <= A eta d, and
H(epsilon d, A eta d) is nondecreasing in d (docs/certificate.md derives both), so the largest
divergence over the claim's pairs is at most H(epsilon Lambda, A eta Lambda).  The kernel compares
that exact expression with the claimed delta by kernel.numbers.le (arb enclosures, rounded outward).
"""

from __future__ import annotations

import sympy as sp

from . import numbers

U = sp.Symbol("u", nonnegative=True)     # the kernel's variable of the density (certificate.U)

# ln h(u) on u >= 0 (up to the normalising constant) of each family a closed form covers
SHAPES = {"laplace": (-U,), "gaussian": (-U**2 / 2,)}


def Phi(z):
    """The standard normal distribution function, exactly (erfc, which arb encloses)."""
    return sp.erfc(-z / sp.sqrt(2)) / 2


def divergence(family: str, eps, mu):
    """H(eps, mu), exact, for eps >= 0 and mu >= 0 (a shift of mu noise scales)."""
    eps, mu = sp.sympify(eps), sp.sympify(mu)
    if mu == 0:
        return sp.Integer(0)
    if family == "laplace":
        # the case split decided exactly (numbers.le), never by sympy's own evaluation of Max
        flat = numbers.le(mu, eps)
        value = 1 - sp.exp((eps - mu) / 2)
        return sp.Integer(0) if flat is True else value if flat is False else sp.Max(0, value, evaluate=False)
    if family == "gaussian":
        return Phi(mu / 2 - eps / mu) - sp.exp(eps) * Phi(-mu / 2 - eps / mu)
    raise ValueError(f"no closed-form profile for the family {family!r}")


def covers(family: str, log_density) -> bool:
    """The closed form is this family's: the name and the density's shape, exactly."""
    return family in SHAPES and tuple(sp.sympify(p) for p in log_density) == SHAPES[family]


def worst_pair(family: str, epsilon, A, eta, Lambda):
    """(H, mu): the divergence bound over all pairs at distance <= Lambda (finite), for a query with
    |f(x) - f(x')| <= A B dist and noise of scale B / eta: H(epsilon Lambda, A eta Lambda)."""
    mu = sp.sympify(A) * sp.sympify(eta) * sp.sympify(Lambda)
    return divergence(family, sp.sympify(epsilon) * sp.sympify(Lambda), mu), mu
