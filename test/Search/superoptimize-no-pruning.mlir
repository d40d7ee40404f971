// Pruning loses nothing on a small RMSNorm+MatMul: the search without the
// abstract-expression oracle (every shape-legal op kept, complete candidates
// matched by shape and sorted out by the fingerprints) returns the same best
// program as the pruned search, after visiting far more states.
//
// RUN: mirage-opt --mirage-superoptimize="max-kernel-ops=1 max-block-ops=4" %s -o %t.pruned 2> %t.pruned.remarks
// RUN: mirage-opt --mirage-superoptimize="max-kernel-ops=1 max-block-ops=4 pruning=0" %s -o %t.unpruned 2> %t.unpruned.remarks
// RUN: diff %t.pruned %t.unpruned
// RUN: FileCheck %s --input-file=%t.pruned
// RUN: FileCheck %s --check-prefix=PRUNED --input-file=%t.pruned.remarks
// RUN: FileCheck %s --check-prefix=UNPRUNED --input-file=%t.unpruned.remarks

// PRUNED: remark: superoptimized: graph_kernel {{.*}} {rms_norm matmul accum_sum}; 1 kernel(s)
// PRUNED-SAME: pruned {{[1-9][0-9]*}}
// UNPRUNED: remark: superoptimized: graph_kernel {{.*}} {rms_norm matmul accum_sum}; 1 kernel(s)
// The unpruned search completes wrong programs that only the fingerprint
// rejects.
// UNPRUNED-SAME: pruned 0, duplicates 0, candidates {{[0-9]+}}, fingerprinted {{[0-9]+}} (rejected {{[1-9][0-9]*}}), verified 1

// CHECK-LABEL: func.func @rmsnorm_matmul_small(
// CHECK-NEXT:    mk.graph_kernel
// CHECK:           mb.rms_norm
// CHECK-NEXT:      mb.matmul
// CHECK-NEXT:      mb.accum_sum
func.func @rmsnorm_matmul_small(%x: tensor<2x64xf16>, %w: tensor<64x96xf16>) -> tensor<2x96xf16> {
  %n = mk.rms_norm %x eps = 1.0e-06 : tensor<2x64xf16>
  %o = mk.matmul %n, %w : tensor<2x64xf16>, tensor<64x96xf16> -> tensor<2x96xf16>
  return %o : tensor<2x96xf16>
}
