"""Load and validate ``mech.yaml`` (schema version 1) into an exact :class:`Spec`.

Every problem becomes a :class:`ConfigError` naming the file, the field and what is wrong.
"""

from __future__ import annotations

import hashlib
import math
import re
from fractions import Fraction
from dataclasses import replace
from pathlib import Path

import mpmath
import sympy as sp
import yaml

from ..errors import ConfigError, FieldError, did_you_mean
from .expr import parse_expr, numeric_value
from .types import (DERIVED_FROM, AuditOptions, BoundSpec, ClaimSpec, MetricSpec, NoiseSpec, Piece,
                    QueryKind, QuerySpec, Spec, input_symbols)

TOP_FIELDS = {"gpaudit", "name", "description", "params", "input", "output", "query", "bound", "noise",
              "claim", "audit"}
QUERY_FIELDS = {
    "soft_threshold": ({"T", "tau"}, set(), 1),
    "bounded_range": ({"l", "r", "tau"}, set(), 1),
    "two_way_threshold": ({"T1", "T2", "tau"}, set(), 2),
    "gaussian_kde": ({"t", "h"}, set(), None),
    "piecewise": ({"pieces"}, set(), None),
    "python": ({"callable"}, {"args", "landmarks", "scale", "tolerance"}, None),
    "identity": (set(), set(), None),
}
VECTOR_QUERIES = ("identity", "piecewise", "python")     # the query kinds with output.dim k > 1
RADIAL_FAMILIES = ("laplace", "gaussian", "student_t")  # the noise families with output.dim k > 1
BOUND_KINDS = {"smooth_sensitivity": set(), "constant": {"value"}, "piecewise": {"pieces"},
               "python": {"callable"}, "derived": set()}
BOUND_OPTIONAL = {"python": {"args", "tolerance"}}
FAMILY_SHAPES = {"laplace": ({}, set()), "gen_cauchy": ({"theta": 1}, {"p"}),
                 "student_t": ({}, {"nu"}), "polyplace": ({}, {"alpha"}), "gaussian": ({}, set())}
EFFORTS = ("quick", "standard", "thorough")


class _Loader:
    def __init__(self, path: str, lines: dict | None = None):
        self.path = path
        self.lines = lines or {}  # field path -> 1-based line in the file (see field_lines)
        self.names: dict[str, sp.Expr] = {}
        self.binary: list[str] = []
        self.sources: list[tuple[str, str, bytes]] = []  # (field, callable, module source) of python kinds
        self.scalar = False  # input.scalar: python callables get x as one number (1-D)
        self.inexact_floats: list[tuple[str, float]] = []  # YAML floats whose decimal is not their value

    # -- helpers -------------------------------------------------------------------------
    def fail(self, field: str, problem: str):
        raise ConfigError(self.path, field, problem, line_of(self.lines, field))

    def mapping(self, value, field: str, allowed: set, required: set = frozenset()) -> dict:
        if not isinstance(value, dict):
            self.fail(field, f"expected a mapping, got {_kind(value)}")
        for key in value:
            if not isinstance(key, str) or key not in allowed:
                self.fail(f"{field}.{key}" if field else str(key),
                          f"unknown field{did_you_mean(key, allowed)} (allowed: {', '.join(sorted(allowed))})")
        for key in sorted(required):
            if key not in value:
                self.fail(f"{field}.{key}" if field else key, "missing required field")
        return value

    def number(self, value, field: str, *, lo=None, lo_strict=True, hi=None, hi_strict=True,
               allow_inf=False) -> sp.Expr:
        try:
            expr = numeric_value(parse_expr(value, self.names))
        except FieldError as err:
            self.fail(field, err.problem)
        if isinstance(value, float):
            self.binary.append(field)
            self.float_literal(field, value)
        if expr in (sp.oo, -sp.oo):
            if not allow_inf:
                self.fail(field, "must be finite")
            if expr == -sp.oo:
                self.fail(field, "must not be -inf")
            return expr
        try:
            approx = float(sp.N(expr, 30))
        except (TypeError, ValueError, OverflowError):
            approx = float("nan")
        if not (abs(approx) <= 1e300 and (expr == 0 or abs(approx) >= 1e-300)):
            self.fail(field, "value outside the range gpaudit supports (1e-300 .. 1e300 in magnitude)")
        if lo is not None and (expr < lo if not lo_strict else expr <= lo):
            self.fail(field, f"must be {'>' if lo_strict else '>='} {lo}, got {_show(expr)}")
        if hi is not None and (expr > hi if not hi_strict else expr >= hi):
            self.fail(field, f"must be {'<' if hi_strict else '<='} {hi}, got {_show(expr)}")
        return expr

    def constants_in_range(self, expr, field: str):
        """The numbers inside a piece's expression obey the fields' range (1e-300 .. 1e300)."""
        for c in expr.atoms(sp.Rational):
            if c == 0:
                continue
            approx = abs(float(sp.N(c, 30)))
            if not 1e-300 <= approx <= 1e300:
                self.fail(field, f"constant {mpmath.nstr(mpmath.mpf(sp.N(c, 20)), 6)} is outside the range gpaudit supports "
                                 "(1e-300 .. 1e300 in magnitude)")

    def float_literal(self, field: str, value: float):
        """Keep a YAML float whose decimal text is not its binary value (0.1, not 0.5)."""
        if math.isfinite(value) and Fraction(repr(value)) != Fraction(value):
            self.inexact_floats.append((field, value))

    def literal_notes(self, raw) -> tuple[str, ...]:
        """Once per file: how YAML floats such as 0.1 were read (their binary value) and how to
        write the decimal; and each such literal that a formula string also uses (read there as
        the decimal), which makes the same digits two different numbers."""
        if not self.inexact_floats:
            return ()
        shown = ", ".join(f"{f} = {v!r}" for f, v in self.inexact_floats)
        example = repr(self.inexact_floats[0][1])
        notes = [f"YAML floats are read as their exact binary value, not the decimal written: {shown}; "
                 f"to mean the decimal, write it as a fraction ({_as_fraction(example)}) or a quoted string "
                 f"('{example}')"]
        by_value = {Fraction(repr(v)): (f, v) for f, v in self.inexact_floats}
        for field, text in _strings(raw):
            for lit in _NUMBER.findall(text):
                hit = by_value.get(Fraction(lit))
                if hit is not None:
                    notes.append(f"the literal {lit} is read as a binary float in {hit[0]} (a YAML float) but as "
                                 f"the decimal {_as_fraction(lit)} in {field} (a formula): the same digits are two "
                                 "different numbers; name it once in params and use the name in both places")
                    del by_value[Fraction(lit)]
        return tuple(notes)

    # -- sections ------------------------------------------------------------------------
    def header(self, raw) -> tuple[str, str, dict]:
        """(name, description, params) of a top-level mapping whose fields were checked."""
        if raw["gpaudit"] != 1 or isinstance(raw["gpaudit"], bool):
            quoted = " (write it unquoted: gpaudit: 1)" if str(raw["gpaudit"]).strip() == "1" else ""
            self.fail("gpaudit", f"unsupported schema version {raw['gpaudit']!r}{quoted} (this gpaudit reads 1)")
        name = raw["name"]
        if not isinstance(name, str) or not name.strip():
            self.fail("name", "expected a non-empty string")
        desc = raw.get("description", "") or ""
        if not isinstance(desc, str):
            self.fail("description", "expected a string")
        return name, desc, self.params(raw.get("params"))

    def params(self, raw):
        if raw is None:
            return {}
        if not isinstance(raw, dict):
            self.fail("params", f"expected a mapping, got {_kind(raw)}")
        pending = dict(raw)
        for key in pending:
            if not isinstance(key, str) or not key.isidentifier():
                self.fail(f"params.{key}", "parameter names must be identifiers")
            if key in ("pi", "e", "inf", "x") or key.startswith("x") and key[1:].isdigit():
                self.fail(f"params.{key}", "name is reserved")
        # Resolve in dependency order; a name not yet known may be defined later.
        while pending:
            progress = False
            for key in list(pending):
                try:
                    val = numeric_value(parse_expr(pending[key], self.names))
                except FieldError as err:
                    if err.problem.startswith("unknown name") and \
                            err.problem.split("'")[1] in pending:
                        continue
                    self.fail(f"params.{key}", err.problem)
                if isinstance(pending[key], float):
                    self.binary.append(f"params.{key}")
                    self.float_literal(f"params.{key}", pending[key])
                self.names[key] = val
                del pending[key]
                progress = True
            if not progress:
                self.fail("params." + sorted(pending)[0], "circular definition")
        return dict(self.names)

    def pieces(self, raw, field: str, dim: int, k: int = 1) -> tuple[Piece, ...]:
        if not isinstance(raw, list) or not raw:
            self.fail(field, "expected a non-empty list of {where, value}")
        syms = input_symbols(dim)
        names = dict(self.names)
        names.update({str(s): s for s in syms})
        if dim == 1:
            names["x1"] = syms[0]
        out = []
        for i, item in enumerate(raw):
            f = f"{field}[{i}]"
            last = i == len(raw) - 1
            self.mapping(item, f, {"where", "value"}, {"value"} if last else {"where", "value"})
            if k > 1:
                if not isinstance(item["value"], list) or len(item["value"]) != k:
                    self.fail(f + ".value", f"expected a list of {k} expressions (output.dim is {k}), "
                                            f"got {_kind(item['value'])}")
                value = sp.Tuple(*[self.piece_value(v, f"{f}.value[{j}]", names, syms)
                                   for j, v in enumerate(item["value"])])
            else:
                value = self.piece_value(item["value"], f + ".value", names, syms)
            if "where" in item:
                try:
                    cond = parse_expr(item["where"], names, allow_bool=True)
                except FieldError as err:
                    self.fail(f + ".where", err.problem)
                if isinstance(cond, sp.Expr):
                    self.fail(f + ".where", "expected a condition (use < <= > >= and or not)")
                self.constants_in_range(cond, f + ".where")
            else:
                cond = sp.true
            out.append(Piece(cond, value))
        return tuple(out)

    def piece_value(self, raw, field: str, names: dict, syms) -> sp.Expr:
        try:
            value = parse_expr(raw, names)
        except FieldError as err:
            self.fail(field, err.problem)
        if not isinstance(value, sp.Expr) or value.has(sp.oo, -sp.oo):
            self.fail(field, "must be a finite arithmetic expression")
        self.constants_in_range(value, field)
        extra = value.free_symbols - set(syms)
        if extra:
            self.fail(field, f"unknown variable {sorted(map(str, extra))[0]}")
        return value

    def callable_ref(self, value, field: str, base: Path):
        """Load the callable from its module file now (a missing file or function, or a module that
        raises on import, is a configuration error) and keep the module's source for the hash."""
        from ..model.queries import load_callable_source
        try:
            _, src = load_callable_source(value, base)
        except FieldError as err:
            self.fail(field, err.problem)
        self.sources.append((field, value, src))
        return value

    def python_fields(self, raw, section: str, base: Path) -> dict:
        """callable, args (keyword -> exact number, expressions of params), tolerance (default 1e-9)."""
        fields = {"callable": self.callable_ref(raw["callable"], f"{section}.callable", base)}
        args = raw.get("args") or {}
        if not isinstance(args, dict):
            self.fail(f"{section}.args", f"expected a mapping of keyword arguments, got {_kind(args)}")
        fields["args"] = {}
        for key, value in args.items():
            if not isinstance(key, str) or not key.isidentifier():
                self.fail(f"{section}.args", f"argument names must be identifiers, got {key!r}")
            if isinstance(value, bool) or not isinstance(value, (int, float, str)):
                self.fail(f"{section}.args.{key}", f"expected a number or an expression of params, got {_kind(value)}")
            fields["args"][key] = self.number(value, f"{section}.args.{key}")
        fields["tolerance"] = self.number(raw.get("tolerance", "1e-9"), f"{section}.tolerance",
                                          lo=0, lo_strict=False, hi=1)
        fields["scalar"] = self.scalar
        return fields

    def landmarks(self, raw, dim: int) -> tuple:
        """query.landmarks: 1-D numbers; d-D lists of d numbers (expressions of params)."""
        if not isinstance(raw, list) or not raw:
            self.fail("query.landmarks", "expected a non-empty list of points")
        out = []
        for i, item in enumerate(raw):
            f = f"query.landmarks[{i}]"
            if dim == 1 and not isinstance(item, list):
                item = [item]
            if not isinstance(item, list):
                self.fail(f, f"expected a list of {dim} numbers, got {_kind(item)}")
            if len(item) != dim:
                self.fail(f, f"has {len(item)} coordinates but input.dim is {dim}")
            out.append(tuple(self.number(v, f if dim == 1 else f"{f}[{k}]") for k, v in enumerate(item)))
        return tuple(out)

    def query(self, raw, dim: int, base: Path, k: int = 1) -> QuerySpec:
        if not isinstance(raw, dict):
            self.fail("query", f"expected a mapping, got {_kind(raw)}")
        kind = raw.get("kind")
        if kind not in QUERY_FIELDS:
            self.fail("query.kind", f"unknown query kind {kind!r}{did_you_mean(kind, QUERY_FIELDS)} "
                      f"(known: {', '.join(QUERY_FIELDS)})")
        required, optional, qdim = QUERY_FIELDS[kind]
        self.mapping(raw, "query", required | optional | {"kind"}, required)
        if qdim is not None and dim != qdim:
            self.fail("input.dim", f"query kind {kind} needs dim {qdim}, got {dim}")
        if k > 1 and kind not in VECTOR_QUERIES:
            self.fail("query.kind", f"{kind} has no vector form; output.dim {k} needs one of "
                                    f"{', '.join(VECTOR_QUERIES)}")
        fields = {}
        if kind == "identity":
            if dim != k:
                self.fail("query.kind", f"identity needs output.dim = input.dim, got output.dim {k} "
                                        f"and input.dim {dim}")
            return QuerySpec(kind, {})
        if kind == "piecewise":
            return QuerySpec(kind, {}, self.pieces(raw["pieces"], "query.pieces", dim, k))
        if kind == "python":
            fields = self.python_fields(raw, "query", base)
            if "landmarks" in raw:
                fields["landmarks"] = self.landmarks(raw["landmarks"], dim)
            if "scale" in raw:
                fields["scale"] = self.number(raw["scale"], "query.scale", lo=0)
            return QuerySpec(kind, fields)
        for key in sorted(required):
            if key == "t":
                t = raw["t"]
                if isinstance(t, (int, float, str)) and dim == 1:
                    t = [t]
                if not isinstance(t, list):
                    self.fail("query.t", "expected a list of numbers")
                if len(t) != dim:
                    self.fail("query.t", f"has {len(t)} coordinates but input.dim is {dim}")
                fields["t"] = tuple(self.number(v, f"query.t[{i}]") for i, v in enumerate(t))
            elif key in ("tau", "h"):
                fields[key] = self.number(raw[key], f"query.{key}", lo=0)
            else:
                fields[key] = self.number(raw[key], f"query.{key}")
        if kind == "bounded_range" and not fields["l"] < fields["r"]:
            self.fail("query.r", f"must be greater than l ({_show(fields['l'])})")
        return QuerySpec(kind, fields)

    def bound(self, raw, dim: int, base: Path, query: QuerySpec | None = None,
              metric: MetricSpec | None = None) -> BoundSpec:
        if not isinstance(raw, dict):
            self.fail("bound", f"expected a mapping, got {_kind(raw)}")
        kind = raw.get("kind")
        if kind not in BOUND_KINDS:
            self.fail("bound.kind", f"unknown bound kind {kind!r}{did_you_mean(kind, BOUND_KINDS)} "
                      f"(known: {', '.join(BOUND_KINDS)})")
        extra = BOUND_KINDS[kind]
        self.mapping(raw, "bound", {"kind", "growth", "gamma", "Lambda"} | extra | BOUND_OPTIONAL.get(kind, set()),
                     {"kind", "growth", "gamma"} | extra)
        growth = raw["growth"]
        if growth not in ("exponential", "linear"):
            self.fail("bound.growth", f"must be 'exponential' or 'linear', got {growth!r}")
        gamma = self.number(raw["gamma"], "bound.gamma", lo=0, lo_strict=False)
        lam = self.number(raw.get("Lambda", "inf"), "bound.Lambda", lo=0, allow_inf=True)
        fields, pieces = {}, ()
        if kind == "constant":
            fields["value"] = self.number(raw["value"], "bound.value", lo=0)
        elif kind == "piecewise":
            pieces = self.pieces(raw["pieces"], "bound.pieces", dim)
        elif kind == "python":
            fields = self.python_fields(raw, "bound", base)
        elif kind == "derived":
            return self.derived_bound(growth, gamma, lam, dim, query, metric or MetricSpec())
        return BoundSpec(kind, growth, gamma, lam, fields, pieces)

    def derived_bound(self, growth, gamma, lam, dim, query, metric) -> BoundSpec:
        """`bound.kind: derived`: B = h derived from the query's formula by Laud et al.'s rules
        (gpaudit/model/derive.py), aiming at the claimed gamma.  The result is an ordinary piecewise
        bound with one default piece and the user's gamma, so every later stage (audit, proof,
        certificate, reports) treats it as a hand-written piecewise bound: the derivation is
        untrusted, the kernel proves the bound.  The origin and the trace are kept in fields."""
        from ..model.derive import derive_bound
        if growth != "exponential":
            self.fail("bound.growth", f"bound kind derived needs growth: exponential (its rules give "
                                      f"gamma-smooth bounds, B(x) <= exp(gamma dist) B(x')), got {growth!r}")
        if query is None or query.kind != QueryKind.PIECEWISE:
            self.fail("bound.kind", "derived: needs query kind piecewise (one formula), got query kind "
                                    f"{getattr(query, 'kind', None)!r}")
        if len(query.pieces) != 1 or query.pieces[0].where is not sp.true:
            self.fail("bound.kind", f"derived: needs a query with one formula (a single piece without "
                                    f"'where'), got {len(query.pieces)} pieces")
        try:
            der = derive_bound(query.pieces[0].value, input_symbols(dim), metric, gamma)
        except FieldError as err:
            self.fail(err.field or "bound.kind", err.problem)
        except (TypeError, ValueError, ArithmeticError, RecursionError) as err:  # never a traceback
            self.fail("bound.kind", f"derived: the derivation failed on this formula ({type(err).__name__}: "
                                    f"{str(err)[:80]})")
        self.constants_in_range(der.h, "bound.kind")
        fields = {"derived_from": DERIVED_FROM, "derived_beta": der.beta, "derivation": der.text}
        return BoundSpec("piecewise", growth, gamma, lam, fields, (Piece(sp.true, der.h),))

    def output(self, raw) -> int:
        out = self.mapping({} if raw is None else raw, "output", {"dim"})
        k = out.get("dim", 1)
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            self.fail("output.dim", f"must be a positive integer, got {k!r}")
        return k

    def noise(self, raw, k: int = 1) -> NoiseSpec:
        if not isinstance(raw, dict):
            self.fail("noise", f"expected a mapping, got {_kind(raw)}")
        if "family" not in raw:   # a misspelt key (famly:) is named as such, not as family None
            every = {"family", "eta"} | {k for d, r in FAMILY_SHAPES.values() for k in (*d, *r)}
            self.mapping(raw, "noise", every, {"family"})
        family = raw.get("family")
        if family not in FAMILY_SHAPES:
            self.fail("noise.family", f"unknown family {family!r}{did_you_mean(family, FAMILY_SHAPES)} "
                      f"(known: {', '.join(FAMILY_SHAPES)})")
        if k > 1 and family not in RADIAL_FAMILIES:
            self.fail("noise.family", f"{family} has no radial form: output.dim {k} needs one of "
                                      f"{', '.join(RADIAL_FAMILIES)}")
        defaults, required = FAMILY_SHAPES[family]
        self.mapping(raw, "noise", {"family", "eta"} | set(defaults) | required, {"family", "eta"} | required)
        shape = {}
        for key in sorted(set(defaults) | required):
            value = raw.get(key, defaults.get(key))
            lo = {"p": 1, "nu": 0, "alpha": 1, "theta": 0}[key]
            shape[key] = self.number(value, f"noise.{key}", lo=lo)
        if family == "gen_cauchy" and not shape["p"] * shape["theta"] > 1:
            self.fail("noise.theta", "p * theta must be > 1 for the density to normalise")
        eta = self.number(raw["eta"], "noise.eta", lo=0)
        return NoiseSpec(family, shape, eta)

    def claim(self, raw) -> ClaimSpec:
        self.mapping(raw, "claim", {"epsilon", "delta"}, {"epsilon"})
        eps = self.number(raw["epsilon"], "claim.epsilon", lo=0)
        delta = self.number(raw.get("delta", 0), "claim.delta", lo=0, lo_strict=False, hi=1)
        return ClaimSpec(eps, delta)

    def metric(self, raw, dim: int) -> MetricSpec:
        """input.metric: l1 | l2 | linf, or {KIND: [w_1, ..., w_d]} (weights > 0)."""
        kinds = ("l1", "l2", "linf")
        if isinstance(raw, str):
            if raw not in kinds:
                self.fail("input.metric", f"unknown metric {raw!r} (allowed: {', '.join(kinds)}, or "
                                          "{l1: [w1, ..., wd]} and the like for weights)")
            return MetricSpec(raw)
        if not isinstance(raw, dict) or len(raw) != 1:
            self.fail("input.metric", f"expected one of {', '.join(kinds)} or a mapping with one of them "
                                      f"as its only key, got {_kind(raw)}")
        (kind, w), = raw.items()
        if kind not in kinds:
            self.fail(f"input.metric.{kind}", f"unknown metric (allowed: {', '.join(kinds)})")
        field = f"input.metric.{kind}"
        if isinstance(w, (int, float, str)) and not isinstance(w, bool) and dim == 1:
            w = [w]
        if not isinstance(w, list):
            self.fail(field, "expected a list of weights, one per coordinate")
        if len(w) != dim:
            self.fail(field, f"has {len(w)} weights but input.dim is {dim}")
        weights = tuple(self.number(v, f"{field}[{i}]", lo=0) for i, v in enumerate(w))
        return MetricSpec(kind, () if all(v == 1 for v in weights) else weights)

    def audit(self, raw) -> AuditOptions:
        if raw is None:
            return AuditOptions()
        self.mapping(raw, "audit", {"seed", "effort"})
        seed = raw.get("seed", 0)
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            self.fail("audit.seed", "must be a non-negative integer")
        effort = raw.get("effort", "standard")
        if effort not in EFFORTS:
            self.fail("audit.effort", f"must be one of {', '.join(EFFORTS)}")
        return AuditOptions(seed, effort)


def _kind(value) -> str:
    return "nothing" if value is None else type(value).__name__


def _show(expr) -> str:
    return str(expr) if expr.is_Rational else f"{str(expr)} (= {float(expr):.6g})"


def load_spec(path) -> Spec:
    """Read, parse and validate one configuration file."""
    path = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as err:
        raise ConfigError(path, "", f"cannot read file: {err.strerror or err}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigError(path, "", "file is not UTF-8 text") from None
    try:
        raw = yaml.safe_load(text)
        lines = field_lines(yaml.compose(text, Loader=yaml.SafeLoader))
    except DuplicateKey as dup:
        raise ConfigError(path, dup.field, f"duplicate key (first given at line {dup.first}; "
                          "YAML would silently keep only the last value)", dup.lineno) from None
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        where = f" at column {mark.column + 1}" if mark else ""  # the line goes before the message
        problem = getattr(err, "problem", None) or "invalid YAML"
        raise ConfigError(path, "", f"invalid YAML{where}: {problem}",
                          mark.line + 1 if mark else None) from None
    return spec_from_mapping(raw, path, hashlib.sha256(data).hexdigest(), lines)


class DuplicateKey(Exception):
    """A key given twice in one YAML mapping (PyYAML would keep the last value without a word)."""

    def __init__(self, field: str, lineno: int, first: int):
        self.field, self.lineno, self.first = field, lineno, first
        super().__init__(f"{field}: duplicate key at line {lineno} (first at line {first})")


def field_lines(node, prefix: str = "", out: dict | None = None) -> dict[str, int]:
    """{field path: 1-based line} for every key and list item of a composed YAML document, named
    as the loader names fields (``query.tau``, ``query.pieces[0].value``, ``query.t[1]``).  The
    values themselves are read with yaml.safe_load; this map only places an error in the file.
    A key given twice in one mapping raises DuplicateKey at the second occurrence."""
    out = {} if out is None else out
    if isinstance(node, yaml.MappingNode):
        seen = {}
        for key, value in node.value:
            if not isinstance(key, yaml.ScalarNode):
                continue
            field = f"{prefix}.{key.value}" if prefix else str(key.value)
            line = key.start_mark.line + 1
            if (key.tag, key.value) in seen:
                raise DuplicateKey(field, line, seen[key.tag, key.value])
            seen[key.tag, key.value] = line
            out.setdefault(field, line)
            field_lines(value, field, out)
    elif isinstance(node, yaml.SequenceNode):
        for i, item in enumerate(node.value):
            field = f"{prefix}[{i}]"
            out.setdefault(field, item.start_mark.line + 1)
            field_lines(item, field, out)
    return out


def line_of(lines: dict, field: str) -> int | None:
    """The line of ``field``, else of the nearest enclosing field that is in the file (a missing
    or defaulted field is placed at its section); None when nothing encloses it."""
    while field:
        if field in lines:
            return lines[field]
        cut = max(field.rfind("."), field.rfind("["))
        field = field[:cut] if cut > 0 else ""
    return None


def spec_from_mapping(raw, path: str, sha256: str, lines: dict | None = None) -> Spec:
    """Validate a parsed configuration; ``lines`` (from :func:`field_lines`) adds the line of the
    offending field to an error."""
    ld = _Loader(path, lines)
    if not isinstance(raw, dict):
        ld.fail("", f"expected a mapping at the top level, got {_kind(raw)}")
    if raw.get("notion", "geo_privacy") != "geo_privacy":   # smoothed DP / DP (gpaudit/smoothed)
        from ..smoothed.spec import load_smoothed
        sm = load_smoothed(raw, ld, path, sha256)
        return replace(sm, sha256=_with_sources(sha256, ld.sources)) if ld.sources else sm
    raw = {k: v for k, v in raw.items() if k != "notion"}
    ld.mapping(raw, "", TOP_FIELDS, {"gpaudit", "name", "input", "query", "bound", "noise", "claim"})
    name, desc, params = ld.header(raw)
    inp = ld.mapping(raw["input"], "input", {"dim", "metric", "scalar"}, {"dim"})
    dim = inp["dim"]
    if isinstance(dim, bool) or not isinstance(dim, int) or dim < 1:
        ld.fail("input.dim", f"must be a positive integer, got {dim!r}")
    ld.scalar = inp.get("scalar", False)
    if not isinstance(ld.scalar, bool):
        ld.fail("input.scalar", f"expected true or false, got {ld.scalar!r}")
    if ld.scalar and dim != 1:
        ld.fail("input.scalar", f"true needs input.dim 1 (x is passed as one number), got dim {dim}")
    metric = ld.metric(inp.get("metric", "l2"), dim)
    base = Path(path).resolve().parent
    k = ld.output(raw.get("output"))
    query = ld.query(raw["query"], dim, base, k)
    bkind = raw["bound"].get("kind") if isinstance(raw["bound"], dict) else None
    if k > 1 and bkind in set(BOUND_KINDS) - {"constant", "piecewise"}:
        ld.fail("bound.kind", f"output.dim {k} needs a bound of kind constant or piecewise, got {bkind}")
    bound = ld.bound(raw["bound"], dim, base, query, metric)
    noise = ld.noise(raw["noise"], k)
    claim = ld.claim(raw["claim"])
    audit = ld.audit(raw.get("audit"))
    if ld.sources:
        sha256 = _with_sources(sha256, ld.sources)
    return Spec(path, name.strip(), desc, dim, params, query, bound, noise, claim, audit, sha256,
                tuple(ld.binary), metric, ld.literal_notes(raw), output_dim=k)


_NUMBER = re.compile(r"(?<![\w.])(\d+\.\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+)(?![\w.])")


_NOT_FORMULAS = {"name", "description", "kind", "callable", "growth", "family", "effort"}


def _strings(node, prefix=""):
    """(field, text) of every string value of a parsed configuration that may hold a formula."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key not in _NOT_FORMULAS:
                yield from _strings(value, f"{prefix}.{key}" if prefix else str(key))
    elif isinstance(node, list):
        for i, item in enumerate(node):
            yield from _strings(item, f"{prefix}[{i}]")
    elif isinstance(node, str):
        yield prefix, node


def _as_fraction(text: str) -> str:
    q = Fraction(text)
    return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"


def _with_sources(sha256: str, sources) -> str:
    """The configuration hash of a file with python callables: it covers their modules' source too,
    so editing userfns.py changes config_sha256 (files without callables keep sha256 of their bytes)."""
    h = hashlib.sha256(b"gpaudit-config-with-callables\0" + sha256.encode())
    for field, ref, src in sources:
        h.update(f"\0{field}\0{ref}\0{len(src)}\0".encode())
        h.update(src)
    return h.hexdigest()


def load_specs(paths) -> tuple[list[Spec], list[str]]:
    """Load every file; returns the valid specs and one error line per invalid file."""
    specs, errors = [], []
    for path in paths:
        try:
            specs.append(load_spec(path))
        except ConfigError as err:
            errors.append(err.line())
    return specs, errors
