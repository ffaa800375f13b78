"""Instance mode: discharge the obligations of one mechanism and decide each condition.

For every leaf the engine looks for the smallest certified rate: an exact constant when the
ratio |grad f|/B (or |grad ln B|) simplifies to one, else a screening estimate rounded up to a
short rational, and finally the required value itself (1 for cover, gamma for smooth).  Only an
`unsat` (or a complete arb enclosure) certifies a rate; a failure of the required value is turned
into a re-verified witness pair, or the condition stays unknown.
"""

from __future__ import annotations

import dataclasses
import time

import sympy as sp

from ..errors import StageOutOfTime
from ..verdict import CERTIFIED, REFUTED, SKIPPED, UNKNOWN, Check, all_hold, worst
from ..spec.types import Growth, two_point_needed
from . import obligations as obl
from . import regions as rg
from ..kernel import z3door as zb
from ..runtime import budget
from ..runtime import processes
from .prover import SKIP_TWO_POINT, ProofOutcome, Prover, RegionRate, evidence, status_of, summary
from .theorem import lemma_31_route
from .witness import dec


def _tagged(w, prefix="", **extra):
    """A witness dict with extra keys (and its condition prefixed), or None."""
    if not w:
        return None
    w.update(extra)
    if prefix:
        w["condition"] = prefix + w["condition"]
    return w


def _decide_each(P, obligations, refute, key, wit):
    """Discharge each obligation: certified on unsat; on sat, a witness that `refute(point,
    obligation)` re-verifies on the model makes it refuted; anything else is unknown.  (Every sat
    point is also kept in P.sat_points, to seed the audit.)"""
    out = []
    for o in obligations:
        ans = P.discharge(o)
        if ans.status == zb.UNSAT:
            out.append(CERTIFIED)
            continue
        pt = P._model_point(ans) if ans.status == zb.SAT else None
        w = refute(pt, o) if P.finder and pt and None not in pt else None
        if w:
            wit.setdefault(key, w)
        out.append(REFUTED if w else UNKNOWN)
    return out




# The proof stage's total work budget, in weighted z3 steps (gpaudit.runtime.budget.work_budget;
# about 0.3 us each).  The catalog's configurations spend at most 4.1e6 (examples/two-way-
# student-t.yaml), the extremes of tests/pipeline/test_param_range.py that certify at most 2.1e7; the cap
# ends a proof stage whose regions are all out of z3's reach in under a minute (about 37 s measured
# on the 2-core machine for the two-way threshold at T1 = 1e-300, whose rates alone spend 1.3e8 in 60 s
# since `gpaudit check` leaves the pieces to the kernel).
STAGE_STEPS = 10**8
# What the step count cannot bound (a step's cost grows without limit on some nonlinear queries):
# the stage's wall clock.  Past it no z3 call and no arb box is begun, a call under way is
# stopped, and what is left is unknown, saying so.  The catalog's slowest stage takes about 10 s.
STAGE_SECONDS = 60
# Neither bounds the stage's symbolic work (sympy differentiating and simplifying the rates' ratios,
# which for some bounds runs for minutes: a smoothed SUM under the l2 metric, say): past
# STAGE_SECONDS + STAGE_GRACE_SECONDS an alarm stops the stage wherever it is (runtime.budget.alarm),
# and every check it had not settled is unknown, saying so.  The grace leaves a stage whose z3 calls
# the wall clock already stopped the time to finish its report.
STAGE_GRACE_SECONDS = 10


def prove_conditions(mech, timeout_ms: int = 10000, pieces: bool = True, found=None) -> ProofOutcome:
    """Prove (or refute) the conditions of Definition 8 for mech's f and B, region by region,
    under the stage's deterministic work budget and its wall-clock limit.

    ``pieces=False`` leaves definedness and continuity of f's and B's pieces to the kernel, which
    decides them from the mechanism alone (kernel.certificate.prepare) while this stage finds the
    regions and their rates: the outcome is `deferred`, and `settle_pieces` completes it.
    ``found(record)`` is told what the stage finds as soon as it has it (route `regions` only):
    ("leaves", leaves) before any rate, then ("rates", label, a, c) for each region whose constants
    are proved, in the regions' order: the kernel decides what they settle while the stage goes on."""
    with budget.work_budget(STAGE_STEPS, STAGE_SECONDS) as work:
        try:
            with budget.alarm(STAGE_SECONDS + STAGE_GRACE_SECONDS, StageOutOfTime):
                out = _prove_conditions(mech, timeout_ms, pieces, found)
        except StageOutOfTime:
            out = _all_unknown(_stopped())
            out = out if pieces else _deferred(out)
        checks = _limits(out.checks, work)
        spent = work.spent
    return dataclasses.replace(out, checks=checks, spent=spent)


def _stopped():
    return (f"the proof stage's wall clock stopped it after {STAGE_SECONDS + STAGE_GRACE_SECONDS:g} s in work no step"
            f" count bounds (sympy's differentiation and simplification); {zb.WALL_CLOCK_NOTE}")


def _limits(checks, work, before=0):
    """The checks left unknown, saying where the stage's work budget or wall clock ended them (call
    inside the budget's block; `before`: the stage's steps spent before this budget's block)."""
    spent, cap = before + work.spent, before + work.cap
    late = budget.past_wall_clock()
    wall = budget.wall_clock_reason()

    def ended(c):
        detail = c.detail
        if spent >= cap and c.status == UNKNOWN:
            detail += (f"; the proof stage's work budget ({cap:.0e} weighted z3 steps) is spent"
                       " (long numerals make each step costly: see docs/certificate.md)")
        if late and c.status == UNKNOWN and zb.WALL_CLOCK_NOTE not in detail:
            detail += f"; {wall} (the proof stage stopped)"
        return c if detail == c.detail else dataclasses.replace(c, detail=detail)
    return [ended(c) for c in checks]

def _prove_conditions(mech, timeout_ms: int, pieces: bool = True, found=None) -> ProofOutcome:
    t0 = time.perf_counter()
    zb.configure_z3()
    if mech.bound.expr is None:
        return lemma_31_route(mech, timeout_ms)
    if mech.query.expr is None:
        return _all_unknown("the query is a python callable: no expression to reason about")
    P = Prover(mech, timeout_ms)
    try:
        leaves = rg.leaves(mech.query.expr, mech.bound.expr)
    except zb.Unsupported as err:
        return _all_unknown(f"regions: {err}")
    found = found or (lambda record: None)
    found(("leaves", leaves))
    per = {"B_positive": [], "cover": [], "smooth": []}
    rates, wit = {}, {}
    # The obligations whose building does not wait for an answer (definedness, B > 0 on each region,
    # continuity): a copy of the process decides them on a free core, in the order they are asked
    # for, while this one prepares the rates' sampled quantities (pure sympy) and then decides the
    # rates; the answers are the same either way (gpaudit.runtime.processes.ahead)
    functions = ((mech.query.expr, "f"), (mech.bound.expr, "B")) if pieces else ()
    defs = [(name, obl.defined(expr, name)) for expr, name in functions]
    positive = [obl.b_positive(leaf) for leaf in leaves]
    joins = [(name, obl.continuity(expr, name)) for expr, name in functions]
    asked = ([o.query for _, obs in defs for o in obs] + [o.query for o in positive]
             + [o.query for _, obs in joins for o in obs])
    with processes.ahead(asked, P.timeout):
        _prepare_rates(P, leaves)
        out = _decide_all(P, mech, leaves, defs, positive, joins, per, rates, wit, t0, found)
    return out if pieces else _deferred(out)


def _deferred(out):
    """The outcome with the pieces' checks left to the kernel."""
    left = {"proof.defined", "proof.continuity"}
    return dataclasses.replace(out, deferred=True, checks=[
        Check(c.id, SKIPPED, "left to the kernel", DEFERRED) if c.id in left else c for c in out.checks])


def _prepare_rates(P, leaves):
    """The rates' sampled quantities of every leaf (memoised where rate() asks for them)."""
    for leaf in leaves:
        for kind in ("cover", "smooth"):
            for alt in leaf.alts:
                try:
                    obl.ratio_sq(kind, alt, P.syms, P.metric)
                except Exception:  # noqa: BLE001 - raised again, in its place, when rate() asks
                    return


def _decide_all(P, mech, leaves, defs, positive, joins, per, rates, wit, t0, found=None) -> ProofOutcome:
    spec = mech.spec
    dfn = _decide_defined(P, defs, wit)
    for leaf, positive_on_leaf in zip(leaves, positive):
        ans = P.discharge(positive_on_leaf)
        st = CERTIFIED if ans.status == zb.UNSAT else UNKNOWN
        if ans.status == zb.SAT and P.finder:
            w = P.finder.positive(P._model_point(ans))
            if w:
                st, wit["B_positive"] = REFUTED, w
        per["B_positive"].append(st)
        a_st, a, aw = P.rate(leaf, "cover")
        c_st, c, cw = P.rate(leaf, "smooth")
        per["cover"].append(a_st)
        per["smooth"].append(c_st)
        if aw:
            wit.setdefault("cover", aw)
        if cw:
            wit.setdefault("smooth", cw)
        rates[leaf.label] = {"a": a, "c": c, "a_status": a_st, "c_status": c_st}
        if found is not None and a is not None and c is not None:
            found(("rates", leaf.label, a, c))
    cont = _decide_joins(P, joins, wit)
    checks = [_defined_check(P, dfn, wit)]
    leaf_ev = [{"region": l.label, "conditions": [rg.text(c) for c in l.conds], "alternatives": len(l.alts),
                "a": None if rates[l.label]["a"] is None else str(rates[l.label]["a"]),
                "c": None if rates[l.label]["c"] is None else str(rates[l.label]["c"])} for l in leaves]
    metric = mech.metric

    def grad(of):
        return f"|grad {of}|" if metric.euclidean else f"||grad {of}||_*"
    dual = "" if metric.euclidean else f" (||.||_* the dual norm of the {metric.label} metric)"
    details = {
        "B_positive": "B > 0 on every region",
        "cover": f"{grad('f')} <= a_R B with a_R <= 1 on every region{dual}",
        "smooth": f"{grad('ln B')} <= c_R with c_R <= gamma = {spec.bound.gamma} on every region{dual}",
    }
    for cond in ("B_positive", "cover", "smooth"):
        st = status_of(per[cond])
        detail = details[cond] if st == CERTIFIED else (
            f"violated in region {wit[cond].get('region', '?')}" if st == REFUTED else
            f"{per[cond].count(UNKNOWN)} of {len(per[cond])} regions not decided")
        checks.append(Check(f"proof.{cond}", st, summary(P.records, cond) if st == CERTIFIED else
                            ("witness re-verified in mpmath (50 digits)" if st == REFUTED else "z3 unknown / not proved"),
                            f"{detail} ({len(leaves)} regions)",
                            evidence(P, cond, {"regions": leaf_ev} if cond == "cover" else None)))
    checks.append(_continuity_check(P, cont, wit))
    checks += _two_point(P, mech, checks, wit)
    witness = next((wit[k] for k in ("defined", "B_positive", "cover", "continuity", "smooth", "two_point_cover",
                                     "two_point_smooth") if k in wit), None)
    regions = []
    if all_hold(c.status for c in checks):
        regions = [RegionRate(l, sp.sympify(r["a"]), sp.sympify(r["c"])) for l, r in rates.items()]
    seconds = round(time.perf_counter() - t0, 3)
    checks = [dataclasses.replace(c, evidence={**c.evidence, "seconds_total": seconds}) for c in checks]
    return ProofOutcome(checks, regions, witness, P.records, leaves, "regions", rates, _seeds(P, wit))


def _decide_defined(P, defs, wit):
    """Each function's definedness obligations, decided (a failure re-verified: wit["defined"])."""
    out = []
    for name, obligations in defs:
        out += _decide_each(P, obligations, lambda pt, o, name=name: _tagged(
            P.finder.undefined(pt, name), piece=o.region), "defined", wit)
    return out


def _decide_joins(P, joins, wit):
    """Each function's continuity obligations, decided (a jump re-verified: wit["continuity"])."""
    out = []
    for _, obligations in joins:
        out += _decide_each(P, obligations, lambda pt, o: _tagged(
            P.finder.jump(pt), boundary=o.region, prefix="continuity: "), "continuity", wit)
    return out


def _seeds(P, wit):
    """The points where a condition failed (the witnesses' and z3's models), to seed the audit."""
    found = [w[key] for w in wit.values() for key in ("x", "x_prime") if isinstance(w.get(key), list)]
    return [p for p in found + P.sat_points if p and None not in p]


DEFINED_TEXT = ("f and B are defined on the closure of every piece (radicands >= 0, log arguments > 0, "
                "denominators != 0)")
CONTINUITY_TEXT = "f and B agree on every common boundary of their pieces"


def _defined_check(P, dfn, wit):
    st = status_of(dfn) if dfn else CERTIFIED
    w = wit.get("defined", {})
    return Check("proof.defined", st,
                 summary(P.records, "defined") if st == CERTIFIED and dfn else
                 ("no partial function in f or B" if st == CERTIFIED else
                  ("undefined value re-verified in mpmath (50 digits)" if st == REFUTED
                   else "z3 unknown / not proved")),
                 {"certified": DEFINED_TEXT,
                  "refuted": f"{w.get('function', '?')} is undefined at x = {w.get('x', '?')} "
                             f"({w.get('evaluation', '')})",
                  "unknown": "some piece's definedness not decided (or it fails only on a boundary "
                             "another piece owns: a possible jump)"}[st], evidence(P, "defined"))


def _continuity_check(P, cont, wit):
    st = status_of(cont) if cont else CERTIFIED
    return Check("proof.continuity", st,
                 summary(P.records, "continuity") if st == CERTIFIED else
                 ("jump re-verified in mpmath (50 digits)" if st == REFUTED else "z3 unknown / not proved"),
                 {"certified": CONTINUITY_TEXT,
                  "refuted": f"jump across {wit.get('continuity', {}).get('boundary', '?')}",
                  "unknown": "some boundary not decided"}[st], evidence(P, "continuity"))


DEFERRED = ("definedness and continuity of f's and B's pieces are decided by the kernel from the mechanism "
            "alone (kernel.certificate.prepare)")


def settle_pieces(mech, proof, decided=None) -> ProofOutcome:
    """A proof stage's outcome that left the pieces to the kernel (prove_conditions(pieces=False)),
    completed.  `decided`: the kernel's outcomes of those obligations (kernel.certificate.prepare),
    taken where every one holds; else this stage decides its own, which also finds the witness of
    one that fails.  Either way the kernel's check decides them again before anything is certified."""
    if not proof.deferred:
        return proof
    if decided is not None and all(o.holds for o in decided):
        defined = [o for o in decided if o.name.startswith("defined[")]
        joined = [o for o in decided if not o.name.startswith("defined[")]

        def ev(outcomes):
            return {"decided_by": "kernel.certificate.prepare (z3, no cache)",
                    "obligations": [{"name": o.name, "answer": o.detail} for o in outcomes]}

        def how(outcomes, none):
            n = len(outcomes)
            return f"kernel: z3 unsat ({n} obligation{'s' * (n != 1)})" if n else none
        pieces = {"proof.defined": Check("proof.defined", CERTIFIED, how(defined, "no partial function in f or B"),
                                         DEFINED_TEXT, ev(defined)),
                  "proof.continuity": Check("proof.continuity", CERTIFIED, how(joined, "none"), CONTINUITY_TEXT,
                                            ev(joined))}
        wit, seeds = {}, []
    else:
        # under what is left of the stage's work budget and wall clock: they are the stage's obligations
        used = max([(c.evidence or {}).get("seconds_total", 0) for c in proof.checks] + [0])
        left = max(1, STAGE_STEPS - proof.spent)
        seconds = max(1.0, STAGE_SECONDS - used)
        with budget.work_budget(left, seconds) as work:
            P, wit = Prover(mech), {}
            try:
                with budget.alarm(seconds + STAGE_GRACE_SECONDS, StageOutOfTime):
                    functions = ((mech.query.expr, "f"), (mech.bound.expr, "B"))
                    dfn = _decide_defined(P, [(name, obl.defined(expr, name)) for expr, name in functions], wit)
                    cont = _decide_joins(P, [(name, obl.continuity(expr, name)) for expr, name in functions], wit)
                    own = [_defined_check(P, dfn, wit), _continuity_check(P, cont, wit)]
            except StageOutOfTime:
                wit = {}
                own = [Check(cid, UNKNOWN, "none", _stopped()) for cid in ("proof.defined", "proof.continuity")]
            own = _limits(own, work, STAGE_STEPS - left)
        pieces = {c.id: c for c in own}
        seeds = _seeds(P, wit)
    checks = [pieces.get(c.id, c) for c in proof.checks]
    st = {c.id: c.status for c in checks}
    checks = [dataclasses.replace(c, status=_implied_status(st)) if c.id == "proof.two_point_smooth"
              and c.method == IMPLIED else c for c in checks]
    return dataclasses.replace(proof, checks=checks, deferred=False, seeds=list(proof.seeds) + seeds,
                               witness=wit.get("defined") or proof.witness or wit.get("continuity"),
                               regions=proof.regions if all_hold(c.status for c in checks) else [])


def _two_point(P, mech, checks, wit):
    spec = mech.spec
    why = two_point_needed(spec)
    if why is None:
        return [Check("proof.two_point_cover", SKIPPED, "none", SKIP_TWO_POINT),
                Check("proof.two_point_smooth", SKIPPED, "none", SKIP_TWO_POINT)]
    out = []
    syms, f, B = P.syms, mech.query.expr, mech.bound.expr
    o = obl.two_point_cover(f, B, syms, spec.bound.Lambda, metric=mech.metric)
    out.append(_tp_check(P, o, "two_point_cover", wit, why, "B(x) >= L_{f,Lambda}(x) for all x"))
    if spec.bound.growth == Growth.LINEAR:
        o = obl.two_point_smooth_linear(B, syms, spec.bound.gamma, spec.bound.Lambda, metric=mech.metric)
        out.append(_tp_check(P, o, "two_point_smooth", wit, why, "B(x) <= (1 + gamma d) B(x') for all x, x'"))
    else:
        out.append(Check("proof.two_point_smooth", _implied_status({c.id: c.status for c in checks}), IMPLIED,
                         f"B(x) <= e^(gamma d) B(x') follows from |grad ln B| <= gamma and continuity (needed: {why})"))
    return out


IMPLIED = "implied: smooth + continuity integrated along segments (convex domain)"


def _implied_status(st):
    """Exponential growth: two_point_smooth follows from smooth, continuity and B > 0 (by id -> status)."""
    return worst(st["proof.smooth"], st["proof.continuity"], st["proof.B_positive"])


def _tp_check(P, o, cond, wit, why, text):
    ans = P.discharge(o)
    if ans.status == zb.UNSAT:
        return Check(f"proof.{cond}", CERTIFIED, "z3 unsat (1 obligation, nlsat)", f"{text} (needed: {why})",
                     evidence(P, cond))
    w = None
    if ans.status == zb.SAT and P.finder:
        x = [ans.model.get(s.name) for s in P.syms]
        xp = [ans.model.get(s.name + "p") for s in P.syms]
        if all(v is not None for v in x + xp):
            xs, xps = [dec(v) for v in x], [dec(v) for v in xp]
            w = P.finder.check_cover(xs, xps) if cond == "two_point_cover" else P.finder.check_smooth(xs, xps)
    if w:
        wit.setdefault(cond, w)
        return Check(f"proof.{cond}", REFUTED, "witness re-verified in mpmath (50 digits)", f"{text} fails",
                     evidence(P, cond))
    return Check(f"proof.{cond}", UNKNOWN, f"z3 {ans.status}", f"{text}: not decided (needed: {why})",
                 evidence(P, cond))


def _all_unknown(reason):
    checks = [Check(f"proof.{c}", UNKNOWN, "none", reason) for c in
              ("defined", "B_positive", "cover", "smooth", "continuity")]
    return ProofOutcome(checks, [], None, route="none")
