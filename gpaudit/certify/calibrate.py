"""`gpaudit calibrate`: the least noise whose privacy is certified at a target epsilon.

The certificate rate max_R sup_u [eta a_R |psi(u)| + c_R |1 + u psi(u)|] is non-decreasing in eta,
and a_R, c_R do not depend on eta, so the largest certified eta is found by bisection over exact
rationals: every candidate is accepted only when the arb enclosure's upper end is <= epsilon.
Optionally the (gamma, eta) split is chosen to minimise the noise's standard deviation
B_gamma(x) / eta * sd(Z), averaged over given inputs.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

import mpmath
import numpy as np
import sympy as sp
import yaml

from ..model.mechanism import build_mechanism, mp_exact
from ..spec.load import load_spec, spec_from_mapping
from .family_sup import enclose_rate
from .family_z3 import prove_rate_at_most
from ..verdict import all_hold
from .pipeline import at_most_claim, bound_conditions, exact

TOL = 1e-10


class Uncalibratable(Exception):
    """No eta can be certified, for a reason that no amount of noise changes (the message)."""


@dataclass
class Calibration:
    eta: sp.Rational
    gamma: sp.Expr
    rate_upper: mpmath.mpf
    regions: list
    std_at_inputs: float | None = None


def _rate(family, regions, eta):
    """(lower, upper) of the certificate rate at eta: lower is attained, upper is guaranteed."""
    lo, up = mpmath.mpf(0), mpmath.mpf(0)
    for _, a, c in regions:
        enc = enclose_rate(family, eta * exact(a), exact(c), tol=TOL)
        lo, up = max(lo, enc.lower), max(up, enc.upper)
    return lo, up


def _z3_proves(family, regions, eta, epsilon) -> bool:
    return all(prove_rate_at_most(family, eta * exact(a), exact(c), epsilon)[0] == "certified"
               for _, a, c in regions)


def _bisect(ok, iters):
    """The largest eta in (0, inf) with ok(eta), for ok monotone (true, then false); None if none."""
    lo, probe = Fraction(0), Fraction(1, 64)
    for _ in range(60):  # an upper bracket: the rate grows at least like eta * a * sup|psi|
        if not ok(probe):
            break
        lo, probe = probe, probe * 2
    else:
        return None  # no finite largest eta (the rate does not depend on eta)
    hi = probe
    for _ in range(iters):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if ok(mid) else (lo, mid)
    return lo


def max_eta(mech, epsilon, iters=60):
    """(eta, certified rate, regions, checks): the largest eta (a short exact rational) whose rate is
    certified <= epsilon, or eta None.  Where the rate meets epsilon exactly over a range of eta
    (PolyPlace: alpha * max(eta, gamma)), the enclosure can never certify and z3 decides the tie."""
    regions, checks, _ = bound_conditions(mech)
    if not regions or not all_hold(c.status for c in checks):
        return None, None, regions, checks
    fam = mech.family
    if not mpmath.isfinite(_rate(fam, regions, sp.Rational(1, 64))[1]):
        # a_R and c_R do not depend on eta: a c_R |1 + u psi(u)| term unbounded in u stays so at every eta
        raise Uncalibratable(
            f"the pure loss rate of {fam.name} noise with this bound is unbounded at every eta "
            "(c_R |1 + u psi(u)| grows without limit in u, as for Laplace noise with gamma > 0); "
            "calibrate tunes the pure (delta = 0) certificate only"
            + ("; for this delta > 0 claim choose eta by the paper's formula (Lemma 3.6 for linear "
               "growth: epsilon = eta + gamma ln(1/delta)) or scan it with `gpaudit sweep --vary eta=...`"
               if mech.spec.claim.delta != 0 else
               "; use a heavy-tailed family (student_t, gen_cauchy, polyplace) or claim delta > 0"))
    best = _bisect(lambda e: at_most_claim(_rate(fam, regions, sp.Rational(e))[1], epsilon), iters)
    if best:
        short = _round_down(best)
        if not at_most_claim(_rate(fam, regions, sp.Rational(short))[1], epsilon):  # pragma: no cover
            short = best
        eta = sp.Rational(short.numerator, short.denominator)
        return eta, _rate(fam, regions, eta)[1], regions, checks
    edge = _bisect(lambda e: at_most_claim(_rate(fam, regions, sp.Rational(e))[0], epsilon), iters)
    if edge:
        for cand in (sp.nsimplify(float(edge), rational=True, tolerance=1e-9), _round_down(edge)):
            cand = sp.Rational(cand)
            if cand > 0 and _z3_proves(fam, regions, cand, sp.sympify(epsilon)):
                return cand, mp_exact(epsilon), regions, checks
    return None, None, regions, checks


def _round_down(x: Fraction, digits=10) -> Fraction:
    """x rounded down to a decimal with `digits` significant digits (a readable exact value)."""
    if x <= 0:
        return x
    e = int(np.floor(np.log10(float(x)))) - digits + 1
    scale = Fraction(10) ** (-e)
    return Fraction(int(x * scale)) / scale


def _std_at(mech, eta, inputs):
    var = mech.family.variance_mp()
    if not mpmath.isfinite(var):
        return None
    B = mech.bound.B_np(np.asarray(inputs, float))
    return float(np.mean(B) / float(eta) * float(mpmath.sqrt(var)))


def calibrate(spec, epsilon, inputs=None, gammas=None) -> Calibration | None:
    """The largest certified eta at the configured gamma; with `inputs`, the best (gamma, eta)."""
    epsilon = sp.sympify(epsilon)
    if inputs is None:
        eta, rate, regions, _ = max_eta(build_mechanism(spec), epsilon)
        return None if eta is None else Calibration(eta, spec.bound.gamma, rate, regions)
    best = None
    for g in gammas if gammas is not None else [epsilon * sp.Rational(k, 40) for k in range(1, 40)]:
        s = replace(spec, bound=replace(spec.bound, gamma=sp.sympify(g)))
        mech = build_mechanism(s)
        eta, rate, regions, _ = max_eta(mech, epsilon, iters=40)
        if eta is None:
            continue
        std = _std_at(mech, eta, inputs)
        if std is None:
            return None
        if best is None or std < best.std_at_inputs:
            best = Calibration(eta, sp.sympify(g), rate, regions, std)
    return best


def write_calibrated(src_path, out_path, cal: Calibration, epsilon):
    """Copy the configuration with eta, gamma and the claimed epsilon replaced by exact values.

    The copy is a round trip (ruamel.yaml): comments, key order and flow style stay as written, and
    each replaced value carries a comment with the value it replaced; a parameter that no longer
    feeds the value it named (params.eta after noise.eta: eta is replaced) is marked as such."""
    import io

    from ruamel.yaml import YAML

    rt = YAML()   # round-trip
    rt.preserve_quotes = True
    rt.width = 4096
    with open(src_path, encoding="utf-8") as fh:
        data = rt.load(fh)
    data["name"] = f"{data['name']}-calibrated"
    params = data.get("params") or {}
    src = load_spec(src_path)
    for section, key, value, was in (("noise", "eta", cal.eta, src.noise.eta),
                                     ("bound", "gamma", cal.gamma, src.bound.gamma),
                                     ("claim", "epsilon", sp.sympify(epsilon), src.claim.epsilon)):
        if key != "eta" and sp.simplify(sp.sympify(value) - was) == 0:
            continue   # unchanged gamma or epsilon: the file keeps its own expression
        old = data[section].get(key)
        data[section][key] = _scalar(value)
        data[section].yaml_add_eol_comment(f"calibrated (was {old})", key)
        if isinstance(old, str) and old in params and _unused(data, old):
            params.yaml_add_eol_comment(f"no longer used: {section}.{key} was calibrated", old)
    buf = io.StringIO()
    rt.dump(data, buf)
    text = buf.getvalue()
    spec_from_mapping(yaml.safe_load(text), str(out_path), "")  # never write an invalid file
    with open(out_path, "w", encoding="utf-8") as fh:
        fh.write(f"# written by gpaudit calibrate: largest certified eta at epsilon = {epsilon}\n")
        fh.write(text)


def _scalar(value):
    """An exact value as YAML writes it plainly: an integer as an int, else its exact text (1/3)."""
    value = sp.sympify(value)
    return int(value) if value.is_Integer else str(value)


def _unused(data, name: str) -> bool:
    """Whether parameter ``name`` appears in no value of the configuration outside params."""
    import re
    pattern = re.compile(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])")

    def values(node):
        if isinstance(node, dict):
            for k, v in node.items():
                yield from values(v)
        elif isinstance(node, list):
            for v in node:
                yield from values(v)
        else:
            yield str(node)
    return not any(pattern.search(v) for key in data if key not in ("params", "name", "description")
                   for v in values(data[key]))
