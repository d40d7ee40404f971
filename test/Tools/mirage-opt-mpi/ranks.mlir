// mirage-opt-mpi (docs/scale.md): rank 0 runs mirage-opt and deals the
// subprogram searches of the partitioned superoptimizer to the other ranks.
// The reduced GPT-2 MLP block of test/Run/layers (17 ops, 16 searches in its
// first wave) gives the same module with 1 and 3 ranks as mirage-opt does;
// a second run is answered by the cache; a worker that dies stops the run
// with an error that names the job it had, and a rerun with the same cache
// resumes and gives the same module.
//
// REQUIRES: mpi
// RUN: rm -rf %t.cache %t.killed
// RUN: mirage-opt --mirage-superoptimize="cache-dir=none threads=1" %S/../../Run/layers/gpt2_mlp.mlir -o %t.one 2>/dev/null
// RUN: %mpirun -np 1 %mirage_opt_mpi --mirage-superoptimize="cache-dir=none threads=1" %S/../../Run/layers/gpt2_mlp.mlir -o %t.np1 2>/dev/null
// RUN: diff %t.one %t.np1
// RUN: %mpirun -np 3 %mirage_opt_mpi --mirage-superoptimize="cache-dir=%t.cache threads=1" %S/../../Run/layers/gpt2_mlp.mlir -o %t.np3 2> %t.np3.log
// RUN: diff %t.one %t.np3
// RUN: FileCheck %s --check-prefix=SEARCHED --input-file=%t.np3.log
// RUN: %mpirun -np 3 %mirage_opt_mpi --mirage-superoptimize="cache-dir=%t.cache threads=1" %S/../../Run/layers/gpt2_mlp.mlir -o %t.again 2> %t.again.log
// RUN: diff %t.one %t.again
// RUN: FileCheck %s --check-prefix=CACHED --input-file=%t.again.log
//
// The worker that receives the third job dies (a test hook):
// RUN: env MIRAGE_MPI_WORKER_DIES_AT_JOB=3 not %mpirun -np 3 %mirage_opt_mpi --mirage-superoptimize="cache-dir=%t.killed threads=1" %S/../../Run/layers/gpt2_mlp.mlir -o %t.dead 2> %t.dead.log
// RUN: FileCheck %s --check-prefix=KILLED --input-file=%t.dead.log
// RUN: not test -e %t.dead
// RUN: %mpirun -np 3 %mirage_opt_mpi --mirage-superoptimize="cache-dir=%t.killed threads=1" %S/../../Run/layers/gpt2_mlp.mlir -o %t.resumed 2> %t.resumed.log
// RUN: diff %t.one %t.resumed
// RUN: FileCheck %s --check-prefix=RESUMED --input-file=%t.resumed.log
//
// Bad input ends the run with rank 0's error and a non-zero exit; no rank
// is left waiting.
// RUN: not %mpirun -np 2 %mirage_opt_mpi %t.missing 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not %mpirun -np 2 %mirage_opt_mpi --no-such-flag 2>&1 | FileCheck %s --check-prefix=BADFLAG
// RUN: %mpirun -np 2 %mirage_opt_mpi --help | FileCheck %s --check-prefix=HELP

// SEARCHED: remark: superoptimized in 3 subprogram(s): 17 ops, 3 kernel(s) {{.*}}, 16 searched, {{[0-9]+}} not searched by the bound, 0 for the time budget, 0 from the cache
// CACHED: remark: superoptimized in 3 subprogram(s): 17 ops, 3 kernel(s) {{.*}}, 0 searched, {{[0-9]+}} not searched by the bound, 0 for the time budget, 16 from the cache

// KILLED: mirage-opt-mpi: rank {{[12]}} dies at job 3
// KILLED: mirage-opt-mpi: error: the run was stopped (a worker died or the run was killed) while {{.*}}rank {{[12]}} searched job 3 (mk.{{.*}}); a rerun with the same cache directory resumes from the searches that finished

// A job finished before the third was dealt (to its worker): it is in the
// cache, so the rerun has at least one hit.
// RESUMED: remark: superoptimized in 3 subprogram(s): 17 ops, 3 kernel(s) {{.*}}, {{[0-9]+}} searched, {{[0-9]+}} not searched by the bound, 0 for the time budget, {{[1-9][0-9]*}} from the cache

// MISSING: cannot open input file '{{.*}}.missing'
// BADFLAG: Unknown command line argument '--no-such-flag'
// HELP: OVERVIEW: Mirage multi-level superoptimizer driver
