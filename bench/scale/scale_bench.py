#!/usr/bin/env python3
"""Wall time of partitioned searches over threads and MPI ranks (docs/scale.md).

For every input (an export the importer reads, or an mk function), imports it
once, then runs the search (cache off, partition-searches=1) with each thread
count of --threads and, where mirage-opt-mpi was built and mpirun is found,
with each rank count of --ranks (one thread each), --repeat times; prints the
median wall times, the speedups over one thread, whether every output is
byte-identical to the one-thread output, and the projection of the one-thread
run's jobs onto more workers (simulate.py).
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DEFAULT_INPUTS = [os.path.join(ROOT, "test", "Import", f)
                  for f in ("bert-layer-linalg.mlir", "llama-layer-tosa.mlir")]


def run_timed(cmd, env, stderr_path):
    start = time.monotonic()
    with open(stderr_path, "w") as err:
        proc = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=err)
    wall = time.monotonic() - start
    if proc.returncode != 0:
        sys.exit(f"scale_bench.py: error: {' '.join(cmd)} exited with "
                 f"{proc.returncode} (stderr in {stderr_path})")
    return wall


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--build", required=True)
    p.add_argument("--threads", default="1,2")
    p.add_argument("--ranks", default="1,2,3")
    p.add_argument("--repeat", type=int, default=1)
    p.add_argument("--options", default="",
                   help="extra --mirage-superoptimize options")
    p.add_argument("inputs", nargs="*")
    args = p.parse_args()
    bindir = os.path.join(args.build, "bin")
    opt = os.path.join(bindir, "mirage-opt")
    mpi_opt = os.path.join(bindir, "mirage-opt-mpi")
    mpirun = shutil.which("mpirun")
    if not os.path.exists(opt):
        sys.exit(f"scale_bench.py: error: no {opt} (build first)")
    ranks = [int(r) for r in args.ranks.split(",") if r]
    if ranks and not (os.path.exists(mpi_opt) and mpirun):
        print("(no mirage-opt-mpi or mpirun: ranks skipped)")
        ranks = []
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1",
               OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               OMPI_MCA_btl_vader_single_copy_mechanism="none")
    work = tempfile.mkdtemp(prefix="mirage-scale-")
    options = "cache-dir=none partition-searches=1 " + args.options
    print("| input | runner | wall s (median) | speedup | identical |")
    print("|---|---|---|---|---|")
    projections = []
    for path in args.inputs or DEFAULT_INPUTS:
        name = os.path.splitext(os.path.basename(path))[0]
        mk = os.path.join(work, name + ".mk.mlir")
        subprocess.run([opt, "--mirage-import", path, "-o", mk], check=True)
        configs = [(f"threads={t}", t, 0) for t in
                   (int(x) for x in args.threads.split(",") if x)]
        configs += [(f"{r} rank(s) x 1 thread", 1, r) for r in ranks]
        base = None
        for label, threads, nranks in configs:
            out = os.path.join(work, f"{name}.{threads}.{nranks}.mlir")
            log = out + ".log"
            cmd = [opt] if not nranks else [mpirun, "--oversubscribe", "-np",
                                            str(nranks), mpi_opt]
            cmd += [mk, f"--mirage-superoptimize={options} threads={threads}",
                    "-o", out]
            walls = [run_timed(cmd, env, log) for _ in range(args.repeat)]
            wall = statistics.median(walls)
            with open(out) as f:
                text = f.read()
            if base is None:
                base = (wall, text, log)
            same = "yes" if text == base[1] else "NO"
            print(f"| {name} | {label} | {wall:.1f} | {base[0] / wall:.2f}x "
                  f"| {same} |", flush=True)
        projections.append((name, base[2], base[0]))
    for name, log, wall in projections:
        print(f"\n{name}, projected from the first runner's jobs:")
        sys.stdout.flush()
        subprocess.run([sys.executable, os.path.join(HERE, "simulate.py"), log,
                        "--wall", f"{wall:.2f}"], check=True)
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
