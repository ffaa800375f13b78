"""Symbolic mode: the paper's closed forms proved for ALL admissible parameters.

The query f and the bound B are built by the model's own constructors (gpaudit.model.queries and
gpaudit.model.bounds) with sympy symbols in place of numbers, so what is proved is the code the
tool runs.  The parameters become z3 variables constrained only by admissibility (tau > 0,
gamma > 0, l < r; thresholds T, T1, T2 and l, r are arbitrary reals), and every obligation of
instance mode is discharged over inputs AND parameters at once.  A failure is reported with the
z3 model's parameters and a witness re-verified in mpmath for that instance.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import mpmath
import sympy as sp

from ..model import bounds as mb
from ..model import queries as mq
from ..verdict import CERTIFIED, REFUTED, SKIPPED, UNKNOWN, Check, worst
from . import obligations as obl
from . import regions as rg
from ..kernel import z3door as zb
from .. import runtime
from ..spec.types import Growth, QueryKind
from .prover import Prover, evidence, status_of, summary
from .witness import WitnessFinder

KINDS = ("soft_threshold", "bounded_range", "two_way_threshold")
SOURCES = {"soft_threshold": "Liang-Yi Lemma 4.1", "bounded_range": "Liang-Yi Appendix C.3",
           "two_way_threshold": "Liang-Yi Lemma 4.3"}


@dataclass
class SymbolicReport:
    kind: str
    growth: str
    source: str
    parameters: dict                 # name -> admissibility assumption
    status: str                      # certified | refuted | unknown
    checks: list
    regions: list                    # [{"region", "a", "c", "a_status", "c_status"}]
    failing: list = field(default_factory=list)   # [{"condition", "region", "parameters", "witness"}]
    seconds: float = 0.0
    records: list = field(default_factory=list)

    def summary(self) -> str:
        head = f"{self.kind} ({self.source}, {self.growth} growth): {self.status}"
        if self.status == CERTIFIED:
            return head + " for all " + ", ".join(f"{k} {v}" for k, v in self.parameters.items())
        if self.failing:
            return head + "; fails e.g. at " + "; ".join(str(f["parameters"]) for f in self.failing[:3])
        return head


def _no_float(v) -> float:
    """The float value of a symbolic parameter, which has none: the landmarks and scale the
    constructors compute for the audit are discarded here, so any constant serves."""
    return 0.0


def _model_query(kind, P):
    """The model's own constructor with symbolic parameters (only the expression is kept)."""
    if kind == QueryKind.SOFT_THRESHOLD:
        return mq.soft_threshold(P["T"], P["tau"], to_float=_no_float)[0]
    if kind == QueryKind.BOUNDED_RANGE:
        return mq.bounded_range(P["l"], P["r"], P["tau"], to_float=_no_float)[0]
    return mq.two_way_threshold(P["T1"], P["T2"], P["tau"], to_float=_no_float)[0]


def _model_bound(kind, P, growth):
    if kind == QueryKind.SOFT_THRESHOLD:
        return mb.threshold_bound(P["T"], P["tau"], P["gamma"], growth)
    if kind == QueryKind.BOUNDED_RANGE:
        return mb.bounded_range_bound(P["l"], P["r"], P["tau"], P["gamma"], growth)
    return mb.two_way_bound(P["T1"], P["T2"], P["tau"], P["gamma"], growth)


def _setup(kind):
    tau, gamma = sp.Symbol("tau", positive=True), sp.Symbol("gamma", positive=True)
    P = {"tau": tau, "gamma": gamma}
    assume = {"tau": "> 0", "gamma": "> 0"}
    # unevaluated: with positive symbols sympy would fold `tau > 0` to True before z3 sees it
    cons = [sp.Gt(tau, 0, evaluate=False), sp.Gt(gamma, 0, evaluate=False)]
    if kind == QueryKind.SOFT_THRESHOLD:
        P["T"] = sp.Symbol("T", real=True)
        assume["T"] = "real"
    elif kind == QueryKind.BOUNDED_RANGE:
        P["l"], P["r"] = sp.Symbol("l", real=True), sp.Symbol("r", real=True)
        assume["l, r"] = "real, l < r"
        cons.append(sp.Lt(P["l"], P["r"], evaluate=False))
    else:
        P["T1"], P["T2"] = sp.Symbol("T1", real=True), sp.Symbol("T2", real=True)
        assume["T1, T2"] = "real"
    return P, assume, cons


def _instance_finder(f, B, syms, P, model, growth, cons=()):
    """A WitnessFinder for the instance of the parameters a z3 model chose."""
    vals = {}
    for name, s in P.items():
        # a parameter the obligation does not mention is free: 1 (checked against the assumptions)
        v = model.get(name, 1)
        vals[s] = sp.Rational(v.numerator, v.denominator) if name in model else sp.Integer(1)
    if not all(c.xreplace(vals) is sp.true for c in cons):
        return None, None
    try:
        fi, Bi = f.xreplace(vals), B.xreplace(vals)
    except (ValueError, TypeError):
        return None, None
    if not (fi.free_symbols | Bi.free_symbols) <= set(syms):
        return None, None      # a symbol left over would make every evaluation fail, not the model
    f_mp = sp.lambdify(syms, fi, modules=["mpmath"], docstring_limit=0)
    B_mp = sp.lambdify(syms, Bi, modules=["mpmath"], docstring_limit=0)
    finder = WitnessFinder(lambda x: mpmath.mpf(f_mp(*x)), lambda x: mpmath.mpf(B_mp(*x)), len(syms),
                           vals[P["gamma"]], growth, sp.oo, float(vals[P["tau"]]))
    return finder, {k: str(vals[s]) for k, s in P.items()}


def prove_symbolic(kind: str, growth: str = "exponential", timeout_ms: int = 20000) -> SymbolicReport:
    """Prove the conditions of Definition 8 for the closed form of `kind` for all parameters."""
    if kind not in KINDS:
        raise ValueError(f"symbolic mode knows {', '.join(KINDS)}, not {kind!r}")
    t0 = time.perf_counter()
    zb.configure_z3()
    P, assume, cons = _setup(kind)
    f = _model_query(kind, P)
    B = _model_bound(kind, P, growth)
    syms = mq.input_symbols(2 if kind == QueryKind.TWO_WAY_THRESHOLD else 1)
    pr = Prover(None, timeout_ms, f=f, B=B, syms=syms, gamma=P["gamma"], growth=growth, params=cons,
                numeric=False)
    leaves = rg.leaves(f, B, cons)
    per = {"B_positive": [], "cover": [], "smooth": []}
    regions, failing = [], []

    def fail(cond, leaf_label, ans):
        if ans is None or ans.status != zb.SAT:
            return False
        finder, pars = _instance_finder(f, B, syms, P, ans.model, growth, cons)
        x = [ans.model.get(s.name) for s in syms]
        if finder is None or any(v is None for v in x):
            return False
        try:
            if cond.startswith("defined:"):
                w = finder.undefined(x, cond.split(":")[1])
            else:
                w = {"B_positive": finder.positive, "cover": finder.cover,
                     "smooth": finder.smooth}.get(cond, finder.jump)(x)
        except (ZeroDivisionError, ValueError, TypeError):
            w = None
        if w:
            failing.append({"condition": cond, "region": leaf_label, "parameters": pars, "witness": w})
        return bool(w)

    dfn = []
    for expr, name in ((f, "f"), (B, "B")):
        for o in obl.defined(expr, name, cons):
            ans = pr.discharge(o)
            dfn.append(CERTIFIED if ans.status == zb.UNSAT else
                       (REFUTED if fail(f"defined:{name}", o.region, ans) else UNKNOWN))
    for leaf in leaves:
        ans = pr.discharge(obl.b_positive(leaf, cons))
        per["B_positive"].append(CERTIFIED if ans.status == zb.UNSAT else
                                 (REFUTED if fail("B_positive", leaf.label, ans) else UNKNOWN))
        row = {"region": leaf.label, "conditions": [str(c) for c in leaf.conds]}
        for kind_, key in (("cover", "a"), ("smooth", "c")):
            st, bound, _ = pr.rate(leaf, kind_)
            if st != CERTIFIED:
                last = next((r for r in reversed(pr.records) if r.obligation.condition == kind_), None)
                model_ans = None
                if last is not None and last.status == "sat":
                    model_ans = runtime.solve(last.obligation.query, timeout_ms, use_cache=False)
                if fail(kind_, leaf.label, model_ans):
                    st = REFUTED
            per[kind_].append(st)
            row[key], row[key + "_status"] = (None if bound is None else str(bound)), st
        regions.append(row)
    cont = []
    for expr, name in ((f, "f"), (B, "B")):
        for o in obl.continuity(expr, name, cons):
            ans = pr.discharge(o)
            cont.append(CERTIFIED if ans.status == zb.UNSAT else
                        (REFUTED if fail("continuity", o.region, ans) else UNKNOWN))
    checks = []
    st = status_of(dfn) if dfn else CERTIFIED
    checks.append(Check("proof.defined", st, summary(pr.records, "defined") if dfn else "none",
                        f"{dfn.count(CERTIFIED)} of {len(dfn)} pieces with partial functions certified defined "
                        "on their closure for all parameters" if dfn else "no partial function in f or B",
                        evidence(pr, "defined")))
    for cond in ("B_positive", "cover", "smooth"):
        st = status_of(per[cond])
        checks.append(Check(f"proof.{cond}", st, summary(pr.records, cond),
                            f"{per[cond].count(CERTIFIED)} of {len(per[cond])} regions certified for all parameters",
                            evidence(pr, cond)))
    st = status_of(cont) if cont else CERTIFIED
    checks.append(Check("proof.continuity", st, summary(pr.records, "continuity"),
                        f"{cont.count(CERTIFIED)} of {len(cont)} piece boundaries certified", evidence(pr, "continuity")))
    checks += _two_point(pr, f, B, syms, P, cons, growth, fail, kind)
    status = worst(*[c.status for c in checks])
    return SymbolicReport(kind, growth, SOURCES[kind], assume, status, checks, regions, failing,
                          round(time.perf_counter() - t0, 3), pr.records)


def _two_point(pr, f, B, syms, P, cons, growth, fail, kind):
    """Definition 8 in its two-point form: B >= L_{f,inf} (always stated by the lemmas) and, for
    linear growth, B(x) <= (1 + gamma d) B(x').  For exponential growth condition 2 follows from
    smooth + continuity along segments."""
    out = []
    o = obl.two_point_cover(f, B, syms, sp.oo, cons)
    ans = pr.discharge(o)
    st = CERTIFIED if ans.status == zb.UNSAT else UNKNOWN
    out.append(Check("proof.two_point_cover", st, "z3 unsat" if st == CERTIFIED else f"z3 {ans.status}",
                     "B(x) >= L_{f,inf}(x) = sup |f(x) - f(x')| / |x - x'| for all parameters",
                     evidence(pr, "two_point_cover")))
    if growth == Growth.LINEAR:
        o = obl.two_point_smooth_linear(B, syms, P["gamma"], sp.oo, cons)
        ans = pr.discharge(o)
        st = CERTIFIED if ans.status == zb.UNSAT else UNKNOWN
        out.append(Check("proof.two_point_smooth", st, "z3 unsat" if st == CERTIFIED else f"z3 {ans.status}",
                         "B(x) <= (1 + gamma |x - x'|) B(x') for all parameters", evidence(pr, "two_point_smooth")))
    else:
        out.append(Check("proof.two_point_smooth", SKIPPED, "implied",
                         "g_E: follows from smooth + continuity integrated along segments"))
    return out
