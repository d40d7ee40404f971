// When no single kernel fits (here a shared-memory limit of 2 KiB leaves no
// block room for whole rows of the 512-wide matmul result that rms_norm
// needs), the search deepens to two kernel-level ops and returns a verified
// two-kernel program.
//
// RUN: mirage-opt --mirage-superoptimize="threads=2 max-block-ops=4" %s -o %t 2> %t.remarks
// RUN: FileCheck %s --input-file=%t
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks

// REMARK: remark: superoptimized: mk.matmul; mk.rms_norm; 2 kernel(s)
// REMARK-SAME: verified 1

// CHECK-LABEL: func.func @matmul_rmsnorm(
// CHECK-NEXT:    %[[M:.*]] = mk.matmul
// CHECK-NEXT:    %[[N:.*]] = mk.rms_norm %[[M]]
// CHECK-NEXT:    return %[[N]]
module attributes {mk.smem_limit = 2048 : i64} {
func.func @matmul_rmsnorm(%x: tensor<2x64xf16>, %w: tensor<64x512xf16>) -> tensor<2x512xf16> {
  %m = mk.matmul %x, %w : tensor<2x64xf16>, tensor<64x512xf16> -> tensor<2x512xf16>
  %o = mk.rms_norm %m eps = 1.0e-06 : tensor<2x512xf16>
  return %o : tensor<2x512xf16>
}
}
