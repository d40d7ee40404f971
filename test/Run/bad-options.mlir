// mirage-run's --help lists its own options, not those of the LLVM
// libraries linked into it; a value out of an option's range, or an LLVM
// option given by mistake, is a diagnostic and exit code 1 before any work.
// RUN: mirage-run --help | FileCheck %s --check-prefix=HELP
// RUN: not mirage-run --tol-scale=-5 %s 2>&1 | FileCheck %s --check-prefix=TOLNEG
// RUN: not mirage-run --tol-scale=-0.5 %s 2>&1 | FileCheck %s --check-prefix=TOLHALF
// RUN: not mirage-run --tol-scale=nan %s 2>&1 | FileCheck %s --check-prefix=TOLNAN
// RUN: not mirage-run --input-scale=inf %s 2>&1 | FileCheck %s --check-prefix=INSCALE
// RUN: not mirage-run --input-scale=0 %s 2>&1 | FileCheck %s --check-prefix=INZERO
// RUN: not mirage-run --threads=-1 %s 2>&1 | FileCheck %s --check-prefix=THREADS
// RUN: not mirage-run --omp-threads=-1 %s 2>&1 | FileCheck %s --check-prefix=OMPNEG
// RUN: not mirage-run --omp-threads=5000 %s 2>&1 | FileCheck %s --check-prefix=OMPBIG
// RUN: not mirage-run --runs=-1 %s 2>&1 | FileCheck %s --check-prefix=RUNS
// RUN: not mirage-run --import-check --import-check-fault=x %s 2>&1 | FileCheck %s --check-prefix=FAULT
// RUN: not mirage-run --import-check-fault=mk %s 2>&1 | FileCheck %s --check-prefix=FAULTALONE
// RUN: not mirage-run --import-check --import-check-precision=f16 %s 2>&1 | FileCheck %s --check-prefix=PREC
// RUN: not mirage-run --import-check-precision=f32 %s 2>&1 | FileCheck %s --check-prefix=PRECALONE
// RUN: not mirage-run --sizes tokens=4 %s 2>&1 | FileCheck %s --check-prefix=STATICSIZES
// RUN: mirage-run --omp-threads=1 --tol-scale=2 --input-scale=0.5 %s | FileCheck %s --check-prefix=OK

// HELP: USAGE: mirage-run [options] <input file>
// HELP: mirage-run options:
// HELP-DAG: --device=
// HELP-DAG: --func=
// HELP-DAG: --import-check
// HELP-DAG: --import-check-precision=
// HELP-DAG: --omp-threads=
// HELP-DAG: --tol-scale=
// HELP-NOT: --x86-
// HELP-NOT: --nvptx-
// HELP-NOT: --amdgpu-
// HELP-NOT: --threads=
// HELP-NOT: --import-check-fault
// (--tol-scale=0 asks for exact agreement: mismatch.mlir.)
// STATICSIZES: mirage-run: --sizes: @{{.*}} has no dynamic dims
// TOLNEG: mirage-run: --tol-scale=-5: expected a finite number >= 0 (it multiplies the tolerances; 0: exact)
// TOLHALF: mirage-run: --tol-scale=-0.5: expected a finite number >= 0
// TOLNAN: mirage-run: --tol-scale=nan: expected a finite number >= 0
// INSCALE: mirage-run: --input-scale=inf: expected a positive finite number (it multiplies the uniform [-1, 1) inputs)
// INZERO: mirage-run: --input-scale=0: expected a positive finite number
// THREADS: mirage-run: --threads is an option of a library linked into mirage-run, not one mirage-run reads (--help lists them; --omp-threads sets the OpenMP threads)
// OMPNEG: mirage-run: for the --omp-threads option: '-1' value invalid for uint argument!
// OMPBIG: mirage-run: --omp-threads=5000: expected 0 (one per GPU thread) to 1024 (the most threads of a thread block)
// RUNS: mirage-run: for the --runs option: '-1' value invalid for uint argument!
// FAULT: mirage-run: --import-check-fault=x: expected mk or outside
// FAULTALONE: mirage-run: --import-check-fault needs --import-check
// PREC: mirage-run: --import-check-precision=f16: expected f64 or f32
// PRECALONE: mirage-run: --import-check-precision needs --import-check
// OK: PASS

func.func @f(%a: tensor<4x8xf16>, %b: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %0 = mk.add %a, %b : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  return %0 : tensor<4x8xf16>
}
