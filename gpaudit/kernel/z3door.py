"""The one door to z3: sympy expressions -> z3 terms, one solver call per obligation.

Every z3 call of gpaudit goes through `solve` (or `check_formula` for callers that build z3
terms themselves): fixed seeds and a deterministic work budget (z3's `rlimit`, a count of
solver steps, never a wall-clock timeout), so the same obligation gets the same answer on an
idle and on a loaded machine.  `unknown` (budget exhausted, incomplete theory) is never taken
for an answer.

Everything z3 sees is real polynomial arithmetic (division is allowed: z3 treats x/0 as an
arbitrary value, which only makes `unsat` harder to reach).  Non-polynomial parts are replaced
by fresh variables constrained by facts that are TRUE of the real function, so the translation
over-approximates: an `unsat` answer is a proof, a `sat` model is only a candidate (it is
re-verified in mpmath before anything is reported).  The facts of a PARTIAL function hold only
where it is defined, and are asserted guarded by that domain, never globally: a guard such as
`x > 0 and log(x) < 40` must not make the rest of the line look empty.  (That f and B are
defined where they are used is a separate obligation, `defined`, see gpaudit.kernel.domain.)
Every step is recorded in `notes`:

- sqrt(u), u**(p/q): a fresh r; u >= 0 -> (r >= 0 and r**q = u).
- exp(y): a fresh E > 0 with the sound Taylor facts E >= 1 + y, E >= 1 + y + y^2/2 + y^3/6
  (the remainders e^xi y^2/2 and e^xi y^4/24 are >= 0), y <= 0 -> E <= 1 + y + y^2/2 and
  E (1 - y + y^2/2 - y^3/6) <= 1, y < 1 -> E (1 - y) <= 1, and between two exponentials
  y1 <= y2 -> E1 <= E2 (strict likewise).
- log(u): a fresh L; u > 0 -> (L <= u - 1 and L u >= u - 1), monotone in u where defined.
- pi, e: fresh variables inside rational intervals 10^-9 wide that contain them.

Nothing decided elsewhere reaches `solve`: the disk cache and the forked copy deciding ahead
(gpaudit.runtime) wrap it for the generators, and the kernel's own obligations call it directly.
What a stage may spend (its work budget, its wall clock) reaches a call only through `GUARD`
(set_guard), which can make a call smaller or not made (unknown), never change z3's answer.
"""

from __future__ import annotations

import contextlib
import operator
import re
import time
from dataclasses import dataclass, field

import sympy as sp
import z3

from . import numbers

SEED = 0
# Every call is decided by z3's qfnra-nlsat tactic (simplification, then nlsat, z3's complete procedure
# for real polynomial arithmetic), not by z3's default solver: for these formulas the default chooses
# its strategy by the memory the process has in use (a probe at 30, 80, 300 and 600 MB) and moves to
# the next strategy after a wall-clock timeout (4 to 20 s), so its answer to a hard query could depend
# on the machine and on what the process allocated before; and setting it up costs about 2 ms a call.
# The tactic makes no such choice (the step budget alone ends it), and gave the same answer as the
# default on every z3 call the catalog makes (1,713), in about 60% of the time.
TACTIC = "qfnra-nlsat"
# A Translator(enclose=True) puts each irrational constant (13^(1/14), pi, exp(1/3)) as a variable
# between rational end points that arb rounds outward at ENCLOSE_BITS bits: a query with it is a
# relaxation of the exact one (whatever is unsat with it is unsat), and nlsat no longer works with
# an algebraic number of degree 14, which cost minutes (a gen_cauchy rate at p = 14, 105 s).
ENCLOSE_BITS = 80
UNSAT, SAT, UNKNOWN = "unsat", "sat", "unknown"
# The work budget: obligations are given in "milliseconds of an idle reference machine" for
# readability; z3 receives RLIMIT_PER_MS times that as its deterministic resource limit.
RLIMIT_PER_MS = 2000
# z3 counts steps, not the cost of a step: arithmetic on long numerals (a threshold at 1e-300 puts
# 300-digit rationals into the formula) makes one step cost about (digits/30)^2 ordinary ones
# (measured: ~27 us a step on 300-digit numerals against ~0.25 us).  So a call's step budget
# shrinks by that factor beyond NUMERAL_DIGITS_FREE digits, its steps are charged to the stage's
# budget with that weight, and a formula with a numeral longer than NUMERAL_DIGITS_MAX is not
# given to z3 at all (unknown; the arb enclosure may still close the obligation).  All of it
# depends only on the formula, so the answer stays deterministic.
NUMERAL_DIGITS_FREE = 30
NUMERAL_DIGITS_MAX = 700
# nlsat's steps also grow costly with the number of transcendental abstractions (exp_N, log_N: each
# brings polynomials of its facts; a bound with ten exp bumps made single calls run for minutes): a
# call's steps shrink by TRANSCENDENTAL_FREE / t for t > TRANSCENDENTAL_FREE of them.  Deterministic.
TRANSCENDENTAL_FREE = 6
# What no step count bounds: z3's memory (MB, z3's memory_max_size: a hard limit whose failure can
# leave the process corrupted, so the last resort; GUARD.watch stops a call far below it) and, the
# one nondeterministic limit, the wall clock of a stage (gpaudit.runtime.budget, through GUARD): past
# it, no call is made and a call under way is stopped (z3's timeout), and the answer is unknown with
# WALL_CLOCK_NOTE in its reason.
MAX_MEMORY_MB = 8192
WALL_CLOCK_NOTE = "the one nondeterministic limit"


def rlimit_of(budget_ms: int, digits: int = 0, transcendental: int = 0) -> int:
    """The deterministic step budget of a call given `budget_ms`, for a formula whose longest
    numeral has `digits` digits and that has `transcendental` exp / log abstractions."""
    steps = max(1, int(budget_ms)) * RLIMIT_PER_MS
    if digits > NUMERAL_DIGITS_FREE:
        steps = steps * NUMERAL_DIGITS_FREE ** 2 // digits ** 2
    if transcendental > TRANSCENDENTAL_FREE:
        steps = steps * TRANSCENDENTAL_FREE // transcendental
    return max(1, steps)


def step_weight(digits: int) -> int:
    """The cost of one z3 step on a formula whose longest numeral has `digits` digits, in steps of
    an ordinary formula (the inverse of the shrinking of rlimit_of)."""
    return max(1, digits ** 2 // NUMERAL_DIGITS_FREE ** 2)


class Guard:
    """What a stage lets a call spend beyond the call's own step limit.  This default limits
    nothing; gpaudit.runtime.budget installs a stage's budget (set_guard)."""

    def left(self):
        """Weighted steps the stage has left (None: no cap)."""
        return None

    def seconds(self):
        """Wall-clock seconds the stage has left (None: no limit)."""
        return None

    def stopped(self) -> str:
        """Why no call may be made now ("": it may)."""
        return ""

    def charge(self, weighted_steps: int) -> None:
        """Count what a call spent."""

    def watch(self, ctx):
        """A context manager around one call on z3 context `ctx`, yielding why() -> "" or why the
        call was stopped (gpaudit.runtime.budget watches z3's memory); this default watches nothing."""
        return contextlib.nullcontext(lambda: "")


GUARD = Guard()


def set_guard(guard: Guard) -> Guard:
    """Install `guard` (None: the default); returns the one it replaces."""
    global GUARD
    old, GUARD = GUARD, guard if guard is not None else Guard()
    return old


_DIGIT_RUN = re.compile(r"[0-9]+")


# -- n-ary terms without z3py's per-argument coercion ----------------------------------------
# z3.And / z3.Or / z3.Sum coerce every argument to a common sort before making the term: for
# arguments that already have it (Booleans; Reals) that is the identity, and it costs about ten
# times the term itself (half a second of a two-way threshold's proof stage).  These make the
# same term (the same C call on the same arguments) where every argument is a term of that sort
# in one context, and leave everything else to z3py.

def _one_ctx(args, cls):
    if not args or not isinstance(args[0], cls):
        return None
    ctx = args[0].ctx
    for a in args:
        if not isinstance(a, cls) or a.ctx is not ctx:
            return None
    return ctx


def _array(args):
    return (z3.Ast * len(args))(*[a.as_ast() for a in args])


def _bool_nary(mk, z3py, args):
    ctx = _one_ctx(args, z3.BoolRef)
    if ctx is None:
        return z3py(*args)
    return z3.BoolRef(mk(ctx.ref(), len(args), _array(args)), ctx)


def conj(*args):
    """z3.And(*args)."""
    return _bool_nary(z3.Z3_mk_and, z3.And, args)


def disj(*args):
    """z3.Or(*args)."""
    return _bool_nary(z3.Z3_mk_or, z3.Or, args)


def real_sum(args):
    """z3.Sum(args) for a list of terms."""
    ctx = _one_ctx(args, z3.ArithRef)
    if ctx is None or any(z3.Z3_get_sort_kind(ctx.ref(), z3.Z3_get_sort(ctx.ref(), a.as_ast())) != z3.Z3_REAL_SORT
                          for a in args):
        return z3.Sum(args)
    return z3.ArithRef(z3.Z3_mk_add(ctx.ref(), len(args), _array(args)), ctx)


def numeral_digits(assertions) -> int:
    """The number of digits of the longest numeral (numerator or denominator) in the assertions,
    read off z3's own low-level text of them (a fast native call; walking the terms from Python
    costs more than many a solver call).  A digit run inside a name only makes it larger, so the
    count errs on the side of a smaller budget, never a larger one.  Numerals and names have the
    same digit runs in the low-level and in the SMT-LIB text; the only other runs are node numbers
    (at most 10 digits) and let-names, so the two counts agree wherever the budget depends on it
    (beyond NUMERAL_DIGITS_FREE digits)."""
    return text_digits(low_level_text(assertions))


def low_level_text(assertions) -> str:
    """z3's low-level text of each assertion: every node once, `#id := (op args)`, numerals in full
    (p/q), constants by name.  Native and without layout: tens of times faster than SMT-LIB text."""
    if not assertions:
        return ""
    ref = assertions[0].ctx.ref()
    z3.Z3_set_ast_print_mode(ref, z3.Z3_PRINT_LOW_LEVEL)
    try:
        return "\n".join(z3.Z3_ast_to_string(ref, a.as_ast()) for a in assertions)
    finally:
        z3.Z3_set_ast_print_mode(ref, z3.Z3_PRINT_SMTLIB2_COMPLIANT)   # z3py's mode for every context


_TRANSCENDENTAL = re.compile(r"\b(?:exp|log)[A-Za-z0-9]*_[0-9]+\b")
_PLAIN_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def text_digits(text: str) -> int:
    """numeral_digits of assertions whose z3 text (SMT-LIB or low-level) is `text`."""
    longest = 0
    for run in _DIGIT_RUN.findall(text):
        stripped = run.lstrip("0")
        longest = max(longest, len(stripped) if stripped else 1)
    return longest


class Unsupported(Exception):
    """An expression the translation does not handle (the obligation becomes unknown)."""


def configure_z3():
    """Fixed seeds (nlsat's is the one TACTIC uses): the same obligation gets the same answer on every
    run; z3's memory bounded."""
    z3.set_param("memory_max_size", MAX_MEMORY_MB)
    z3.set_param("smt.random_seed", SEED)
    z3.set_param("sat.random_seed", SEED)
    z3.set_param("nlsat.seed", SEED)


def _q(r) -> z3.ArithRef:
    r = sp.Rational(r)
    return z3.RealVal(f"{r.p}/{r.q}") if r.q != 1 else z3.RealVal(str(r.p))


# sympy's relation -> Python's operator (the same dispatch as writing `a < b`: z3py's method, or a
# numeral's reflected one first)
_RELATION = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge, "==": operator.eq,
             "!=": operator.ne}


class Translator:
    """One obligation's translation context: variables, fresh abstractions and their facts."""

    def __init__(self, tag: str = "", enclose: bool = False):
        self.tag = tag
        self.enclose = enclose         # irrational constants as variables in rational enclosures
        self.enclosed = 0              # how many were (pi and e are enclosed in either mode)
        self.vars: dict[str, z3.ArithRef] = {}
        self.facts: list = []
        self.notes: list[str] = []
        self._cache: dict = {}
        self.alias: dict = {}          # sympy Dummy -> the expression it stands for
        self.linked: dict = {}         # exp(a) -> E^n, E a symbol of alias (kernel.certificate.linked)
        self._exps: list[tuple] = []   # (y term, E term)
        self._logs: list[tuple] = []
        self._n = 0
        self.plain = True              # every constant a Real with a plain name (see runtime.texts.key_text)
        self.owners: dict = {}         # variable name -> the symbol (or fresh tag) it stands for

    # -- variables ---------------------------------------------------------------------
    def var(self, name: str, owner=None) -> z3.ArithRef:
        """The z3 variable `name`; `owner` (a sympy symbol, or a fresh abstraction's own tag) must be
        the one the name was first given for: two different symbols of one name would otherwise
        become one variable (Unsupported)."""
        first = self.owners.setdefault(name, owner if owner is not None else name)
        if first != (owner if owner is not None else name):
            raise Unsupported(f"two different symbols named {name}")
        if name not in self.vars:
            self.vars[name] = z3.Real(name)
            self.plain = self.plain and bool(_PLAIN_NAME.fullmatch(name)) and name not in ("true", "false")
        return self.vars[name]

    # the translation state: its containers, and the scalars _n, plain, enclosed (what a copy of a
    # translator's state must carry: the generators' memo of first translations, prove.obligations)
    STATE = ("vars", "owners", "facts", "notes", "_cache", "alias", "linked", "_exps", "_logs")
    SCALARS = ("_n", "plain", "enclosed")

    def query(self, formula, extra=()) -> "Query":
        """The Query of `formula` with the facts of this translation (and `extra` ones)."""
        return Query(formula, self.facts + list(extra), list(self.notes), plain=self.plain)

    def fresh(self, stem: str) -> z3.ArithRef:
        self._n += 1
        return self.var(f"{stem}{self.tag}_{self._n}")

    def note(self, text: str):
        if text not in self.notes:
            self.notes.append(text)

    # -- expressions ---------------------------------------------------------------------
    def __call__(self, e):
        key = e
        if key in self._cache:
            return self._cache[key]
        out = self._tr(e)
        self._cache[key] = out
        return out

    def _tr(self, e):
        if e is sp.true or e is True:
            return z3.BoolVal(True)
        if e is sp.false or e is False:
            return z3.BoolVal(False)
        if isinstance(e, sp.Symbol):
            if e in self.alias:
                return self(self.alias[e])
            v = self.var(e.name, ("symbol", e))
            if e.is_nonnegative:                 # what sympy assumes (U >= 0 is True to it) z3 is told
                self.facts.append(v > 0 if e.is_positive else v >= 0)
            return v
        if e.is_Rational:
            return _q(e)
        if e.is_Float:
            self.note(f"float literal {e} taken at its exact binary value")
            return _q(sp.Rational(e))            # the Float's own mpf, every bit of it
        if e in (sp.pi, sp.E) or self.enclose and isinstance(e, sp.Expr) and e.is_number:
            ends = enclosure(e)                  # a relaxation: unsat with it is unsat with e
            if ends is not None:
                v, self.enclosed = self.fresh("const"), self.enclosed + (e not in (sp.pi, sp.E))
                self.facts.append(z3.And(v >= _q(ends[0]), v <= _q(ends[1])))
                self.note(f"{e if e in (sp.pi, sp.E) else 'constants'} enclosed in {ENCLOSE_BITS}-bit rational intervals")
                return v
        if e in (sp.oo, -sp.oo, sp.zoo, sp.nan):
            raise Unsupported(f"non-finite value {e}")
        if isinstance(e, sp.Add):
            return real_sum([self(a) for a in e.args])
        if isinstance(e, sp.Mul):
            out = self(e.args[0])
            for a in e.args[1:]:
                out = out * self(a)
            return out
        if isinstance(e, sp.Pow):
            return self._pow(e.base, e.exp)
        if isinstance(e, sp.exp):
            return self(self.linked[e]) if e in self.linked else self._exp(e.args[0])
        if isinstance(e, sp.log):
            return self._log(e.args[0])
        if isinstance(e, sp.Abs):
            u = self(e.args[0])
            return z3.If(u >= 0, u, -u)
        if isinstance(e, (sp.Max, sp.Min)):
            args = [self(a) for a in e.args]
            out = args[0]
            for a in args[1:]:
                out = z3.If(a > out, a, out) if isinstance(e, sp.Max) else z3.If(a < out, a, out)
            return out
        if isinstance(e, sp.Piecewise):
            out = None
            for val, cond in reversed(e.args):
                v = self(val)
                out = v if out is None else z3.If(self(cond), v, out)
            return out
        if isinstance(e, sp.core.relational.Relational):
            return _RELATION[e.rel_op](self(e.lhs), self(e.rhs))
        if isinstance(e, sp.And):
            return conj(*[self(a) for a in e.args])
        if isinstance(e, sp.Or):
            return disj(*[self(a) for a in e.args])
        if isinstance(e, sp.Not):
            return z3.Not(self(e.args[0]))
        raise Unsupported(f"cannot translate {type(e).__name__}: {e}")

    def _pow(self, base, ex):
        if ex.is_Integer:
            return self._pow_term(self(base), int(ex))
        if ex.is_Rational:
            p, q = int(ex.p), int(ex.q)
            r = self._root(base, q)
            return self._pow_term(r, p)
        raise Unsupported(f"power with exponent {ex}")

    def _pow_term(self, r, p):
        if p == 0:
            return z3.RealVal(1)
        out = r
        for _ in range(abs(p) - 1):
            out = out * r
        return out if p > 0 else 1 / out

    def _root(self, base, q):
        key = ("root", base, q)
        if key in self._cache:
            return self._cache[key]
        b = self(base)
        r = self.fresh("root")
        rq = r
        for _ in range(q - 1):
            rq = rq * r
        self.facts.append(z3.Implies(b >= 0, z3.And(r >= 0, rq == b)))
        self.note(f"{'sqrt' if q == 2 else f'{q}-th root'}(u) replaced by a fresh r with u >= 0 -> (r >= 0, r^{q} = u)")
        self._cache[key] = r
        return r

    def _exp(self, arg):
        y = self(arg)
        E = self.fresh("exp")
        one = z3.RealVal(1)
        y2, y3 = y * y, y * y * y
        facts = [E > 0, E >= one + y, E >= one + y + y2 / 2 + y3 / 6,
                 z3.Implies(y <= 0, E <= one + y + y2 / 2),
                 z3.Implies(y <= 0, E * (one - y + y2 / 2 - y3 / 6) <= one),
                 z3.Implies(y < 1, E * (one - y) <= one)]
        for (y0, E0) in self._exps:
            facts += [z3.Implies(y <= y0, E <= E0), z3.Implies(y0 <= y, E0 <= E),
                      z3.Implies(y < y0, E < E0), z3.Implies(y0 < y, E0 < E)]
        self._exps.append((y, E))
        self.facts += facts
        self.note("exp(y) replaced by a fresh E > 0 with the Taylor facts E >= 1 + y, E >= 1 + y + y^2/2 + y^3/6, "
                  "y <= 0 -> E <= 1 + y + y^2/2 and E (1 - y + y^2/2 - y^3/6) <= 1, y < 1 -> E (1 - y) <= 1, "
                  "and monotonicity between exponentials")
        return E

    def _log(self, arg):
        u = self(arg)
        L = self.fresh("log")
        facts = [z3.Implies(u > 0, z3.And(L <= u - 1, L * u >= u - 1))]
        for (u0, L0) in self._logs:
            both = z3.And(u > 0, u0 > 0)
            facts += [z3.Implies(z3.And(both, u <= u0), L <= L0), z3.Implies(z3.And(both, u0 <= u), L0 <= L)]
        self._logs.append((u, L))
        self.facts += facts
        self.note("log(u) replaced by a fresh L with u > 0 -> (L <= u - 1, L u >= u - 1), monotone in u where defined")
        return L


@dataclass
class Query:
    """One closed formula to decide: `formula` (the negation of a claim) and its facts."""
    formula: object
    facts: list
    notes: list
    plain: bool = False           # built by a Translator whose constants all have plain names
    memo: dict = field(default_factory=dict, repr=False, compare=False)   # texts derived from it

    def _low(self) -> str:
        if "low" not in self.memo:
            self.memo["low"] = low_level_text(list(self.facts) + [self.formula])
        return self.memo["low"]

    @property
    def transcendental(self) -> int:
        """How many exp / log abstractions (exp_N, log_N, named by Translator.fresh) the query has."""
        return len(set(_TRANSCENDENTAL.findall(self._low())))

    @property
    def digits(self) -> int:
        """numeral_digits of the assertions."""
        return text_digits(self._low())


@dataclass
class Answer:
    status: str                   # unsat | sat | unknown
    model: dict = field(default_factory=dict)   # variable name -> Fraction (sat, read outside the kernel)
    seconds: float = 0.0
    cached: bool = False
    reason: str = ""
    cases: int = 1                # > 1: decided case by case (claim_cases, region_cases)
    split: str = ""               # "claim" or "region": which conjunct the cases split


def _op(e):
    """z3's operator kind of the application e (z3.Z3_OP_AND, ...), None if e is no application:
    what z3.is_and / is_or / is_not test, read by the C calls z3py makes for them."""
    ref, a = e.ctx.ref(), e.as_ast()
    if z3.Z3_get_ast_kind(ref, a) != z3.Z3_APP_AST:
        return None
    return z3.Z3_get_decl_kind(ref, z3.Z3_get_app_decl(ref, a))


def _bool_args(e) -> list:
    """The arguments of a Boolean connective e (And, Or, Not): e.children(), all Boolean terms."""
    ref, a = e.ctx.ref(), e.as_ast()
    return [z3.BoolRef(z3.Z3_get_app_arg(ref, a, i), e.ctx) for i in range(z3.Z3_get_app_num_args(ref, a))]


def _conjuncts(e) -> list:
    """The conjuncts of e, nested conjunctions flattened."""
    return [c for a in _bool_args(e) for c in _conjuncts(a)] if _op(e) == z3.Z3_OP_AND else [e]


def claim_cases(formula) -> list:
    """The cases of `formula` that z3 decides one at a time.

    A query states the negation of a claim under hypotheses: H and not(C1 and ... and Ck), where a
    claim about a dual norm or several alternatives is a conjunction.  The formula is then the
    disjunction of the k cases "H and not Ci", so it is unsat exactly when every case is, and a
    model of one case is a model of it.  One case at a time is often far easier for z3 (nlsat
    works on all the polynomials of a formula at once).  The split is made only where the top level
    has exactly one negated conjunction (k >= 2): with two, which one is the claim is not known.
    Otherwise: [formula]."""
    if not z3.is_bool(formula):
        return [formula]
    top = _conjuncts(formula)
    negated = [i for i, c in enumerate(top) if _op(c) == z3.Z3_OP_NOT and _op(_bool_args(c)[0]) == z3.Z3_OP_AND]
    if len(negated) != 1:
        return [formula]
    i = negated[0]
    parts = _conjuncts(_bool_args(top[i])[0])
    if len(parts) < 2:
        return [formula]
    return _each_in_place(top, i, [z3.Not(p) for p in parts])


def _each_in_place(top, i, alternatives) -> list:
    """For each alternative, the conjunction of top with its i-th conjunct replaced by it."""
    rest = top[:i] + top[i + 1:]
    return [conj(*rest, a) if rest else a for a in alternatives]


def enclosure(e):
    """Rationals (lo, hi) with lo <= e <= hi, arb's outward rounding at ENCLOSE_BITS bits; None where
    e has no finite real enclosure (log(0), sqrt(-1)): it is then translated as it is."""
    try:
        return numbers.exact(numbers.down(e, ENCLOSE_BITS)), numbers.exact(numbers.up(e, ENCLOSE_BITS))
    except (ValueError, TypeError):
        return None


def step_limit(budget_ms: int, digits: int, transcendental: int = 0) -> tuple[int, int]:
    """(z3's step limit for a call made now, the weight of one of its steps): the call's budget,
    cut to what the stage's work budget has left (below 1: the call is not made)."""
    weight = step_weight(digits)
    steps = rlimit_of(budget_ms, digits, transcendental)
    left = GUARD.left()
    if left is not None:
        steps = min(steps, left // weight)
    return steps, weight


def check_formula(assertions, budget_ms: int, digits: int | None = None, max_steps: int | None = None,
                  transcendental: int = 0):
    """The one z3 call: (z3 result, solver, seconds) for a conjunction of assertions, with fixed
    seeds and the deterministic budget (at most `max_steps` steps where given).  A z3 exception is
    `unknown` (fail closed).  `digits`, the longest numeral's digit count, is counted here unless
    the caller already has it."""
    configure_z3()
    if digits is None:
        digits = numeral_digits(assertions)
    steps, weight = step_limit(budget_ms, digits, transcendental)
    r, s, dt = call(assertions, steps, digits, max_steps)
    if not isinstance(s, NotRun):
        charge(s.steps * weight)
    return r, s, dt


def call(assertions, steps: int, digits: int, max_steps: int | None = None):
    """check_formula's call with its step limit given (`steps`, cut to `max_steps`); charges
    nothing.  Past the stage's wall-clock limit, or stopped by it or by the guard's watch (z3's
    memory), the call is unknown (NotRun)."""
    steps = steps if max_steps is None else min(steps, int(max_steps))
    why = (f"a numeral of {digits} digits (more than {NUMERAL_DIGITS_MAX})" if digits > NUMERAL_DIGITS_MAX
           else "the stage's work budget is spent" if steps < 1 else GUARD.stopped())
    if why:
        return z3.unknown, NotRun(why), 0.0
    wall = GUARD.seconds()
    # a fresh context per call, or the session's (see `session`); z3's rlimit counts from where its
    # context's count stands, so a call may make `steps` steps either way
    sess = _SESSIONS[-1] if _SESSIONS else [z3.Context(), 0]
    s = z3.Tactic(TACTIC, ctx=sess[0]).solver()    # its nlsat's seed: configure_z3
    s.set("rlimit", steps)
    if wall is not None:
        s.set("timeout", max(1, int(wall * 1000)))
    s.add(*[a.translate(sess[0]) for a in assertions])
    t0 = time.perf_counter()
    with GUARD.watch(sess[0]) as stopped:
        try:
            r = s.check()
        except z3.Z3Exception:
            r = z3.unknown
    dt = time.perf_counter() - t0
    s.steps = max(0, _count(s) - sess[1])    # this call's (the context's count moves on with the next)
    sess[1] += s.steps
    why = stopped() or (GUARD.stopped() if r == z3.unknown else "")   # a stopped call is unknown
    return (z3.unknown, NotRun(why), dt) if why else (r, s, dt)


def charge(weighted_steps: int) -> None:
    GUARD.charge(int(weighted_steps))


def _count(s) -> int:
    """z3's step count in the context of solver `s` (every call made there so far)."""
    try:
        return int(s.statistics().get_key_value("rlimit count"))
    except z3.Z3Exception:      # no count (no step made), or no statistics
        return 0


_SESSIONS: list = []      # [the z3 context, the steps made in it] of each session open


@contextlib.contextmanager
def session(state=None):
    """The calls made inside share one z3 context instead of a fresh one each (creating and freeing
    a context costs about a millisecond, a fifth of the kernel's time on the catalog).  A call's
    answer may then depend on the calls made before it in the session (z3 numbers its terms in the
    order they are made, and some of its orderings follow those numbers), so a session is for a
    sequence of calls that is always made in the same order: one kernel check, whose calls follow
    from the problem and the certificate alone.  Each call still gets its own solver, its own step
    limit (z3's rlimit counts from where the context's count stands) and its steps charged alone.
    Only the kernel opens sessions; the generators' calls, whose answers the cache and the copy
    deciding ahead reuse, stay one context each.  `state` (from a session before): continue that
    session, its context and its step count, as if no call had been made elsewhere in between."""
    configure_z3()
    _SESSIONS.append(state if state is not None else [z3.Context(), 0])
    try:
        yield _SESSIONS[-1]
    finally:
        _SESSIONS.pop()


class NotRun:
    """The solver of a call that was not made: only its reason is asked for."""

    def __init__(self, reason: str):
        self.reason = reason

    def reason_unknown(self) -> str:
        return self.reason


def solve(q: Query, budget_ms: int, read_model=None) -> Answer:
    """Decide q by z3 calls made here (the generators reach it through gpaudit.runtime.solve,
    which may spare a call that would not prove; the kernel's obligations call it directly).  A
    `sat` answer's model is what read_model(solver) reads of it (a candidate for the generators,
    gpaudit.runtime.model_of; the kernel reads none: only `unsat` proves anything)."""
    r, s, dt, cases, split = _decide(q, budget_ms)
    if r == z3.unsat:
        return Answer(UNSAT, seconds=dt, cases=cases, split=split)
    if r == z3.sat:
        return Answer(SAT, model=read_model(s) if read_model else {}, seconds=dt, cases=cases, split=split)
    try:
        why = s.reason_unknown()
    except z3.Z3Exception:
        why = "z3 exception"
    return Answer(UNKNOWN, seconds=dt, reason=why)


# The region's cases share this many z3 steps; where they need more, the whole formula is decided as
# one call.  A case split of the region is much faster for some formulas (a tie set of a derived
# bound's max: 5.8 million steps and 20 s as one formula, 1.2 million steps and 0.3 s as six cases)
# and slower for others (each of six cases as hard as the whole): the shared budget bounds what a
# split that does not pay off costs.
REGION_CASE_STEPS = 1_500_000


def region_cases(formula) -> list:
    """Where the top level of `formula` has exactly one disjunction D1 or ... or Dk (k >= 2, the
    region of a query whose region is a union of cells), the k formulas "rest and Di": the formula
    is their disjunction, so it is unsat exactly when every case is, and a model of a case is a
    model of it.  Otherwise [formula]."""
    if not z3.is_bool(formula):
        return [formula]
    top = _conjuncts(formula)
    ors = [i for i, c in enumerate(top) if _op(c) == z3.Z3_OP_OR]
    if len(ors) != 1 or len(_bool_args(top[ors[0]])) < 2:
        return [formula]
    return _each_in_place(top, ors[0], _bool_args(top[ors[0]]))


def _decide(q: Query, budget_ms: int):
    """(z3 result, solver, seconds, cases, split) of q, case by case where it splits: by
    claim_cases, each case with the call's whole step budget; else by region_cases, the cases
    sharing REGION_CASE_STEPS.  Where the cases do not decide it (see _by_cases), the whole
    formula is decided as one call, as it would be unsplit: a split never loses an answer the
    whole call gives within its budget."""
    def call(assertions, max_steps=None):
        return check_formula(assertions, budget_ms, q.digits, max_steps, q.transcendental)
    return decide_terms(list(q.facts), q.formula, call)


def decide_terms(facts, formula, call):
    """_decide's steps for the terms of a query, each z3 call made by call(assertions, max_steps)."""
    cases, split, shared = claim_cases(formula), "claim", None
    if len(cases) == 1:
        cases, split, shared = region_cases(formula), "region", REGION_CASE_STEPS
    spent = 0.0
    if len(cases) > 1:
        done, spent = _by_cases(facts, cases, call, shared)
        if done is not None:
            return (*done, spent, len(cases), split)
    r, s, dt = call(facts + [formula])
    return r, s, spent + dt, 1, ""


def _by_cases(facts, cases, call, shared: int | None):
    """((z3 result, solver) or None, seconds): the cases decided one at a time, each with the
    call's step budget, or with what is left of `shared` steps where given.  Unsat when every case
    is; sat at the first case that is (its model is a model of the whole formula); None at the
    first case left unknown, or when the shared steps run out before a case."""
    spent, left = 0.0, shared
    for c in cases:
        if left is not None and left < 1:
            return None, spent
        r, s, dt = call(facts + [c], left)
        spent += dt
        if left is not None and not isinstance(s, NotRun):
            left -= s.steps
        if r == z3.sat:
            return (r, s), spent
        if r != z3.unsat:
            return None, spent
    return (z3.unsat, s), spent
