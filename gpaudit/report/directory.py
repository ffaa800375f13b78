"""One report directory: report.json, report.md, report.html and the figures of one result.

Used by :func:`gpaudit.api.report`, ``gpaudit report`` and the catalog (gpaudit.report.catalog).
report.json carries ``code_sha256`` (gpaudit.provenance) as every JSON report does; report.md
ends with the same identity (:func:`code_line`): the running code's for a result decided here, the
recorded one for a result read back from a JSON report.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..provenance import code_sha256
from .html import render_html
from .json_report import result_to_json, write_atomic
from .markdown import render_markdown
from .plots import make_plots

CODE_LINE = "Decided by gpaudit code sha256 "


def decided_by(result) -> str | None:
    """The code identity of the run that decided ``result``: the one its JSON report recorded for
    a result read back from one (``result.recorded``), else the running code's."""
    recorded = getattr(result, "recorded", None)
    if isinstance(recorded, dict):
        return recorded.get("code_sha256")
    return code_sha256()


def code_line(code: str | None) -> str:
    """The last line of a Markdown report: the identity of the code that decided it."""
    if not code:
        return "The report this was rendered from records no code sha256 (the decision-relevant sources)."
    return f"{CODE_LINE}`{code}` (the decision-relevant sources: gpaudit/provenance.py)."


FIGURES = ("query", "loss", "family", "output")
REPORT_FILES = ("report.json", "report.md", "report.html")
FORMATS = ("json", "md", "html", "png")


def write_report(result, mech, out_dir, formats=("json", "md", "html")) -> dict[str, Path]:
    """Write the chosen formats of one report into ``out_dir``; returns {format: path}.

    Formats: "json" (report.json, the `gpaudit check --json` object), "md" (report.md, which
    links its figures, so they are written too), "html" (report.html, figures embedded), "png"
    (the figures alone). Figure files are keyed "png:<name>". A figure from an earlier run that
    could not be drawn this time is removed, so no directory mixes two runs.
    """
    unknown = set(formats) - set(FORMATS)
    if unknown:
        raise ValueError(f"unknown report format(s) {sorted(unknown)} (known: {', '.join(FORMATS)})")
    if (getattr(result, "claim", None) or {}).get("notion") in ("smoothed_dp", "dp"):   # gpaudit/smoothed
        from ..smoothed.report import write_smoothed_report
        return write_smoothed_report(result, out_dir, formats)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written: dict[str, Path] = {}
    images, errors = {}, {}
    if {"md", "html", "png"} & set(formats):
        images = make_plots(result, mech, errors)
    if {"md", "png"} & set(formats):
        for name in FIGURES:
            target = out / f"{name}.png"
            if name in images:
                write_atomic(target, images[name])
                written[f"png:{name}"] = target
            elif target.exists():
                target.unlink()
    if "json" in formats:
        text = json.dumps(result_to_json(result), indent=2, default=str) + "\n"
        written["json"] = put(out / "report.json", text)
    if "md" in formats:
        md = render_markdown(result, mech, {k: f"{k}.png" for k in images}, figure_errors=errors)
        md = md.rstrip("\n") + "\n\n" + code_line(decided_by(result)) + "\n"
        written["md"] = put(out / "report.md", md)
    if "html" in formats:
        written["html"] = put(out / "report.html", render_html(result, mech, images, figure_errors=errors))
    return written


def put(path: Path, text: str) -> Path:
    write_atomic(path, text.encode("utf-8"))
    return path
