// RUN: mirage-opt %s --convert-mirage-to-gpu="tensor-cores=1" -split-input-file | FileCheck %s

// A rank-4 matmul tile has two batch dims: it keeps the plain loops.
// CHECK-LABEL: func.func @rank4
// CHECK-NOT: nvgpu.mma.sync
// CHECK: gpu.terminator
func.func @rank4(%a: tensor<2x2x16x16xf16>, %b: tensor<2x2x16x8xf16>) -> tensor<2x2x16x8xf16> {
  %y = mk.graph_kernel (%a, %b) grid = [1, 1, 1] block = [32, 1, 1] forloop = 1 {
  ^bb0(%A: tensor<2x2x16x16xf16>, %B: tensor<2x2x16x8xf16>):
    %acc = mb.for_loop -> (tensor<2x2x16x8xf16>) {
      %at = mb.input_iter %A imap = [-1, -1, -1] fmap = -1 : tensor<2x2x16x16xf16> -> tensor<2x2x16x16xf16>
      %bt = mb.input_iter %B imap = [-1, -1, -1] fmap = -1 : tensor<2x2x16x8xf16> -> tensor<2x2x16x8xf16>
      %m = mb.matmul %at, %bt : tensor<2x2x16x16xf16>, tensor<2x2x16x8xf16> -> tensor<2x2x16x8xf16>
      %s = mb.accum_sum %m : tensor<2x2x16x8xf16> -> tensor<2x2x16x8xf16>
      mb.yield %s : tensor<2x2x16x8xf16>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<2x2x16x8xf16> -> tensor<2x2x16x8xf16>
    mb.return %o : tensor<2x2x16x8xf16>
  } : (tensor<2x2x16x16xf16>, tensor<2x2x16x8xf16>) -> tensor<2x2x16x8xf16>
  return %y : tensor<2x2x16x8xf16>
}

// -----

// A post-loop op reading an accumulator reads f32 and writes its f16 tile.
// CHECK-LABEL: func.func @transpose_accumulator
// CHECK: %[[H:.*]] = arith.truncf %{{.*}} : f32 to f16
// CHECK-NEXT: memref.store %[[H]], %{{.*}} : memref<16x16xf16, #gpu.address_space<workgroup>>
func.func @transpose_accumulator(%a: tensor<16x64xf16>) -> tensor<16x16xf16> {
  %y = mk.graph_kernel (%a) grid = [1, 1, 1] block = [32, 1, 1] forloop = 4 {
  ^bb0(%A: tensor<16x64xf16>):
    %acc = mb.for_loop -> (tensor<16x16xf16>) {
      %at = mb.input_iter %A imap = [-1, -1, -1] fmap = 1 : tensor<16x64xf16> -> tensor<16x16xf16>
      %s = mb.accum_sum %at : tensor<16x16xf16> -> tensor<16x16xf16>
      mb.yield %s : tensor<16x16xf16>
    }
    %m = mb.transpose %acc perm = [1, 0] : tensor<16x16xf16> -> tensor<16x16xf16>
    %o = mb.output_saver %m omap = [-1, -1, -1] : tensor<16x16xf16> -> tensor<16x16xf16>
    mb.return %o : tensor<16x16xf16>
  } : (tensor<16x64xf16>) -> tensor<16x16xf16>
  return %y : tensor<16x16xf16>
}

// -----

// A post-loop matmul of two f32 accumulators is not an f16 mma.
// CHECK-LABEL: func.func @matmul_of_accumulators
// CHECK-NOT: nvgpu.mma.sync
// CHECK: gpu.terminator
func.func @matmul_of_accumulators(%a: tensor<16x64xf16>, %b: tensor<64x8xf16>) -> tensor<16x8xf16> {
  %y = mk.graph_kernel (%a, %b) grid = [1, 1, 1] block = [32, 1, 1] forloop = 4 {
  ^bb0(%A: tensor<16x64xf16>, %B: tensor<64x8xf16>):
    %acc:2 = mb.for_loop -> (tensor<16x16xf16>, tensor<16x8xf16>) {
      %at = mb.input_iter %A imap = [-1, -1, -1] fmap = 1 : tensor<16x64xf16> -> tensor<16x16xf16>
      %bt = mb.input_iter %B imap = [-1, -1, -1] fmap = 0 : tensor<64x8xf16> -> tensor<16x8xf16>
      %s = mb.accum_sum %at : tensor<16x16xf16> -> tensor<16x16xf16>
      %t = mb.accum_sum %bt : tensor<16x8xf16> -> tensor<16x8xf16>
      mb.yield %s, %t : tensor<16x16xf16>, tensor<16x8xf16>
    }
    %m = mb.matmul %acc#0, %acc#1 : tensor<16x16xf16>, tensor<16x8xf16> -> tensor<16x8xf16>
    %o = mb.output_saver %m omap = [-1, -1, -1] : tensor<16x8xf16> -> tensor<16x8xf16>
    mb.return %o : tensor<16x8xf16>
  } : (tensor<16x64xf16>, tensor<64x8xf16>) -> tensor<16x8xf16>
  return %y : tensor<16x8xf16>
}
