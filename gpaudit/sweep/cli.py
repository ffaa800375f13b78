"""`gpaudit sweep`: the command line of a sweep (registered by gpaudit.cli.build_parser)."""

from __future__ import annotations

import argparse
import os
import sys
from fractions import Fraction

from ..errors import ConfigError
from ..runner import nonnegative_int, positive_int
from ..verdict import CONFIG_ERROR_EXIT

DESCRIPTION = """Check one configuration over a grid of parameter values: a privacy map.

Each point is FILE with the varied params entries substituted (the other params follow the file's
own formulas), checked exactly as `gpaudit check` checks a file: the same seed rules, the same
verdicts. DIR receives sweep.csv and sweep.json (one row per point, in grid order), sweep.png
(epsilon_upper and epsilon_lower against the claim along one varied parameter, or heat maps of
the verdict and epsilon_upper over two) and a self-contained sweep.html. Finished points are kept
in DIR/points: an interrupted sweep, run again, resumes without recomputing them."""

EPILOG = """SPEC (exact values, parsed as gpaudit parses a configuration):
  1,2,5/2               a list of constants
  start:stop:count      count equally spaced values, both ends included, exact (1:2:4 = 1, 4/3, 5/3, 2)
  log:start:stop:count  count values equally spaced in log scale; positive ends, kept as written;
                        the values between rounded to 6 significant digits (exact decimal strings)
The first --vary is the outermost axis of the grid. docs/sweep.md has the details.

examples:
  gpaudit sweep examples/threshold-student-t.yaml --vary nu=1:10:10 --out nu-map
  gpaudit sweep examples/threshold-student-t.yaml --vary eta=log:0.1:1:20 --vary eps=1,2 -j 4
  gpaudit sweep mech.yaml --vary gamma=0.01:0.1:10 --scheduler tcp://10.0.0.5:8786

exit codes as for check, the worst point wins: 0 every point certified, 1 a point refuted,
3 a point unknown, 2 usage or configuration error (a bad --vary, a point that is not a valid
configuration: nothing is checked then), 130 interrupted (finished points are kept)."""


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Register `gpaudit sweep` on the command line's subparsers."""
    s = subparsers.add_parser("sweep", help="check a configuration over a grid of parameter values",
                              description=DESCRIPTION, epilog=EPILOG,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    s.add_argument("file", metavar="FILE", help="the mech.yaml configuration to sweep")
    s.add_argument("--vary", action="append", required=True, metavar="NAME=SPEC",
                   help="a params entry of FILE and its values (repeat for a grid over several)")
    s.add_argument("--out", default="gpaudit-sweep", metavar="DIR",
                   help="output directory (default gpaudit-sweep); finished points are kept in DIR/points")
    where = s.add_mutually_exclusive_group()
    where.add_argument("-j", "--jobs", type=positive_int, default=None, metavar="N",
                       help="check N points at a time in local worker processes (default: the number of cores)")
    where.add_argument("--scheduler", metavar="ADDRESS",
                       help="submit the points to the Dask distributed scheduler at ADDRESS "
                       "(e.g. tcp://host:8786; needs pip install 'gpaudit[dask]' here and on the workers)")
    s.add_argument("--seed", type=nonnegative_int, default=None,
                   help="audit seed, a non-negative integer (default: the file's audit.seed, else 0)")
    s.add_argument("--effort", choices=["quick", "standard", "thorough"], default=None,
                   help="audit effort (default: the file's audit.effort, else standard)")
    s.add_argument("--full-evidence", action="store_true",
                   help="run the proof stage even where a verified witness settles refuted (as check)")
    s.add_argument("-q", "--quiet", action="store_true", help="no progress and no line per point: the summary only")
    s.add_argument("--exit-zero", action="store_true",
                   help="exit 0 whatever the points' verdicts (a research map with refuted points is "
                   "not a failure); 2 for a usage or configuration error stays")
    s.set_defaults(func=cmd_sweep)
    return s


def cmd_sweep(args) -> int:
    from ..runtime import cache as proof_cache
    from .execute import SchedulerError, connect, cores
    from .grid import GridError
    from .run import execute, make_plan, out_dir_problem

    try:
        plan = make_plan(args.file, args.vary, args.seed, args.effort, args.full_evidence)
    except GridError as err:
        return _error(f"{args.file}: {err}")
    except ConfigError as err:
        return _error(err.line())
    problem = out_dir_problem(args.out)
    if problem:
        return _error(problem)
    client = None
    if args.scheduler:
        try:
            client = connect(args.scheduler)
        except SchedulerError as err:
            return _error(str(err))
    finished = []

    def on_record(point, rec):
        finished.append(point)
        if rec.get("kind") == "config":
            print(f"gpaudit: error: {rec['error']}", file=sys.stderr)
        elif rec.get("kind") == "internal":
            print(f"gpaudit: internal error on {args.file} ({point.label()}): {rec.get('error')}", file=sys.stderr)
            if os.environ.get("GPAUDIT_DEBUG") and rec.get("traceback"):
                print(rec["traceback"], file=sys.stderr, end="")

    try:
        outcome = execute(plan, args.out, jobs=args.jobs or cores(), client=client,
                          cache=proof_cache.cache_enabled(), quiet=args.quiet, on_record=on_record)
    except KeyboardInterrupt:
        print(f"gpaudit: interrupted; the finished points are kept in {os.path.join(args.out, 'points')}: "
              "run the same command again to resume", file=sys.stderr)
        return 130
    finally:
        if client is not None:
            client.close()
    if not args.quiet:
        for row in outcome.rows:
            print(row_line(row))
    counts = ", ".join(f"{sum(r['verdict'] == v for r in outcome.rows)} {v}"
                       for v in ("certified", "refuted", "unknown", "error")
                       if any(r["verdict"] == v for r in outcome.rows))
    print(f"{len(outcome.rows)} points: {counts} ({outcome.reused} reused from {os.path.join(args.out, 'points')}); "
          f"wrote {', '.join(str(p) for p in outcome.paths.values())}")
    if args.exit_zero and outcome.exit_code != 2:
        return 0
    return outcome.exit_code


def row_line(row) -> str:
    """One terminal line per point, like check's summary line."""
    from ..kernel.numbers import decimal_down, decimal_up
    label = ", ".join(f"{k}={v}" for k, v in row["params"].items())
    if "delta_upper" in row:   # smoothed DP / DP
        return (f"{row['verdict']:<9} {label}  delta claimed {row['delta_claimed']}; delta in "
                f"[{_shorter(row['delta_lower'], decimal_down)}, {_shorter(row['delta_upper'], decimal_up)}]")
    lower = "none" if row["epsilon_lower"] is None else _shorter(row["epsilon_lower"], decimal_down)
    upper = ("no certified bound" if row["epsilon_upper"] is None
             else "certified <= " + _shorter(row["epsilon_upper"], decimal_up))
    paper = f"; paper {row['paper_constants'][0]['epsilon']}" if row["paper_constants"] else ""
    return f"{row['verdict']:<9} {label}  epsilon claimed {row['epsilon_claimed']}; exhibited {lower}; {upper}{paper}"


def _shorter(text: str, rounding) -> str:
    """A report's decimal string at 6 significant digits, rounded in the same direction."""
    try:
        return rounding(Fraction(text), 6)
    except (ValueError, ZeroDivisionError):   # inf, or a bound beyond any decimal
        return text


def _error(line: str) -> int:
    print(f"gpaudit: error: {line}", file=sys.stderr)
    return CONFIG_ERROR_EXIT
