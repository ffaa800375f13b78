"""The validated, exact configuration: frozen records, every number a sympy expression."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

import sympy as sp


class ReadOnlyDict(dict):
    """The dict of a frozen record (params, a query's fields, a noise's shape): read-only, since the
    values were resolved into the rest of the Spec when it was loaded; a change here would be
    silently ignored.  A changed configuration is a new Spec: dataclasses.replace, or a new file."""

    def _read_only(self, *args, **kwargs):
        raise TypeError("a Spec is immutable: its values were resolved when it was loaded, so changing "
                        "this dict would change nothing that is checked; use dataclasses.replace(spec, "
                        "noise=dataclasses.replace(spec.noise, eta=...)) or edit the file")

    __setitem__ = __delitem__ = update = pop = popitem = setdefault = clear = _read_only
    __ior__ = _read_only

    def __reduce__(self):
        return (type(self), (dict(self),))

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


class Named(str, Enum):
    """A name a configuration spells: the member equals (and hashes, prints and serialises as) that
    string, and a misspelt member is an AttributeError where a misspelt string compares False."""

    def __str__(self) -> str:
        return self.value

    def __format__(self, spec) -> str:
        return format(self.value, spec)


class QueryKind(Named):
    """query.kind (gpaudit.spec.load.QUERY_FIELDS says which fields each takes)."""
    SOFT_THRESHOLD = "soft_threshold"
    BOUNDED_RANGE = "bounded_range"
    TWO_WAY_THRESHOLD = "two_way_threshold"
    GAUSSIAN_KDE = "gaussian_kde"
    PIECEWISE = "piecewise"
    PYTHON = "python"
    IDENTITY = "identity"


class BoundKind(Named):
    """bound.kind (gpaudit.spec.load.BOUND_KINDS says which fields each takes)."""
    SMOOTH_SENSITIVITY = "smooth_sensitivity"
    CONSTANT = "constant"
    PIECEWISE = "piecewise"
    PYTHON = "python"
    DERIVED = "derived"


class Growth(Named):
    """bound.growth: how B may grow with the distance, g_E = exp(gamma d) or g_L = 1 + gamma d."""
    EXPONENTIAL = "exponential"
    LINEAR = "linear"


class Norm(Named):
    """input.metric's norm."""
    L1 = "l1"
    L2 = "l2"
    LINF = "linf"


def _freeze(record, *names) -> None:
    for name in names:
        value = getattr(record, name)
        if isinstance(value, dict) and not isinstance(value, ReadOnlyDict):
            object.__setattr__(record, name, ReadOnlyDict(value))


@dataclass(frozen=True)
class Piece:
    where: Any  # sympy Boolean over the input symbols (sympy.true for the default piece)
    value: sp.Expr


@dataclass(frozen=True)
class QuerySpec:
    kind: QueryKind
    fields: dict  # exact values: T, tau, l, r, T1, T2, h (sympy), t (tuple of sympy), callable (str)
    pieces: tuple[Piece, ...] = ()

    def __post_init__(self):
        object.__setattr__(self, "kind", QueryKind(self.kind))
        _freeze(self, "fields")


@dataclass(frozen=True)
class BoundSpec:
    kind: BoundKind
    growth: Growth
    gamma: sp.Expr
    Lambda: sp.Expr  # sympy.oo when unbounded
    fields: dict = field(default_factory=dict)
    pieces: tuple[Piece, ...] = ()

    def __post_init__(self):
        object.__setattr__(self, "kind", BoundKind(self.kind))
        object.__setattr__(self, "growth", Growth(self.growth))
        _freeze(self, "fields")

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

    def __post_init__(self):
        _freeze(self, "shape")


@dataclass(frozen=True)
class ClaimSpec:
    epsilon: sp.Expr
    delta: sp.Expr


@dataclass(frozen=True)
class MetricSpec:
    """input.metric: dist(x, x') = ||x - x'|| in a (weighted) l1, l2 or linf norm."""
    kind: Norm = Norm.L2
    weights: tuple = ()     # exact positive numbers, one per coordinate; () for unit weights

    def __post_init__(self):
        object.__setattr__(self, "kind", Norm(self.kind))


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
    # the digest of the content this Spec was made with (set on construction): a Spec made by
    # dataclasses.replace with other content no longer is the file's, and gets its own sha256
    content_sha256: str = field(default="", compare=False, repr=False)
    output_dim: int = 1     # k: f(x) and the noise Z in R^k (output.dim)

    def __post_init__(self):
        _freeze(self, "params")
        digest = content_digest(self)
        if self.content_sha256 and self.content_sha256 != digest:
            # replaced content: config_sha256 names this content, not the unmodified file's bytes
            object.__setattr__(self, "sha256", digest)
        object.__setattr__(self, "content_sha256", digest)

    @property
    def symbols(self) -> tuple[sp.Symbol, ...]:
        return input_symbols(self.dim)


def content_digest(spec: Spec) -> str:
    """sha256 of what a Spec says (every field but its path, hashes and this digest), for telling a
    replaced Spec from the one loaded from the file."""
    import hashlib
    parts = [spec.name, spec.description, spec.dim, sorted(spec.params.items(), key=lambda kv: str(kv[0])),
             spec.query, spec.bound, spec.noise, spec.claim, spec.audit, spec.binary_floats, spec.metric]
    if spec.output_dim != 1:
        parts.append(spec.output_dim)
    return hashlib.sha256(b"gpaudit-spec-content\0" + repr(parts).encode("utf-8")).hexdigest()


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
    if spec.bound.growth != Growth.LINEAR:
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
