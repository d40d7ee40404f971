// With repeat = 20 the check runs under 20 consecutive seeds; the verdicts
// agree and the bound counts all 80 tests.
// RUN: mirage-opt --mirage-check-equivalence="repeat=20 seed=7" %s -verify-diagnostics -o /dev/null

func.func @ref(%x: tensor<4x8xf32>, %w: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %m = mk.matmul %x, %w : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
  return %m : tensor<4x4xf32>
}
// expected-remark @below {{equivalent to @ref (80 tests, P(false equivalent) <= }}
func.func @same(%x: tensor<4x8xf32>, %w: tensor<8x4xf32>) -> tensor<4x4xf32> attributes {mk.reference = @ref} {
  %t = mk.transpose %w perm = [1, 0] : tensor<8x4xf32> -> tensor<4x8xf32>
  %u = mk.transpose %t perm = [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  %m = mk.matmul %x, %u : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
  return %m : tensor<4x4xf32>
}
// expected-error @below {{not equivalent to @ref: output #0 element [}}
func.func @scaled(%x: tensor<4x8xf32>, %w: tensor<8x4xf32>) -> tensor<4x4xf32> attributes {mk.reference = @ref} {
  %m = mk.matmul %x, %w : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
  %s = mk.mul_scalar %m, 1.0001 : tensor<4x4xf32>
  return %s : tensor<4x4xf32>
}
