"""`bound.kind: derived`: a smooth upper bound on the derivative sensitivity, derived by rules.

Laud, Pankova and Pettai (*Achieving Differential Privacy using Methods from Calculus*, Sec. 4.3
and 5.2, Table 2 and Figure 1) compute, for a formula f and a target smoothness beta, a function
h with DS[f](x) <= h(x) and |ln h(x) - ln h(x')| <= beta dist(x, x') ("h is a beta-smooth upper
bound on the derivative sensitivity", DS[f](x) = ||grad f(x)||_* in the dual norm of the metric).
This module walks the sympy expression of a query and applies such rules.

What this module does NOT do: prove anything.  Its result is a proposal.  The configuration it
produces is an ordinary piecewise bound B = h with the user's own gamma, and the proof stage proves
every obligation of it exactly as for a hand-written bound (the cover ||grad f||_* <= a_R B, the
smoothness ||grad ln B||_* <= c_R, definedness, continuity; docs/certificate.md).  A wrong rule
here, a misrecognised formula, a smoothness miscounted, can therefore make a configuration
unknown or refuted, never certified.  The smoothness the rules claim (``Derivation.beta``) is
reported for information; it is never used as a proved constant.

The rules (t is the argument of a univariate function, u an inner formula with DS[u] <= h_u,
h_u beta_u-smooth and h_u <= B_u everywhere; every bound below is >= 0):

  constant c                   DS <= 0                                  (Table 2, row c)
  affine a.x + c               DS = ||a||_* exactly, 0-smooth            (x_i: 1/w_i)
  sum  sum_i c_i f_i           DS <= sum |c_i| h_i, max beta_i           (+_D)
     terms on disjoint variables combine by the dual norm of the metric (l1: max, l2: the root of
     the sum of squares, linf: the sum), still max beta_i                (+_D for l_p compositions)
  product f1 f2                DS <= g1 h2 + g2 h1, max(b(g1) + b(h2), b(h1) + b(g2))        (*_D)
     with g_i a smooth upper bound on |f_i|; on disjoint variables the two terms combine by the
     dual norm and, for the l1 metric, the smoothnesses by max instead of +                 (*^1_D)
  g(u), g univariate           DS <= H(u) h_u with |g'| <= H, H s-smooth in t: s B_u + beta_u  (o_D)
  min / max of f_i             DS <= max h_i, max beta_i (|min f(y) - min f(x)| <= max |f_i(y) - f_i(x)|)
  |f|                          DS <= h (the same bound)
  sqrt(sum_{i in S} (x_i - c_i)^2 + k), k >= 0   DS <= C_S, 0-smooth (C_S = max 1/w_i for l1 and
                               l2, sqrt(sum 1/w_i^2) for linf: the norm-equivalence constant)

and the univariate rows (the table ``ROWS``; s is the smoothness in t the row is asked for):

  sigmoid  S(t) = e^t/(e^t + 1)    |S'| <= e^{ct}/(e^{ct}+1)^2, c = min(1, s): Table 2's two
                                   sigmoid rows (beta >= alpha: c = 1; beta < alpha: c = beta/alpha)
  tauoid   T(t) = 2e^t/(1+e^{2t})  |T'| <= T(ct), c = min(1, s) (Table 2's row is c = 1; c < 1 holds
                                   since T(ct) >= T(t) >= |T'(t)| = T(t) |tanh t|)
  exp      e^t                     |d/dt e^t| = e^t, 1-smooth (Table 2's e^{rx} row, |r| <= beta)
  power    t^n, integer n >= 2     |n t^{n-1}| <= n (t^2 + c^2)^{(n-1)/2}, c = (n-1)/(2s): s-smooth
                                   on all of R (the role of Table 2's x^r row; ``Table2Power`` is
                                   that row literally, with pw^k_s(y) = max(y^k, (k/s)^k
                                   exp(min(s y, k) - k)), equal to Table 2's pw_beta^r below k/s)

The upper bounds g on |f| (the "g column") follow +_S, *_S and o_S: a bounded row uses its sup
(1 for S and T, 0-smooth) when its own smoothness does not fit; an unbounded formula e with
DS[e] <= K everywhere (an affine form, a norm) uses sqrt(e^2 + (K/(2b))^2), which is b-smooth
(Table 2's pw^1 would do as well, but its max/min split the proof into regions that multiply across
the factors of a product).

How the target is shared: the derivation aims at the claimed gamma.  Sums and min/max hand every
term the whole target; a product first gives the bound of |f_i| half of it (all of it on disjoint
variables under l1) and the other factor's slope bound what is left; a composition with a
non-affine inner formula gives that formula half.  When a target cannot be met (an e^{rt} with
|r| > gamma, say) the derivation still returns its bound, with the smoothness it needs; the
configuration keeps the claimed gamma, so the kernel then fails to prove the smoothness.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import reduce
import sympy as sp

from ..errors import FieldError
from ..spec.types import MetricSpec, Norm

PAPER = "Laud, Pankova and Pettai, Table 2 and Figure 1"


class DeriveError(FieldError):
    """No rule covers a formula (or a rule cannot be applied): one line, field bound.kind."""

    def __init__(self, problem: str, field: str = "bound.kind"):
        super().__init__("derived: " + problem, field)


def _short(e, limit: int = 70) -> str:
    text = sp.sstr(e)
    return text if len(text) <= limit else text[: limit - 3] + "..."


# ---------------------------------------------------------------------------------------------
# Univariate rows (Table 2), in the argument t with |.| as the norm


@dataclass(frozen=True)
class Uni:
    """A univariate bound: expr(t) >= |g'(t)| (slope) or >= |g(t)| (size), ``s``-smooth in t
    (|ln expr(t) - ln expr(t')| <= s |t - t'|), and expr <= sup everywhere (None: unbounded)."""
    expr: sp.Expr
    s: sp.Expr
    sup: sp.Expr | None
    row: str


def pw(k, s, y):
    """pw^k_s(y) for y >= 0: y^k where y >= k/s, (k/s)^k e^{s y - k} below (Table 2's pw_beta^r),
    written with Max/Min so that it is one formula: >= y^k and s-smooth on y >= 0."""
    k = sp.Integer(k)
    return sp.Max(y**k, (k / s)**k * sp.exp(sp.Min(s * y, k) - k))


def _positive(s) -> bool:
    return s is not None and bool(s > 0)


class Sigmoid:
    name = "sigmoid"
    slope_even = True  # the slope bound is even in t: written in the query's own orientation

    @staticmethod
    def function(t):
        return sp.exp(t) / (sp.exp(t) + 1)

    @staticmethod
    def slope(t, s, **_):
        c = sp.Min(1, s) if _positive(s) else sp.Integer(1)
        row = "Table 2 sigmoid, beta >= alpha" if c == 1 else "Table 2 sigmoid, beta < alpha"
        return Uni(sp.exp(c * t) / (sp.exp(c * t) + 1)**2, c, sp.Rational(1, 4), row)

    @staticmethod
    def size(t, s, **_):
        if s is not None and bool(s >= 1):
            return Uni(Sigmoid.function(t), sp.Integer(1), sp.Integer(1), "Table 2 sigmoid, g = sigma")
        return Uni(sp.Integer(1), sp.Integer(0), sp.Integer(1), "Table 2 sigmoid, g = 1")


class Tauoid:
    name = "tauoid"
    slope_even = True

    @staticmethod
    def function(t):
        return 2 * sp.exp(t) / (1 + sp.exp(2 * t))

    @staticmethod
    def slope(t, s, **_):
        c = sp.Min(1, s) if _positive(s) else sp.Integer(1)
        row = "Table 2 tauoid, beta >= alpha" if c == 1 else "tauoid relaxed, beta < alpha (not in Table 2)"
        return Uni(Tauoid.function(c * t), c, sp.Integer(1), row)

    @staticmethod
    def size(t, s, **_):
        if s is not None and bool(s >= 1):
            return Uni(Tauoid.function(t), sp.Integer(1), sp.Integer(1), "Table 2 tauoid, g = tau")
        return Uni(sp.Integer(1), sp.Integer(0), sp.Integer(1), "Table 2 tauoid, g = 1")


class Exp:
    name = "exp"
    slope_even = False

    @staticmethod
    def function(t):
        return sp.exp(t)

    @staticmethod
    def slope(t, s, **_):
        return Uni(sp.exp(t), sp.Integer(1), None, "Table 2 e^{rx} (needs |r| <= beta)")

    @staticmethod
    def size(t, s, **_):
        return Uni(sp.exp(t), sp.Integer(1), None, "Table 2 e^{rx}, g = e^{rx}")


def soft_power(m, s, t):
    """(t^2 + c^2)^(m/2) with c = m/(2s): >= |t|^m and s-smooth (its log-derivative m t/(t^2 + c^2) is
    at most m/(2c) = s in absolute value).  One formula, a polynomial for even m."""
    c = sp.Integer(m) / (2 * s)
    return (t**2 + c**2)**sp.Rational(m, 2)


def _need_budget(s, what):
    if not _positive(s):
        raise DeriveError(f"{what} needs a positive smoothness budget (bound.gamma > 0)", "bound.gamma")


class Power:
    """t^n, integer n >= 2: |n t^(n-1)| <= n (t^2 + c^2)^((n-1)/2) and |t^n| <= (t^2 + c'^2)^(n/2)
    (``soft_power``), s-smooth.  The same role as Table 2's x^r row (which is stated for x > 0;
    these hold on all of R) but without its case split: the proof stage cannot close Table 2's
    pw form for n >= 3 (see Table2Power)."""
    name = "power"
    slope_even = False

    @staticmethod
    def function(t, n=2):
        return t**n

    @staticmethod
    def slope(t, s, n=2):
        _need_budget(s, "the x^r row")
        return Uni(n * soft_power(n - 1, s, t), s, None, f"x^r, r = {n}: h = r (x^2 + c^2)^((r-1)/2)")

    @staticmethod
    def size(t, s, n=2):
        _need_budget(s, "the x^r row")
        return Uni(soft_power(n, s, t), s, None, f"x^r, r = {n}: g = (x^2 + c^2)^(r/2)")


class Table2Power(Power):
    """Table 2's x^r row literally (extended to R through |t|): h = r pw^{r-1}_s(|t|),
    g = pw^r_s(|t|).  Valid, and a little tighter than Power; not the default because the two
    branches of pw touch tangentially at |t| = k/s, which the proof stage's exp facts cannot
    separate for k >= 2 (x^3 is left unknown; x^2 is certified).  tests/pipeline/test_derived_bound.py
    runs it through the kernel."""

    @staticmethod
    def slope(t, s, n=2):
        _need_budget(s, "the x^r row")
        return Uni(n * pw(n - 1, s, sp.Abs(t)), s, None, f"Table 2 x^r, r = {n}: h = r pw^(r-1)_beta(|x|)")

    @staticmethod
    def size(t, s, n=2):
        _need_budget(s, "the x^r row")
        return Uni(pw(n, s, sp.Abs(t)), s, None, f"Table 2 x^r, r = {n}: g = pw^r_beta(|x|)")


# The rule table.  Tests replace entries by deliberately wrong rows to show that a wrong rule
# cannot certify (the kernel proves the derived bound, it does not trust it).
ROWS: dict[str, object] = {"sigmoid": Sigmoid, "tauoid": Tauoid, "exp": Exp, "power": Power}


# ---------------------------------------------------------------------------------------------
# The derivation


@dataclass(frozen=True)
class Est:
    """A bound on DS[f] (or on |f|) with its smoothness in the metric and a global sup (or None)."""
    expr: sp.Expr
    beta: sp.Expr
    sup: sp.Expr | None


@dataclass(frozen=True)
class Derivation:
    """The derived h (a proposed bound on DS[f]), the smoothness the rules claim for it, and the
    trace: one line per rule applied, indented by depth."""
    h: sp.Expr
    beta: sp.Expr
    gamma: sp.Expr
    trace: tuple[str, ...] = field(default_factory=tuple)

    @property
    def within_gamma(self) -> bool:
        return bool(self.beta <= self.gamma)

    @property
    def text(self) -> str:
        return "\n".join(self.trace)


def _max(values):
    values = list(values)
    return values[0] if len(values) == 1 else sp.Max(*values)


class _Deriver:
    def __init__(self, syms, metric: MetricSpec):
        self.syms = tuple(syms)
        self.kind = metric.kind
        self.w = dict(zip(self.syms, [sp.sympify(w) for w in metric.weights] or [sp.Integer(1)] * len(self.syms)))
        self.lines: list[str] = []
        self.depth = 0

    # -- metric helpers --------------------------------------------------------------------
    def dual_of(self, coeffs: dict) -> sp.Expr:
        """||a||_* for a constant gradient a (the exact DS of an affine formula)."""
        vals = [sp.Abs(c) / self.w[s] for s, c in coeffs.items() if c != 0]
        if not vals:
            return sp.Integer(0)
        if len(vals) == 1:
            return vals[0]
        if self.kind == Norm.L1:
            return sp.Max(*vals)
        if self.kind == Norm.LINF:
            return sp.Add(*vals)
        return sp.sqrt(sp.Add(*[v**2 for v in vals]))

    def dual_combine(self, exprs):
        """||(e_1, ..., e_k)||_q, q dual to the metric: the dual norm of a gradient whose blocks on
        disjoint variable sets have dual norms e_i (l1: max, linf: sum, l2: root of squares)."""
        exprs = list(exprs)
        if len(exprs) == 1:
            return exprs[0]
        if self.kind == Norm.L1:
            return sp.Max(*exprs)
        if self.kind == Norm.LINF:
            return sp.Add(*exprs)
        return sp.sqrt(sp.Add(*[e**2 for e in exprs]))

    def sup_combine(self, sups, disjoint: bool):
        if any(s is None for s in sups):
            return None
        return _max(sups) if disjoint and self.kind == Norm.L1 else sp.Add(*sups)

    def smooth_combine(self, a, b, disjoint: bool):
        """The smoothness of a product of an a-smooth and a b-smooth function: a + b, or max(a, b)
        on disjoint variables under l1 (a d1 + b d2 <= max(a, b) (d1 + d2)).  (l2 and linf would
        allow root of squares and + ; + is used, a valid upper bound that keeps numbers rational.)"""
        return sp.Max(a, b) if disjoint and self.kind == Norm.L1 else a + b

    def split(self, b, disjoint: bool):
        return b if disjoint and self.kind == Norm.L1 else b / 2

    def rest(self, b, used, disjoint: bool):
        """The largest smoothness left for the other factor of a product after ``used``."""
        if disjoint and self.kind == Norm.L1:
            return b if bool(used <= b) else b / 2
        left = b - used
        return left if bool(left > 0) else b / 2

    # -- trace -----------------------------------------------------------------------------
    def _open(self):
        self.lines.append("")
        self.depth += 1
        return len(self.lines) - 1

    def _close(self, idx, rule, e, what, est):
        self.depth -= 1
        self.lines[idx] = (f"{'  ' * self.depth}{rule}: {what}[{_short(e)}] <= {_short(est.expr, 90)}"
                           f"  ~ {sp.sstr(est.beta)}")
        return est

    # -- classification --------------------------------------------------------------------
    def vars_of(self, e):
        return frozenset(e.free_symbols & set(self.syms))

    def affine(self, e):
        """{symbol: coefficient} when e is affine in the inputs, else None."""
        if not e.free_symbols:
            return {}
        if not e.is_polynomial(*self.syms):
            return None
        poly = sp.Poly(e, *self.syms)
        if poly.total_degree() > 1 or any(c.free_symbols for c in poly.coeffs()):
            return None
        return {s: poly.coeff_monomial(s) for s in self.syms}

    def univariate(self, e):
        """(row, inner u, coefficient c) with e == c * row(u), recognised by writing e as a rational
        function of E = exp(u) and comparing it with each row (exact rational arithmetic), else None.
        Covers the forms sympy produces: exp(a t)/(exp(a t) + 1), 1/(1 + exp(-a t)), 2 exp(a t)/
        (1 + exp(2 a t)) and their constant multiples."""
        exps = sorted(e.atoms(sp.exp), key=sp.default_sort_key)
        if not exps or any(a.args[0].has(sp.exp) for a in exps):
            return None
        u0 = exps[0].args[0]
        ratios = [sp.cancel(a.args[0] / u0) for a in exps]
        if not all(r.is_Rational for r in ratios):
            return None
        q = reduce(sp.gcd, ratios)
        u = sp.expand(q * u0)
        E = sp.Dummy("E", positive=True)
        R = e.xreplace({a: E**int(r / q) for a, r in zip(exps, ratios)})
        if R.free_symbols - {E}:
            return None
        R = sp.cancel(R)
        for n in sorted({abs(int(r / q)) for r in ratios}):
            candidates = [("sigmoid", n, E**n / (E**n + 1)), ("sigmoid", -n, 1 / (E**n + 1)),
                          ("tauoid", n, 2 * E**n / (1 + E**(2 * n))),
                          ("exp", n, E**n), ("exp", -n, E**-n)]
            for row, k, target in candidates:
                ratio = sp.cancel(R / target)
                if not ratio.free_symbols and ratio != 0:
                    return row, sp.expand(k * u), ratio
        return None

    @staticmethod
    def exp_sign(e, inner) -> int:
        """-1 when the exponentials of e are exp(-k inner) with k > 0, else 1."""
        exps = sorted(e.atoms(sp.exp), key=sp.default_sort_key)
        if not exps:
            return 1
        ratio = sp.cancel(exps[0].args[0] / inner)
        return -1 if ratio.is_Rational and ratio < 0 else 1

    def no_rule(self, e, what="term"):
        like = "sigmoid-like " if e.has(sp.exp) else ""
        raise DeriveError(f"no rule for {like}{what} {_short(e)} (supported: constants, affine forms, "
                          "sums, products, min/max/abs, sigmoid, tauoid, exp, integer powers, norm(...))")

    # -- DS[f] -----------------------------------------------------------------------------
    def ds(self, e, b) -> Est:
        """A bound on DS[e], aiming at smoothness b."""
        if not e.free_symbols:
            return Est(sp.Integer(0), sp.Integer(0), sp.Integer(0))
        lin = self.affine(e)
        if lin is not None:
            idx = self._open()
            h = self.dual_of(lin)
            return self._close(idx, "affine (exact dual norm)", e, "DS", Est(h, sp.Integer(0), h))
        if isinstance(e, sp.Add):
            return self.ds_add(e, b)
        if isinstance(e, (sp.Max, sp.Min)):
            idx = self._open()
            parts = [self.ds(a, b) for a in e.args if a.free_symbols]
            est = Est(_max(p.expr for p in parts), _max(p.beta for p in parts),
                      None if any(p.sup is None for p in parts) else _max(p.sup for p in parts))
            return self._close(idx, "min/max: max h_i", e, "DS", est)
        if isinstance(e, sp.Abs):
            idx = self._open()
            return self._close(idx, "abs: DS[|f|] <= DS[f]", e, "DS", self.ds(e.args[0], b))
        coeff, rest = self.split_coeff(e)
        if coeff != 1:
            idx = self._open()
            inner = self.ds(rest, b)
            est = Est(sp.Abs(coeff) * inner.expr, inner.beta,
                      None if inner.sup is None else sp.Abs(coeff) * inner.sup)
            return self._close(idx, "constant factor", e, "DS", est)
        uni = self.univariate(e) if e.has(sp.exp) else None
        if uni is not None:
            return self.ds_compose(e, uni[0], uni[1], uni[2], b)
        if isinstance(e, sp.exp):
            return self.ds_compose(e, "exp", e.args[0], sp.Integer(1), b)
        if isinstance(e, sp.Pow) and e.exp.is_Integer and e.exp >= 2:
            return self.ds_compose(e, "power", e.base, sp.Integer(1), b, n=int(e.exp))
        if isinstance(e, sp.Pow) and e.exp == sp.Rational(1, 2):
            norm = self.norm_constant(e.base)
            if norm is not None:
                idx = self._open()
                return self._close(idx, "Euclidean norm (DS <= norm-equivalence constant)", e, "DS",
                                   Est(norm, sp.Integer(0), norm))
        if isinstance(e, sp.Mul):
            return self.ds_mul(e, b)
        self.no_rule(e)

    def split_coeff(self, e):
        if not isinstance(e, sp.Mul):
            return sp.Integer(1), e
        const = [a for a in e.args if not a.free_symbols]
        if not const:
            return sp.Integer(1), e
        return sp.Mul(*const), sp.Mul(*[a for a in e.args if a.free_symbols])

    def components(self, terms):
        """Group terms into classes of terms that (transitively) share an input variable."""
        groups: list[tuple[set, list]] = []
        for t in terms:
            vs = set(self.vars_of(t))
            merged = [g for g in groups if g[0] & vs]
            for g in merged:
                groups.remove(g)
                vs |= g[0]
            groups.append((vs, sum((g[1] for g in merged), []) + [t]))
        groups.sort(key=lambda g: min(self.syms.index(s) for s in g[0]))
        return [g[1] for g in groups]

    def ds_add(self, e, b) -> Est:
        idx = self._open()
        terms = [t for t in e.args if t.free_symbols]
        blocks = []
        for comp in self.components(terms):
            lin = [t for t in comp if self.affine(t) is not None]
            other = [t for t in comp if self.affine(t) is None]
            parts = ([self.ds(sp.Add(*lin), b)] if lin else []) + [self.ds(t, b) for t in other]
            blocks.append(Est(sp.Add(*[p.expr for p in parts]), _max(p.beta for p in parts),
                              None if any(p.sup is None for p in parts) else sp.Add(*[p.sup for p in parts])))
        est = Est(self.dual_combine([blk.expr for blk in blocks]), _max(blk.beta for blk in blocks),
                  self.sup_combine([blk.sup for blk in blocks], True))
        rule = "+_D" + (f" ({len(blocks)} blocks on disjoint variables, dual-norm combination)"
                        if len(blocks) > 1 else "")
        return self._close(idx, rule, e, "DS", est)

    def ds_compose(self, e, row, inner, coeff, b, **params) -> Est:
        idx = self._open()
        affine_inner = self.affine(inner) is not None
        hu = self.ds(inner, b if affine_inner else b / 2)
        if hu.sup is None:
            raise DeriveError(f"no rule for {row}({_short(inner)}): its argument's derivative sensitivity "
                              "is unbounded (o_D needs a global bound)")
        t = sp.Dummy("t", real=True)
        s = (b - hu.beta) / hu.sup if bool(hu.sup > 0) else None
        rule = ROWS[row]
        r = rule.slope(t, s, **params)
        # an even slope bound (H(t) = H(-t)) is written with the exponentials of the query's own
        # orientation (exp(-x/10) for 1/(1 + exp(-x/2))): equal, and easier for the proof stage
        arg = -inner if getattr(rule, "slope_even", False) and self.exp_sign(e, inner) < 0 else inner
        H = r.expr.xreplace({t: sp.expand(arg)})
        est = Est(sp.Abs(coeff) * H * hu.expr, r.s * hu.sup + hu.beta,
                  None if r.sup is None else sp.Abs(coeff) * r.sup * hu.sup)
        return self._close(idx, f"o_D with {r.row}", e, "DS", est)

    # -- products: lists of units ------------------------------------------------------------
    def units(self, e):
        """The non-constant factors of a product, with the factors that together form one
        univariate row merged into one unit (sympy flattens exp(u) * (exp(u) + 1)**-1 into the
        product around it; a sigmoid must stay one unit)."""
        factors = [a for a in e.args if a.free_symbols]
        groups: list[list] = []   # factors with exponentials, grouped by a common exponent direction
        for f in factors:
            if not f.has(sp.exp):
                continue
            arg = sorted(f.atoms(sp.exp), key=sp.default_sort_key)[0].args[0]
            for g in groups:
                ref = sorted(g[0].atoms(sp.exp), key=sp.default_sort_key)[0].args[0]
                if sp.cancel(arg / ref).is_Rational:
                    g.append(f)
                    break
            else:
                groups.append([f])
        merged = {}
        for g in groups:
            if len(g) > 1 and self.univariate(sp.Mul(*g)) is not None:
                merged[id(g[0])] = sp.Mul(*g)
                for f in g[1:]:
                    merged[id(f)] = None
        out = []
        for f in factors:
            unit = merged.get(id(f), f)
            if unit is not None:
                out.append(unit)
        return out

    def split_units(self, units):
        """(A, B, disjoint): the first class of units sharing variables against the rest, or the
        first unit against the rest when all share."""
        comps = self.components(units)
        if len(comps) > 1:
            return comps[0], sum(comps[1:], []), True
        return units[:1], units[1:], False

    def ds_units(self, units, b) -> Est:
        return self.ds(units[0], b) if len(units) == 1 else self.ds_product(sp.Mul(*units), units, b)

    def size_units(self, units, b) -> Est:
        return self.size(units[0], b) if len(units) == 1 else self.size_product(sp.Mul(*units), units, b)

    def ds_mul(self, e, b) -> Est:
        units = self.units(e)
        return self.ds_units(units, b)

    def ds_product(self, e, units, b) -> Est:
        A, B, disjoint = self.split_units(units)
        idx = self._open()
        gA = self.size_units(A, self.split(b, disjoint))
        hB = self.ds_units(B, self.rest(b, gA.beta, disjoint))
        gB = self.size_units(B, self.split(b, disjoint))
        hA = self.ds_units(A, self.rest(b, gB.beta, disjoint))
        terms = [gA.expr * hB.expr, gB.expr * hA.expr]
        h = self.dual_combine(terms) if disjoint else sp.Add(*terms)
        beta = sp.Max(self.smooth_combine(gA.beta, hB.beta, disjoint),
                      self.smooth_combine(gB.beta, hA.beta, disjoint))
        sups = [None if x.sup is None or y.sup is None else x.sup * y.sup for x, y in ((gA, hB), (gB, hA))]
        sup = (None if None in sups else _max(sups) if disjoint and self.kind == Norm.L1 else sp.Add(*sups))
        rule = "*_D on disjoint variables" if disjoint else "*_D"
        return self._close(idx, rule, e, "DS", Est(h, beta, sup))

    def size_product(self, e, units, b) -> Est:
        A, B, disjoint = self.split_units(units)
        idx = self._open()
        gA = self.size_units(A, self.split(b, disjoint))
        gB = self.size_units(B, self.rest(b, gA.beta, disjoint))
        sup = None if gA.sup is None or gB.sup is None else gA.sup * gB.sup
        est = Est(gA.expr * gB.expr, self.smooth_combine(gA.beta, gB.beta, disjoint), sup)
        return self._close(idx, "*_S", e, "|f|", est)

    def norm_constant(self, base):
        """C_S when base = sum_{i in S} (x_i - c_i)^2 + k with k >= 0 (so sqrt(base) has DS <= C_S
        in the metric), else None."""
        base = sp.expand(base)
        if not base.is_polynomial(*self.syms):
            return None
        poly = sp.Poly(base, *self.syms)
        if poly.total_degree() != 2 or any(c.free_symbols for c in poly.coeffs()):
            return None
        S = []
        for monom, c in poly.terms():
            if sum(monom) == 2:
                if max(monom) != 2 or c != 1:
                    return None
                S.append(self.syms[monom.index(2)])
        shift = {s: -poly.coeff_monomial(s) / 2 for s in S}
        if any(poly.coeff_monomial(s) != 0 for s in self.syms if s not in S):
            return None
        k = sp.expand(base - sp.Add(*[(s - shift[s])**2 for s in S]))
        if k.free_symbols or bool(k < 0):
            return None
        inv = [1 / self.w[s] for s in S]
        if self.kind == Norm.LINF and len(inv) > 1:
            return sp.sqrt(sp.Add(*[v**2 for v in inv]))
        return _max(inv)

    # -- |f| <= g ----------------------------------------------------------------------------
    def size(self, e, b) -> Est:
        """A bound g >= |e|, aiming at smoothness b (+_S, *_S, o_S and Table 2's g column)."""
        if not e.free_symbols:
            c = sp.Abs(e)
            return Est(c, sp.Integer(0), c)
        if isinstance(e, sp.Add):
            idx = self._open()
            parts = [self.size(t, b) for t in e.args]
            est = Est(sp.Add(*[p.expr for p in parts]), _max(p.beta for p in parts),
                      None if any(p.sup is None for p in parts) else sp.Add(*[p.sup for p in parts]))
            return self._close(idx, "+_S", e, "|f|", est)
        if isinstance(e, (sp.Max, sp.Min)):
            idx = self._open()
            parts = [self.size(a, b) for a in e.args]
            est = Est(_max(p.expr for p in parts), _max(p.beta for p in parts),
                      None if any(p.sup is None for p in parts) else _max(p.sup for p in parts))
            return self._close(idx, "min/max: max g_i", e, "|f|", est)
        if isinstance(e, sp.Abs):
            return self.size(e.args[0], b)
        lin = self.affine(e)
        if lin is not None:
            return self.size_unbounded(e, self.dual_of(lin), b, "affine")
        coeff, rest = self.split_coeff(e)
        if coeff != 1:
            inner = self.size(rest, b)
            return Est(sp.Abs(coeff) * inner.expr, inner.beta,
                       None if inner.sup is None else sp.Abs(coeff) * inner.sup)
        uni = self.univariate(e) if e.has(sp.exp) else None
        if uni is not None:
            return self.size_compose(e, uni[0], uni[1], uni[2], b)
        if isinstance(e, sp.exp):
            return self.size_compose(e, "exp", e.args[0], sp.Integer(1), b)
        if isinstance(e, sp.Pow) and e.exp.is_Integer and e.exp >= 2:
            return self.size_compose(e, "power", e.base, sp.Integer(1), b, n=int(e.exp))
        if isinstance(e, sp.Pow) and e.exp == sp.Rational(1, 2):
            norm = self.norm_constant(e.base)
            if norm is not None:
                return self.size_unbounded(e, norm, b, "Euclidean norm")
        if isinstance(e, sp.Mul):
            return self.size_units(self.units(e), b)
        self.no_rule(e)

    def size_unbounded(self, e, K, b, what) -> Est:
        """|e| <= sqrt(e^2 + c^2) with c = K/(2b), for a formula e with DS[e] <= K everywhere:
        d ln sqrt(e^2 + c^2) = e de/(e^2 + c^2), whose dual norm is <= K |e|/(e^2 + c^2) <= K/(2c) = b,
        so the bound is b-smooth.  (Table 2's pw_beta^1(|e|) = max(|e|, e^{min(b|e|/K, 1) - 1} K/b) is
        valid too and a little tighter, but its max/min/abs split the proof into regions that multiply
        across the factors of a product; this formula is one smooth piece.)"""
        if not _positive(b):
            raise DeriveError(f"an upper bound on |{_short(e)}| needs a positive smoothness budget "
                              "(bound.gamma > 0)", "bound.gamma")
        idx = self._open()
        c = K / (2 * b)
        return self._close(idx, f"soft |.| ({what}): |e| <= sqrt(e^2 + (K/2b)^2)", e, "|f|",
                           Est(sp.sqrt(e**2 + c**2), b, None))

    def size_compose(self, e, row, inner, coeff, b, **params) -> Est:
        idx = self._open()
        hu = self.ds(inner, b)
        if hu.sup is None:
            raise DeriveError(f"no rule for an upper bound on |{row}({_short(inner)})|: its argument's "
                              "derivative sensitivity is unbounded (o_S needs a global bound)")
        t = sp.Dummy("t", real=True)
        s = b / hu.sup if bool(hu.sup > 0) else None
        r = ROWS[row].size(t, s, **params)
        est = Est(sp.Abs(coeff) * r.expr.xreplace({t: inner}), r.s * hu.sup,
                  None if r.sup is None else sp.Abs(coeff) * r.sup)
        return self._close(idx, f"o_S with {r.row}", e, "|f|", est)


def derive_bound(expr: sp.Expr, syms, metric: MetricSpec, gamma) -> Derivation:
    """Derive h with DS[expr] <= h (a proposal: see the module docstring), aiming at smoothness
    gamma in the metric.  Raises DeriveError (a FieldError, field bound.kind) when no rule covers
    a part of the formula."""
    gamma = sp.sympify(gamma)
    d = _Deriver(syms, metric)
    try:
        est = d.ds(expr, gamma)
    except RecursionError:
        raise DeriveError("formula too deeply nested") from None
    if est.expr == 0:
        raise DeriveError("the query is constant (DS = 0): use bound.kind: constant")
    beta = sp.simplify(est.beta)
    trace = [f"{PAPER}; metric {metric.kind}{' (weighted)' if metric.weights else ''}, "
             f"target smoothness gamma = {sp.sstr(gamma)}"] + d.lines
    trace.append(f"derived smoothness {sp.sstr(beta)} "
                 + ("<= gamma" if bool(beta <= gamma) else
                    f"> gamma = {sp.sstr(gamma)}: the proof of smoothness is expected to fail"))
    return Derivation(est.expr, beta, gamma, tuple(trace))
