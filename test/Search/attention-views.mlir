// An exported attention (the layout of torch's scaled_dot_product_attention
// around nn.MultiheadAttention-style projections): Q, K and V arrive as the
// projections' [tokens, heads * 64] outputs, are split into heads (reshape,
// transpose; K^T directly), scaled, causally masked, softmaxed, multiplied by
// V, and the heads merged back (transpose, reshape). The partitioned search
// leaves the 8 layout ops out of its subprograms and the 9 compute ops become
// one kernel that reads Q, K and V in place through views and writes the
// merged layout through its saver's view (docs/partitioning.md).
// RUN: mirage-opt %s --mirage-superoptimize="keep-reference=1 cache-dir=none" -o %t.opt.mlir 2> %t.remarks
// RUN: FileCheck %s --input-file=%t.opt.mlir
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: mirage-opt --mirage-check-equivalence %t.opt.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV
// RUN: mirage-run --func=attention %t.opt.mlir | FileCheck %s --check-prefix=CPU

// REMARK: remark: superoptimized in 1 subprogram(s): 9 ops, 1 kernel(s) (unfused 9)
// REMARK-SAME: 8 layout op(s) folded into views (3 kernel input(s), 1 output(s))
// EQUIV: remark: equivalent to @attention_reference
// CPU: @attention on cpu
// CPU-NEXT: PASS

// CHECK-DAG: #[[HEADS:.*]] = affine_map<(d0, d1, d2) -> (d1, d2 + d0 * 64)>
// CHECK-DAG: #[[KT:.*]] = affine_map<(d0, d1, d2) -> (d2, d1 + d0 * 64)>
// CHECK-LABEL: func.func @attention(
// CHECK-SAME: %[[Q:[^:]*]]: tensor<64x256xf16>, %[[K:[^:]*]]: tensor<64x256xf16>, %[[V:[^:]*]]: tensor<64x256xf16>)
// CHECK-NOT: mk.transpose
// CHECK-NOT: mk.reshape
// CHECK: %[[O:.*]] = mk.graph_kernel(%[[Q]], %[[K]], %[[V]])
// CHECK-DAG: mb.input_iter %{{.*}} view = #[[HEADS]] : tensor<64x256xf16>
// CHECK-DAG: mb.input_iter %{{.*}} view = #[[KT]] : tensor<64x256xf16>
// CHECK-DAG: mb.output_saver %{{.*}} view = #[[HEADS]] : tensor<{{.*}}> -> tensor<64x256xf16>
// CHECK: } : (tensor<64x256xf16>, tensor<64x256xf16>, tensor<64x256xf16>) -> tensor<64x256xf16>
// CHECK-NEXT: return %[[O]]
func.func @attention(%q: tensor<64x256xf16>, %k: tensor<64x256xf16>, %v: tensor<64x256xf16>) -> tensor<64x256xf16> {
  %q1 = mk.reshape %q : tensor<64x256xf16> -> tensor<64x4x64xf16>
  %qh = mk.transpose %q1 perm = [1, 0, 2] : tensor<64x4x64xf16> -> tensor<4x64x64xf16>
  %k1 = mk.reshape %k : tensor<64x256xf16> -> tensor<64x4x64xf16>
  %kt = mk.transpose %k1 perm = [1, 2, 0] : tensor<64x4x64xf16> -> tensor<4x64x64xf16>
  %v1 = mk.reshape %v : tensor<64x256xf16> -> tensor<64x4x64xf16>
  %vh = mk.transpose %v1 perm = [1, 0, 2] : tensor<64x4x64xf16> -> tensor<4x64x64xf16>
  %s = mk.matmul %qh, %kt : tensor<4x64x64xf16>, tensor<4x64x64xf16> -> tensor<4x64x64xf16>
  %sc = mk.mul_scalar %s, 0.125 : tensor<4x64x64xf16>
  %b = mk.band_mask %sc dims = [1, 2] upper = 0 fill = 0xFFF0000000000000 : tensor<4x64x64xf16>
  %m = mk.reduce_max %b dim = 2 : tensor<4x64x64xf16> -> tensor<4x64x1xf16>
  %c = mk.sub %b, %m : tensor<4x64x64xf16>, tensor<4x64x1xf16> -> tensor<4x64x64xf16>
  %e = mk.exp %c : tensor<4x64x64xf16>
  %d = mk.reduce_sum %e dim = 2 : tensor<4x64x64xf16> -> tensor<4x64x1xf16>
  %p = mk.div %e, %d : tensor<4x64x64xf16>, tensor<4x64x1xf16> -> tensor<4x64x64xf16>
  %o = mk.matmul %p, %vh : tensor<4x64x64xf16>, tensor<4x64x64xf16> -> tensor<4x64x64xf16>
  %o1 = mk.transpose %o perm = [1, 0, 2] : tensor<4x64x64xf16> -> tensor<64x4x64xf16>
  %o2 = mk.reshape %o1 : tensor<64x4x64xf16> -> tensor<64x256xf16>
  return %o2 : tensor<64x256xf16>
}
