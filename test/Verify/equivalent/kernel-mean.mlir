// --mirage-check-equivalence reports each candidate below equivalent to its
// reference.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

// Scaling commutes with the sum: mean computed before or after reducing.
func.func @mean_ref(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %s = mk.reduce_sum %x dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  %m = mk.mul_scalar %s, 0.125 : tensor<4x1xf32>
  return %m : tensor<4x1xf32>
}
// expected-remark @below {{equivalent to @mean_ref}}
func.func @mean(%x: tensor<4x8xf32>) -> tensor<4x1xf32> attributes {mk.reference = @mean_ref} {
  %m = mk.mul_scalar %x, 0.125 : tensor<4x8xf32>
  %s = mk.reduce_sum %m dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  return %s : tensor<4x1xf32>
}
