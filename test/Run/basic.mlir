// REQUIRES: libomp
// RUN: mirage-run %s --func=second --runs=3 | FileCheck %s
// RUN: mirage-run %s --omp-threads=0 | FileCheck %s --check-prefix=FIRST
// RUN: mirage-run %s --compile-only | FileCheck %s --check-prefix=COMPILE
// Two results, f32 and bf16, picked by --func; the first function with a
// body by default.
// CHECK: output 0 (f32, 32 elements): max abs err
// CHECK-SAME: tolerance rel 0.0001
// CHECK: output 1 (bf16, 32 elements): max abs err
// CHECK-SAME: tolerance rel 0.05
// CHECK: @second on cpu (threads=2): max abs err {{.*}}, time per run {{.*}} ms (3 timed runs
// CHECK-NEXT: PASS
// FIRST: @first on cpu (threads=0)
// FIRST-NEXT: PASS
// --compile-only lowers and JIT-compiles, and neither evaluates nor runs.
// COMPILE: @first on cpu (threads=2): compile-only, host code JIT-compiled in {{.*}} ms, 0 runtime calls made
// COMPILE-NOT: output
// COMPILE-NOT: PASS
func.func @first(%x: tensor<4x8xf16>, %w: tensor<8x16xf16>) -> tensor<4x16xf16> {
  %n = mk.rms_norm %x eps = 1.0e-06 : tensor<4x8xf16>
  %o = mk.matmul %n, %w : tensor<4x8xf16>, tensor<8x16xf16> -> tensor<4x16xf16>
  return %o : tensor<4x16xf16>
}
func.func @second(%x: tensor<4x8xf32>, %y: tensor<4x8xbf16>) -> (tensor<4x8xf32>, tensor<4x8xbf16>) {
  %e = mk.exp %x : tensor<4x8xf32>
  %s = mk.silu %y : tensor<4x8xbf16>
  return %e, %s : tensor<4x8xf32>, tensor<4x8xbf16>
}
