"""The command line.  Every command returns an exit code; only `main` touches sys.exit."""

from __future__ import annotations

import argparse
import json
import os
import sys
import traceback

import mpmath

from . import __version__
from .errors import ConfigError
from .paths import expand_files
from .runner import check_one, default_jobs, nonnegative_int, positive_int, worker_context, worker_pool  # noqa: F401
from .verdict import CONFIG_ERROR_EXIT, Result

EPILOG = """exit codes: 0 certified, 1 refuted (a verified witness), 3 unknown (fails a CI gate),
2 usage or configuration error, 4 (check --baseline only) verdicts pass but the run regressed.
With several files the worst wins (2, then 1, then 3, then 0).

environment: GPAUDIT_DEBUG set to any non-empty value also prints the Python traceback of an
internal error (a gpaudit bug, exit 3 or verdict unknown) to stderr, for bug reports. Usage and
configuration errors (exit 2) are one line and never show a traceback."""



class Parser(argparse.ArgumentParser):
    """argparse whose usage errors are one line on stderr (exit 2), like every other user error."""

    def error(self, message):
        self.exit(CONFIG_ERROR_EXIT, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def z3_budget_ms(text: str) -> int:
    """argparse type of prove --timeout-ms: a positive integer whose z3 rlimit fits z3's 32-bit
    counter (a larger one wraps around to a tiny or an unlimited budget)."""
    from .kernel.z3door import RLIMIT_PER_MS
    top = (2 ** 32 - 1) // RLIMIT_PER_MS
    try:
        value = int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a positive integer, not {text!r}") from None
    if not 1 <= value <= top:
        raise argparse.ArgumentTypeError(f"must be an integer from 1 to {top}, not {text}")
    return value


def positive_number(text: str):
    """argparse type of calibrate --epsilon: a positive finite number or constant expression."""
    from .errors import FieldError
    from .spec.expr import numeric_value, parse_expr
    try:
        value = numeric_value(parse_expr(text))
        if not value > 0 or value == float("inf"):
            raise FieldError("must be a positive finite number")
    except (FieldError, ValueError, TypeError) as err:
        raise argparse.ArgumentTypeError(f"{getattr(err, 'problem', err)} ({text!r})") from None
    return value


def finite_point(text: str) -> list:
    """argparse type of calibrate --at: comma-separated finite coordinates."""
    try:
        point = [float(v) for v in text.split(",")]
    except ValueError:
        point = None
    if point is None or not all(abs(v) < float("inf") for v in point):  # nan fails too
        raise argparse.ArgumentTypeError(f"must be comma-separated finite numbers, not {text!r}")
    return point


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


def _exact_decimal(v):
    """A number of a result: a decimal string (a result read from a JSON report) as its exact
    Fraction, so that rounding it up or down stays exact; anything else unchanged."""
    if isinstance(v, str):
        from fractions import Fraction
        try:
            return Fraction(v)
        except (ValueError, ZeroDivisionError):
            return v
    return v


def summary_line(r: Result) -> str:
    from .kernel.numbers import decimal_down, decimal_up
    from .readable import readable_exact
    if r.claim.get("notion") in ("smoothed_dp", "dp"):
        from .smoothed.check import summary_line as smoothed_line
        return smoothed_line(r)
    lower = "none" if r.epsilon_lower is None else decimal_down(_exact_decimal(r.epsilon_lower), 6)
    upper = ("no certified bound" if r.epsilon_upper is None
             else "certified <= " + decimal_up(_exact_decimal(r.epsilon_upper), 6))
    metric = r.claim.get("metric", "l2")
    per = "" if metric == "l2" else f" per unit of {metric}"   # dist(x, x') of input.metric
    if r.claim["delta"] != "0":
        # a delta > 0 claim is about the hockey-stick divergence: the pure loss rate may be unbounded
        hs = ((r.info or {}).get("audit") or {}).get("hockey_stick_max")
        found = f"largest hockey-stick divergence found {_short(hs, 6) if hs is not None else 'none'}"
        return (f"{r.verdict:<9} {r.name}  ({r.path})  epsilon claimed {readable_exact(r.claim['epsilon'])}{per}, "
                f"delta {readable_exact(r.claim['delta'])}; {found}; {upper}")
    from .report.notices import approximate_finding
    found = approximate_finding(r)
    if lower == "none" and found is not None:
        lower = f"none ({found})"
    return (f"{r.verdict:<9} {r.name}  ({r.path})  epsilon claimed {readable_exact(r.claim['epsilon'])}{per}; "
            f"exhibited {lower}; {upper}")


COLOURS = {"certified": "32", "refuted": "1;31", "unknown": "33"}   # ANSI: green, bold red, yellow


def colour_on(stream) -> bool:
    """Colour on a terminal, as the NO_COLOR convention (no-color.org) and FORCE_COLOR say."""
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def paint(text: str, verdict: str, stream) -> str:
    code = COLOURS.get(str(verdict))
    return f"\033[{code}m{text}\033[0m" if code and colour_on(stream) else text


def print_result(r: Result, quiet: bool, out=None, verbose: bool = False):
    out = out or sys.stdout
    line = summary_line(r)
    verdict = str(r.verdict)
    print(paint(verdict, verdict, out) + line[len(verdict):], file=out)
    if quiet:
        return
    from .report.notices import found_something, is_informational, rests_on
    quiet_rows = [] if verbose else [c for c in r.checks if is_informational(c) and not found_something(c)]
    for c in r.checks:
        if c in quiet_rows:
            continue
        print(f"    {c.status:<9} {c.id:<24} {c.detail}", file=out)
        if verbose and c.method and c.method != "none":
            print(f"    {'':<9} {'':<24} method: {c.method}", file=out)
    from .model.trace import trace_lines
    for line in trace_lines(r.info or {}):
        print(f"    {line}", file=out)
    if quiet_rows:   # what the verdict does not rest on, and found nothing: one line (-v lists them)
        print(f"    {'skipped':<9} {len(quiet_rows)} informational check{'s' if len(quiet_rows) != 1 else ''} "
              f"the verdict does not rest on ({', '.join(c.id for c in quiet_rows)}; -v shows them)", file=out)
    basis = rests_on(r)
    if basis:
        print(f"    rests on: {basis}", file=out)
    reused = (r.info or {}).get("proof_cache_reused")
    if reused:
        print(f"    proof cache: {reused} answer{'s' * (reused != 1)} reused (they order work, they prove nothing)", file=out)
    skipped = (r.info or {}).get("proof_stage")
    if skipped:
        print(f"    {'skipped':<9} {'proof stage':<24} {skipped}", file=out)
    if r.witness:
        w = r.witness
        if "counts" in w:   # smoothed DP / DP
            from .smoothed.check import witness_line
            print(f"    {witness_line(w)}", file=out)
        elif "log_ratio" in w:
            print(f"    witness: x={w['x']} x'={w['x_prime']} y={w['y']} dist={_short(w['dist'])} "
                  f"log_ratio={_short(w['log_ratio'])} > {_short(w['epsilon_times_dist'])}", file=out)
        else:
            print(f"    witness: x={w['x']} x'={w['x_prime']} hockey_stick={_short(w['hockey_stick'])}", file=out)
    advice = (r.info or {}).get("advice")
    if advice and str(r.verdict) in ("unknown", "refuted"):
        print(f"    advice: {advice}", file=out)
    for note in (r.info or {}).get("notes") or ():
        print(f"    note: {note}", file=out)
    if verbose:
        for line in _run_details(r):
            print(f"    {line}", file=out)


def _run_details(r: Result) -> list:
    """-v: how the verdict was decided and what the run did (from the result's info)."""
    info, lines = r.info or {}, []
    decision = info.get("decision")
    if isinstance(decision, dict) and decision.get("rule"):
        lines.append(f"decision: {decision['rule']}: {decision.get('reason', '')}")
    a = info.get("audit")
    if isinstance(a, dict):
        lines.append(f"audit: seed {a.get('seed')}, effort {a.get('effort')}, "
                     f"{a.get('pairs_screened')} pairs screened, {a.get('seconds')} s")
    if info.get("seconds") is not None:
        lines.append(f"total: {info['seconds']} s")
    return lines


def _gh_data(text: str) -> str:
    """A GitHub workflow command's message: %, CR and LF escaped."""
    return str(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _gh_property(text: str) -> str:
    """A GitHub workflow command's property value: the message escapes plus ':' and ','."""
    return _gh_data(text).replace(":", "%3A").replace(",", "%2C")


def github_annotation(level: str, path: str, title: str, message: str, line: int | None = None) -> str:
    """One GitHub Actions workflow command, such as ::error file=F,line=N,title=T::MESSAGE
    (``line`` only when it is known)."""
    at = f",line={int(line)}" if line else ""
    return f"::{level} file={_gh_property(path)}{at},title={_gh_property(title)}::{_gh_data(message)}"


GITHUB_LEVELS = {"refuted": "error", "unknown": "warning", "certified": "notice"}


def github_line(r: Result) -> str:
    """The annotation of one result: error if refuted, warning if unknown, notice if certified."""
    verdict = str(r.verdict)
    message = f"{r.name}: {verdict}: {_summary_tail(r)}"
    decision = (r.info or {}).get("decision")
    reason = decision.get("reason") if isinstance(decision, dict) else None
    # the check that refutes; for unknown, the decision's reason says more than the first unknown check
    decisive = [c for c in r.checks if c.status == verdict and (verdict == "refuted" or not reason)]
    if decisive and verdict != "certified":
        message += f"; {decisive[0].id}: {decisive[0].detail}"
    if reason:
        message += f"; decision: {reason}"
    return github_annotation(GITHUB_LEVELS.get(verdict, "warning"), r.path, f"gpaudit {verdict}", message)


def _stdout_bytes(data: bytes) -> None:
    """Bytes to stdout (the JUnit document declares UTF-8), whatever the text encoding of stdout."""
    sys.stdout.flush()
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is not None:
        buffer.write(data)
        buffer.flush()
    else:
        sys.stdout.write(data.decode("utf-8"))


def _output_problems(args) -> list:
    """Error lines for --json/--junit destinations that cannot be written (checked before the run)."""
    problems = []
    for flag in ("json", "junit", "sarif"):
        out = getattr(args, flag)
        if not out or out == "-":
            continue
        parent = os.path.dirname(os.path.abspath(out))
        if not os.path.isdir(parent):
            problems.append(f"{out}: --{flag}: directory {parent} does not exist")
        elif os.path.isdir(out):
            problems.append(f"{out}: --{flag}: is a directory (give a file name)")
        elif not os.access(parent, os.W_OK):
            problems.append(f"{out}: --{flag}: directory {parent} is not writable")
    claims = sorted({f for f in (args.json == "-" and "json", args.junit == "-" and "junit",
                                 args.sarif == "-" and "sarif", args.format != "text" and args.format) if f})
    if len(claims) > 1:
        problems.append(f"stdout can carry one output, not {' and '.join(claims)} "
                        "(write the others to files: --json OUT, --junit OUT, --sarif OUT)")
    return problems


def apply_project_config(args, keys) -> str | None:
    """Fill the options not given on the command line from [tool.gpaudit] of the nearest
    pyproject.toml (gpaudit/pyproject.py; skipped with --no-config): only ``keys``, which the command
    has. Returns an error line, or None. A FILE given on the command line replaces ``paths``;
    ``--json -`` / ``--junit -`` choose stdout themselves, so ``format`` then does not apply."""
    from .pyproject import ProjectConfigError, find_project_config
    config = None
    if not getattr(args, "no_config", False):
        try:
            config = find_project_config()
        except ProjectConfigError as err:
            return err.line()
    args.project_config = config
    if config is not None:
        if "paths" in keys and not args.files:
            args.files = list(config.get("paths", []))
        for key in ("effort", "seed", "jobs", "baseline"):
            if key in keys and getattr(args, key) is None:
                setattr(args, key, config.get(key))
        if ("format" in keys and args.format is None
                and "-" not in (getattr(args, "json", None), getattr(args, "junit", None), getattr(args, "sarif", None))):
            args.format = config.get("format")
    if "format" in keys and args.format is None:
        args.format = "text"
    return None


def cmd_check(args) -> int:
    """`gpaudit check`.  A gating run decides from fresh proofs: runner.check_one turns the proof
    cache off for each of its checks and restores the caller's setting."""
    _start_workers_early(args)
    return _cmd_check(args)


def _cmd_check(args) -> int:
    import time

    from .spec.load import load_spec

    t0 = time.perf_counter()
    problem = apply_project_config(args, ("paths", "effort", "seed", "jobs", "format", "baseline"))
    if problem is None and not args.files:
        problem = ("check: give FILE... (files or directories), or set paths in [tool.gpaudit] "
                   "of pyproject.toml")
    if problem is None and args.update_baseline and not args.baseline:
        problem = "--update-baseline: give --baseline REPORT (or baseline in [tool.gpaudit])"
    if problem:
        print(f"gpaudit: error: {problem}", file=sys.stderr)
        return CONFIG_ERROR_EXIT
    if args.verbose and args.project_config is not None:
        print(f"gpaudit: using [tool.gpaudit] of {args.project_config.path}", file=sys.stderr)
    usage = []   # problems of the command line: nothing is checked
    paths = expand_files(args.files, usage)
    usage += _output_problems(args)
    baseline = None
    if args.baseline and not (args.update_baseline and not os.path.exists(args.baseline)):
        from .report.baseline import load_baseline
        try:
            baseline = load_baseline(args.baseline)
        except (OSError, ValueError) as err:  # JSONDecodeError is a ValueError
            usage.append(f"{args.baseline}: --baseline: not a readable JSON report ({err})")
    fmt = args.format
    specs, bad_files = [], []   # a file that cannot be loaded is reported; the others are checked
    for path in paths:
        try:
            specs.append(load_spec(path))
        except ConfigError as err:
            bad_files.append((err.path or str(path), err.line(), err.lineno))
    for line in usage + [line for _, line, _ in bad_files]:
        print(f"gpaudit: error: {line}", file=sys.stderr)
    if fmt == "github":
        for path, line, lineno in bad_files:
            print(github_annotation("error", path, "gpaudit configuration error", line, lineno))
    if usage or not specs:
        return CONFIG_ERROR_EXIT
    # stdout carries exactly one thing: the human text, or the machine output that was asked for
    json_out = "-" if fmt == "json" else args.json
    junit_out = "-" if fmt == "junit" else args.junit
    sarif_out = "-" if fmt == "sarif" else args.sarif
    human = sys.stderr if "-" in (json_out, junit_out, sarif_out) or fmt == "github" else sys.stdout
    # a gate decides from fresh proofs, never from the cache (runner.check_one sets it per check)
    gate = bool(junit_out or sarif_out or args.baseline or fmt == "github")
    from .report.json_report import result_to_json, write_json_atomic

    results = []
    jobs = min(args.jobs or default_jobs(), len(specs))
    stream = _run_checks(specs, args, jobs, gate)
    try:
        _consume(stream, fmt, human, args, results, bad_files)
    finally:
        stream.close()   # an exception while printing (a closed pipe, ^C) still shuts the worker pool down
    if baseline is not None:
        from .report.baseline import with_regressions
        results = with_regressions(results, baseline)   # info.regressions: in the JSON, the JUnit and the reports
        if fmt == "github" and not args.update_baseline:
            for r in results:
                for line in r.info["regressions"]:
                    print(github_annotation("error", r.path, "gpaudit regression", f"{r.name}: {line}"))
    json_dests = list(dict.fromkeys(d for d in (json_out, args.json) if d))  # --format json --json OUT: both
    payload = [result_to_json(r) for r in results] if json_dests else []
    payload = payload[0] if len(payload) == 1 else payload
    for dest in json_dests:
        if dest == "-":
            print(json.dumps(payload, indent=2, default=str), flush=True)  # as write_json_atomic writes it
        else:
            write_json_atomic(dest, payload)
    from .report.junit import junit_bytes, write_junit
    for dest in dict.fromkeys(d for d in (junit_out, args.junit) if d):
        if dest == "-":
            _stdout_bytes(junit_bytes(results, bad_files))
        else:
            write_junit(results, dest, bad_files)
    from .report.json_report import write_atomic
    from .report.sarif import sarif_text
    for dest in dict.fromkeys(d for d in (sarif_out, args.sarif) if d):
        text = sarif_text(results, bad_files, summary=_summary_tail)
        if dest == "-":
            print(text, end="", flush=True)
        else:
            write_atomic(dest, text.encode("utf-8"))
    from .report.baseline import gate
    if args.update_baseline:
        code, accepted = gate(results)[0], sum(len(r.info.get("regressions", [])) for r in results)
        _update_baseline(args.baseline, results, baseline)
        print(f"gpaudit: baseline {args.baseline} updated with {len(results)} configuration"
              f"{'s' if len(results) != 1 else ''}" + (f" ({accepted} regression{'s' if accepted != 1 else ''} "
                                                       "accepted)" if accepted else ""), file=sys.stderr)
        regressions = []
    else:
        code, regressions = gate(results, baseline)
    for line in regressions:
        print(f"gpaudit: regression: {line}", file=sys.stderr)
    if bad_files:  # 2 is the worst exit code of all
        code = CONFIG_ERROR_EXIT
    if not args.quiet:
        print(run_summary(results, len(bad_files), len(regressions), time.perf_counter() - t0), file=sys.stderr)
    if args.exit_zero and code != CONFIG_ERROR_EXIT:
        return 0
    return code


def _update_baseline(path, results, old) -> None:
    """Write the baseline: the previous entries with this run's results in place of those of the
    same name, and this run's new configurations added (a run may check a subset)."""
    from .report.json_report import result_to_json, write_json_atomic
    fresh = [result_to_json(r) for r in results]
    for rep in fresh:
        (rep.get("info") or {}).pop("regressions", None)   # a baseline records results, not a comparison
    names = {rep["name"] for rep in fresh}
    kept = [rep for rep in (old or []) if rep.get("name") not in names]
    merged = kept + fresh
    write_json_atomic(path, merged[0] if len(merged) == 1 else merged)


def run_summary(results, config_errors: int = 0, regressions: int = 0, seconds: float | None = None) -> str:
    """The closing line of a run, as pytest and ruff end theirs: '3 certified, 1 refuted, 0 unknown in 12.3 s'."""
    counts = {v: sum(1 for r in results if str(r.verdict) == v) for v in ("certified", "refuted", "unknown")}
    parts = [f"{n} {v}" for v, n in counts.items()]
    if config_errors:
        parts.append(f"{config_errors} configuration error{'s' if config_errors != 1 else ''}")
    if regressions:
        parts.append(f"{regressions} regression{'s' if regressions != 1 else ''}")
    return ", ".join(parts) + (f" in {seconds:.1f} s" if seconds is not None else "")


def _summary_tail(r) -> str:
    """The claim and the numbers of a summary line (without the verdict, the name and the path)."""
    return summary_line(r).split(f"({r.path})", 1)[-1].strip()


def _consume(stream, fmt, human, args, results, bad_files) -> None:
    """Print each (spec, outcome) of `stream` as it comes and append its Result to `results`; a
    file that turned out to be a configuration error (it has no Result) goes to `bad_files`."""
    for spec, outcome in stream:
        kind = outcome[0]
        if kind == "config":  # e.g. a python callable's module broke after loading: this file only
            print(f"gpaudit: error: {outcome[1]}", file=sys.stderr)
            if fmt == "github":
                print(github_annotation("error", spec.path, "gpaudit configuration error", outcome[1]))
            bad_files.append((spec.path, outcome[1], None))
            continue
        r = outcome[1]
        if kind == "internal":  # fail closed: an internal error is unknown
            print(f"gpaudit: internal error on {spec.path}: {outcome[2]}", file=sys.stderr)
            if os.environ.get("GPAUDIT_DEBUG"):
                print(outcome[3], file=sys.stderr, end="")
        print_result(r, args.quiet, out=human, verbose=args.verbose)
        if fmt == "github":
            print(github_line(r), flush=True)
        results.append(r)


def cost_hint(spec) -> float:
    """A rough relative cost of checking `spec`, for scheduling only (it changes no result): the
    proof stage grows with the pieces and the kinks of f and B and with the dimension."""
    if getattr(spec, "notion", "geo_privacy") != "geo_privacy":
        return float(spec.n)
    kinks = sum(str(p).count(k) for p in spec.query.pieces + spec.bound.pieces for k in ("Max", "Min", "Abs", "max(", "min(", "abs("))
    query = {"two_way_threshold": 8, "gaussian_kde": 5, "piecewise": 1 + len(spec.query.pieces)}.get(spec.query.kind, 2)
    bound = {"smooth_sensitivity": 2, "piecewise": 1 + len(spec.bound.pieces) / 2}.get(spec.bound.kind, 1)
    return (query + kinks) * bound * spec.dim


def _start_workers_early(args) -> None:
    """Where the command line names more files than one and -j allows several workers, start the
    workers' server now: its imports then run beside this process's own and the reading of the
    files (on another core) instead of after them.  Only a start: the files are checked as before."""
    if not args.files or min(args.jobs or default_jobs(), len(expand_files(args.files, []))) < 2:
        return
    if worker_context().get_start_method() == "forkserver":
        from multiprocessing import forkserver
        forkserver.ensure_running()


def _run_checks(specs, args, jobs, gate=False):
    """Yield (spec, outcome of check_one) in input order.  With jobs > 1 the files are checked in
    that many worker processes (forked from a server that has imported gpaudit once); results are
    yielded in input order as soon as each is ready, and they are the same as in one process: a
    check depends only on the file, the seed and the effort."""
    from .runtime import cache as proof_cache
    cache = proof_cache.cache_enabled() and not gate
    show = sys.stderr.isatty() and not args.quiet
    if jobs <= 1:
        for spec in specs:
            prog = Progress(spec.name, show)
            try:
                outcome = check_one(spec, args.seed, args.effort, args.full_evidence, cache, prog)
            finally:
                prog.done()
            yield spec, outcome
        return
    yield from _run_in_workers(specs, args, jobs, cache, show)


ATTEMPTS = 2   # a file whose worker died is checked again once in a new pool, then it is unknown


def _run_in_workers(specs, args, jobs, cache, show):
    """The -j path of _run_checks.  A worker that dies (killed, out of memory, a crash in native
    code) breaks its pool: a new pool takes over, and every file not finished is submitted again
    (each file at most ATTEMPTS times, so a file that kills its worker every time ends unknown
    without taking the others with it)."""
    from concurrent.futures.process import BrokenProcessPool
    ctx = worker_context()
    pool = worker_pool(jobs, ctx)
    attempts, futures = [0] * len(specs), [None] * len(specs)

    def submit(indices):
        # longest-expected first (the workers finish closer together); yielded in input order
        for i in sorted(indices, key=lambda i: -cost_hint(specs[i])):
            attempts[i] += 1
            futures[i] = pool.submit(check_one, specs[i], args.seed, args.effort, args.full_evidence, cache)

    def broken(fut) -> bool:
        return not fut.done() or isinstance(fut.exception(), BrokenProcessPool)

    try:
        submit(range(len(specs)))
        for i, spec in enumerate(specs):
            while True:
                if show and not futures[i].done():
                    sys.stderr.write(f"\r[{sum(f.done() for f in futures)}/{len(specs)} done] waiting for {spec.name}"[:79])
                    sys.stderr.flush()
                try:
                    outcome = futures[i].result()
                except BrokenProcessPool as err:
                    if attempts[i] < ATTEMPTS:   # a worker died: a new pool, the unfinished files again
                        pool.shutdown(wait=False, cancel_futures=True)
                        pool = worker_pool(jobs, ctx)
                        submit([j for j in range(i, len(specs)) if broken(futures[j]) and attempts[j] < ATTEMPTS])
                        continue
                    outcome = _worker_failed(spec, err)
                except Exception as err:  # noqa: BLE001 - fail closed: unknown
                    outcome = _worker_failed(spec, err)
                break
            if show:
                sys.stderr.write("\r" + " " * 79 + "\r")
                sys.stderr.flush()
            yield spec, outcome
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown(wait=True)


def _worker_failed(spec, err):
    from .runner import internal_error_result
    return ("internal", internal_error_result(spec, err), f"worker process failed: {type(err).__name__}: {err}", "")


def cmd_report(args) -> int:
    from pathlib import Path

    from .report.catalog import regenerate, write_reports
    from .spec.load import load_specs

    if args.from_json is not None:
        if args.files or args.catalog:
            print("gpaudit: error: report: --from-json takes no FILE and no --catalog (the JSON report "
                  "names its configurations)", file=sys.stderr)
            return CONFIG_ERROR_EXIT
        return _report_from_json(args)
    if not args.catalog:
        problem = apply_project_config(args, ("paths", "effort", "seed"))
        if problem:
            print(f"gpaudit: error: {problem}", file=sys.stderr)
            return CONFIG_ERROR_EXIT
    if args.catalog == bool(args.files):
        print("gpaudit: error: report: give FILE..., --from-json REPORT.json or --catalog (one of them)",
              file=sys.stderr)
        return CONFIG_ERROR_EXIT
    if args.baseline_only and (not args.catalog or args.seed is not None):
        print("gpaudit: error: report: --baseline-only goes with --catalog and takes no --seed (the tests "
              "compare the catalog at the default seed)", file=sys.stderr)
        return CONFIG_ERROR_EXIT
    if args.baseline_only:
        from .report.catalog import BASELINE_EFFORT, write_baseline
        results, path = write_baseline(
            Path(args.root), effort=args.effort or BASELINE_EFFORT,
            progress=lambda name, i, n: None if args.quiet else print(f"[{i + 1}/{n}] {name}", file=sys.stderr))
        print(f"baseline of {len(results)} configurations written to {path}")
        return 0
    if args.catalog:
        root = Path(args.root)
        regenerate(root, effort=args.effort or "standard",
                   progress=lambda name, i, n: None if args.quiet else print(f"[{i + 1}/{n}] {name}", file=sys.stderr))
        from .sweep.catalog import regenerate as regenerate_sweeps   # the catalog's sweeps (reports/sweeps/)
        regenerate_sweeps(root, effort=args.effort or "standard",
                          progress=lambda name, i, n: None if args.quiet else
                          print(f"[sweep {i + 1}/{n}] {name}", file=sys.stderr))
        print(f"reports written to {root / 'reports'} (index: {root / 'reports' / 'README.md'})")
        return 0
    errors = []
    paths = expand_files(args.files, errors)
    specs, load_errors = load_specs(paths)
    errors += load_errors
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
    from .verdict import worst_exit
    return worst_exit(r.exit_code for r in results)  # as check: 0 certified, 1 refuted, 3 unknown


def _report_from_json(args) -> int:
    """`gpaudit report --from-json REPORT.json`: the reports of a `gpaudit check --json` output,
    without checking again. Verdicts, numbers and witnesses are the JSON's; the figures that need
    the mechanism are drawn from its configuration only while that still has the recorded
    config_sha256 (else the report says why they are missing). Everything is read and validated
    before anything is written."""
    import tempfile
    from pathlib import Path

    from .report.catalog import FIGURES, _refuse_duplicates, dir_name, index_markdown, write_report
    from .report.json_report import ReportFormatError, read_report, write_atomic, write_json_atomic
    from .verdict import worst_exit

    try:
        results = read_report(args.from_json)
        _refuse_duplicates([r.name for r in results], [r.path for r in results])
    except (ReportFormatError, ValueError) as err:
        print(f"gpaudit: error: {err.line() if isinstance(err, ReportFormatError) else err}", file=sys.stderr)
        return CONFIG_ERROR_EXIT
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        print(f"gpaudit: error: {args.out}: --out: not a directory", file=sys.stderr)
        return CONFIG_ERROR_EXIT
    mechs = []
    for r in results:
        mech, note = recorded_mechanism(r, args.from_json)
        r.mechanism_note = note
        if note and not args.quiet:
            print(f"gpaudit: note: {r.name}: figures of the mechanism not drawn: {note}", file=sys.stderr)
        mechs.append(mech)
    created = not out.exists()
    try:
        out.mkdir(parents=True, exist_ok=True)
        if not os.access(out, os.W_OK | os.X_OK):
            raise PermissionError(13, "Permission denied")
    except OSError as err:
        print(f"gpaudit: error: {args.out}: --out: cannot write there ({err.strerror or err})", file=sys.stderr)
        return CONFIG_ERROR_EXIT
    try:
        # rendered into a hidden directory first and moved into place once every report is done,
        # so a failure leaves the output directory as it was
        with tempfile.TemporaryDirectory(dir=out, prefix=".gpaudit-render-") as tmp:
            for r, mech in zip(results, mechs):
                d = Path(tmp) / dir_name(r.name)
                write_report(r, mech, d, ("md", "html"))
                write_json_atomic(d / "report.json", r.recorded)  # as recorded, not re-serialised
            write_atomic(Path(tmp) / "README.md", index_markdown(results).encode("utf-8"))
            _move_rendered(Path(tmp), out, [dir_name(r.name) for r in results], FIGURES)
    except BaseException:
        if created and not any(out.iterdir()):
            out.rmdir()
        raise
    for r in results:
        print_result(r, quiet=True)
    print(f"reports written to {args.out} (index: {os.path.join(args.out, 'README.md')})")
    return worst_exit(r.exit_code for r in results)


def _move_rendered(tmp, out, dirs, figures) -> None:
    """Move rendered report directories from `tmp` into `out` (a figure of an earlier run that
    was not drawn this time is removed, so no directory mixes two renderings)."""
    for name in dirs:
        src, dst = tmp / name, out / name
        dst.mkdir(exist_ok=True)
        for fig in figures:
            stale_png = dst / f"{fig}.png"
            if stale_png.exists() and not (src / stale_png.name).exists():
                stale_png.unlink()
        for f in sorted(src.iterdir()):
            os.replace(f, dst / f.name)
    os.replace(tmp / "README.md", out / "README.md")


def recorded_mechanism(rec, report_path: str):
    """(mechanism, None) for a result read from a JSON report, rebuilt from its configuration (a
    cheap float64 model for the figures: no audit, no proof); or (None, why not) when the file
    cannot be found or loaded, or changed since the check (its sha256 is not the recorded one).
    A relative `file` is looked up from the working directory, then beside the JSON report."""
    from .model.mechanism import build_mechanism
    from .spec.load import load_spec

    if rec.claim.get("notion") in ("smoothed_dp", "dp"):   # its report draws its own figure (gpaudit/smoothed)
        return None, None
    candidates = [rec.path]
    if not os.path.isabs(rec.path) and report_path != "-":
        beside = os.path.join(os.path.dirname(report_path), rec.path)
        if os.path.normpath(beside) != os.path.normpath(rec.path):
            candidates.append(beside)
    found = next((c for c in candidates if os.path.isfile(c)), None)
    if found is None:
        return None, f"{rec.path}: configuration not found"
    try:
        spec = load_spec(found)
    except ConfigError as err:
        return None, f"{err.line()} (the configuration no longer loads)"
    if spec.sha256 != rec.sha256:
        return None, (f"{found} changed since the check (config sha256 {rec.sha256[:12]} recorded, "
                      f"{spec.sha256[:12]} now)")
    try:
        return build_mechanism(spec), None
    except Exception as err:  # noqa: BLE001 - a report without figures is still a report
        return None, f"{found}: the mechanism model could not be built ({type(err).__name__}: {err})"


def cmd_verify(args) -> int:
    from .verify import verify
    return verify(args.report, args.config)


def cmd_calibrate(args) -> int:
    from .spec.load import load_spec

    try:
        spec = load_spec(args.file)
    except ConfigError as err:
        print(f"gpaudit: error: {err.line()}", file=sys.stderr)
        return CONFIG_ERROR_EXIT
    if spec.output_dim > 1:
        print(f"gpaudit: error: {args.file}: output.dim: calibrate covers output.dim 1, got {spec.output_dim}",
              file=sys.stderr)
        return CONFIG_ERROR_EXIT
    eps = args.epsilon  # a positive finite number: checked by argparse (positive_number)
    inputs = args.at    # finite points: checked by argparse (finite_point); their dimension here
    if inputs and any(len(p) != spec.dim for p in inputs):
        print(f"gpaudit: error: {args.file}: --at: each point needs {spec.dim} comma-separated "
              f"coordinate{'s' if spec.dim != 1 else ''}", file=sys.stderr)
        return CONFIG_ERROR_EXIT
    out = args.out or os.path.splitext(args.file)[0] + ".calibrated.yaml"
    from .certify.calibrate import Uncalibratable, calibrate, write_calibrated
    try:
        cal = calibrate(spec, eps, inputs=inputs)
    except Uncalibratable as err:
        print(f"gpaudit: {args.file}: no certified calibration: {err}", file=sys.stderr)
        return 3
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
    from .papers import PAPERS, render_markdown, render_table, results_to_json, run_claims
    from .report.json_report import write_json_atomic

    if args.paper and args.paper not in PAPERS:
        print(f"gpaudit: error: --paper: unknown paper {args.paper!r} (known: {', '.join(PAPERS)})",
              file=sys.stderr)
        return CONFIG_ERROR_EXIT
    if args.json == "-" and args.markdown == "-":
        print("gpaudit: error: stdout can carry one output, not json and markdown "
              "(write one of them to a file)", file=sys.stderr)
        return CONFIG_ERROR_EXIT
    for flag in ("json", "markdown"):
        out = getattr(args, flag)
        if out and out != "-" and not os.path.isdir(os.path.dirname(os.path.abspath(out))):
            print(f"gpaudit: error: {out}: --{flag}: directory does not exist", file=sys.stderr)
            return CONFIG_ERROR_EXIT
    # '-' sends that output to stdout, and the human table to stderr
    human = sys.stderr if "-" in (args.json, args.markdown) else sys.stdout
    tty = sys.stderr.isatty()

    def progress(done, total, result):
        if tty:
            sys.stderr.write(f"\rclaims: {done}/{total} {result.paper} {result.claim_id[:40]:<40}")
            sys.stderr.flush()

    results = run_claims(args.paper, progress=progress, quick=args.quick)
    if tty:
        sys.stderr.write("\r" + " " * 79 + "\r")
    print(render_table(results), file=human)
    if args.json == "-":
        print(json.dumps(results_to_json(results), indent=2), flush=True)
    elif args.json:
        write_json_atomic(args.json, results_to_json(results))
    if args.markdown == "-":
        print(render_markdown(results), flush=True)
    elif args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as fh:
            fh.write(render_markdown(results) + "\n")
    counts = {v: sum(r.verdict == v for r in results) for v in ("verified", "refuted", "unknown")}
    print(f"{len(results)} claims: {counts['verified']} verified, {counts['refuted']} refuted, "
          f"{counts['unknown']} unknown", file=human)
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = Parser(prog="gpaudit", description="Audit, prove and certify smooth-sensitivity "
                                "Geo-Privacy mechanisms described by mech.yaml files.", epilog=EPILOG,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action="version", version=f"gpaudit {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    c = sub.add_parser("check", help="decide certified / refuted / unknown for each configuration",
                       description="Decide, for each configuration, whether its privacy claim is "
                       "certified (sound proof), refuted (a verified witness) or unknown.",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    c.add_argument("files", nargs="*", metavar="FILE", help="mech.yaml configuration(s); a directory stands for "
                   "every *.yaml / *.yml file under it, recursively, in sorted order (hidden ones skipped); "
                   "none: the paths of [tool.gpaudit] in pyproject.toml")
    c.add_argument("--json", metavar="OUT", help="write the JSON report (a list for several files); "
                   "'-' writes it to stdout, and the text summary goes to stderr")
    c.add_argument("--seed", type=nonnegative_int, default=None,
                   help="audit seed, a non-negative integer (default: the file's audit.seed, else 0)")
    c.add_argument("--effort", choices=["quick", "standard", "thorough"], default=None,
                   help="audit effort (default: the file's audit.effort, else standard)")
    c.add_argument("--format", choices=["text", "json", "github", "junit", "sarif"], default=None,
                   help="what goes to stdout: text (default), the JSON report (json), GitHub Actions "
                   "annotations, one per file (github), the JUnit XML (junit) or SARIF 2.1.0 (sarif); with "
                   "any but text the text summary goes to stderr. Exit codes do not depend on the format")
    verbosity = c.add_mutually_exclusive_group()
    verbosity.add_argument("-q", "--quiet", action="store_true", help="one line per file, nothing else")
    verbosity.add_argument("-v", "--verbose", action="store_true",
                           help="also each check's method and how the verdict was decided")
    c.add_argument("--junit", metavar="OUT", help="write JUnit XML ('-': to stdout): a testsuite per file, "
                   "a testcase per check and a 'verdict' testcase that fails unless certified")
    c.add_argument("--baseline", metavar="REPORT", help="a previous --json report: also fail (exit 4) on a "
                   "regression (worse verdict, larger certified epsilon, new witness)")
    c.add_argument("--update-baseline", action="store_true",
                   help="write this run's results into the --baseline report (created if missing; entries "
                   "of configurations not checked are kept) instead of failing on regressions")
    c.add_argument("--sarif", metavar="OUT", help="write SARIF 2.1.0 for code scanning ('-': to stdout): a result "
                   "per refuted or unknown configuration, regression and configuration error")
    c.add_argument("--exit-zero", action="store_true",
                   help="exit 0 whatever the verdicts and regressions (2 for a usage or configuration "
                   "error stays), as ruff's --exit-zero")
    c.add_argument("-j", "--jobs", type=positive_int, default=None, metavar="N",
                   help="check N files at a time in worker processes (default: the number of cores); "
                   "output and reports keep the input order, and verdicts do not depend on N")
    c.add_argument("--full-evidence", action="store_true",
                   help="run the proof stage even when a verified witness already settles refuted "
                   "(the certified bound of a refuted file, and the consistency check between the two); "
                   "the witness is the same")
    c.add_argument("--no-config", action="store_true",
                   help="ignore [tool.gpaudit] in pyproject.toml (paths, effort, baseline, jobs, format, seed)")
    c.set_defaults(func=cmd_check)
    r = sub.add_parser("report", help="write Markdown and HTML reports with figures",
                       description="Check configurations and write OUT/<name>/{report.json, report.md, "
                       "report.html, *.png} and an index OUT/README.md; with --from-json, write them from "
                       "a `gpaudit check --json` output without checking again; or, with --catalog, "
                       "regenerate reports/ for examples/ and examples/broken/. The exit code is check's "
                       "(the worst verdict: 0 certified, 1 refuted, 3 unknown; 2 bad input); --catalog "
                       "exits 0.")
    r.add_argument("files", nargs="*", metavar="FILE", help="mech.yaml configuration(s) or directories of them "
                   "(every *.yaml / *.yml file under a directory, recursively, sorted); none: the paths of "
                   "[tool.gpaudit] in pyproject.toml")
    r.add_argument("--from-json", metavar="REPORT", default=None,
                   help="render the reports of a `gpaudit check --json` output ('-': read it from stdin) "
                   "instead of checking; figures of the mechanism are drawn only while its configuration "
                   "has the recorded config_sha256")
    r.add_argument("--out", default="gpaudit-reports", metavar="DIR", help="output directory (default gpaudit-reports)")
    r.add_argument("--catalog", action="store_true", help="regenerate ROOT/reports for the catalog")
    r.add_argument("--baseline-only", action="store_true",
                   help="with --catalog: write only ROOT/reports/baseline.json (every catalog verdict, bound "
                        "and witness, at --effort quick unless given; what tests/whole_repo/test_catalog.py compares "
                        "against), no report")
    r.add_argument("--root", default=".", help="the repository root for --catalog (default .)")
    r.add_argument("--seed", type=nonnegative_int, default=None, help="audit seed, a non-negative integer")
    r.add_argument("--effort", choices=["quick", "standard", "thorough"], default=None)
    r.add_argument("-q", "--quiet", action="store_true")
    r.add_argument("--no-config", action="store_true",
                   help="ignore [tool.gpaudit] in pyproject.toml (paths, effort, seed)")
    r.set_defaults(func=cmd_report)
    k = sub.add_parser("calibrate", help="the least noise certified at a target epsilon",
                       description="Find the largest eta whose privacy is certified at --epsilon for the "
                       "configured gamma (or, with --at, the (gamma, eta) split minimising the noise's "
                       "standard deviation at the given inputs), and write a configuration that "
                       "`gpaudit check` certifies.")
    k.add_argument("file", metavar="FILE")
    k.add_argument("--epsilon", required=True, metavar="E", type=positive_number,
                   help="target epsilon, a positive number or constant expression")
    k.add_argument("--at", action="append", metavar="X", type=finite_point,
                   help="an input point (comma-separated finite coordinates); "
                   "repeat for several; enables the (gamma, eta) split")
    k.add_argument("--out", metavar="OUT", help="where to write (default FILE.calibrated.yaml)")
    k.set_defaults(func=cmd_calibrate)
    v = sub.add_parser("verify", help="re-check the certificate of a check's JSON report (kernel only, no cache)",
                       description="Re-check the certificate a certified result carries in its JSON report: "
                       "the configuration is loaded again, every obligation of the certificate's route is derived "
                       "from the mechanism and decided by z3 in this process (no proof cache, no other process). "
                       "Exit 0 when every obligation holds, 1 when one fails (named), 2 on bad input (an "
                       "unreadable report, no certificate, or a configuration whose sha256 is not the report's).")
    v.add_argument("report", metavar="REPORT.json", help="a `gpaudit check --json` report ('-' reads stdin)")
    v.add_argument("config", nargs="?", metavar="CONFIG",
                   help="the configuration (default: the file the report names)")
    v.set_defaults(func=cmd_verify)
    from .prove.cli import register_cli
    for action in register_cli(sub)._actions:  # its one numeric flag gets the checked type
        if "--timeout-ms" in action.option_strings:
            action.type = z3_budget_ms
    m = sub.add_parser("claims", help="check the papers' concrete claims (research validation)",
                       description="Check every registered, concrete claim of the four papers with "
                       "gpaudit's own machinery: verified, refuted (with a re-verified witness) or unknown.")
    m.add_argument("--paper", metavar="NAME", help="only this paper (liang-yi, polyplace, laud, liu)")
    m.add_argument("--json", metavar="OUT", help="write the results as JSON ('-': to stdout, the table to stderr)")
    m.add_argument("--markdown", metavar="OUT", help="write the results as a Markdown page ('-': to stdout, the table to stderr)")
    m.add_argument("--quick", action="store_true", help="smaller sweeps")
    m.set_defaults(func=cmd_claims)
    from .sweep.cli import add_parser as add_sweep_parser
    add_sweep_parser(sub)
    return p


def main(argv=None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse prints its own one-line usage error
        return CONFIG_ERROR_EXIT if exc.code else 0
    if not getattr(args, "func", None):   # no command: a usage error, as argparse reports one (stderr, 2)
        parser.print_help(sys.stderr)
        print(f"{parser.prog}: error: give a command (see above)", file=sys.stderr)
        return CONFIG_ERROR_EXIT
    try:
        return args.func(args)
    except ConfigError as err:
        print(f"gpaudit: error: {err.line()}", file=sys.stderr)
        return CONFIG_ERROR_EXIT
    except KeyboardInterrupt:
        print("gpaudit: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `gpaudit check ... | head`: the reader left; not every result was written
        try:
            sys.stdout = open(os.devnull, "w")   # nothing more goes to the closed pipe (nor at exit)
            print("gpaudit: standard output closed early; not every result was written (exit 3)", file=sys.stderr)
        except OSError:
            pass
        return 3
    except Exception as err:  # noqa: BLE001 - fail closed, one line, no traceback
        print(f"gpaudit: internal error: {type(err).__name__}: {err}", file=sys.stderr)
        if os.environ.get("GPAUDIT_DEBUG"):
            traceback.print_exc()
        return 3


def entry() -> None:
    """The console script: main(), then out without the interpreter's teardown (freeing sympy's
    caches and z3's contexts object by object takes about 0.2 s, longer than many checks).  Every
    file was written and closed, and every worker pool shut down (its generator is closed in a
    `finally`, whatever ended the loop), before main returned; the standard streams are flushed
    here.  Should a thread still run (a pool not shut down), the normal exit is taken instead."""
    code = main()
    import threading
    if threading.active_count() > 1:   # a worker pool's thread is still there: the normal way out
        sys.exit(code)                   # lets it shut its processes down
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):   # a closed pipe (`gpaudit ... | head`): nothing more to say
            pass
    os._exit(code)
