// When no single kernel fits (here a shared-memory limit of 2 KiB leaves no
// block room for whole rows of the 512-wide matmul result that rms_norm
// needs), the search deepens to two kernel-level ops and returns a verified
// two-kernel program: a graph-defined matmul kernel (modelled 7.2 us with
// the rms_norm, where the kernel the lowering wraps mk.matmul into gives
// 7.9 us) and mk.rms_norm.
//
// RUN: mirage-opt --mirage-superoptimize="threads=2 max-block-ops=4" %s -o %t 2> %t.remarks
// RUN: FileCheck %s --input-file=%t
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks

// REMARK: remark: superoptimized: graph_kernel {{.*}} {matmul accum_sum}; mk.rms_norm; 2 kernel(s)
// REMARK-SAME: verified 1

// CHECK-LABEL: func.func @matmul_rmsnorm(
// CHECK-NEXT:    %[[M:.*]] = mk.graph_kernel
// CHECK:         mb.matmul
// CHECK:         %[[N:.*]] = mk.rms_norm %[[M]]
// CHECK-NEXT:    return %[[N]]
module attributes {mk.smem_limit = 2048 : i64} {
func.func @matmul_rmsnorm(%x: tensor<2x64xf16>, %w: tensor<64x512xf16>) -> tensor<2x512xf16> {
  %m = mk.matmul %x, %w : tensor<2x64xf16>, tensor<64x512xf16> -> tensor<2x512xf16>
  %o = mk.rms_norm %m eps = 1.0e-06 : tensor<2x512xf16>
  return %o : tensor<2x512xf16>
}
}
