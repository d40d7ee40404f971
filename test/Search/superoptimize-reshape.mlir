// Layout ops (mk.reshape, mk.transpose, a concat of one value with itself)
// are outside the search's vocabulary: the partitioned search leaves them out
// of its subprograms and, after the splice, folds them into the views of the
// kernels around them (--mirage-absorb-views); one next to no graph-defined
// kernel stays as it is.
// RUN: mirage-opt --mirage-superoptimize="time-budget=2 cache-dir=none" %s -split-input-file -verify-diagnostics -o - | FileCheck %s

// A reshape of an argument read by a pre-defined op (one op is not searched)
// stays.
// CHECK-LABEL: func.func @with_reshape(
// CHECK-NEXT: mk.reshape
// CHECK-NEXT: mk.exp
// CHECK-NEXT: return
// expected-remark @below {{superoptimized in 1 subprogram(s): 1 ops, 1 kernel(s) (unfused 1)}}
func.func @with_reshape(%x: tensor<2x8x4xf32>) -> tensor<16x4xf32> {
  %y = mk.reshape %x : tensor<2x8x4xf32> -> tensor<16x4xf32>
  // expected-remark @below {{subprogram 1 of 1: op 0 (mk.exp)}}
  %e = mk.exp %y : tensor<16x4xf32>
  return %e : tensor<16x4xf32>
}

// -----

// Between two runs of searchable ops, the runs are searched on their own
// (one subprogram of all four would read its own result through the reshape)
// and the second kernel reads the first one's result through the reshape's
// view.
// CHECK: #[[SPLIT:.*]] = affine_map<(d0, d1, d2) -> (d0, d2 + d1 * 16)>
// CHECK-LABEL: func.func @between(
// CHECK-NEXT: %[[A:.*]] = mk.graph_kernel
// CHECK-NOT: mk.reshape
// CHECK: mk.graph_kernel(%[[A]])
// CHECK: mb.input_iter %{{.*}} view = #[[SPLIT]] : tensor<16x64xf32> -> tensor<1x4x1xf32>
// CHECK-NOT: mk.
// CHECK: return
// expected-remark @below {{superoptimized in 2 subprogram(s): 4 ops, 2 kernel(s) (unfused 4)}}
func.func @between(%x: tensor<16x64xf32>, %w: tensor<64x64xf32>) -> tensor<16x4x16xf32> {
  // expected-remark @below {{subprogram 1 of 2: ops 0-1 (mk.matmul, mk.exp)}}
  %m = mk.matmul %x, %w : tensor<16x64xf32>, tensor<64x64xf32> -> tensor<16x64xf32>
  %e = mk.exp %m : tensor<16x64xf32>
  %r = mk.reshape %e : tensor<16x64xf32> -> tensor<16x4x16xf32>
  // expected-remark @below {{subprogram 2 of 2: ops 2-3 (mk.sqrt, mk.mul_scalar)}}
  %s = mk.sqrt %r : tensor<16x4x16xf32>
  %o = mk.mul_scalar %s, 2.0 : tensor<16x4x16xf32>
  return %o : tensor<16x4x16xf32>
}
