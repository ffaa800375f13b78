"""A sweep from start to end: plan (parse and validate everything), execute, write the outputs.

    plan = make_plan("examples/threshold-student-t.yaml", ["nu=1,2,3,4"])   # GridError / ConfigError
    outcome = execute(plan, "out/nu")                                        # local processes
    outcome = execute(plan, "out/nu", client=distributed.Client(address))   # a Dask cluster
    outcome.rows, outcome.exit_code, outcome.paths

Nothing is written until every point is substituted and validated. A finished point is kept in
DIR/points (gpaudit.sweep.store) as soon as it is known, and reused by a later run; the outputs
(sweep.csv, sweep.json, sweep.png, sweep.html) are written at the end from all the points.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from ..report.json_report import write_atomic, write_json_atomic
from .execute import Progress, run_dask, run_local
from .figure import sweep_png
from .grid import Axis, parse_vary, product
from .html import sweep_html
from .points import Point, build_points, code_identity, point_key
from .store import PointStore
from .table import csv_text, exit_code, json_payload, make_row
from .worker import verdict_of

OUTPUTS = ("sweep.csv", "sweep.json", "sweep.png", "sweep.html")


@dataclass
class Plan:
    path: str
    axes: list[Axis]
    points: list[Point]
    full_evidence: bool = False

    @property
    def names(self) -> list[str]:
        return [a.name for a in self.axes]


@dataclass
class Outcome:
    rows: list
    exit_code: int
    reused: int
    computed: int
    paths: dict = field(default_factory=dict)


def make_plan(path, vary, seed=None, effort=None, full_evidence=False) -> Plan:
    """Parse the --vary options and build and validate every point (GridError, ConfigError)."""
    path = os.fspath(path)
    axes = [parse_vary(v) for v in vary]
    return Plan(path, axes, build_points(path, product(axes), seed, effort), full_evidence)


def out_dir_problem(out) -> str | None:
    """Why DIR cannot be written (checked before any work), or None."""
    p = Path(out).absolute()
    if p.exists() and not p.is_dir():
        return f"{out}: --out: exists and is not a directory"
    parent = p
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir() or not os.access(parent, os.W_OK | os.X_OK):
        return f"{out}: --out: directory {parent} is not writable"
    return None


def execute(plan: Plan, out_dir, *, jobs: int = 1, client=None, cache: bool = True, points_dir=None,
            quiet: bool = True, display_path: str | None = None, on_record=None) -> Outcome:
    """Check every point not already finished in the point store, then write the outputs.

    ``jobs``: local worker processes (ignored with ``client``, a distributed.Client). ``on_record``,
    if given, is called as ``on_record(point, record)`` for each point computed in this run.
    ``points_dir``: where finished points are kept (default DIR/points). ``display_path``: the
    file as the outputs name it (default as given)."""
    # Every file is reached by an absolute path fixed here: a task run in this process (a Dask
    # worker with processes=False) may change the working directory while the outputs are written.
    given = Path(out_dir)
    out = given.absolute()
    store = PointStore(Path(points_dir).absolute() if points_dir is not None else out / "points")
    code = code_identity()
    records, keys, tasks = {}, {}, {}
    for p in plan.points:
        key = point_key(p.sha256, p.seed, p.effort, plan.full_evidence, code)
        rec = store.load(key)
        if rec is not None and reusable(p, rec):
            records[p.index], keys[p.index] = rec, key
        else:
            tasks[p.index] = (p.text, plan.path, p.seed, p.effort, plan.full_evidence, cache)
    reused = len(records)
    progress = Progress(len(plan.points), reused, quiet)
    stream = run_dask(tasks, client) if client is not None else run_local(tasks, min(jobs, max(1, len(tasks))))
    try:
        for index, rec in stream:
            p = plan.points[index]
            key = point_key(p.sha256, p.seed, p.effort, plan.full_evidence, rec.get("code") or code)
            keys[index] = key if store.save(key, rec, p.text, p.values) else None
            records[index] = rec
            progress.step(p.label(), verdict_of(rec))
            if on_record is not None:
                on_record(p, rec)
    finally:
        stream.close()   # an exception here (a closed pipe, ^C) still shuts the worker pool down
        progress.close()
    rows = [make_row(p, records[p.index], store.relative(keys[p.index], out) if keys.get(p.index) else None)
            for p in plan.points]
    spec = plan.points[0].spec
    meta = {"file": display_path or plan.path, "name": spec.name,
            "vary": [{"name": a.name, "spec": a.spec, "values": list(a.texts)} for a in plan.axes],
            "seed": plan.points[0].seed, "effort": plan.points[0].effort, "full_evidence": plan.full_evidence,
            "reused": reused}
    paths = {kind: given / path.name for kind, path in write_outputs(out, meta, plan.names, rows).items()}
    return Outcome(rows, exit_code(rows), reused, len(tasks), paths)


def reusable(p, rec: dict) -> bool:
    """Whether a record from the point store may stand for point p without checking it again.  A
    stored record is not evidence: an `unknown` (or a configuration error) claims nothing and is
    kept; a `refuted` one is checked again (a refutation is quick); a `certified` one is kept only
    where the kernel, in this process, accepts the certificate it records for this configuration."""
    verdict = verdict_of(rec)
    if verdict in ("unknown", "error"):
        return True
    if verdict != "certified":
        return False
    from ..verify import recheck
    return recheck(p.spec, (rec.get("report") or {}).get("certificate")) is not None


def write_outputs(out: Path, meta: dict, names, rows) -> dict[str, Path]:
    """sweep.csv, sweep.json, sweep.png (one or two varied parameters) and sweep.html."""
    out.mkdir(parents=True, exist_ok=True)
    paths = {"csv": out / "sweep.csv", "json": out / "sweep.json", "png": out / "sweep.png",
             "html": out / "sweep.html"}
    write_atomic(paths["csv"], csv_text(names, rows).encode("utf-8"))
    write_json_atomic(paths["json"], json_payload(meta, rows))
    what = f"ε along {names[0]}" if len(names) == 1 else " × ".join(names)
    png = sweep_png(names, rows, f"{meta['name']}: {what}")
    if png is None:
        paths.pop("png")
        if (out / "sweep.png").exists():   # a figure from an earlier sweep of another shape
            (out / "sweep.png").unlink()
    else:
        write_atomic(paths["png"], png)
    write_atomic(paths["html"], sweep_html(meta, names, rows, png).encode("utf-8"))
    return paths
