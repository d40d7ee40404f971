// --mirage-check-equivalence reports each candidate below equivalent to its
// reference.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

// Two transposes that compose to the identity.
func.func @perm_ref(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %n = mk.neg %x : tensor<2x3x4xf32>
  return %n : tensor<2x3x4xf32>
}
// expected-remark @below {{equivalent to @perm_ref}}
func.func @perm(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> attributes {mk.reference = @perm_ref} {
  %t = mk.transpose %x perm = [2, 0, 1] : tensor<2x3x4xf32> -> tensor<4x2x3xf32>
  %n = mk.neg %t : tensor<4x2x3xf32>
  %u = mk.transpose %n perm = [1, 2, 0] : tensor<4x2x3xf32> -> tensor<2x3x4xf32>
  return %u : tensor<2x3x4xf32>
}
