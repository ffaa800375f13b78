"""Texts of a kernel Query: what the proof cache keys on, and what proofs/*/obligations.smt2 holds."""

from __future__ import annotations

import re

import z3

from ..kernel import z3door as zb

_NODE = re.compile(r"#([0-9]+)")


def assertions_text(assertions) -> str:
    """The SMT-LIB text of each assertion, one per line (z3's native printer)."""
    return "\n".join(a.sexpr() for a in assertions)


def canonical_text(assertions) -> str:
    """z3's low-level text with the node ids (which depend on what the process built before)
    renumbered in order of appearance: the same formula gives the same text in every process, and
    it identifies the formula exactly when every constant is a Real with a plain name (an
    identifier other than true / false), as in a translated query."""
    ids: dict = {}
    return _NODE.sub(lambda m: "#" + str(ids.setdefault(m.group(1), len(ids) + 1)),
                     zb.low_level_text(assertions))


def _all(q) -> list:
    return list(q.facts) + [q.formula]


def text(q) -> str:
    """The assertions' SMT-LIB text, one per line (every constant the translation declares is
    Real, so this determines the query)."""
    if "text" not in q.memo:
        q.memo["text"] = assertions_text(_all(q))
    return q.memo["text"]


def key_text(q) -> str:
    """The exact text the proof cache keys on: the canonical low-level text where it identifies
    the query (plain names), else the SMT-LIB text; tagged with which it is."""
    if "key" not in q.memo:
        q.memo["key"] = ("low-level\n" + canonical_text(_all(q)) if q.plain else "smt-lib\n" + text(q))
    return q.memo["key"]


def smt2(q) -> str:
    """The SMT-LIB 2 text (declarations and assertions) z3 decides."""
    if "smt2" not in q.memo:
        s = z3.Solver()
        s.add(*q.facts)
        s.add(q.formula)
        q.memo["smt2"] = s.sexpr()
    return q.memo["smt2"]


def z3_version() -> str:
    """The z3 the texts were decided with (the cache key and the proof files name it)."""
    return z3.get_version_string()
