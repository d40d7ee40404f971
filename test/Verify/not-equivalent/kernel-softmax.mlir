// Near misses: --mirage-check-equivalence rejects each candidate below with a
// counterexample.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

func.func @softmax_ref(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %e = mk.exp %x : tensor<4x4xf32>
  %s = mk.reduce_sum %e dim = 1 : tensor<4x4xf32> -> tensor<4x1xf32>
  %p = mk.div %e, %s : tensor<4x4xf32>, tensor<4x1xf32> -> tensor<4x4xf32>
  return %p : tensor<4x4xf32>
}
// Softmax normalised over the wrong dim.
// expected-error @below {{not equivalent to @softmax_ref: output #0 element [}}
func.func @softmax_wrong_dim(%x: tensor<4x4xf32>) -> tensor<4x4xf32> attributes {mk.reference = @softmax_ref} {
  %e = mk.exp %x : tensor<4x4xf32>
  %s = mk.reduce_sum %e dim = 0 : tensor<4x4xf32> -> tensor<1x4xf32>
  %p = mk.div %e, %s : tensor<4x4xf32>, tensor<1x4xf32> -> tensor<4x4xf32>
  return %p : tensor<4x4xf32>
}
