"""Reports of smoothed-DP / DP results: report.json, report.md, report.html and delta.png.

The figure puts the configuration in its family: the exact (smoothed) delta against n at the same
sampling rate T/n (T = ceil(eta n)), the DP delta T/n beside it (Theorem 3(iii): the SHM's DP delta
is exactly T/n), and the claimed delta. Every point is an enclosure [delta_lower, delta_upper]
computed as `gpaudit check` computes it; the curve is drawn through the lower ends.
"""

from __future__ import annotations

import base64
import html
import io
import json
import math
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

from ..kernel import numbers
from ..report.json_report import result_to_json, write_atomic
from . import exact
from .check import compute, summary_line

FIGURE = "delta"
CURVE_POINTS = 7


def _spec_of(result):
    """The configuration of a result, when its file still has the hash it was checked with."""
    from ..spec.load import load_spec
    try:
        spec = load_spec(result.path)
    except Exception:  # noqa: BLE001 - a report without a figure is still a report
        return None
    return spec if spec.sha256 == result.sha256 else None


def curve(spec, points: int = CURVE_POINTS) -> list[tuple[int, int, Fraction, Fraction]]:
    """[(n, T, delta_lower, delta_upper)] for n from about n/10 to n at the configuration's T/n."""
    if spec.kind != "sampling_histogram":
        return []
    rate = Fraction(spec.T, spec.n)
    lo_n = max(spec.m + 1, spec.n // 10)
    ns = sorted({int(round(lo_n * (spec.n / lo_n) ** (k / (points - 1)))) for k in range(points)} | {spec.n})
    out = []
    for n in ns:
        T = max(1, math.ceil(rate * n))
        if T > n and not spec.replacement:
            continue
        try:
            o = compute(replace(spec, n=n, T=T))[0]
        except exact.TooLarge:
            continue
        out.append((n, T, o.lower, o.upper))
    return out


def figure_png(spec, result) -> bytes | None:
    """delta against n (log scale) beside the DP line T/n and the claim."""
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    rows = curve(spec)
    if not rows:
        return None
    fig = Figure(figsize=(7, 4.2), layout="constrained")
    ax = fig.add_subplot()
    ns = [r[0] for r in rows]
    lo = [float(r[2]) if r[2] > 0 else float("nan") for r in rows]
    hi = [float(r[3]) if r[3] > 0 else float("nan") for r in rows]
    label = "smoothed delta (exact)" if spec.notion == "smoothed_dp" else "DP delta (exact)"
    ax.plot(ns, lo, "o-", color="tab:blue", label=label)
    ax.plot(ns, hi, "_", color="tab:blue")
    ax.plot(ns, [r[1] / r[0] for r in rows], "--", color="tab:red", label="DP delta T/n")
    claim = float(numbers.down(spec.claim.delta)) if spec.claim.delta != 0 else None
    if claim:
        ax.axhline(claim, color="black", linewidth=1, label=f"claimed delta {claim:.4g}")
    ax.axvline(spec.n, color="grey", linewidth=0.8, linestyle=":")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(f"n (records), T = ceil({Fraction(spec.T, spec.n)} n)")
    ax.set_ylabel("delta")
    ax.set_title(f"{spec.name}: {result.verdict} (epsilon = {spec.claim.epsilon})", fontsize=10)
    ax.legend(fontsize=8)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, metadata={"Software": None})
    return buf.getvalue()


def _json(result) -> dict:
    """The JSON report of a result (a result read back from one: that report as recorded)."""
    recorded = getattr(result, "recorded", None)
    return recorded if isinstance(recorded, dict) else result_to_json(result)


def markdown(result, figure: str | None) -> str:
    rep = _json(result)
    info = rep.get("info") or {}
    lines = [f"# {rep['name']}: {rep['verdict']}", "", f"`{summary_line(result)}`", "",
             "| | |", "|---|---|",
             f"| notion | {rep['claim'].get('notion')} |", f"| mechanism | {info.get('mechanism', '')} |",
             f"| claim | epsilon = {rep['claim']['epsilon']}, delta = {rep['claim']['delta']} |",
             f"| delta_lower (rounded down) | {rep.get('delta_lower')} |",
             f"| delta_upper (rounded up) | {rep.get('delta_upper')} |"]
    if info.get("T_over_n"):
        lines.append(f"| DP delta T/n | {info['T_over_n']} |")
    if rep.get("witness"):
        lines.append(f"| witness | {json.dumps(rep['witness'])} |")
    lines += ["", "## Checks", ""]
    for c in rep.get("checks", []):
        lines.append(f"- **{c['status']}** `{c['id']}`: {c['detail']} ({c.get('method', '')})")
    if figure:
        lines += ["", f"![delta against n]({figure})", "",
                  "*The exact delta against n at the same T/n (lower ends of the enclosures), the DP delta T/n and "
                  "the claim; the dotted line marks this configuration's n.*"]
    return "\n".join(lines) + "\n"


def html_page(result, png: bytes | None) -> str:
    md = markdown(result, None)
    body = "".join(f"<p>{html.escape(line)}</p>\n" for line in md.splitlines() if line.strip())
    img = (f'<img alt="delta against n" src="data:image/png;base64,{base64.b64encode(png).decode()}">'
           if png else "")
    return ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; "
            "style-src 'unsafe-inline'\">"
            f"<title>{html.escape(result.name)}</title></head><body style=\"font-family: sans-serif\">\n"
            f"{body}{img}\n</body></html>\n")


def write_smoothed_report(result, out_dir, formats) -> dict[str, Path]:
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = {}
    png = None
    if {"md", "html", "png"} & set(formats):
        spec = _spec_of(result)
        png = figure_png(spec, result) if spec is not None else None
    target = out / f"{FIGURE}.png"
    if {"md", "png"} & set(formats):
        if png:
            write_atomic(target, png)
            written[f"png:{FIGURE}"] = target
        elif target.exists():
            target.unlink()
    if "json" in formats:
        written["json"] = out / "report.json"
        write_atomic(written["json"], (json.dumps(_json(result), indent=2, default=str) + "\n").encode())
    if "md" in formats:
        written["md"] = out / "report.md"
        write_atomic(written["md"], markdown(result, f"{FIGURE}.png" if png else None).encode())
    if "html" in formats:
        written["html"] = out / "report.html"
        write_atomic(written["html"], html_page(result, png).encode())
    return written
