"""The command line.  Every command returns an exit code; only `main` touches sys.exit."""

from __future__ import annotations

import argparse
import os
import sys
import traceback

import mpmath

from . import __version__
from .errors import ConfigError
from .verdict import CONFIG_ERROR_EXIT, Result

EPILOG = """exit codes: 0 certified, 1 refuted (a verified witness), 3 unknown (fails a CI gate),
2 usage or configuration error, 4 (check --baseline only) verdicts pass but the run regressed.
With several files the worst wins (2, then 1, then 3, then 0)."""


class Progress:
    """A one-line progress indicator on stderr, only when stderr is a terminal."""

    def __init__(self, label: str, enabled: bool):
        self.label, self.enabled = label, enabled

    def __call__(self, stage: str, frac: float):
        if self.enabled:
            bar = "#" * int(20 * frac)
            sys.stderr.write(f"\r{self.label}: {stage:<8} [{bar:<20}] {100 * frac:5.1f}%")
            sys.stderr.flush()

    def done(self):
        if self.enabled:
            sys.stderr.write("\r" + " " * 79 + "\r")
            sys.stderr.flush()


def _short(text, digits=12) -> str:
    """A decimal string shortened for a terminal line, exponent kept."""
    try:
        return mpmath.nstr(mpmath.mpf(text), digits)
    except (TypeError, ValueError):
        return str(text)


def summary_line(r: Result) -> str:
    from .kernel.numbers import decimal_down, decimal_up
    lower = "none" if r.epsilon_lower is None else decimal_down(r.epsilon_lower, 6)
    upper = "no certified bound" if r.epsilon_upper is None else "certified <= " + decimal_up(r.epsilon_upper, 6)
    return (f"{r.verdict:<9} {r.name}  ({r.path})  epsilon claimed {r.claim['epsilon']}"
            f"{', delta ' + r.claim['delta'] if r.claim['delta'] != '0' else ''}; "
            f"exhibited {lower}; {upper}")


def print_result(r: Result, quiet: bool, out=None):
    out = out or sys.stdout
    print(summary_line(r), file=out)
    if quiet:
        return
    for c in r.checks:
        print(f"    {c.status:<9} {c.id:<24} {c.detail}", file=out)
    if r.witness:
        w = r.witness
        if "log_ratio" in w:
            print(f"    witness: x={w['x']} x'={w['x_prime']} y={w['y']} dist={_short(w['dist'])} "
                  f"log_ratio={_short(w['log_ratio'])} > {_short(w['epsilon_times_dist'])}", file=out)
        else:
            print(f"    witness: x={w['x']} x'={w['x_prime']} hockey_stick={_short(w['hockey_stick'])}", file=out)


def cmd_check(args) -> int:
    from .spec.load import load_specs

    specs, errors = load_specs(args.files)
    for flag in ("json", "junit"):
        out = getattr(args, flag)
        if out and not os.path.isdir(os.path.dirname(os.path.abspath(out))):
            errors.append(f"{out}: --{flag}: directory {os.path.dirname(os.path.abspath(out))} does not exist")
    baseline = None
    if args.baseline:
        from .report.baseline import load_baseline
        try:
            baseline = load_baseline(args.baseline)
        except (OSError, ValueError) as err:  # JSONDecodeError is a ValueError
            errors.append(f"{args.baseline}: --baseline: not a readable JSON report ({err})")
    if errors:
        for line in errors:
            print(f"gpaudit: error: {line}", file=sys.stderr)
        return CONFIG_ERROR_EXIT
    from .api import internal_error_result
    if args.junit or args.baseline:
        from .kernel import z3door
        z3door.set_cache(False)   # a gate decides from fresh proofs, never from the cache
    from .check import check_spec
    from .report.json_report import result_to_json, write_json_atomic

    from .check import user_code_result
    from .errors import UserCodeError

    results, file_errors = [], 0
    for spec in specs:
        prog = Progress(spec.name, sys.stderr.isatty() and not args.quiet)
        try:
            r = check_spec(spec, progress=prog, seed=args.seed, effort=args.effort)
        except ConfigError as err:  # e.g. a python callable's module broke after loading: this file only
            prog.done()
            print(f"gpaudit: error: {err.line()}", file=sys.stderr)
            file_errors += 1
            continue
        except UserCodeError as err:  # check_spec handles these; never let user code end the run
            r = user_code_result(spec, err)
        except Exception as err:  # noqa: BLE001 - fail closed: an internal error is unknown
            prog.done()
            detail = f"{type(err).__name__}: {err}"
            print(f"gpaudit: internal error on {spec.path}: {detail}", file=sys.stderr)
            if os.environ.get("GPAUDIT_DEBUG"):
                traceback.print_exc()
            r = internal_error_result(spec, err)
        prog.done()
        print_result(r, args.quiet)
        results.append(r)
    if args.json:
        payload = [result_to_json(r) for r in results]
        write_json_atomic(args.json, payload[0] if len(payload) == 1 else payload)
    if args.junit:
        from .report.junit import write_junit
        write_junit(results, args.junit)
    from .report.baseline import gate
    code, regressions = gate(results, baseline)
    for line in regressions:
        print(f"gpaudit: regression: {line}", file=sys.stderr)
    if file_errors:  # 2 is the worst exit code of all
        code = CONFIG_ERROR_EXIT
    return code


def cmd_report(args) -> int:
    from pathlib import Path

    from .report.catalog import regenerate, write_reports
    from .spec.load import load_specs

    if args.catalog == bool(args.files):
        print("gpaudit: error: report: give FILE... or --catalog (not both)", file=sys.stderr)
        return CONFIG_ERROR_EXIT
    if args.catalog:
        root = Path(args.root)
        regenerate(root, effort=args.effort or "standard",
                   progress=lambda name, i, n: None if args.quiet else print(f"[{i + 1}/{n}] {name}", file=sys.stderr))
        print(f"reports written to {root / 'reports'} (index: {root / 'reports' / 'README.md'})")
        return 0
    specs, errors = load_specs(args.files)
    if errors:
        for line in errors:
            print(f"gpaudit: error: {line}", file=sys.stderr)
        return CONFIG_ERROR_EXIT
    try:
        results, _ = write_reports(specs, args.out, effort=args.effort, seed=args.seed)
    except ValueError as err:  # two configurations with one name
        print(f"gpaudit: error: {err}", file=sys.stderr)
        return CONFIG_ERROR_EXIT
    for r in results:
        print_result(r, quiet=True)
    print(f"reports written to {args.out} (index: {os.path.join(args.out, 'README.md')})")
    return 0


def cmd_calibrate(args) -> int:
    from .spec.expr import numeric_value, parse_expr
    from .errors import FieldError
    from .spec.load import load_spec

    try:
        spec = load_spec(args.file)
    except ConfigError as err:
        print(f"gpaudit: error: {err.line()}", file=sys.stderr)
        return CONFIG_ERROR_EXIT
    try:
        eps = numeric_value(parse_expr(args.epsilon))
        if not eps > 0 or eps == float("inf"):
            raise FieldError("must be a positive finite number")
        inputs = None
        if args.at:
            inputs = [[float(v) for v in pt.split(",")] for pt in args.at]
            if any(len(p) != spec.dim for p in inputs):
                raise FieldError(f"each --at point needs {spec.dim} comma-separated coordinates")
    except (FieldError, ValueError) as err:
        print(f"gpaudit: error: {args.file}: --epsilon/--at: {getattr(err, 'problem', err)}", file=sys.stderr)
        return CONFIG_ERROR_EXIT
    out = args.out or os.path.splitext(args.file)[0] + ".calibrated.yaml"
    from .certify.calibrate import calibrate, write_calibrated
    cal = calibrate(spec, eps, inputs=inputs)
    if cal is None:
        print(f"gpaudit: {args.file}: no certified calibration (the bound's conditions are not "
              "established, or the rate cannot reach epsilon)", file=sys.stderr)
        return 3
    write_calibrated(args.file, out, cal, eps)
    std = f"; mean noise std at the inputs {cal.std_at_inputs:.6g}" if cal.std_at_inputs is not None else ""
    print(f"eta = {cal.eta} (= {float(cal.eta):.10g}), gamma = {cal.gamma}; certified rate <= "
          f"{mpmath.nstr(cal.rate_upper, 12)} <= {eps}{std}\nwrote {out}")
    return 0


def cmd_claims(args) -> int:
    from .claims import PAPERS, render_markdown, render_table, results_to_json, run_claims
    from .report.json_report import write_json_atomic

    if args.paper and args.paper not in PAPERS:
        print(f"gpaudit: error: --paper: unknown paper {args.paper!r} (known: {', '.join(PAPERS)})",
              file=sys.stderr)
        return CONFIG_ERROR_EXIT
    for flag in ("json", "markdown"):
        out = getattr(args, flag)
        if out and not os.path.isdir(os.path.dirname(os.path.abspath(out))):
            print(f"gpaudit: error: {out}: --{flag}: directory does not exist", file=sys.stderr)
            return CONFIG_ERROR_EXIT
    tty = sys.stderr.isatty()

    def progress(done, total, result):
        if tty:
            sys.stderr.write(f"\rclaims: {done}/{total} {result.paper} {result.claim_id[:40]:<40}")
            sys.stderr.flush()

    results = run_claims(args.paper, progress=progress, quick=args.quick)
    if tty:
        sys.stderr.write("\r" + " " * 79 + "\r")
    print(render_table(results))
    if args.json:
        write_json_atomic(args.json, results_to_json(results))
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as fh:
            fh.write(render_markdown(results) + "\n")
    counts = {v: sum(r.verdict == v for r in results) for v in ("verified", "refuted", "unknown")}
    print(f"{len(results)} claims: {counts['verified']} verified, {counts['refuted']} refuted, "
          f"{counts['unknown']} unknown")
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="gpaudit", description="Audit, prove and certify smooth-sensitivity "
                                "Geo-Privacy mechanisms described by mech.yaml files.", epilog=EPILOG,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action="version", version=f"gpaudit {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    c = sub.add_parser("check", help="decide certified / refuted / unknown for each configuration",
                       description="Decide, for each configuration, whether its privacy claim is "
                       "certified (sound proof), refuted (a verified witness) or unknown.",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    c.add_argument("files", nargs="+", metavar="FILE", help="mech.yaml configuration(s)")
    c.add_argument("--json", metavar="OUT", help="write the JSON report (a list for several files)")
    c.add_argument("--seed", type=int, default=None, help="audit seed (default: the file's audit.seed, else 0)")
    c.add_argument("--effort", choices=["quick", "standard", "thorough"], default=None,
                   help="audit effort (default: the file's audit.effort, else standard)")
    c.add_argument("--quiet", action="store_true", help="one line per file, nothing else")
    c.add_argument("--junit", metavar="OUT", help="write JUnit XML: a testsuite per file, a testcase per check "
                   "and a 'verdict' testcase that fails unless certified")
    c.add_argument("--baseline", metavar="REPORT", help="a previous --json report: also fail (exit 4) on a "
                   "regression (worse verdict, larger certified epsilon, new witness)")
    c.set_defaults(func=cmd_check)
    r = sub.add_parser("report", help="write Markdown and HTML reports with figures",
                       description="Check configurations and write OUT/<name>/{report.json, report.md, "
                       "report.html, *.png} and an index OUT/README.md; or, with --catalog, regenerate "
                       "reports/ for examples/ and examples/broken/.")
    r.add_argument("files", nargs="*", metavar="FILE")
    r.add_argument("--out", default="gpaudit-reports", metavar="DIR", help="output directory (default gpaudit-reports)")
    r.add_argument("--catalog", action="store_true", help="regenerate ROOT/reports for the catalog")
    r.add_argument("--root", default=".", help="the repository root for --catalog (default .)")
    r.add_argument("--seed", type=int, default=None)
    r.add_argument("--effort", choices=["quick", "standard", "thorough"], default=None)
    r.add_argument("--quiet", action="store_true")
    r.set_defaults(func=cmd_report)
    k = sub.add_parser("calibrate", help="the least noise certified at a target epsilon",
                       description="Find the largest eta whose privacy is certified at --epsilon for the "
                       "configured gamma (or, with --at, the (gamma, eta) split minimising the noise's "
                       "standard deviation at the given inputs), and write a configuration that "
                       "`gpaudit check` certifies.")
    k.add_argument("file", metavar="FILE")
    k.add_argument("--epsilon", required=True, metavar="E", help="target epsilon (number or expression)")
    k.add_argument("--at", action="append", metavar="X", help="an input point (comma-separated coordinates); "
                   "repeat for several; enables the (gamma, eta) split")
    k.add_argument("--out", metavar="OUT", help="where to write (default FILE.calibrated.yaml)")
    k.set_defaults(func=cmd_calibrate)
    from .prove.cli import register_cli
    register_cli(sub)
    m = sub.add_parser("claims", help="check the papers' concrete claims (research validation)",
                       description="Check every registered, concrete claim of the four papers with "
                       "gpaudit's own machinery: verified, refuted (with a re-verified witness) or unknown.")
    m.add_argument("--paper", metavar="NAME", help="only this paper (liang-yi, polyplace, laud, liu)")
    m.add_argument("--json", metavar="OUT", help="write the results as JSON")
    m.add_argument("--markdown", metavar="OUT", help="write the results as a Markdown page")
    m.add_argument("--quick", action="store_true", help="smaller sweeps")
    m.set_defaults(func=cmd_claims)
    return p


def main(argv=None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse prints its own one-line usage error
        return CONFIG_ERROR_EXIT if exc.code else 0
    if not getattr(args, "func", None):
        parser.print_help()
        return CONFIG_ERROR_EXIT
    try:
        return args.func(args)
    except ConfigError as err:
        print(f"gpaudit: error: {err.line()}", file=sys.stderr)
        return CONFIG_ERROR_EXIT
    except KeyboardInterrupt:
        print("gpaudit: interrupted", file=sys.stderr)
        return 130
    except Exception as err:  # noqa: BLE001 - fail closed, one line, no traceback
        print(f"gpaudit: internal error: {type(err).__name__}: {err}", file=sys.stderr)
        if os.environ.get("GPAUDIT_DEBUG"):
            traceback.print_exc()
        return 3


def entry() -> None:
    sys.exit(main())
