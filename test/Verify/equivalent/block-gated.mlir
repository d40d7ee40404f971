// --mirage-check-equivalence reports each candidate below equivalent to its
// reference.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

func.func @gated_ref(%x: tensor<2x8xf32>, %w1: tensor<8x4xf32>, %w2: tensor<8x4xf32>) -> tensor<2x4xf32> {
  %a = mk.matmul %x, %w1 : tensor<2x8xf32>, tensor<8x4xf32> -> tensor<2x4xf32>
  %b = mk.matmul %x, %w2 : tensor<2x8xf32>, tensor<8x4xf32> -> tensor<2x4xf32>
  %s = mk.silu %a : tensor<2x4xf32>
  %y = mk.mul %s, %b : tensor<2x4xf32>, tensor<2x4xf32> -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}

// Gated MLP: both matmuls accumulated, silu * mul in a post-loop thread graph.
// expected-remark @below {{equivalent to @gated_ref}}
func.func @gated(%x: tensor<2x8xf32>, %w1: tensor<8x4xf32>, %w2: tensor<8x4xf32>) -> tensor<2x4xf32> attributes {mk.reference = @gated_ref} {
  %y = mk.graph_kernel (%x, %w1, %w2) grid = [2, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<2x8xf32>, %W1: tensor<8x4xf32>, %W2: tensor<8x4xf32>):
    %acc:2 = mb.for_loop -> (tensor<2x2xf32>, tensor<2x2xf32>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x8xf32> -> tensor<2x4xf32>
      %at = mb.input_iter %W1 imap = [1, -1, -1] fmap = 0 : tensor<8x4xf32> -> tensor<4x2xf32>
      %bt = mb.input_iter %W2 imap = [1, -1, -1] fmap = 0 : tensor<8x4xf32> -> tensor<4x2xf32>
      %ma = mb.matmul %xt, %at : tensor<2x4xf32>, tensor<4x2xf32> -> tensor<2x2xf32>
      %mb = mb.matmul %xt, %bt : tensor<2x4xf32>, tensor<4x2xf32> -> tensor<2x2xf32>
      %sa = mb.accum_sum %ma : tensor<2x2xf32> -> tensor<2x2xf32>
      %sb = mb.accum_sum %mb : tensor<2x2xf32> -> tensor<2x2xf32>
      mb.yield %sa, %sb : tensor<2x2xf32>, tensor<2x2xf32>
    }
    %g = mt.thread_graph (%acc#0, %acc#1) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32> {
    ^bb0(%a: f32, %b: f32):
      %s = mt.silu %a : f32
      %p = mt.mul %s, %b : f32
      mt.yield %p : f32
    }
    %o = mb.output_saver %g omap = [1, -1, -1] : tensor<2x2xf32> -> tensor<2x4xf32>
    mb.return %o : tensor<2x4xf32>
  } : (tensor<2x8xf32>, tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}
