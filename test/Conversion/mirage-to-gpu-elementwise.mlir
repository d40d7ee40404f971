// RUN: mirage-opt %s --convert-mirage-to-gpu -split-input-file | FileCheck %s

// reciprocal, tanh, gelu_erf and max lower to scalar arith/math ops inside
// the gpu.launch, at the block level and inside a thread graph.

// CHECK-LABEL: func.func @block_ops(
// CHECK: gpu.launch
// CHECK: scf.for
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[R:.*]] = arith.divf %[[ONE]], %{{.*}} : f32
// CHECK: math.tanh %{{.*}} : f32
// The exact GELU: erf through exp(-x^2), odd in x.
// CHECK: math.absf
// CHECK: math.exp
// CHECK: arith.cmpf olt
// CHECK: arith.select
// CHECK: arith.maximumf
// CHECK: gpu.terminator
// CHECK-NOT: mb.
func.func @block_ops(%x: tensor<8x64xf32>, %r: tensor<8x1xf32>) -> tensor<8x16xf32> {
  %y = mk.graph_kernel (%x, %r) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf32>, %R: tensor<8x1xf32>):
    %acc = mb.for_loop -> (tensor<4x16xf32>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf32> -> tensor<4x16xf32>
      %rt = mb.input_iter %R imap = [0, -1, -1] fmap = -1 : tensor<8x1xf32> -> tensor<4x1xf32>
      %0 = mb.reciprocal %xt : tensor<4x16xf32>
      %1 = mb.tanh %0 : tensor<4x16xf32>
      %2 = mb.gelu_erf %1 : tensor<4x16xf32>
      %3 = mb.max %2, %rt : tensor<4x16xf32>, tensor<4x1xf32> -> tensor<4x16xf32>
      %s = mb.accum_sum %3 : tensor<4x16xf32> -> tensor<4x16xf32>
      mb.yield %s : tensor<4x16xf32>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x16xf32> -> tensor<8x16xf32>
    mb.return %o : tensor<8x16xf32>
  } : (tensor<8x64xf32>, tensor<8x1xf32>) -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// -----

// CHECK-LABEL: func.func @thread_ops(
// CHECK: gpu.launch
// CHECK: arith.divf
// CHECK: math.tanh
// CHECK: math.exp
// CHECK: arith.select
// CHECK: arith.maximumf
// CHECK: gpu.terminator
// CHECK-NOT: mt.
func.func @thread_ops(%x: tensor<16x64xf16>, %r: tensor<16x1xf16>) -> tensor<16x16xf16> {
  %y = mk.graph_kernel (%x, %r) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<16x64xf16>, %R: tensor<16x1xf16>):
    %acc = mb.for_loop -> (tensor<8x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<16x64xf16> -> tensor<8x16xf16>
      %rt = mb.input_iter %R imap = [0, -1, -1] fmap = -1 : tensor<16x1xf16> -> tensor<8x1xf16>
      %u = mt.thread_graph (%xt, %rt) : (tensor<8x16xf16>, tensor<8x1xf16>) -> tensor<8x16xf16> {
      ^bb0(%a: f16, %b: f16):
        %0 = mt.reciprocal %a : f16
        %1 = mt.tanh %0 : f16
        %2 = mt.gelu_erf %1 : f16
        %3 = mt.max %2, %b : f16
        mt.yield %3 : f16
      }
      %s = mb.accum_sum %u : tensor<8x16xf16> -> tensor<8x16xf16>
      mb.yield %s : tensor<8x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<8x16xf16> -> tensor<16x16xf16>
    mb.return %o : tensor<16x16xf16>
  } : (tensor<16x64xf16>, tensor<16x1xf16>) -> tensor<16x16xf16>
  return %y : tensor<16x16xf16>
}
