"""Report directories, and the generated reports of the catalog (``reports/``).

:func:`write_reports` checks configurations and writes one report directory each
(:func:`~gpaudit.report.directory.write_report`) and an index. :func:`regenerate` does so for every
catalog configuration (``examples/*.yaml`` and ``examples/broken/*.yaml``) under
``reports/<config-name>/`` and writes the index ``reports/README.md``.

Each committed report is pinned to what decides it, by value, not to the code as a whole: its
configuration's sha256 and its :func:`decision` (the verdict, the claim, and for a verdict other than
refuted the certified bound and the certificate).  :func:`regenerate` leaves a report's
``report.json`` and ``report.md`` as they are where the current code decides the same (it writes the
HTML page and the figures, which git does not keep), so a change of code that moves no decision
changes no file; the ``code_sha256`` a report records is the code that wrote it.
tests/whole_repo/test_catalog.py compares each committed decision with the catalog's one run, and
verifies each committed witness with the independent reference implementations.  :func:`stale`
lists what needs no run to see: a report whose recorded config sha256 is not the configuration's
current one, a ``report.md`` that is not the one written with its ``report.json`` (another code
sha256), a missing report, a report without a configuration, an index that does not list a
configuration at its current hash.

:func:`write_baseline` writes ``reports/baseline.json`` (``gpaudit report --catalog --baseline-only``):
every catalog configuration's verdict, bounds and witness at the effort the tests check the catalog
with (:data:`BASELINE_EFFORT`), a list of JSON-report entries that ``gpaudit check --baseline`` also
reads; :func:`baseline_differences` lists what a run of the catalog does differently (verdicts and
certified bounds exactly, what the float64 search found within :data:`SEARCH_RTOL`). It is pinned
to no code identity: it is compared by value (tests/whole_repo/test_catalog.py), so a change that moves no
verdict, bound or witness leaves it as it is.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import shutil
from pathlib import Path

import mpmath
import yaml

from ..readable import readable_exact

from .. import __version__
from ..api import check, load, mechanism_for
from ..spec.types import Spec
from .json_report import ReportFormatError, read_report
from .junit import as_report
from .directory import CODE_LINE, FIGURES, REPORT_FILES, code_line, decided_by, put, write_report  # noqa: F401
from .markdown import VERDICT_EMOJI, exhibited_text, fmt_number

REGENERATE = "gpaudit report --catalog"
# what of a catalog report is kept in git: the text a reviewer reads (report.html and the figures are
# built on demand by REGENERATE, and ignored by git)
COMMITTED_REPORT_FILES = ("report.json", "report.md")
BASELINE = "reports/baseline.json"
BASELINE_EFFORT = "quick"
REGENERATE_BASELINE = "gpaudit report --catalog --baseline-only"
# what a baseline entry keeps of a JSON report; "file" relative to the repository root
BASELINE_KEYS = ("name", "file", "config_sha256", "verdict", "epsilon_upper", "epsilon_lower", "witness")
# the float64 search's results (epsilon_lower, the witness) may differ in their last digits between
# processors (numpy's vectorised exp and log; docs/ci.md, about 1e-11 relative on the catalog): they
# are compared within this, relative to max(|value|, 1); verdicts and certified bounds exactly
SEARCH_RTOL = 1e-9

# What decides a committed report (decision()): a refuted one is decided by its verdict (its witness is
# verified on its own, and what the search exhibits is the baseline's); any other also by the bound it
# certifies and the certificate the kernel accepted
DECISION_KEYS = ("config_sha256", "verdict", "claim")
DECISION_KEYS_CERTIFIED = DECISION_KEYS + ("epsilon_upper", "certificate")

# ---------------------------------------------------------------------------------------------
# The catalog


def catalog_configs(root) -> list[Path]:
    """The catalog's configurations: examples/*.yaml, then examples/broken/*.yaml, sorted."""
    root = Path(root)
    return sorted((root / "examples").glob("*.yaml")) + sorted((root / "examples" / "broken").glob("*.yaml"))


def dir_name(name: str) -> str:
    """A configuration name as a directory name (anything unusual becomes '-')."""
    return re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.") or "unnamed"


def config_identity(path: Path) -> tuple[str, str]:
    """(name, sha256) of a configuration file without a full load (the name falls back to the
    file's stem when the YAML cannot be read)."""
    data = Path(path).read_bytes()
    try:
        raw = yaml.safe_load(data.decode("utf-8"))
        name = str(raw["name"]).strip() if isinstance(raw, dict) and raw.get("name") else Path(path).stem
    except (yaml.YAMLError, UnicodeDecodeError):
        name = Path(path).stem
    return name, hashlib.sha256(data).hexdigest()


def decision(report) -> dict:
    """What decides a report (a result or its JSON report dict), compared by value: its config
    sha256, verdict and claim, and unless it is refuted its certified bound and certificate."""
    recorded = getattr(report, "recorded", None)          # a report read back: what it records
    rep = recorded if isinstance(recorded, dict) else as_report(report)
    keys = DECISION_KEYS if rep.get("verdict") == "refuted" else DECISION_KEYS_CERTIFIED
    return {k: rep.get(k) for k in keys}


def _kept(d: Path, result):
    """The report written in d (read back) where it records the decision the current run made and
    both of its committed files are there; else None (it is written again)."""
    if not all((d / f).is_file() for f in COMMITTED_REPORT_FILES):
        return None
    try:
        (old,) = read_report(str(d / "report.json"))
    except (ReportFormatError, ValueError):
        return None
    return old if decision(old) == decision(result) else None


def write_reports(items, out_dir, effort=None, seed=None, progress=None, relative_to=None,
                  formats=("json", "md", "html"), keep_same=False) -> tuple[list, list[Path]]:
    """Check each configuration (a path or a loaded Spec) and write out_dir/<name>/ for each, and
    an index out_dir/README.md. Returns (results, paths written).

    ``relative_to``: a directory the reports show configuration paths relative to (else as
    given). ``progress``, if given, is called with (name, index, total) before each check.
    ``keep_same``: where a directory already holds a report of the same :func:`decision`, its
    report.json and report.md stay as they are (the other formats are written), and the index
    lists that report.
    Configuration errors raise ConfigError (a command line loads every file first, so it can
    exit 2 before checking anything). Two configurations with one name are refused.
    """
    specs = [item if isinstance(item, Spec) or hasattr(item, "notion") else load(item) for item in items]
    _refuse_duplicates([s.name for s in specs], [s.path for s in specs])
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    results, written = [], []
    for i, spec in enumerate(specs):
        if progress is not None:
            progress(spec.name, i, len(specs))
        result = check(spec, seed=seed, effort=effort, full_evidence=True)
        if relative_to is not None:
            result = dataclasses.replace(
                result, path=Path(spec.path).resolve().relative_to(Path(relative_to).resolve()).as_posix())
        d = out / dir_name(result.name)
        old = _kept(d, result) if keep_same else None
        paths = write_report(result, mechanism_for(spec), d,
                             formats if old is None else tuple(f for f in formats if f not in ("json", "md")))
        written += list(paths.values())
        results.append(result if old is None else old)
    written.append(put(out / "README.md", index_markdown(results)))
    return results, written


def regenerate(root, effort: str = "standard", progress=None) -> list[Path]:
    """Check every catalog configuration and write reports/<name>/ and reports/README.md.

    Returns the paths written. Report directories of configurations that no longer exist are
    removed (only the files a report consists of).
    """
    root = Path(root)
    reports = root / "reports"
    results, written = write_reports(catalog_configs(root), reports, effort=effort, progress=progress,
                                     relative_to=root, keep_same=True)
    _remove_orphans(reports, {dir_name(r.name) for r in results})
    return written


def _refuse_duplicates(names, paths) -> None:
    seen: dict[str, str] = {}
    for name, path in zip(names, paths):
        d = dir_name(name)
        if d in seen:
            raise ValueError(f"{path}: its name {name!r} gives the same report directory as {seen[d]} ({d}/)")
        seen[d] = path


def _remove_orphans(reports: Path, keep: set[str]) -> None:
    for d in sorted(p for p in reports.iterdir() if p.is_dir()):
        if d.name in keep or not (d / "report.json").exists():
            continue
        for f in [*(d / n for n in REPORT_FILES), *(d / f"{n}.png" for n in FIGURES)]:
            if f.exists():
                f.unlink()
        if not any(d.iterdir()):
            shutil.rmtree(d)


def index_markdown(results) -> str:
    """The README.md index of a report directory: one row per configuration, linking its reports."""
    codes = {decided_by(r) for r in results}
    code = code_line(codes.pop()) if len(codes) == 1 else "Each report records the code sha256 that decided it."
    lines = ["# gpaudit reports", "",
             f"Generated by gpaudit {__version__} (`gpaudit report`; for the catalog, `{REGENERATE}`, "
             "which checks `examples/*.yaml` and `examples/broken/*.yaml`). Do not edit: "
             "regenerate. A report is stale when its configuration's sha256 changes, or the current code "
             "decides it otherwise (its verdict, or the bound and certificate it certifies; "
             "`gpaudit.report.catalog`): a report the current code decides the same is kept as written. "
             f"The HTML pages and the figures are built by `{REGENERATE}` and not kept in git.", "", code, "",
             "| configuration | verdict | claimed ε | certified ε_upper | exhibited (ε_lower; δ > 0: the divergence against δ) | config sha256 | report |",
             "|---|---|---|---|---|---|---|"]
    for r in results:
        d = dir_name(r.name)
        lines.append(f"| `{r.name}` | {VERDICT_EMOJI.get(r.verdict, '')} {r.verdict} | {readable_exact(r.claim.get('epsilon'))} "
                     f"| {fmt_number(r.epsilon_upper, 10)} | {exhibited_text(r, 10)} | `{r.sha256[:12]}` "
                     f"| [md]({d}/report.md) · [json]({d}/report.json) |")
    return "\n".join(lines) + "\n"


def stale(root) -> list[str]:
    """What in reports/ does not match the catalog's current configurations, seen without a run
    (whether the current code decides each the same is tests/whole_repo/test_catalog.py's check);
    [] = up to date."""
    root = Path(root)
    reports = root / "reports"
    readme = reports / "README.md"
    index = readme.read_text(encoding="utf-8") if readme.exists() else None
    out, names = [], set()
    if index is None:
        out.append("reports/README.md: index missing")
    for path in catalog_configs(root):
        name, sha = config_identity(path)
        d = dir_name(name)
        names.add(d)
        out += _stale_entry(reports / d, name, sha, path.relative_to(root).as_posix())
        if index is not None and not re.search(rf"`{re.escape(name)}`.*`{sha[:12]}`", index):
            out.append(f"reports/README.md: no row for {name} at sha256 {sha[:12]}")
    if reports.is_dir():
        for d in sorted(p for p in reports.iterdir() if p.is_dir() and (p / "report.json").exists()):
            if d.name not in names:
                out.append(f"reports/{d.name}: report of a configuration that no longer exists")
    return out


def _stale_entry(d: Path, name: str, sha: str, rel: str) -> list[str]:
    report = d / "report.json"
    if not report.exists():
        return [f"{name}: report missing (reports/{d.name}/report.json) for {rel}"]
    try:
        data = json.loads(report.read_text(encoding="utf-8"))
        recorded, recorded_code = data.get("config_sha256"), data.get("code_sha256")
    except (json.JSONDecodeError, AttributeError, OSError):
        return [f"{name}: reports/{d.name}/report.json is not a JSON report"]
    out = []
    if recorded != sha:
        out.append(f"{name}: {rel} changed since its report (sha256 {str(recorded)[:12]} recorded, {sha[:12]} now)")
    out += [f"{name}: reports/{d.name}/{f} missing" for f in COMMITTED_REPORT_FILES[1:] if not (d / f).exists()]
    md = d / "report.md"
    if md.exists() and f"{CODE_LINE}`{recorded_code}`" not in md.read_text(encoding="utf-8"):
        out.append(f"{name}: reports/{d.name}/report.md was not written with the report.json beside it (that "
                   f"records code sha256 {str(recorded_code)[:12]}); regenerate with `{REGENERATE}`")
    return out


# ---------------------------------------------------------------------------------------------
# The baseline: every catalog verdict, bound and witness, compared by value


def baseline_entry(report, root, effort: str = BASELINE_EFFORT) -> dict:
    """One baseline entry of a result (or its JSON report dict): its name, file (relative to
    ``root`` when inside it), config sha256, verdict, bounds and witness, and the effort."""
    rep = as_report(report)
    entry = {k: rep.get(k) for k in BASELINE_KEYS}
    path = Path(str(entry["file"]))
    if path.is_absolute():
        try:
            path = path.resolve().relative_to(Path(root).resolve())
        except ValueError:
            pass
    entry["file"] = path.as_posix()
    entry["effort"] = effort
    return entry


def baseline_json(reports, root, effort: str = BASELINE_EFFORT) -> str:
    """The text of a baseline file: one entry per result, in the catalog's order."""
    return json.dumps([baseline_entry(r, root, effort) for r in reports], indent=2, ensure_ascii=False) + "\n"


def write_baseline(root, effort: str = BASELINE_EFFORT, seed=None, progress=None) -> tuple[list, Path]:
    """Check every catalog configuration at ``effort`` and write ROOT/reports/baseline.json;
    returns (results, path)."""
    root = Path(root)
    specs = [load(p) for p in catalog_configs(root)]
    results = []
    for i, spec in enumerate(specs):
        if progress is not None:
            progress(spec.name, i, len(specs))
        results.append(check(spec, seed=seed, effort=effort))
    (root / BASELINE).parent.mkdir(parents=True, exist_ok=True)
    return results, put(root / BASELINE, baseline_json(results, root, effort))


def load_catalog_baseline(root) -> list[dict]:
    """The committed baseline's entries ([] when there is none)."""
    path = Path(root) / BASELINE
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else []


def _same_search_value(a, b) -> bool:
    """Equal, or (decimal strings) within :data:`SEARCH_RTOL` of each other, element by element."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same_search_value(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same_search_value(x, y) for x, y in zip(a, b))
    if a == b:
        return True
    if not (isinstance(a, str) and isinstance(b, str)):
        return False
    with mpmath.workdps(60):
        try:
            x, y = mpmath.mpf(a), mpmath.mpf(b)
        except ValueError:
            return False
        return bool(mpmath.isfinite(x) and mpmath.isfinite(y)
                    and abs(x - y) <= SEARCH_RTOL * max(abs(x), abs(y), 1))


def baseline_differences(reports, baseline, root) -> list[str]:
    """What the results (or JSON report dicts) ``reports`` of catalog configurations do differently
    from the baseline entries: a configuration it lacks, or holds at another sha256, a verdict or
    certified ``epsilon_upper`` that is not the same string, and an ``epsilon_lower`` or witness (found
    by the float64 search, whose last digits depend on the processor) not within
    :data:`SEARCH_RTOL`.  [] = as recorded."""
    old = {e.get("name"): e for e in baseline}
    out = []
    for rep in reports:
        new = baseline_entry(rep, root, effort=None)
        name, prev = new["name"], old.get(new["name"])
        if prev is None:
            out.append(f"{name}: not in {BASELINE}; regenerate with `{REGENERATE_BASELINE}`")
            continue
        if prev.get("config_sha256") != new["config_sha256"]:
            out.append(f"{name}: {new['file']} changed since {BASELINE} (sha256 {str(prev.get('config_sha256'))[:12]} "
                       f"recorded, {str(new['config_sha256'])[:12]} now); regenerate with `{REGENERATE_BASELINE}`")
            continue
        for key in ("verdict", "epsilon_upper", "epsilon_lower", "witness"):
            same = prev.get(key) == new[key] if key in ("verdict", "epsilon_upper") else \
                _same_search_value(prev.get(key), new[key])
            if not same:
                out.append(f"{name}: {key} {json.dumps(prev.get(key))} in {BASELINE}, {json.dumps(new[key])} now; "
                           f"if the change is meant, regenerate with `{REGENERATE_BASELINE}` and say why in the commit")
    return out


def stale_baseline(root) -> list[str]:
    """What in reports/baseline.json does not match the catalog's configurations (a missing or
    extra entry, another sha256, another effort than :data:`BASELINE_EFFORT`); [] = it matches."""
    root = Path(root)
    entries = {e.get("name"): e for e in load_catalog_baseline(root)}
    out, names = [], set()
    for path in catalog_configs(root):
        name, sha = config_identity(path)
        names.add(name)
        entry = entries.get(name)
        if entry is None:
            out.append(f"{name}: not in {BASELINE}; regenerate with `{REGENERATE_BASELINE}`")
        elif entry.get("config_sha256") != sha or entry.get("effort") != BASELINE_EFFORT:
            out.append(f"{name}: {BASELINE} holds it at sha256 {str(entry.get('config_sha256'))[:12]}, effort "
                       f"{entry.get('effort')} (now {sha[:12]}, {BASELINE_EFFORT}); regenerate with "
                       f"`{REGENERATE_BASELINE}`")
    out += [f"{name}: in {BASELINE} but no longer in the catalog; regenerate with `{REGENERATE_BASELINE}`"
            for name in sorted(set(entries) - names)]
    return out
