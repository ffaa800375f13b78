"""Evaluation of a noise family's sympy expressions in mpmath, arb, arb power series and numpy.

``Program(expr, var, values)`` compiles an expression in one variable ``var`` (u or s >= 0) whose
other symbols are the family's shape parameters (``values``: Symbol -> exact sympy number) into a
tree of Python closures, once; each backend then evaluates it without touching sympy again:

- ``mpf(x)``: mpmath at the working precision;
- ``arb(x)``: a rigorous ball containing the value for every point of the ball x;
- ``series(x)``: the same over an arb power series (Taylor coefficients with rigorous error);
- ``np(x)``: float64 arrays (errors silenced; NaN / inf where the expression is undefined).

Constants. A subexpression free of ``var`` is a constant of the family. It is evaluated once per
backend and working precision, always as an arb ball (rigorous; recomputed with more bits while its
relative accuracy is below the working precision, so that cancellation -- ln Gamma((nu+1)/2) -
ln Gamma(nu/2) at nu = 1e300 -- is seen, not guessed); mpmath takes its midpoint with 32 guard
bits, numpy its value at 30 digits rounded once. Where exactness is cheap it is exact: sums,
products and small integer powers of rational parameters are folded in exact rational arithmetic,
and ln or log1p of an exact rational is log1p of the exact t = r - 1 (resp. r) for |t| <= 1/2, else
ln of the exact 1 + t. So alpha - 1 at alpha = 1 + 1e-200 is 1e-200, not 0, and ln(1 - 1/alpha^2)
written as log1p(-1/alpha**2) keeps every digit at alpha = 1e300 as at alpha = 1 + 1e-30.

Powers x**q (q a constant). In arb, when sympy proves the base non-negative for every parameter
value and every var >= 0 (e.g. u**p, 1 + u**p, u**2/nu), the ball of the base is cut to its
non-negative part [max(lo, 0), hi] (the true base is >= 0) and powered end point by end point:
x -> x^q is increasing on [0, inf) for q > 0 and decreasing for q < 0, so the image of the interval
is the interval of the two images, each an arb ball, and their union is rigorous (q < 0 and a ball
reaching 0: NaN, the value is unbounded). This avoids the
dependency blow-up of x*x on wide balls. A base not proved non-negative uses arb's own power
(integer q) or exp(q log x) (NaN where the ball reaches 0 or below: fail closed). In mpmath a
huge integer power (|q| > 2^16, GenCauchy at p = 1e300) is exp(q ln x) at bitlength(q) extra bits,
not a thousand squarings.

Only +, *, integer and constant powers, exp, log, log1p (sympy.codegen.cfunctions), loggamma
(of constants), pi and E are understood; anything else raises ValueError when compiled.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import sympy
from flint import arb, arb_series, ctx, fmpq
from sympy.codegen.cfunctions import log1p

from ..kernel.arbexpr import to_arb as _expr_to_arb

__all__ = ["Program", "log1p"]

_GUARD = 32  # guard bits of the constants of mpmath evaluations
_SMALL_POW = 2**16  # larger integer powers are exp(q ln x) in mpmath
_EXACT_POW = 64  # integer powers of rationals folded exactly up to this exponent
_FUNCS = {sympy.log: "log", log1p: "log1p", sympy.exp: "exp"}


# ---------------------------------------------------------------------------------------------
# Constants


def _exact(e, values):
    """e as an exact sympy Rational when it is a rational function of rational parameters (small
    integer powers only), else None."""
    if e.is_Rational:
        return e
    if e.is_Symbol:
        v = values.get(e)
        return v if v is not None and v.is_Rational else None
    if e.is_Add or e.is_Mul:
        parts = [_exact(a, values) for a in e.args]
        if any(p is None for p in parts):
            return None
        out = sympy.Integer(0 if e.is_Add else 1)
        for p in parts:
            out = out + p if e.is_Add else out * p
        return out
    if e.is_Pow and e.exp.is_Integer and abs(int(e.exp)) <= _EXACT_POW:
        base = _exact(e.base, values)
        if base is None or (base == 0 and e.exp < 0):
            return None
        return base ** int(e.exp)
    return None


def _ball(r) -> arb:
    """The ball of an exact sympy Rational."""
    return arb(fmpq(int(r.p), int(r.q)))


def _const(e, values):
    """A rigorous arb ball for the constant e at the current ctx.prec, exact where cheap."""
    r = _exact(e, values)
    if r is not None:
        return _ball(r)
    if e.is_Symbol:
        if e not in values:
            raise ValueError(f"no value for the parameter {e}")
        return _expr_to_arb(values[e])
    if e is sympy.pi:
        return arb.pi()
    if e is sympy.E:
        return arb.const_e()
    if e.is_Number:
        return _expr_to_arb(e)
    if e.is_Add or e.is_Mul:
        exact, rest = [], []
        for a in e.args:
            (exact if _exact(a, values) is not None else rest).append(a)
        out = _const(e.func(*exact), values) if exact else None
        for a in rest:
            v = _const(a, values)
            out = v if out is None else (out + v if e.is_Add else out * v)
        return out
    if e.is_Pow:
        base, q = _const(e.base, values), e.exp
        if q.is_Integer and abs(int(q)) <= _SMALL_POW:
            return base ** int(q)
        if q == sympy.Rational(1, 2):
            return base.sqrt()
        return (_const(q, values) * base.log()).exp()
    if isinstance(e, (log1p, sympy.log)) and len(e.args) == 1:
        r = _exact(e.args[0], values)
        if r is not None:
            # of an exact rational: log1p of t = r - 1 (resp. r) when |t| <= 1/2, else log of 1 + t,
            # both exact, so neither rounding 1 + t (t = -1e-600) nor t near -1 loses digits
            t = r if isinstance(e, log1p) else r - 1
            return _ball(t).log1p() if 2 * abs(t) <= 1 else _ball(1 + t).log()
        arg = _const(e.args[0], values)
        return arg.log1p() if isinstance(e, log1p) else arg.log()
    if isinstance(e, sympy.exp):
        return _const(e.args[0], values).exp()
    if isinstance(e, sympy.loggamma):
        return _const(e.args[0], values).lgamma()
    raise ValueError(f"cannot evaluate the constant {e}")


_MAX_GUARD = 1 << 12


def _mpf_const(e, values):
    """The constant e at the working precision: the midpoint of an arb ball whose relative
    accuracy reaches the working precision (so cancellation is seen, not guessed: ln Gamma((nu+1)/2)
    - ln Gamma(nu/2) at nu = 1e300 loses a thousand bits, and two mpmath evaluations at different
    precisions can agree on the wrong value 0)."""
    with ctx.workprec(mpmath.mp.prec + _GUARD):
        v = _arb_const(e, values)
    if not v.is_finite():
        return mpmath.nan
    man, exp = v.mid().man_exp()
    return mpmath.mpf((int(man), int(exp)))


def _arb_const(e, values):
    """A rigorous ball for the constant e, recomputed with more bits (up to _MAX_GUARD more) while
    its relative accuracy is below the working precision."""
    prec = ctx.prec
    guard = 0
    while True:
        with ctx.workprec(prec + guard):
            v = _const(e, values)
        if not v.is_finite() or v.rel_accuracy_bits() >= prec - 2 or guard >= _MAX_GUARD:
            return v
        guard = max(_GUARD, 2 * guard)


# ---------------------------------------------------------------------------------------------
# Lowering: sympy -> a small node tree


def _lower(e, var, consts: list, values):
    """Node tree of e: ('x',) | ('c', i) | ('add', [n]) | ('mul', [num], [den]) |
    ('pow', n, q, nonneg) | (fn, n) for fn in log, log1p, exp.  Constants go to consts; an
    exponent q is the exact number the parameter values make of it."""
    if not e.has(var):
        consts.append(e)
        return ("c", len(consts) - 1)
    if e == var:
        return ("x",)
    if e.is_Add or e.is_Mul:
        fixed = [a for a in e.args if not a.has(var)]
        moving = [a for a in e.args if a.has(var)]
        # the constant goes last: series + arb is a fast path of python-flint, arb + series is not
        constant = [_lower(e.func(*fixed), var, consts, values)] if fixed else []
        if e.is_Add:
            return ("add", [_lower(a, var, consts, values) for a in moving] + constant)
        num, den = [], []
        for a in moving:
            if a.is_Pow and a.exp.is_Integer and a.exp < 0:
                den.append(_lower(a.base ** (-a.exp), var, consts, values))
            else:
                num.append(_lower(a, var, consts, values))
        return ("mul", num + constant, den)
    if e.is_Pow:
        if e.exp.has(var):
            raise ValueError(f"cannot evaluate {e}: the exponent depends on {var}")
        q = e.exp.xreplace(values)
        if q.free_symbols:
            raise ValueError(f"cannot evaluate {e}: no value for {q.free_symbols}")
        return ("pow", _lower(e.base, var, consts, values), q, bool(e.base.is_nonnegative))
    name = _FUNCS.get(e.func)
    if name is not None and len(e.args) == 1:
        return (name, _lower(e.args[0], var, consts, values))
    raise ValueError(f"cannot evaluate {type(e).__name__} in {e}")


# ---------------------------------------------------------------------------------------------
# Closures per backend: f(x, C) with C the tuple of constants of the current precision


def _chain(fs, op):
    if len(fs) == 1:
        return fs[0]
    if len(fs) == 2:
        f0, f1 = fs
        return (lambda x, C: f0(x, C) + f1(x, C)) if op == "+" else (lambda x, C: f0(x, C) * f1(x, C))
    first, rest = fs[0], fs[1:]

    def f(x, C):
        out = first(x, C)
        for g in rest:
            out = out + g(x, C) if op == "+" else out * g(x, C)
        return out
    return f


def _build(node, backend, qconsts: list):
    """Closure of node for backend in ('mpf', 'arb', 'series', 'np'); exponents that need a backend
    value are appended to qconsts (their sympy value) and read from C after the constants."""
    kind = node[0]
    if kind == "x":
        return lambda x, C: x
    if kind == "c":
        i = node[1]
        return lambda x, C: C[i]
    if kind == "add":
        return _chain([_build(n, backend, qconsts) for n in node[1]], "+")
    if kind == "mul":
        num = _chain([_build(n, backend, qconsts) for n in node[1]], "*") if node[1] else None
        if not node[2]:
            return num
        den = _chain([_build(n, backend, qconsts) for n in node[2]], "*")
        if num is None:
            return lambda x, C: 1 / den(x, C)
        return lambda x, C: num(x, C) / den(x, C)
    if kind == "pow":
        return _build_pow(_build(node[1], backend, qconsts), node[2], node[3], backend, qconsts)
    g = _build(node[1], backend, qconsts)
    fn = _ELEMENTARY[backend][kind]
    return lambda x, C: fn(g(x, C))


_ELEMENTARY = {
    "mpf": {"log": mpmath.log, "log1p": mpmath.log1p, "exp": mpmath.exp},
    "arb": {"log": lambda x: x.log(), "log1p": lambda x: x.log1p(), "exp": lambda x: x.exp()},
    "series": {"log": lambda x: x.log(), "log1p": lambda x: (1 + x).log(), "exp": lambda x: x.exp()},
    "np": {"log": np.log, "log1p": np.log1p, "exp": np.exp},
}


def _build_pow(g, q, nonneg, backend, qconsts):
    small = q.is_Integer and abs(int(q)) <= _SMALL_POW
    if backend == "np":
        qf = int(q) if small else float(q)
        return lambda x, C: g(x, C) ** qf
    if backend == "series":
        if q.is_Integer:
            n = int(q)
            return (lambda x, C: g(x, C) ** n) if n >= 0 else (lambda x, C: 1 / g(x, C) ** (-n))
        j = _qslot(q, qconsts)
        return lambda x, C: (C[j] * g(x, C).log()).exp()
    if backend == "mpf":
        if small:
            n = int(q)
            return lambda x, C: g(x, C) ** n
        if q == sympy.Rational(1, 2):
            return lambda x, C: mpmath.sqrt(g(x, C))
        if q.is_Integer:
            return _mpf_huge_pow(g, q)
        j = _qslot(q, qconsts)
        return lambda x, C: g(x, C) ** C[j]
    # arb
    if nonneg:
        return _arb_monotone_pow(g, q, qconsts)
    if q.is_Integer:
        n = int(q)
        return (lambda x, C: g(x, C) ** n) if n >= 0 else (lambda x, C: 1 / g(x, C) ** (-n))
    if q == sympy.Rational(1, 2):
        return lambda x, C: g(x, C).sqrt()
    j = _qslot(q, qconsts)
    return lambda x, C: (C[j] * g(x, C).log()).exp()


def _qslot(q, qconsts):
    qconsts.append(q)
    return -len(qconsts)  # read from the end of C


def _mpf_huge_pow(g, q):
    n = int(q)
    bits = n.bit_length() + 10
    zero_value = mpmath.mpf(0) if n > 0 else mpmath.inf

    def f(x, C):
        b = g(x, C)
        if b == 0:
            return zero_value
        with mpmath.workprec(mpmath.mp.prec + bits):
            return mpmath.exp(n * mpmath.log(b))
    return f


def _arb_monotone_pow(g, q, qconsts):
    """x**q for a base proved >= 0: the two end points of [max(lo, 0), hi] powered (monotone)."""
    positive = bool(q > 0)
    if q.is_Integer:
        n = int(q)
        get = lambda C: n  # noqa: E731
    else:
        j = _qslot(q, qconsts)
        get = lambda C: C[j]  # noqa: E731

    def f(x, C):
        b = g(x, C)
        if not b.is_finite():
            return arb.nan()
        lo, hi = b.lower(), b.upper()
        e = get(C)
        at_zero = lo <= 0
        if positive:
            low = arb(0) if at_zero else lo ** e
            return low.union(hi ** e)
        if at_zero:  # x^q -> +inf as x -> 0+: no finite enclosure
            return arb.nan()
        return (hi ** e).union(lo ** e)
    return f


# ---------------------------------------------------------------------------------------------


_PRECISION = {"mpf": lambda: mpmath.mp.prec, "arb": lambda: ctx.prec, "series": lambda: ctx.prec,
              "np": lambda: 53}


def _evaluator(backend: str):
    """The Program method evaluating in backend, with the constants of the working precision."""
    precision = _PRECISION[backend]

    def evaluate(self, x):
        prec, C, fn = self._state[backend]  # one entry: read and replaced atomically
        if prec != precision():
            prec = precision()
            C = self._cache.get((backend, prec))
            if C is None:
                C = self._cache[(backend, prec)] = self._make_constants(backend)
            self._state[backend] = (prec, C, fn)
        return fn(x, C)

    evaluate.__name__ = backend
    return evaluate


class Program:
    """expr compiled once; evaluate with .mpf(x), .arb(x), .series(x) or .np(x)."""

    def __init__(self, expr, var, values):
        self.expr = sympy.sympify(expr)
        self.var = var
        self.values = dict(values)
        self._consts: list = []
        node = _lower(self.expr, var, self._consts, self.values)
        self._q: dict[str, list] = {}
        self._state: dict = {}
        for backend in _PRECISION:
            self._q[backend] = []
            self._state[backend] = (None, None, _build(node, backend, self._q[backend]))
        self._cache: dict = {}
        self.constant = not self.expr.has(var)

    def _make_constants(self, backend):
        """The constants, then the exponents (read from the end), in backend."""
        exprs = self._consts + list(reversed(self._q[backend]))
        if backend == "mpf":
            return tuple(_mpf_const(e, self.values) for e in exprs)
        if backend == "np":
            with mpmath.workdps(30):
                return tuple(_to_float(_mpf_const(e, self.values)) for e in exprs)
        return tuple(_arb_const(e, self.values) for e in exprs)

    mpf = _evaluator("mpf")
    arb = _evaluator("arb")
    series = _evaluator("series")
    _np = _evaluator("np")

    def np(self, x):
        out = self._np(x)
        if self.constant:
            return np.full(np.shape(x), float(out))
        return out

    def __call__(self, x):
        """Dispatch on the type of x: mpf, arb, arb_series (or a float64 array)."""
        if isinstance(x, mpmath.mpf):
            return self.mpf(x)
        if isinstance(x, arb):
            return self.arb(x)
        if isinstance(x, arb_series):
            return self.series(x)
        return self.np(x)


def _to_float(v) -> float:
    try:
        return float(v)
    except OverflowError:
        return math.inf if v > 0 else -math.inf
