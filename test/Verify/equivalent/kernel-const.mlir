// --mirage-check-equivalence reports each candidate below equivalent to its
// reference.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

// Constants are exact: 0.25 = 0.5 * 0.5.
func.func @const_ref(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = mk.mul_scalar %x, 0.25 : tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}
// expected-remark @below {{equivalent to @const_ref}}
func.func @const(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @const_ref} {
  %a = mk.mul_scalar %x, 0.5 : tensor<4x8xf32>
  %b = mk.mul_scalar %a, 0.5 : tensor<4x8xf32>
  return %b : tensor<4x8xf32>
}
