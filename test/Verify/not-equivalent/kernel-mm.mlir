// Near misses: --mirage-check-equivalence rejects each candidate below with a
// counterexample.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

func.func @mm_ref(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %y = mk.matmul %x, %w : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
// A transposed square weight.
// expected-error @below {{not equivalent to @mm_ref: output #0 element [}}
func.func @mm_transposed(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @mm_ref} {
  %t = mk.transpose %w perm = [1, 0] : tensor<8x8xf32> -> tensor<8x8xf32>
  %y = mk.matmul %x, %t : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
