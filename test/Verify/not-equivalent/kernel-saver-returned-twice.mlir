// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

// A saver returned at two positions fills both outputs: the candidate returns
// (x, x), the reference (x - x, x), so output #0 differs.
func.func @ref(%x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %z = mk.sub %x, %x : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
  return %z, %x : tensor<4x4xf32>, tensor<4x4xf32>
}
// expected-error @below {{not equivalent to @ref: output #0 element [0, 0]}}
func.func @cand(%x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) attributes {mk.reference = @ref} {
  %r:2 = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<4x4xf32>):
    %acc = mb.for_loop -> (tensor<4x4xf32>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = -1 : tensor<4x4xf32> -> tensor<4x4xf32>
      %a = mb.accum_sum %xt : tensor<4x4xf32> -> tensor<4x4xf32>
      mb.yield %a : tensor<4x4xf32>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<4x4xf32> -> tensor<4x4xf32>
    mb.return %o, %o : tensor<4x4xf32>, tensor<4x4xf32>
  } : (tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>)
  return %r#0, %r#1 : tensor<4x4xf32>, tensor<4x4xf32>
}
