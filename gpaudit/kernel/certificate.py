"""The certificate checker: the kernel derives every obligation a route needs and decides each one.

Everything that searches (the proof stage's region splitting and rate search, the family supremum's
branch and bound, derived bounds, caches, forked copies) is an untrusted generator.  It hands the
kernel a `Certificate`: the route, a partition of R^d into regions, per region the smooth formulas f
and B take there (its alternatives) and the constants a_R, c_R, and the bound E on the rate.  From
the mechanism itself (`Problem`, built from the configuration) and the certificate, `check` states
the obligations below, decides each with z3 (never a cache, never another process's answer), and
returns a `Verified` only when all hold; nothing else can construct one.

Route `regions` (B a formula), per region R with alternatives (C_k, f_k, B_k):

  owned[F]          every x is owned by a piece of F (f or B, as the configuration writes it)
  cover[fi.Bj]      the regions that name pieces (i, j) cover where those pieces hold (without
                    such names: cover_regions, the regions' conditions cover R^d)
  alternatives[R]   on R some alternative's conditions hold
  inpiece[R.F]      R lies in the piece it names
  agrees[R.k.F]     on R /\\ C_k, F has a value, F_k is defined, and F = F_k (so the rates below
                    are F's)
  defined[Fi]       piece i's formula is defined on a closed superset of the piece's closure
  continuous[Fi|Fj] pieces i and j agree where those closed sets meet: the closures are finitely
                    many closed sets covering R^d, so F is continuous on R^d (pasting lemma)
  B_positive[R]     on R, B_k > 0 for an alternative active there (first tried as: B_k > 0
                    everywhere for every alternative, _Run.some_alt)
  cover[R]          on R, ||grad f_k||_* <= a_R B_k for an alternative active there (output.dim
                    k > 1: f = (f1..fk) and the operator norm ||J f_k||_{metric -> l2} <= a_R B_k)
  smooth[R]         on R, ||grad ln B_k||_* <= c_R for an alternative active there (first
                    tried for every alternative everywhere, likewise)
  two_point_*       Definition 8 for all pairs (only linear growth with delta > 0 or Lambda < inf)

Route `lemma_3_1` (B = B* of Definition 9): agrees for f; lipschitz[R] |grad f_k| <= K; a point z
strictly inside a region where grad f_k(z) != 0 (exactly), so B* > 0; then a = 1, c = gamma.

Rate: pure claims: for every region and every piece of the score,
  eta a_R |psi(u)| + c_R |k + u psi(u)| <= E  for u >= 0 (z3, the score derived here from ln h;
  k the output dimension, the radial density c_k h(||z||_2)),
and E <= epsilon exactly.  delta > 0: Lemma 3.6 or Laud et al.'s Theorem 4, their hypotheses and
their closed forms compared exactly (docs/certificate.md derives each); or, for B a constant
(fixed-scale Laplace or Gaussian noise), `exact_profile`: the exact hockey-stick divergence of the
largest shift the cover conditions allow at distance Lambda (kernel.profile) <= delta.
"""

from __future__ import annotations

import itertools
from dataclasses import InitVar, dataclass, field, replace

import sympy as sp
import z3

from . import numbers, profile
from . import z3door as zb
from .domain import defined as domain_defined

_TOKEN = object()
ALONE_MS = 2000           # the budget of an obligation tried without its region (_Run.need)
BUDGET_MS = 20000          # each obligation's deterministic work budget (z3door.rlimit_of)
U = sp.Symbol("u", nonnegative=True)


@dataclass(frozen=True)
class Problem:
    """What the configuration says, exactly: the mechanism and the claim."""
    syms: tuple
    f: sp.Expr
    B: sp.Expr | None                 # None: B* of Definition 9 (route lemma_3_1)
    metric: str                       # l1 | l2 | linf
    weights: tuple                    # w_i > 0, exact
    family: str
    log_density: tuple                # ln h(u) on u >= 0, piece by piece (exact, in U)
    breaks: tuple                     # the pieces' break points, exact, increasing
    eta: sp.Expr
    gamma: sp.Expr
    growth: str                       # linear | exponential
    Lambda: sp.Expr
    epsilon: sp.Expr
    delta: sp.Expr
    bound_kind: str
    k: int = 1                        # output.dim; for k > 1, f and each Alternative.f are k-tuples


@dataclass(frozen=True)
class Alternative:
    conds: tuple
    f: sp.Expr
    B: sp.Expr | None


@dataclass(frozen=True)
class Region:
    label: str
    conds: tuple
    alts: tuple
    a: sp.Expr
    c: sp.Expr
    pieces: tuple = ()      # a hint: the 1-based pieces of (f, B) the region lies in (checked)


@dataclass(frozen=True)
class Certificate:
    route: str                        # regions | lemma_3_1
    regions: tuple
    epsilon_upper: sp.Expr | None     # E: the bound on every region's pure rate
    delta_route: str | None = None    # None | lemma_3_6 | laud_theorem_4 | exact_profile
    lipschitz: sp.Expr | None = None  # lemma_3_1: K
    point: tuple | None = None        # lemma_3_1: exact z with grad f(z) != 0


@dataclass(frozen=True)
class Outcome:
    """One obligation's result: `holds` only on z3 unsat (or an exact comparison)."""
    name: str
    holds: bool
    detail: str


@dataclass(frozen=True)
class Verified:
    """A certificate the kernel checked: the claim holds with rate at most epsilon_upper."""
    epsilon_upper: sp.Expr
    route: str
    outcomes: tuple
    key: InitVar[object] = None       # the kernel's token: not a field, so dataclasses.replace cannot pass it on
    _token: object = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self, key):
        if key is not _TOKEN:
            raise TypeError("a Verified certificate is made only by gpaudit.kernel.certificate.check")
        object.__setattr__(self, "_token", _TOKEN)

    def __reduce__(self):
        # sent from a worker of `gpaudit check -j N` (the same program, which checked it there)
        return (_rebuild, (self.epsilon_upper, self.route, self.outcomes))


def _rebuild(eps, route, outcomes):
    return Verified(eps, route, outcomes, _TOKEN)


def recorded(data) -> Verified | None:
    """A Verified as a record of this program stores it (a sweep's point file, which its workers
    wrote after the kernel checked the certificate there): a report of a check, not a proof;
    `gpaudit verify` checks a certificate again."""
    if not isinstance(data, dict) or not isinstance(data.get("route"), str):
        return None
    try:
        return _rebuild(sp.Rational(str(data["epsilon_upper"])), data["route"], ())
    except (KeyError, TypeError, ValueError):
        return None


def record(v) -> dict | None:
    """The record of a Verified (see `recorded`)."""
    if not is_verified(v):
        return None
    return {"epsilon_upper": str(sp.Rational(v.epsilon_upper)) if v.epsilon_upper.is_Rational
            else numbers.decimal_up(v.epsilon_upper, 40), "route": v.route}


def is_verified(v) -> bool:
    return isinstance(v, Verified) and v._token is _TOKEN


class Rejected(Exception):
    """The certificate does not check: `outcomes` says which obligations failed."""

    def __init__(self, outcomes):
        self.outcomes = tuple(outcomes)
        bad = [o for o in self.outcomes if not o.holds]
        super().__init__("; ".join(f"{o.name}: {o.detail}" for o in bad[:3]) or "rejected")


# -- deciding ---------------------------------------------------------------------------------

def _ratio(a, b):
    """The rational r != 0 with a = r b, when a and b are sums of the same terms in proportion
    (None otherwise): a structural test, no simplification."""
    da, db = sp.Add(a).as_coefficients_dict(), sp.Add(b).as_coefficients_dict()
    if set(da) != set(db) or not da:
        return None
    k = next(iter(db))
    r = da[k] / db[k]
    if not (sp.sympify(r).is_Rational and r != 0) or any(da[t] != r * db[t] for t in da):
        return None
    return sp.Rational(r)


def linked(e):
    """(sub, alias): sub writes every exp(a) of e as E^n for one symbol E = exp(b) per group of
    arguments that are rational multiples of each other (exp(x/5) = E^2 with E = exp(x/10)): an
    identity, so that z3 sees one variable for the group (it knows nothing of exp but the facts the
    translator states for E, and sympy merges exp(a) exp(a) into exp(2a) on its own).  alias maps
    each E to the exp(b) it stands for (the translator's alias); the translator writes each exp(a)
    of sub as its E^n (Translator.linked), e itself is not rebuilt.  exp(b) itself, where it is in
    e, is left out of sub: it is what E stands for."""
    atoms = sorted(e.atoms(sp.exp), key=sp.default_sort_key)
    groups: list[list] = []
    for a in atoms:
        g = next((g for g in groups if _ratio(a.args[0], g[0].args[0]) is not None), None)
        if g is None:
            groups.append(g := [])
        g.append(a)
    sub, alias = {}, {}
    for k, g in enumerate(groups):
        if len(g) < 2:
            continue
        ratios = [_ratio(a.args[0], g[0].args[0]) for a in g]
        den = sp.ilcm(*[r.q for r in ratios])              # a group has two members or more
        num = sp.igcd(*[(r * den).p for r in ratios])
        E = sp.Symbol(f"linked_exp_{k}", positive=True)
        alias[E] = sp.exp(g[0].args[0] * num / den)
        for a, r in zip(g, ratios):
            if a != alias[E]:
                sub[a] = E**int(r * den / num)
    return sub, alias


def _translate(tr, *exprs, roots=None):
    """The z3 terms of exprs, translated together after `linked` (one symbol per group of
    exponentials), with the roots' symbols standing for their square roots."""
    sub, alias = linked(sp.Tuple(*exprs))
    tr.alias.update(alias)
    tr.linked.update(sub)
    tr.alias.update(roots or {})
    return [tr(e) for e in exprs]


def _unsat(formula, budget_ms=BUDGET_MS, roots=None, relax=False) -> tuple[bool, str]:
    """z3 proves `formula` (a sympy boolean, or a builder tr -> z3 formula) unsatisfiable.  `roots`:
    symbols standing for square roots in it (Roots.alias).  `relax` (for a bound, never an equality
    or a set that is not empty, which no relaxation proves): first with its irrational constants
    enclosed (z3door.ENCLOSE_BITS), then, where that is not unsat, exactly."""
    for enclose in ((True, False) if relax else (False,)):
        tr = zb.Translator(enclose=enclose)
        try:
            q = tr.query(formula(tr) if callable(formula) else _translate(tr, formula, roots=roots)[0])
        except zb.Unsupported as err:
            return False, f"not translatable: {err}"
        relaxed = enclose and tr.enclosed > 0
        ans = zb.solve(q, min(budget_ms, ALONE_MS) if relaxed else budget_ms)
        if ans.status == zb.UNSAT or not relaxed:
            break
    how = " with its constants enclosed" if relaxed else ""
    return ans.status == zb.UNSAT, f"z3 {ans.status}{how}" + (f" ({ans.seconds:.1f} s)" if ans.seconds >= 1 else "")


class _Run:
    def __init__(self):
        self.outcomes: list[Outcome] = []
        self._decided: dict = {}
        self.roots = Roots()

    def empty(self, conds) -> bool:
        """z3 shows the conjunction empty (memoised for this check only, as every formula is)."""
        return self._decide(sp.And(*conds), 3000)[0]

    def need(self, name, formula, budget_ms=BUDGET_MS, within=(), relax=False):
        """z3 shows `formula` unsatisfiable.  With `within` (a region's conditions), z3 first tries
        formula alone, with a smaller budget: it is implied by And(within, formula), so unsat alone
        is unsat within (most cover and smooth bounds hold everywhere, and the region's conditions
        only add variables to a nonlinear query).  A formula equal (as a sympy expression) to one
        already decided in this check gets that answer: the same translation, call and z3."""
        if within and not callable(formula) and self._decide(formula, ALONE_MS, relax)[0]:
            self.outcomes.append(Outcome(name, True, "z3 unsat without the region's conditions"))
            return True
        holds, how = (_unsat(formula, budget_ms, self.roots.alias, relax) if callable(formula)
                      else self._decide(sp.And(*within, formula), budget_ms, relax))
        self.outcomes.append(Outcome(name, holds, how))
        return holds

    def some_alt(self, name, region, prop, each=False):
        """need: on the region, some alternative active there satisfies prop.  With `each`, z3 first
        tries prop for each alternative on its own, everywhere, with the smaller budget: unsat for
        every one says prop holds wherever any alternative is used, so on the region for whichever
        is active there (one is: alternatives[R], or an alternative without conditions).  B > 0 and
        the smoothness of each of a max's arguments usually hold everywhere, and the alternatives'
        conditions (each argument is the largest) are what makes the joint query hard: a tie of four
        arguments took 0.65 s as one query, and 20 ms as four."""
        if each and all(self._decide(sp.Not(prop(a)), ALONE_MS, True)[0] for a in region.alts):
            return self.exact(name, True, "z3 unsat for each alternative, without any conditions")
        return self.need(name, sp.Not(sp.Or(*[sp.And(*a.conds, prop(a)) for a in region.alts])),
                         within=region.conds, relax=True)

    def _decide(self, formula, budget_ms, relax=False):
        key = (formula, budget_ms, relax)
        if key not in self._decided:
            self._decided[key] = _unsat(formula, budget_ms, self.roots.alias, relax)
        return self._decided[key]

    def exact(self, name, ok, detail):
        self.outcomes.append(Outcome(name, bool(ok), detail))
        return bool(ok)

    @property
    def ok(self):
        return all(o.holds for o in self.outcomes)


# -- sets -------------------------------------------------------------------------------------

def _closed(c):
    """A closed condition containing the closure of {c} (c in negation normal form): strict
    relations relaxed, `!=` dropped, and the points where c's partial functions are undefined
    added (the closure of {log(x) < 0} contains 0, where log(x) <= 0 has no value)."""
    if isinstance(c, (sp.And, sp.Or)):
        return c.func(*[_closed(a) for a in c.args])
    if isinstance(c, sp.Ne):
        return sp.true
    if isinstance(c, (sp.StrictLessThan, sp.StrictGreaterThan)):
        rel = sp.Le(c.lhs, c.rhs) if isinstance(c, sp.StrictLessThan) else sp.Ge(c.lhs, c.rhs)
    elif isinstance(c, sp.core.relational.Relational):
        rel = c
    elif c in (sp.true, sp.false):
        return c
    else:
        raise zb.Unsupported(f"condition {c}")
    dom = domain_defined(c)
    return rel if dom is sp.true else sp.Or(rel, sp.Not(dom))


def _irredundant(run, conds) -> list:
    """conds without each total condition the others imply (z3 shows the others and its negation
    empty): the same set, so the same closure, with fewer disjunctions to expand."""
    conds = list(conds)
    for c in list(conds[1:]):
        rest = [d for d in conds if d is not c]
        if domain_defined(c) is sp.true and run.empty(rest + [sp.to_nnf(sp.Not(c))]):
            conds = rest
    return conds


def _closure(run, conds):
    """A closed superset of cl({all conds}): the DNF built condition by condition, a conjunction
    dropped as soon as z3 shows it empty (so that the boundary of an empty set adds nothing), then
    each disjunct relaxed (_closed)."""
    parts = [()]
    for c in _irredundant(run, conds):
        dnf = sp.to_dnf(sp.to_nnf(c), simplify=False)
        terms = dnf.args if isinstance(dnf, sp.Or) else (dnf,)
        parts = [q for q in (p + (tuple(t.args) if isinstance(t, sp.And) else (t,)) for p in parts for t in terms)
                 if not run.empty(q)]
        if len(parts) > 64:
            return _closed(sp.to_nnf(sp.And(*conds)))
    return sp.Or(*[sp.And(*[_closed(a) for a in p]) for p in parts]) if parts else sp.false


def _pieces(F):
    """[(conditions, value)] of a Piecewise: piece k holds where its condition does and no earlier."""
    if not isinstance(F, sp.Piecewise):
        return [((), F)]
    out, earlier = [], []
    for val, cond in F.args:
        out.append((tuple([cond] + [sp.Not(e) for e in earlier]), val))
        earlier.append(cond)
        if cond is sp.true:
            break
    return out


def _has_value(F, values=True):
    """F (a Piecewise as the configuration writes it) has a value: some piece's condition holds where
    every earlier one fails, every condition evaluated on the way is defined, and (with `values`)
    so is that piece's formula."""
    if not isinstance(F, sp.Piecewise):
        return domain_defined(F) if values else sp.true
    cases, earlier = [], []
    for val, cond in F.args:
        cases.append(sp.And(*[sp.Not(e) for e in earlier], *[domain_defined(e) for e in earlier + [cond]], cond,
                            domain_defined(val) if values else sp.true))
        earlier.append(cond)
        if cond is sp.true:
            break
    return sp.Or(*cases)


def _le(a, b):
    """a <= b, left for z3 to decide (sympy's own evaluation of a relation asks its assumptions)."""
    return sp.Le(a, b, evaluate=False)


def _dual_le(metric, weights, grads, bound, roots):
    """||g||_* <= bound (bound >= 0) for the dual norm of the input metric, without roots."""
    g = [gi / w for gi, w in zip(grads, weights)]
    if metric == "l2" or len(g) == 1:
        return _le(roots.reduce(sp.Add(*[gi**2 for gi in g])), bound**2)
    if metric == "l1":          # dual: max_i |g_i| / w_i
        return sp.And(*[_le(roots.reduce(gi**2), bound**2) for gi in g])
    if metric == "linf":        # dual: sum_i |g_i| / w_i
        return _le(sp.Add(*[sp.Abs(gi) for gi in g]), bound)
    raise ValueError(f"unknown metric {metric}")


class Roots:
    """Square roots of the inputs as symbols S = sqrt(u) (S >= 0), numbered in order of first use,
    so that gradients stay rational in (x, S): dS/dx_i = (du/dx_i) / (2 S) (the chain rule), and
    S^2 is reduced to u.  `alias` maps each S to sqrt(u), which the translator abstracts with its
    facts (u >= 0 -> r >= 0 and r^2 = u).  Only roots whose radicand has no root are taken."""

    def __init__(self):
        self.of: dict = {}        # radicand -> S
        self.alias: dict = {}     # S -> sqrt(radicand)
        self.radicand: dict = {}  # S -> radicand
        self._reduced: dict = {}  # e -> reduce(e): regions that share a formula share its reduction

    def atomize(self, e):
        sub = {}
        def root(q):
            return q.exp.is_Rational and q.exp.q == 2 and bool(q.base.free_symbols)
        for p in sorted(e.atoms(sp.Pow), key=sp.default_sort_key):   # the roots numbered alike in every run
            if root(p) and not any(root(q) for q in p.base.atoms(sp.Pow)):
                S = self.of.get(p.base)
                if S is None:
                    S = self.of[p.base] = sp.Symbol(f"root_{len(self.of)}", nonnegative=True)
                    self.alias[S], self.radicand[S] = sp.sqrt(p.base), p.base
                sub[p] = S**int(2 * p.exp)
        return e.xreplace(sub)

    def grads(self, e, syms):
        """[de/dx_i] for an atomized e (chain rule through each S)."""
        roots = [(u, S) for u, S in self.of.items() if e.has(S)]
        return [sp.diff(e, x) + sp.Add(*[sp.diff(e, S) * sp.diff(u, x) / (2 * S) for u, S in roots]) for x in syms]

    def norm_sq(self, e, syms):
        """|grad e|^2 for an atomized e, as sum_(a, b) de/da de/db <grad a, grad b> over the inputs
        and the roots in e, each inner product reduced on its own (<grad S, grad S> = |grad u|^2 /
        (4 u) for S = sqrt(u): a radial S has gradient norm 1, and the sum stays small)."""
        atoms = [S for S in self.of.values() if e.has(S)]
        var = list(syms) + atoms
        parts = [(a, sp.diff(e, a)) for a in var]
        total = sp.Integer(0)
        for a, ca in parts:
            if ca == 0:
                continue
            for b, cb in parts:
                if cb != 0:
                    total += ca * cb * self._gram(a, b, syms)
        return total

    def _gram(self, a, b, syms):
        back = self.radicand
        if a in syms and b in syms:
            return sp.Integer(1 if a == b else 0)
        if a in syms or b in syms:
            x, S = (a, b) if a in syms else (b, a)
            return self.reduce(sp.diff(back[S], x) / (2 * S))
        u, v = back[a], back[b]
        return self.reduce(sp.Add(*[sp.diff(u, x) * sp.diff(v, x) for x in syms]) / (4 * a * b))

    def reduce(self, e):
        """e with common factors cancelled and S^2 replaced by its radicand (an identity); memoised
        by value (e holds only roots made before it, so the result depends on e alone)."""
        if e not in self._reduced:
            self._reduced[e] = self._reduce(e)
        return self._reduced[e]

    def _reduce(self, e):
        try:
            num, den = sp.fraction(sp.cancel(sp.together(e)))
            reduced = False                     # num / den is cancelled already unless some S^2 was reduced
            for u, S in self.of.items():
                if num.has(S):
                    num, reduced = sp.rem(sp.expand(num), S**2 - u, S), True
                if den.has(S):
                    den, reduced = sp.rem(sp.expand(den), S**2 - u, S), True
            return sp.cancel(num / den) if reduced else num / den
        except (sp.PolynomialError, TypeError, ValueError):
            return e


def _grads(expr, syms, roots=None):
    """[d expr/dx_i], through the roots' symbols where `roots` is given."""
    if roots is None:
        return [sp.diff(expr, s) for s in syms]
    return roots.grads(roots.atomize(expr), syms)


def _log_grads(B, syms, roots):
    """d ln B / dx_i = (dB/dx_i) / B with common factors cancelled (exp(...) factors of B cancel):
    an identity wherever B != 0, and B > 0 is an obligation of its own (B_positive)."""
    Ba = roots.atomize(B)
    return [roots.reduce(g / Ba) for g in roots.grads(Ba, syms)]


# -- the obligations --------------------------------------------------------------------------

def _functions(P: Problem) -> tuple:
    """(name, F) of the functions the route's obligations are about: f (f1..fk) and B unless B*."""
    fs = (("f", P.f),) if P.k == 1 else tuple((f"f{j + 1}", fj) for j, fj in enumerate(P.f))
    return fs + ((("B", P.B),) if P.B is not None else ())


def _pieces_hold(run: _Run, funcs):
    """What no certificate changes: each function is owned by its pieces, defined and continuous."""
    for name, F in funcs:
        if isinstance(F, sp.Piecewise):
            run.need(f"owned[{name}]", sp.Not(_has_value(F, values=False)))
    for name, F in funcs:
        _continuous(run, name, F)


@dataclass(frozen=True)
class Prepared:
    """What `prepare` decided of a problem before its certificate's constants are known (in the
    process that then checks the certificate, while the proof stage runs elsewhere): the pieces'
    obligations (_pieces_hold) and, for regions of a given `shape`, those no constant enters
    (_structure)."""
    P: Problem
    pieces: tuple
    shape: tuple | None = None
    structure: tuple = ()
    local: "_Local | None" = None     # the own obligations of the regions with constants so far
    key: InitVar[object] = None       # (as Verified's)
    _token: object = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self, key):
        if key is not _TOKEN:
            raise TypeError("a Prepared problem is made only by gpaudit.kernel.certificate.prepare")
        object.__setattr__(self, "_token", _TOKEN)


def _prepared(run: _Run, P: Problem, cert: Certificate, prepared):
    """prepare's outcomes for the certificate: route `regions` needs every region's own, in order."""
    ready = prepare(P, cert.regions, prepared)
    run.outcomes.extend(ready.pieces + ready.structure + tuple(ready.local.run.outcomes if ready.local else ()))
    if P.B is not None and (ready.local.done if ready.local else []) != list(cert.regions):
        run.exact("constants", False, "a region without its constants a_R, c_R")


def _decided(part) -> tuple:
    """The outcomes of part(run) on a run of its own, in a z3 session of its own."""
    with zb.session():
        run = _Run()
        part(run)
    return tuple(run.outcomes)


def prepare(P: Problem, regions=None, prepared: Prepared | None = None) -> Prepared:
    """The obligations of P that no bound E enters: the pieces', and with `regions` those about the
    regions (their structure, whatever their constants) and the own obligations of the leading
    regions that have constants (route `regions`).  Each part is decided in a z3 session of its own,
    or taken from `prepared` where that decided it for P (regions of the same shape; regions that
    begin with those done, _Local): the same calls in the same sessions whether a caller prepared
    them ahead, as the constants were found, or `check` does."""
    ok = prepared is not None and prepared._token is _TOKEN and prepared.P == P
    pieces = prepared.pieces if ok else _decided(lambda run: _pieces_hold(run, _functions(P)))
    # the regions' shape: everything the structure obligations read, all but the constants a_R, c_R
    shape = None if regions is None else tuple((r.label, r.conds, r.alts, r.pieces) for r in regions)
    structure = (() if shape is None else prepared.structure if ok and prepared.shape == shape
                 else _decided(lambda run: _structure(run, P, regions)))
    rated = list(itertools.takewhile(lambda r: r.a is not None, regions or ())) if P.B is not None else []
    local = prepared.local if ok and prepared.local is not None else _Local(P)
    if rated and not local.extend(rated):
        local = _Local(P)
        local.extend(rated)
    return Prepared(P, pieces, shape, structure, local if local.done else None, _TOKEN)


def _structure(run: _Run, P: Problem, regs):
    """The regions cover R^d, on each f and B are the region's formulas, and B > 0.

    Coverage is shown piece by piece: every x is owned by one piece of each function (`owned`), and
    each combination of pieces is covered by the regions that say they lie in it (`cover[i.j]`; a
    combination no region names must be empty).  A region that says which pieces it lies in is
    shown to (`inpiece`), so that there F is that piece's formula; one that does not is compared
    with F as a whole."""
    funcs = _functions(P)
    pcs = {name: _pieces(F) for name, F in funcs}
    combos = itertools.product(*[range(1, len(pcs[name]) + 1) for name, _ in funcs])
    hinted = all(len(r.pieces) == len(funcs) for r in regs)
    if not hinted:
        run.need("cover_regions", sp.Not(sp.Or(*[sp.And(*r.conds) for r in regs])))
    else:
        for combo in combos:
            base = [c for (name, _), i in zip(funcs, combo) for c in pcs[name][i - 1][0]]
            inside = [sp.And(*r.conds) for r in regs if tuple(r.pieces) == combo]
            run.need(f"cover[{'.'.join(f'{n}{i}' for (n, _), i in zip(funcs, combo))}]",
                     sp.And(*base, sp.Not(sp.Or(*inside))))
    for r in regs:
        if all(a.conds for a in r.alts):
            run.need(f"alternatives[{r.label}]", sp.And(*r.conds, sp.Not(sp.Or(*[sp.And(*a.conds) for a in r.alts]))))
        piece_of = {}
        if len(r.pieces) == len(funcs):
            for (name, F), i in zip(funcs, r.pieces):
                if not 1 <= i <= len(pcs[name]):
                    run.exact(f"inpiece[{r.label}.{name}]", False, f"no piece {i}")
                    continue
                conds, value = pcs[name][i - 1]
                if all(c == sp.true or c in r.conds for c in conds):   # a conjunction lies in each conjunct
                    run.exact(f"inpiece[{r.label}.{name}]", True, "the piece's conditions are among the region's")
                else:
                    run.need(f"inpiece[{r.label}.{name}]", sp.And(*r.conds, sp.Not(sp.And(*conds))))
                piece_of[name] = value
        for k, a in enumerate(r.alts, 1):
            for name, F in funcs:
                Fk = a.B if name == "B" else a.f if name == "f" else a.f[int(name[1:]) - 1]
                if Fk is None or Fk.has(sp.Piecewise, sp.Max, sp.Min, sp.Abs):
                    run.exact(f"agrees[{r.label}.{k}.{name}]", False, "the alternative's formula is not smooth")
                    continue
                where = tuple(r.conds) + tuple(a.conds)
                if name in piece_of and _substituted(piece_of[name], where) == Fk:
                    # F_k is the piece's formula with each max/min/abs replaced by the argument that
                    # the region's own conditions make the extremum: equal there by definition
                    dom = domain_defined(Fk)
                    if dom is sp.true:
                        run.exact(f"agrees[{r.label}.{k}.{name}]", True, "the extremum's argument, by the region's conditions")
                    else:
                        run.need(f"agrees[{r.label}.{k}.{name}]", sp.And(*where, sp.Not(dom)))
                    continue
                run.need(f"agrees[{r.label}.{k}.{name}]", _agrees(sp.And(*where), piece_of.get(name, F), Fk))
    for r in regs if P.B is not None else ():
        run.some_alt(f"B_positive[{r.label}]", r, lambda a: sp.Gt(a.B, 0, evaluate=False), each=True)


def _continuous(run: _Run, name, F):
    """F is defined and continuous on R^d: each piece's formula is defined on (a closed superset of)
    its piece's closure, and two pieces' formulas agree where their closures meet; the closures are
    finitely many closed sets covering R^d (the regions cover it and F is defined on each, `agrees`),
    so F is continuous (pasting lemma).  Max, Min, Abs and every total operation are continuous."""
    pcs = _pieces(F)
    try:
        closures = [_closure(run, conds) for conds, _ in pcs]
    except zb.Unsupported as err:
        run.exact(f"continuous[{name}]", False, str(err))
        return
    for k, ((_, v), cl) in enumerate(zip(pcs, closures), 1):
        dom = domain_defined(v)
        if dom is not sp.true:
            run.need(f"defined[{name}{k}]", sp.And(cl, sp.Not(dom)))
    for i in range(len(pcs)):
        for j in range(i + 1, len(pcs)):
            vi, vj = pcs[i][1], pcs[j][1]
            if vi == vj or closures[i] is sp.false or closures[j] is sp.false:
                continue

            def differ(tr, ci=closures[i], cj=closures[j], vi=vi, vj=vj):
                a, b, da, db, ea, eb = _translate(tr, ci, cj, domain_defined(vi), domain_defined(vj), vi, vj)
                return zb.conj(a, b, da, db, ea != eb)
            run.need(f"continuous[{name}{i + 1}|{name}{j + 1}]", differ)


def _substituted(e, conds):
    """e with each Max / Min / Abs (innermost first) replaced by an argument a_i that the conditions
    state is the extremum: for every other argument a_j they contain a_i > a_j, a_i >= a_j or
    a_i = a_j (for Min: <, <=, =).  On the set where the conditions hold, the result equals e."""
    have = set()
    for c in conds:
        for part in (c.args if isinstance(c, sp.And) else (c,)):
            if isinstance(part, sp.core.relational.Relational):
                have.add(part)
                have.add(part.reversed)

    def extremum(node):
        args, big = ([node.args[0], -node.args[0]], True) if isinstance(node, sp.Abs) else (
            list(node.args), isinstance(node, sp.Max))
        ops = (sp.Gt, sp.Ge, sp.Eq) if big else (sp.Lt, sp.Le, sp.Eq)
        for i, ai in enumerate(args):
            # the conditions state ai op aj literally (have holds each relation and its reversal;
            # unevaluated, as sympy's evaluation of a relation asks its assumptions)
            if all(any(op(ai, aj, evaluate=False) in have for op in ops) for j, aj in enumerate(args) if j != i):
                return ai
        return None
    while True:        # innermost first: an extremum none of whose arguments holds another
        nodes = [n for n in e.atoms(sp.Max, sp.Min, sp.Abs)
                 if not any(a.has(sp.Max, sp.Min, sp.Abs) for a in n.args)]
        sub = next(((n, v) for n in sorted(nodes, key=sp.default_sort_key) if (v := extremum(n)) is not None), None)
        if sub is None:
            return e
        e = e.xreplace(dict([sub]))


def _agrees(where, F, Fk):
    """The negation of: on `where`, F and F_k are defined and equal (built in z3 directly: sympy's
    Eq would try to decide the equality itself)."""
    def build(tr):
        w, dF, dK, eF, eK = _translate(tr, where, _has_value(F), domain_defined(Fk), F, Fk)
        return zb.conj(w, z3.Not(zb.conj(dF, dK, eF == eK)))
    return build


def _local(run: _Run, P: Problem, r: Region):
    """Region r's own obligations: its constants, cover and smooth."""
    run.exact(f"constants[{r.label}]", numbers.le(0, r.a) is True and numbers.le(0, r.c) is True,
              f"a = {r.a}, c = {r.c} >= 0")
    R = run.roots
    if P.k > 1:
        def cover(a):
            return _op_le(P, [_grads(fj, P.syms, R) for fj in a.f], r.a * R.atomize(a.B), R, r.alts.index(a))

        def smooth(a):
            return _dual_le(P.metric, P.weights, _log_grads(a.B, P.syms, R), r.c, R)
    elif P.metric == "l2" and all(w == 1 for w in P.weights):     # the Euclidean norm: by inner products
        def cover(a):
            return _le(R.norm_sq(R.atomize(a.f), P.syms), r.a**2 * R.atomize(a.B)**2)

        def smooth(a):
            Ba = R.atomize(a.B)
            return _le(R.norm_sq(Ba, P.syms) / Ba**2, r.c**2)
    else:
        def cover(a):
            return _dual_le(P.metric, P.weights, _grads(a.f, P.syms, R), r.a * R.atomize(a.B), R)

        def smooth(a):
            return _dual_le(P.metric, P.weights, _log_grads(a.B, P.syms, R), r.c, R)
    run.some_alt(f"cover[{r.label}]", r, cover)
    run.some_alt(f"smooth[{r.label}]", r, smooth, each=True)


class _Local:
    """The regions' own obligations (_local), decided in the order of a certificate's regions on
    one run, in one z3 session of their own, for as many regions as have constants so far: `prepare`
    starts it while the proof stage finds the rates, and `check` continues it where its regions
    begin with those done, while every obligation decided holds (else it starts afresh: the same
    calls, in the same session, as one pass over all the regions makes)."""

    def __init__(self, P: Problem):
        self.P, self.run, self.done, self.session = P, _Run(), [], None

    def extend(self, regions) -> bool:
        """Decide the own obligations of the regions after those done; False (nothing decided)
        where `regions` does not begin with them or one decided does not hold."""
        if not self.run.ok or tuple(regions[:len(self.done)]) != tuple(self.done):
            return False
        with zb.session(self.session) as self.session:
            for r in regions[len(self.done):]:
                _local(self.run, self.P, r)
                self.done.append(r)
        return True


def _op_le(P: Problem, J, bound, roots, tag):
    """||J||_{m -> 2} <= bound (bound >= 0): ||J v||_2^2 <= bound^2 for every v in the unit ball of
    the input metric m, with fresh variables v (one set per alternative `tag`: under the negation
    each alternative may fail at its own v), so that the statement stays quantifier-free."""
    v = [sp.Symbol(f"v{tag}_{i}", real=True) for i in range(len(P.syms))]
    ball = {"l2": sp.Add(*[(w * vi)**2 for vi, w in zip(v, P.weights)]) <= 1,
            "l1": sp.Add(*[w * sp.Abs(vi) for vi, w in zip(v, P.weights)]) <= 1,
            "linf": sp.And(*[w * sp.Abs(vi) <= 1 for vi, w in zip(v, P.weights)])}[P.metric]
    Jv = sp.Add(*[sp.Add(*[g * vi for g, vi in zip(row, v)])**2 for row in J])
    return sp.Or(sp.Not(ball), _le(roots.reduce(Jv), bound**2))


def _dist(P: Problem, xs, ys):
    terms = [w * sp.Abs(s - t) for s, t, w in zip(xs, ys, P.weights)]
    if len(terms) == 1:
        return terms[0]
    if P.metric == "l1":
        return sp.Add(*terms)
    if P.metric == "linf":
        return sp.Max(*terms)
    return sp.sqrt(sp.Add(*[t**2 for t in terms]))


def two_point_needed(P: Problem) -> bool:
    """Only Lemma 3.6 (linear growth) rests on Definition 8's two-point conditions; with linear
    growth they are required whenever delta > 0 or Lambda < inf (docs/certificate.md)."""
    return P.growth == "linear" and (P.delta != 0 or P.Lambda != sp.oo)


def _two_point(run: _Run, P: Problem):
    ps = tuple(sp.Symbol(s.name + "_pair", real=True) for s in P.syms)
    d = _dist(P, P.syms, ps)
    sub = dict(zip(P.syms, ps))
    scope = [d > 0] + ([d <= P.Lambda] if P.Lambda != sp.oo else [])
    has = sp.And(_has_value(P.f), _has_value(P.B))
    dom = sp.And(has, has.xreplace(sub))
    fs = P.f if P.k > 1 else (P.f,)
    jump = sp.Add(*[(fj - fj.xreplace(sub))**2 for fj in fs])
    run.need("two_point_cover", sp.And(*scope, dom, jump > (P.B * d)**2), relax=True)
    run.need("two_point_smooth", sp.And(*scope, dom, P.B > (1 + P.gamma * d) * P.B.xreplace(sub)), relax=True)


def _lemma_31(run: _Run, P: Problem, cert: Certificate):
    K = cert.lipschitz
    if not run.exact("lipschitz_constant", K is not None and numbers.le(0, K) is True, f"K = {K}"):
        return
    for r in cert.regions:
        def prop(a):    # |grad f|^2 / K^2 <= 1, by inner products through the roots (as cover's)
            g2 = run.roots.norm_sq(run.roots.atomize(a.f), P.syms)
            return _le(sp.powsimp(sp.expand(g2 / K**2), combine="exp"), 1)
        run.some_alt(f"lipschitz[{r.label}]", r, prop)
    run.exact("B_positive", _nonconstant(P, cert), f"grad f != 0 strictly inside a region at z = {cert.point}")


def _strict_at(c, at) -> bool:
    """c (nnf) holds at the exact point with every relation strict (z is interior)."""
    c = sp.to_nnf(c)
    if isinstance(c, sp.And):
        return all(_strict_at(a, at) for a in c.args)
    if isinstance(c, sp.Or):
        return any(_strict_at(a, at) for a in c.args)
    if isinstance(c, sp.core.relational.Relational) and not isinstance(c, (sp.Eq, sp.Ne)):
        lhs, rhs = c.lhs.xreplace(at), c.rhs.xreplace(at)
        small, big = (lhs, rhs) if isinstance(c, (sp.LessThan, sp.StrictLessThan)) else (rhs, lhs)
        try:
            return numbers.le(big, small) is False       # small < big, proved
        except (ValueError, TypeError):
            return False
    return False


def _nonconstant(P: Problem, cert: Certificate) -> bool:
    return cert.point is not None and nonconstant_at(P.syms, cert, cert.point)


def nonconstant_at(syms, cert: Certificate, point) -> bool:
    """The exact point lies strictly inside a region with one alternative, and that alternative's
    gradient is not 0 there (proved by exact arithmetic or disjoint enclosures)."""
    try:
        values = [sp.sympify(v) for v in point]
    except (sp.SympifyError, TypeError, ValueError):
        return False
    if len(values) != len(syms) or not all(v.is_number and v.is_real is True for v in values):
        return False
    at = dict(zip(syms, values))
    for r in cert.regions:
        if len(r.alts) != 1 or not all(_strict_at(c, at) for c in tuple(r.conds) + tuple(r.alts[0].conds)):
            continue
        g2 = sp.Add(*[g.xreplace(at) for g in (gi**2 for gi in _grads(r.alts[0].f, syms))])
        try:
            return numbers.le(g2, 0) is False
        except (ValueError, TypeError):
            return False
    return False


# -- the rate ---------------------------------------------------------------------------------

def score_pieces(P: Problem):
    """[(lo, hi, |psi(u)|)] on u >= 0: psi = (ln h)' derived here from the density's pieces."""
    ends = [sp.Integer(0), *P.breaks, sp.oo]
    return [(ends[k], ends[k + 1], sp.Abs(sp.diff(piece, U))) for k, piece in enumerate(P.log_density)]


def _distinct_constants(regions):
    """The first region of each distinct (a_R, c_R): the rate depends on the region only through them."""
    seen = {}
    for r in regions:
        seen.setdefault((r.a, r.c), r)
    return list(seen.values())


def _rate_le(run: _Run, P: Problem, r: Region, E):
    for k, (lo, hi, s) in enumerate(score_pieces(P)):
        g = P.eta * r.a * s + r.c * sp.Abs(P.k - U * s)
        where = [U >= lo] + ([U < hi] if hi != sp.oo else [])
        run.need(f"rate[{r.label}, piece {k + 1}]", sp.And(*where, sp.Gt(g, E, evaluate=False)), relax=True)


def _delta_route(run: _Run, P: Problem, cert: Certificate):
    eps, delta, lam = P.epsilon, P.delta, P.Lambda
    if cert.delta_route == "lemma_3_6":
        run.exact("lemma_3_6.hypotheses", P.family == "laplace" and P.k == 1 and P.growth == "linear"
                  and P.bound_kind == "smooth_sensitivity" and two_point_needed(P),
                  "Laplace noise, linear growth, the smooth sensitivity, Definition 8 proved")
        bound = P.eta + P.gamma * sp.Max(1, sp.log(1 / delta))
        run.exact("lemma_3_6.epsilon", numbers.le(bound, eps) is True, f"eta + gamma max(1, ln 1/delta) <= {eps}")
        return numbers.up(bound)
    if cert.delta_route == "laud_theorem_4":
        A = sp.Max(*[r.a for r in cert.regions])
        C = sp.Max(*[r.c for r in cert.regions])
        b = P.eta * A
        run.exact("laud_theorem_4.hypotheses", P.family == "laplace" and P.k == 1 and P.growth == "exponential"
                  and lam != sp.oo and numbers.le(C, 0) is False and numbers.le(1, lam * C) is False,
                  "Laplace noise, exponential growth, Lambda finite, beta > 0, Lambda beta < 1")
        if not run.ok:
            return None
        k = 1 + (eps - b) / C
        run.exact("laud_theorem_4.epsilon", numbers.le(b + C, eps) is True, f"b + beta <= {eps}")
        run.exact("laud_theorem_4.delta", numbers.le(2 * sp.exp(eps * lam - k), delta) is True,
                  f"2 e^(epsilon Lambda - k) <= {delta}")
        return numbers.up(sp.Max(b + C, (sp.log(2 / delta) - 1 + b / C) / (1 / C - lam)))
    if cert.delta_route == "exact_profile":
        return _exact_profile(run, P, cert)
    run.exact("delta_route", False, f"no route {cert.delta_route!r} for delta > 0")
    return None


def _exact_profile(run: _Run, P: Problem, cert: Certificate):
    """Fixed-scale noise (B a constant): the regions' cover conditions and continuity give
    |f(x) - f(x')| <= A B dist with A = max a_R, and the divergence over the claim's pairs is at
    most the closed form at distance Lambda (kernel.profile), compared with delta exactly."""
    A = sp.Max(*[r.a for r in cert.regions])
    if not run.exact("exact_profile.hypotheses", cert.route == "regions" and P.k == 1 and P.B is not None
                     and P.B.is_number and profile.covers(P.family, P.log_density) and P.Lambda.is_finite is True,
                     "one output, B a constant, Laplace or Gaussian noise, Lambda finite"):
        return None
    H, _ = profile.worst_pair(P.family, P.epsilon, A, P.eta, P.Lambda)
    run.exact("exact_profile.delta", numbers.le(H, P.delta) is True,
              f"H(epsilon Lambda, max a_R eta Lambda) = {H} <= {P.delta}")
    return P.epsilon


# -- the check --------------------------------------------------------------------------------

@zb.session()
def check(P: Problem, cert: Certificate, prepared: Prepared | None = None) -> Verified:
    """Derive and decide every obligation of the certificate's route; Verified, or Rejected.
    `prepared`: what `prepare` decided of this same problem and regions of the same shape (taken
    only where it is that; what it lacks, prepare decides here).  Its z3 calls share one context
    (z3door.session; prepare's parts have one each), made in an order that follows from P and cert
    alone, so the same check gets the same answers whoever asks."""
    run = _Run()
    if cert.route == "regions" and P.B is not None:
        _prepared(run, P, cert, prepared)
        if two_point_needed(P):
            _two_point(run, P)
    elif cert.route == "lemma_3_1" and P.B is None and P.bound_kind == "smooth_sensitivity" and P.k == 1:
        _prepared(run, P, cert, prepared)
        _lemma_31(run, P, cert)
        cert = replace(cert, regions=tuple(replace(r, a=sp.Integer(1), c=P.gamma) for r in cert.regions))
    else:
        run.exact("route", False, f"route {cert.route!r} does not fit this mechanism")
    if not run.ok:
        raise Rejected(run.outcomes)
    if cert.delta_route is None:
        E = cert.epsilon_upper
        if E is None or not run.exact("epsilon_upper", numbers.le(E, P.epsilon) is True, f"E = {E} <= {P.epsilon}"):
            raise Rejected(run.outcomes)
        for r in _distinct_constants(cert.regions):
            _rate_le(run, P, r, E)
        upper = E
    else:
        if P.delta == 0:
            run.exact("delta_route", False, "a delta route for a pure claim")
        upper = _delta_route(run, P, cert) if run.ok else None
    if not run.ok or upper is None:
        raise Rejected(run.outcomes)
    return Verified(numbers.exact(upper),
                    cert.route + ("" if cert.delta_route is None else "+" + cert.delta_route),
                    tuple(run.outcomes), _TOKEN)
