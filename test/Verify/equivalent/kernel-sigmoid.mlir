// --mirage-check-equivalence reports each candidate below equivalent to its
// reference.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

// sigmoid(x) = 1 - sigmoid(-x).
func.func @sigmoid_ref(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = mk.sigmoid %x : tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}
// expected-remark @below {{equivalent to @sigmoid_ref}}
func.func @sigmoid(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @sigmoid_ref} {
  %n = mk.neg %x : tensor<4x8xf32>
  %g = mk.sigmoid %n : tensor<4x8xf32>
  %m = mk.neg %g : tensor<4x8xf32>
  %s = mk.add_scalar %m, 1.0 : tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}
