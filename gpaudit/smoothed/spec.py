"""`notion: smoothed_dp` and `notion: dp` configurations (extensions-2.md, section 3).

The loader of gpaudit.spec.load dispatches here on `notion:` and passes its own field helpers
(`ld`: fail / mapping / number / params / callable_ref), so a smoothed configuration reports bad
input exactly as a Geo-Privacy one does: one line naming the file, the line, the field and the
problem.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import sympy as sp

from ..errors import FieldError
from ..spec.types import AuditOptions, ClaimSpec

NOTIONS = ("smoothed_dp", "dp")
TOP_FIELDS = {"gpaudit", "name", "description", "notion", "params", "mechanism", "neighbours",
              "distributions", "claim", "audit"}
MECH_FIELDS = {"sampling_histogram": ({"kind", "n", "m", "T", "eta", "replacement"}, {"kind", "n", "m"}),
               "python": ({"kind", "callable", "n", "m"}, {"kind", "callable", "n", "m"})}
NEIGHBOURS = ("replace_one",)
MAX_N = 10**6


@dataclass(frozen=True)
class SmoothedSpec:
    path: str
    name: str
    description: str
    notion: str                      # smoothed_dp | dp
    kind: str                        # sampling_histogram | python
    n: int
    m: int
    T: int | None                    # sampling_histogram only
    replacement: bool
    callable: str | None             # python only: "mod.py:fn" / "pkg.mod:fn"
    base: str                        # the directory the callable is resolved against
    distributions: tuple             # Pi: tuples of m exact sympy numbers (smoothed_dp)
    claim: ClaimSpec
    params: dict
    sha256: str
    binary_floats: tuple = ()
    audit: AuditOptions = field(default_factory=AuditOptions)
    eta: sp.Expr | None = None       # when T was given as eta: T = ceil(eta n)


def load_mechanism_callable(ref: str, base: str):
    """(function, module source) of "dir/file.py:fn" (a path relative to the configuration's
    directory) or "pkg.mod:fn"; raises FieldError."""
    from ..model.queries import load_callable_source, load_user_module
    mod, sep, fn = ref.rpartition(":")
    if not sep or not mod.strip().endswith(".py"):
        return load_callable_source(ref, base)
    file = (Path(base) / mod.strip()).resolve()
    if not file.is_file():
        raise FieldError(f"cannot find file '{mod.strip()}' in {base} (the configuration's directory)")
    if not fn.strip().isidentifier():
        raise FieldError(f"expected 'file.py:function', got {ref!r}")
    module, src = load_user_module(file, file.stem)
    func = getattr(module, fn.strip(), None)
    if not callable(func):
        raise FieldError(f"'{fn.strip()}' is not a function of {file}")
    return func, src


def _integer(ld, value, fld: str, lo: int, hi: int | None = None) -> int:
    if isinstance(value, bool):
        ld.fail(fld, "expected an integer, got a boolean")
    v = ld.number(value, fld)
    if not v.is_Integer:
        ld.fail(fld, f"must be an integer, got {v}")
    v = int(v)
    if v < lo:
        ld.fail(fld, f"must be >= {lo}, got {v}")
    if hi is not None and v > hi:
        ld.fail(fld, f"must be <= {hi}, got {v}")
    return v


def load_smoothed(raw: dict, ld, path: str, sha256: str) -> SmoothedSpec:
    """Validate a `notion: smoothed_dp | dp` mapping (raw is a dict with a `notion` key)."""
    notion = raw.get("notion")
    if notion not in NOTIONS:
        ld.fail("notion", f"unknown notion {notion!r} (known: geo_privacy, {', '.join(NOTIONS)})")
    ld.mapping(raw, "", TOP_FIELDS, {"gpaudit", "name", "notion", "mechanism", "claim"}
               | ({"distributions"} if notion == "smoothed_dp" else set()))
    name, desc, params = ld.header(raw)
    mech = raw["mechanism"]
    if not isinstance(mech, dict):
        ld.fail("mechanism", f"expected a mapping, got {type(mech).__name__ if mech is not None else 'nothing'}")
    kind = mech.get("kind")
    if kind not in MECH_FIELDS:
        ld.fail("mechanism.kind", f"unknown mechanism kind {kind!r} for notion {notion} "
                                  f"(known: {', '.join(MECH_FIELDS)})")
    allowed, required = MECH_FIELDS[kind]
    ld.mapping(mech, "mechanism", allowed, required)
    n = _integer(ld, mech["n"], "mechanism.n", 1, MAX_N)
    m = _integer(ld, mech["m"], "mechanism.m", 2, 64)
    T, eta, replacement, ref = None, None, False, None
    base = str(Path(path).resolve().parent)
    if kind == "sampling_histogram":
        if ("T" in mech) == ("eta" in mech):
            ld.fail("mechanism.T", "give exactly one of T and eta (T = ceil(eta * n))")
        if "T" in mech:
            T = _integer(ld, mech["T"], "mechanism.T", 1)
        else:
            eta = ld.number(mech["eta"], "mechanism.eta", lo=0, hi=1, hi_strict=False)
            T = int(sp.ceiling(eta * n))
        rep = mech.get("replacement", False)
        if not isinstance(rep, bool):
            ld.fail("mechanism.replacement", f"must be true or false, got {rep!r}")
        replacement = rep
        if T > n and not replacement:
            ld.fail("mechanism.T" if eta is None else "mechanism.eta",
                    f"T = {T} samples without replacement needs T <= n = {n}")
    else:
        if not isinstance(mech["callable"], str):
            ld.fail("mechanism.callable", "expected a string 'file.py:function' or 'package.module:function'")
        ref = mech["callable"]
        try:
            _, src = load_mechanism_callable(ref, base)
        except FieldError as err:
            ld.fail("mechanism.callable", err.problem)
        ld.sources.append(("mechanism.callable", ref, src))
    nb = raw.get("neighbours", "replace_one")
    if nb not in NEIGHBOURS:
        ld.fail("neighbours", f"unknown neighbour relation {nb!r} (known: {', '.join(NEIGHBOURS)})")
    dists = _distributions(ld, raw.get("distributions"), m) if "distributions" in raw else ()
    ld.mapping(raw["claim"], "claim", {"epsilon", "delta"}, {"epsilon", "delta"})
    eps = ld.number(raw["claim"]["epsilon"], "claim.epsilon", lo=0, lo_strict=False)
    delta = ld.number(raw["claim"]["delta"], "claim.delta", lo=0, lo_strict=False, hi=1, hi_strict=False)
    audit = raw.get("audit")
    if audit is not None:
        ld.mapping(audit, "audit", {"seed", "effort"})
    return SmoothedSpec(path, name.strip(), desc, notion, kind, n, m, T, replacement, ref, base, dists,
                        ClaimSpec(eps, delta), params, sha256, tuple(ld.binary), AuditOptions(), eta)


def _distributions(ld, raw, m: int) -> tuple:
    """Pi: a non-empty list of probability vectors of length m, exact, each summing to 1."""
    if not isinstance(raw, list) or not raw:
        ld.fail("distributions", "expected a non-empty list of probability vectors")
    out = []
    for i, vec in enumerate(raw):
        fld = f"distributions[{i}]"
        if not isinstance(vec, list):
            ld.fail(fld, f"expected a list of {m} probabilities, got {type(vec).__name__}")
        if len(vec) != m:
            ld.fail(fld, f"has {len(vec)} entries but mechanism.m is {m}")
        vals = tuple(ld.number(v, f"{fld}[{j}]", lo=0, lo_strict=False, hi=1, hi_strict=False)
                     for j, v in enumerate(vec))
        total = sum(vals)
        if total != 1 and sp.simplify(total - 1) != 0:
            hint = (" (a YAML float is read at its binary value: write exact numbers such as '1/10')"
                    if any(f.startswith(fld) for f in ld.binary) else "")
            ld.fail(fld, f"must sum to 1, sums to {total if total.is_Rational else sp.N(total, 12)}{hint}")
        out.append(vals)
    return tuple(out)
