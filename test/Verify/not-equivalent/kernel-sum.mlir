// Near misses: --mirage-check-equivalence rejects each candidate below with a
// counterexample.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

func.func @sum_ref(%x: tensor<4x4xf32>) -> tensor<4x1xf32> {
  %s = mk.reduce_sum %x dim = 1 : tensor<4x4xf32> -> tensor<4x1xf32>
  return %s : tensor<4x1xf32>
}
// Sum over the wrong dim (square input, transposed result).
// expected-error @below {{not equivalent to @sum_ref: output #0 element [}}
func.func @sum_wrong_dim(%x: tensor<4x4xf32>) -> tensor<4x1xf32> attributes {mk.reference = @sum_ref} {
  %s = mk.reduce_sum %x dim = 0 : tensor<4x4xf32> -> tensor<1x4xf32>
  %t = mk.transpose %s perm = [1, 0] : tensor<1x4xf32> -> tensor<4x1xf32>
  return %t : tensor<4x1xf32>
}
