// mk.reshape is outside the search's vocabulary: the function is left as it
// is, with a remark that says why, and the pass succeeds.
// RUN: mirage-opt --mirage-superoptimize="time-budget=2" %s -verify-diagnostics -o - | FileCheck %s

// CHECK-LABEL: func.func @with_reshape(
// CHECK-NEXT: mk.reshape
// CHECK-NEXT: mk.exp
// CHECK-NEXT: return
// expected-remark @below {{not superoptimized: op 'mk.reshape' is not supported by the search}}
func.func @with_reshape(%x: tensor<2x8x4xf32>) -> tensor<16x4xf32> {
  %y = mk.reshape %x : tensor<2x8x4xf32> -> tensor<16x4xf32>
  %e = mk.exp %y : tensor<16x4xf32>
  return %e : tensor<16x4xf32>
}
