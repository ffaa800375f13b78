"""The certificate and the verdict of a mechanism with vector outputs (output.dim k > 1).

With s(x) = B(x)/eta and r = ||y - f(x)||_2 / s, along a segment x(t) (||x'(t)||_m = 1)

    |d/dt ln p_x(y)| <= eta a |psi(r)| + c |k + r psi(r)|,

a >= ||J_f||_{m -> 2} / B and c >= ||grad ln B||_* (docs/certificate.md).  This module is a
generator: it proposes regions (the pieces of f and of B), the constants a_R and c_R (exact where
J_f and B are constant on a region, else a sampled supremum written as a short exact number) and
the bound E on the rate (python-flint arb, family_sup); the kernel derives every obligation from
the mechanism and decides it (kernel.certificate).  Only the kernel's Verified certifies.
"""

from __future__ import annotations

import itertools

import mpmath
import numpy as np
import sympy as sp

from ..audit.vector import audit_vector
from ..kernel import certificate as kc
from ..kernel import numbers
from ..kernel.decide import Evidence, decide
from ..model.usercode import user_code_checks
from ..spec.types import Norm
from ..verdict import CERTIFIED, REFUTED, SKIPPED, UNKNOWN, Check, Result
from . import handoff
from .family_sup import enclose_rate


def _pieces(F):
    """[(conditions, value)] of a Piecewise (or one piece true): piece i holds where its condition
    does and no earlier one."""
    if not isinstance(F, sp.Piecewise):
        return [((), F)]
    out, earlier = [], []
    for val, cond in F.args:
        out.append((tuple(c for c in [cond] + [sp.Not(e) for e in earlier] if c is not sp.true), val))
        earlier.append(cond)
    return out


def _query_pieces(mech):
    syms = mech.query.symbols
    if mech.spec.query.kind == "identity":
        return [((), tuple(syms))]
    out, earlier = [], []
    for p in mech.spec.query.pieces:
        out.append((tuple(c for c in [p.where] + [sp.Not(e) for e in earlier] if c is not sp.true), tuple(p.value)))
        earlier.append(p.where)
    return out


def _op_norm_exact(J, metric, weights):
    """||J||_{m -> 2} for a constant matrix J (sympy), exactly."""
    J = sp.Matrix(J)
    d = J.shape[1]
    if metric == Norm.L2:
        A = J * sp.diag(*[1 / w for w in weights])
        eig = (A.T * A).eigenvals()
        return sp.sqrt(sp.Max(*eig))
    if metric == Norm.L1:
        return sp.Max(*[sp.sqrt(sum(J[i, j]**2 for i in range(J.shape[0]))) / weights[j] for j in range(d)])
    return sp.Max(*[sp.sqrt(sum((sum(J[i, j] * s[j] / weights[j] for j in range(d)))**2 for i in range(J.shape[0])))
                    for s in itertools.product((-1, 1), repeat=d)])


def _sampled_sup(fn, conds, syms, rng, n=4000):
    """The largest value of fn (float64, on rows) over random points of the region (0.0 if none)."""
    d = len(syms)
    X = rng.standard_normal((n, d)) * rng.choice([0.1, 1.0, 10.0, 100.0], (n, 1))
    if conds:
        test = sp.lambdify(syms, sp.And(*conds), "numpy")
        with np.errstate(all="ignore"):
            X = X[np.broadcast_to(np.asarray(test(*X.T), bool), (len(X),))]
    if not len(X):
        return 0.0
    with np.errstate(all="ignore"):
        v = fn(X)
    v = v[np.isfinite(v)]
    return float(v.max()) if v.size else float("inf")


def _short(v: float) -> list:
    """Short exact numbers at or above a sampled supremum v, best first: the simplest rational, or
    square root of one, within 1e-9 (relative), else v rounded up to 8 digits; then v rounded up
    to 2 and to 1 significant digits (a sample may miss the supremum: the kernel decides)."""
    if not np.isfinite(v):
        return []
    tol = 1e-9 * max(1.0, abs(v))
    out = []
    for guess in (sp.nsimplify(v, tolerance=tol, rational=True),
                  sp.sqrt(sp.nsimplify(v * v, tolerance=tol, rational=True))):
        if len(str(guess)) <= 12 and float(guess) >= v - tol:
            out.append(guess)
            break
    else:
        out.append(sp.Rational(numbers.decimal_up(mpmath.mpf(v) * (1 + mpmath.mpf(10)**-6), 8)))
    for digits in (2, 1):
        up = sp.Rational(numbers.decimal_up(mpmath.mpf(v) * (1 + mpmath.mpf(10)**-9), digits)) if v > 0 else sp.Integer(0)
        if up not in out and up > out[0]:
            out.append(up)
    return out


def _constants(mech, fvals, B, rng):
    """(a, c) proposed for one region: exact where J_f and B are constant there."""
    syms, m = mech.query.symbols, mech.metric
    J = [[sp.diff(fj, s) for s in syms] for fj in fvals]
    weights = [sp.sympify(w) for w in m.w_exact]
    constant = not any(e.free_symbols for row in J for e in row) and not sp.sympify(B).free_symbols
    if constant:
        try:        # exact where sympy orders the eigenvalues (a cubic's roots may not be comparable)
            exact = sp.nsimplify(_op_norm_exact(J, m.kind, weights) / B)
        except (ValueError, TypeError):
            exact = None
        if exact is not None and sp.nsimplify(exact**2).is_Rational:      # z3 decides a rational square fast
            return [exact], [sp.Integer(0)]
        value = float(exact) if exact is not None else None
        if value is None:
            A = np.array(sp.Matrix(J) * sp.diag(*[1 / w for w in weights]), dtype=float)
            value = float(np.linalg.norm(A, 2) / float(B)) if m.kind == Norm.L2 else float("inf")
        return _short(value), [sp.Integer(0)]
    Jf = sp.lambdify(syms, sp.Matrix(J), "numpy")
    Bf = sp.lambdify(syms, B, "numpy")
    gl = sp.lambdify(syms, [sp.diff(sp.log(B), s) for s in syms], "numpy")
    w = np.array([float(x) for x in weights])

    def a_of(X):
        out = np.empty(len(X))
        for i, x in enumerate(X):
            A = np.array(Jf(*x), float).reshape(len(fvals), len(syms)) / w
            out[i] = (np.linalg.norm(A, 2) if m.kind == Norm.L2
                      else np.linalg.norm(A, axis=0).max() if m.kind == Norm.L1
                      else max(np.linalg.norm(A @ np.array(s)) for s in itertools.product((-1, 1), repeat=len(syms))))
        return out / np.broadcast_to(Bf(*X.T), (len(X),))

    def c_of(X):
        G = np.array([np.broadcast_to(g, (len(X),)) for g in gl(*X.T)], float).T
        return m.dual_np(G)
    return a_of, c_of


def propose(mech, seed=0) -> list:
    """Candidate region lists for the kernel Certificate, best first: the regions (the pieces of f
    and of B) with constants a_R, c_R, exact where J_f and B are constant on a region, else
    sampled suprema written short and then rounded up (at most 3 candidates)."""
    rng = np.random.default_rng(seed)
    parts = []
    for (i, (fc, fv)), (j, (bc, bv)) in itertools.product(enumerate(_query_pieces(mech), 1),
                                                          enumerate(_pieces(mech.bound.expr), 1)):
        conds = fc + bc
        got = _constants(mech, fv, bv, rng)
        if callable(got[0]):     # sampled suprema
            a = _short(_sampled_sup(got[0], conds, mech.query.symbols, rng))
            c = _short(_sampled_sup(got[1], conds, mech.query.symbols, rng))
            if not a or not c:
                return []
        else:
            a, c = got
        parts.append((f"f{i}.B{j}", conds, fv, bv, a, c))
    return [[kc.Region(label, conds, (kc.Alternative((), fv, bv),), a[min(n, len(a) - 1)], c[min(n, len(c) - 1)])
             for label, conds, fv, bv, a, c in parts]
            for n in range(max(max(len(p[4]), len(p[5])) for p in parts))]


def certify_vector(mech, epsilon_lower=None):
    """(Verified or None, checks, epsilon_upper, certificate JSON or None)."""
    checks, rejected = [], []
    if mech.query.expr is None:
        checks.append(Check("certificate.rate", UNKNOWN, "none", "a python query with output.dim > 1 is not "
                            "traced into a formula, so no certificate is built (the audit can still refute)"))
        return None, checks, None, None
    eps = sp.sympify(mech.epsilon)
    rate_check, cert_json = None, None
    for regions in propose(mech, seed=mech.spec.audit.seed):
        upper, lower = mpmath.mpf(0), mpmath.mpf(0)
        for r in {(r.a, r.c): r for r in regions}.values():
            enc = enclose_rate(mech.family, sp.sympify(mech.eta) * r.a, r.c)
            upper, lower = max(upper, enc.upper), max(lower, enc.lower)
        ev = {"regions": [{"region": r.label, "a": str(r.a), "c": str(r.c)} for r in regions],
              "upper": numbers.decimal_up(upper, 20), "lower": numbers.decimal_down(lower, 20), "k": mech.k}
        if not mpmath.isfinite(upper) or numbers.le(lower, eps) is not True:
            why = ("the pure rate is unbounded for this family (an unbounded score, or c_R > 0 with k + u psi "
                   "unbounded)" if not mpmath.isfinite(upper)
                   else f"the proposed constants give a rate of at least {mpmath.nstr(lower, 10)}")
            rate_check = rate_check or Check("certificate.rate", UNKNOWN, "arb branch-and-bound", why, ev)
            continue
        E = numbers.exact(upper) if numbers.le(upper, eps) is True else eps     # a tie: the kernel decides
        rate_check = Check("certificate.rate", CERTIFIED, "arb branch-and-bound",
                           f"eta a_R |psi(u)| + c_R |{mech.k} + u psi(u)| in [{mpmath.nstr(lower, 10)}, "
                           f"{mpmath.nstr(upper, 10)}]; handed to the kernel as E = {E}", ev)
        cert = kc.Certificate("regions", tuple(regions), E)
        cert_json = handoff.to_json(cert)
        try:
            v = kc.check(handoff.problem(mech), cert)
        except kc.Rejected as err:
            rejected = [o.name for o in err.outcomes if not o.holds]
            continue
        checks.append(rate_check)
        checks.append(Check("kernel.certificate", CERTIFIED, KERNEL,
                            f"{len(v.outcomes)} obligations of route {v.route} hold; rate <= "
                            f"{numbers.decimal_up(v.epsilon_upper, 12)}", {"obligations": len(v.outcomes)}))
        return v, checks, v.epsilon_upper, cert_json
    checks.append(rate_check or Check("certificate.rate", UNKNOWN, "none", "no finite constants a_R, c_R were found"))
    if rejected:
        checks.append(Check("kernel.certificate", UNKNOWN, KERNEL,
                            f"the kernel did not accept the certificate: {', '.join(rejected[:6])}", {"failed": rejected}))
    if mech.delta != 0:
        checks.append(Check("certificate.delta", UNKNOWN, "none",
                            "no route for (epsilon, delta) claims with output.dim > 1 beyond the pure rate "
                            "(docs/certificate.md)"))
    return None, checks, None, cert_json


KERNEL = "kernel: every obligation re-derived and decided (z3, no cache)"


def check_vector(spec, mech, seed, effort, t0) -> Result:
    """`gpaudit check` of a configuration with output.dim > 1: the audit in R^k (pure claims: a
    verified witness refutes), then the certificate through the kernel."""
    import time
    witness, eps_lower, stats = (None, None, {}) if mech.delta != 0 else audit_vector(mech, seed, effort)
    info = {"audit": stats, "bound_source": mech.bound.source, "family": mech.family.name,
            "output_dim": mech.k, "binary_floats": list(spec.binary_floats)}
    method = "float64 screen + mpmath (50 and 100 digits), outputs in R^k"
    if mech.delta != 0:
        audit_checks = [Check("privacy.loss", SKIPPED, method, "not needed: a pointwise rate refutes no delta > 0 "
                              "claim, and output.dim > 1 has no hockey-stick search yet")]
    elif witness:
        audit_checks = [Check("privacy.loss", REFUTED, method, f"ln p_x(y) - ln p_x'(y) = {witness['log_ratio'][:14]} "
                              f"> epsilon*dist = {witness['epsilon_times_dist'][:14]}", stats)]
    else:
        audit_checks = [Check("privacy.loss", UNKNOWN, method, f"no violating (x, x', y) among {stats['pairs']} pairs; "
                              f"largest verified rate {mpmath.nstr(eps_lower, 8) if eps_lower is not None else 'n/a'}",
                              stats)]
    verified, cert_checks, upper, cert_json = (None, [], None, None) if witness else certify_vector(mech, eps_lower)
    if cert_json is not None:
        info["certificate"] = cert_json
    within = verified is not None
    # the verified rate carries the verification's 1e-30 (relative) tolerance: a tie is consistent
    with mpmath.workdps(100):
        inconsistent = (within and eps_lower is not None
                        and numbers.le(eps_lower * (1 - mpmath.mpf(10) ** -30), upper) is False)
    users = [c.user for c in mech.query.components if c.user is not None]
    exact = witness is not None and mech.exact_model and all(
        u.exact_at([float(v) for v in witness[key]]) for u in users for key in ("x", "x_prime"))
    found = {c.detail: c for c in user_code_checks(users)}      # the k components call one function
    cert_checks = list(cert_checks) + list(found.values())
    if witness is not None and not exact:
        info["approximate_witness"] = witness
    ev = Evidence(witness=witness is not None, witness_exact=exact,
                  within_claim=within,
                  certificate_checks=tuple(c.status for c in cert_checks), verified=verified,
                  inconsistent=inconsistent)
    decision = decide(ev)
    info["decision"] = {"rule": decision.rule, "reason": decision.reason}
    if decision.verdict == UNKNOWN:
        info["advice"] = ("output.dim > 1: only pure claims of the radial laplace / student_t families with a "
                          "constant or piecewise B have a route (docs/certificate.md)")
    info["seconds"] = round(time.perf_counter() - t0, 3)
    claim = {"epsilon": str(spec.claim.epsilon), "delta": str(spec.claim.delta), "metric": mech.metric.label}
    if witness is not None and not exact:
        audit_checks = [Check(c.id, UNKNOWN, c.method, c.detail + " (on an approximate model: evidence only)",
                              c.evidence) for c in audit_checks]
    return Result(spec.name, spec.path, spec.sha256, decision.verdict, claim, eps_lower, upper,
                  witness if decision.verdict == REFUTED else None, audit_checks + cert_checks, info, decision)
