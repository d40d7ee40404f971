#!/usr/bin/env python3
"""Projects the wall time of partitioned searches on R workers from one run's
measured job durations (docs/scale.md).

Input: the remarks of `mirage-opt --mirage-superoptimize="partition-searches=1
..."` (stderr), one or more files, and the run's wall time. Every function's
searches ran in waves; within a wave a runner starts the jobs largest budget
first on whichever worker is idle (SearchJobs.h), and a wave ends when its
last job does. The time outside the jobs (import, partitioning, cache,
merging, printing) is serial. Prints, for each R, the projected wall time and
speedup, and the critical path (R unbounded: the longest job of each wave).
"""
import argparse
import heapq
import re
import sys

SEARCH = re.compile(
    r"remark: searched subprogram \((?P<ops>.*?)\)(?: with max-block-ops=\d+)?"
    r" in wave (?P<wave>\d+) with a budget of (?P<budget>[0-9.]+) s in "
    r"(?P<seconds>[0-9.]+) s")
FUNCTION = re.compile(r"remark: superoptimized in .*; (?P<seconds>[0-9.]+) s \(")


def read_waves(paths):
    """The waves of every function, in order: lists of (budget, seconds)."""
    waves = []
    for path in paths:
        current = {}
        with open(path) as f:
            for line in f:
                m = SEARCH.search(line)
                if m:
                    current.setdefault(int(m["wave"]), []).append(
                        (float(m["budget"]), float(m["seconds"])))
                    continue
                if FUNCTION.search(line) and current:
                    waves.extend(current[w] for w in sorted(current))
                    current = {}
        if current:
            waves.extend(current[w] for w in sorted(current))
    return waves


def makespan(jobs, workers):
    """List scheduling in dispatch order (largest budget first, then the
    wave's order) on `workers` workers."""
    order = sorted(range(len(jobs)), key=lambda j: (-jobs[j][0], j))
    free = [0.0] * min(workers, len(jobs))
    heapq.heapify(free)
    end = 0.0
    for j in order:
        start = heapq.heappop(free)
        finish = start + jobs[j][1]
        end = max(end, finish)
        heapq.heappush(free, finish)
    return end


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("remarks", nargs="+", help="remark files of one run")
    p.add_argument("--wall", type=float, required=True,
                   help="wall time of that run (seconds)")
    p.add_argument("--workers", default="1,2,3,8,32",
                   help="worker counts to project (default 1,2,3,8,32)")
    args = p.parse_args()
    waves = read_waves(args.remarks)
    if not waves:
        sys.exit("simulate.py: error: no 'searched subprogram ... in wave' "
                 "remarks (run with partition-searches=1)")
    jobs = sum(w[1] for wave in waves for w in wave)
    serial = max(0.0, args.wall - jobs)
    print(f"{sum(len(w) for w in waves)} jobs in {len(waves)} waves: "
          f"{jobs:.1f} s of searches, {serial:.1f} s serial")
    print("| workers | projected wall (s) | speedup |")
    print("|---|---|---|")
    one = serial + sum(makespan(w, 1) for w in waves)
    for r in [int(x) for x in args.workers.split(",")]:
        t = serial + sum(makespan(w, r) for w in waves)
        print(f"| {r} | {t:.1f} | {one / t:.2f}x |")
    critical = serial + sum(max(s for _, s in w) for w in waves)
    print(f"| unbounded (critical path) | {critical:.1f} | {one / critical:.2f}x |")


if __name__ == "__main__":
    main()
