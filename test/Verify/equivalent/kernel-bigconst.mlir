// --mirage-check-equivalence reports each candidate below equivalent to its
// reference.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

// A constant without a small rational form (1/sqrt(8) as a double) gets one
// image per test, the same in both programs: scaling before or after the
// matmul agrees.
func.func @scale_ref(%q: tensor<4x8xf32>, %k: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %s = mk.matmul %q, %k : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
  %c = mk.mul_scalar %s, 0.35355339059327373 : tensor<4x4xf32>
  return %c : tensor<4x4xf32>
}
// expected-remark @below {{equivalent to @scale_ref}}
func.func @scale(%q: tensor<4x8xf32>, %k: tensor<8x4xf32>) -> tensor<4x4xf32> attributes {mk.reference = @scale_ref} {
  %c = mk.mul_scalar %q, 0.35355339059327373 : tensor<4x8xf32>
  %s = mk.matmul %c, %k : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
  return %s : tensor<4x4xf32>
}

// Scaled softmax: the scale applied to the logits or to the query.
func.func @ssm_ref(%q: tensor<4x8xf32>, %k: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %s = mk.matmul %q, %k : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
  %c = mk.mul_scalar %s, 0.35355339059327373 : tensor<4x4xf32>
  %e = mk.exp %c : tensor<4x4xf32>
  %d = mk.reduce_sum %e dim = 1 : tensor<4x4xf32> -> tensor<4x1xf32>
  %p = mk.div %e, %d : tensor<4x4xf32>, tensor<4x1xf32> -> tensor<4x4xf32>
  return %p : tensor<4x4xf32>
}
// expected-remark @below {{equivalent to @ssm_ref}}
func.func @ssm(%q: tensor<4x8xf32>, %k: tensor<8x4xf32>) -> tensor<4x4xf32> attributes {mk.reference = @ssm_ref} {
  %c = mk.mul_scalar %q, 0.35355339059327373 : tensor<4x8xf32>
  %s = mk.matmul %c, %k : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
  %e = mk.exp %s : tensor<4x4xf32>
  %d = mk.reduce_sum %e dim = 1 : tensor<4x4xf32> -> tensor<4x1xf32>
  %p = mk.div %e, %d : tensor<4x4xf32>, tensor<4x1xf32> -> tensor<4x4xf32>
  return %p : tensor<4x4xf32>
}
