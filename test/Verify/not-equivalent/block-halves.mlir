// Near misses: --mirage-check-equivalence rejects each candidate below with a
// counterexample.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

// Wrong accumulator kind: the running max instead of the sum of two halves.
func.func @halves_ref(%x: tensor<4x8xf32>) -> tensor<4x4xf32> {
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x8xf32>):
    %acc = mb.for_loop -> (tensor<4x4xf32>) {
      %t = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<4x8xf32> -> tensor<4x4xf32>
      %s = mb.accum_sum %t : tensor<4x4xf32> -> tensor<4x4xf32>
      mb.yield %s : tensor<4x4xf32>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<4x4xf32> -> tensor<4x4xf32>
    mb.return %o : tensor<4x4xf32>
  } : (tensor<4x8xf32>) -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}
// expected-error @below {{not equivalent to @halves_ref: output #0 element [}}
func.func @halves_max(%x: tensor<4x8xf32>) -> tensor<4x4xf32> attributes {mk.reference = @halves_ref} {
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x8xf32>):
    %acc = mb.for_loop -> (tensor<4x4xf32>) {
      %t = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<4x8xf32> -> tensor<4x4xf32>
      %s = mb.accum_max %t : tensor<4x4xf32> -> tensor<4x4xf32>
      mb.yield %s : tensor<4x4xf32>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<4x4xf32> -> tensor<4x4xf32>
    mb.return %o : tensor<4x4xf32>
  } : (tensor<4x8xf32>) -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}
// Wrong sum_to width (partial sums of 2 then a different fold).
// expected-error @below {{not equivalent to @halves_ref: output #0 element [}}
func.func @halves_sum_to(%x: tensor<4x8xf32>) -> tensor<4x4xf32> attributes {mk.reference = @halves_ref} {
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<4x8xf32>):
    %acc = mb.for_loop -> (tensor<4x4xf32>) {
      %t = mb.input_iter %X imap = [-1, -1, -1] fmap = -1 : tensor<4x8xf32> -> tensor<4x8xf32>
      %s = mb.accum_sum_to %t dimx = 4 : tensor<4x8xf32> -> tensor<4x4xf32>
      mb.yield %s : tensor<4x4xf32>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<4x4xf32> -> tensor<4x4xf32>
    mb.return %o : tensor<4x4xf32>
  } : (tensor<4x8xf32>) -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}
