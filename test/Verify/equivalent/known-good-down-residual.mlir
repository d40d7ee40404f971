// The known-good Llama down projection with its residual as an epilogue
// input (test/Programs/llama_down_residual_fused.mlir) is equivalent to its
// kernel-level reference, in the field, in f64 and in the kernel's precision.
// RUN: mirage-opt --mlir-print-op-on-diagnostic=false --mirage-check-equivalence="tests=2 seed=1 numerics=1" %S/../../Programs/llama_down_residual_fused.mlir -o /dev/null 2>&1 | FileCheck %s

// CHECK: remark: equivalent to @llama_down_residual_ref (2 tests, P(false equivalent) <= {{[0-9.e+-]+}})
// CHECK-SAME: float: f64 on mixed, wide, positive inputs, tolerance {{.*}}: agree
// CHECK-SAME: f16 numerics: accepted
// CHECK-NOT: error:
// CHECK-NOT: warning:
