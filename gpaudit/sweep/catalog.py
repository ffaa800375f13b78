"""The catalog's sweeps: the papers' settings over their shape parameter, in reports/sweeps/.

* ``student-t-nu``: examples/threshold-student-t.yaml (the Student-t setting of Liang-Yi's
  experiments: nu gamma = eps/3, eta from Lemma 3.5 at eps = 1) over nu = 1, ..., 10; gamma and eta
  follow nu through the file's formulas.
* ``gen-cauchy-p``: examples/threshold-gen-cauchy.yaml (generalized Cauchy noise, theta = 1,
  gamma = eps/15, eta from Lemma 3.3's budget at eps = 1) over p from 3/2 to 14 (eta > 0 needs
  (p - 1) gamma < eps: p < 16).

Each directory holds sweep.csv, sweep.json, sweep.png and sweep.html (git keeps the first two,
:data:`COMMITTED_OUTPUTS`); ``reports/sweeps/README.md``
puts the certified epsilon_upper beside the lemma's constant for every point, which shows where
the lemmas' constants are loose. The finished points are kept in a temporary directory, not in
the repository. :func:`stale` says what is out of date (a configuration changed since).
:func:`regenerate` leaves sweep.csv and sweep.json as they are where the new run says the same apart
from its timings, so that a change of code that moves no point changes no file.

    from gpaudit.sweep.catalog import regenerate
    regenerate(root, effort="standard")       # what `gpaudit report --catalog` runs for reports/
"""

from __future__ import annotations

import csv
import io
import json
import tempfile
from dataclasses import dataclass
from pathlib import Path

import mpmath

from .. import __version__
from ..report.json_report import write_atomic
from .execute import cores
from .run import execute, make_plan

# what of a catalog sweep is kept in git (sweep.png and sweep.html are built on demand, with the
# catalog's reports, and ignored by git)
COMMITTED_OUTPUTS = ("sweep.csv", "sweep.json")


@dataclass(frozen=True)
class CatalogSweep:
    name: str          # the directory under reports/sweeps/
    config: str        # relative to the repository root
    vary: tuple        # --vary options
    about: str


SWEEPS = (
    CatalogSweep("student-t-nu", "examples/threshold-student-t.yaml", ("nu=1:10:10",),
                 "the Student-t threshold mechanism of the paper's experiments over nu (gamma and eta follow "
                 "the file's formulas: nu gamma = eps/3, eta from Lemma 3.5 at eps = 1)"),
    CatalogSweep("gen-cauchy-p", "examples/threshold-gen-cauchy.yaml", ("p=3/2,2,5/2,3,4,6,8,10,12,14",),
                 "the generalized Cauchy threshold mechanism over p (theta = 1, gamma = eps/15, eta from "
                 "Lemma 3.3's budget at eps = 1)"),
)


def regenerate(root, effort: str = "standard", jobs: int | None = None, progress=None) -> list[Path]:
    """Run every catalog sweep into ROOT/reports/sweeps/<name>/ and write the index
    ROOT/reports/sweeps/README.md; returns the paths written. ``progress``, if given, is called
    with (name, index, total) before each sweep."""
    root = Path(root)
    base = root / "reports" / "sweeps"
    written, done = [], []
    for i, sw in enumerate(SWEEPS):
        if progress is not None:
            progress(sw.name, i, len(SWEEPS))
        plan = make_plan(root / sw.config, list(sw.vary), effort=effort)
        before = _committed(base / sw.name)
        with tempfile.TemporaryDirectory(prefix="gpaudit-sweep-points-") as points:
            outcome = execute(plan, base / sw.name, jobs=jobs or cores(), points_dir=points,
                              display_path=sw.config)
        after = _committed(base / sw.name)
        if before is not None and after is not None and _timeless(before) == _timeless(after):
            # the same points: the committed text stays (its version and timings are the run's that wrote it)
            for name, text in before.items():
                write_atomic(base / sw.name / name, text.encode("utf-8"))
        written += list(outcome.paths.values())
        done.append((sw, plan, outcome))
    index = base / "README.md"
    write_atomic(index, index_markdown(done).encode("utf-8"))
    return written + [index]


def _committed(d: Path) -> dict | None:
    """{file: text} of the committed outputs in d (None where one is missing)."""
    try:
        return {name: (d / name).read_text(encoding="utf-8") for name in COMMITTED_OUTPUTS}
    except OSError:
        return None


def _timeless(texts: dict):
    """The committed outputs without what a run's timing decides (its seconds), and without the
    version of gpaudit that wrote them."""
    def strip(o):
        if isinstance(o, dict):
            return {k: strip(v) for k, v in o.items() if "second" not in k and k != "gpaudit_version"}
        return [strip(v) for v in o] if isinstance(o, list) else o
    rows = [{k: v for k, v in row.items() if "second" not in k} for row in csv.DictReader(io.StringIO(texts["sweep.csv"]))]
    try:
        data = strip(json.loads(texts["sweep.json"]))
    except ValueError:
        data = None
    return rows, data


def index_markdown(done) -> str:
    lines = ["# gpaudit sweeps", "",
             f"Generated by gpaudit {__version__} (`gpaudit.sweep.catalog.regenerate`, run with the catalog's "
             "reports). Do not edit: regenerate. Each point is the configuration with the varied parameter "
             "substituted, checked as `gpaudit check` checks a file; `paper ε` is the lemma's constant for the "
             "point's parameters, and `paper / certified` how loose it is.", ""]
    for sw, plan, outcome in done:
        name = plan.names[0]
        lines += [f"## {sw.name}", "", f"`{sw.config}`, {sw.about}: `--vary {' --vary '.join(sw.vary)}`.", "",
                  f"[csv]({sw.name}/sweep.csv) · [json]({sw.name}/sweep.json) (the figure `sweep.png` and the "
                  "page `sweep.html` are built by `gpaudit report --catalog`)", "",
                  f"| {name} | verdict | certified ε_upper | exhibited ε_lower | paper ε | paper / certified |",
                  "|---|---|---|---|---|---|"]
        for r in outcome.rows:
            paper = r["paper_constants"][0]["epsilon"] if r["paper_constants"] else None
            lines.append(f"| {r['params'][name]} | {r['verdict']} | {_num(r['epsilon_upper'])} | "
                         f"{_num(r['epsilon_lower'])} | {_num(paper)} | {_ratio(paper, r['epsilon_upper'])} |")
        lines.append("")
    return "\n".join(lines)


def stale(root) -> list[str]:
    """What in reports/sweeps/ does not match the current configurations ([] = up to date): a
    missing output, or a point whose configuration hash is not the one a sweep would check now."""
    root = Path(root)
    out = []
    for sw in SWEEPS:
        d = root / "reports" / "sweeps" / sw.name
        missing = [f for f in COMMITTED_OUTPUTS if not (d / f).exists()]
        if missing:
            out.append(f"reports/sweeps/{sw.name}: {', '.join(missing)} missing")
            continue
        try:
            recorded = [p["config_sha256"] for p in json.loads((d / "sweep.json").read_text(encoding="utf-8"))["points"]]
        except (OSError, ValueError, KeyError, TypeError):
            out.append(f"reports/sweeps/{sw.name}/sweep.json: not a sweep report")
            continue
        now = [p.sha256 for p in make_plan(root / sw.config, list(sw.vary)).points]
        if recorded != now:
            out.append(f"reports/sweeps/{sw.name}: {sw.config} or the grid changed since the sweep was written")
    if not (root / "reports" / "sweeps" / "README.md").exists():
        out.append("reports/sweeps/README.md: index missing")
    return out


def _num(v) -> str:
    if v is None:
        return "—"
    with mpmath.workdps(40):
        return mpmath.nstr(mpmath.mpf(v), 8)


def _ratio(paper, upper) -> str:
    if paper is None or upper is None:
        return "—"
    with mpmath.workdps(40):
        return mpmath.nstr(mpmath.mpf(paper) / mpmath.mpf(upper), 4)
