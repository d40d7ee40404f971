// The known-good fused lora of DESIGN §8 (bs 1 shapes, test/Programs) is
// equivalent to its kernel-level reference.
// RUN: mirage-opt --mlir-print-op-on-diagnostic=false --mirage-check-equivalence="tests=2 seed=1" %S/../../Programs/lora_fused.mlir -o /dev/null 2>&1 | FileCheck %s

// CHECK: remark: equivalent to @lora_ref (2 tests, P(false equivalent) <= {{[0-9.e+-]+}})
// CHECK-NOT: error
// CHECK-NOT: warning
