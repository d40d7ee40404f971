// --mirage-check-equivalence reports each candidate below equivalent to its
// reference.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

// Scaling by 2 is adding a value to itself.
func.func @scale_ref(%x: tensor<4x8xf32>, %w: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %m = mk.matmul %x, %w : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
  %s = mk.mul_scalar %m, 2.0 : tensor<4x4xf32>
  return %s : tensor<4x4xf32>
}
// expected-remark @below {{equivalent to @scale_ref (4 tests, P(false equivalent) <= }}
func.func @scale(%x: tensor<4x8xf32>, %w: tensor<8x4xf32>) -> tensor<4x4xf32> attributes {mk.reference = @scale_ref} {
  %m = mk.matmul %x, %w : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
  %s = mk.add %m, %m : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
  return %s : tensor<4x4xf32>
}
