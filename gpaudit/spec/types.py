"""The validated, exact configuration: frozen records, every number a sympy expression."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import sympy as sp


@dataclass(frozen=True)
class Piece:
    where: Any  # sympy Boolean over the input symbols (sympy.true for the default piece)
    value: sp.Expr


@dataclass(frozen=True)
class QuerySpec:
    kind: str
    fields: dict  # exact values: T, tau, l, r, T1, T2, h (sympy), t (tuple of sympy), callable (str)
    pieces: tuple[Piece, ...] = ()


@dataclass(frozen=True)
class BoundSpec:
    kind: str
    growth: str  # "exponential" | "linear"
    gamma: sp.Expr
    Lambda: sp.Expr  # sympy.oo when unbounded
    fields: dict = field(default_factory=dict)
    pieces: tuple[Piece, ...] = ()

    @property
    def derived(self) -> bool:
        """Whether this piecewise bound was derived by Laud et al.'s rules (`bound.kind: derived`)."""
        return self.fields.get("derived_from") == DERIVED_FROM


DERIVED_FROM = "laud-rules"   # fields["derived_from"] of a bound of kind `derived`


@dataclass(frozen=True)
class NoiseSpec:
    family: str
    shape: dict  # exact shape parameters (p, theta, nu, alpha)
    eta: sp.Expr


@dataclass(frozen=True)
class ClaimSpec:
    epsilon: sp.Expr
    delta: sp.Expr


@dataclass(frozen=True)
class MetricSpec:
    """input.metric: dist(x, x') = ||x - x'|| in a (weighted) l1, l2 or linf norm."""
    kind: str = "l2"        # l1 | l2 | linf
    weights: tuple = ()     # exact positive numbers, one per coordinate; () for unit weights


@dataclass(frozen=True)
class AuditOptions:
    seed: int = 0
    effort: str = "standard"  # quick | standard | thorough


@dataclass(frozen=True)
class Spec:
    path: str
    name: str
    description: str
    dim: int
    params: dict
    query: QuerySpec
    bound: BoundSpec
    noise: NoiseSpec
    claim: ClaimSpec
    audit: AuditOptions
    sha256: str
    binary_floats: tuple[str, ...]  # fields given as YAML floats (exact binary value used)
    metric: MetricSpec = MetricSpec()
    literal_notes: tuple[str, ...] = ()  # how YAML floats such as 0.1 were read (spec.load.literal_notes)

    @property
    def symbols(self) -> tuple[sp.Symbol, ...]:
        return input_symbols(self.dim)


def two_point_needed(spec: Spec) -> str | None:
    """Why the certificate needs Definition 8's two-point conditions (B >= L_{f,Lambda} and
    B(x) <= g B(x') for all pairs), or None when no route the claim can use rests on them.

    Only Liang-Yi Lemma 3.6 (Laplace noise, linear growth g_L, delta > 0) uses them. The pure
    route carries the local conditions (cover, smooth, continuity) along segments of the convex
    domain, which holds for every pair whatever Lambda is, and so does Laud et al.'s Theorem 4
    (exponential growth, Laplace noise, delta > 0): both rest on the local conditions only
    (docs/certificate.md). With exponential growth nothing needs the two-point conditions; with
    linear growth they stay required whenever delta > 0 or Lambda < inf (for delta = 0 that is the
    conservative choice: the pure route would not need them)."""
    if spec.bound.growth != "linear":
        return None
    reasons = []
    if spec.claim.delta != 0:
        reasons.append("delta > 0")
    if spec.bound.Lambda != sp.oo:
        reasons.append("Lambda < inf")
    return " and ".join(reasons) or None


def input_symbols(dim: int) -> tuple[sp.Symbol, ...]:
    if dim == 1:
        return (sp.Symbol("x", real=True),)
    return tuple(sp.Symbol(f"x{i}", real=True) for i in range(1, dim + 1))
