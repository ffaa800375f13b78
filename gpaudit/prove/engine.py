"""Instance mode: discharge the obligations of one mechanism and decide each condition.

For every leaf the engine looks for the smallest certified rate: an exact constant when the
ratio |grad f|/B (or |grad ln B|) simplifies to one, else a screening estimate rounded up to a
short rational, and finally the required value itself (1 for cover, gamma for smooth).  Only an
`unsat` (or a complete arb enclosure) certifies a rate; a failure of the required value is turned
into a re-verified witness pair, or the condition stays unknown.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from fractions import Fraction

import mpmath
import numpy as np
import sympy as sp

from ..verdict import CERTIFIED, REFUTED, SKIPPED, UNKNOWN, Check, worst
from ..spec.types import two_point_needed
from . import arbbox
from . import obligations as obl
from . import regions as rg
from ..kernel import z3door as zb
from .witness import WitnessFinder, dec

LEMMA_31 = "theorem: Liang-Yi Lemma 3.1"


@dataclass(frozen=True)
class RegionRate:
    region: str
    a: sp.Expr      # certified upper bound of sup_R |grad f| / B (exact)
    c: sp.Expr      # certified upper bound of sup_R |grad ln B| (exact)


@dataclass
class Record:
    """One discharged obligation (what the artifacts print)."""
    obligation: obl.Obligation
    status: str          # unsat | sat | unknown | arb
    method: str
    seconds: float = 0.0
    cached: bool = False
    decisive: bool = True

    def to_json(self):
        o = self.obligation
        return {"condition": o.condition, "region": o.region, "claim": o.claim, "answer": self.status,
                "method": self.method, "seconds": round(self.seconds, 3), "cached": self.cached}


@dataclass
class ProofOutcome:
    checks: list
    regions: list
    witness: dict | None
    records: list = field(default_factory=list)
    leaves: list = field(default_factory=list)
    route: str = "regions"
    rates: dict = field(default_factory=dict)     # leaf label -> {"a": sympy, "c": sympy}
    seeds: list = field(default_factory=list)     # points where a condition failed (z3 models, witnesses)

    @property
    def status(self) -> str:
        return worst(*[c.status for c in self.checks])


def nice_up(v: float) -> sp.Rational:
    """A short rational >= v (three significant digits, rounded up)."""
    if v <= 0:
        return sp.Integer(0)
    e = math.floor(math.log10(v)) - 2
    q = sp.Rational(10)**e
    return sp.ceiling(sp.Rational(v * (1 + 1e-6)) / q) * q


def _le(a, b) -> bool | None:
    """a <= b for exact sympy values (None when sympy cannot decide)."""
    r = sp.simplify(sp.sympify(a) - sp.sympify(b))
    if r.is_nonpositive:
        return True
    if r.is_positive:
        return False
    return None


class Prover:
    def __init__(self, mech=None, timeout_ms=10000, *, f=None, B=None, syms=None, gamma=None, growth=None,
                 Lambda=sp.oo, params=(), numeric=True, finder=None, landmarks=(), scale=1.0):
        self.mech = mech
        self.timeout = int(timeout_ms)
        if mech is not None:
            f, B, syms = mech.query.expr, mech.bound.expr, mech.query.symbols
            gamma, growth, Lambda = mech.spec.bound.gamma, mech.spec.bound.growth, mech.spec.bound.Lambda
            landmarks, scale = mech.query.landmarks, mech.query.scale
            if finder is None and f is not None and B is not None:
                finder = WitnessFinder(mech.query.f_mp, mech.bound.B_mp, mech.dim, gamma, growth, Lambda, scale)
        self.f, self.B, self.syms = f, B, tuple(syms)
        self.gamma, self.growth, self.Lambda = gamma, growth, Lambda
        self.params = tuple(params)
        self.numeric = numeric
        self.finder = finder
        self.records: list[Record] = []
        self.sat_points: list = []     # z3 counterexample locations: seeds for the audit
        self.witnesses: dict[str, dict] = {}
        self._X = rg.sample_points(landmarks, len(self.syms), scale) if numeric else None
        marks = np.array(landmarks, float).reshape(-1, len(self.syms)) if len(landmarks) else None
        self.centre = None if marks is None else [Fraction(float(v)).limit_denominator(64) for v in marks.mean(0)]

    # -- one obligation ------------------------------------------------------------------
    def discharge(self, o: obl.Obligation, timeout=None, decisive=True) -> zb.Answer:
        if o.query is None:
            ans = zb.Answer(zb.UNKNOWN, reason=o.error)
            self.records.append(Record(o, zb.UNKNOWN, f"not translatable: {o.error}", decisive=decisive))
            return ans
        ans = zb.solve(o.query, timeout or self.timeout)
        if ans.status == zb.SAT:
            self.sat_points.append(self._model_point(ans))
        method = "z3 unsat" if ans.status == zb.UNSAT else f"z3 {ans.status}"
        if ans.status == zb.UNKNOWN:
            enc = arbbox.try_close(o, self.syms, self.params, timeout or self.timeout, self.centre)
            if enc is not None and enc.proved:
                self.records.append(Record(o, "arb", enc.method, ans.seconds + enc.seconds, decisive=decisive))
                return zb.Answer(zb.UNSAT, seconds=ans.seconds + enc.seconds, reason=enc.method)
            if enc is not None:
                method += f"; {enc.method}"
        self.records.append(Record(o, ans.status, method, ans.seconds, ans.cached, decisive))
        return ans

    # -- screening ------------------------------------------------------------------------
    def _estimate(self, leaf, ratio_sq):
        """Largest sampled value of sqrt(ratio_sq) on the leaf, and the points attaining the top."""
        if self._X is None:
            return None, []
        best, pts = -np.inf, []
        for alt, r2 in zip(leaf.alts, ratio_sq):
            mask = rg.member_mask(leaf.conds + alt.conds, self.syms, self._X)
            if not mask.any():
                continue
            X = self._X[mask]
            v = np.sqrt(np.abs(rg.eval_np(r2, self.syms, X)))
            ok = np.isfinite(v)
            if not ok.any():
                continue
            X, v = X[ok], v[ok]
            order = np.argsort(-v)[:4]
            pts += [(float(v[i]), X[i]) for i in order]
            best = max(best, float(v.max()))
        pts.sort(key=lambda t: -t[0])
        return (best if np.isfinite(best) else None), [p for _, p in pts]

    def _model_point(self, ans):
        return [ans.model.get(s.name) for s in self.syms] if ans.status == zb.SAT else None

    # -- rates ----------------------------------------------------------------------------
    def rate(self, leaf, kind):
        """(status, certified bound or None, witness or None) for cover / smooth on one leaf."""
        ratio_sq = [obl.original(obl.ratio_cover_sq(a.f, a.B, self.syms) if kind == "cover"
                                 else obl.grad_log_sq(a.B, self.syms)) for a in leaf.alts]
        if kind == "cover":
            required, build = sp.Integer(1), lambda c: obl.cover(leaf, self.syms, c, self.params)
        else:
            required, build = self.gamma, lambda c: obl.smooth(leaf, self.syms, c, self.params)
        xs = set(self.syms)
        exact = None
        if all(not (r.free_symbols & xs) for r in ratio_sq):
            exact = sp.Max(*[sp.sqrt(r) for r in ratio_sq]) if len(ratio_sq) > 1 else sp.sqrt(ratio_sq[0])
            exact = sp.nsimplify(exact) if exact.is_Float else exact
        est, top = (None, []) if exact is not None else self._estimate(leaf, ratio_sq)
        if exact is not None:
            cands = [exact]
        elif est is not None and self.numeric and est < float(required) * (1 - 1e-3):
            cands = [nice_up(est), required]
        else:
            cands = [required]
        proved, last = None, None
        for k, c in enumerate(cands):
            final = k == len(cands) - 1
            o = build(c)
            ans = self.discharge(o, None if final else min(self.timeout, 3000), decisive=final)
            if ans.status == zb.UNSAT:
                self.records[-1].decisive = True
                proved = c
                break
            last = ans
        if proved is not None:
            ok = _le(proved, required)
            if ok:
                return CERTIFIED, proved, None
            # the certified rate exceeds the requirement: look for a witness in the leaf
            pts = top or self._region_points(leaf)
        else:
            pts = ([self._model_point(last)] if last is not None and last.status == zb.SAT else []) + top
            if est is not None and est > float(required) * (1 + 1e-9) and not pts:
                pts = self._region_points(leaf)
        w = self._witness(kind, leaf, pts)
        return (REFUTED if w else UNKNOWN), proved, w

    def _region_points(self, leaf):
        tr = zb.Translator()
        try:
            q = zb.Query(tr(sp.And(*leaf.conds)) if leaf.conds else rg.z3_true(), tr.facts, tr.notes)
        except zb.Unsupported:
            return []
        ans = zb.solve(q, 3000, use_cache=False)
        return [self._model_point(ans)] if ans.status == zb.SAT else []

    def _grad_at(self, expr, x):
        try:
            with mpmath.workdps(50):
                fn = sp.lambdify(self.syms, [sp.diff(expr, s) for s in self.syms], modules=["mpmath"])
                return [mpmath.mpf(v) for v in fn(*[mpmath.mpf(dec(v)) for v in x])]
        except (TypeError, ValueError, ZeroDivisionError):
            return None

    def _witness(self, kind, leaf, pts):
        if self.finder is None:
            return None
        for p in pts[:8]:
            if p is None or any(v is None for v in p):
                continue
            for alt in leaf.alts:
                expr = alt.f if kind == "cover" else sp.log(alt.B)
                g = self._grad_at(expr, p)
                if kind == "smooth" and g is not None:
                    g = [-v for v in g]   # x' = x0 + h u with u = -grad ln B: B(x0) > B(x')
                w = (self.finder.cover if kind == "cover" else self.finder.smooth)(p, g)
                if w:
                    w["region"] = leaf.label
                    if kind == "cover":
                        gx = self._grad_at(alt.f, w["x"])
                        if gx is not None:
                            w["grad_f"] = dec(mpmath.sqrt(mpmath.fsum(v * v for v in gx)))
                    return w
        return None


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


def _summary(records, cond):
    rs = [r for r in records if r.obligation.condition == cond and r.decisive]
    z3n = sum(1 for r in rs if r.status == "unsat")
    arbn = sum(1 for r in rs if r.status == "arb")
    parts = []
    if z3n:
        parts.append(f"z3 unsat ({z3n} obligation{'s' * (z3n != 1)}, nlsat)")
    if arbn:
        parts.append(f"arb branch-and-bound ({arbn} obligation{'s' * (arbn != 1)})")
    return " + ".join(parts) or "none"


def _evidence(prover, cond, extra=None):
    rs = [r.to_json() for r in prover.records if r.obligation.condition == cond and r.decisive]
    notes = sorted({n for r in prover.records if r.obligation.condition == cond for n in r.obligation.notes})
    ev = {"z3": zb.z3_version(), "seed": zb.SEED, "timeout_ms": prover.timeout, "obligations": rs,
          "abstractions": notes}
    if extra:
        ev.update(extra)
    return ev


def _status_of(results):
    if any(s == REFUTED for s in results):
        return REFUTED
    if results and all(s == CERTIFIED for s in results):
        return CERTIFIED
    return UNKNOWN


SKIP_TWO_POINT = ("not needed: Lambda = inf and delta = 0, so the local conditions (cover, smooth, "
                  "continuity) carry the certificate along segments of the convex domain (docs/certificate.md)")


# The proof stage's total work budget, in weighted z3 steps (gpaudit.kernel.z3door.work_budget;
# about 0.3 us each).  The catalog's configurations spend at most 4.1e6 (examples/two-way-
# student-t.yaml), the extremes of tests/test_param_range.py that certify at most 2.1e7; the cap
# ends a proof stage whose regions are all out of z3's reach in one to two minutes (82 s measured
# on the 2-core machine for the two-way threshold at T1 = 1e-300).
STAGE_STEPS = 2 * 10**8


def prove_conditions(mech, timeout_ms: int = 10000) -> ProofOutcome:
    """Prove (or refute) the conditions of Definition 8 for mech's f and B, region by region,
    under the stage's deterministic work budget."""
    with zb.work_budget(STAGE_STEPS) as work:
        out = _prove_conditions(mech, timeout_ms)
        spent, cap = work.spent, work.cap
    for c in out.checks:
        if spent >= cap and c.status == UNKNOWN:
            c.detail += (f"; the proof stage's work budget ({cap:.0e} weighted z3 steps) is spent"
                         " (long numerals make each step costly: see docs/certificate.md)")
    return out


def _prove_conditions(mech, timeout_ms: int) -> ProofOutcome:
    t0 = time.perf_counter()
    zb.configure_z3()
    spec = mech.spec
    if mech.bound.expr is None:
        from .theorem import lemma_31_route
        return lemma_31_route(mech, timeout_ms)
    if mech.query.expr is None:
        return _all_unknown("the query is a python callable: no expression to reason about")
    P = Prover(mech, timeout_ms)
    try:
        leaves = rg.leaves(mech.query.expr, mech.bound.expr)
    except zb.Unsupported as err:
        return _all_unknown(f"regions: {err}")
    per = {"B_positive": [], "cover": [], "smooth": []}
    rates, wit = {}, {}
    dfn = []
    for expr, name in ((mech.query.expr, "f"), (mech.bound.expr, "B")):
        dfn += _decide_each(P, obl.defined(expr, name), lambda pt, o, name=name: _tagged(
            P.finder.undefined(pt, name), piece=o.region), "defined", wit)
    for leaf in leaves:
        ans = P.discharge(obl.b_positive(leaf))
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
    cont = []
    for expr, name in ((mech.query.expr, "f"), (mech.bound.expr, "B")):
        cont += _decide_each(P, obl.continuity(expr, name), lambda pt, o: _tagged(
            P.finder.jump(pt), boundary=o.region, prefix="continuity: "), "continuity", wit)
    checks = []
    st = _status_of(dfn) if dfn else CERTIFIED
    checks.append(Check("proof.defined", st,
                        _summary(P.records, "defined") if st == CERTIFIED and dfn else
                        ("no partial function in f or B" if st == CERTIFIED else
                         ("undefined value re-verified in mpmath (50 digits)" if st == REFUTED else "z3 unknown / not proved")),
                        {"certified": "f and B are defined on the closure of every piece (radicands >= 0, "
                                      "log arguments > 0, denominators != 0)",
                         "refuted": f"{wit.get('defined', {}).get('function', '?')} is undefined at "
                                    f"x = {wit.get('defined', {}).get('x', '?')} "
                                    f"({wit.get('defined', {}).get('evaluation', '')})",
                         "unknown": "some piece's definedness not decided (or it fails only on a boundary "
                                    "another piece owns: a possible jump)"}[st], _evidence(P, "defined")))
    leaf_ev = [{"region": l.label, "conditions": [str(c) for c in l.conds], "alternatives": len(l.alts),
                "a": None if rates[l.label]["a"] is None else str(rates[l.label]["a"]),
                "c": None if rates[l.label]["c"] is None else str(rates[l.label]["c"])} for l in leaves]
    details = {
        "B_positive": "B > 0 on every region",
        "cover": "|grad f| <= a_R B with a_R <= 1 on every region",
        "smooth": f"|grad ln B| <= c_R with c_R <= gamma = {spec.bound.gamma} on every region",
    }
    for cond in ("B_positive", "cover", "smooth"):
        st = _status_of(per[cond])
        detail = details[cond] if st == CERTIFIED else (
            f"violated in region {wit[cond].get('region', '?')}" if st == REFUTED else
            f"{per[cond].count(UNKNOWN)} of {len(per[cond])} regions not decided")
        checks.append(Check(f"proof.{cond}", st, _summary(P.records, cond) if st == CERTIFIED else
                            ("witness re-verified in mpmath (50 digits)" if st == REFUTED else "z3 unknown / not proved"),
                            f"{detail} ({len(leaves)} regions)",
                            _evidence(P, cond, {"regions": leaf_ev} if cond == "cover" else None)))
    st = _status_of(cont) if cont else CERTIFIED
    checks.append(Check("proof.continuity", st,
                        _summary(P.records, "continuity") if st == CERTIFIED else
                        ("jump re-verified in mpmath (50 digits)" if st == REFUTED else "z3 unknown / not proved"),
                        {"certified": "f and B agree on every common boundary of their pieces",
                         "refuted": f"jump across {wit.get('continuity', {}).get('boundary', '?')}",
                         "unknown": "some boundary not decided"}[st], _evidence(P, "continuity")))
    checks += _two_point(P, mech, checks, wit)
    witness = next((wit[k] for k in ("defined", "B_positive", "cover", "continuity", "smooth", "two_point_cover",
                                     "two_point_smooth") if k in wit), None)
    seeds = [w[key] for w in wit.values() for key in ("x", "x_prime") if isinstance(w.get(key), list)]
    regions = []
    if all(c.status in (CERTIFIED, SKIPPED) for c in checks):
        regions = [RegionRate(l, sp.sympify(r["a"]), sp.sympify(r["c"])) for l, r in rates.items()]
    for c in checks:
        c.evidence["seconds_total"] = round(time.perf_counter() - t0, 3)
    seeds = [p for p in seeds + P.sat_points if p and None not in p]
    return ProofOutcome(checks, regions, witness, P.records, leaves, "regions", rates, seeds)


def _two_point(P, mech, checks, wit):
    spec = mech.spec
    why = two_point_needed(spec)
    if why is None:
        return [Check("proof.two_point_cover", SKIPPED, "none", SKIP_TWO_POINT),
                Check("proof.two_point_smooth", SKIPPED, "none", SKIP_TWO_POINT)]
    out = []
    syms, f, B = P.syms, mech.query.expr, mech.bound.expr
    o = obl.two_point_cover(f, B, syms, spec.bound.Lambda)
    out.append(_tp_check(P, o, "two_point_cover", wit, why, "B(x) >= L_{f,Lambda}(x) for all x"))
    if spec.bound.growth == "linear":
        o = obl.two_point_smooth_linear(B, syms, spec.bound.gamma, spec.bound.Lambda)
        out.append(_tp_check(P, o, "two_point_smooth", wit, why, "B(x) <= (1 + gamma d) B(x') for all x, x'"))
    else:
        local = {c.id: c.status for c in checks}
        st = worst(local["proof.smooth"], local["proof.continuity"], local["proof.B_positive"])
        out.append(Check("proof.two_point_smooth", st,
                         "implied: smooth + continuity integrated along segments (convex domain)",
                         f"B(x) <= e^(gamma d) B(x') follows from |grad ln B| <= gamma and continuity (needed: {why})"))
    return out


def _tp_check(P, o, cond, wit, why, text):
    ans = P.discharge(o)
    if ans.status == zb.UNSAT:
        return Check(f"proof.{cond}", CERTIFIED, "z3 unsat (1 obligation, nlsat)", f"{text} (needed: {why})",
                     _evidence(P, cond))
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
                     _evidence(P, cond))
    return Check(f"proof.{cond}", UNKNOWN, f"z3 {ans.status}", f"{text}: not decided (needed: {why})",
                 _evidence(P, cond))


def _all_unknown(reason):
    checks = [Check(f"proof.{c}", UNKNOWN, "none", reason) for c in
              ("defined", "B_positive", "cover", "smooth", "continuity")]
    return ProofOutcome(checks, [], None, route="none")
