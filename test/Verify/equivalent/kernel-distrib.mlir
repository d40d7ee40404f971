// --mirage-check-equivalence reports each candidate below equivalent to its
// reference.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

// Matmul distributes over addition.
func.func @distrib_ref(%x: tensor<4x8xf32>, %w1: tensor<8x4xf32>, %w2: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %a = mk.matmul %x, %w1 : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
  %b = mk.matmul %x, %w2 : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
  %s = mk.add %a, %b : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
  return %s : tensor<4x4xf32>
}
// expected-remark @below {{equivalent to @distrib_ref}}
func.func @distrib(%x: tensor<4x8xf32>, %w1: tensor<8x4xf32>, %w2: tensor<8x4xf32>) -> tensor<4x4xf32> attributes {mk.reference = @distrib_ref} {
  %w = mk.add %w1, %w2 : tensor<8x4xf32>, tensor<8x4xf32> -> tensor<8x4xf32>
  %s = mk.matmul %x, %w : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
  return %s : tensor<4x4xf32>
}
