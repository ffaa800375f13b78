"""The theorem route: `bound.kind: smooth_sensitivity` without a closed form.

The mechanism then claims B = B* exactly as Definition 9 defines it (a numerical grid only
approximates it for the audit).  Liang-Yi Lemma 3.1 states that B* satisfies both conditions of
Definition 8 for ANY smooth growth function, provided f is Lambda-locally Lipschitz.  What is
left to prove is that premise, with the constant the model states (mech.query.lipschitz, e.g.
e^{-1/2}/h for the Gaussian kernel): |grad f| <= K on every piece and f continuous across pieces
give |f(x) - f(x')| <= K |x - x'| along every segment.  Then, for the certificate:

    a = 1:      |grad f(x)| <= L_{f,Lambda}(x) <= B*(x)                    (condition 1)
    c = gamma:  ln B*(x) - ln B*(x') <= ln g(d) <= gamma d                  (condition 2)
    B* > 0:     B*(x) >= L(z)/g(x, z) > 0 at any z where grad f(z) != 0     (f not constant)
"""

from __future__ import annotations

import mpmath
import sympy as sp
from flint import ctx

from ..verdict import CERTIFIED, SKIPPED, UNKNOWN, Check, all_hold
from . import obligations as obl
from . import regions as rg
from ..kernel import z3door as zb
from ..kernel.arbexpr import to_arb
from ..kernel.numbers import exact
from ..spec.types import BoundKind, QueryKind, two_point_needed
from .prover import SKIP_TWO_POINT, ProofOutcome, Prover, RegionRate, evidence, summary

LEMMA_31 = "theorem: Liang-Yi Lemma 3.1"


def _nonconstant_point(query):
    """A landmark where |grad f| > 0, proved by an arb enclosure of |grad f|^2 at the landmark's
    exact (binary) coordinates that lies above 0 (kernel.arbexpr: outward rounded)."""
    syms = query.symbols
    grads = [sp.diff(query.expr, s) for s in syms]
    n2 = sp.Add(*[g**2 for g in grads])
    old = ctx.prec
    ctx.prec = 256
    try:
        for p in query.landmarks:
            try:
                env = {s: to_arb(exact(mpmath.mpf(v))) for s, v in zip(syms, p)}
                enc = to_arb(n2, env)
            except (TypeError, ValueError, ZeroDivisionError):
                continue
            if enc.is_finite() and enc > 0:
                with mpmath.workdps(40):     # (the value shown; the decision is enc > 0)
                    return list(p), mpmath.nstr(mpmath.mpf(enc.sqrt().mid().str(40, radius=False)), 20)
    finally:
        ctx.prec = old
    return _nonconstant_point_exact(query, grads)


def _exact_points(query):
    """Exact points (sympy rationals) inside the transition of a built-in query: its float
    landmarks lose the transition when it is tiny against its location (tau = 1e-200 at T = 1e200)."""
    F, k = query.fields, query.kind
    pts = []
    if k == QueryKind.SOFT_THRESHOLD:
        pts.append((F["T"],))
    elif k == QueryKind.BOUNDED_RANGE:
        pts.append((F["l"],))
    elif k == QueryKind.TWO_WAY_THRESHOLD:
        from ..model.queries import two_way_geometry
        R1, R2, (a, b) = two_way_geometry(F["T1"], F["T2"], F["tau"])
        pts.append((a - (R1 + R2) / 2, b))
    elif k == QueryKind.GAUSSIAN_KDE:
        t = list(F["t"])
        pts.append(tuple([t[0] + F["h"]] + t[1:]))
    for p in query.landmarks:  # the float landmarks, exactly
        try:
            pts.append(tuple(sp.Rational(float(v)) for v in p))
        except (TypeError, ValueError, OverflowError):
            continue
    return pts


def _short(v):
    text = str(v)
    return text if len(text) <= 30 else mpmath.nstr(mpmath.mpf(sp.N(v, 25)), 20)


def _nonconstant_point_exact(query, grads):
    """A point where |grad f| > 0, shown by exact (sympy) evaluation: any scale, no threshold."""
    syms = query.symbols
    for p in _exact_points(query):
        try:
            g = [sp.sympify(e).xreplace(dict(zip(syms, p))) for e in grads]
            n2 = sp.Add(*[v**2 for v in g])
            if n2.free_symbols or n2.has(sp.nan, sp.zoo) or n2.is_positive is not True:
                continue
            shown = mpmath.nstr(mpmath.mpf(sp.N(sp.sqrt(n2), 25)), 20)
        except (TypeError, ValueError, ZeroDivisionError, AttributeError):
            continue
        return [_short(v) for v in p], shown
    return None, None


def lemma_31_route(mech, timeout_ms: int) -> ProofOutcome:
    spec, q = mech.spec, mech.query
    gamma = spec.bound.gamma
    ids = ("B_positive", "cover", "smooth", "continuity")
    if spec.bound.kind != BoundKind.SMOOTH_SENSITIVITY:
        reason = f"bound kind {spec.bound.kind}: a callable, no expression to reason about"
        return ProofOutcome([Check(f"proof.{c}", UNKNOWN, "none", reason) for c in ids], [], None, route="none")
    if q.expr is None or q.lipschitz is None:
        reason = ("Lemma 3.1 needs f to be Lambda-locally Lipschitz with a known constant; "
                  + ("the query is a python callable" if q.expr is None else "the model states no constant"))
        return ProofOutcome([Check(f"proof.{c}", UNKNOWN, LEMMA_31, reason) for c in ids], [], None, route="theorem")
    K = q.lipschitz
    # The premise is proved in the Euclidean norm; in another norm ||.||, ||v||_2 <= C ||v|| with
    # C = metric.dual_scale() (equivalently ||g||_* <= C |g|), so f is C K-Lipschitz in it.
    metric = mech.metric
    in_metric = "" if metric.euclidean else (f"; in the {metric.label} metric, ||v||_2 <= C ||v|| with "
                                             f"C = {metric.dual_scale()}, so f is C K-Lipschitz there")
    P = Prover(None, timeout_ms, f=q.expr, B=None, syms=q.symbols, gamma=gamma, growth=spec.bound.growth,
               Lambda=spec.bound.Lambda, numeric=False)
    try:
        leaves = rg.leaves(q.expr, None)
    except zb.Unsupported as err:
        leaves, err_text = [], str(err)
    else:
        err_text = ""
    lip = [P.discharge(obl.lipschitz(leaf, P.syms, K)).status == zb.UNSAT for leaf in leaves]
    cont = [P.discharge(o).status == zb.UNSAT for o in obl.continuity(q.expr, "f")]
    dfn = [P.discharge(o).status == zb.UNSAT for o in obl.defined(q.expr, "f")]
    lip_ok = bool(leaves) and all(lip) and all(cont) and all(dfn)
    point, gnorm = _nonconstant_point(q)
    checks = [Check("proof.defined", CERTIFIED if all(dfn) else UNKNOWN,
                    summary(P.records, "defined") if dfn else "no partial function in f",
                    "f is defined on the closure of every piece" if all(dfn) else "f's definedness not proved",
                    evidence(P, "defined")),
              Check("proof.lipschitz", CERTIFIED if lip_ok else UNKNOWN,
                    summary(P.records, "lipschitz") + (" + " + summary(P.records, "continuity") if cont else ""),
                    (f"f is globally K-Lipschitz, K = {K}: |grad f| <= K on {len(leaves)} region(s), f continuous"
                     if lip_ok else f"not shown: |grad f| <= K = {K} proved on {sum(lip)} of {len(leaves)} region(s)"
                     + ("" if all(cont) else ", f not shown continuous across its pieces")
                     + ("" if all(dfn) else ", f not shown defined"))
                    + (f" ({err_text})" if err_text else "") + in_metric,
                    evidence(P, "lipschitz", {"K": str(K)}))]
    premise = "f Lambda-locally Lipschitz (proof.lipschitz)"
    st = CERTIFIED if lip_ok else UNKNOWN
    checks.append(Check("proof.B_positive", st if point else UNKNOWN, LEMMA_31,
                        f"B*(x) >= L(z)/g(x,z) > 0: |grad f| = {gnorm} at z = {point}" if point else
                        "no point with grad f != 0 found: B* may vanish"))
    checks.append(Check("proof.cover", st, LEMMA_31,
                        f"condition 1: B* >= L_(f,Lambda) >= |grad f| (a = 1); premise: {premise}"))
    checks.append(Check("proof.smooth", st, LEMMA_31,
                        f"condition 2: B*(x) <= g(x,x') B*(x'), so |grad ln B*| <= gamma = {gamma} (c = gamma); "
                        f"premise: {premise}"))
    checks.append(Check("proof.continuity", st, LEMMA_31 + " + z3 unsat (f)",
                        "f continuous across its pieces (proved); B* continuous by condition 2" if all(cont) else
                        "f not shown continuous across its pieces (a jump leaves f without a Lipschitz constant)"))
    why = two_point_needed(spec)
    for c in ("two_point_cover", "two_point_smooth"):
        checks.append(Check(f"proof.{c}", SKIPPED, "none", SKIP_TWO_POINT) if why is None else
                      Check(f"proof.{c}", st, LEMMA_31, f"Definition 8 holds for B* (needed: {why}); premise: {premise}"))
    regions = []
    if all_hold(c.status for c in checks):
        regions = [RegionRate("all (B* of Definition 9)", sp.Integer(1), sp.sympify(gamma))]
    return ProofOutcome(checks, regions, None, P.records, leaves, "theorem",
                        {"all": {"a": sp.Integer(1), "c": gamma, "a_status": st, "c_status": st}})
