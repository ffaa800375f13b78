"""The Markdown report, and the facts every human-readable report shows.

:func:`report_facts` gathers, from a :class:`~gpaudit.verdict.Result` and its mechanism model,
everything a reviewer needs in the order they need it: the claim and the verdict; the certified
and exhibited epsilons beside the papers' constants; the witness and a command that reproduces
it; the mechanism in the paper's notation; every check with its evidence; and the environment.
:func:`render_markdown` and :func:`gpaudit.report.html.render_html` only lay those facts out.
"""

from __future__ import annotations

from ..readable import readable_exact

import json
from functools import lru_cache
import platform
import shlex
from importlib import metadata

import mpmath
import sympy as sp

from .. import __version__
from ..verdict import CERTIFIED, REFUTED, SKIPPED, UNKNOWN
from ..spec.types import Growth, Norm
from .notices import notices, rests_on

VERDICT_TITLE = {CERTIFIED: "CERTIFIED", REFUTED: "REFUTED", UNKNOWN: "UNKNOWN"}
VERDICT_SENTENCE = {
    CERTIFIED: "The claim holds: it was shown by sound methods only (proof or rigorous enclosure).",
    REFUTED: "The claim is false: a concrete witness violates it, re-verified in high precision.",
    UNKNOWN: "Neither certified nor refuted. A CI gate treats this as a failure.",
}
VERDICT_EMOJI = {CERTIFIED: "✅", REFUTED: "❌", UNKNOWN: "⚠️"}
STATUS_EMOJI = {CERTIFIED: "✅", REFUTED: "❌", UNKNOWN: "❔", SKIPPED: "⏭️"}
QUERY_TEXT = {
    "soft_threshold": "soft threshold f_τ (Liang-Yi Section 4.1.2)",
    "bounded_range": "bounded range f_τ, a tent with its peak at (l+r)/2 (Liang-Yi Appendix C.3)",
    "two_way_threshold": "two-way threshold f_τ (Liang-Yi Section 4.2)",
    "gaussian_kde": "Gaussian kernel κ_t(x) = exp(−‖x − t‖² / (2h²)) (Liang-Yi Section 4.3)",
    "piecewise": "user-defined piecewise function",
    "python": "user callable (traced into an exact formula where it can be: docs/traceable-code.md)",
}
FAMILY_TEXT = {
    "laplace": "Laplace, density exp(−|z|)/2",
    "gen_cauchy": "generalized Cauchy GenCauchy(0, 1, p, θ) (Liang-Yi Section 2.1)",
    "student_t": "Student's t T_ν(0, 1) (Liang-Yi Section 2.1)",
    "polyplace": "PolyPlace(1, α) (Hladík-Tětek Definition 6)",
    "gaussian": "Gaussian N(0, 1), density exp(−z²/2)/√(2π)",
}
RADIAL_TEXT = {"laplace": "exp(−‖z‖₂)", "gaussian": "exp(−‖z‖₂²/2)",
               "student_t": "(1 + ‖z‖₂²/ν)^(−(ν + k)/2)"}    # output.dim k > 1 (docs/mech-yaml.md)
GREEK = {"tau": "τ", "nu": "ν", "theta": "θ", "alpha": "α", "gamma": "γ", "eta": "η", "eps": "ε",
         "Lambda": "Λ", "delta": "δ"}
DISTRIBUTIONS = [("numpy", "numpy"), ("scipy", "scipy"), ("mpmath", "mpmath"), ("sympy", "sympy"),
                 ("z3", "z3-solver"), ("python-flint", "python-flint"), ("matplotlib", "matplotlib")]
FIGURE_CAPTIONS = {
    "query": "The query f and the bound B (in one dimension with the slope |f'| and an estimate of the "
             "pointwise Lipschitz constant L_{f,Λ} from secants on the plotted grid, which B must cover; "
             "in two dimensions as heat maps).",
    "loss": "The privacy-loss rate sup_y [ln p_x(y) − ln p_x'(y)] / dist(x, x') over a finite grid of "
            "outputs y, against the claimed ε. A float64 illustration; the witness (★) is the verified one.",
    "family": "The local rate of the noise family over the standardised output u that the certificate "
              "bounds: max over its regions R of η a_R|ψ(u)| + c_R|1 + uψ(u)| (each region's curve "
              "dashed), where ∥∇f∥ ≤ a_R B and ∥∇ln B∥ ≤ c_R are proved; its supremum is the certified "
              "ε_upper, so the curve never rises above that line.",
    "output": "The output plane (output.dim 2): contours of the log density of M(x) (blue) and M(x') "
              "(amber), at the witness pair when there is one, else at a landmark and a unit step, with the "
              "centres f(x), f(x') and the witness output y (★), where ln p_x(y) − ln p_x'(y) exceeds "
              "ε·dist(x, x'). A float64 illustration.",
}
FAMILY_CAPTION_UNCERTIFIED = (
    "The local rate η|ψ(u)| + γ|1 + uψ(u)| of the noise family over the standardised output u, in the "
    "form of Definition 8 (a = 1, c = γ). No certificate was computed for this configuration, so no "
    "certified line is drawn and the curve is not a bound on its ε.")
FAMILY_CAPTION_UNBOUNDED = (
    "The local rate of the noise family over the standardised output u: max over the certificate's "
    "regions R of η a_R|ψ(u)| + c_R|1 + uψ(u)|. It grows without bound, so the pure (δ = 0) rate is "
    "unbounded; the certified ε_upper of this δ > 0 claim rests on another route (certificate.delta), "
    "not on this curve, and is not drawn.")
LOSS_CAPTION_DELTA = (
    "δ > 0: the claim bounds the hockey-stick divergence sup_S P[M(x)∈S] − e^{ε·dist} P[M(x')∈S] by δ. "
    "Top: the largest divergence over pairs at each distance (float64, on a located set S, so a lower "
    "bound), against δ, with the audit's largest verified divergence, the certificate's δ at the claimed "
    "ε and the witness (★); the claim holds where everything stays below the δ line. Bottom: the pure "
    "loss rate, which δ may absorb.")


def _metric_text(metric) -> str:
    """The metric row of the mechanism table: dist(x, x') in words."""
    if metric.euclidean:
        return "Euclidean metric" if metric.kind == Norm.L2 else f"{metric.kind} metric (= |x − x'| in one dimension)"
    return f"{metric.label} metric: dist(x, x') = {metric.norm_text}"


def figure_caption(name: str, result=None) -> str:
    """The caption of a figure (the loss figure of a δ > 0 claim shows the divergence first)."""
    if name == "loss" and result is not None and _delta_claim(result):
        return LOSS_CAPTION_DELTA
    if name == "family" and result is not None and not family_rate_is_the_bound(result):
        return FAMILY_CAPTION_UNBOUNDED if region_evidence(result) else FAMILY_CAPTION_UNCERTIFIED
    return FIGURE_CAPTIONS.get(name, name)


# ---------------------------------------------------------------------------------------------
# Numbers


def fmt_number(v, digits: int = 12) -> str:
    """A decimal string or mpf as a short decimal ('—' for None)."""
    if v is None:
        return "—"
    try:
        with mpmath.workdps(max(50, digits + 5)):
            return mpmath.nstr(mpmath.mpf(v), digits)
    except (TypeError, ValueError):
        return str(v)


def gap(upper, lower):
    """epsilon_upper − epsilon_lower at 50 digits (None unless both are known)."""
    if upper is None or lower is None:
        return None
    with mpmath.workdps(50):
        return mpmath.mpf(upper) - mpmath.mpf(lower)


def fmt_exact(expr) -> str:
    """An exact sympy number as written, with its decimal value when it is not an integer."""
    expr = sp.sympify(expr)
    if expr in (sp.oo, -sp.oo):
        return "∞" if expr == sp.oo else "−∞"
    text = sp.sstr(expr)
    if expr.is_Integer or not expr.is_number:
        return text
    return f"{text} ≈ {sp.N(expr, 10)}"


def _greek(name: str) -> str:
    return GREEK.get(name, name)


# ---------------------------------------------------------------------------------------------
# Facts


def report_facts(result, mech) -> dict:
    """Everything a report shows, as plain strings and lists (see the module docstring)."""
    info = getattr(result, "info", None) or {}
    audit = info.get("audit", {}) or {}
    spec = getattr(mech, "spec", None)
    return {
        "name": result.name,
        "path": result.path,
        "sha256": result.sha256,
        "description": (spec.description.strip() if spec is not None else ""),
        "verdict": result.verdict,
        "verdict_title": VERDICT_TITLE.get(result.verdict, result.verdict.upper()),
        "verdict_sentence": VERDICT_SENTENCE.get(result.verdict, ""),
        "claim_text": claim_text(result, spec),
        "numbers": number_rows(result),
        "paper_constants": paper_constant_rows(result),
        "why": why_not_certified(result),
        "witness": witness_rows(result),
        "reproduce": reproduce_command(result),
        "mechanism": mechanism_rows(mech, getattr(result, "mechanism_note", None)),
        "delta": delta_rows(result),
        "checks": check_rows(result),
        "metadata": metadata_rows(result, audit, info),
        "notices": [text for _, text in notices(result)],
        "rests_on": rests_on(result),
        "advice": (info.get("advice") if result.verdict in (UNKNOWN, REFUTED) else None),
    }


def claim_text(result, spec) -> str:
    lam = fmt_exact(spec.bound.Lambda) if spec is not None else "(see the configuration)"
    return (f"(ε, δ, Λ)-Geo-Privacy with ε = {readable_exact(result.claim.get('epsilon'))}, "
            f"δ = {readable_exact(result.claim.get('delta', '0'))}, Λ = {lam}")


def _claimed(text) -> str:
    """The claimed value as read, and its exact value where that differs (a YAML float)."""
    shown = readable_exact(text)
    return shown if shown == str(text) else f"{shown} = {text}"


def number_rows(result) -> list[tuple[str, str]]:
    """The epsilons.  A δ > 0 claim bounds the hockey-stick divergence, not the pure loss rate,
    which may be unbounded (Laplace noise with exponential growth): its exhibited ε_lower and the
    gap would be meaningless numbers (2.35e+15 beside a certified 1.18), so the report shows the
    divergence against δ instead (delta_rows) and leaves them to the JSON report."""
    rows = [
        ("claimed ε", _claimed(result.claim.get("epsilon"))),
        ("certified ε_upper (a sound upper bound on the true ε)", fmt_number(result.epsilon_upper)),
    ]
    if _delta_claim(result):
        return rows
    return rows + [
        ("exhibited ε_lower (largest verified loss rate)", fmt_number(result.epsilon_lower)),
        ("gap ε_upper − ε_lower (tightness of the analysis)", gap_text(result)),
    ]


def exhibited_text(result, digits: int = 12) -> str:
    """What the audit exhibited, in one cell: ε_lower for a pure claim, the largest hockey-stick
    divergence against δ for a δ > 0 claim."""
    if not _delta_claim(result):
        approx = (getattr(result, "info", None) or {}).get("approximate_epsilon_lower")
        if result.epsilon_lower is None and approx is not None:
            return f"— (approximate model: {fmt_number(approx, digits)}, evidence only)"
        return fmt_number(result.epsilon_lower, digits)
    found = ((getattr(result, "info", None) or {}).get("audit") or {}).get("hockey_stick_max")
    return f"divergence {fmt_number(found, digits)} (δ = {readable_exact(result.claim.get('delta'))})"


def gap_text(result) -> str:
    """The gap, and what a negative one means: with delta > 0 the exhibited pure loss rate is not
    bounded by the certified epsilon (delta absorbs it); with delta = 0 it is a contradiction."""
    g = gap(result.epsilon_upper, result.epsilon_lower)
    if g is None or g >= 0:
        return fmt_number(g)
    if str(result.claim.get("delta", "0")) not in ("0", "0.0"):
        return (f"{fmt_number(g)} (δ > 0: ε_lower is the pure loss rate, which δ may absorb; "
                "the hockey-stick divergence is what the claim bounds)")
    return f"{fmt_number(g)} (NEGATIVE: an exhibited rate above the certified bound; the two contradict)"


def region_evidence(result) -> list[dict]:
    """The regions of the certificate's family rate (evidence of 'certificate.rate'), [] if none."""
    for c in getattr(result, "checks", []):
        if getattr(c, "id", "") == "certificate.rate":
            return list((c.evidence or {}).get("regions", []))
    return []


def family_rate_is_the_bound(result) -> bool:
    """True when the certified ε_upper is the supremum of the certificate's family rate: there are
    regions and each one's rate is finite (a δ > 0 claim with an unbounded pure rate is certified by
    another route, certificate.delta)."""
    regions = region_evidence(result)
    try:
        return bool(regions) and all(mpmath.isfinite(mpmath.mpf(str(r.get("upper")))) for r in regions)
    except (TypeError, ValueError):
        return False


def _delta_claim(result) -> bool:
    return str(result.claim.get("delta", "0")) not in ("0", "0.0")


def delta_rows(result) -> list[tuple[str, str]]:
    """For a δ > 0 claim: δ, the largest hockey-stick divergence the audit verified (against δ)
    and the certificate's δ at the claimed ε; [] for a pure claim."""
    if not _delta_claim(result):
        return []
    delta = result.claim.get("delta")
    found = ((getattr(result, "info", None) or {}).get("audit") or {}).get("hockey_stick_max")
    rows = [("claimed δ", _claimed(delta))]
    if found is None:
        rows.append(("largest hockey-stick divergence found (audit)", "— (not computed)"))
    else:
        above = _exceeds(found, delta)
        relation = ("> δ: the claim is violated (the witness below)" if above
                    else "≤ δ: no violation found (a search cannot certify)" if above is False else "")
        rows.append(("largest hockey-stick divergence found (audit, verified, rounded down)",
                     f"{fmt_number(found)}  {relation}".rstrip()))
    for c in result.checks:
        if c.id == "certificate.delta" and c.status == CERTIFIED:
            bound = (c.evidence or {}).get("delta_upper_at_claim")
            if bound is not None:
                rows.append(("certified δ at the claimed ε (an upper bound on the divergence)", fmt_number(bound)))
    return rows


def _exceeds(value, delta):
    """value > delta, compared at 60 digits (None when either cannot be read)."""
    try:
        with mpmath.workdps(60):
            return mpmath.mpf(str(value)) > mpmath.mpf(sp.N(sp.sympify(delta), 70))
    except (TypeError, ValueError, sp.SympifyError):
        return None


def paper_constant_rows(result) -> list[tuple[str, str]]:
    """The papers' epsilons for this family and parameters (evidence of 'certificate.rate')."""
    for c in result.checks:
        if c.id == "certificate.rate":
            return [(str(lbl), fmt_number(val)) for lbl, val in (c.evidence or {}).get("paper_constants", [])]
    return []


def why_not_certified(result) -> list[str]:
    """For an unknown verdict: what stood in the way (the certificate side of the checks)."""
    if result.verdict != UNKNOWN:
        return []
    out = []
    if result.epsilon_upper is None:
        out.append("no certified upper bound ε_upper was obtained")
    else:
        with mpmath.workdps(50):
            try:
                if mpmath.mpf(result.epsilon_upper) > mpmath.mpf(sp.N(sp.sympify(result.claim["epsilon"]), 60)):
                    out.append("the certified upper bound ε_upper exceeds the claimed ε")
            except (TypeError, ValueError, sp.SympifyError):
                pass
    certificate = [c for c in result.checks if not c.id.startswith(("privacy.", "definition8."))]
    out += [f"check {c.id} is {c.status}: {c.detail}" for c in certificate if c.status in (UNKNOWN, REFUTED)]
    if not out:  # nothing open: what is left are the certificate checks that were skipped
        out += [f"check {c.id} is skipped, not certified: {c.detail}" for c in certificate if c.status == SKIPPED]
    return out


def witness_rows(result) -> list[tuple[str, str]]:
    w = result.witness
    if not w:
        return []
    labels = [("x", "x"), ("x_prime", "x'"), ("y", "y"), ("dist", "dist(x, x')"),
              ("log_ratio", "ln p_x(y) − ln p_x'(y)"), ("epsilon_times_dist", "ε · dist"),
              ("rate", "rate = log_ratio / dist"), ("hockey_stick", "hockey stick sup_S P[M(x)∈S] − e^{ε·dist} P[M(x')∈S]"),
              ("set", "set S")]
    rows = []
    for key, label in labels:
        if key in w:
            v = w[key]
            rows.append((label, ", ".join(_interval(e) for e in v) if key == "set" else
                         ("(" + ", ".join(map(str, v)) + ")" if isinstance(v, list) else str(v))))
    known = {k for k, _ in labels}
    rows += [(k, json.dumps(v, default=str)) for k, v in w.items() if k not in known]
    return rows


def _interval(e) -> str:
    return f"[{e[0]}, {e[1]}]" if isinstance(e, (list, tuple)) and len(e) == 2 else str(e)


def reproduce_command(result) -> str:
    """`gpaudit check FILE --seed N --effort E` with the seed and effort of the audit that ran."""
    audit = (getattr(result, "info", None) or {}).get("audit", {}) or {}
    cmd = ["gpaudit", "check", result.path]
    if "seed" in audit:
        cmd += ["--seed", str(audit["seed"])]
    if "effort" in audit:
        cmd += ["--effort", str(audit["effort"])]
    return " ".join(shlex.quote(str(c)) for c in cmd)


def mechanism_rows(mech, note: str | None = None) -> list[tuple[str, str]]:
    """The mechanism in the paper's notation, parameter by parameter (exact values); ``note`` says
    why the mechanism is unavailable (a report rendered from JSON whose configuration changed)."""
    if mech is None:
        return [("mechanism", f"unavailable: {note or 'the configuration could not be built'}")]
    spec = mech.spec
    q, b, n = spec.query, spec.bound, spec.noise
    growth = ("g(x, x') = exp(γ · dist(x, x'))  (g_E)" if b.growth == Growth.EXPONENTIAL
              else "g(x, x') = 1 + γ · dist(x, x')  (g_L)")
    k = getattr(spec, "output_dim", 1)
    out = f", f(x) and Z in ℝ{_superscript(k)}" if k > 1 else ""
    rows = [("mechanism", f"M(x) = f(x) + (B(x)/η) · Z,  x ∈ ℝ{_superscript(spec.dim)}{out}, "
                              f"{_metric_text(mech.metric)}"),
            ("query f", f"{q.kind}: {QUERY_TEXT.get(q.kind, q.kind)}")]
    rows += [(f"  {_greek(k)}", _field_text(v)) for k, v in q.fields.items()]
    rows += [(f"  piece {i + 1}", _piece_text(p)) for i, p in enumerate(q.pieces)]
    rows += _traced_rows(mech.query)
    rows += _bound_rows(b, mech.bound.source)
    rows += [(f"  piece {i + 1}", _piece_text(p)) for i, p in enumerate(b.pieces)]
    rows += _traced_rows(mech.bound)
    rows += [("growth g", growth), ("γ", fmt_exact(b.gamma)), ("Λ", fmt_exact(b.Lambda)),
             ("noise Z", f"{n.family}: " + (FAMILY_TEXT.get(n.family, n.family) if k == 1 else
                                            f"radial in ℝ{_superscript(k)}, density c_k · {RADIAL_TEXT[n.family]}"))]
    rows += [(f"  {_greek(k)}", fmt_exact(v)) for k, v in n.shape.items()]
    rows += [("η", fmt_exact(n.eta)), ("claim ε", fmt_exact(spec.claim.epsilon)),
             ("claim δ", fmt_exact(spec.claim.delta))]
    if spec.binary_floats:
        rows.append(("YAML floats", "exact binary value used for: " + ", ".join(spec.binary_floats)))
    return rows


DERIVED_FIELDS = ("derived_from", "derived_beta", "derivation")


def _bound_rows(b, source: str) -> list[tuple[str, str]]:
    """The bound's rows; a bound of kind `derived` (a piecewise bound whose formula was derived by
    Laud et al.'s rules, gpaudit/model/derive.py) says so and lists the rules applied."""
    if not b.derived:
        return ([("bound B", f"{b.kind}: {source}")]
                + [(f"  {_greek(k)}", _field_text(v)) for k, v in b.fields.items()])
    rows = [("bound B", "derived (bound.kind: derived): a formula proposed by Laud, Pankova and Pettai's rules "
                        "(Table 2, Figure 1), then proved like any piecewise bound; the rules are not trusted"),
            ("  smoothness the rules claim", f"{fmt_exact(b.fields['derived_beta'])} (the certificate uses γ "
                                             "and the proved c_R, not this number)")]
    for i, line in enumerate(b.fields["derivation"].splitlines()):
        depth = (len(line) - len(line.lstrip(" "))) // 2  # table cells drop leading spaces: dots instead
        rows.append(("  derivation" if i == 0 else "", "· " * depth + line.strip()))
    rows += [(f"  {_greek(k)}", _field_text(v)) for k, v in b.fields.items() if k not in DERIVED_FIELDS]
    return rows


def _superscript(n: int) -> str:
    return str(n).translate(str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"))


def _field_text(v) -> str:
    if isinstance(v, (tuple, list)):
        return "(" + ", ".join(_field_text(e) for e in v) + ")"
    if isinstance(v, dict):  # a python callable's args
        return "{" + ", ".join(f"{k}: {_field_text(e)}" for k, e in v.items()) + "}"
    if isinstance(v, (str, bool)):
        return str(v)
    return fmt_exact(v)


def _traced_rows(model) -> list[tuple[str, str]]:
    """A python kind: the formula it was traced into (docs/traceable-code.md), or where tracing stopped."""
    from ..model.trace import Traced, TraceStop
    t = getattr(model, "trace", None)
    if isinstance(t, Traced):
        return [("  traced from", t.source)] + [(f"  piece {i + 1}", _piece_text(p))
                                                for i, p in enumerate(t.loader_pieces())]
    if isinstance(t, TraceStop):
        return [("  not traced", f"{t.construct} at {t.where}")]
    return []


def _piece_text(p) -> str:
    return f"{sp.sstr(p.value)}" + ("" if p.where is sp.true else f"   if {sp.sstr(p.where)}")


def check_rows(result) -> list[dict]:
    """Each check as {status, id, method, detail, evidence (pretty JSON or '')}."""
    return [{"status": c.status, "id": c.id, "method": c.method, "detail": c.detail,
             "evidence": json.dumps(c.evidence, indent=2, default=str) if c.evidence else ""}
            for c in result.checks]


def metadata_rows(result, audit: dict, info: dict) -> list[tuple[str, str]]:
    """The environment and the settings of the run, for a reviewer to reproduce it."""
    rows = [("gpaudit", __version__), ("python", platform.python_version())]
    rows += [(label, _version(dist)) for label, dist in DISTRIBUTIONS]
    rows += [("precision", precision_text()),
             ("seed", str(audit.get("seed", "—"))), ("effort", str(audit.get("effort", "—"))),
             ("pairs screened", str(audit.get("pairs_screened", "—"))),
             ("audit seconds", str(audit.get("seconds", "—"))), ("total seconds", str(info.get("seconds", "—"))),
             ("config sha256", result.sha256)]
    if info.get("binary_floats"):
        rows.append(("binary floats", ", ".join(info["binary_floats"])))
    rows += [("note", note) for note in info.get("notes") or ()]
    source = getattr(result, "source", None)
    if source:  # a result read back from a JSON report
        rows.append(("rendered from", f"{source}: the verdict, numbers and witness of gpaudit "
                                      f"{getattr(result, 'gpaudit_version', None) or '?'}'s check, not re-checked "
                                      "(gpaudit report --from-json)"))
    return rows


def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "not installed"


def precision_text() -> str:
    """What precision each stage uses (read from the audit module where it is declared)."""
    try:
        from ..audit.search import VERIFY_DPS
        digits = " and ".join(str(d) for d in VERIFY_DPS)
    except ImportError:  # pragma: no cover - the audit module declares it
        digits = "50+"
    return (f"float64 screening; witnesses re-verified with mpmath at {digits} digits; "
            "certificates enclosed with arb (python-flint) and proved with z3")


# ---------------------------------------------------------------------------------------------
# Markdown


def _md(text) -> str:
    """Text safe inside a Markdown table cell."""
    text = str(text).replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")
    return text.replace("*", "\\*").replace("<", "\\<")


def _table(header: tuple[str, ...], rows) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(_md(c) for c in row) + " |" for row in rows]
    return out


def render_markdown(result, mech, image_paths: dict[str, str], figure_errors: dict | None = None) -> str:
    """The report as GitHub-flavoured Markdown; figures linked from ``image_paths`` (name -> path).

    ``figure_errors`` (name -> reason), as filled by :func:`~gpaudit.report.plots.make_plots`,
    says why a figure is missing.  The page is the jinja2 template templates/report.md.j2."""
    F = report_facts(result, mech)
    text = _template("report.md.j2").render(
        F=F, emoji=VERDICT_EMOJI.get(F["verdict"], ""),
        images=[(name, path, figure_caption(name, result)) for name, path in image_paths.items()],
        figure_errors=sorted((figure_errors or {}).items()),
        check_rows=[(f"{STATUS_EMOJI.get(c['status'], '')} {c['status']}", f"`{c['id']}`", c["method"], c["detail"])
                    for c in F["checks"]],
        table=lambda header, rows: "\n".join(_table(header, rows)))
    return text.rstrip("\n") + "\n"


@lru_cache(maxsize=None)
def _template(name: str):
    import jinja2
    from pathlib import Path
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(Path(__file__).with_name("templates"))),
                             autoescape=False, undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    env.filters["md"] = _md
    return env.get_template(name)
