// Small-shape copy of test/Programs/gated_mlp_fused.mlir: X 4x16, W1, W2
// 16x16, grid [4, 1, 1], forloop 4. A seed of mirage-mutation-bench.
func.func @gated_mlp_ref(%X: tensor<4x16xf16>, %W1: tensor<16x16xf16>, %W2: tensor<16x16xf16>) -> tensor<4x16xf16> {
  %a = mk.matmul %X, %W1 : tensor<4x16xf16>, tensor<16x16xf16> -> tensor<4x16xf16>
  %b = mk.matmul %X, %W2 : tensor<4x16xf16>, tensor<16x16xf16> -> tensor<4x16xf16>
  %s = mk.silu %a : tensor<4x16xf16>
  %o = mk.mul %s, %b : tensor<4x16xf16>, tensor<4x16xf16> -> tensor<4x16xf16>
  return %o : tensor<4x16xf16>
}

func.func @gated_mlp_fused(%x: tensor<4x16xf16>, %w1: tensor<16x16xf16>, %w2: tensor<16x16xf16>) -> tensor<4x16xf16> attributes {mk.reference = @gated_mlp_ref} {
  %y = mk.graph_kernel (%x, %w1, %w2) grid = [4, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<4x16xf16>, %W1: tensor<16x16xf16>, %W2: tensor<16x16xf16>):
    %acc:2 = mb.for_loop -> (tensor<4x4xf16>, tensor<4x4xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<4x16xf16> -> tensor<4x4xf16>
      %w1t = mb.input_iter %W1 imap = [1, -1, -1] fmap = 0 : tensor<16x16xf16> -> tensor<4x4xf16>
      %w2t = mb.input_iter %W2 imap = [1, -1, -1] fmap = 0 : tensor<16x16xf16> -> tensor<4x4xf16>
      %m1 = mb.matmul %xt, %w1t : tensor<4x4xf16>, tensor<4x4xf16> -> tensor<4x4xf16>
      %m2 = mb.matmul %xt, %w2t : tensor<4x4xf16>, tensor<4x4xf16> -> tensor<4x4xf16>
      %s1 = mb.accum_sum %m1 : tensor<4x4xf16> -> tensor<4x4xf16>
      %s2 = mb.accum_sum %m2 : tensor<4x4xf16> -> tensor<4x4xf16>
      mb.yield %s1, %s2 : tensor<4x4xf16>, tensor<4x4xf16>
    }
    %g = mt.thread_graph (%acc#0, %acc#1) : (tensor<4x4xf16>, tensor<4x4xf16>) -> tensor<4x4xf16> {
    ^bb0(%a: f16, %b: f16):
      %sa = mt.silu %a : f16
      %p = mt.mul %sa, %b : f16
      mt.yield %p : f16
    }
    %o = mb.output_saver %g omap = [1, -1, -1] : tensor<4x4xf16> -> tensor<4x16xf16>
    mb.return %o : tensor<4x16xf16>
  } : (tensor<4x16xf16>, tensor<16x16xf16>, tensor<16x16xf16>) -> tensor<4x16xf16>
  return %y : tensor<4x16xf16>
}
