// REQUIRES: ptxas
// RUN: %mirage_src_root/scripts/ptx-check mirage-opt %s sm_80 %t/sm80 %ptxas | FileCheck %s
// RUN: %mirage_src_root/scripts/ptx-check mirage-opt %s sm_90 %t/sm90 %ptxas | FileCheck %s
// RUN: cat %t/sm80/*.ptx | FileCheck %s --check-prefix=PTX

// Kernels with reciprocal, tanh (libdevice's __nv_tanhf, linked in), the
// exact GELU (erf through exp) and max assemble with ptxas for both chips.

// CHECK-DAG: block_ops_kernel: registers {{[0-9]+}}, spill stores 0, spill loads 0
// CHECK-DAG: thread_ops_kernel: registers {{[0-9]+}}, spill stores 0, spill loads 0
// PTX-NOT: __nv_
// PTX: rcp.rn.f32
// PTX: max.NaN.f32
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
