// REQUIRES: libomp
// RUN: mirage-run %s --func=kernel_ops | FileCheck %s --check-prefix=KERNEL
// RUN: mirage-run %s --func=kernel_ops_f16 | FileCheck %s --check-prefix=F16
// RUN: mirage-run %s --func=block_ops | FileCheck %s --check-prefix=BLOCK
// RUN: mirage-run %s --func=thread_ops | FileCheck %s --check-prefix=THREAD

// reciprocal, tanh, gelu_erf and max JIT-compiled through --mirage-to-cpu
// agree with the f64 interpreter: as pre-defined kernels (wrapped), as block
// ops and inside a thread graph.

// KERNEL: output 0 (f32, 32 elements)
// KERNEL: output 3 (f32, 32 elements)
// KERNEL: @kernel_ops on cpu
// KERNEL-NEXT: PASS
func.func @kernel_ops(%x: tensor<4x8xf32>, %y: tensor<4x1xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %r = mk.reciprocal %x : tensor<4x8xf32>
  %t = mk.tanh %x : tensor<4x8xf32>
  %g = mk.gelu_erf %x : tensor<4x8xf32>
  %m = mk.max %x, %y : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  return %r, %t, %g, %m : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// F16: output 0 (f16, 64 elements)
// F16: @kernel_ops_f16 on cpu
// F16-NEXT: PASS
func.func @kernel_ops_f16(%x: tensor<8x8xf16>, %y: tensor<1x8xf16>) -> tensor<8x8xf16> {
  %t = mk.tanh %x : tensor<8x8xf16>
  %g = mk.gelu_erf %t : tensor<8x8xf16>
  %m = mk.max %g, %y : tensor<8x8xf16>, tensor<1x8xf16> -> tensor<8x8xf16>
  %s = mk.add_scalar %m, 2.0 : tensor<8x8xf16>
  %r = mk.reciprocal %s : tensor<8x8xf16>
  return %r : tensor<8x8xf16>
}

// BLOCK: @block_ops on cpu
// BLOCK-NEXT: PASS
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

// THREAD: @thread_ops on cpu
// THREAD-NEXT: PASS
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
