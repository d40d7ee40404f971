// --mirage-check-equivalence reports each candidate below equivalent to its
// reference.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

// Matmul is associative.
func.func @assoc_ref(%a: tensor<4x6xf32>, %b: tensor<6x5xf32>, %c: tensor<5x3xf32>) -> tensor<4x3xf32> {
  %ab = mk.matmul %a, %b : tensor<4x6xf32>, tensor<6x5xf32> -> tensor<4x5xf32>
  %r = mk.matmul %ab, %c : tensor<4x5xf32>, tensor<5x3xf32> -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}
// expected-remark @below {{equivalent to @assoc_ref}}
func.func @assoc(%a: tensor<4x6xf32>, %b: tensor<6x5xf32>, %c: tensor<5x3xf32>) -> tensor<4x3xf32> attributes {mk.reference = @assoc_ref} {
  %bc = mk.matmul %b, %c : tensor<6x5xf32>, tensor<5x3xf32> -> tensor<6x3xf32>
  %r = mk.matmul %a, %bc : tensor<4x6xf32>, tensor<6x3xf32> -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}
