// --mirage-check-equivalence reports each candidate below equivalent to its
// reference.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

// -(a - b) = b - a.
func.func @negsub_ref(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %d = mk.sub %a, %b : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %n = mk.neg %d : tensor<4x8xf32>
  return %n : tensor<4x8xf32>
}
// expected-remark @below {{equivalent to @negsub_ref}}
func.func @negsub(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @negsub_ref} {
  %d = mk.sub %b, %a : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %d : tensor<4x8xf32>
}
