"""Tracing a user's Python callable into the exact formula it computes.

The callable runs on symbolic proxies (:class:`Sym`, wrapping sympy expressions over the input
symbols of :func:`gpaudit.spec.types.input_symbols`).  Arithmetic on a proxy gives a proxy; a
comparison gives a symbolic condition (:class:`SymBool`), and where the program needs its truth (an
``if``, ``while``, ``and``/``or``, a ternary) the run forks: every path is explored, path by path.
A path is the sequence of decisions taken; each run replays a recorded prefix of decisions, then
takes the first branch of every new fork and records the other one as pending (depth first, the
way CrossHair and JAX's tracer enumerate paths).  A side of a fork that z3 (through the kernel's
door) proves infeasible under the path condition is not explored; an `unknown` keeps it (a kept
infeasible path only makes the formula longer, a dropped feasible one would be unsound).

While tracing, the names ``math``, ``numpy``/``np``, ``mpmath`` and ``scipy.special`` of the user's
modules, functions imported from them (``from math import exp``) and the builtins ``min``, ``max``,
``abs``, ``float``, ``int``, ``isinstance`` and ``type`` are replaced by shims: functions of one
number are mapped to their exact sympy counterparts, ``min``/``max`` to sympy's Min/Max, ``float()``
and ``mpmath.mpf()`` of a proxy are the identity (the formula is the real function the program
computes, see docs/traceable-code.md).  Numbers meet proxies exactly: a float as its exact binary
value (``0.1`` is 3602879701896397/2^55), an ``mpf`` likewise, a ``Fraction`` as itself.

Where the program does something a formula cannot follow, tracing stops with a :class:`TraceStop`
naming the construct and the innermost ``file:line`` of the user's code: a proxy converted to a
float or an integer (a call into compiled code, a root finder, an array of floats, an index), a
function with no exact counterpart, a loop whose trip count depends on the input (more than
``max_paths`` paths), a loop over data (more than ``max_ops`` operations on one path), an exception.
"""

from __future__ import annotations

import builtins
import contextlib
import io
import linecache
import math
import numbers
import os
import sys
import sysconfig
import threading
import types
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import mpmath
import numpy as np
import sympy as sp

from ..kernel import z3door as zb
from ..spec.types import Piece, input_symbols

MAX_PATHS = 64        # paths explored at most (a loop on a comparison of the input ends here)
MAX_OPS = 1000        # operations on the input in one path at most (a loop over data ends here)
CONST_OPS = 20        # ... and CONST_OPS times as many on exact constants
FEASIBLE_MS = 200     # z3 budget of one feasibility question


# -- exact numbers ---------------------------------------------------------------------------------

class _NotANumber(Exception):
    pass


def exact(v) -> sp.Expr:
    """A plain number as an exact sympy number: floats (and mpf) by their exact binary value."""
    if isinstance(v, Sym):
        return v.e
    if isinstance(v, (bool, np.bool_)):
        return sp.Integer(int(v))
    if isinstance(v, numbers.Integral):
        return sp.Integer(int(v))
    if isinstance(v, Fraction):
        return sp.Rational(v.numerator, v.denominator)
    if isinstance(v, float):
        if not math.isfinite(v):
            raise _Stop(f"a non-finite number ({v!r}) meets the input")
        return sp.Rational(*v.as_integer_ratio())
    if isinstance(v, np.floating):
        return exact(float(v))  # float16/32 -> float64 is exact; longdouble is rounded: rare
    if isinstance(v, mpmath.mpf):
        if not mpmath.isfinite(v):
            raise _Stop(f"a non-finite number ({v}) meets the input")
        man, ex = v.man_exp
        return sp.Integer(man) * sp.Integer(2) ** ex
    if isinstance(v, sp.Basic) and getattr(v, "is_number", False) and isinstance(v, sp.Expr):
        return sp.Rational(v) if v.is_Float else v      # a Float's exact binary value
    raise _NotANumber(type(v).__name__)


def _operand(v):
    try:
        return exact(v)
    except _NotANumber:
        return None


# -- the run in progress ---------------------------------------------------------------------------

_STATE = threading.local()


def _run():
    return getattr(_STATE, "run", None)


class _Stop(Exception):
    """Raised inside a run: tracing cannot go on (the construct is named, the place found later)."""

    def __init__(self, construct: str, where: str | None = None):
        super().__init__(construct)
        self.construct = construct
        self.where = where


class _Escape(TypeError):
    """A proxy was converted to a plain number (float(), an index, compiled code): raised as a
    TypeError so that compiled code passes it on; the run records it as well, so that code catching
    it cannot hide it."""


def _stop_here(construct: str, exc_type=_Stop):
    """Record (once) that this run stops here, and raise.  A conversion (exc_type _Escape) names
    the library function the user's line called, where there is one, and the line's text."""
    run = _run()
    where, callee = _user_location(sys._getframe(1), run.user_files if run else ())
    if exc_type is _Escape:
        text = _line_text(where)
        construct += (f" inside {callee}" if callee else "") + (f" (`{text}`)" if text else "")
    if run is not None and run.stop is None:
        run.stop = (construct, where)
    raise exc_type(construct) if exc_type is not _Stop else _Stop(construct, where)


# -- proxies ---------------------------------------------------------------------------------------

def _new(e) -> "Sym":
    run = _run()
    if run is not None:
        if _free(e):
            run.ops += 1
            if run.ops > run.max_ops:
                _stop_here(f"a loop over data: more than {run.max_ops} operations on the input in one path "
                           "(the formula would be too large to reason about)")
        else:
            run.const_ops += 1
            if run.const_ops > CONST_OPS * run.max_ops:
                _stop_here(f"a loop over data: more than {CONST_OPS * run.max_ops} operations on exact constants "
                           "in one path (float constants are exact while tracing, which is slow in long loops)")
    return Sym(e)


def _free(e) -> bool:
    return bool(getattr(e, "free_symbols", None))


class Sym:
    """A real number known as an exact sympy expression over the input symbols."""

    __slots__ = ("e",)

    def __init__(self, e):
        self.e = e

    def __repr__(self):
        return f"Sym({self.e})"

    __str__ = __repr__

    def __hash__(self):
        # a set or dict lookup compares by hash first: a value that depends on the input has no
        # hash that agrees with ==, so it stops; a constant hashes as the number it equals
        if _free(self.e):
            _stop_here("a symbolic value used as a dict key or set member (hashed)", _Escape)
        if self.e.is_Rational:
            return hash(Fraction(int(self.e.p), int(self.e.q)))
        return hash(self.e)

    def __format__(self, spec):
        return format(float(self), spec) if spec else repr(self)

    # arithmetic
    def _bin(self, other, op):
        b = _operand(other)
        if b is None:
            return NotImplemented
        return _new(op(self.e, b))

    def __add__(self, o):
        return self._bin(o, lambda a, b: a + b)

    def __radd__(self, o):
        return self._bin(o, lambda a, b: b + a)

    def __sub__(self, o):
        return self._bin(o, lambda a, b: a - b)

    def __rsub__(self, o):
        return self._bin(o, lambda a, b: b - a)

    def __mul__(self, o):
        return self._bin(o, lambda a, b: a * b)

    def __rmul__(self, o):
        return self._bin(o, lambda a, b: b * a)

    def __truediv__(self, o):
        return self._bin(o, _div)

    def __rtruediv__(self, o):
        return self._bin(o, lambda a, b: _div(b, a))

    def __pow__(self, o, mod=None):
        if mod is not None:
            return NotImplemented
        return self._bin(o, _pow)

    def __rpow__(self, o):
        return self._bin(o, lambda a, b: _pow(b, a))

    def __neg__(self):
        return _new(-self.e)

    def __pos__(self):
        return self

    def __abs__(self):
        return _new(sp.Abs(self.e))

    def __floordiv__(self, o):
        return self._bin(o, lambda a, b: _int_op("//", sp.floor(a / b)))

    def __rfloordiv__(self, o):
        return self._bin(o, lambda a, b: _int_op("//", sp.floor(b / a)))

    def __mod__(self, o):
        return self._bin(o, lambda a, b: _int_op("%", a - b * sp.floor(a / b), a))

    def __rmod__(self, o):
        return self._bin(o, lambda a, b: _int_op("%", b - a * sp.floor(b / a), a))

    # comparisons: a symbolic condition (a Python bool when sympy decides it exactly)
    def _cmp(self, other, rel):
        if isinstance(other, (float, mpmath.mpf)) and other in (math.inf, -math.inf):
            # a real number is below +inf and above -inf (`best = float("inf")`)
            return rel(sp.Integer(0), sp.oo if other > 0 else -sp.oo) == sp.true
        b = _operand(other)
        if b is None:
            return NotImplemented
        return _cond(rel(self.e, b))

    def __lt__(self, o):
        return self._cmp(o, sp.Lt)

    def __le__(self, o):
        return self._cmp(o, sp.Le)

    def __gt__(self, o):
        return self._cmp(o, sp.Gt)

    def __ge__(self, o):
        return self._cmp(o, sp.Ge)

    def __eq__(self, o):
        return self._cmp(o, sp.Eq)

    def __ne__(self, o):
        return self._cmp(o, sp.Ne)

    def __bool__(self):
        return bool(_cond(sp.Ne(self.e, 0)))

    # conversions: exact for constants, a stop for a value that depends on the input
    def __float__(self):
        if not _free(self.e):
            try:
                return float(self.e)
            except (TypeError, ValueError):
                pass
        _stop_here("a symbolic value converted to a float (by compiled code or a library that needs numbers)",
                   _Escape)

    def __int__(self):
        return _to_int(self.e, "int()")

    def __index__(self):
        if not _free(self.e) and self.e.is_Integer:
            return int(self.e)
        _stop_here("a symbolic value used as an index or a count", _Escape)

    def __complex__(self):
        _stop_here("a symbolic value converted to a complex number", _Escape)

    def __round__(self, ndigits=None):
        if not _free(self.e):
            return round(float(self.e), ndigits)     # what the program does with its constant
        _stop_here("round() of a symbolic value")

    def __trunc__(self):
        return _to_int(self.e, "math.trunc()")

    def __floor__(self):
        return _rounded(self.e, sp.floor, "math.floor()")

    def __ceil__(self):
        return _rounded(self.e, sp.ceiling, "math.ceil()")

    # numpy calls these on object arrays (np.exp(array of proxies) calls .exp() of each entry)
    def exp(self):
        return _new(sp.exp(self.e))

    def log(self):
        return _new(sp.log(self.e))

    def sqrt(self):
        return _new(sp.sqrt(self.e))

    def sin(self):
        return _new(sp.sin(self.e))

    def cos(self):
        return _new(sp.cos(self.e))

    def tanh(self):
        return _new(sp.tanh(self.e))

    def sinh(self):
        return _new(sp.sinh(self.e))

    def cosh(self):
        return _new(sp.cosh(self.e))

    def arctan(self):
        return _new(sp.atan(self.e))

    def log1p(self):
        return _new(sp.log(1 + self.e))

    def expm1(self):
        return _new(sp.exp(self.e) - 1)

    def log2(self):
        return _new(sp.log(self.e) / sp.log(2))

    def log10(self):
        return _new(sp.log(self.e) / sp.log(10))

    def conjugate(self):
        return self


def _div(a, b):
    if b == 0:
        raise ZeroDivisionError("division by zero")
    return a / b


def _pow(a, b):
    if a == 0 and (b.is_negative is True):
        raise ZeroDivisionError("0.0 cannot be raised to a negative power")
    if not _free(a) and not _free(b) and a.is_negative and b.is_integer is not True:
        _stop_here(f"a negative number to a fractional power (({a})**({b}) is complex)")
    if b.is_Rational and not b.is_Integer and b.q > 1000:
        # a float exponent such as 0.3: exp(b log a), the same function where a > 0 (and where
        # a <= 0 the formula is undefined, as its definedness conditions say)
        return sp.exp(b * sp.log(a))
    return a ** b


def _int_op(op, value, *args):
    if _free(value):
        raise _Stop(f"'{op}' on a symbolic value (an integer operation)")
    return value


def _to_int(e, what):
    if not _free(e):
        v = sp.floor(e) if (e >= 0) == sp.true else sp.ceiling(e)
        if v.is_Integer:
            return int(v)
    _stop_here(f"{what} of a symbolic value (a conversion to an integer)", _Escape)


def _rounded(e, fn, what):
    if not _free(e):
        v = fn(e)
        if v.is_Integer:
            return int(v)
    _stop_here(f"{what} of a symbolic value (floor, ceil and the like have no formula here)")


class SymBool:
    """A condition on the input; its truth value forks the run."""

    __slots__ = ("c",)

    def __init__(self, c):
        self.c = c

    def __repr__(self):
        return f"SymBool({self.c})"

    def __bool__(self):
        run = _run()
        if run is None:
            raise TypeError("a symbolic condition used outside a trace")
        return run.decide(self.c)

    def _logic(self, other, op):
        if isinstance(other, SymBool):
            return _cond(op(self.c, other.c))
        if isinstance(other, (bool, np.bool_)):
            return _cond(op(self.c, sp.true if other else sp.false))
        return NotImplemented

    def __and__(self, o):
        return self._logic(o, sp.And)

    __rand__ = __and__

    def __or__(self, o):
        return self._logic(o, sp.Or)

    __ror__ = __or__

    def __invert__(self):
        return _cond(sp.Not(self.c))


def _cond(c):
    if c is sp.true or c is True:
        return True
    if c is sp.false or c is False:
        return False
    return SymBool(c)


# -- locations -------------------------------------------------------------------------------------

def _library_dirs() -> tuple:
    dirs = set()
    for key in ("stdlib", "platstdlib", "purelib", "platlib"):
        p = sysconfig.get_paths().get(key)
        if p:
            dirs.add(os.path.realpath(p))
    for p in sys.path:
        if "site-packages" in p or "dist-packages" in p:
            dirs.add(os.path.realpath(p))
    dirs.add(os.path.realpath(str(Path(__file__).resolve().parents[1])))   # gpaudit itself
    return tuple(sorted(dirs))


_LIBS = _library_dirs()


def _is_user_file(filename: str, user_files=()) -> bool:
    if filename in user_files:
        return True
    if not filename or filename.startswith("<"):
        return False
    p = os.path.realpath(filename)
    return not any(p == d or p.startswith(d + os.sep) for d in _LIBS)


_HERE = os.path.realpath(__file__)


def _user_location(frame, user_files=()):
    """(file:line of the innermost frame, from `frame` outwards, in the user's code; the library
    function that line called, as module.function, or None)."""
    f, callee = frame, None
    while f is not None:
        code = f.f_code
        if _is_user_file(code.co_filename, user_files):
            return f"{_shown(code.co_filename)}:{f.f_lineno}", callee
        if os.path.realpath(code.co_filename) != _HERE:
            callee = f"{f.f_globals.get('__name__', '?')}.{code.co_name}"
        f = f.f_back
    return "?", None


def _tb_location(tb, user_files=()):
    """(file:line of the innermost user frame of a traceback, the frame called from there)."""
    where, callee = None, None
    while tb is not None:
        code = tb.tb_frame.f_code
        if _is_user_file(code.co_filename, user_files):
            where, callee = f"{_shown(code.co_filename)}:{tb.tb_lineno}", None
        elif where is not None and callee is None:
            callee = f"{tb.tb_frame.f_globals.get('__name__', '?')}.{code.co_name}"
        tb = tb.tb_next
    return where or "?", callee


def _shown(filename: str) -> str:
    try:
        rel = os.path.relpath(filename)
    except ValueError:
        return filename
    return filename if rel.startswith("..") else rel


def _line_text(where: str) -> str:
    file, _, line = where.rpartition(":")
    if not line.isdigit():
        return ""
    return linecache.getline(file, int(line)).strip()


# -- shims -----------------------------------------------------------------------------------------

def _has_sym(args) -> bool:
    return any(isinstance(a, (Sym, SymBool)) for a in args)


def _unary(name, fn, real=None):
    """A shim of a function of one number: exact on proxies and on plain numbers; the real function
    on anything else (arrays: numpy calls the proxies' methods)."""
    def shim(x, *rest, **kw):
        if rest or kw:
            if _has_sym(rest) or _has_sym(kw.values()) or isinstance(x, Sym):
                _stop_here(f"{name} with more than one argument of a symbolic value")
            return real(x, *rest, **kw)
        if isinstance(x, float) and not math.isfinite(x):
            return real(x)              # math.exp(-math.inf): the program's float
        try:
            e = exact(x)
        except _NotANumber:
            if real is None:
                _stop_here(f"{name} of a {type(x).__name__}")
            return real(x)
        out = fn(e)
        if not _free(out) and not (out.is_extended_real and out.is_finite):
            if real is not None:
                return real(x)   # raises as the program would (math.log(0.0), math.sqrt(-1.0))
            raise ValueError(f"math domain error: {name}({x})")
        return _new(out)
    shim.__name__ = name
    return shim


_EXACT_FUNCS = {
    "exp": sp.exp, "log": sp.log, "sqrt": sp.sqrt, "sin": sp.sin, "cos": sp.cos, "tanh": sp.tanh,
    "sinh": sp.sinh, "cosh": sp.cosh, "atan": sp.atan, "arctan": sp.atan, "erf": sp.erf,
    "erfc": lambda u: 1 - sp.erf(u), "expm1": lambda u: sp.exp(u) - 1, "log1p": lambda u: sp.log(1 + u),
    "log2": lambda u: sp.log(u) / sp.log(2), "log10": lambda u: sp.log(u) / sp.log(10),
    "exp2": lambda u: 2 ** u, "fabs": sp.Abs, "absolute": sp.Abs, "abs": sp.Abs, "square": lambda u: u**2,
    "expit": lambda u: 1 / (1 + sp.exp(-u)), "ln": sp.log,
}


def _extremum(kind, name, real):
    def shim(*args, **kw):
        if kw or len(args) == 0:
            return real(*args, **kw)
        items = list(args[0]) if len(args) == 1 and not isinstance(args[0], (Sym, numbers.Number)) else list(args)
        if not items or not _has_sym(items):
            return real(*args)
        infinite = [v for v in items if isinstance(v, float) and math.isinf(v)]
        if any((v > 0) == (kind is sp.Max) for v in infinite):
            return math.inf if kind is sp.Max else -math.inf     # max(x, inf) is inf
        items = [v for v in items if not (isinstance(v, float) and math.isinf(v))]   # min(x, inf) is x
        try:
            es = [exact(v) for v in items]
        except _NotANumber:
            return real(*args)
        return _new(_minmax(kind, es))
    shim.__name__ = name
    return shim


def _minmax(kind, es):
    uniq = list(dict.fromkeys(es))
    if len(uniq) == 1:
        return uniq[0]
    if all(not _free(e) for e in uniq):
        return kind(*uniq)
    return kind(*uniq, evaluate=False)


def _clip(real):
    def shim(a, lo, hi, *rest, **kw):
        if rest or kw or not _has_sym((a, lo, hi)):
            return real(a, lo, hi, *rest, **kw)
        v = _new(_minmax(sp.Max, [exact(a), exact(lo)])) if lo is not None else a
        return _new(_minmax(sp.Min, [exact(v), exact(hi)])) if hi is not None else v
    return shim


def _where(real):
    def shim(c, *ab):
        if len(ab) == 2 and isinstance(c, SymBool):
            return ab[0] if c else ab[1]
        return real(c, *ab)
    return shim


def _mpf_constant(v):
    """mpmath.mpf of a plain number or a decimal string: an exact constant (None: not a number)."""
    if isinstance(v, str):
        try:
            return _new(sp.Rational(v.strip()))
        except (TypeError, ValueError, SyntaxError):
            return None
    try:
        return _new(exact(v))
    except _NotANumber:
        return None


def _type_shim(real, base, convert, plain=None):
    """A stand-in for the type `real` (float, int, numpy.float64, mpmath.mpf) that is still that
    type for numpy (`dtype=float`) and for isinstance / issubclass, and whose call converts a proxy
    with `convert` (float(): the identity, since the formula is the real function the program
    computes; int(): exact on constants, a stop otherwise) and a plain number with `plain` where
    given (mpf(1), mpf('0.1'): exact constants)."""
    class Meta(type):
        def __instancecheck__(cls, obj):
            if isinstance(obj, (Sym, SymBool)):
                _stop_here(f"isinstance() of a symbolic value against {real.__name__} (the code inspects "
                           "the type of a number)")
            return isinstance(obj, real)

        def __subclasscheck__(cls, sub):
            return issubclass(sub, real)

    def new(cls, *args, **kw):
        if len(args) == 1 and not kw and isinstance(args[0], (Sym, SymBool)):
            if isinstance(args[0], SymBool):
                _stop_here(f"{real.__name__}() of a condition")
            return convert(args[0])
        if plain is not None and len(args) == 1 and not kw:
            out = plain(args[0])
            if out is not None:
                return out
        return real(*args, **kw)

    return Meta(real.__name__, (base,), {"__new__": new, "__module__": real.__module__})


def _rounding(real, fn, name):
    def shim(x, *rest):
        if isinstance(x, Sym) and not rest:
            return _rounded(x.e, fn, name)
        return real(x, *rest)
    return shim


def _fsum(real):
    def shim(items):
        items = list(items)
        if not _has_sym(items):
            return real(items)
        total = sp.Integer(0)
        for v in items:
            total += exact(v)
        return _new(total)
    return shim


def _hypot(real):
    def shim(*args):
        if not _has_sym(args):
            return real(*args)
        return _new(sp.sqrt(sum(exact(a) ** 2 for a in args)))
    return shim


def _power(real):
    def shim(a, b, *rest):
        if rest or not _has_sym((a, b)):
            return real(a, b, *rest)
        return _new(_pow(exact(a), exact(b)))
    return shim


def _log2arg(real):
    base = _unary("log", sp.log, real)

    def shim(x, *b):
        if len(b) == 1 and _has_sym((x, b[0])):
            return _new(sp.log(exact(x)) / sp.log(exact(b[0])))
        return base(x, *b)
    return shim


def _refuse(name, real):
    """Any other function of the module: a stop when it gets a value that depends on the input;
    else the real function (constants as the floats the program holds)."""
    def plain(v):
        return float(v) if isinstance(v, Sym) and not _free(v.e) else v

    def shim(*args, **kw):
        args, kw = [plain(a) for a in args], {k: plain(v) for k, v in kw.items()}
        if _has_sym(args) or _has_sym(kw.values()):
            _stop_here(f"unsupported function {name} (no exact counterpart is known to gpaudit)")
        return real(*args, **kw)
    shim.__name__ = name.rsplit(".", 1)[-1]
    return shim


class _ShimModule(types.ModuleType):
    """A stand-in for math / numpy / mpmath / scipy.special: the overrides, else the real module's
    attribute (functions refused on proxies where `refuse_others`)."""

    def __init__(self, real, label, overrides, refuse_others):
        super().__init__(real.__name__)
        self._real, self._label, self._over, self._refuse = real, label, overrides, refuse_others

    def __getattr__(self, name):
        if name.startswith("__"):
            return getattr(self._real, name)
        if name in self._over:
            return self._over[name]
        value = getattr(self._real, name)
        if self._refuse and callable(value) and not isinstance(value, type):
            return _refuse(f"{self._label}.{name}", value)
        return value


def _module_overrides(real, label):
    over = {}
    for name, fn in _EXACT_FUNCS.items():
        if hasattr(real, name):
            over[name] = _unary(f"{label}.{name}", fn, getattr(real, name))
    if label == "math":
        over.update(pi=Sym(sp.pi), e=Sym(sp.E), log=_log2arg(math.log), fsum=_fsum(math.fsum),
                    hypot=_hypot(math.hypot), pow=_power(math.pow), floor=_rounding(math.floor, sp.floor, "math.floor()"),
                    ceil=_rounding(math.ceil, sp.ceiling, "math.ceil()"))
    elif label == "numpy":
        over.update(maximum=_extremum(sp.Max, "maximum", np.maximum), minimum=_extremum(sp.Min, "minimum", np.minimum),
                    fmax=_extremum(sp.Max, "fmax", np.fmax), fmin=_extremum(sp.Min, "fmin", np.fmin),
                    clip=_clip(np.clip), where=_where(np.where), float64=_type_shim(np.float64, np.float64, lambda v: v),
                    power=_power(np.power), hypot=_hypot(np.hypot), floor=_rounding(np.floor, sp.floor, "numpy.floor()"),
                    ceil=_rounding(np.ceil, sp.ceiling, "numpy.ceil()"))
    elif label == "mpmath":
        over.update(mpf=_type_shim(mpmath.mpf, mpmath.mpf, lambda v: v, _mpf_constant), pi=Sym(sp.pi), e=Sym(sp.E),
                    fsum=_fsum(mpmath.fsum), hypot=_hypot(mpmath.hypot), power=_power(mpmath.power),
                    floor=_rounding(mpmath.floor, sp.floor, "mpmath.floor()"),
                    ceil=_rounding(mpmath.ceil, sp.ceiling, "mpmath.ceil()"),
                    log=_log2arg(mpmath.log))
    return over


def _shims():
    """(module -> shim module, id(real function) -> shim function, builtin name -> shim)."""
    import scipy
    import scipy.special
    mods = {math: ("math", True), np: ("numpy", False), mpmath: ("mpmath", True),
            scipy.special: ("scipy.special", False)}
    shim_mods, funcs = {}, {}
    for real, (label, refuse) in mods.items():
        over = _module_overrides(real, label)
        shim_mods[id(real)] = _ShimModule(real, label, over, refuse)
        for name, fn in over.items():
            if callable(fn) and hasattr(real, name):
                funcs[id(getattr(real, name))] = fn
    # `import scipy.special` binds the name scipy: its attribute special is the shim
    shim_mods[id(scipy)] = _ShimModule(scipy, "scipy", {"special": shim_mods[id(scipy.special)]}, False)
    built = {"min": _extremum(sp.Min, "min", builtins.min), "max": _extremum(sp.Max, "max", builtins.max),
             "float": _type_shim(builtins.float, np.float64, lambda v: v),
             "int": _type_shim(builtins.int, np.int64, lambda v: _to_int(v.e, "int()")),
             "isinstance": _isinstance, "type": _type}
    return shim_mods, funcs, built


def _isinstance(obj, cls):
    if isinstance(obj, (Sym, SymBool)):
        _stop_here("isinstance() of a symbolic value (the code inspects the type of a number)")
    return builtins.isinstance(obj, cls)


def _type(*args):
    if len(args) == 1 and isinstance(args[0], (Sym, SymBool)):
        _stop_here("type() of a symbolic value (the code inspects the type of a number)")
    return builtins.type(*args)


def _exact_float(v):
    return Sym(exact(v)) if isinstance(v, float) and math.isfinite(v) else v


def _exact_code(code):
    """The code object with its float constants (and those of nested functions) as exact proxies."""
    consts = tuple(_exact_code(c) if isinstance(c, types.CodeType) else _exact_float(c) for c in code.co_consts)
    changed = any(a is not b for a, b in zip(consts, code.co_consts))   # (Sym(0) == 0.0 is True)
    return code.replace(co_consts=consts) if changed else code


class _Patched:
    """The user's code made exact and the shims in place, restored on exit.  In the namespace of
    the callable and, transitively, of the user functions and modules it refers to (a helper in
    the same file, `import helpers` of a file outside the libraries): math / numpy / mpmath and
    functions imported from them are shims, builtins min, max, float, ... too; float constants
    (module globals, keyword defaults, literals in the functions' code) are exact proxies."""

    def __init__(self, fn, user_files):
        self.fn, self.user_files, self.undo, self.saved = fn, user_files, [], []

    def _set(self, obj, name, new):
        """Set obj[name] (a dict) or obj.name, remembering the old value."""
        if isinstance(obj, dict):
            self.undo.append((obj, name, obj.get(name, _MISSING)))
            obj[name] = new
        else:
            self.undo.append((obj, name, getattr(obj, name)))
            setattr(obj, name, new)

    def _exact_function(self, f, done):
        if id(f) in done:
            return
        done.add(id(f))
        self._set(f, "__code__", _exact_code(f.__code__))
        if f.__defaults__:
            self._set(f, "__defaults__", tuple(_exact_float(v) for v in f.__defaults__))
        if f.__kwdefaults__:
            self._set(f, "__kwdefaults__", {k: _exact_float(v) for k, v in f.__kwdefaults__.items()})

    def __enter__(self):
        shim_mods, funcs, built = _shims()
        seen, done, todo = set(), set(), [self.fn.__globals__]
        target = getattr(self.fn, "__func__", self.fn)      # a bound method: its function
        if isinstance(target, types.FunctionType):
            self._exact_function(target, done)
        while todo:
            g = todo.pop()
            if id(g) in seen:
                continue
            seen.add(id(g))
            self.saved.append((g, dict(g)))
            for name, value in list(g.items()):
                if name.startswith("__"):
                    continue
                new = shim_mods.get(id(value)) or funcs.get(id(value))
                if new is not None:
                    self._set(g, name, new)
                elif isinstance(value, float):
                    self._set(g, name, _exact_float(value))
                elif isinstance(value, types.FunctionType) and _is_user_file(value.__code__.co_filename):
                    self._exact_function(value, done)
                    todo.append(value.__globals__)
                elif isinstance(value, types.ModuleType) and _is_user_file(getattr(value, "__file__", "") or ""):
                    todo.append(value.__dict__)
            for name, new in built.items():
                if name not in g:
                    self._set(g, name, new)
        return self

    def __exit__(self, *exc):
        for obj, name, old in reversed(self.undo):
            if not isinstance(obj, dict):
                setattr(obj, name, old)
        # the namespaces as they were: the shims out, and nothing the traced code stored there
        # (a cache of traced values, say) survives into the calls of the audit
        for g, saved in reversed(self.saved):
            g.clear()
            g.update(saved)
        return False


_MISSING = object()


# -- paths -----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Decision:
    cond: object
    taken: bool
    forked: bool        # both sides were feasible (else the other side was proved infeasible)


class _Run:
    def __init__(self, tracer, prefix):
        self.tracer, self.prefix = tracer, prefix
        self.decisions: list[_Decision] = []
        self.stop = None
        self.ops = self.const_ops = 0
        self.max_ops = tracer.max_ops
        self.user_files = tracer.user_files

    def path(self):
        return [d.cond if d.taken else _negate(d.cond) for d in self.decisions]

    def decide(self, cond) -> bool:
        i = len(self.decisions)
        if i < len(self.prefix):
            d = self.prefix[i]
            if d.cond != cond:
                _stop_here("the program does not branch the same way when run again (it keeps state "
                           "between calls, e.g. a cache)")
            self.decisions.append(d)
            return d.taken
        pc = self.path()
        if cond in pc:
            yes, no = True, False
        elif _negate(cond) in pc:
            yes, no = False, True
        else:
            yes = self.tracer.feasible(pc + [cond])
            no = self.tracer.feasible(pc + [_negate(cond)])
            self.tracer.pruned += (not yes) + (not no)
        if yes and no:
            if len(self.tracer.done) + len(self.tracer.pending) + 2 > self.tracer.max_paths:
                _stop_here(f"more than {self.tracer.max_paths} paths: a branch on the input repeated too often "
                           "(a loop whose trip count depends on the input?)")
            self.tracer.pending.append(tuple(self.decisions) + (_Decision(cond, False, True),))
            self.decisions.append(_Decision(cond, True, True))
            return True
        taken = bool(yes) or not no
        self.decisions.append(_Decision(cond, taken, False))
        return taken


def _negate(c):
    return sp.Not(c)


@dataclass
class TraceStop:
    """Tracing stopped: the construct and where (the innermost file:line of the user's code)."""
    construct: str
    where: str
    source: str = ""     # FILE:FUNCTION of the callable

    def __str__(self):
        return f"{self.construct} at {self.where}"


@dataclass
class Traced:
    """The callable as an exact formula: pieces (path condition, value) over the input symbols,
    in the order the paths were explored (depth first, the first branch first).  The conditions
    are disjoint and together cover R^d (every side of every branch was explored, or proved empty)."""
    pieces: list
    source: str
    symbols: tuple = ()
    pruned: int = 0      # sides of branches proved infeasible (never explored)
    paths: int = 0
    first_match: list = field(default_factory=list)   # the pieces with first-match conditions

    def piecewise(self):
        """The formula as one sympy Piecewise (first match; the last condition True)."""
        return sp.Piecewise(*[(v, c) for c, v in self.first_match])

    def loader_pieces(self) -> tuple:
        """The pieces as the loader builds them for `kind: piecewise` (gpaudit.spec.types.Piece)."""
        return tuple(Piece(c, v) for c, v in self.first_match)


class _Tracer:
    def __init__(self, fn, d, args, scalar, max_paths, max_ops):
        self.fn, self.d, self.args, self.scalar = fn, d, args or {}, scalar
        self.max_paths, self.max_ops = max_paths, max_ops
        self.symbols = input_symbols(d)
        self.user_files = {getattr(getattr(fn, "__code__", None), "co_filename", "")}
        self.pending: list = []
        self.done: list = []
        self.pruned = 0

    def feasible(self, conds) -> bool:
        """False only when z3 proves the conjunction unsatisfiable."""
        try:
            t = zb.Translator("_trace")
            q = t.query(t(sp.And(*conds)))
        except (zb.Unsupported, TypeError, ValueError, KeyError):
            return True
        try:
            ans = zb.solve(q, FEASIBLE_MS)
        except Exception:  # noqa: BLE001 - no answer keeps the path (sound)
            return True
        return ans.status != zb.UNSAT

    def inputs(self):
        xs = [Sym(s) for s in self.symbols]
        x = xs[0] if self.scalar else xs
        kw = {}
        for k, v in self.args.items():
            try:
                kw[k] = Sym(exact(v)) if isinstance(v, (numbers.Number, sp.Expr, mpmath.mpf, Sym)) else v
            except _NotANumber:
                kw[k] = v
        return x, kw

    def run_one(self, prefix):
        run = _Run(self, prefix)
        _STATE.run = run
        try:
            x, kw = self.inputs()
            out = self.fn(x, **kw)
            value = self.value(out)
        except KeyboardInterrupt:
            raise
        except _Stop as err:
            where = err.where or _tb_location(err.__traceback__, self.user_files)[0]
            return run, None, run.stop or (err.construct, self.source_file() if where == "?" else where)
        except BaseException as exc:  # noqa: BLE001 - anything the user's code raises stops tracing
            where, callee = _tb_location(exc.__traceback__, self.user_files)
            if run.stop is not None:
                return run, None, run.stop
            what = f"{type(exc).__name__}: {str(exc)[:160]}"
            if callee:
                construct = f"a call into {callee} raised {what}"
            else:
                construct = f"the code raised {what}"
            line = _line_text(where)
            if line:
                construct += f" (`{line}`)"
            return run, None, (construct, where)
        finally:
            _STATE.run = None
        if run.stop is not None:
            return run, None, run.stop
        if len(run.decisions) < len(prefix):
            return run, None, ("the program does not branch the same way when run again (it keeps state "
                               "between calls, e.g. a cache)", self.source_file())
        return run, value, None

    def source_file(self):
        code = getattr(self.fn, "__code__", None)
        return f"{_shown(code.co_filename)}:{code.co_firstlineno}" if code else "?"

    def value(self, out):
        if isinstance(out, np.ndarray) and out.size == 1:
            out = out.reshape(()).item() if out.dtype != object else out.reshape(-1)[0]
        if isinstance(out, SymBool) or isinstance(out, (bool, np.bool_)):
            _stop_here("the callable returns a condition, not a number")
        try:
            e = exact(out)
        except _NotANumber:
            _stop_here(f"the callable returns a {type(out).__name__}, not a number")
        if e.has(sp.zoo, sp.nan, sp.oo, -sp.oo, sp.I):
            _stop_here(f"the value {e} is not a finite real number")
        extra = e.free_symbols - set(self.symbols)
        if extra:
            _stop_here(f"the value depends on {sorted(map(str, extra))[0]}, not only on x")
        return e


def _source_name(fn) -> str:
    code = getattr(fn, "__code__", None)
    file = _shown(code.co_filename) if code else getattr(fn, "__module__", "?")
    return f"{file}:{getattr(fn, '__qualname__', getattr(fn, '__name__', '?'))}"


def trace(fn, d: int, *, args=None, scalar: bool = False, max_paths: int = MAX_PATHS,
          max_ops: int = MAX_OPS):
    """Trace ``fn(x, **args)`` (x a sequence of d proxies, or one proxy when ``scalar``) into the
    exact formula it computes: a :class:`Traced`, or a :class:`TraceStop` naming why not.
    ``args`` values are exact numbers (sympy, int, Fraction, float: read exactly)."""
    if not callable(fn) or not hasattr(fn, "__globals__"):
        return TraceStop(f"{type(fn).__name__} is not a Python function", "?", _source_name(fn))
    tr = _Tracer(fn, d, args, scalar, max_paths, max_ops)
    source = _source_name(fn)
    tr.pending.append(())
    try:
        # user code may set mpmath's precision, and what it prints about traced values is noise
        with _Patched(fn, tr.user_files), mpmath.workdps(mpmath.mp.dps), \
                contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            while tr.pending:
                prefix = tr.pending.pop()
                run, value, stop = tr.run_one(prefix)
                if stop is not None:
                    return TraceStop(stop[0], stop[1], source)
                tr.done.append((run.decisions, value))
    except KeyboardInterrupt:
        raise
    except RecursionError:
        return TraceStop("the formula is nested too deeply", "?", source)
    pieces, first = [], []
    for decisions, value in tr.done:
        # a side taken because the other was proved empty is implied by the earlier conditions
        kept = [d for d in decisions if d.forked]
        pieces.append((sp.And(*[d.cond if d.taken else _negate(d.cond) for d in kept]), value))
        # first match (depth first, first branch first): a point on the second side of a fork that
        # satisfies the fork's condition lies in the first side's subtree, matched earlier
        first.append(sp.And(*[d.cond for d in kept if d.taken]))
    first = _merge_equal([(c, v) for c, (_, v) in zip(first, pieces)])
    if first:
        first[-1] = (sp.true, first[-1][1])
    return Traced(pieces, source, tr.symbols, tr.pruned, len(pieces), first)


def _merge_equal(first):
    """Consecutive first-match pieces with the same value as one piece: (v, c1), (v, c2) is
    (v, c1 | c2), written as the common conjuncts and the disjunction of the rest (siblings of
    the path tree share their prefix).  sympy's Piecewise merges them itself, but distributes the
    disjunction into a conjunctive normal form, exponentially longer."""
    out = []
    for c, v in first:
        if out and out[-1][1] == v:
            out[-1] = (_or_factored(out[-1][0], c), v)
        else:
            out.append((c, v))
    return out


def _or_factored(a, b):
    ca = list(a.args) if isinstance(a, sp.And) else [a]
    cb = list(b.args) if isinstance(b, sp.And) else [b]
    common = [c for c in ca if c in cb]
    ra = sp.And(*[c for c in ca if c not in common])
    rb = sp.And(*[c for c in cb if c not in common])
    return sp.And(*common, sp.Or(ra, rb))


def traced_pieces(fn, d: int, args=None, scalar: bool = False):
    """For `kind: python`: (the pieces the loader builds for `kind: piecewise`, the Traced), or
    (None, the TraceStop) when the callable cannot be traced."""
    result = trace(fn, d, args=args, scalar=scalar)
    if isinstance(result, Traced):
        return result.loader_pieces(), result
    return None, result


# -- reporting -------------------------------------------------------------------------------------

def trace_info(query, bound) -> dict:
    """The result's info entries for the python kinds of a mechanism: ``query_source`` /
    ``bound_source`` "traced" and ``traced.{query,bound}`` (where from, the formula, paths) for a
    traced callable; ``trace_stopped.{query,bound}`` (construct, file:line) where tracing stopped."""
    info: dict = {}
    for key, model in (("query", query), ("bound", bound)):
        t = getattr(model, "trace", None)
        if isinstance(t, Traced):
            info[f"{key}_source"] = "traced"
            info.setdefault("traced", {})[key] = {"from": t.source, "formula": str(t.piecewise()),
                                                  "paths": t.paths, "pruned": t.pruned}
        elif isinstance(t, TraceStop):
            info.setdefault("trace_stopped", {})[key] = {"callable": t.source, "construct": t.construct,
                                                         "at": t.where}
    return info


def trace_lines(info: dict, width: int = 240) -> list[str]:
    """Text lines for `gpaudit check`: what was traced (with the formula) and where tracing stopped."""
    out = []
    name = {"query": "f", "bound": "B"}
    for key, t in (info.get("traced") or {}).items():
        formula = t["formula"] if len(t["formula"]) <= width else t["formula"][:width] + " ..."
        out.append(f"{name[key]} traced from {t['from']} ({t['paths']} paths): {formula}")
    for key, t in (info.get("trace_stopped") or {}).items():
        out.append(f"{name[key]} not traced ({t['callable']}): {t['construct']} at {t['at']}")
    return out


def untraced(info: dict) -> str:
    """Why the python callables of a result were not traced ('' when none stopped)."""
    return "; ".join(f"{k}: {t['construct']} at {t['at']}" for k, t in (info.get("trace_stopped") or {}).items())
