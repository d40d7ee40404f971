// RUN: mirage-opt %s --convert-mirage-to-gpu="async-copies=1" | FileCheck %s
// RUN: mirage-opt %s --convert-mirage-to-gpu | FileCheck %s --check-prefix=SYNC
// RUN: mirage-opt %s --mirage-to-ptx="chip=sm_80 dump-dir=%t" -o /dev/null
// RUN: cat %t/*.ptx | FileCheck %s --check-prefix=PTX

// With async-copies, both input iterators of the fused RMSNorm+MatMul kernel
// walk a dim, so their tiles are loaded by a 4-stage cp.async pipeline (16-byte
// chunks that bypass L1): iterations 0, 1 and 2 are requested before the
// loop, one group each; iteration i requests iteration i + 3 into the buffer
// iteration i - 1 used (byte offset base + (i mod 4) x stride), closes a
// group (empty near the end) and waits until at most 3 groups are pending,
// i.e. until its own tiles have landed.

// CHECK-LABEL: func.func @rmsnorm_matmul_fused
// CHECK: %[[RAW:.*]] = gpu.dynamic_shared_memory
// CHECK-COUNT-3: nvgpu.device_async_create_group
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %c32
// CHECK:   %[[AHEAD:.*]] = arith.addi %[[I]], %c3
// CHECK:   %[[MORE:.*]] = arith.cmpi ult, %[[AHEAD]], %c32
// CHECK:   scf.if %[[MORE]]
// CHECK:     arith.remui %[[AHEAD]], %c4
// CHECK:     nvgpu.device_async_copy %{{.*}}, 8 {bypassL1} : memref<2x4096xf16> to memref<2x128xf16, #gpu.address_space<workgroup>>
// CHECK:     nvgpu.device_async_copy %{{.*}}, 8 {bypassL1} : memref<4096x6144xf16> to memref<128x24xf16, #gpu.address_space<workgroup>>
// CHECK:   %[[G:.*]] = nvgpu.device_async_create_group
// CHECK-NEXT: nvgpu.device_async_wait %[[G]] {numGroups = 3 : i32}
// CHECK:   arith.remui %[[I]], %c4
// CHECK:   memref.view %[[RAW]]
// CHECK:   gpu.barrier
// SYNC-NOT: nvgpu.device_async_copy
// PTX-COUNT-2: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16;
// PTX: cp.async.commit_group
// PTX: cp.async.wait_group{{[[:space:]]+}}3;
// PTX-NOT: ld.global

func.func @rmsnorm_matmul_fused(%x: tensor<2x4096xf16>, %w: tensor<4096x6144xf16>) -> tensor<2x6144xf16> {
  %y = mk.graph_kernel (%x, %w) grid = [256, 1, 1] block = [128, 1, 1] forloop = 32 {
  ^bb0(%X: tensor<2x4096xf16>, %W: tensor<4096x6144xf16>):
    %acc:2 = mb.for_loop -> (tensor<2x1xf16>, tensor<2x24xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x4096xf16> -> tensor<2x128xf16>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0 : tensor<4096x6144xf16> -> tensor<128x24xf16>
      %m = mb.matmul %xt, %wt : tensor<2x128xf16>, tensor<128x24xf16> -> tensor<2x24xf16>
      %r = mb.accum_rms_last %xt eps = 1.0e-06 : tensor<2x128xf16> -> tensor<2x1xf16>
      %s = mb.accum_sum %m : tensor<2x24xf16> -> tensor<2x24xf16>
      mb.yield %r, %s : tensor<2x1xf16>, tensor<2x24xf16>
    }
    %q = mb.div %acc#1, %acc#0 : tensor<2x24xf16>, tensor<2x1xf16> -> tensor<2x24xf16>
    %o = mb.output_saver %q omap = [1, -1, -1] : tensor<2x24xf16> -> tensor<2x6144xf16>
    mb.return %o : tensor<2x6144xf16>
  } : (tensor<2x4096xf16>, tensor<4096x6144xf16>) -> tensor<2x6144xf16>
  return %y : tensor<2x6144xf16>
}
