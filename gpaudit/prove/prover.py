"""What instance, theorem and symbolic mode share: the Prover that discharges obligations and finds
certified rates, the records it keeps, the outcome of a proof, and the texts of its checks.

    Prover(mech, timeout_ms)       discharge(obligation) -> z3 answer (or an arb enclosure);
                                   rate(leaf, "cover" | "smooth") -> (status, certified bound, witness)
    ProofOutcome, RegionRate       what a proof of Definition 8's conditions returns
    summary / evidence / status_of the method text, the evidence record and the status of one condition
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from fractions import Fraction

import mpmath
import numpy as np
import sympy as sp

from ..model.fp import nelder_mead_batch
from ..verdict import CERTIFIED, REFUTED, UNKNOWN, worst
from . import arbbox
from . import obligations as obl
from . import regions as rg
from ..kernel import z3door as zb
from .. import runtime
from .witness import WitnessFinder, dec


@dataclass(frozen=True)
class RegionRate:
    region: str
    a: sp.Expr      # certified upper bound of sup_R |grad f| / B (exact)
    c: sp.Expr      # certified upper bound of sup_R |grad ln B| (exact)


ALONE_MS = 500         # the budget of an obligation tried without its region's conditions

SPLIT_TEXT = {"claim": "one conjunct of the claim", "region": "one disjunct of the region"}


@dataclass(frozen=True)
class Record:
    """One discharged obligation (what the artifacts print)."""
    obligation: obl.Obligation
    status: str          # unsat | sat | unknown | arb
    method: str
    seconds: float = 0.0
    cached: bool = False
    decisive: bool = True
    cases: int = 1       # > 1: z3 decided the block case by case (zb.Answer.split says how)
    split: str = ""
    alone: bool = False  # z3 decided the obligation's `alone` query (without the region's conditions)
    each: bool = False   # z3 decided its `each` queries (each alternative alone, everywhere)

    def to_json(self):
        o = self.obligation
        return {"condition": o.condition, "region": o.region, "claim": o.claim, "answer": self.status,
                "method": self.method, "seconds": round(self.seconds, 3), "cached": self.cached}


@dataclass(frozen=True)
class ProofOutcome:
    checks: list
    regions: list
    witness: dict | None
    records: list = field(default_factory=list)
    leaves: list = field(default_factory=list)
    route: str = "regions"
    rates: dict = field(default_factory=dict)     # leaf label -> {"a": sympy, "c": sympy}
    seeds: list = field(default_factory=list)     # points where a condition failed (z3 models, witnesses)
    reused: int | None = None     # answers the proof cache gave (None: count the records' `cached`)
    deferred: bool = False        # the pieces' definedness and continuity are left to the kernel
    spent: int = 0                # weighted z3 steps of the stage's work budget it spent

    def cache_reused(self) -> int:
        """How many z3 answers came from the proof cache (gpaudit.runtime.cache: never a proof)."""
        return self.reused if self.reused is not None else sum(1 for r in self.records if r.cached)

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
                 Lambda=sp.oo, params=(), numeric=True, finder=None, landmarks=(), scale=1.0, metric=None):
        self.mech = mech
        self.metric = mech.metric if mech is not None else metric
        self.timeout = int(timeout_ms)
        if mech is not None:
            f, B, syms = mech.query.expr, mech.bound.expr, mech.query.symbols
            gamma, growth, Lambda = mech.spec.bound.gamma, mech.spec.bound.growth, mech.spec.bound.Lambda
            landmarks, scale = mech.query.landmarks, mech.query.scale
            if finder is None and f is not None and B is not None:
                finder = WitnessFinder(mech.query.f_mp, mech.bound.B_mp, mech.dim, gamma, growth, Lambda, scale,
                                       self.metric)
        self.f, self.B, self.syms = f, B, tuple(syms)
        self.gamma, self.growth, self.Lambda = gamma, growth, Lambda
        self.params = tuple(params)
        self.numeric = numeric
        self.finder = finder
        self.records: list[Record] = []
        self.sat_points: list = []     # z3 counterexample locations: seeds for the audit
        self.witnesses: dict[str, dict] = {}
        self._X = rg.sample_points(landmarks, len(self.syms), scale) if numeric else None
        self._masks: dict = {}         # atom -> its mask on self._X (regions share their atoms)
        marks = np.array(landmarks, float).reshape(-1, len(self.syms)) if len(landmarks) else None
        self.centre = None if marks is None else [Fraction(float(v)).limit_denominator(64) for v in marks.mean(0)]

    # -- one obligation ------------------------------------------------------------------
    def discharge(self, o: obl.Obligation, timeout=None, decisive=True) -> zb.Answer:
        if o.query is None:
            ans = zb.Answer(zb.UNKNOWN, reason=o.error)
            self.records.append(Record(o, zb.UNKNOWN, f"not translatable: {o.error}", decisive=decisive))
            return ans
        if o.each:
            # each alternative alone, everywhere, with the smaller budget: unsat for every one is unsat
            # on the region (as the kernel tries B > 0 and smooth, certificate._Run.some_alt)
            firsts = []
            for q in o.each:
                firsts.append(runtime.solve(q, min(timeout or self.timeout, ALONE_MS)))
                if firsts[-1].status != zb.UNSAT:
                    break
            spent = sum(a.seconds for a in firsts)
            if firsts[-1].status == zb.UNSAT and len(firsts) == len(o.each):
                self.records.append(Record(o, zb.UNSAT, "z3 unsat for each alternative, without any conditions", spent,
                                           any(a.cached for a in firsts), decisive, each=True))
                return zb.Answer(zb.UNSAT, seconds=spent)
        if o.alone is not None:
            # without the region's conditions first, with a smaller budget: unsat there is unsat
            # on the region (the kernel's obligations are tried the same way, certificate._Run.need)
            first = runtime.solve(o.alone, min(timeout or self.timeout, ALONE_MS))
            if first.status == zb.UNSAT:
                self.records.append(Record(o, zb.UNSAT, "z3 unsat without the region's conditions", first.seconds,
                                           first.cached, decisive, first.cases, first.split, alone=True))
                return first
        ans = runtime.solve(o.query, timeout or self.timeout)
        if ans.status == zb.SAT:
            self.sat_points.append(self._model_point(ans))
        method = "z3 unsat" if ans.status == zb.UNSAT else f"z3 {ans.status}"
        if zb.WALL_CLOCK_NOTE in (ans.reason or ""):      # a limit stopped the call: say which
            method += f" ({ans.reason})"
        if ans.cases > 1:
            method += f" ({ans.cases} cases, {SPLIT_TEXT.get(ans.split, 'one case of it')} each)"
        if ans.status == zb.UNKNOWN:
            enc = arbbox.try_close(o, self.syms, self.params, timeout or self.timeout, self.centre)
            if enc is not None and enc.proved:
                self.records.append(Record(o, "arb", enc.method, ans.seconds + enc.seconds, decisive=decisive))
                return zb.Answer(zb.UNSAT, seconds=ans.seconds + enc.seconds, reason=enc.method)
            if enc is not None:
                method += f"; {enc.method}"
        self.records.append(Record(o, ans.status, method, ans.seconds, ans.cached, decisive, ans.cases, ans.split))
        return ans

    # -- screening ------------------------------------------------------------------------
    def _estimate(self, leaf, ratio_sq, required=None):
        """Largest sampled value of sqrt(ratio_sq) on the leaf, and the points attaining the top.
        Where that is below `required` (a candidate rate would be tried), the top points are
        climbed first (see _climb)."""
        if self._X is None:
            return None, []
        best, pts, tops = -np.inf, [], []
        for alt, r2 in zip(leaf.alts, ratio_sq):
            mask = rg.member_mask(leaf.conds + alt.conds, self.syms, self._X, self._masks)
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
            tops.append((leaf.conds + alt.conds, r2, X[order]))
        if required is not None and np.isfinite(best) and best < float(required) * (1 - 1e-3):
            for conds, r2, starts in tops:
                for val, x in self._climb(conds, r2, starts[:2]):
                    pts.append((val, x))
                    best = max(best, val)
        pts.sort(key=lambda t: -t[0])
        return (best if np.isfinite(best) else None), [p for _, p in pts]

    def _climb(self, conds, r2, starts, iters=60):
        """The sampled top points, climbed by a batched Nelder-Mead on sqrt|ratio_sq| inside the
        leaf (points outside it score nothing): (value, point) of each climbed start.  A sample
        grid under-estimates a supremum approached far away or between grid points, and a
        candidate rate below the supremum costs a z3 call that can only come back `sat`; the
        climb makes that rarer.  Screening only: it chooses candidates, it never proves one."""
        syms, inside_of = self.syms, sp.And(*conds)

        def neg(Z):
            inside = rg.holds_np(inside_of, syms, Z)
            v = np.sqrt(np.abs(rg.eval_np(r2, syms, Z)))
            return np.where(inside & np.isfinite(v), -v, np.inf)

        widths = np.where(starts != 0, 0.05 * np.abs(starts), 0.05)
        Z, F = nelder_mead_batch(neg, starts, widths, iters)
        return [(-float(f), z) for z, f in zip(Z, F) if np.isfinite(f)]

    def _model_point(self, ans):
        return [ans.model.get(s.name) for s in self.syms] if ans.status == zb.SAT else None

    # -- rates ----------------------------------------------------------------------------
    def rate(self, leaf, kind):
        """(status, certified bound or None, witness or None) for cover / smooth on one leaf."""
        ratio_sq = [obl.ratio_sq(kind, a, self.syms, self.metric) for a in leaf.alts]
        n_sat = len(self.sat_points)
        if kind == "cover":
            required, build = sp.Integer(1), lambda c: obl.cover(leaf, self.syms, c, self.params, self.metric)
        else:
            required, build = self.gamma, lambda c: obl.smooth(leaf, self.syms, c, self.params, self.metric)
        xs = set(self.syms)
        exact = None
        if all(not (r.free_symbols & xs) for r in ratio_sq):
            roots = [sp.sqrt(r.doit()) for r in ratio_sq]   # doit: a dual norm's Max is left unevaluated
            exact = sp.Max(*roots) if len(roots) > 1 else roots[0]
            exact = sp.nsimplify(exact) if exact.is_Float else exact
        est, top = (None, []) if exact is not None else self._estimate(leaf, ratio_sq, required)
        if exact is not None:
            cands = [exact]
        elif est is not None and self.numeric and est < float(required) * (1 - 1e-3):
            c = nice_up(est)
            cands = [c, required] if _le(required, c) is False else [required]   # no candidate twice
        else:
            cands = [required]
        proved, last = None, None
        for k, c in enumerate(cands):
            final = k == len(cands) - 1
            o = build(c)
            ans = self.discharge(o, None if final else min(self.timeout, 3000), decisive=final)
            if ans.status == zb.UNSAT:
                self.records[-1] = dataclasses.replace(self.records[-1], decisive=True)
                proved = c
                break
            last = ans
        if proved is not None:
            ok = _le(proved, required)
            if ok:
                # the condition holds on this leaf: where a smaller candidate rate failed is no
                # place where a condition fails, and no seed for the audit
                del self.sat_points[n_sat:]
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
            q = tr.query(tr(sp.And(*leaf.conds)) if leaf.conds else rg.z3_true())
        except zb.Unsupported:
            return []
        ans = runtime.solve(q, 3000, use_cache=False)
        return [self._model_point(ans)] if ans.status == zb.SAT else []

    def _grad_at(self, expr, x):
        try:
            with mpmath.workdps(50):
                fn = sp.lambdify(self.syms, [sp.diff(expr, s) for s in self.syms], modules=["mpmath"], docstring_limit=0)
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
                            w["grad_f"] = dec(self.metric.dual_mp(gx) if self.metric is not None
                                              else mpmath.sqrt(mpmath.fsum(v * v for v in gx)))
                    return w
        return None


def summary(records, cond):
    rs = [r for r in records if r.obligation.condition == cond and r.decisive]
    z3n = sum(1 for r in rs if r.status == "unsat")
    arbn = sum(1 for r in rs if r.status == "arb")
    parts = []
    if z3n:
        parts.append(f"z3 unsat ({z3n} obligation{'s' * (z3n != 1)}, nlsat)")
    if arbn:
        parts.append(f"arb branch-and-bound ({arbn} obligation{'s' * (arbn != 1)})")
    return " + ".join(parts) or "none"


def evidence(prover, cond, extra=None):
    rs = [r.to_json() for r in prover.records if r.obligation.condition == cond and r.decisive]
    notes = sorted({n for r in prover.records if r.obligation.condition == cond for n in r.obligation.notes})
    ev = {"z3": runtime.texts.z3_version(), "seed": zb.SEED, "timeout_ms": prover.timeout, "obligations": rs,
          "abstractions": notes}
    if extra:
        ev.update(extra)
    return ev


def status_of(results):
    if any(s == REFUTED for s in results):
        return REFUTED
    if results and all(s == CERTIFIED for s in results):
        return CERTIFIED
    return UNKNOWN


SKIP_TWO_POINT = ("not needed: no route this claim can use rests on them (only Lemma 3.6, with linear growth, "
                  "does); the local conditions (cover, smooth, continuity) carry the certificate along segments "
                  "of the convex domain (docs/certificate.md)")
