// Gated MLP with a 2-D grid and the gate as post-loop tile ops (mb.silu,
// mb.mul) instead of a thread graph: X 4x8, W1, W2 8x8, grid [2, 2, 1],
// forloop 2. A seed of mirage-mutation-bench (a variant of the known-good
// gated_mlp tiling).
func.func @gated_mlp_2d_ref(%X: tensor<4x8xf16>, %W1: tensor<8x8xf16>, %W2: tensor<8x8xf16>) -> tensor<4x8xf16> {
  %a = mk.matmul %X, %W1 : tensor<4x8xf16>, tensor<8x8xf16> -> tensor<4x8xf16>
  %b = mk.matmul %X, %W2 : tensor<4x8xf16>, tensor<8x8xf16> -> tensor<4x8xf16>
  %s = mk.silu %a : tensor<4x8xf16>
  %o = mk.mul %s, %b : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  return %o : tensor<4x8xf16>
}

func.func @gated_mlp_2d(%x: tensor<4x8xf16>, %w1: tensor<8x8xf16>, %w2: tensor<8x8xf16>) -> tensor<4x8xf16> attributes {mk.reference = @gated_mlp_2d_ref} {
  %y = mk.graph_kernel (%x, %w1, %w2) grid = [2, 2, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x8xf16>, %W1: tensor<8x8xf16>, %W2: tensor<8x8xf16>):
    %acc:2 = mb.for_loop -> (tensor<2x4xf16>, tensor<2x4xf16>) {
      %xt = mb.input_iter %X imap = [-1, 0, -1] fmap = 1 : tensor<4x8xf16> -> tensor<2x4xf16>
      %w1t = mb.input_iter %W1 imap = [1, -1, -1] fmap = 0 : tensor<8x8xf16> -> tensor<4x4xf16>
      %w2t = mb.input_iter %W2 imap = [1, -1, -1] fmap = 0 : tensor<8x8xf16> -> tensor<4x4xf16>
      %m1 = mb.matmul %xt, %w1t : tensor<2x4xf16>, tensor<4x4xf16> -> tensor<2x4xf16>
      %m2 = mb.matmul %xt, %w2t : tensor<2x4xf16>, tensor<4x4xf16> -> tensor<2x4xf16>
      %s1 = mb.accum_sum %m1 : tensor<2x4xf16> -> tensor<2x4xf16>
      %s2 = mb.accum_sum %m2 : tensor<2x4xf16> -> tensor<2x4xf16>
      mb.yield %s1, %s2 : tensor<2x4xf16>, tensor<2x4xf16>
    }
    %sa = mb.silu %acc#0 : tensor<2x4xf16>
    %g = mb.mul %sa, %acc#1 : tensor<2x4xf16>, tensor<2x4xf16> -> tensor<2x4xf16>
    %o = mb.output_saver %g omap = [1, 0, -1] : tensor<2x4xf16> -> tensor<4x8xf16>
    mb.return %o : tensor<4x8xf16>
  } : (tensor<4x8xf16>, tensor<8x8xf16>, tensor<8x8xf16>) -> tensor<4x8xf16>
  return %y : tensor<4x8xf16>
}
