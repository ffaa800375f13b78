"""Research validation: a registry of the concrete, checkable claims of the four papers in
papers gpaudit implements (Liang-Yi, PolyPlace, Laud et al., Liu et al.), each checked independently
in high precision and given a verdict ``verified | refuted | unknown``.

This is research validation, apart from the gate: nothing here decides a verdict of
``gpaudit check``.  "verified" means the claim holds as far as the named method checks it
(``checked_by``: proof, exact computation, interval enclosure, exhaustive enumeration, adversarial
search, or a finite sweep, which only fails to find a counterexample); it is not a gpaudit
certificate.  Every refutation records the readings considered (none of which holds) and carries
a witness (decimal strings) that ``tests/papers/`` recomputes independently.

Public API::

    run_claims(paper=None, progress=None, *, quick=False) -> list[ClaimResult]
    PAPERS                      short name -> title
    render_table(results) -> str
    results_to_json(results) -> list[dict]
"""
from __future__ import annotations

import textwrap

from .registry import CHECKED_BY, REGISTRY, ClaimResult, Outcome, run
from . import liang_yi, polyplace, laud, liu  # noqa: F401  (registration side effects)

PAPERS: dict[str, str] = {
    "liang-yi": "Liang & Yi, Smooth Sensitivity for Geo-Privacy",
    "polyplace": "Hladik & Tetek, Smooth Sensitivity Revisited: Towards Optimality (PolyPlace)",
    "laud": "Laud, Pankova & Pettai, derivative sensitivity (Banach-space metrics for DP)",
    "liu": "Liu, Wang & Xia, Smoothed Differential Privacy",
}

__all__ = ["ClaimResult", "Outcome", "PAPERS", "REGISTRY", "render_table", "results_to_json", "run_claims"]


def run_claims(paper: str | None = None, progress=None, *, quick: bool = False) -> list[ClaimResult]:
    """Run every registered claim (or those of one paper) and return the results in
    registration order.  ``progress(done, total, result)`` is called after each claim.
    ``quick`` uses the smaller sweeps of the tests (the full registry takes about a minute)."""
    if paper is not None and paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r}; choose from {', '.join(PAPERS)}")
    return run(paper=paper, progress=progress, quick=quick)


def results_to_json(results: list[ClaimResult]) -> list[dict]:
    """JSON-serialisable dicts; every number is already a decimal string."""
    out = []
    for r in results:
        out.append({
            "paper": r.paper,
            "paper_title": PAPERS.get(r.paper, r.paper),
            "claim_id": r.claim_id,
            "statement": r.statement,
            "verdict": r.verdict,
            "evidence": r.evidence,
            "witness": {str(k): str(v) for k, v in r.witness.items()} if r.witness else None,
            "condition": r.condition,
            "severity": r.severity,
            "quote": r.quote,
            "reading": r.reading,
            "restated_from": r.restated_from,
            "intended": r.intended,
            "method": r.method,
            "checked_by": r.checked_by,
            "readings": [x.to_json() for x in r.readings],
            "seconds": f"{r.seconds:.3f}",
        })
    return out


def render_table(results: list[ClaimResult], width: int = 140) -> str:
    """A plain-text table: paper, claim id, verdict, evidence (wrapped), followed by the
    witness and missing condition of every refuted claim, and a verdict summary."""
    head = ("paper", "claim", "verdict", "evidence")
    wp = max([len(head[0])] + [len(r.paper) for r in results])
    wc = min(46, max([len(head[1])] + [len(r.claim_id) for r in results]))
    wv = 8
    we = max(30, width - wp - wc - wv - 6)
    lines = [f"{head[0]:<{wp}}  {head[1]:<{wc}}  {head[2]:<{wv}}  {head[3]}", "-" * (wp + wc + wv + we + 6)]
    for r in results:
        ev = textwrap.wrap(r.evidence, we) or [""]
        cid = textwrap.wrap(r.claim_id, wc) or [""]
        for i in range(max(len(ev), len(cid))):
            lines.append(f"{(r.paper if i == 0 else ''):<{wp}}  {(cid[i] if i < len(cid) else ''):<{wc}}  "
                         f"{(r.verdict if i == 0 else ''):<{wv}}  {ev[i] if i < len(ev) else ''}")
    refuted = [r for r in results if r.verdict == "refuted"]
    if refuted:
        lines += ["", "Refuted claims: witnesses"]
        for r in refuted:
            lines.append(f"* [{r.paper}] {r.claim_id}: {r.statement}")
            for k, v in (r.witness or {}).items():
                lines.append(f"    {k} = {v}")
            if r.condition:
                lines += textwrap.wrap("needs: " + r.condition, width, initial_indent="    ", subsequent_indent="      ")
    counts = {v: sum(r.verdict == v for r in results) for v in ("verified", "refuted", "unknown")}
    lines += ["", "summary: " + ", ".join(f"{k} {n}" for k, n in counts.items()) + f" (of {len(results)})"]
    return "\n".join(lines)


def render_markdown(results: list[ClaimResult]) -> str:
    """The registry as a Markdown page: a summary, a table per paper, then every refutation's witness."""
    def cell(text):
        return str(text).replace("|", "\\|").replace("\n", " ")

    counts = {v: sum(r.verdict == v for r in results) for v in ("verified", "refuted", "unknown")}
    by = {m: sum(r.verdict == "verified" and r.method == m for r in results) for m in CHECKED_BY}
    how = ", ".join(f"{n} by {CHECKED_BY[m]}" for m, n in by.items() if n)
    sev = {s: sum(r.verdict == "refuted" and r.severity == s for r in results) for s in ("error", "minor", "typo")}
    out = ["# The papers' checkable claims", "",
           f"{len(results)} claims: {counts['verified']} hold ({how}), {counts['refuted']} refuted "
           f"({sev['error']} error, {sev['minor']} minor, {sev['typo']} typo), {counts['unknown']} unknown.", "",
           "This is research validation, not a gpaudit certificate: *holds* (the JSON's `verified`) means the claim "
           "holds as far as the method named beside it checks it. A finite sweep only fails to find a "
           "counterexample; a proof, an exact computation, an interval enclosure or an exhaustive enumeration "
           "settles the statement on the range it names. A claim is refuted only if no reasonable reading of it (in "
           "the paper's context, conventions and quantifiers) holds; each refutation lists the readings considered "
           "and why each fails, and a claim that holds under a reasonable reading is reported as holding under it. "
           "Regenerate with `gpaudit claims --json reports/claims.json --markdown reports/claims.md`.", ""]

    def verdict_cell(r):
        label = {"verified": "holds", "refuted": "refuted", "unknown": "unknown"}[r.verdict]
        return f"**{label}** (checked by: {r.checked_by})" if r.verdict != "unknown" else f"**{label}**"

    for paper, title in PAPERS.items():
        rows = [r for r in results if r.paper == paper]
        if not rows:
            continue
        out += [f"## {title}", "", "| claim | verdict | severity | statement | evidence |", "|---|---|---|---|---|"]
        for r in rows:
            ev = cell(r.evidence)
            held = [x for x in r.readings if x.holds and x.reasonable]
            if r.verdict == "verified" and held:
                ev = "under the reading: " + "; ".join(cell(x.text) for x in held) + ". " + ev
            out.append(f"| {cell(r.claim_id)} | {verdict_cell(r)} | {r.severity or ''} | {cell(r.statement)} | {ev} |")
        out.append("")
    read = [r for r in results if r.verdict == "verified" and len(r.readings) > 1]
    if read:
        out += ["## Claims that hold under a stated reading", "",
                "Each of these was read in more than one way; it holds under the first reading listed as holding.", ""]
        for r in read:
            out += [f"### [{r.paper}] {r.claim_id}", "", cell(r.statement), ""]
            if r.quote:
                out += [f"> {cell(r.quote)}", ""]
            out.append(f"Checked by: {r.checked_by}. Readings considered:")
            out += [f"- {x.label}: {cell(x.text)} ({cell(x.why)})" for x in r.readings]
            out.append("")
    refuted = [r for r in results if r.verdict == "refuted"]
    if refuted:
        out += ["## Refutations and their witnesses", ""]
        for r in refuted:
            out.append(f"### [{r.paper}] {r.claim_id}" + (f" ({r.severity})" if r.severity else ""))
            out += ["", cell(r.statement), ""]
            if r.quote:
                out += [f"> {cell(r.quote)}", ""]
            if r.restated_from:
                out += [f"(a restatement of {cell(r.restated_from)})", ""]
            if r.reading:
                out += [f"Reading: {cell(r.reading)}", ""]
            out.append(f"Checked by: {r.checked_by}. Readings considered:")
            out += [f"- {x.label}: {cell(x.text)} ({cell(x.why)})" for x in r.readings]
            out.append("")
            if r.intended:
                out.append(f"- intended statement: {cell(r.intended)}")
            out += [f"- `{k}` = `{v}`" for k, v in (r.witness or {}).items()]
            if r.condition:
                out.append(f"- needs: {cell(r.condition)}")
            out.append("")
    return "\n".join(out)
