// Degenerate targets (issue 14): a program whose results are its arguments,
// or equal them (x * 0.5 * 2.0, x * 1.0, x + 0.0, neg(neg(y))), becomes the
// trivial program that returns the arguments, verified like any candidate;
// a constant result is a one-op program; one-op programs stay one kernel.
//
// RUN: mirage-opt --mirage-superoptimize="time-budget=2" %s -verify-diagnostics -o - | FileCheck %s
// RUN: mirage-opt --mirage-superoptimize="time-budget=2 pruning=0" %s -o - 2>/dev/null | FileCheck %s --check-prefix=NOPRUNE

// Zero ops: the function is already the trivial program.
// CHECK-LABEL: func.func @zero_ops(
// CHECK-SAME:    %[[X:.*]]: tensor<8x64xf16>
// CHECK-NEXT:    return %[[X]] : tensor<8x64xf16>
// expected-remark@+1 {{superoptimized: the identity (no ops); 0 kernel(s), modelled 0.0 us}}
func.func @zero_ops(%x: tensor<8x64xf16>) -> tensor<8x64xf16> {
  return %x : tensor<8x64xf16>
}

// Zero ops, results permuted and repeated.
// CHECK-LABEL: func.func @permuted(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<8x64xf16>, %[[Y:[^:]*]]: tensor<8x64xf16>
// CHECK-NEXT:    return %[[Y]], %[[X]], %[[Y]] :
// expected-remark@+1 {{superoptimized: the identity (no ops)}}
func.func @permuted(%x: tensor<8x64xf16>, %y: tensor<8x64xf16>) -> (tensor<8x64xf16>, tensor<8x64xf16>, tensor<8x64xf16>) {
  return %y, %x, %y : tensor<8x64xf16>, tensor<8x64xf16>, tensor<8x64xf16>
}

// The identity chain of issue 14: two mk.mul_scalar that fold to x.
// CHECK-LABEL: func.func @identity_chain(
// CHECK-SAME:    %[[X:.*]]: tensor<8x64xf16>
// CHECK-NEXT:    return %[[X]] : tensor<8x64xf16>
// NOPRUNE-LABEL: func.func @identity_chain(
// NOPRUNE-NEXT:    return %arg0
// expected-remark@+1 {{superoptimized: the identity (no ops); 0 kernel(s)}}
func.func @identity_chain(%x: tensor<8x64xf16>) -> tensor<8x64xf16> {
  %a = mk.mul_scalar %x, 0.5 : tensor<8x64xf16>
  %b = mk.mul_scalar %a, 2.0 : tensor<8x64xf16>
  return %b : tensor<8x64xf16>
}

// One op that is a pure copy.
// CHECK-LABEL: func.func @copy(
// CHECK-SAME:    %[[X:.*]]: tensor<8x64xf32>
// CHECK-NEXT:    return %[[X]] : tensor<8x64xf32>
// expected-remark@+1 {{superoptimized: the identity (no ops)}}
func.func @copy(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %a = mk.mul_scalar %x, 1.0 : tensor<8x64xf32>
  return %a : tensor<8x64xf32>
}

// CHECK-LABEL: func.func @shift_zero(
// CHECK-NEXT:    return %arg0 : tensor<8x64xf32>
// expected-remark@+1 {{superoptimized: the identity (no ops)}}
func.func @shift_zero(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %a = mk.add_scalar %x, 0.0 : tensor<8x64xf32>
  return %a : tensor<8x64xf32>
}

// The result equals the second argument, not the first of the same type.
// CHECK-LABEL: func.func @neg_neg(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<8x64xf32>, %[[Y:[^:]*]]: tensor<8x64xf32>
// CHECK-NEXT:    return %[[Y]] : tensor<8x64xf32>
// NOPRUNE-LABEL: func.func @neg_neg(
// NOPRUNE-NEXT:    return %arg1
// expected-remark@+1 {{superoptimized: the identity (no ops)}}
func.func @neg_neg(%x: tensor<8x64xf32>, %y: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %a = mk.neg %y : tensor<8x64xf32>
  %b = mk.neg %a : tensor<8x64xf32>
  return %b : tensor<8x64xf32>
}

// A constant result (x * 0) is one kernel, not the identity (the op itself
// or a graph-defined kernel that the cost model finds a hair faster than
// the kernel the lowering wraps it into).
// CHECK-LABEL: func.func @constant(
// CHECK-NOT:     return %arg0
// CHECK:         mul_scalar %{{.*}}, 0.000000e+00
// CHECK:         return
// expected-remark-re@+1 {{superoptimized: {{.*}}mul_scalar{{.*}}; 1 kernel(s)}}
func.func @constant(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %a = mk.mul_scalar %x, 0.0 : tensor<8x64xf32>
  return %a : tensor<8x64xf32>
}

// One op that is not a copy stays one kernel; the identity is not accepted.
// CHECK-LABEL: func.func @one_op(
// CHECK-NOT:     return %arg0
// CHECK:         exp
// CHECK:         return
// expected-remark-re@+1 {{superoptimized: {{.*}}exp{{.*}}; 1 kernel(s)}}
func.func @one_op(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %a = mk.exp %x : tensor<8x64xf32>
  return %a : tensor<8x64xf32>
}

// A result of the type of an argument that is not equal to it.
// CHECK-LABEL: func.func @not_identity(
// CHECK-NOT:     return %arg0
// CHECK:         return
// expected-remark-re@+1 {{superoptimized: {{.*}}mul_scalar{{.*}}; 1 kernel(s)}}
func.func @not_identity(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %a = mk.mul_scalar %x, 3.0 : tensor<8x64xf32>
  return %a : tensor<8x64xf32>
}
