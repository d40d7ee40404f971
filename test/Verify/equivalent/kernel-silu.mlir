// --mirage-check-equivalence reports each candidate below equivalent to its
// reference.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

// silu(x) = x * sigmoid(x).
func.func @silu_ref(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = mk.silu %x : tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}
// expected-remark @below {{equivalent to @silu_ref}}
func.func @silu(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @silu_ref} {
  %g = mk.sigmoid %x : tensor<4x8xf32>
  %s = mk.mul %x, %g : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}
