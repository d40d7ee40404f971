// The kernels of the per-architecture tests (chip-sm_*.mlir): a fused
// GatedMLP kernel whose two 16x64x64 f16 matmul tiles run on the tensor cores
// (ldmatrix + mma.sync m16n8k16) with pipelined cp.async input tiles
// and SiLU through libdevice's __nv_expf, and an element-wise kernel with
// tanh (libdevice), the exact GELU and max.

func.func @gated_mlp(%x: tensor<16x1024xf16>, %w1: tensor<1024x1024xf16>, %w2: tensor<1024x1024xf16>) -> tensor<16x1024xf16> {
  %y = mk.graph_kernel (%x, %w1, %w2) grid = [16, 1, 1] block = [64, 1, 1] forloop = 16 {
  ^bb0(%X: tensor<16x1024xf16>, %W1: tensor<1024x1024xf16>, %W2: tensor<1024x1024xf16>):
    %acc:2 = mb.for_loop -> (tensor<16x64xf16>, tensor<16x64xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<16x1024xf16> -> tensor<16x64xf16>
      %at = mb.input_iter %W1 imap = [1, -1, -1] fmap = 0 : tensor<1024x1024xf16> -> tensor<64x64xf16>
      %bt = mb.input_iter %W2 imap = [1, -1, -1] fmap = 0 : tensor<1024x1024xf16> -> tensor<64x64xf16>
      %m1 = mb.matmul %xt, %at : tensor<16x64xf16>, tensor<64x64xf16> -> tensor<16x64xf16>
      %m2 = mb.matmul %xt, %bt : tensor<16x64xf16>, tensor<64x64xf16> -> tensor<16x64xf16>
      %s1 = mb.accum_sum %m1 : tensor<16x64xf16> -> tensor<16x64xf16>
      %s2 = mb.accum_sum %m2 : tensor<16x64xf16> -> tensor<16x64xf16>
      mb.yield %s1, %s2 : tensor<16x64xf16>, tensor<16x64xf16>
    }
    %g = mt.thread_graph (%acc#0, %acc#1) : (tensor<16x64xf16>, tensor<16x64xf16>) -> tensor<16x64xf16> {
    ^bb0(%a: f16, %b: f16):
      %s = mt.silu %a : f16
      %p = mt.mul %s, %b : f16
      mt.yield %p : f16
    }
    %o = mb.output_saver %g omap = [1, -1, -1] : tensor<16x64xf16> -> tensor<16x1024xf16>
    mb.return %o : tensor<16x1024xf16>
  } : (tensor<16x1024xf16>, tensor<1024x1024xf16>, tensor<1024x1024xf16>) -> tensor<16x1024xf16>
  return %y : tensor<16x1024xf16>
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
