"""The HTML report: one self-contained page (inline CSS, figures as data: URIs, no script).

The page declares a Content-Security-Policy that forbids every external resource, so a browser
that opens it offline shows exactly what a reviewer would see anywhere. The facts come from
:func:`gpaudit.report.markdown.report_facts`; this module only lays them out.
"""

from __future__ import annotations

import base64
from functools import lru_cache
from pathlib import Path

from .. import __version__
from .markdown import figure_caption, fmt_number, report_facts

CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'"
COLOURS = {"certified": "#1a7f37", "refuted": "#cf222e", "unknown": "#9a6700", "skipped": "#6e7781"}
CSS = """
*{box-sizing:border-box}
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;color:#1f2328;background:#f6f8fa}
main{max-width:1100px;margin:0 auto;padding:0 24px 40px}
.verdict{color:#fff;padding:28px 32px;margin:0 0 24px}
.verdict .label{font-size:48px;font-weight:800;letter-spacing:.04em;line-height:1.1}
.verdict .claim{font-size:20px;margin-top:8px}
.verdict .sentence{font-size:16px;opacity:.95;margin-top:4px}
.verdict .name{font-size:15px;opacity:.9;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
section{background:#fff;border:1px solid #d0d7de;border-radius:8px;padding:16px 22px;margin:0 0 20px}
h2{font-size:20px;margin:0 0 12px;border-bottom:1px solid #d8dee4;padding-bottom:6px}
table{border-collapse:collapse;width:100%;font-size:14px}
th,td{text-align:left;vertical-align:top;padding:5px 10px;border-bottom:1px solid #eaeef2}
th{background:#f6f8fa}
th.sub{font-weight:400;padding-left:28px}
td.mono,code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px}
td.mono{overflow-wrap:anywhere}
pre{background:#f6f8fa;border:1px solid #d0d7de;border-radius:6px;padding:10px;overflow-x:auto;white-space:pre-wrap;word-break:break-all}
.cards{display:flex;gap:14px;flex-wrap:wrap;margin-bottom:14px}
.card{flex:1 1 200px;border:1px solid #d0d7de;border-radius:8px;padding:10px 14px;background:#f6f8fa}
.card .k{font-size:13px;color:#57606a}
.card .v{font-size:24px;font-weight:700;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.pill{display:inline-block;color:#fff;border-radius:12px;padding:1px 10px;font-size:12px;font-weight:700;text-transform:uppercase}
.formula{font-size:20px;font-family:"Times New Roman",Times,serif;font-style:italic;text-align:center;margin:6px 0 14px}
figure{margin:0 0 22px}
figure img{display:block;width:100%;max-width:1000px;height:auto;margin:0 auto;border:1px solid #eaeef2}
figcaption{max-width:1000px;margin:6px auto 0}
figcaption{font-size:13px;color:#57606a}
details summary{cursor:pointer;color:#0969da;font-size:13px}
ul.why{margin:6px 0 0 0}
section.notices{border:2px solid #cf222e;background:#fff5f5;font-weight:600}
section.notices p{margin:4px 0}
footer{color:#57606a;font-size:12px;text-align:center}
"""


def render_html(result, mech, images: dict[str, bytes], figure_errors: dict | None = None) -> str:
    """The report as one self-contained HTML page; ``images`` maps figure names to PNG bytes and
    ``figure_errors`` (optional, name -> reason) says why a figure is missing.  The page is the
    jinja2 template templates/report.html.j2, autoescaped."""
    F = report_facts(result, mech)
    figures = [(name, base64.b64encode(png).decode("ascii"), figure_caption(name, result))
               for name, png in images.items()]
    return template("report.html.j2").render(
        F=F, csp=CSP, css=CSS, colour=COLOURS.get(F["verdict"], "#57606a"), version=__version__,
        figures=figures, figure_errors=sorted((figure_errors or {}).items()),
        status_colour=lambda status: COLOURS.get(status, "#57606a"),
        number_card=lambda i, v: v if i == 0 else _short(v),
        delta_card=lambda i, v: v if i == 0 else _short(v.split("  ")[0]))


@lru_cache(maxsize=None)
def template(name: str):
    """A template of report/templates (HTML ones autoescaped)."""
    import jinja2
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(Path(__file__).with_name("templates"))),
                             autoescape=jinja2.select_autoescape(["html", "html.j2"]),
                             undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    return env.get_template(name)


def _short(v: str) -> str:
    """A card's number: 8 significant digits (the table below has more, and any remark)."""
    head = v.split(" (")[0]
    return head if head == "—" else fmt_number(head, 8)
