#!/usr/bin/env python3
"""Paired timing: `judge verify` beside problemtools' `verifyproblem -p submissions` or
BAPCtools' `bt run`, on the same packages, the same machine, alternating.

    scripts/paired_verify.py --judge target/release/judge --other verifyproblem \
        [--rounds 3] [--jobs 1,2] [--log DIR] PACKAGE...
    scripts/paired_verify.py --judge target/release/judge --other bt [...] PACKAGE...

For each round and each package, the commands run one after the other: `judge verify -j N` for
each N of `--jobs` (or of `--judge BINARY@N,...`, for each binary given), and the other tool, the judge
first in odd rounds and the other tool first in even rounds. Each judge run gets a fresh build cache
(`XDG_CACHE_HOME` a new empty folder), so that nothing it built or computed before is reused;
`verifyproblem` builds in a fresh temporary folder by itself; `bt run`, which keeps its builds
in `$TMPDIR/bapctools_HASH`, gets a new empty `TMPDIR` for each run.

Prints, per package, each run's wall time, user + system time of the command and all its
children, and the one-minute load average at its start; then the medians of the wall times and
their ratio (other / judge), and the median of those ratios over the packages. Each run's
stdout and stderr are kept in `--log DIR` (default: a new temporary folder) to compare the
verdicts. `verifyproblem` and `bt` are looked up on `PATH` unless `--other-bin` names them;
for `verifyproblem` without PyPy, put a folder holding a `pypy3` script that runs `python3`
first on `PATH`.
"""

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def run(cmd, cwd, env, log_prefix):
    """Runs `cmd`; its wall time, user + system time (children), load at start, exit code."""
    load = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    with open(log_prefix + ".out", "wb") as out, open(log_prefix + ".err", "wb") as err:
        code = subprocess.call(cmd, cwd=cwd, env=env, stdout=out, stderr=err)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, load, code


def judge_cmd(binary, jobs, package):
    cache = tempfile.mkdtemp(prefix="judge-cache-")
    env = dict(os.environ, XDG_CACHE_HOME=cache)
    absolute = os.path.abspath(package)
    cmd = [os.path.abspath(binary), "verify", "-j", str(jobs), os.path.basename(absolute)]
    return cmd, os.path.dirname(absolute), env, cache


def other_cmd(args, package):
    env = dict(os.environ)
    absolute = os.path.abspath(package)
    if args.other == "verifyproblem":
        tool = args.other_bin or "verifyproblem"
        cmd = [tool, os.path.basename(absolute), "-p", "submissions"]
        return cmd, os.path.dirname(absolute), env
    tool = args.other_bin or "bt"
    # bt keeps its builds in $TMPDIR/bapctools_HASH: a new empty TMPDIR for each run.
    env["TMPDIR"] = tempfile.mkdtemp(prefix="bt-tmp-")
    return [tool, "run", "--no-bar"], absolute, env


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--judge", required=True, action="append",
                   help="the judge's binary, or BINARY@JOBS,... (repeatable)")
    p.add_argument("--other", choices=["verifyproblem", "bt"], required=True)
    p.add_argument("--other-bin")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--jobs", default="1", help="a comma-separated list")
    p.add_argument("--log")
    p.add_argument("packages", nargs="+")
    args = p.parse_args()
    log = args.log or tempfile.mkdtemp(prefix="paired-")
    os.makedirs(log, exist_ok=True)
    jobs = [int(j) for j in args.jobs.split(",")]
    judges = []
    for given in args.judge:
        binary, _, own = given.partition("@")
        for j in [int(j) for j in own.split(",")] if own else jobs:
            label = f"judge -j {j}"
            if len(args.judge) > 1:
                label = f"{os.path.basename(binary)} -j {j}"
            judges.append((label, binary, j))
    labels = [label for label, _, _ in judges] + [args.other]
    times = {pkg: {label: [] for label in labels} for pkg in args.packages}
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores, "
          f"logs in {log}", flush=True)
    for r in range(1, args.rounds + 1):
        for pkg in args.packages:
            order = judges + [None] if r % 2 == 1 else [None] + judges
            name = os.path.basename(os.path.abspath(pkg))
            for who in order:
                if who is not None:
                    label, binary, j = who
                    prefix = os.path.join(log, f"{name}-{label.replace(' ', '')}-{r}")
                    cmd, cwd, env, cache = judge_cmd(binary, j, pkg)
                    result = run(cmd, cwd, env, prefix)
                    shutil.rmtree(cache, ignore_errors=True)
                else:
                    label = args.other
                    prefix = os.path.join(log, f"{name}-{label}-{r}")
                    cmd, cwd, env = other_cmd(args, pkg)
                    result = run(cmd, cwd, env, prefix)
                    if "TMPDIR" in env and env["TMPDIR"] != os.environ.get("TMPDIR"):
                        shutil.rmtree(env["TMPDIR"], ignore_errors=True)
                times[pkg][label].append(result)
                wall, cpu, load, code = result
                print(f"round {r} {name:<20} {label:<18} wall {wall:7.2f} s  "
                      f"user+sys {cpu:7.2f} s  load {load:5.2f}  exit {code}", flush=True)
    def runs(xs):
        return ", ".join(f"{w:.1f} s ({c:.1f} s), {l:.2f}" for w, c, l, _ in xs)

    print()
    print("Each run: wall (user + sys), load average at its start; the ratio is the other "
          "tool's median wall time over the judge's.")
    print()
    print("| package | " + " | ".join(labels) + " | " +
          " | ".join(f"ratio, {label}" for label, _, _ in judges) + " |")
    print("| --- " * (1 + len(labels) + len(judges)) + "|")
    ratios = {label: [] for label, _, _ in judges}
    for pkg in args.packages:
        row = times[pkg]
        other = statistics.median(w for w, _, _, _ in row[args.other])
        cells = [runs(row[label]) for label in labels]
        for label, _, _ in judges:
            ratio = other / statistics.median(w for w, _, _, _ in row[label])
            ratios[label].append(ratio)
            cells.append(f"{ratio:.1f}x")
        name = os.path.basename(os.path.abspath(pkg))
        print(f"| `{name}` | " + " | ".join(cells) + " |")
    print()
    for label, rs in ratios.items():
        print(f"{label}: median of the ratios {statistics.median(rs):.2f}x "
              f"({', '.join(f'{r:.2f}' for r in rs)})")


if __name__ == "__main__":
    sys.exit(main())
