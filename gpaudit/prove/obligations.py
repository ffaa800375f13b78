"""Proof obligations generated from the model: each one a claim over a region, stated as the
z3 query of its negation (`unsat` proves the claim).

Per leaf R of the regions module (conditions C_R, alternatives (C_k, f_k, B_k)):

    B_positive:  for x in R:  some alternative active at x has B_k(x) > 0
    cover(a):    |grad f_k|^2 <= a^2 B_k^2          (i.e. |grad f| <= a B, given B > 0)
    smooth(c):   |grad ln B_k|^2 <= c^2             (ln B is c-Lipschitz on R)

Per piece P of f and of B (gpaudit.kernel.domain):

    defined:     on cl(P) every partial function of the piece's formula is defined (radicands
                 >= 0, log arguments > 0, denominators != 0).  With the total, continuous rest of
                 the language this makes the formula defined and continuous on cl(P): a jump
                 inside a piece (abs(u)/u, a denominator's zero) fails here.  Once proved, the
                 other obligations of P may assume it (they are only trusted together with it).

Across pieces (per function, per pair of pieces i < j):

    continuity:  on cl(P_i) /\\ cl(P_j) (strict inequalities relaxed: a superset of the closures)
                 the two piece formulas agree.

Two-point conditions of Definition 8 (only where the claim needs them):

    two_point_cover:   |f(x) - f(x')| <= B(x) |x - x'|        for |x - x'| <= Lambda
    two_point_smooth:  B(x) <= g(|x - x'|) B(x')               (linear growth; for exponential
                       growth it follows from smooth + continuity by integrating along segments)
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy as sp
import z3

from ..kernel import z3door as zb
from ..runtime import texts
from ..kernel.domain import conditions as domain_conditions, defined as domain_defined
from .regions import Leaf, Memo, closure_cover, pieces


@dataclass
class Obligation:
    condition: str          # B_positive | cover | smooth | continuity | two_point_cover | ...
    region: str             # leaf label or piece pair
    claim: str              # one line, human-readable
    query: zb.Query | None  # None: not translatable (unknown)
    bound: sp.Expr | None = None
    error: str = ""
    notes: list = field(default_factory=list)
    sym_region: tuple = ()          # the claim in sympy, for the arb fallback
    claim_of: object = None         # () -> the claim in sympy, built when the fallback needs it
    rebuild: object = None          # extra sympy condition -> Query (the obligation restricted)
    alone: zb.Query | None = None   # the negation without the region's conditions (Prover.discharge)
    each: tuple = ()                # the negation for each alternative alone, everywhere (Prover.discharge)
    _claim: object = None

    @property
    def smt2(self) -> str:
        return texts.smt2(self.query) if self.query is not None else ""

    @property
    def sym_claim(self):
        """The claim in sympy (None without one); only the arb fallback reads it, so it is built
        on first use."""
        if self._claim is None and self.claim_of is not None:
            self._claim = self.claim_of()
        return self._claim


class Atoms:
    """Non-polynomial atoms (roots, exp, log of the inputs) as fresh symbols, with chain rules.

    sqrt(g) -> S with dS/dx = S g'/(2 g);  exp(y) -> E with dE/dx = E y';  log(u) -> L with
    dL/dx = u'/u.  Derivatives then stay rational in (x, atoms), and S^2 is reduced to g, so z3
    sees the same fresh variable in a region's conditions and in its gradient."""

    def __init__(self, syms):
        self.syms = tuple(syms)
        self.sym_of: dict = {}      # original atom -> Dummy
        self.back: dict = {}        # Dummy -> original atom
        self.partials: dict = {}    # Dummy -> [d/dx_i]
        self.roots: dict = {}       # Dummy -> (base, q)
        self.chain: dict = {}       # Dummy -> (coef, inner): grad S = coef grad inner
        self._gram: dict = {}

    def _candidates(self, e):
        xs = set(self.syms) | set(self.back)
        out = []
        for a in e.atoms(sp.Pow, sp.exp, sp.log):
            if not (a.free_symbols & xs):
                continue
            if isinstance(a, sp.Pow) and a.exp.is_Integer:
                continue
            out.append(a)
        return out

    def atomize(self, e):
        e = sp.sympify(e)
        while True:
            cands = [a for a in self._candidates(e)]
            inner = [a for a in cands if not any(b != a and a.has(b) for b in cands)]
            if not inner:
                return e
            for a in sorted(inner, key=sp.default_sort_key):
                e = e.xreplace({a: self._symbol(a)})

    def _symbol(self, a):
        if a in self.sym_of:
            return self.sym_of[a]
        # exp(y) > 0; a root u^(p/q) >= 0 (0 where u is, on a tie leaf say); log(u) real
        S = (sp.Dummy("A", positive=True) if isinstance(a, sp.exp)
             else sp.Dummy("A", real=True) if isinstance(a, sp.log) else sp.Dummy("A", nonnegative=True))
        orig = a.xreplace(self.back)
        self.sym_of[a], self.back[S] = S, orig
        if isinstance(a, sp.exp):
            inner, coef = a.args[0], S
        elif isinstance(a, sp.log):
            inner = a.args[0]
            coef = 1 / inner
        else:
            if not a.exp.is_Rational:
                raise zb.Unsupported(f"power {a}")
            inner = a.base
            coef = a.exp * S / inner
            self.roots[S] = (inner, int(a.exp.q)) if a.exp.p == 1 else None
        self.chain[S] = (coef, inner)          # grad S = coef * grad inner
        self.partials[S] = [coef * self.d(inner, i) for i in range(len(self.syms))]
        return S

    def d(self, e, i):
        """d e / d x_i for an atomized e (chain rule through the atoms)."""
        out = sp.diff(e, self.syms[i])
        for S, parts in self.partials.items():
            if e.has(S):
                out += sp.diff(e, S) * parts[i]
        return out

    def _vars(self, e):
        return [v for v in e.free_symbols if v in self.syms or v in self.chain]

    def gram(self, u, v):
        """grad u . grad v for two variables (inputs or atoms), simplified and memoised."""
        key = (u, v) if sp.default_sort_key(u) <= sp.default_sort_key(v) else (v, u)
        if key in self._gram:
            return self._gram[key]
        u, v = key
        if u in self.syms and v in self.syms:
            out = sp.Integer(1 if u == v else 0)
        elif u in self.syms or v in self.syms:
            x, S = (u, v) if u in self.syms else (v, u)
            out = self.reduce(self.partials[S][self.syms.index(x)])
        else:
            coef, inner = self.chain[u]
            out = self.reduce(coef * sum(sp.diff(inner, w) * self.gram(w, v) for w in self._vars(inner)))
        self._gram[key] = out
        return out

    def inner(self, e1, e2):
        """grad e1 . grad e2 through the Gram matrix of the variables (keeps factors small)."""
        total = sp.Integer(0)
        for u in self._vars(e1):
            cu = sp.diff(e1, u)
            for v in self._vars(e2):
                total += cu * sp.diff(e2, v) * self.gram(u, v)
        return total

    def reduce(self, e):
        """Cancel, then replace S^q by its base for every root atom S."""
        e = sp.cancel(sp.together(e))
        num, den = sp.fraction(e)
        for S, r in self.roots.items():
            if r is None:
                continue
            g, q = r
            try:
                if num.has(S):
                    num = sp.rem(sp.expand(num), S**q - g, S)
                if den.has(S):
                    den = sp.rem(sp.expand(den), S**q - g, S)
            except sp.PolynomialError:
                continue
        return _cancel(num / den)


def _cancel(e):
    """sympy.cancel, over the algebraic numbers in e where there are some: plain cancel takes
    sqrt(2) as a variable s, and after sympy has written s^2 as 2 a common factor with sqrt(2) in
    its coefficients is no longer one (a squared gradient on a round corner kept a quartic over a
    quartic that z3 could not decide in a minute; over Q(sqrt 2) it is a quadratic over a quadratic)."""
    if any(a.is_Pow and a.base.is_Rational and a.exp.is_Rational and not a.exp.is_Integer
           for a in e.atoms(sp.Pow)):
        try:
            return sp.cancel(e, extension=True)
        except (sp.PolynomialError, NotImplementedError, ValueError, TypeError):
            pass
    return sp.cancel(e)


_MEMO = Memo()


def _memo(kind, exprs, syms, fn):
    """Gradient expressions are computed once per (kind, expressions): (result, atom map)."""
    def compute():
        A = Atoms(syms)
        return fn(A), dict(A.back)
    return _MEMO.get_or((kind, exprs, tuple(syms)), compute)


def grad_sq(expr, syms):
    """|grad expr|^2 in atomized form, and the atom map (sympy differentiates; nobody writes a
    derivative by hand)."""
    def fn(A):
        e = A.atomize(expr)
        return A.inner(e, e)
    return _memo("grad", (expr,), syms, fn)


def _log_of(B):
    """(r, u) with ln B = r ln u + a constant: B's positive constant factor dropped and its roots
    peeled, (k u^(p/q)) -> (p/q, u).  grad ln B = r grad ln u wherever B > 0 (the rates are asked
    only there), and grad ln u is far smaller: differentiating sqrt(u) through the root's atom and
    cancelling kept sympy busy for minutes on a smoothed SUM under the l2 metric (0.03 s for u)."""
    r = sp.Integer(1)
    while True:
        c, rest = B.as_coeff_Mul()
        if c.is_positive and c != 1 and rest.free_symbols:
            B = rest
        elif B.is_Pow and B.exp.is_Rational and not B.exp.is_Integer:
            r, B = r * B.exp, B.base
        else:
            return r, B


def grad_log_sq(B, syms):
    """|grad ln B|^2 in atomized form, and the atom map."""
    r, u = _log_of(B)
    if u is not B:
        g2, back = grad_log_sq(u, syms)
        return r**2 * g2, back

    def fn(A):
        e = A.atomize(B)
        return A.inner(e, e) / e**2
    return _memo("glog", (B,), syms, fn)


def ratio_cover_sq(f, B, syms):
    """|grad f|^2 / B^2 in atomized form, and the atom map."""
    def fn(A):
        e = A.atomize(f)
        return A.inner(e, e) / A.atomize(B)**2
    return _memo("cover", (f, B), syms, fn)


def _plain(metric):
    return metric is None or metric.euclidean


def _with_squares(A, parts):
    """(parts, their squares), each square of a part with a root in it reduced: (d/dx sqrt(u))^2 =
    (u'/2)^2 / u has no root left, which z3 decides far more easily than the square of a root (and
    a part without one is left as it is: cancelling it can make a far harder query)."""
    roots = {S for S, r in A.roots.items() if r is not None}
    return parts, tuple(A.reduce(p**2) if p.free_symbols & roots else p**2 for p in parts)


def grad_parts(expr, syms):
    """([d expr / d x_i], their squares) in atomized form (one Atoms for all of them), and the
    atom map."""
    def fn(A):
        e = A.atomize(expr)
        return _with_squares(A, tuple(A.reduce(A.d(e, i)) for i in range(len(syms))))
    return _memo("parts", (expr,), syms, fn)


def cover_parts(f, B, syms):
    """([d f / d x_i], B, the squares of the d f / d x_i) in atomized form over one Atoms, and the
    atom map."""
    def fn(A):
        e = A.atomize(f)
        return (*_with_squares(A, tuple(A.reduce(A.d(e, i)) for i in range(len(syms)))), A.atomize(B))
    return _memo("cparts", (f, B), syms, fn)


def log_parts(B, syms):
    """([d ln B / d x_i] = [d B / d x_i / B], their squares) in atomized form, and the atom map."""
    def fn(A):
        e = A.atomize(B)
        return _with_squares(A, tuple(A.reduce(A.d(e, i)) / e for i in range(len(syms))))
    return _memo("lparts", (B,), syms, fn)


def dual_sq(metric, parts):
    """||g||_*^2 for the gradient components `parts` (a sympy expression for sampling)."""
    if _plain(metric):
        return sp.Add(*[g**2 for g in parts])
    return metric.dual_sq_expr(parts)


_DERIVED = Memo()


def _metric_key(metric):
    """What of a metric the dual-norm expressions depend on (None: the plain Euclidean one)."""
    return None if _plain(metric) else (metric.kind, tuple(metric.weights), metric.dim)


def dual_le(metric, parts, bound, squares=None):
    """metric.dual_le_sym(parts, bound, squares), memoised by the exact expressions (sympy's
    evaluation of the inequalities is slow, and the alternatives of tie sets recur across leaves)."""
    return _DERIVED.get_or(("dual_le", _metric_key(metric), tuple(parts), bound, squares),
                           lambda: metric.dual_le_sym(parts, bound, squares))


def ratio_sq(kind, alt, syms, metric=None):
    """The sampled quantity of a rate: (||grad f||_* / B)^2 (cover) or ||grad ln B||_*^2 (smooth),
    in the original functions (memoised: the alternatives of tie sets recur across leaves)."""
    return _DERIVED.get_or(("ratio", kind, alt.f, alt.B, tuple(syms), _metric_key(metric)),
                           lambda: _ratio_sq(kind, alt, syms, metric))


def _ratio_sq(kind, alt, syms, metric):
    if _plain(metric):
        return original(ratio_cover_sq(alt.f, alt.B, syms) if kind == "cover" else grad_log_sq(alt.B, syms))
    # the parts are written back first: a Max rebuilt by xreplace would be evaluated again (slow)
    if kind == "cover":
        (parts, _, Bat), back = cover_parts(alt.f, alt.B, syms)
        return dual_sq(metric, [original((p, back)) for p in parts]) / original((Bat, back))**2
    (parts, _), back = log_parts(alt.B, syms)
    return dual_sq(metric, [original((p, back)) for p in parts])


def original(pair):
    """An atomized expression written back in the original functions (for numerics)."""
    expr, back = pair
    return sp.powsimp(expr.xreplace(back))


def _build(condition, region, claim, make, params, bound=None, sym_region=(), claim_of=None,
           make_alone=None, make_each=()) -> Obligation:
    def query(extra=None, make=make):
        tr = zb.Translator()
        formula = make(tr)
        if extra is not None:
            formula = zb.conj(formula, tr(extra))
        return tr.query(formula, [tr(p) for p in params])

    def rebuild(extra):
        try:
            return query(extra)
        except zb.Unsupported:
            return None
    try:
        q = query()
    except zb.Unsupported as err:
        return Obligation(condition, region, claim, None, bound, error=str(err))
    alone = None
    if make_alone is not None:
        try:
            alone = query(make=make_alone)
        except zb.Unsupported:
            alone = None
    try:
        each = tuple(query(make=m) for m in make_each)
    except zb.Unsupported:
        each = ()
    return Obligation(condition, region, claim, q, bound, notes=list(q.notes), sym_region=tuple(sym_region),
                      claim_of=claim_of, rebuild=rebuild, alone=alone, each=each)


# The conditions first tried alternative by alternative on a leaf with several (the arguments of a
# max where they tie), as the kernel tries them (kernel.certificate._Run.some_alt): B_k > 0 and the
# smoothness of each argument usually hold everywhere, and the arguments' conditions (each the
# largest) are what makes the joint query hard.
EACH = ("B_positive", "smooth")


def _on_leaf(condition, leaf: Leaf, claim, prop, params, bound=None, sym_region=(), claim_of=None) -> Obligation:
    """The obligation "on the leaf, some active alternative satisfies prop", with its negation
    without the leaf's conditions as `alone` where the leaf has conditions: a claim that holds
    everywhere is often proved faster so (the conditions only add a nonlinear region to the query),
    and unsat without them is unsat with them.  For the conditions of EACH on a leaf with several
    alternatives, also `each`: for each alternative, prop fails where the alternative is defined,
    without any condition; unsat for every one is unsat on the leaf (some alternative is active at
    each of its points)."""
    each = [(lambda tr, alt=alt: zb.conj(z3.Not(prop(tr, alt)), tr(_alt_defined(alt)))) for alt in leaf.alts] \
        if condition in EACH and len(leaf.alts) > 1 else ()
    return _build(condition, leaf.label, claim, lambda tr: _region_negation(tr, leaf, prop), params, bound,
                  sym_region, claim_of,
                  (lambda tr: _region_negation(tr, leaf, prop, region=False)) if _nonlinear(leaf.conds) else None,
                  each)


def _nonlinear(conds) -> bool:
    """Some relation of the conditions is not linear in its symbols (a root, an exponential, a
    product): only such conditions make a query harder, linear ones are cheap for z3, and a call
    without them that does not prove costs more than it saves.  Memoised: every obligation of a
    leaf asks it of the same conditions."""
    return _NONLINEAR.get_or(tuple(conds), lambda: _has_nonlinear(conds))


_NONLINEAR = Memo(4000)


def _has_nonlinear(conds) -> bool:
    for c in conds:
        for rel in sp.sympify(c).atoms(sp.core.relational.Relational):
            e = rel.lhs - rel.rhs
            syms = sorted(e.free_symbols, key=sp.default_sort_key)
            try:
                if syms and sp.Poly(e, *syms).total_degree() > 1:
                    return True
            except sp.PolynomialError:
                return True
    return False


def _sym_claim(leaf: Leaf, prop):
    """() -> the claim on the leaf in sympy: some active alternative satisfies prop."""
    return lambda: sp.Or(*[sp.And(*(list(a.conds) + [prop(a)])) for a in leaf.alts])


def _alt_defined(alt):
    """The definedness of an alternative's formulas (proved by the `defined` obligations)."""
    return sp.And(domain_defined(alt.f), domain_defined(alt.B) if alt.B is not None else sp.true)


_FIRST = Memo(4000)


def snapshot(tr: zb.Translator) -> dict:
    """A copy of a translator's state (the z3 terms themselves are immutable and shared)."""
    return {**{k: type(getattr(tr, k))(getattr(tr, k)) for k in tr.STATE}, **{k: getattr(tr, k) for k in tr.SCALARS}}


def restore(tr: zb.Translator, snap: dict) -> None:
    """Continue from a snapshot() state: exactly as if its translations had been made in tr."""
    for k, v in snap.items():
        setattr(tr, k, type(v)(v) if k in tr.STATE else v)


def untouched(tr: zb.Translator) -> bool:
    """Whether nothing was translated in tr yet (the state a snapshot can be restored into)."""
    return not (tr.vars or tr.facts or tr._cache or tr.alias or tr._n)


def _first(tr, key, fn):
    """fn(tr) for a translator that has translated nothing yet, from a memo of its result and of
    the translator's state afterwards (keyed by `key`, which must determine what fn translates):
    the same translations made first give the same terms, facts and fresh names.  A region's
    conditions recur in every obligation of the leaf, a piece's closure in each of its pairs."""
    if not untouched(tr) or tr.tag:
        return fn(tr)
    if key not in _FIRST:
        out = fn(tr)
        _FIRST[key] = (out, snapshot(tr))
        return out
    out, snap = _FIRST[key]
    restore(tr, snap)
    return out


def _region_negation(tr, leaf: Leaf, prop, region=True):
    """C_R (without it where `region` is False) and no active alternative satisfies prop (where the
    alternatives are defined)."""
    region = _first(tr, ("region", leaf.conds), lambda t: [t(c) for c in leaf.conds]) if region else []
    fails = []
    for alt in leaf.alts:
        active = [tr(c) for c in alt.conds]
        ok = zb.conj(*(active + [prop(tr, alt)]))
        fails.append(z3.Not(ok))
        dfn = _alt_defined(alt)
        if dfn is not sp.true:
            fails.append(z3.Implies(zb.conj(*active) if active else z3.BoolVal(True), tr(dfn)))
    return zb.conj(*(region + fails))


def b_positive(leaf: Leaf, params=()) -> Obligation:
    return _on_leaf("B_positive", leaf, f"B > 0 on {leaf.label}", lambda t, a: t(a.B) > 0, params,
                    sym_region=leaf.conds, claim_of=_sym_claim(leaf, lambda a: a.B > 0))


def _dual(condition, leaf: Leaf, of: str, parts_of, bound_text, metric, params, bound) -> Obligation:
    """||grad `of`||_* <= bound on the leaf in the dual norm of a non-Euclidean metric.
    parts_of(alt) = (atomized gradient components, the bound atomized, the bound in the original
    functions, the atom map)."""
    def prop(tr, alt):
        (parts, squares), rhs, _, back = parts_of(alt)
        tr.alias.update(back)
        return tr(dual_le(metric, parts, rhs, squares))

    def claim(alt):
        (parts, _), _, rhs, back = parts_of(alt)
        return dual_le(metric, [original((g, back)) for g in parts], rhs)
    return _on_leaf(condition, leaf, f"||grad {of}||_* <= {bound_text} on {leaf.label} ({metric.label} metric)",
                    prop, params, bound, leaf.conds, _sym_claim(leaf, claim))


def cover(leaf: Leaf, syms, a, params=(), metric=None) -> Obligation:
    if not _plain(metric):
        def parts_of(alt):   # ([d f / d x_i], a B) atomized, and the atom map
            (parts, squares, Bat), back = cover_parts(alt.f, alt.B, syms)
            return (parts, squares), a * Bat, a * alt.B, back
        return _dual("cover", leaf, "f", parts_of, f"{a} * B", metric, params, a)

    def prop(tr, alt):
        g2, back = grad_sq(alt.f, syms)
        tr.alias.update(back)
        return tr(g2) <= tr(a)**2 * tr(alt.B)**2
    return _on_leaf("cover", leaf, f"|grad f| <= {a} * B on {leaf.label}", prop, params, a, leaf.conds,
                  _sym_claim(leaf, lambda t: original(grad_sq(t.f, syms)) <= a**2 * t.B**2))


def lipschitz(leaf: Leaf, syms, K, params=(), metric=None) -> Obligation:
    """|grad f| <= K on the leaf (the query's global Lipschitz constant, piece by piece); in
    the dual norm ||grad f||_* for a non-Euclidean metric."""
    if not _plain(metric):
        def parts_of(alt):
            parts, back = grad_parts(alt.f, syms)
            return parts, K, K, back
        return _dual("lipschitz", leaf, "f", parts_of, K, metric, params, K)

    def ratio(alt):
        return sp.powsimp(sp.expand(original(grad_sq(alt.f, syms)) / K**2), combine="exp")

    def prop(tr, alt):
        return tr(ratio(alt)) <= 1
    return _on_leaf("lipschitz", leaf, f"|grad f| <= {K} on {leaf.label}", prop, params, K, leaf.conds,
                  _sym_claim(leaf, lambda a: ratio(a) <= 1))


def smooth(leaf: Leaf, syms, c, params=(), metric=None) -> Obligation:
    if not _plain(metric):
        def parts_of(alt):
            parts, back = log_parts(alt.B, syms)
            return parts, c, c, back
        return _dual("smooth", leaf, "ln B", parts_of, c, metric, params, c)

    def prop(tr, alt):
        g2, back = grad_log_sq(alt.B, syms)
        tr.alias.update(back)
        return tr(g2) <= tr(c)**2
    return _on_leaf("smooth", leaf, f"|grad ln B| <= {c} on {leaf.label}", prop, params, c, leaf.conds,
                  _sym_claim(leaf, lambda t: original(grad_log_sq(t.B, syms)) <= c**2))


def coverage(expr, name: str, params=()) -> list[Obligation]:
    """The pieces of a Piecewise cover R^d: at every x some piece's condition holds, and each
    condition is defined wherever it is evaluated (where every earlier condition is false).  A
    Piecewise whose conditions leave a set uncovered has no value there: a band between two pieces
    would make every other obligation vacuous across it (continuity is checked only where closures
    meet), so without this obligation a jump across the band could be certified."""
    if not isinstance(expr, sp.Piecewise):
        return []
    conds = [c for _, c in expr.args]
    if any(c is sp.true for c in conds):
        return []

    def make(tr, conds=conds):
        gaps = [zb.conj(*[z3.Not(tr(c)) for c in conds])]
        for k, c in enumerate(conds):
            dom = domain_defined(c)
            if dom is not sp.true:
                gaps.append(zb.conj(*([z3.Not(tr(e)) for e in conds[:k]] + [z3.Not(tr(dom))])))
        return zb.disj(*gaps)
    return [_build("defined", f"{name} (all pieces)",
                   f"the pieces of {name} cover the input domain (some condition holds at every x)",
                   make, params)]


def defined(expr, name: str, params=()) -> list[Obligation]:
    """The pieces cover the domain (`coverage`), and for each piece whose formula has partial
    functions: they are defined on its closure."""
    out = coverage(expr, name, params)
    for k, (conds, val) in enumerate(pieces(expr), 1):
        need = domain_conditions(val)
        if not need:
            continue
        cl = closure_cover(conds, params)
        if not cl:
            continue

        def make(tr, cl=cl, need=need):
            region = zb.disj(*[zb.conj(*[tr(a) for a in d]) for d in cl])
            return zb.conj(region, z3.Not(zb.conj(*[tr(c) for c in need])))
        out.append(_build("defined", f"{name}{k}",
                          f"{name} piece {k} is defined on its closure: " + ", ".join(str(c) for c in need),
                          make, params))
    return out


def continuity(expr, name: str, params=()) -> list[Obligation]:
    """For each pair of pieces whose closures may meet: the two formulas agree there."""
    ps = pieces(expr)
    closures = [closure_cover(c, params) for c, _ in ps]
    out = []
    for i in range(len(ps)):
        for j in range(i + 1, len(ps)):
            (_, vi), (_, vj) = ps[i], ps[j]
            if vi == vj or not closures[i] or not closures[j]:
                continue
            region = f"{name}{i + 1}|{name}{j + 1}"

            def make(tr, ci=closures[i], cj=closures[j], vi=vi, vj=vj):
                si = _first(tr, ("closure", tuple(ci)), lambda t: zb.disj(*[zb.conj(*[t(a) for a in d]) for d in ci]))
                sj = zb.disj(*[zb.conj(*[tr(a) for a in d]) for d in cj])
                dfn = sp.And(domain_defined(vi), domain_defined(vj))   # proved by `defined`
                return zb.conj(si, sj, tr(dfn), tr(vi) != tr(vj))
            out.append(_build("continuity", region,
                              f"{name} piece {i + 1} = piece {j + 1} on their common boundary", make, params))
    return out


def _pair_symbols(syms):
    return tuple(sp.Symbol(s.name + "p", real=True) for s in syms)


def _dist(tr, syms, psyms, metric=None):
    if not _plain(metric):
        return tr(metric.dist_sym(syms, psyms))
    if len(syms) == 1:
        return tr(sp.Abs(syms[0] - psyms[0]))
    return tr(sp.sqrt(sum((s - p)**2 for s, p in zip(syms, psyms))))


def two_point_cover(f, B, syms, Lambda, params=(), metric=None) -> Obligation:
    psyms = _pair_symbols(syms)
    fp = f.xreplace(dict(zip(syms, psyms)))

    def make(tr):
        d = _dist(tr, syms, psyms, metric)
        parts = [z3.If(tr(f) - tr(fp) >= 0, tr(f) - tr(fp), tr(fp) - tr(f)) > tr(B) * d, d > 0]
        if Lambda != sp.oo:
            parts.append(d <= tr(Lambda))
        return z3.And(*parts)
    return _build("two_point_cover", "all pairs", "|f(x) - f(x')| <= B(x) |x - x'| for |x - x'| <= Lambda",
                  make, params)


def two_point_smooth_linear(B, syms, gamma, Lambda, params=(), metric=None) -> Obligation:
    psyms = _pair_symbols(syms)
    Bp = B.xreplace(dict(zip(syms, psyms)))

    def make(tr):
        d = _dist(tr, syms, psyms, metric)
        parts = [tr(B) > (1 + tr(gamma) * d) * tr(Bp)]
        if Lambda != sp.oo:
            parts.append(d <= tr(Lambda))
        return z3.And(*parts)
    return _build("two_point_smooth", "all pairs", "B(x) <= (1 + gamma |x - x'|) B(x')", make, params)
