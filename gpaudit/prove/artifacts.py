"""proofs/<name>/: a human-readable proof.md and the machine-checkable obligations.smt2, pinned to
what decides them: the configuration's sha256 and their own text; proof.md is pinned, besides, to
the sha256 of the obligations.smt2 it explains.  Each records the code that wrote it
(gpaudit.provenance.proof_code_sha256: the syntax trees of PROOF_SOURCES, docstrings and comments
left out), and write_artifacts leaves a proof as it is where the current code writes the same
obligations and the same proof.md apart from that identity, so a change of code that changes no
proof changes no file.  tests/whole_repo/test_proofs_fresh.py fails when a proof is stale: its
configuration changed, or the current code proves something else."""

from __future__ import annotations

import os
from pathlib import Path

import sympy as sp

from ..kernel import z3door as zb
from ..provenance import proof_code_sha256, text_sha256
from ..runtime import texts

SHA_TAG = "; config-sha256: "
CODE_TAG = "; code-sha256: "
CODE_MD = "- code sha256: "
OBLIGATIONS_MD = "- obligations.smt2 sha256: "
BLOCK_TAG = "; obligation "


def _write(path: Path, text: str):
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + f".tmp{os.getpid()}")
    tmp.write_text(text)
    tmp.replace(path)


def _rel(path, root):
    try:
        return str(Path(path).resolve().relative_to(Path(root).resolve()))
    except ValueError:
        return str(path)


def smt2_text(mech, outcome, root=".") -> str:
    spec = mech.spec
    lines = [f"; gpaudit proof obligations for {spec.name}",
             f"; config: {_rel(spec.path, root)}",
             f"{SHA_TAG}{spec.sha256}",
             f"{CODE_TAG}{proof_code_sha256()}",
             f"; {texts.z3_version() and 'z3 ' + texts.z3_version()}, tactic {zb.TACTIC}, seeds 0 (smt.random_seed, "
             "sat.random_seed, nlsat.seed)",
             "; Each block states the NEGATION of one claim over one region: `unsat` proves the claim.",
             "; Non-polynomial functions are abstracted soundly (fresh variables with true facts), so `sat`",
             "; is only a candidate counterexample; refutations are re-verified in mpmath (see proof.md).",
             ""]
    k = 0
    for r in outcome.records:
        if not r.decisive:
            continue
        o = r.obligation
        k += 1
        head = f"{BLOCK_TAG}{k}: condition={o.condition} region={o.region} answer={r.status}"
        lines.append(head)
        lines.append(f"; claim: {o.claim}")
        if r.status == "arb" or o.query is None:
            lines.append(f"; discharged by: {r.method} (no SMT block)")
            lines.append("")
            continue
        if r.each:
            m = len(o.each)
            for i, q in enumerate(o.each, 1):
                if i > 1:
                    lines += [head, f"; claim: {o.claim}"]
                lines += ["(push)", f"; alternative {i} of {m}, without any conditions: z3 decided this obligation "
                          "alternative by alternative (unsat for every one is unsat on the region, where some "
                          "alternative is active at each point)", texts.smt2(q).rstrip(), "(check-sat)", "(pop)", ""]
            continue
        lines.append("(push)")
        if r.alone:
            lines.append("; z3 decided this block without the region's conditions, a stronger statement: unsat "
                         "without them is unsat with them")
        if r.cases > 1 and r.split == "claim":
            lines.append(f"; z3 decided this block as {r.cases} cases, the same hypotheses with one conjunct of the "
                         "claim negated in each: the block is unsat exactly when every case is")
        elif r.cases > 1:
            lines.append(f"; z3 decided this block as {r.cases} cases, one disjunct of its region (the disjunction "
                         "among its conjuncts) in each: the block is unsat exactly when every case is")
        lines.append((texts.smt2(o.alone) if r.alone else o.smt2).rstrip())
        lines.append("(check-sat)")
        lines.append("(pop)")
        lines.append("")
    return "\n".join(lines) + "\n"


def _fmt(v):
    return "-" if v is None else f"`{sp.sstr(v)}`"


def proof_md(mech, outcome, root=".", obligations: str | None = None) -> str:
    """proof.md; ``obligations``: the text of the obligations.smt2 it explains (default: computed),
    whose sha256 it records."""
    spec, q, b = mech.spec, mech.query, mech.bound
    if obligations is None:
        obligations = smt2_text(mech, outcome, root)
    L = []
    L.append(f"# Proof of the smooth-upper-bound conditions: `{spec.name}`\n")
    L.append(f"- config: `{_rel(spec.path, root)}`\n- config sha256: `{spec.sha256}`")
    L.append(f"{CODE_MD}`{proof_code_sha256()}` (the proof generator's sources: PROOF_SOURCES of "
             "gpaudit/provenance.py, docstrings and comments left out)")
    L.append(f"{OBLIGATIONS_MD}`{text_sha256(obligations)}`")
    L.append(f"- verdict of the conditions: **{outcome.status}**")
    L.append(f"- generated by `gpaudit prove` (z3 {texts.z3_version()}, fixed seeds 0); re-checked by "
             "`tests/whole_repo/test_proofs_fresh.py`\n")
    L.append("## What is claimed\n")
    L.append(f"The mechanism releases M(x) = f(x) + (B(x)/eta) Z on R^{spec.dim} ({mech.metric.label} metric: "
             f"dist(x, x') = {mech.metric.norm_text}), with "
             f"query kind `{q.kind}`, bound `{spec.bound.kind}` ({b.source}), {spec.bound.growth} growth, "
             f"gamma = `{spec.bound.gamma}`, Lambda = `{spec.bound.Lambda}`, noise `{spec.noise.family}`, "
             f"eta = `{spec.noise.eta}`; the claim is epsilon = `{spec.claim.epsilon}`, "
             f"delta = `{spec.claim.delta}`.\n")
    if q.expr is not None:
        L.append(f"- f(x) = `{sp.sstr(q.expr)}`")
    if b.expr is not None:
        L.append(f"- B(x) = `{sp.sstr(b.expr)}`")
    L.append("")
    L.append("This file proves (or refutes) the conditions of Liang-Yi Definition 8 that the certificate "
             "needs: B > 0; the slope of f is covered, |grad f| <= a_R B with a_R <= 1; ln B is "
             "gamma-Lipschitz, |grad ln B| <= c_R with c_R <= gamma; f and B have no jump between pieces. "
             "It does not bound the privacy loss itself: that is the family supremum of the certificate.\n")
    L.append("## Why these obligations carry the claim\n")
    if outcome.route == "theorem":
        L.append("The bound is the g-smooth sensitivity B* exactly as Definition 9 defines it. Liang-Yi "
                 "Lemma 3.1 shows B* satisfies both conditions of Definition 8 for any smooth growth "
                 "function, provided f is Lambda-locally Lipschitz. That premise is proved below "
                 "(`proof.lipschitz`: |grad f| <= K on every piece and f continuous, hence K-Lipschitz along "
                 "segments). Then a = 1 (|grad f| <= L_{f,Lambda} <= B*) and c = gamma "
                 "(ln B*(x) - ln B*(x') <= ln g(d) <= gamma d). The numerical grid that the audit uses "
                 "only approximates B*; this proof is about B* itself.\n")
    else:
        L.append("Along a segment x(t), d/dt ln p_x(t)(y) = -(ln b)'(1 + u psi(u)) - psi(u) a'/b (docs/certificate.md). "
                 "If on every region R |grad f| <= a_R B and |grad ln B| <= c_R, and f, B are continuous "
                 "(so ln B and f are absolutely continuous along every segment), the privacy-loss rate is "
                 "at most max_R sup_u [eta a_R |psi(u)| + c_R |1 + u psi(u)|]; with a_R <= 1 and c_R <= gamma "
                 "this is Definition 8 in local form, which integrates to condition 2 for g_E on the convex "
                 "domain R^d.  Regions are the common refinement of the pieces of f and B (piece k = its "
                 "condition and not an earlier one); Max/Min/Abs are split into the open sets where one "
                 "argument is strictly active and the tie set, where a point is covered if some active "
                 "argument satisfies the bound (where the max is differentiable its gradient equals every "
                 "active argument's).  With linear growth the same local condition |grad ln B| <= gamma is "
                 "the infinitesimal form of B(x) <= (1 + gamma d) B(x'); the two-point form itself is proved "
                 "separately when delta > 0.\n")
    L.append("## Conditions\n")
    L.append("| check | status | method | detail |\n|---|---|---|---|")
    for c in outcome.checks:
        L.append(f"| `{c.id}` | {c.status} | {c.method} | {c.detail} |")
    L.append("")
    L.append("## Regions and certified rates\n")
    L.append("a_R: certified upper bound of sup_R |grad f| / B; c_R: certified upper bound of sup_R |grad ln B|.\n")
    L.append("| region | a_R | c_R | conditions |\n|---|---|---|---|")
    conds = {leaf.label: leaf for leaf in outcome.leaves}
    for label, r in outcome.rates.items():
        leaf = conds.get(label)
        text = "; ".join(sp.sstr(c) for c in leaf.conds) if leaf is not None else "all x"
        if len(text) > 240:
            text = text[:237] + "..."
        alts = f" ({len(leaf.alts)} tied terms)" if leaf is not None and len(leaf.alts) > 1 else ""
        L.append(f"| `{label}`{alts} | {_fmt(r['a'])} ({r['a_status']}) | {_fmt(r['c'])} ({r['c_status']}) | "
                 f"`{text}` |")
    L.append("")
    L.append("## Obligations\n")
    dec = [r for r in outcome.records if r.decisive]
    by_alt = ", or one per alternative where z3 decided it alternative by alternative" if any(r.each for r in dec) else ""
    L.append(f"{len(dec)} decisive obligations (`obligations.smt2`, one (push)/(check-sat)/(pop) block each{by_alt}); "
             f"answers: " + ", ".join(f"{s} {sum(1 for r in dec if r.status == s)}"
                                     for s in ("unsat", "arb", "sat", "unknown") if any(r.status == s for r in dec))
             + ".\n")
    notes = sorted({n for r in outcome.records for n in r.obligation.notes})
    if notes:
        L.append("Sound abstractions used (each fact is true of the real function, so `unsat` remains a proof):\n")
        L += [f"- {n}" for n in notes]
        L.append("")
    if outcome.witness:
        L.append("## Witness (re-verified in mpmath at 50 digits)\n")
        L.append("```")
        for k, v in outcome.witness.items():
            L.append(f"{k}: {v}")
        L.append("```\n")
    return "\n".join(L) + "\n"


def without_identity(text: str) -> str:
    """A proof file's text without the lines that name the code that wrote it (and the sha256 of an
    obligations.smt2, which names it too): what the proof says."""
    return "\n".join(line for line in text.splitlines() if not line.startswith((CODE_TAG, CODE_MD, OBLIGATIONS_MD)))


def says_the_same(d: Path, obligations: str, md: str) -> bool:
    """The proof in d says what obligations.smt2 `obligations` and proof.md `md` say, whichever code
    wrote it."""
    try:
        old = [(d / name).read_text() for name in ("obligations.smt2", "proof.md")]
    except OSError:
        return False
    return [without_identity(t) for t in old] == [without_identity(obligations), without_identity(md)]


def write_artifacts(mech, outcome, out_dir: Path, root=".") -> Path:
    """Write proofs/<name>/ (left as it is where it already says the same: says_the_same)."""
    d = Path(out_dir) / mech.spec.name
    obligations = smt2_text(mech, outcome, root)
    md = proof_md(mech, outcome, root, obligations)
    if not says_the_same(d, obligations, md):
        _write(d / "obligations.smt2", obligations)
        _write(d / "proof.md", md)
    return d
