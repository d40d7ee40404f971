// Conversions between storage types do not cut the partition (DESIGN §3.4,
// docs/partitioning.md "Conversions"): a bf16 residual add, an RMSNorm in
// f32 and its bf16 weight (gc's llama2 export) are one subprogram that the
// search takes in f32, and the spliced kernel reads and writes bf16 itself.
// RUN: mirage-opt %s --mirage-superoptimize="keep-reference=1 cache-dir=none" -o %t.opt.mlir 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: FileCheck %s --input-file=%t.opt.mlir
// RUN: mirage-opt --mirage-check-equivalence %t.opt.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV
// RUN: mirage-run --func=rms_bf16 %t.opt.mlir | FileCheck %s --check-prefix=CPU
// RUN: mirage-run --func=widened_output %t.opt.mlir | FileCheck %s --check-prefix=CPU2

// REMARK: remark: subprogram 1 of 1: ops 0-7 (mk.add, mk.square, mk.reduce_sum, mk.mul_scalar, mk.add_scalar, mk.rsqrt, mk.mul, mk.mul)
// REMARK: remark: superoptimized in 1 subprogram(s): 8 ops, 1 kernel(s) (unfused 10)
// REMARK-SAME: 2 conversion(s) left as 0;
// A chain of conversions of a kernel's result to the caller's type: the
// kernel writes f16 itself.
// REMARK: remark: superoptimized in 1 subprogram(s): 2 ops, 1 kernel(s) (unfused 4)
// REMARK-SAME: 2 conversion(s) left as 0;
// EQUIV-COUNT-2: remark: equivalent to
// CPU: @rms_bf16 on cpu
// CPU-NEXT: PASS
// CPU2: @widened_output on cpu
// CPU2-NEXT: PASS

// CHECK-LABEL: func.func @rms_bf16(
// CHECK-NOT: mk.convert
// CHECK: mk.graph_kernel
// CHECK-COUNT-3: mb.convert {{.*}}bf16> -> tensor<{{.*}}f32>
// CHECK-COUNT-2: mb.convert {{.*}}f32> -> tensor<{{.*}}bf16>
// CHECK-NOT: mk.convert
// CHECK-NOT: mk.graph_kernel
// CHECK: return
func.func @rms_bf16(%x: tensor<16x256xbf16>, %r: tensor<16x256xbf16>, %w: tensor<1x256xbf16>) -> (tensor<16x256xbf16>, tensor<16x256xbf16>) {
  %h = mk.add %x, %r : tensor<16x256xbf16>, tensor<16x256xbf16> -> tensor<16x256xbf16>
  %f = mk.convert %h : tensor<16x256xbf16> -> tensor<16x256xf32>
  %sq = mk.square %f : tensor<16x256xf32>
  %s = mk.reduce_sum %sq dim = 1 : tensor<16x256xf32> -> tensor<16x1xf32>
  %m = mk.mul_scalar %s, 3.90625E-3 : tensor<16x1xf32>
  %e = mk.add_scalar %m, 1.0E-6 : tensor<16x1xf32>
  %q = mk.rsqrt %e : tensor<16x1xf32>
  %n = mk.mul %f, %q : tensor<16x256xf32>, tensor<16x1xf32> -> tensor<16x256xf32>
  %b = mk.convert %n : tensor<16x256xf32> -> tensor<16x256xbf16>
  %y = mk.mul %b, %w : tensor<16x256xbf16>, tensor<1x256xbf16> -> tensor<16x256xbf16>
  return %y, %h : tensor<16x256xbf16>, tensor<16x256xbf16>
}

// CHECK-LABEL: func.func @widened_output(
// CHECK-NOT: mk.convert
// CHECK: mk.graph_kernel
// CHECK: mb.convert {{.*}} -> tensor<{{.*}}f16>
// CHECK-NOT: mk.convert
// CHECK: return
func.func @widened_output(%x: tensor<64x128xbf16>, %y: tensor<64x128xbf16>) -> (tensor<64x128xf16>, tensor<64x128xbf16>) {
  %s = mk.exp %x : tensor<64x128xbf16>
  %f = mk.convert %s : tensor<64x128xbf16> -> tensor<64x128xf32>
  %h = mk.convert %f : tensor<64x128xf32> -> tensor<64x128xf16>
  %p = mk.mul %s, %y : tensor<64x128xbf16>, tensor<64x128xbf16> -> tensor<64x128xbf16>
  return %h, %p : tensor<64x128xf16>, tensor<64x128xbf16>
}
