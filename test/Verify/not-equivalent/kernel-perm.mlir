// Near misses: --mirage-check-equivalence rejects each candidate below with a
// counterexample.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

func.func @perm_ref(%x: tensor<3x3x3xf32>) -> tensor<3x3x3xf32> {
  %t = mk.transpose %x perm = [1, 0, 2] : tensor<3x3x3xf32> -> tensor<3x3x3xf32>
  return %t : tensor<3x3x3xf32>
}
// A wrong permutation with the same result type.
// expected-error @below {{not equivalent to @perm_ref: output #0 element [}}
func.func @perm_wrong(%x: tensor<3x3x3xf32>) -> tensor<3x3x3xf32> attributes {mk.reference = @perm_ref} {
  %t = mk.transpose %x perm = [2, 1, 0] : tensor<3x3x3xf32> -> tensor<3x3x3xf32>
  return %t : tensor<3x3x3xf32>
}
