// MatMul with a gelu, a scale and a clamp in a post-loop thread graph:
// clamp(0.5 * gelu(X·W), -4, 4); X 4x8, W 8x8, grid [2, 1, 1], forloop 2.
// A seed of mirage-mutation-bench (constants and structure-only ops).
func.func @mlp_gelu_clamp_ref(%X: tensor<4x8xf32>, %W: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %a = mk.matmul %X, %W : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
  %g = mk.gelu %a : tensor<4x8xf32>
  %s = mk.mul_scalar %g, 5.0e-01 : tensor<4x8xf32>
  %c = mk.clamp %s min = -4.0 max = 4.0 : tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}

func.func @mlp_gelu_clamp(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @mlp_gelu_clamp_ref} {
  %y = mk.graph_kernel (%x, %w) grid = [2, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x8xf32>, %W: tensor<8x8xf32>):
    %acc = mb.for_loop -> (tensor<4x4xf32>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<4x8xf32> -> tensor<4x4xf32>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0 : tensor<8x8xf32> -> tensor<4x4xf32>
      %m = mb.matmul %xt, %wt : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
      %s = mb.accum_sum %m : tensor<4x4xf32> -> tensor<4x4xf32>
      mb.yield %s : tensor<4x4xf32>
    }
    %r = mt.thread_graph (%acc) : (tensor<4x4xf32>) -> tensor<4x4xf32> {
    ^bb0(%a: f32):
      %g = mt.gelu %a : f32
      %h = mt.mul_scalar %g, 5.0e-01 : f32
      %c = mt.clamp %h min = -4.0 max = 4.0 : f32
      mt.yield %c : f32
    }
    %o = mb.output_saver %r omap = [1, -1, -1] : tensor<4x4xf32> -> tensor<4x8xf32>
    mb.return %o : tensor<4x8xf32>
  } : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
