// Near misses: --mirage-check-equivalence rejects each candidate below with a
// counterexample.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

func.func @mm2d_ref(%x: tensor<4x4xf32>, %w: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %y = mk.matmul %x, %w : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}

// Wrong omap: the blocks' tiles land at transposed block positions.
// expected-error @below {{not equivalent to @mm2d_ref: output #0 element [}}
func.func @mm2d_wrong_omap(%x: tensor<4x4xf32>, %w: tensor<4x4xf32>) -> tensor<4x4xf32> attributes {mk.reference = @mm2d_ref} {
  %y = mk.graph_kernel (%x, %w) grid = [2, 2, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x4xf32>, %W: tensor<4x4xf32>):
    %acc = mb.for_loop -> (tensor<2x2xf32>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<4x4xf32> -> tensor<2x2xf32>
      %wt = mb.input_iter %W imap = [-1, 1, -1] fmap = 0 : tensor<4x4xf32> -> tensor<2x2xf32>
      %m = mb.matmul %xt, %wt : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<2x2xf32>
      %s = mb.accum_sum %m : tensor<2x2xf32> -> tensor<2x2xf32>
      mb.yield %s : tensor<2x2xf32>
    }
    %o = mb.output_saver %acc omap = [1, 0, -1] : tensor<2x2xf32> -> tensor<4x4xf32>
    mb.return %o : tensor<4x4xf32>
  } : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}
