// mk.reshape is outside the search's vocabulary (a view, no kernel): a
// function with one goes to the partitioned search, where the reshape stays
// on its own, unsearched, and the ops around it are searched without it.
// RUN: mirage-opt --mirage-superoptimize="time-budget=2 cache-dir=none" %s -split-input-file -verify-diagnostics -o - | FileCheck %s

// CHECK-LABEL: func.func @with_reshape(
// CHECK-NEXT: mk.reshape
// CHECK-NEXT: mk.exp
// CHECK-NEXT: return
// expected-remark @below {{superoptimized in 2 subprogram(s): 2 ops, 1 kernel(s) (unfused 1)}}
func.func @with_reshape(%x: tensor<2x8x4xf32>) -> tensor<16x4xf32> {
  // expected-remark @below {{subprogram 1 of 2: op 0 (mk.reshape): mk.reshape; 0 kernel(s), modelled 0.0 us, unfused 0.0 us; unfused (the search does not take this op)}}
  %y = mk.reshape %x : tensor<2x8x4xf32> -> tensor<16x4xf32>
  // expected-remark @below {{subprogram 2 of 2: op 1 (mk.exp)}}
  %e = mk.exp %y : tensor<16x4xf32>
  return %e : tensor<16x4xf32>
}

// -----

// Between two runs of searchable ops, the runs are searched on their own and
// the reshape (a view) joins them.
// CHECK-LABEL: func.func @between(
// CHECK-NEXT: mk.graph_kernel
// CHECK: mk.reshape
// CHECK-NEXT: mk.graph_kernel
// CHECK-NOT: mk.
// CHECK: return
// expected-remark @below {{superoptimized in 3 subprogram(s): 5 ops, 2 kernel(s) (unfused 4)}}
func.func @between(%x: tensor<16x64xf32>, %w: tensor<64x64xf32>) -> tensor<16x4x16xf32> {
  // expected-remark @below {{subprogram 1 of 3: ops 0-1 (mk.matmul, mk.exp)}}
  %m = mk.matmul %x, %w : tensor<16x64xf32>, tensor<64x64xf32> -> tensor<16x64xf32>
  %e = mk.exp %m : tensor<16x64xf32>
  // expected-remark @below {{subprogram 2 of 3: op 2 (mk.reshape)}}
  %r = mk.reshape %e : tensor<16x64xf32> -> tensor<16x4x16xf32>
  // expected-remark @below {{subprogram 3 of 3: ops 3-4 (mk.sqrt, mk.mul_scalar)}}
  %s = mk.sqrt %r : tensor<16x4x16xf32>
  %o = mk.mul_scalar %s, 2.0 : tensor<16x4x16xf32>
  return %o : tensor<16x4x16xf32>
}
