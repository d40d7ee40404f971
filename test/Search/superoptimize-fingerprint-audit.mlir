// The reduced-shape fingerprint never rejects a program that the check at the
// real shapes accepts. Without pruning most complete candidates are wrong, so
// the audit (both checks on the first 300 candidates in cost order) sees
// rejections of both kinds; the fingerprint must reject none of the programs
// the full check accepts.
//
// RUN: mirage-opt --mirage-superoptimize="max-kernel-ops=1 max-block-ops=4 pruning=0 audit-fingerprints=300" %s -o /dev/null 2>&1 | FileCheck %s

// CHECK: remark: superoptimized:
// CHECK-SAME: fingerprint audit: 300 candidates, {{[1-9][0-9]*}} rejected at reduced shapes, {{[1-9][0-9]*}} rejected at real shapes, 0 rejected only at reduced shapes
func.func @rmsnorm_matmul_small(%x: tensor<2x64xf16>, %w: tensor<64x96xf16>) -> tensor<2x96xf16> {
  %n = mk.rms_norm %x eps = 1.0e-06 : tensor<2x64xf16>
  %o = mk.matmul %n, %w : tensor<2x64xf16>, tensor<64x96xf16> -> tensor<2x96xf16>
  return %o : tensor<2x96xf16>
}

