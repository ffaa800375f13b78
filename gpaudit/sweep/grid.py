"""The grid of a sweep: ``--vary NAME=SPEC`` options parsed into exact values.

SPEC is one of

* a comma-separated list of constants: ``1,2,5/2``, ``0.1,sqrt(2)`` (each value keeps the
  spelling it was given; decimals are exact, as everywhere in gpaudit: ``0.1`` is 1/10);
* a linear range ``start:stop:count``: ``count`` equally spaced values from start to stop, both
  included, computed exactly (rational ends give rationals, written as terminating decimals
  where they are one, else as ``p/q``: ``1:2:4`` is 1, 4/3, 5/3, 2);
* a log range ``log:start:stop:count``: ``count`` values equally spaced in log scale, both ends
  positive. The ends are kept exactly as written; the values between them are rounded to
  nearest at ``LOG_DIGITS`` significant decimal digits and written as exact decimal strings
  (``log:0.01:1:3`` is 0.01, 0.1, 1; ``log:1:2:3`` is 1, 1.41421, 2).

``count`` is a positive integer (1 gives ``start`` alone). Every value is parsed by gpaudit's own
expression parser (``gpaudit.spec.expr``), so the grid holds exact sympy numbers, and each value
has a string that parses back to exactly that number: the string substituted into the
configuration. Values are constants (a name such as ``eps`` is refused: the other parameters of a
point follow from the file's own formulas). Points are the Cartesian product of the axes, the
first ``--vary`` outermost.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from decimal import Decimal

import mpmath
import sympy as sp

from ..errors import FieldError
from ..spec.expr import numeric_value, parse_expr

LOG_DIGITS = 6          # significant decimal digits of the inner values of a log range
MAX_COUNT = 10_000      # values of one axis
MAX_POINTS = 100_000    # points of a whole grid


class GridError(ValueError):
    """A bad --vary option: the message is one line naming the option."""


@dataclass(frozen=True)
class Axis:
    name: str
    spec: str                 # as written after NAME=
    values: tuple             # exact sympy numbers
    texts: tuple              # the exact string of each value (what is substituted)


def parse_vary(option: str) -> Axis:
    """One ``NAME=SPEC`` option as an :class:`Axis` (raises :class:`GridError`)."""
    name, sep, spec = option.partition("=")
    name, spec = name.strip(), spec.strip()
    where = f"--vary {option}"
    if not sep or not name.isidentifier():
        raise GridError(f"{where}: expected NAME=SPEC with NAME a parameter name")
    if not spec:
        raise GridError(f"{where}: empty SPEC (give values 1,2,5/2, a range start:stop:count or log:start:stop:count)")
    parts = [p.strip() for p in spec.split(":")]
    try:
        if parts[0] == "log":
            if len(parts) != 4:
                raise GridError("a log range is log:start:stop:count")
            texts = _log_range(parts[1], parts[2], _count(parts[3]))
        elif len(parts) == 3:
            texts = _linear_range(parts[0], parts[1], _count(parts[2]))
        elif len(parts) == 1:
            texts = [t.strip() for t in spec.split(",")]
            if any(not t for t in texts):
                raise GridError("empty value in the list")
        else:
            raise GridError("expected values v1,v2,..., a range start:stop:count or log:start:stop:count")
        values = [constant(t) for t in texts]
    except GridError as err:
        raise GridError(f"{where}: {err}") from None
    seen = {}
    for text, value in zip(texts, values):
        if value in seen:
            raise GridError(f"{where}: the value {text} appears twice (as {seen[value]})")
        seen[value] = text
    return Axis(name, spec, tuple(values), tuple(texts))


def product(axes) -> list[dict]:
    """The points of the grid in order ({name: exact string}), the first axis outermost."""
    total = 1
    for a in axes:
        total *= len(a.values)
    if total > MAX_POINTS:
        raise GridError(f"--vary: the grid has {total} points (at most {MAX_POINTS})")
    names = [a.name for a in axes]
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        raise GridError(f"--vary {dup}: the parameter is varied twice")
    return [dict(zip(names, combo)) for combo in itertools.product(*(a.texts for a in axes))]


def constant(text: str) -> sp.Expr:
    """A finite real constant written in gpaudit's expression syntax (raises GridError)."""
    try:
        value = numeric_value(parse_expr(text))
    except FieldError as err:
        problem = err.problem
        if problem.startswith("unknown name"):
            problem += " (values are constants; parameters that depend on this one follow the file's formulas)"
        raise GridError(f"{text}: {problem}") from None
    if value.has(sp.oo, -sp.oo, sp.zoo):
        raise GridError(f"{text}: must be finite")
    return value


def exact_text(value: sp.Expr) -> str:
    """A string that gpaudit's parser reads back as exactly ``value``: an integer, a terminating
    decimal, p/q, or (irrational) sympy's own spelling when it parses back to the same number."""
    value = sp.sympify(value)
    if value.is_Integer:
        return str(value)
    if value.is_Rational:
        q, twos, fives = int(value.q), 0, 0
        while q % 2 == 0:
            q, twos = q // 2, twos + 1
        while q % 5 == 0:
            q, fives = q // 5, fives + 1
        if q == 1:   # a terminating decimal: p / q = digits / 10^places exactly
            places = max(twos, fives)
            digits = abs(int(value.p)) * 10**places // int(value.q)
            whole, frac = divmod(digits, 10**places)
            return f"{'-' if value < 0 else ''}{whole}.{frac:0{places}d}"
        return f"{value.p}/{value.q}"
    text = str(value).replace("**", "^")
    try:
        back = numeric_value(parse_expr(text))
    except FieldError:
        back = None
    if back is None or sp.simplify(back - value) != 0:
        raise GridError(f"the value {value} cannot be written exactly")
    return text


def _count(text: str) -> int:
    if not re.fullmatch(r"[0-9]+", text):
        raise GridError(f"count must be a positive integer, not {text!r}")
    n = int(text)
    if not 1 <= n <= MAX_COUNT:
        raise GridError(f"count must be from 1 to {MAX_COUNT}, not {n}")
    return n


def _linear_range(start: str, stop: str, count: int) -> list[str]:
    a, b = constant(start), constant(stop)
    if count == 1:
        return [exact_text(a)]
    step = (b - a) / (count - 1)
    return [exact_text(a + i * step) for i in range(count)]


def _log_range(start: str, stop: str, count: int) -> list[str]:
    a, b = constant(start), constant(stop)
    for end, value in ((start, a), (stop, b)):
        if not value > 0:
            raise GridError(f"the ends of a log range must be positive, not {end}")
    if count == 1:
        return [start]
    with mpmath.workdps(60):
        la, lb = mpmath.log(_mpf(a)), mpmath.log(_mpf(b))
        inner = [_decimal(mpmath.exp(la + (lb - la) * i / (count - 1)), LOG_DIGITS) for i in range(1, count - 1)]
    return [start, *inner, stop]


def _mpf(value: sp.Expr) -> mpmath.mpf:
    return mpmath.mpf(sp.N(value, mpmath.mp.dps + 10))


def _decimal(v: mpmath.mpf, digits: int) -> str:
    """v rounded to nearest at `digits` significant digits, as a plain decimal string (no exponent)."""
    text = format(Decimal(mpmath.nstr(v, digits, strip_zeros=False, min_fixed=-mpmath.inf,
                                      max_fixed=mpmath.inf)), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text
