// --mirage-check-equivalence reports each candidate below equivalent to its
// reference.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

func.func @rowmax_ref(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %m = mk.reduce_max %x dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  return %m : tensor<4x1xf32>
}

// A maximum taken tile by tile (reduce_max in the body, max accumulator).
// expected-remark @below {{compared by structure only}}
func.func @rowmax(%x: tensor<4x8xf32>) -> tensor<4x1xf32> attributes {mk.reference = @rowmax_ref} {
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<4x8xf32>):
    %acc = mb.for_loop -> (tensor<4x1xf32>) {
      %t = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<4x8xf32> -> tensor<4x2xf32>
      %m = mb.reduce_max %t dim = 1 : tensor<4x2xf32> -> tensor<4x1xf32>
      %s = mb.accum_max %m : tensor<4x1xf32> -> tensor<4x1xf32>
      mb.yield %s : tensor<4x1xf32>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<4x1xf32> -> tensor<4x1xf32>
    mb.return %o : tensor<4x1xf32>
  } : (tensor<4x8xf32>) -> tensor<4x1xf32>
  return %y : tensor<4x1xf32>
}
