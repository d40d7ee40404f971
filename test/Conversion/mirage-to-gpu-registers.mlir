// RUN: mirage-opt %s --convert-mirage-to-gpu="register-accumulators=1" | FileCheck %s
// RUN: mirage-opt %s --convert-mirage-to-gpu | FileCheck %s --check-prefix=SMEM

// With register-accumulators, a thread owns elements tid + j * 128 of each
// element-wise accumulator in every iteration, so the for-loop carries them:
// the 2x32 matmul accumulator (64 elements: one per thread, guarded for
// threads past the end) as an f32 loop value, stored to shared memory once,
// after the loop, for the division. The 2x1 rms accumulator is a row sum of
// squares (2 rows of 1024, 128 threads: a whole-block plan): each thread
// carries its strided part of each row (2 values) through the loop, with no
// shuffle inside it; after the loop a butterfly per warp and row, the
// warps' totals through shared memory, and one thread per row writes the
// sum.

// CHECK-LABEL: func.func @rmsnorm_matmul
// CHECK: %[[LOOP:.*]]:3 = scf.for %{{.*}} = %c0{{.*}} to %c4{{.*}} step %c1{{.*}} iter_args(%[[P0:.*]] = %{{.*}}, %[[P1:.*]] = %{{.*}}, %[[R:.*]] = %{{.*}}) -> (f32, f32, f32) {
// CHECK-NOT: gpu.shuffle
// The matmul (its tile f32: only the accumulator reads it), then the parts
// of the rows.
// CHECK: memref.store %{{.*}} : memref<2x32xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: gpu.shuffle
// CHECK: %[[Q0:.*]] = scf.for
// CHECK: arith.mulf
// CHECK: %[[S0:.*]] = arith.addf %[[P0]], %[[Q0]] : f32
// CHECK: %[[Q1:.*]] = scf.for
// CHECK: %[[S1:.*]] = arith.addf %[[P1]], %[[Q1]] : f32
// CHECK: %[[NR:.*]] = scf.if %{{.*}} -> (f32) {
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[R]] : f32
// CHECK: gpu.barrier
// CHECK-NEXT: scf.yield %[[S0]], %[[S1]], %[[NR]] : f32, f32, f32
// CHECK: gpu.shuffle xor %[[LOOP]]#0, %c16_i32
// CHECK-COUNT-4: gpu.shuffle xor
// CHECK: memref.store %{{.*}} : memref<2x4xf32, #gpu.address_space<workgroup>>
// CHECK: gpu.shuffle xor %[[LOOP]]#1, %c16_i32
// CHECK: memref.store %{{.*}} : memref<2x4xf32, #gpu.address_space<workgroup>>
// CHECK: gpu.barrier
// CHECK: memref.store %{{.*}} : memref<2x1xf32, #gpu.address_space<workgroup>>
// CHECK: scf.if
// CHECK: memref.store %[[LOOP]]#2
// CHECK: math.sqrt

// Without, the accumulators are read and written in shared memory in every
// iteration.
// SMEM-LABEL: func.func @rmsnorm_matmul
// SMEM: scf.for %{{.*}} = %c0{{.*}} to %c4{{.*}} step %c1{{.*}} {
// SMEM-NOT: iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (f32, f32)
func.func @rmsnorm_matmul(%x: tensor<2x4096xf16>, %w: tensor<4096x6144xf16>) -> tensor<2x6144xf16> {
  %y = mk.graph_kernel (%x, %w) grid = [192, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<2x4096xf16>, %W: tensor<4096x6144xf16>):
    %acc:2 = mb.for_loop -> (tensor<2x1xf16>, tensor<2x32xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x4096xf16> -> tensor<2x1024xf16>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0 : tensor<4096x6144xf16> -> tensor<1024x32xf16>
      %m = mb.matmul %xt, %wt : tensor<2x1024xf16>, tensor<1024x32xf16> -> tensor<2x32xf16>
      %r = mb.accum_rms_last %xt eps = 1.0e-06 : tensor<2x1024xf16> -> tensor<2x1xf16>
      %s = mb.accum_sum %m : tensor<2x32xf16> -> tensor<2x32xf16>
      mb.yield %r, %s : tensor<2x1xf16>, tensor<2x32xf16>
    }
    %q = mb.div %acc#1, %acc#0 : tensor<2x32xf16>, tensor<2x1xf16> -> tensor<2x32xf16>
    %o = mb.output_saver %q omap = [1, -1, -1] : tensor<2x32xf16> -> tensor<2x6144xf16>
    mb.return %o : tensor<2x6144xf16>
  } : (tensor<2x4096xf16>, tensor<4096x6144xf16>) -> tensor<2x6144xf16>
  return %y : tensor<2x6144xf16>
}
