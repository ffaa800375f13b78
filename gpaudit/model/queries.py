"""Queries f : R^d -> R.  Built-in kinds are symbolic (sympy Piecewise); `python` is a callable.

Each query knows its interesting points (kinks, region boundaries, the KDE centre) so the audit
can search where violations live, and its global Lipschitz constant when that is known exactly.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.util
import math
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np
import sympy as sp

from ..errors import FieldError
from ..spec.types import Piece, QueryKind, QuerySpec, input_symbols
from .lower import to_math, to_mpmath, to_numpy
from .trace import traced_pieces
from .usercode import UserFn, probe_points, quiet, takes_mpmath


@dataclass(frozen=True)
class Query:
    kind: str
    dim: int
    symbols: tuple
    expr: sp.Expr | None            # None for python queries
    f_np: Callable                  # (n, d) -> (n,)
    f_mp: Callable                  # sequence of mpf -> mpf
    f_math: Callable = None         # one point (sequence of floats) -> float, for local search
    landmarks: list = field(default_factory=list)   # points (tuples of float) worth searching near
    scale: float = 1.0              # a length scale of the query's structure (tau, h, ...)
    lipschitz: sp.Expr | None = None  # the global Lipschitz constant K_f when known exactly
    radial_centre: tuple | None = None  # for f(x) = f0(|x - t|)
    note: str = ""
    fields: dict = field(default_factory=dict)  # the exact parameters of a built-in kind
    numeric: bool = False           # True when f is only known as a float64 program (no exact model)
    user: UserFn | None = None      # kind python: the callable as the audit calls it
    trace: object = None            # python kind: the Traced formula, or the TraceStop (model.trace)
    components: list = field(default_factory=list)  # output.dim k > 1: the k scalar component queries


# A built-in query gives (f, landmarks, scale, Lipschitz constant); `to_float` makes the float landmarks
# and scale (gpaudit.prove.symbolic, whose parameters are symbols without a float value, passes its own).
def soft_threshold(T, tau, to_float=float):
    x = input_symbols(1)[0]
    expr = sp.Piecewise((0, x - T < -tau / 2), ((x - T) / tau + sp.Rational(1, 2), x - T <= tau / 2),
                        (1, True))
    marks = [(to_float(T - tau / 2),), (to_float(T),), (to_float(T + tau / 2),)]
    return expr, marks, to_float(tau), 1 / tau


def bounded_range(l, r, tau, to_float=float):
    x = input_symbols(1)[0]
    m, w = (l + r) / 2, (r - l) / 2 + tau / 2
    expr = sp.Piecewise((0, x < l - tau / 2), ((x - l + tau / 2) / w, x <= m),
                        ((r + tau / 2 - x) / w, x <= r + tau / 2), (0, True))
    marks = [(to_float(l - tau / 2),), (to_float(m),), (to_float(r + tau / 2),)]
    return expr, marks, to_float(tau), 1 / w


def two_way_geometry(T1, T2, tau):
    """R1, R2 and the corner c0 of Section 4.2."""
    R1 = tau / sp.sqrt(2)
    R2 = R1 + tau
    c0 = (T1 + tau / 2 + R1, T2 + tau / 2 + R1)
    return R1, R2, c0


def two_way_regions(T1, T2, tau):
    """The four regions around the corner c0 and D(x), the distance to the quadrant {x >= c0}.

    f_tau of Section 4.2 equals clip((R2 - D(x)) / tau, 0, 1): the 1-region S_1 is the R1-dilation
    of that quadrant and the transition band is R1 <= D <= R2 (checked against the paper's region
    list in the tests).  Returns [(region condition, D on it)], the quadrant itself first (D = 0).
    """
    x1, x2 = input_symbols(2)
    _, _, (a, b) = two_way_geometry(T1, T2, tau)
    return [((x1 >= a) & (x2 >= b), sp.Integer(0)), ((x1 < a) & (x2 >= b), a - x1),
            ((x1 >= a) & (x2 < b), b - x2), ((x1 < a) & (x2 < b), sp.sqrt((a - x1)**2 + (b - x2)**2))]


def two_way_threshold(T1, T2, tau, to_float=float):
    R1, R2, c0 = two_way_geometry(T1, T2, tau)
    (quad, _), *sides = two_way_regions(T1, T2, tau)
    pieces = [(1, quad)]
    for cond, D in sides:  # a flat Piecewise: cheap to lower and to split into proof regions
        pieces += [(1, cond & (D <= R1)), ((R2 - D) / tau, cond & (D <= R2)), (0, cond)]
    expr = sp.Piecewise(*pieces)
    a, b = to_float(c0[0]), to_float(c0[1])
    r1, r2 = to_float(R1), to_float(R2)
    marks = [(a, b), (a - r1, b + 1), (a + 1, b - r1), (a - r2, b + 1), (a + 1, b - r2),
             (a - r1 / np.sqrt(2), b - r1 / np.sqrt(2)), (a - r2 / np.sqrt(2), b - r2 / np.sqrt(2)),
             (to_float(T1), to_float(T2))]
    return expr, marks, to_float(tau), 1 / tau


def gaussian_kde(t, h):
    xs = input_symbols(len(t))
    expr = sp.exp(-sum((xi - ti)**2 for xi, ti in zip(xs, t)) / (2 * h**2))
    tf = tuple(float(v) for v in t)
    marks = [tf]
    for k in range(len(t)):
        for s in (1, -1):
            p = list(tf)
            p[k] += s * float(h)
            marks.append(tuple(p))
    return expr, marks, float(h), sp.exp(-sp.Rational(1, 2)) / h


# -- user callables ("module:function", kind python) -------------------------------------------
# A callable's module is loaded from its own file (found relative to the configuration's directory)
# under a name unique to that file, never by its bare name through sys.path / sys.modules: two
# configurations with a userfns.py each are judged on their own code.  Every call into user code is
# guarded: any exception but KeyboardInterrupt (SystemExit included) becomes a UserCodeError.

_USER_MODULES: dict[str, tuple[str, object]] = {}  # resolved path -> (source sha256, module)


def resolve_callable(ref, base) -> tuple[Path, str, str]:
    """'pkg.mod:func' or 'dir/file.py:func' -> (the module's file, its name, 'func'); FieldError."""
    if not isinstance(ref, str) or ":" not in ref:
        raise FieldError("expected 'package.module:function' or 'dir/file.py:function'")
    mod_name, func_name = (part.strip() for part in ref.rsplit(":", 1))
    base = Path(base if base is not None else ".").resolve()
    if mod_name.endswith(".py"):
        if not func_name.isidentifier():
            raise FieldError(f"expected 'dir/file.py:function', got {ref!r}")
        cand = base / mod_name
        if not cand.is_file():
            raise FieldError(f"cannot find module file {mod_name} in {base} (the configuration's directory)")
        return cand.resolve(), mod_name, func_name
    if ref.count(":") != 1:
        raise FieldError("expected 'package.module:function' or 'dir/file.py:function'")
    parts = mod_name.split(".")
    if not all(p.isidentifier() for p in parts) or not func_name.isidentifier():
        raise FieldError(f"expected 'package.module:function' or 'dir/file.py:function', got {ref!r}")
    rel = Path(*parts)
    for cand in (base / rel.with_suffix(".py"), base / rel / "__init__.py"):
        if cand.is_file():
            return cand.resolve(), mod_name, func_name
    raise FieldError(f"cannot find module '{mod_name}': no file {rel.with_suffix('.py')} or "
                     f"{rel / '__init__.py'} in {base} (the configuration's directory)")


def load_user_module(file: Path, mod_name: str):
    """The module of ``file`` (re-executed when its source changed); returns (module, source bytes)."""
    try:
        src = file.read_bytes()
    except OSError as err:
        raise FieldError(f"cannot read {file}: {err.strerror or err}") from None
    digest = hashlib.sha256(src).hexdigest()
    key = str(file)
    cached = _USER_MODULES.get(key)
    if cached is not None and cached[0] == digest:
        return cached[1], src
    unique = "gpaudit_user_" + hashlib.sha256(key.encode()).hexdigest()[:20]
    package = file.name == "__init__.py"
    spec = importlib.util.spec_from_file_location(
        unique, file, submodule_search_locations=[str(file.parent)] if package else None)
    module = importlib.util.module_from_spec(spec)
    # Stale submodules of an earlier version of this package must not be reused.
    for name in [n for n in sys.modules if n == unique or n.startswith(unique + ".")]:
        del sys.modules[name]
    sys.modules[unique] = module  # by its unique name only (dataclasses, pickling need it)
    try:
        # Compile the very bytes that are hashed (no stale __pycache__, nothing written).
        exec(compile(src, str(file), "exec"), module.__dict__)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # noqa: BLE001 - SystemExit and friends too: a config problem
        sys.modules.pop(unique, None)
        _USER_MODULES.pop(key, None)
        raise FieldError(f"importing module '{mod_name}' ({file}) raised {type(exc).__name__}: {exc}") from None
    _USER_MODULES[key] = (digest, module)
    return module, src


def load_callable_source(ref, base=None):
    """(function, source bytes of its module) for 'pkg.mod:func' relative to ``base``; FieldError."""
    file, mod_name, func_name = resolve_callable(ref, base)
    module, src = load_user_module(file, mod_name)
    func = getattr(module, func_name, None)
    if not callable(func):
        what = "is not callable" if func is not None or hasattr(module, func_name) else "is not defined"
        raise FieldError(f"'{func_name}' {what} in module '{mod_name}' ({file})")
    return func, src


def load_callable(ref: str, base: str | None = None):
    return load_callable_source(ref, base)[0]


def user_fn(fields: dict, name: str, dim: int, base, field: str, landmarks=(), scale=1.0) -> UserFn:
    """The callable of a python kind, bound to its exact ``args``, classified (takes mpmath or a
    float64 program) at probe points near the origin and the declared landmarks."""
    try:
        fn = load_callable(fields["callable"], base)
    except FieldError as err:
        raise FieldError(err.problem, field) from None
    return _classified(UserFn(fn, name, fields["callable"], dict(fields.get("args") or {}), bool(fields.get("scalar"))),
                       dim, landmarks, scale)


def _classified(u: UserFn, dim, landmarks, scale) -> UserFn:
    points = probe_points(dim, landmarks, scale)
    u.exact = takes_mpmath(u, points)
    u.probe(points)
    return u


def _python_query(F: dict, dim: int, base):
    """(the callable, its landmarks, its scale) of a python query."""
    marks = [tuple(float(c) for c in m) for m in F.get("landmarks") or ()] or [tuple([0.0] * dim)]
    try:
        fn = load_callable(F["callable"], base)
    except FieldError as err:
        raise FieldError(err.problem, "query.callable") from None
    return fn, marks, float(F.get("scale", 1))


def python_numpy(u: UserFn):
    """(n, d) -> (n,) in float64; an input where the callable fails gives NaN (and a finding)."""
    def f(X):
        X = np.atleast_2d(np.asarray(X, dtype=float))
        with quiet():
            return np.array([u.call_float_loud(row) for row in X], dtype=float)
    return f


def user_note(u: UserFn) -> str:
    return "user callable, " + ("evaluated in mpmath (high precision; exactness measured at every point a "
                                "verdict uses)" if u.exact else "a float64 program (no exact model)")


def _component(fn, j: int, k: int):
    """The j-th value of a python query returning a sequence of k numbers; another length raises
    (in the user's call, so it is a user-code finding like any exception there)."""
    def comp(x, **kwargs):
        out = fn(x, **kwargs)
        if isinstance(out, (str, bytes)) or not hasattr(out, "__len__") or len(out) != k:
            got = f"{len(out)} values" if hasattr(out, "__len__") else type(out).__name__
            raise ValueError(f"returned {got}, output.dim is {k}")
        return out[j]
    return comp


def _python_vector(qs: QuerySpec, dim: int, k: int, base) -> list:
    """The k components of a python query as scalar python queries (never traced: the certificate
    of k > 1 needs the formula, so such a query is audited, and unknown unless refuted)."""
    F = qs.fields
    fn, marks, scale = _python_query(F, dim, base)
    comps = []
    for j in range(k):
        u = _classified(UserFn(_component(fn, j, k), "f", F["callable"], dict(F.get("args") or {}),
                               bool(F.get("scalar"))), dim, marks, scale)
        comps.append(Query("python", dim, input_symbols(dim), None, python_numpy(u), u.call_mp, u.call_float,
                           landmarks=marks, scale=scale, note=user_note(u), numeric=not u.exact, user=u))
    return comps


def build_vector_query(qs: QuerySpec, dim: int, k: int, base: str | None = None) -> Query:
    """A query f : R^d -> R^k (output.dim k > 1): expr is the tuple of its k components, each a
    scalar piecewise formula over the same conditions (None for a python query); f_np maps (n, d)
    -> (n, k), f_mp a point to a list of k mpf."""
    syms = input_symbols(dim)
    if qs.kind == QueryKind.PYTHON:
        comps = _python_vector(qs, dim, k, base)
        return Query("python", dim, syms, None, _stacked_np(comps), lambda x: [c.f_mp(x) for c in comps], None,
                     comps[0].landmarks, comps[0].scale, note=comps[0].note, fields={"k": k},
                     numeric=any(c.numeric for c in comps), user=comps[0].user, components=comps)
    if qs.kind == QueryKind.IDENTITY:
        pieces = (Piece(sp.true, sp.Tuple(*syms)),)
    else:
        pieces = qs.pieces
    comps = [build_query(QuerySpec("piecewise", {}, tuple(Piece(p.where, p.value[j]) for p in pieces)), dim)
             for j in range(k)]
    expr = tuple(c.expr for c in comps)
    return Query(qs.kind, dim, syms, expr, _stacked_np(comps), lambda x: [c.f_mp(x) for c in comps], None,
                 comps[0].landmarks, 1.0, None, fields={"k": k}, components=comps)


def _stacked_np(comps):
    def f_np(X):
        return np.stack([np.broadcast_to(c.f_np(X), (np.atleast_2d(X).shape[0],)) for c in comps], axis=1)
    return f_np


def build_query(qs: QuerySpec, dim: int, base: str | None = None) -> Query:
    syms = input_symbols(dim)
    k, F = qs.kind, qs.fields
    if k == QueryKind.PYTHON:
        fn, marks, scale = _python_query(F, dim, base)
        pieces, traced = traced_pieces(fn, dim, F.get("args"), bool(F.get("scalar")))
        if pieces is not None:  # the exact formula the code computes: built as for kind piecewise
            q = build_query(QuerySpec("piecewise", {}, pieces), dim, base)
            changed = {"kind": k, "note": f"traced from {traced.source}", "trace": traced}
            if F.get("landmarks"):      # declared landmarks replace the formula's own, as for untraced code
                changed["landmarks"] = marks
            if F.get("scale") is not None:
                changed["scale"] = scale
            return dataclasses.replace(q, **changed)
        u = user_fn(F, "f", dim, base, "query.callable", marks, scale)
        return Query(k, dim, syms, None, python_numpy(u), u.call_mp, u.call_float, landmarks=marks,
                     scale=scale, note=user_note(u), numeric=not u.exact, fields=dict(F), user=u, trace=traced)
    radial = None
    if k == QueryKind.SOFT_THRESHOLD:
        expr, marks, scale, K = soft_threshold(F["T"], F["tau"])
    elif k == QueryKind.BOUNDED_RANGE:
        expr, marks, scale, K = bounded_range(F["l"], F["r"], F["tau"])
    elif k == QueryKind.TWO_WAY_THRESHOLD:
        expr, marks, scale, K = two_way_threshold(F["T1"], F["T2"], F["tau"])
    elif k == QueryKind.GAUSSIAN_KDE:
        expr, marks, scale, K = gaussian_kde(F["t"], F["h"])
        radial = tuple(float(v) for v in F["t"])
    elif k == QueryKind.PIECEWISE:
        expr = sp.Piecewise(*[(p.value, p.where) for p in qs.pieces])
        marks, scale, K = piecewise_landmarks(qs.pieces, syms), 1.0, piecewise_lipschitz(qs.pieces, syms)
    else:  # pragma: no cover - the loader rejects unknown kinds
        raise ValueError(k)
    f_np, f_math = to_numpy(expr, syms), to_math(expr, syms)
    if k == QueryKind.GAUSSIAN_KDE:  # sympy expands 1/(2 h^2) into x^2/(2 h^2): 1e399 x^2 at h = 1e-200
        f_np, f_math = _kde_float(F["t"], F["h"])
    return Query(k, dim, syms, expr, f_np, to_mpmath(expr, syms), f_math,
                 marks, scale, K, radial, fields=dict(F))


def _kde_float(t, h):
    """float64 kappa_t(x) = exp(-(|x - t| / h)^2 / 2) computed in units of h (any h in range)."""
    tl, hf = [float(v) for v in t], float(h)
    tf = np.array(tl)

    def f_np(X):
        X = np.atleast_2d(np.asarray(X, dtype=float))
        with np.errstate(all="ignore"):
            return np.exp(-0.5 * (((X - tf) / hf) ** 2).sum(axis=1))

    def f_math(x):
        try:
            return math.exp(-0.5 * math.fsum(((float(v) - c) / hf) ** 2 for v, c in zip(x, tl)))
        except (ValueError, OverflowError):
            return float("nan")

    return f_np, f_math


def piecewise_lipschitz(pieces, syms):
    """K = the largest Euclidean norm of the pieces' gradients, where every piece is affine in the
    inputs with rational squared gradient norms (each gradient a constant vector); else None.  A
    continuous piecewise-affine f is K-Lipschitz.  Lemma 3.1 needs only that some K exists: the
    proof stage and the kernel prove |grad f| <= K on every piece and f continuous themselves, so
    this K is a candidate, never a premise."""
    best = sp.Integer(0)
    for p in pieces:
        v = sp.sympify(p.value)
        try:
            if v.free_symbols - set(syms) or sp.Poly(v, *syms).total_degree() > 1:
                return None
        except sp.PolynomialError:
            return None
        g2 = sp.Add(*[sp.diff(v, s)**2 for s in syms])
        if not g2.is_Rational:
            return None
        best = max(best, g2)
    return sp.sqrt(best)


def piecewise_landmarks(pieces, syms):
    """Points on the boundaries of user pieces: where a condition's two sides are equal."""
    marks = []
    for p in pieces:
        for rel in p.where.atoms(sp.core.relational.Relational):
            diff = rel.lhs - rel.rhs
            if len(syms) == 1:
                try:
                    for root in sp.solve(sp.Eq(diff, 0), syms[0]):
                        if root.is_real:
                            marks.append((float(root),))
                except (NotImplementedError, TypeError):
                    pass
            else:
                free = [s for s in syms if s in diff.free_symbols]
                if free:
                    try:
                        roots = sp.solve(sp.Eq(diff.subs({s: 0 for s in syms if s != free[0]}), 0), free[0])
                    except (NotImplementedError, TypeError):
                        roots = []
                    for root in roots:
                        if root.is_real:
                            pt = [0.0] * len(syms)
                            pt[syms.index(free[0])] = float(root)
                            marks.append(tuple(pt))
    return marks or [tuple([0.0] * len(syms))]
