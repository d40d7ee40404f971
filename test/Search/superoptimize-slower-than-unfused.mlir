// RUN: mirage-opt --mirage-superoptimize="cache-dir=none time-budget=30 max-block-ops=4" %s 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks

// A weighted RMSNorm feeding a wide matmul, searched with at most 4 block
// ops (the known-good one-kernel form, {mul matmul accum_rms_last accum_sum |
// div}, needs 5 and is what the default bound finds). The whole search's
// best verified program is then one kernel that recomputes the norm of its
// rows in each of 2048 blocks, modelled slower than the three ops as the
// kernels the lowering wraps them into. That
// result is not taken: the function is partitioned with what is left of the
// budget, and the partition (which keeps the unfused ops where nothing beats
// them) fuses the norm with its weight and leaves the matmul alone, faster
// than both.

// REMARK: remark: not superoptimized whole: the best verified program ({{.*}}modelled [[WHOLE:[0-9.]+]] us) is slower than the unfused ops ([[UNFUSED:[0-9.]+]] us;
// REMARK: remark: subprogram 1 of 2: ops 0-1 (mk.rms_norm, mk.mul): graph_kernel
// REMARK: remark: subprogram 2 of 2: op 2 (mk.matmul): mk.matmul; 1 kernel(s)
// REMARK: remark: superoptimized in 2 subprogram(s): 3 ops, 2 kernel(s) (unfused 3), modelled {{[0-9.]+}} us, unfused [[UNFUSED]] us

// CHECK-LABEL: func.func @rms_mul_matmul(
// CHECK: mk.graph_kernel
// CHECK: mk.matmul {{.*}} : tensor<8x4096xf16>, tensor<4096x8192xf16> -> tensor<8x8192xf16>
func.func @rms_mul_matmul(%X: tensor<8x4096xf16>, %w: tensor<1x4096xf16>, %W: tensor<4096x8192xf16>) -> tensor<8x8192xf16> {
  %n = mk.rms_norm %X eps = 1.0e-05 : tensor<8x4096xf16>
  %h = mk.mul %n, %w : tensor<8x4096xf16>, tensor<1x4096xf16> -> tensor<8x4096xf16>
  %q = mk.matmul %h, %W : tensor<8x4096xf16>, tensor<4096x8192xf16> -> tensor<8x8192xf16>
  return %q : tensor<8x8192xf16>
}
