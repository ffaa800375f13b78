"""What the pipeline hands the kernel: the mechanism as a `Problem`, its proof as a `Certificate`.

The proof stage and the family supremum are generators: they search for regions and constants.
This module writes what they found as a kernel `Certificate` (nothing here decides anything: the
kernel re-derives and decides every obligation), and writes and reads the certificate as JSON data
(`certificate` in the JSON report) for `gpaudit verify`.  Formulas travel in the configuration's own
expression language and are read back with its safe parser (`gpaudit.spec.expr`).
"""

from __future__ import annotations

import dataclasses
import functools

import sympy as sp
from sympy.printing.str import StrPrinter

from ..errors import FieldError
from ..kernel import certificate as kc
from ..kernel import numbers
from ..model.family_base import U as FAMILY_U
from ..spec.expr import parse_expr
from ..spec.types import input_symbols

FORMAT = 1


def problem(mech) -> kc.Problem:
    """The kernel's view of a mechanism and its claim, exactly as the configuration states them."""
    spec, fam = mech.spec, mech.family
    shape = {sp.Symbol(f.name, positive=True): sp.sympify(getattr(fam, f.name)) for f in dataclasses.fields(fam)}

    def exact_shape(e):
        e = sp.sympify(e).xreplace(shape).xreplace({FAMILY_U: kc.U})
        return e.replace(lambda t: type(t).__name__ == "log1p", lambda t: sp.log(1 + t.args[0]))
    dens = fam.density
    return kc.Problem(
        syms=tuple(input_symbols(spec.dim)), f=mech.query.expr, B=mech.bound.expr, k=spec.output_dim,
        metric=mech.metric.kind, weights=tuple(sp.sympify(w) for w in mech.metric.w_exact),
        family=fam.name, log_density=tuple(exact_shape(p) for p in dens.pieces),
        breaks=tuple(exact_shape(b) for b in dens.breaks),
        eta=sp.sympify(mech.eta), gamma=sp.sympify(spec.bound.gamma), growth=spec.bound.growth,
        Lambda=sp.sympify(spec.bound.Lambda), epsilon=sp.sympify(spec.claim.epsilon),
        delta=sp.sympify(spec.claim.delta), bound_kind=spec.bound.kind)


def from_proof(mech, proof, epsilon_upper, delta_route=None, tie=False) -> kc.Certificate:
    """The certificate of what the proof stage and the rate's enclosure found.  `tie`: the rate
    meets the claim exactly, so the bound handed over is the claim itself."""
    spec = mech.spec
    E = sp.sympify(spec.claim.epsilon) if tie else (
        None if epsilon_upper is None else numbers.exact(epsilon_upper))
    if proof.route == "theorem":
        regions = tuple(kc.Region(l.label, tuple(l.conds), tuple(kc.Alternative(tuple(a.conds), a.f, None)
                                                               for a in l.alts), sp.Integer(1), sp.sympify(spec.bound.gamma),
                                  _base(l.base))
                        for l in proof.leaves)
        cert = kc.Certificate("lemma_3_1", regions, E, delta_route, sp.sympify(mech.query.lipschitz), None)
        return dataclasses.replace(cert, point=_interior_point(mech, cert))
    return kc.Certificate("regions", regions_of(proof.leaves, proof.rates), E, delta_route)


def regions_of(leaves, rates=None, partial=False) -> tuple:
    """The kernel's regions of the proof stage's leaves (route `regions`), with their constants a_R,
    c_R from `rates` (leaf label -> {"a", "c"}); without rates (or, `partial`, for a label rates does
    not have yet), None: what the kernel reads of the regions before their rates are found
    (kernel.certificate.prepare)."""
    def const(label, key):
        return None if rates is None or partial and label not in rates else sp.sympify(rates[label][key])
    return tuple(kc.Region(l.label, tuple(l.conds), tuple(kc.Alternative(
                               tuple(a.conds), _settled(a.f, l.conds + a.conds), _settled(a.B, l.conds + a.conds))
                           for a in l.alts), const(l.label, "a"), const(l.label, "c"), _base(l.base))
                 for l in leaves)


def _settled(expr, conds):
    """expr with each Piecewise inside it replaced by the branch that holds on the whole region
    (z3 shows the region's conditions imply that branch's; where none is shown, expr is kept, and
    the kernel refuses a region formula that is not smooth).  A wrong choice is not unsound: the
    kernel compares the region's formula with the configuration's (agrees)."""
    if expr is None or not expr.has(sp.Piecewise):
        return expr
    from ..kernel import z3door as zb

    def implied(cond):
        try:
            tr = zb.Translator()
            q = tr.query(zb.conj(*[tr(c) for c in conds], tr(sp.Not(cond))))
        except zb.Unsupported:
            return False
        return zb.solve(q, 2000).status == zb.UNSAT

    def settle(pw):
        earlier = []
        for val, cond in pw.args:
            if implied(sp.And(cond, *[sp.Not(e) for e in earlier])):
                return val
            earlier.append(cond)
        return pw
    for node in sorted(expr.atoms(sp.Piecewise), key=lambda n: len(str(n))):
        if node in expr.atoms(sp.Piecewise):
            expr = expr.xreplace({node: settle(node)})
    return expr


def _base(label: str) -> tuple:
    """The pieces (of f, and of B) a proof leaf was refined from: its base label 'f3.B2' -> (3, 2)."""
    try:
        return tuple(int(part[1:]) for part in label.split("."))
    except ValueError:
        return ()


def _interior_point(mech, cert):
    """An exact point strictly inside a region where grad f != 0 (the kernel's B* > 0 premise):
    tried at the query's landmarks and at fractions of its scale beside them, first that the
    kernel's own test accepts."""
    from ..kernel.certificate import nonconstant_at
    from ..prove.theorem import _exact_points
    q = mech.query
    scale = numbers.exact(float(q.scale)) if q.scale else sp.Integer(1)
    steps = [sp.Integer(0)] + [sign * sp.Rational(k) for k in ("1/3", "1/7", "1", "3") for sign in (1, -1)]
    marks = list(_exact_points(q)) + [tuple(numbers.exact(float(c)) for c in m) for m in q.landmarks]
    for mark in marks:                    # in exact arithmetic: a step of 1 beside 1e300 is not lost
        for k in range(len(mark)):
            for t in steps:
                pt = list(mark)
                pt[k] = sp.sympify(pt[k]) + t * scale
                if nonconstant_at(q.symbols, cert, tuple(pt)):
                    return tuple(pt)
    return None


# -- JSON -------------------------------------------------------------------------------------

class _Printer(StrPrinter):
    """sympy -> the configuration's expression language (read back by spec.expr.parse_expr)."""

    def _print_Abs(self, e):
        return f"abs({self._print(e.args[0])})"

    def _print_Max(self, e):
        return "max(" + ", ".join(self._print(a) for a in e.args) + ")"

    def _print_Min(self, e):
        return "min(" + ", ".join(self._print(a) for a in e.args) + ")"

    def _print_Exp1(self, e):
        return "e"

    def _print_Pi(self, e):
        return "pi"

    def _print_Infinity(self, e):
        return "inf"

    def _print_And(self, e):
        return "(" + " and ".join(f"({self._print(a)})" for a in e.args) + ")"

    def _print_Or(self, e):
        return "(" + " or ".join(f"({self._print(a)})" for a in e.args) + ")"

    def _print_Not(self, e):
        return f"(not ({self._print(e.args[0])}))"

    def _print_Equality(self, e):
        a, b = self._print(e.lhs), self._print(e.rhs)
        return f"(({a}) <= ({b}) and ({a}) >= ({b}))"

    def _print_Unequality(self, e):
        a, b = self._print(e.lhs), self._print(e.rhs)
        return f"(({a}) < ({b}) or ({a}) > ({b}))"

    def _print_BooleanTrue(self, e):
        return "0 <= 0"

    def _print_BooleanFalse(self, e):
        return "0 < 0"

    def _print_Piecewise(self, e):
        raise ValueError("a Piecewise inside a certificate formula")


@functools.lru_cache(maxsize=4096, typed=True)
def text(e) -> str:
    """e in the configuration's expression language (memoised: regions repeat their pieces' conditions)."""
    return _Printer().doprint(e)


def to_json(cert: kc.Certificate) -> dict:
    def alt(a):
        return {"conditions": [text(c) for c in a.conds], "f": [text(fj) for fj in a.f] if isinstance(a.f, tuple) else text(a.f),
                "B": None if a.B is None else text(a.B)}
    return {
        "format": FORMAT, "route": cert.route, "delta_route": cert.delta_route,
        "epsilon_upper": None if cert.epsilon_upper is None else text(cert.epsilon_upper),
        "epsilon_upper_decimal": None if cert.epsilon_upper is None else numbers.decimal_up(cert.epsilon_upper, 20),
        "lipschitz": None if cert.lipschitz is None else text(cert.lipschitz),
        "point": None if cert.point is None else [text(v) for v in cert.point],
        "regions": [{"label": r.label, "conditions": [text(c) for c in r.conds], "alternatives": [alt(a) for a in r.alts],
                     "a": text(r.a), "c": text(r.c),
                     "a_decimal": numbers.decimal_up(r.a, 20), "c_decimal": numbers.decimal_up(r.c, 20),
                     "pieces": list(r.pieces)}
                    for r in cert.regions],
    }


def from_json(data, dim: int) -> kc.Certificate:
    """Read a certificate back (FieldError naming the field on anything malformed)."""
    syms = input_symbols(dim)
    names = {s.name: s for s in syms}

    def num(v, where):
        if v is None:
            return None
        try:
            return parse_expr(str(v), {})
        except FieldError as err:
            raise FieldError(err.problem, f"certificate.{where}") from None

    def expr(v, where, allow_bool=False):
        try:
            return parse_expr(str(v), names, allow_bool=allow_bool)
        except FieldError as err:
            raise FieldError(err.problem, f"certificate.{where}") from None
    if not isinstance(data, dict):
        raise FieldError("expected an object", "certificate")
    if data.get("format") != FORMAT:
        raise FieldError(f"unknown format {data.get('format')!r} (this gpaudit reads {FORMAT})", "certificate.format")
    if data.get("route") not in ("regions", "lemma_3_1"):
        raise FieldError(f"unknown route {data.get('route')!r}", "certificate.route")
    regions = []
    for i, r in enumerate(data.get("regions") or []):
        at = f"regions[{i}]"
        try:
            alts = tuple(kc.Alternative(tuple(expr(c, f"{at}.alternatives[{k}].conditions", True) for c in a["conditions"]),
                                        tuple(expr(fj, f"{at}.alternatives[{k}].f[{j}]") for j, fj in enumerate(a["f"]))
                                        if isinstance(a["f"], list) else expr(a["f"], f"{at}.alternatives[{k}].f"),
                                        None if a.get("B") is None else expr(a["B"], f"{at}.alternatives[{k}].B"))
                         for k, a in enumerate(r["alternatives"]))
            regions.append(kc.Region(str(r["label"]), tuple(expr(c, f"{at}.conditions", True) for c in r["conditions"]),
                                     alts, num(r["a"], f"{at}.a"), num(r["c"], f"{at}.c"),
                                     tuple(int(i) for i in r.get("pieces") or ())))
        except FieldError:
            raise
        except (KeyError, TypeError, ValueError):
            raise FieldError("a region needs label, conditions, alternatives, a and c", f"certificate.{at}") from None
    point = data.get("point")
    return kc.Certificate(data["route"], tuple(regions), num(data.get("epsilon_upper"), "epsilon_upper"),
                          data.get("delta_route"), num(data.get("lipschitz"), "lipschitz"),
                          None if point is None else tuple(num(v, "point") for v in point))
