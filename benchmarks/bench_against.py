"""The catalog's wall time against another revision, on the same machine, interleaved: prints figures.

    python benchmarks/bench_against.py REV [--rounds 3] [--effort standard]

Each round times a verdict for every catalog configuration both sides have (examples/*.yaml and
examples/broken/*.yaml) in one fresh process per side, imports excluded, caches cold (an empty
GPAUDIT_CACHE): once with REV's code on REV's catalog, once with this checkout's on its own, the order
alternating from round to round.  A shared machine's speed drifts by tens of percent within minutes, so
figures taken an hour apart do not compare; interleaved rounds see the same drift.  Per configuration
the least time over the rounds is kept (what noise cannot shorten), and the ratio is taken over the
configurations both sides have.  Each side's process runs exactly those, in the same order: a
configuration only one side has would change the other ones' conditions on that side alone (the
process grows, and each file's forked copy costs more to make and to write beside); this checkout's
own configurations are timed after, in a process of their own.
REV is read with `git archive` into a temporary directory; nothing in this checkout changes.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# run in the side's own tree, with its own gpaudit: only check_spec and load_spec, which every
# revision since the catalog's first has
TIMER = r"""
import glob, json, os, sys, time
sys.path.insert(0, os.getcwd())
from gpaudit.check import check_spec
from gpaudit.spec.load import load_spec
paths = json.loads(sys.argv[2])
check_spec(load_spec(paths[0]), effort=sys.argv[1])          # imports and first-call set-up, not timed
out = {}
for p in paths:
    spec = load_spec(p)
    t = time.perf_counter()
    r = check_spec(spec, effort=sys.argv[1])
    out[p] = [time.perf_counter() - t, r.verdict]
print(json.dumps(out))
"""


def export(rev: str, into: Path) -> Path:
    """REV's tree (git archive), unpacked under `into`."""
    tar = into / "rev.tar"
    with open(tar, "wb") as fh:
        subprocess.run(["git", "archive", "--format=tar", rev], cwd=ROOT, stdout=fh, check=True)
    tree = into / "tree"
    tree.mkdir()
    with tarfile.open(tar) as t:
        t.extractall(tree, filter="data")
    return tree


def catalog(tree: Path) -> list:
    """The catalog's configuration files of `tree`, relative to it, in the order they are timed."""
    return [p.relative_to(tree).as_posix() for p in sorted((tree / "examples").glob("*.yaml"))
            + sorted((tree / "examples" / "broken").glob("*.yaml"))]


def timed(tree: Path, effort: str, paths: list) -> dict:
    """{configuration: [seconds, verdict]} of `paths` from one fresh process in `tree`, caches cold."""
    if not paths:
        return {}
    with tempfile.TemporaryDirectory(prefix="gpaudit-bench-") as cache:
        env = dict(os.environ, GPAUDIT_CACHE=cache, PYTHONPATH=str(tree))
        run = subprocess.run([sys.executable, "-c", TIMER, effort, json.dumps(paths)], cwd=tree, env=env,
                             capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit(f"timing failed in {tree}:\n{run.stderr[-2000:]}")
    return json.loads(run.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("rev", help="the revision to compare with (a commit, tag or branch)")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    ap.add_argument("--effort", default="standard", help="the audit's effort (default standard)")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="gpaudit-against-") as tmp:
        other = export(args.rev, Path(tmp))
        theirs = set(catalog(other))
        common = [p for p in catalog(ROOT) if p in theirs]
        only = [p for p in catalog(ROOT) if p not in theirs]
        best = {"rev": {}, "here": {}, "only": {}}
        for k in range(args.rounds):
            for side in (("rev", "here") if k % 2 == 0 else ("here", "rev")) + ("only",):
                got = timed(other if side == "rev" else ROOT, args.effort, only if side == "only" else common)
                for p, (sec, verdict) in got.items():
                    old = best[side].get(p)
                    best[side][p] = (min(sec, old[0]) if old else sec, verdict)
                print(f"round {k + 1} {side:<4} {sum(v[0] for v in got.values()):7.2f} s "
                      f"({len(got)} configurations)", flush=True)
    print(f"\nleast time per configuration over {args.rounds} rounds (effort {args.effort}):")
    print(f"  {'configuration':<60} {args.rev[:10]:>10} {'here':>8} {'ratio':>6}")
    for p in common:
        a, b = best["rev"][p][0], best["here"][p][0]
        flag = "" if best["rev"][p][1] == best["here"][p][1] else f"  verdict {best['rev'][p][1]} -> {best['here'][p][1]}"
        print(f"  {p:<60} {a:9.2f}s {b:7.2f}s {b / a:6.2f}{flag}")
    sa = sum(best["rev"][p][0] for p in common)
    sb = sum(best["here"][p][0] for p in common)
    print(f"  sum over the {len(common)} configurations both have: {args.rev[:10]} {sa:.2f} s, here {sb:.2f} s, "
          f"ratio {sb / sa:.2f}")
    if only:
        print(f"  here only ({len(only)}, in a process of their own): {sum(v[0] for v in best['only'].values()):.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
