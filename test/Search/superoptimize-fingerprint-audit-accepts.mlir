// The reduced-shape fingerprint agrees with the check at the real shapes on
// programs the full check accepts: with pruning, every complete candidate of
// a small attention is in the target's e-class, and both checks accept all
// of them (the no-pruning audit, superoptimize-fingerprint-audit.mlir, covers
// rejections).
//
// RUN: mirage-opt --mirage-superoptimize="max-kernel-ops=1 audit-fingerprints=300" %s -o /dev/null 2>&1 | FileCheck %s

// CHECK: remark: superoptimized: graph_kernel {{.*}} {matmul exp matmul accum_sum_last accum_sum | div}; 1 kernel(s)
// CHECK-SAME: fingerprint audit: {{[1-9][0-9]*}} candidates, 0 rejected at reduced shapes, 0 rejected at real shapes, 0 rejected only at reduced shapes
func.func @attention_small(%q: tensor<1x16x8xf32>, %k: tensor<1x8x32xf32>, %v: tensor<1x32x8xf32>) -> tensor<1x16x8xf32> {
  %s = mk.matmul %q, %k : tensor<1x16x8xf32>, tensor<1x8x32xf32> -> tensor<1x16x32xf32>
  %e = mk.exp %s : tensor<1x16x32xf32>
  %d = mk.reduce_sum %e dim = 2 : tensor<1x16x32xf32> -> tensor<1x16x1xf32>
  %p = mk.div %e, %d : tensor<1x16x32xf32>, tensor<1x16x1xf32> -> tensor<1x16x32xf32>
  %o = mk.matmul %p, %v : tensor<1x16x32xf32>, tensor<1x32x8xf32> -> tensor<1x16x8xf32>
  return %o : tensor<1x16x8xf32>
}
