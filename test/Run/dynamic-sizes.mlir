// REQUIRES: libomp
// RUN: mirage-run %s --sizes tokens=1..197:1000 | FileCheck %s --check-prefix=SWEEP
// RUN: mirage-run %s --sizes=tokens=100 | FileCheck %s
// RUN: mirage-opt %s --mirage-wrap-kernels -o %t.wrapped.mlir
// RUN: mirage-run %t.wrapped.mlir --sizes tokens=1:37:64:65 | FileCheck %s
// RUN: mirage-run %t.wrapped.mlir --sizes tokens=100 --omp-threads=0 | FileCheck %s
// RUN: sed 's/max = 4096/max = 4096, divisor = 64/' %s > %t.exact.mlir
// RUN: mirage-run %t.exact.mlir --sizes tokens=64:128:192 | FileCheck %s
// RUN: not mirage-run %s 2>&1 | FileCheck %s --check-prefix=NOSIZE
// RUN: not mirage-run %s --sizes tokens=5000 2>&1 | FileCheck %s --check-prefix=FACTS
// RUN: not mirage-run %s --sizes rows=4 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not mirage-run %s --sizes tokens=0 2>&1 | FileCheck %s --check-prefix=MALFORMED
// RUN: not mirage-run %s --sizes tokens=9..3 2>&1 | FileCheck %s --check-prefix=MALFORMED
// RUN: not mirage-run %s --sizes tokens=1..5000 2>&1 | FileCheck %s --check-prefix=TOOMANY

// A program with a dynamic token count is compiled once, dynamic (its mk
// ops wrapped into kernels with a '?' grid dim, docs/dynamic.md), and run
// at every size --sizes lists, each run compared with the interpreter at
// its size: here every size from 1 to 3 tiles + 5 of the matmul's 64-row
// tiles, before and after --mirage-wrap-kernels; with a divisor of 64 (the
// tiles then never overhang and are copied without masks) at multiples of
// 64. Without sizes, or with
// sizes the facts rule out, it stops with a diagnostic.

// CHECK: PASS
// SWEEP: @rmsnorm_matmul at tokens=1 on cpu
// SWEEP: @rmsnorm_matmul at tokens=197 on cpu
// SWEEP: 198 sizes, one compiled program: 198 passed
// SWEEP-NEXT: PASS

// NOSIZE: mirage-run: @rmsnorm_matmul has dynamic dims: give their sizes with --sizes name=value (tokens (1 <= tokens <= 4096))
// FACTS: error: size tokens = 5000 breaks its facts tokens (1 <= tokens <= 4096)
// FACTS: mirage-run: --sizes: cannot give the dynamic dims of @rmsnorm_matmul the sizes tokens=5000
// MALFORMED: error: sizes entry 'tokens={{.*}}' is not name=v1:v2:... with positive integers or ranges a..b
// TOOMANY: error: sizes give more than 4096 combinations
// UNKNOWN: error: no value given for size tokens (1 <= tokens <= 4096) of @rmsnorm_matmul

func.func @rmsnorm_matmul(%x: tensor<?x64xf16> {mk.sizes = [#mk.size<name = "tokens", max = 4096>]},
                          %w: tensor<64x48xf16>) -> tensor<?x48xf16> {
  %n = mk.rms_norm %x eps = 1.0e-06 : tensor<?x64xf16>
  %o = mk.matmul %n, %w : tensor<?x64xf16>, tensor<64x48xf16> -> tensor<?x48xf16>
  %s = mk.silu %o : tensor<?x48xf16>
  return %s : tensor<?x48xf16>
}
