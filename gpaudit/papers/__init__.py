"""Research validation: a registry of the concrete, checkable claims of the four papers in
papers gpaudit implements (Liang-Yi, PolyPlace, Laud et al., Liu et al.), each checked independently
in high precision and given a verdict ``verified | refuted | unknown``.

"verified" from a numeric sweep means *no counterexample was found over the sweep*; the
evidence of every result names the method, the precision and the ranges swept.  Every
refutation carries a witness (decimal strings) that ``tests/test_claims.py`` recomputes
independently.

Public API::

    run_claims(paper=None, progress=None, *, quick=False) -> list[ClaimResult]
    PAPERS                      short name -> title
    render_table(results) -> str
    results_to_json(results) -> list[dict]
"""
from __future__ import annotations

import textwrap

from .registry import REGISTRY, ClaimResult, Outcome, run
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
    out = ["# The papers' checkable claims", "",
           f"{len(results)} claims: {counts['verified']} verified, {counts['refuted']} refuted, "
           f"{counts['unknown']} unknown. \"verified\" from a numeric sweep means no counterexample was "
           "found over the sweep named in the evidence. Regenerate with "
           "`gpaudit claims --json reports/claims.json --markdown reports/claims.md`.", ""]
    for paper, title in PAPERS.items():
        rows = [r for r in results if r.paper == paper]
        if not rows:
            continue
        out += [f"## {title}", "", "| claim | verdict | severity | statement | evidence |", "|---|---|---|---|---|"]
        out += [f"| {cell(r.claim_id)} | **{r.verdict}** | {r.severity or ''} | {cell(r.statement)} | {cell(r.evidence)} |"
                for r in rows]
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
            if r.intended:
                out.append(f"- intended statement: {cell(r.intended)}")
            out += [f"- `{k}` = `{v}`" for k, v in (r.witness or {}).items()]
            if r.condition:
                out.append(f"- needs: {cell(r.condition)}")
            out.append("")
    return "\n".join(out)
