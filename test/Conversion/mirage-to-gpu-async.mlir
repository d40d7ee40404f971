// RUN: mirage-opt %s --convert-mirage-to-gpu="async-copies=1" | FileCheck %s
// RUN: mirage-opt %s --convert-mirage-to-gpu | FileCheck %s --check-prefix=SYNC
// RUN: mirage-opt %s --mirage-to-ptx="chip=sm_80 dump-dir=%t" -o /dev/null
// RUN: cat %t/*.ptx | FileCheck %s --check-prefix=PTX

// With async-copies, both input iterators of the fused RMSNorm+MatMul kernel
// walk a dim, so their tiles are double-buffered: iteration 0 is requested
// before the loop, and iteration i requests iteration i + 1 into the other
// buffer, then waits for its own group.

// CHECK-LABEL: func.func @rmsnorm_matmul_fused
// CHECK: %[[RAW:.*]] = gpu.dynamic_shared_memory
// Prologue: iteration 0 of both tiles, 16-byte chunks, one group.
// CHECK: nvgpu.device_async_copy %{{.*}}, %{{.*}}, 8 : memref<2x4096xf16> to memref<2x128xf16, #gpu.address_space<workgroup>>
// CHECK: nvgpu.device_async_copy %{{.*}}, %{{.*}}, 8 : memref<4096x6144xf16> to memref<128x24xf16, #gpu.address_space<workgroup>>
// CHECK: %[[TOKEN:.*]] = nvgpu.device_async_create_group
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %c32
// CHECK:   %[[EVEN:.*]] = arith.cmpi eq
// CHECK:   memref.view %[[RAW]]
// CHECK:   scf.if
// CHECK:     nvgpu.device_async_copy
// CHECK:     nvgpu.device_async_copy
// CHECK:     nvgpu.device_async_create_group
// CHECK:   scf.if
// CHECK-NEXT: nvgpu.device_async_wait %[[TOKEN]] {numGroups = 1 : i32}
// CHECK-NEXT: } else {
// CHECK-NEXT: nvgpu.device_async_wait %[[TOKEN]] {numGroups = 0 : i32}
// CHECK:   gpu.barrier
// SYNC-NOT: nvgpu.device_async_copy
// PTX-COUNT-2: cp.async.ca.shared.global [{{.*}}], [{{.*}}], 16;
// PTX: cp.async.commit_group
// PTX-DAG: cp.async.wait_group{{[[:space:]]+}}0;
// PTX-DAG: cp.async.wait_group{{[[:space:]]+}}1;

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
