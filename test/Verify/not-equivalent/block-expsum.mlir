// Near misses: --mirage-check-equivalence rejects each candidate below with a
// counterexample.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

func.func @expsum_ref(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %e = mk.exp %x : tensor<4x8xf32>
  %s = mk.reduce_sum %e dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  return %s : tensor<4x1xf32>
}

// Online softmax denominator that forgets the final exp(M) correction.
// expected-error @below {{not equivalent to @expsum_ref: output #0 element [}}
func.func @expsum_no_rescale(%x: tensor<4x8xf32>) -> tensor<4x1xf32> attributes {mk.reference = @expsum_ref} {
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<4x8xf32>):
    %acc = mb.for_loop -> (tensor<4x1xf32>) {
      %t = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<4x8xf32> -> tensor<4x2xf32>
      %m = mb.reduce_max %t dim = 1 : tensor<4x2xf32> -> tensor<4x1xf32>
      %d = mb.sub %t, %m : tensor<4x2xf32>, tensor<4x1xf32> -> tensor<4x2xf32>
      %e = mb.exp %d : tensor<4x2xf32>
      %s = mb.reduce_sum %e dim = 1 : tensor<4x2xf32> -> tensor<4x1xf32>
      %r = mb.accum_rescaled_sum %s, %m : tensor<4x1xf32>, tensor<4x1xf32> -> tensor<4x1xf32>
      mb.yield %r : tensor<4x1xf32>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<4x1xf32> -> tensor<4x1xf32>
    mb.return %o : tensor<4x1xf32>
  } : (tensor<4x8xf32>) -> tensor<4x1xf32>
  return %y : tensor<4x1xf32>
}
