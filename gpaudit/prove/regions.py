"""Proof regions, generated from the model's Piecewise expressions (never written per example).

1. Pieces.  A Piecewise piece k holds where its own condition holds and no earlier one does.
2. Refinement.  A base region is a pair (piece i of f, piece j of B): the common refinement.
3. Active terms.  Inside a piece, Max/Min/Abs (Abs(u) = Max(u, -u)) are split, innermost first,
   into the open sets where one argument strictly dominates ("each term on the set where it is
   active") plus the tie set where two or more arguments attain the extremum.  On the tie set the
   leaf keeps every tied argument as an *alternative*: a point of the tie set satisfies an
   obligation if some alternative active there does.  This is exact for the a.e. argument: where
   max(g1, g2) is differentiable at a tie, its gradient equals that of every active term (the
   difference max - g_i >= 0 has a minimum there), and along a segment inside a tie set the
   restricted function coincides with each active term.
4. Leaves that z3 shows empty are dropped (an `unknown` keeps the leaf).

A leaf is (conditions, alternatives); an alternative is (extra conditions, f, B) with no
Max/Min/Abs left, ready for differentiation.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import sympy as sp

from ..kernel import z3door as zb
from .. import runtime
from ..model.lower import numpy_lambdify

_SPLIT = (sp.Max, sp.Min, sp.Abs)


class Memo(dict):
    """Exact results by exact keys (sympy expressions, z3 text), forgotten all at once past `cap`
    entries: a long sweep brings new keys with every configuration, and an entry computed again
    is the same value (every memo here is of a deterministic computation)."""

    def __init__(self, cap: int = 20000):
        super().__init__()
        self.cap = cap

    def __setitem__(self, key, value):
        if len(self) >= self.cap:
            self.clear()
        super().__setitem__(key, value)

    def get_or(self, key, compute):
        """The value memoised under key, computed by compute() the first time it is asked for."""
        if key not in self:
            self[key] = compute()
        return self[key]


@dataclass(frozen=True)
class Alt:
    conds: tuple
    f: sp.Expr
    B: sp.Expr | None


@dataclass
class Leaf:
    label: str
    base: str
    conds: tuple
    alts: list
    steps: list = field(default_factory=list)   # human-readable split steps

    @property
    def tie(self) -> bool:
        return len(self.alts) > 1

    def condition(self):
        return sp.And(*self.conds) if self.conds else sp.true


def pieces(expr):
    """[(effective conditions tuple, value)] of a Piecewise (or the whole expression)."""
    if not isinstance(expr, sp.Piecewise):
        return [((), expr)]
    out, earlier = [], []
    for val, cond in expr.args:
        conds = tuple(c for c in [cond] + [sp.Not(e) for e in earlier] if c is not sp.true)
        if sp.false not in conds:
            out.append((conds, val))
        earlier.append(cond)
        if cond is sp.true:
            break
    return out


def _innermost(exprs):
    nodes = set()
    for e in exprs:
        if e is not None:
            nodes |= e.atoms(*_SPLIT)
    inner = [n for n in nodes if not any(a.has(*_SPLIT) for a in n.args)]
    return sorted(inner, key=sp.default_sort_key)[0] if inner else None


def _args(node):
    if isinstance(node, sp.Abs):
        return [node.args[0], -node.args[0]], sp.Max
    return list(node.args), type(node)


def _dominates(kind, a, b):
    return a > b if kind is sp.Max else a < b


def _weakly(kind, a, b):
    return a >= b if kind is sp.Max else a <= b


_TEXT = Memo()


def text(e) -> str:
    """str(e), memoised by the expression: the same conditions recur in many leaves' evidence."""
    return _TEXT.get_or(e, lambda: str(e))


def _short(e, n=60):
    s = text(e)
    return s if len(s) <= n else s[: n - 3] + "..."


_SPLITS = Memo()


def _split_sets(node):
    """(arguments, kind, the set where argument i is strictly active for each i, the tie set, the
    extra conditions of each tied alternative) of a Max/Min/Abs node; memoised by the node: the
    same node recurs in every leaf its piece meets."""
    return _SPLITS.get_or(node, lambda: _compute_split_sets(node))


def _compute_split_sets(node):
    args, kind = _args(node)
    strict = [sp.And(*[_dominates(kind, ai, aj) for j, aj in enumerate(args) if j != i])
              for i, ai in enumerate(args)]
    if len(args) == 2:
        tie = sp.Eq(args[0], args[1])
    else:
        tie = sp.Or(*[sp.And(sp.Eq(args[i], args[j]), *[_weakly(kind, args[i], args[k]) for k in range(len(args))])
                      for i in range(len(args)) for j in range(i + 1, len(args))])
    extras = [tuple(_weakly(kind, ai, aj) for j, aj in enumerate(args) if j != i) if len(args) > 2 else ()
              for i, ai in enumerate(args)]
    return args, kind, strict, tie, extras


_SUBS = Memo()


def _subst(e, node, value):
    """e.xreplace({node: value}), memoised by the exact expressions."""
    if e is None:
        return None
    return _SUBS.get_or((e, node, value), lambda: e.xreplace({node: value}))


def split_leaf(leaf: Leaf, node) -> list[Leaf]:
    args, kind, strict, tie, extras = _split_sets(node)
    name = "Abs" if isinstance(node, sp.Abs) else kind.__name__
    out = []
    for i, ai in enumerate(args):
        alts = [Alt(a.conds, _subst(a.f, node, ai), _subst(a.B, node, ai)) for a in leaf.alts]
        out.append(Leaf(f"{leaf.label}.{name[0].lower()}{i + 1}", leaf.base, leaf.conds + (strict[i],), alts,
                        leaf.steps + [f"{name}({_short(node.args[0]) if name == 'Abs' else '...'}): "
                                      f"argument {i + 1} ({_short(ai)}) strictly active"]))
    # the tie set: the extremum attained by at least two arguments
    alts = []
    for a in leaf.alts:
        if not (a.f.has(node) or (a.B is not None and a.B.has(node))):
            alts.append(a)
            continue
        for i, ai in enumerate(args):
            alts.append(Alt(a.conds + extras[i], _subst(a.f, node, ai), _subst(a.B, node, ai)))
    out.append(Leaf(f"{leaf.label}.{name[0].lower()}=", leaf.base, leaf.conds + (tie,), alts,
                    leaf.steps + [f"{name}: tie set of its arguments (every tied argument kept)"]))
    return out


_NONEMPTY = Memo()


def nonempty(conds, timeout_ms=3000, params=()) -> bool:
    """False only when z3 proves the conjunction empty (memoised; an unknown counts as nonempty).

    A float64 sample point satisfying every condition settles "nonempty" without z3: True is the
    answer that needs no proof (a region kept needlessly only adds vacuous obligations; only a
    region dropped must be shown empty, and that is always z3's unsat).  Only a settled answer is
    memoised (a sample point, z3's sat or unsat, no translation): an unknown depends on the budget
    left and the wall clock, and is asked again the next time."""
    key = (frozenset(conds), frozenset(params))
    if key not in _NONEMPTY:
        value, settled = _nonempty(conds, timeout_ms, params)
        if not settled:
            return value
        _NONEMPTY[key] = value
    return _NONEMPTY[key]


def _nonempty(conds, timeout_ms, params) -> tuple[bool, bool]:
    """(nonempty, settled): settled unless z3 was asked and answered unknown."""
    if not params and _sample_hit(conds):
        return True, True
    try:
        q = _conjunction_query(conds, params)
    except zb.Unsupported:
        return True, True
    # different condition sets often make the same formula (sympy's And drops duplicates and
    # flattens): z3's answer to it is replayed (see gpaudit.runtime.solve)
    status = runtime.solve(q, timeout_ms, use_cache=False, replay=_REPLAY).status
    return status != zb.UNSAT, status != zb.UNKNOWN


_REPLAY = Memo(4000)
_QUERIES = Memo(4000)


def _conjunction_query(conds, params):
    """The z3 query of the conjunction of conds (with params), memoised by the exact sympy formula:
    a fresh translator makes the same query of it every time."""
    formula = sp.And(*conds) if conds else None

    def translate():
        tr = zb.Translator()
        return tr.query(tr(formula) if conds else z3_true(), [tr(p) for p in params])
    return _QUERIES.get_or((formula, tuple(params)), translate)


_SAMPLES: dict = {}


def _samples(d: int) -> np.ndarray:
    """Fixed points of R^d at many scales (deterministic): where a sample hit is looked for."""
    if d not in _SAMPLES:
        if d == 1:
            mags = np.geomspace(1e-12, 1e12, 241)
            pts = np.concatenate([np.linspace(-100, 100, 2001), mags, -mags])[:, None]
        else:
            rng = np.random.default_rng(20261124)
            scales = np.repeat(np.geomspace(1e-6, 1e6, 13), 300)
            pts = rng.standard_normal((len(scales), d)) * scales[:, None]
            grid = np.linspace(-10, 10, 21)
            pts = np.concatenate([pts, np.stack(np.meshgrid(*[grid] * d), -1).reshape(-1, d)])
        _SAMPLES[d] = pts
    return _SAMPLES[d]


def _sample_hit(conds) -> bool:
    """Whether some sample point satisfies every condition in float64 (inputs of 1 to 3 dims)."""
    if not conds:
        return True
    syms = sorted(set().union(*(c.free_symbols for c in conds)), key=lambda v: v.name)
    if not 1 <= len(syms) <= 3:
        return False
    mask = None
    for c in conds:
        m = _sample_mask(tuple(syms), c)
        if m is None:
            return False
        mask = m.copy() if mask is None else mask & m
        if not mask.any():
            return False
    return True


_MASKS = Memo(4000)


def _sample_mask(syms, c):
    """Which sample points satisfy c in float64 (None: no float form, a failed evaluation, or not a
    boolean), memoised by (symbols, condition): the leaves' conditions recur in many sets."""
    return _MASKS.get_or((syms, c), lambda: _eval_mask(syms, c))


def _eval_mask(syms, c):
    X = _samples(len(syms))
    with np.errstate(all="ignore"):
        try:
            return _holds(c, tuple(syms), [X[:, i] for i in range(len(syms))], len(X), strict=True)
        except Exception:  # noqa: BLE001 - no float form, a failed evaluation, not a condition: let z3 decide
            return None


def z3_true():
    import z3
    return z3.BoolVal(True)


def leaves(f_expr, B_expr, params=(), timeout_ms=3000, max_leaves=400) -> list[Leaf]:
    """The proof leaves of (f, B): refinement of the pieces, then Max/Min/Abs splits."""
    fp = pieces(f_expr)
    bp = pieces(B_expr) if B_expr is not None else [((), None)]
    work = []
    for i, (fc, fv) in enumerate(fp, 1):
        for j, (bc, bv) in enumerate(bp, 1):
            conds = fc + bc
            if not nonempty(conds, timeout_ms, params):
                continue
            base = f"f{i}" + (f".B{j}" if B_expr is not None else "")
            work.append(Leaf(base, base, conds, [Alt((), fv, bv)]))
    done = []
    while work:
        leaf = work.pop(0)
        node = _innermost([e for a in leaf.alts for e in (a.f, a.B)])
        if node is None:
            done.append(leaf)
            continue
        for sub in split_leaf(leaf, node):
            if nonempty(sub.conds, timeout_ms, params):
                work.append(sub)
        if len(done) + len(work) > max_leaves:
            raise zb.Unsupported(f"more than {max_leaves} proof regions")
    return done


def relax(cond):
    """A superset of the closure: strict inequalities made non-strict (after pushing negations in)."""
    cond = sp.to_nnf(cond) if isinstance(cond, sp.logic.boolalg.Boolean) else cond
    if isinstance(cond, sp.StrictLessThan):
        return sp.LessThan(cond.lhs, cond.rhs)
    if isinstance(cond, sp.StrictGreaterThan):
        return sp.GreaterThan(cond.lhs, cond.rhs)
    if isinstance(cond, sp.Unequality):
        return sp.true
    if isinstance(cond, (sp.And, sp.Or)):
        return type(cond)(*[relax(a) for a in cond.args])
    return cond


def _dnf(cond):
    """Disjunctive normal form as a list of atom tuples (cond in NNF, small formulas only)."""
    if isinstance(cond, sp.Or):
        return [d for a in cond.args for d in _dnf(a)]
    if isinstance(cond, sp.And):
        out = [()]
        for a in cond.args:
            out = [d + e for d in out for e in _dnf(a)]
        return out
    if cond is sp.true:
        return [()]
    if cond is sp.false:
        return []
    return [(cond,)]


_CLOSURES = Memo()


def closure_cover(conds, params=(), timeout_ms=3000, limit=256):
    """A union of closed conjunctions containing the closure of the set {all conds}.

    The set is written as a union of conjunctions (DNF, built condition by condition); every
    conjunction z3 shows empty is dropped BEFORE relaxing, then each remaining one is relaxed
    (strict -> non-strict), which contains its closure.  Relaxing the formula as a whole would
    also keep the boundary of an empty disjunct.  Memoised (a piece's closure serves both its
    `defined` and its `continuity` obligations): a second computation would only repeat the
    memoised answers of `nonempty`."""
    return _CLOSURES.get_or((tuple(conds), tuple(params), timeout_ms, limit),
                            lambda: _closure_cover(conds, params, timeout_ms, limit))


_PURE = Memo()


def _pure(fn, e):
    """fn(e) for a pure sympy function fn, memoised by the exact expression."""
    return _PURE.get_or((fn, e), lambda: fn(e))


def _nnf_dnf(c):
    return _dnf(sp.to_nnf(c))


def _closure_cover(conds, params, timeout_ms, limit):
    cur = [()]
    for c in conds:
        parts = _pure(_nnf_dnf, c)
        nxt = []
        for d in cur:
            for e in parts:
                conj = d + e
                if nonempty(conj, timeout_ms, params):
                    nxt.append(conj)
        cur = nxt
        if len(cur) > limit:
            return [(relax(sp.And(*conds)),)]
    return [tuple(_pure(relax, a) for a in d) for d in cur]


# -- numeric screening (only to choose candidate bounds; never a proof) -------------------------

def sample_points(landmarks, dim, scale=1.0) -> np.ndarray:
    marks = np.array(landmarks, float).reshape(-1, dim) if landmarks else np.zeros((1, dim))
    offs = np.concatenate([np.geomspace(1e-7, 1e5, 160), -np.geomspace(1e-7, 1e5, 160), [0.0]]) * max(scale, 1e-9)
    if dim == 1:
        pts = (marks[:, :1] + offs[None, :]).ravel()
        pts = np.concatenate([pts, np.linspace(marks.min() - 60 * scale, marks.max() + 60 * scale, 4001)])
        return np.unique(pts)[:, None]
    axes = []
    for k in range(dim):
        c = np.unique(marks[:, k])
        ax = np.concatenate([(c[:, None] + offs[None, ::12]).ravel(),
                             np.linspace(c.min() - 20 * scale, c.max() + 20 * scale, 61)])
        axes.append(np.unique(ax))
    if dim == 2:
        g = np.stack(np.meshgrid(*axes, indexing="ij"), -1).reshape(-1, 2)
    else:  # pragma: no cover - higher dimensions: random points around the landmarks
        rng = np.random.default_rng(0)
        g = marks[rng.integers(0, len(marks), 20000)] + rng.standard_cauchy((20000, dim)) * scale
    rng = np.random.default_rng(0)
    extra = marks[rng.integers(0, len(marks), 4000)] + rng.standard_normal((4000, dim)) * scale
    return np.concatenate([g, extra])


_LAMBDAS = Memo()


def _lambdify(syms, expr):
    """The float64 function of expr (lambdified as model/lower.py's to_numpy does), memoised."""
    return _LAMBDAS.get_or((tuple(syms), expr), lambda: numpy_lambdify(syms, expr))


def member_mask(conds, syms, X, memo=None) -> np.ndarray:
    """Where every condition of conds holds at the rows of X: the mask of And(*conds), combined here
    from the conditions' own masks (building sympy's And costs more than the masks).  memo: a dict
    kept for this X, of the atoms' masks (a region's atoms recur in many leaves)."""
    if not conds:
        return np.ones(len(X), bool)
    cols = [X[:, i] for i in range(X.shape[1])]
    with np.errstate(all="ignore"):
        try:
            return np.logical_and.reduce([_holds(c, tuple(syms), cols, len(X), memo=memo) for c in conds])
        except (TypeError, ValueError, ZeroDivisionError):
            return np.zeros(len(X), bool)


def holds_np(cond, syms, X) -> np.ndarray:
    """Where the sympy condition holds at the rows of X (False everywhere if some part of it
    cannot be evaluated).  And, Or and Not are combined from their atoms' masks, each atom
    lambdified once (the regions' conditions share their atoms), as the lambdified formula would
    combine them."""
    return member_mask((cond,), syms, X)


def _holds(cond, syms, cols, n, strict=False, memo=None):
    """The mask of cond at the columns cols (n rows); strict: an atom whose value is not boolean
    raises ValueError (instead of being read as a truth value); memo: atom -> mask, for these cols."""
    if isinstance(cond, (sp.And, sp.Or)):
        masks = [_holds(a, syms, cols, n, strict, memo) for a in cond.args]
        return (np.logical_and if isinstance(cond, sp.And) else np.logical_or).reduce(masks)
    if isinstance(cond, sp.Not):
        return ~_holds(cond.args[0], syms, cols, n, strict, memo)
    if memo is not None and cond in memo:
        return memo[cond]
    m = np.asarray(_lambdify(syms, cond)(*cols))
    if strict and m.dtype != bool:
        raise ValueError(f"not a condition: {cond}")
    m = np.broadcast_to(np.asarray(m, bool), (n,))
    if memo is not None:
        memo[cond] = m
    return m


def eval_np(expr, syms, X) -> np.ndarray:
    fn = _lambdify(syms, expr)
    with np.errstate(all="ignore"):
        try:
            v = fn(*[X[:, i] for i in range(X.shape[1])])
        except (TypeError, ValueError, ZeroDivisionError):
            return np.full(len(X), np.nan)
    return np.broadcast_to(np.asarray(v, float), (len(X),)).copy()
