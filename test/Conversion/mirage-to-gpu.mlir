// RUN: mirage-opt %s --convert-mirage-to-gpu -split-input-file | FileCheck %s

// The fused RMSNorm+MatMul kernel (bs 1) becomes one gpu.launch over the
// kernel's grid and block, with its tiles in dynamic shared memory. The
// matmul, which only the accum_sum reads, has no tile of its own: each
// trip adds its products to the accumulator's f32 buffer
// (mb::accumulatedInPlace); the quotient after the loop reuses the loop's
// tiles.

// CHECK-LABEL: func.func @rmsnorm_matmul_fused(
// CHECK-SAME: %[[X:.*]]: memref<2x4096xf16>, %[[W:.*]]: memref<4096x6144xf16>, %[[Y:.*]]: memref<2x6144xf16>)
// CHECK-NOT: memref.alloc
// CHECK: %[[SMEM:.*]] = arith.constant 6896 : i32
// CHECK: gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c256, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}) threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %c128, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}) dynamic_shared_memory_size %[[SMEM]]
// CHECK: %[[RAW:.*]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.view %[[RAW]][%c[[XOFF:[0-9]+]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2x128xf16, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.view %[[RAW]][%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<128x24xf16, #gpu.address_space<workgroup>>
// CHECK-DAG: memref.view %[[RAW]][%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2x1xf32, #gpu.address_space<workgroup>>
// CHECK-DAG: %[[ACC:.*]] = memref.view %[[RAW]][%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2x24xf32, #gpu.address_space<workgroup>>
// The rms row sums' warp totals (2 rows of 128 elements: every warp takes
// a part of both rows).
// CHECK-DAG: memref.view %[[RAW]][%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2x4xf32, #gpu.address_space<workgroup>>
// The post-loop quotient's tile is laid over the X tile, dead after the
// loop (shared memory by liveness).
// CHECK-DAG: memref.view %[[RAW]][%c[[XOFF]]_{{[0-9]+}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2x24xf16, #gpu.address_space<workgroup>>
// The loop of 32 iterations loads both tiles from device memory.
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %c32
// CHECK: vector.load %[[X]]
// CHECK: vector.load %[[W]]
// CHECK: gpu.barrier
// CHECK: %[[P:.*]] = scf.for {{.*}} iter_args
// CHECK: %[[OLD:.*]] = memref.load %[[ACC]]
// CHECK-NEXT: %[[NEW:.*]] = arith.addf %[[OLD]], %[[P]] : f32
// CHECK-NEXT: memref.store %[[NEW]], %[[ACC]]
// CHECK: math.sqrt
// CHECK: arith.divf
// CHECK: vector.store %{{.*}}, %[[Y]]
// CHECK: gpu.terminator
// CHECK-NOT: mk.
// CHECK-NOT: mb.
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

// -----

// Two kernels: the intermediate device tensor is a temporary buffer, the
// returned one is written into the result argument.

// CHECK-LABEL: func.func @two_kernels(
// CHECK-SAME: %[[A:.*]]: memref<4x64xf32>, %[[OUT:.*]]: memref<4x64xf32>)
// CHECK: %[[T:.*]] = memref.alloc() : memref<4x64xf32>
// Whole rows: the copies see the tensors as one row.
// CHECK: gpu.launch
// CHECK: %[[TS:.*]] = memref.collapse_shape %[[T]] {{\[\[}}0, 1]] : memref<4x64xf32> into memref<256xf32>
// CHECK: vector.store %{{.*}}, %[[TS]]
// CHECK: gpu.launch
// CHECK: %[[TL:.*]] = memref.collapse_shape %[[T]]
// CHECK: vector.load %[[TL]]
// CHECK: %[[OS:.*]] = memref.collapse_shape %[[OUT]]
// CHECK: vector.store %{{.*}}, %[[OS]]
// CHECK: memref.dealloc %[[T]]
func.func @two_kernels(%a: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %t = mk.graph_kernel (%a) grid = [4, 1, 1] block = [64, 1, 1] forloop = 1 {
  ^bb0(%A: tensor<4x64xf32>):
    %acc = mb.for_loop -> (tensor<1x64xf32>) {
      %at = mb.input_iter %A imap = [0, -1, -1] fmap = -1 : tensor<4x64xf32> -> tensor<1x64xf32>
      %e = mb.exp %at : tensor<1x64xf32>
      %s = mb.accum_sum %e : tensor<1x64xf32> -> tensor<1x64xf32>
      mb.yield %s : tensor<1x64xf32>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<1x64xf32> -> tensor<4x64xf32>
    mb.return %o : tensor<4x64xf32>
  } : (tensor<4x64xf32>) -> tensor<4x64xf32>
  %u = mk.graph_kernel (%t) grid = [4, 1, 1] block = [64, 1, 1] forloop = 1 {
  ^bb0(%T: tensor<4x64xf32>):
    %acc = mb.for_loop -> (tensor<1x64xf32>) {
      %tt = mb.input_iter %T imap = [0, -1, -1] fmap = -1 : tensor<4x64xf32> -> tensor<1x64xf32>
      %s = mb.accum_sum %tt : tensor<1x64xf32> -> tensor<1x64xf32>
      mb.yield %s : tensor<1x64xf32>
    }
    %n = mb.neg %acc : tensor<1x64xf32>
    %o = mb.output_saver %n omap = [0, -1, -1] : tensor<1x64xf32> -> tensor<4x64xf32>
    mb.return %o : tensor<4x64xf32>
  } : (tensor<4x64xf32>) -> tensor<4x64xf32>
  return %u : tensor<4x64xf32>
}
