"""A user's python callable as the audit calls it: bound to its arguments, guarded, and measured.

``UserFn`` calls ``fn(x, **args)`` (x a list of d numbers, or one number with ``input.scalar``):

* in float64 (``call_float``), the screen's and the local search's arithmetic;
* at the working mpmath precision (``call_mp``): a callable that takes mpmath numbers gets mpf
  inputs and its value is checked at a second, higher precision; a float64 program gets the
  binary inputs and its float result;
* ``exact_at(x)`` measures, at one point a verdict uses, whether the value there is the exact value
  of a real function: it agrees at 50 and 100 digits, and it follows a perturbation of the input
  below float64 resolution (a value computed through a float, ``mpmath.mpf(math.sqrt(v))``,
  ``float(v) + 0.5`` or a ``workdps(12)`` block, does not).

No call raises: an exception (SystemExit and any other BaseException but KeyboardInterrupt), a
result that is not a real number, NaN, or a value that changes between precisions becomes a
``Finding`` and the value NaN (which verifies nothing); the audit goes on elsewhere, and the check
reports the findings as ``user_code``.
"""

from __future__ import annotations

import contextlib
import math
import numbers
import time
import warnings
from dataclasses import dataclass, field
from fractions import Fraction

import mpmath
import numpy as np
import sympy as sp

from ..errors import number_text, short_repr
from ..kernel.z3door import WALL_CLOCK_NOTE

# the two precisions (digits) at which an exact callable's value must agree
EXACT_DPS = (50, 100)
# a perturbation of each coordinate, relative to max(|x_i|, 1): far below float64 resolution
# (2^-53), far above 100 digits' (2^-332); and a step float64 resolves, to see that f varies
_SUB_DOUBLE = mpmath.mpf(2) ** -70
_VISIBLE = 2.0 ** -20
_DIRECTION = (1.0, 0.6180339887498949, 0.4142135623730951, 0.7320508075688772, 0.2360679774997897)
MAX_FINDINGS = 20   # findings kept per callable (all are counted)
# Every run ends, however slow a user's callable: at 2 ms a call, one check took 567 s (the audit
# evaluates f and B tens of thousands of times).  gpaudit.check gives the callables of one file
# SECONDS of wall clock (DEADLINE, a time.monotonic() value); past it no callable is called: the
# input has no value and a "time" finding (an unknown user_code check), and a witness counts only
# where its values were computed, at both precisions, before it.  Traced callables are judged on
# their traces, which need no call.
SECONDS = 60
DEADLINE = [None]
TIME_NOTE = WALL_CLOCK_NOTE   # the run has one nondeterministic kind of limit, named one way


@dataclass
class Finding:
    """One input where a callable did not give a usable value."""
    name: str          # "f" or "B"
    ref: str           # the callable as written in the configuration
    x: list            # the input (floats or mpf)
    kind: str          # raised | nan | not_real | unstable
    detail: str        # the exception or what was wrong
    exception: str = ""

    def text(self) -> str:
        where = ", ".join(number_text(v) for v in self.x)
        return f"{self.name} {self.detail} at x = [{where}] ({self.ref})"


def is_short_float(r) -> bool:
    """A float with at most 24 significant bits (0.0, 1.0, 0.5, ...): a literal, not a rounding."""
    if not math.isfinite(r):
        return False
    return (math.frexp(r)[0] * 2**24).is_integer()


def real_mpf(r) -> mpmath.mpf:
    """A returned value as an mpf (TypeError when it is not a real number)."""
    if isinstance(r, mpmath.mpf):
        return r
    if isinstance(r, bool):
        raise TypeError(f"returned bool {r!r}, not a real number")
    if isinstance(r, Fraction):
        return mpmath.mpf(r.numerator) / r.denominator
    if isinstance(r, numbers.Integral):
        return mpmath.mpf(int(r))
    if isinstance(r, (float, numbers.Real)):
        return mpmath.mpf(float(r))
    if isinstance(r, np.ndarray) and r.size == 1 and np.isrealobj(r):
        return mpmath.mpf(float(r.reshape(())))
    raise TypeError(f"returned {type(r).__name__} {r!r:.80}, not a real number")


@dataclass
class UserFn:
    """fn bound to its exact arguments; ``exact``: it computes in mpmath numbers (see takes_mpmath)."""
    fn: object
    name: str
    ref: str
    args: dict = field(default_factory=dict)    # keyword -> exact sympy number
    scalar: bool = False
    exact: bool = False
    findings: list = field(default_factory=list)
    counts: dict = field(default_factory=dict)  # kind -> number of inputs
    magnitude: float = 0.0                      # the largest |value| seen at the probe points
    _float_args: dict = field(default=None, repr=False)

    # -- arguments -------------------------------------------------------------------------
    def _kwargs_float(self):
        """The args as floats (rounded to nearest): a float64 program's arithmetic."""
        if self._float_args is None:
            self._float_args = {k: float(v) for k, v in self.args.items()}
        return dict(self._float_args)

    def _kwargs_mp(self):
        """The args as mpf at the working precision (an integer stays an integer-valued mpf, so
        that 1/tau divides exactly instead of in float64)."""
        out = {}
        for k, v in self.args.items():
            if v.is_Rational:
                out[k] = mpmath.mpf(int(v.p)) / int(v.q)
            else:
                out[k] = mpmath.mpf(sp.N(v, mpmath.mp.dps + 10))
        return out

    def raw(self, x, kwargs):
        """fn(x, **kwargs); x a list of numbers (passed as x[0] with input.scalar)."""
        return self.fn(x[0] if self.scalar else list(x), **kwargs)

    # -- findings ----------------------------------------------------------------------------
    def note(self, x, kind, detail, exception=""):
        self.counts[kind] = self.counts.get(kind, 0) + 1
        if len(self.findings) < MAX_FINDINGS:
            self.findings.append(Finding(self.name, self.ref, list(x), kind, detail, exception))

    def out_of_time(self, x) -> bool:
        """Whether the callables' wall clock is spent (a "time" finding at x, then)."""
        if DEADLINE[0] is None or time.monotonic() <= DEADLINE[0]:
            return False
        self.note(x, "time", f"not called: the user callables' wall-clock budget of {SECONDS} s is spent ({TIME_NOTE})")
        return True

    def _guarded(self, x, kwargs):
        """(value or None): an exception is a finding, never raised (KeyboardInterrupt aside)."""
        if self.out_of_time(x):
            return None, False
        try:
            return self.raw(x, kwargs), True
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # noqa: BLE001 - SystemExit, GeneratorExit, ... as well
            self.note(x, "raised", f"raised {short_repr(exc)}", type(exc).__name__)
            return None, False

    # -- evaluation ----------------------------------------------------------------------------
    def call_float(self, x) -> float:
        """The float64 value at x (NaN with a finding where the code fails).  Warnings the code
        raises (numpy's RuntimeWarning on NaN, ...) are not printed: what they signal is a finding."""
        with quiet():
            return self.call_float_loud(x)

    def call_float_loud(self, x) -> float:
        """call_float without silencing warnings (for a caller that already does: python_numpy)."""
        x = [float(v) for v in x]
        r, ok = self._guarded(x, self._kwargs_float())
        if not ok:
            return math.nan
        try:
            v = float(real_mpf(r))
        except (TypeError, ValueError, OverflowError) as exc:
            self.note(x, "not_real", str(exc))
            return math.nan
        if math.isnan(v):
            self.note(x, "nan", "returned nan")
        return v

    def _mp_once(self, x):
        """The value at the current precision.  Where an exact callable fails with mpmath inputs
        (an exception, NaN, not a number), that is a finding and its float64 value is used there
        (judged as a float64 program: exact_at is False); NaN when that fails too."""
        if not self.exact:
            return mpmath.mpf(self.call_float(x))
        if self.out_of_time(x):
            return mpmath.nan
        try:
            with quiet():
                r = self.raw([mpmath.mpf(v) for v in x], self._kwargs_mp())
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # noqa: BLE001 - SystemExit, GeneratorExit, ... as well
            return self._float_instead(x, "raised", f"raised {short_repr(exc)}", type(exc).__name__)
        if isinstance(r, float) and not is_short_float(r) and not math.isnan(r):
            return mpmath.mpf(r)  # a float computed from the inputs: a float64 path (exact_at says so)
        try:
            v = real_mpf(r)
        except (TypeError, ValueError) as exc:
            return self._float_instead(x, "not_real", str(exc))
        if mpmath.isnan(v):
            return self._float_instead(x, "nan", "returned nan")
        return v

    def _float_instead(self, x, kind, detail, exception=""):
        self.note(x, kind, detail + " with mpmath inputs (its float64 value is used there)", exception)
        return mpmath.mpf(self.call_float(x))

    def call_mp(self, x) -> mpmath.mpf:
        """The value at the working precision.  An exact callable is also evaluated at a higher
        precision; a value that changes between the two is a finding and NaN."""
        v = self._mp_once(x)
        if not self.exact or not mpmath.isfinite(v):
            return v
        dps = mpmath.mp.dps
        with mpmath.workdps(2 * dps + 10):
            w = self._mp_once(x)
        if not _agree(v, w, dps):
            self.note(x, "unstable", f"changes between {dps} and {2 * dps + 10} digits "
                                     f"({mpmath.nstr(v, 17)} vs {mpmath.nstr(w, 17)})")
            return mpmath.nan
        return v

    def exact_at(self, x) -> bool:
        """Whether the value at x is measured to be the exact value of a real function there: the
        callable takes mpmath numbers, agrees at 50 and 100 digits, and responds to a perturbation
        of x below float64 resolution wherever it varies on the float64 scale.  False means the
        callable is judged as a float64 program at x (within its tolerance)."""
        if not self.exact:
            return False
        failures = sum(self.counts.values())
        with mpmath.workdps(EXACT_DPS[0]):
            v50 = self.call_mp(x)
        with mpmath.workdps(EXACT_DPS[1]):
            v = self.call_mp(x)
            if not (mpmath.isfinite(v50) and mpmath.isfinite(v)) or not _agree(v50, v, EXACT_DPS[0]):
                return False
            xs = [mpmath.mpf(c) for c in x]
            u = [_DIRECTION[i % len(_DIRECTION)] * max(abs(c), 1) for i, c in enumerate(xs)]

            def at(step):
                return self._mp_once([c + step * w for c, w in zip(xs, u)])
            tiny = [at(_SUB_DOUBLE), at(-_SUB_DOUBLE)]
            if all(t == v for t in tiny):
                seen = [at(mpmath.mpf(_VISIBLE)), at(-mpmath.mpf(_VISIBLE))]
                if any(mpmath.isfinite(s) and s != v for s in seen):
                    return False  # varies on the float64 scale but not below it: a float path
        return sum(self.counts.values()) == failures  # no failure at or next to x

    def probe(self, points):
        """Record the largest |value| at the probe points (float64): the scale of the values."""
        mags = []
        for p in points:
            v = self.call_float(p)
            if math.isfinite(v):
                mags.append(abs(v))
        self.magnitude = max(mags, default=0.0)


@contextlib.contextmanager
def quiet():
    """A context in which the user's code's warnings are not printed."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def _agree(a, b, dps) -> bool:
    """Whether a and b agree far beyond float64 (to dps - 10 digits, relative)."""
    if a == b:
        return True
    tol = mpmath.mpf(10) ** -(dps - 10) * max(abs(a), abs(b))
    return abs(a - b) <= tol


def takes_mpmath(fn: UserFn, points) -> bool:
    """Whether ``fn`` computes in mpmath numbers: called with mpf inputs at the probe points, it
    returns mpf / int / Fraction values or floats that are short constants such as 0.0, 1.0 or 0.5
    (a float computed from the inputs has a full 53-bit mantissa).  A probe that fails on mpf
    inputs but not on floats, or any other result, means a float64 program.  (This classifies
    the callable; exactness at the points a verdict uses is measured there: ``exact_at``.)"""
    with quiet():
        return _takes_mpmath(fn, points)


def _takes_mpmath(fn: UserFn, points) -> bool:
    seen = 0
    with mpmath.workdps(30):
        kw_mp = fn._kwargs_mp()
    kw_f = fn._kwargs_float()

    def float_fails(pt):
        try:
            return not math.isfinite(float(fn.raw(list(pt), kw_f)))
        except KeyboardInterrupt:
            raise
        except BaseException:  # noqa: BLE001 - only a probe
            return True

    for pt in points:
        with mpmath.workdps(30):
            try:
                r = fn.raw([mpmath.mpf(u) for u in pt], kw_mp)
            except KeyboardInterrupt:
                raise
            except BaseException:  # noqa: BLE001 - only a probe
                if float_fails(pt):
                    continue  # fails on floats too: no information here
                return False
        if isinstance(r, mpmath.mpf):
            if not mpmath.isfinite(r):
                if float_fails(pt):
                    continue
                return False  # breaks down on mpmath numbers where floats do not
        elif isinstance(r, float):
            if not is_short_float(r):
                return False
        elif isinstance(r, bool) or not isinstance(r, (numbers.Integral, Fraction)):
            return False
        seen += 1
    return seen > 0


DEFAULT_PROBES = (0.3, -0.7, 1.9, 0.0, -4.1, 13.7)


def probe_points(dim, landmarks=(), scale=1.0):
    """Where a callable is first tried: a few points near the origin, and each declared landmark
    and its neighbours at the declared scale."""
    pts = [[v + 0.11 * k for k in range(dim)] for v in DEFAULT_PROBES]
    for m in landmarks:
        for s in (0.0, 0.37, -0.61, 1.3):
            pts.append([float(c) + s * scale * _DIRECTION[k % len(_DIRECTION)] for k, c in enumerate(m)])
    return pts


def user_code_checks(fns) -> list:
    """One ``user_code`` check per callable with findings (the first input named, every kind counted)."""
    from ..verdict import UNKNOWN, Check
    out = []
    for fn in fns:
        if not fn.findings:
            continue
        first = fn.findings[0]
        total = sum(fn.counts.values())
        kinds = ", ".join(f"{n} {KIND_TEXT[k]}" for k, n in sorted(fn.counts.items()))
        more = f"; {total} inputs in all ({kinds})" if total > 1 else ""
        out.append(Check("user_code", UNKNOWN, f"call of the user callable {fn.ref}", first.text() + more,
                         {"callable": fn.ref, "x": [str(v) for v in first.x], "kind": first.kind,
                          "exception": first.exception, "counts": dict(fn.counts),
                          "inputs": [{"x": [str(v) for v in f.x], "kind": f.kind, "detail": f.detail}
                                     for f in fn.findings]}))
    return out


KIND_TEXT = {"raised": "raised", "nan": "returned nan", "not_real": "returned a non-number",
             "unstable": "changed between precisions", "time": "not called past the time budget"}


@contextlib.contextmanager
def time_budget(seconds=None):
    """The callables' wall clock for one check (SECONDS unless given); nesting keeps the outer one."""
    if DEADLINE[0] is not None:
        yield
        return
    DEADLINE[0] = time.monotonic() + (SECONDS if seconds is None else seconds)
    try:
        yield
    finally:
        DEADLINE[0] = None
