// Near misses at the domain's subtleties: --mirage-check-equivalence rejects
// each candidate below with a counterexample (field or f64).
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

// Softmax with its max taken over the wrong dim: the shift is not one value
// per row, so the rows' normalisation changes.
func.func @softmax_ref(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %m = mk.reduce_max %x dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  %d = mk.sub %x, %m : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  %e = mk.exp %d : tensor<4x8xf32>
  %s = mk.reduce_sum %e dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  %p = mk.div %e, %s : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  return %p : tensor<4x8xf32>
}
// expected-error @below {{not equivalent to @softmax_ref: output #0 element [}}
func.func @softmax_wrong_dim_max(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @softmax_ref} {
  %m = mk.reduce_max %x dim = 0 : tensor<4x8xf32> -> tensor<1x8xf32>
  %d = mk.sub %x, %m : tensor<4x8xf32>, tensor<1x8xf32> -> tensor<4x8xf32>
  %e = mk.exp %d : tensor<4x8xf32>
  %s = mk.reduce_sum %e dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  %p = mk.div %e, %s : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  return %p : tensor<4x8xf32>
}
// The denominator summed over the wrong dim.
// expected-error @below {{not equivalent to @softmax_ref: output #0 element [}}
func.func @softmax_wrong_dim_sum(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @softmax_ref} {
  %m = mk.reduce_max %x dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  %d = mk.sub %x, %m : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  %e = mk.exp %d : tensor<4x8xf32>
  %s = mk.reduce_sum %e dim = 0 : tensor<4x8xf32> -> tensor<1x8xf32>
  %p = mk.div %e, %s : tensor<4x8xf32>, tensor<1x8xf32> -> tensor<4x8xf32>
  return %p : tensor<4x8xf32>
}

// gelu and silu are different activations.
func.func @gelu_ref(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %g = mk.gelu %x : tensor<4x8xf32>
  return %g : tensor<4x8xf32>
}
// expected-error @below {{not equivalent to @gelu_ref: output #0 element [}}
func.func @gelu_as_silu(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @gelu_ref} {
  %g = mk.silu %x : tensor<4x8xf32>
  return %g : tensor<4x8xf32>
}

// exp(a - b) is exp(a) / exp(b), not exp(a) * exp(b).
func.func @expdiff_ref(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %d = mk.sub %a, %b : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %e = mk.exp %d : tensor<4x8xf32>
  return %e : tensor<4x8xf32>
}
// expected-error @below {{not equivalent to @expdiff_ref: output #0 element [}}
func.func @expdiff_mul(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @expdiff_ref} {
  %x = mk.exp %a : tensor<4x8xf32>
  %y = mk.exp %b : tensor<4x8xf32>
  %e = mk.mul %x, %y : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %e : tensor<4x8xf32>
}

// relu is clamp to [0, inf), not to [0, 1].
func.func @relu_ref(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = mk.relu %x : tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
// expected-error @below {{not equivalent to @relu_ref: }}
func.func @relu_clamp_one(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @relu_ref} {
  %r = mk.clamp %x min = 0.0 max = 1.0 : tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// sqrt(x^2) is |x| over the reals, not x: the f64 run sees the sign.
func.func @sqsqrt_ref(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = mk.square %x : tensor<4x8xf32>
  %r = mk.sqrt %s : tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
// expected-error @below {{not equivalent to @sqsqrt_ref: }}
func.func @sqsqrt_identity(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @sqsqrt_ref} {
  %r = mk.mul_scalar %x, 1.0 : tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// LoRA with the low-rank term scaled twice.
func.func @lora_ref(%x: tensor<4x16xf32>, %w: tensor<16x8xf32>, %a: tensor<16x2xf32>, %b: tensor<2x8xf32>) -> tensor<4x8xf32> {
  %y = mk.matmul %x, %w : tensor<4x16xf32>, tensor<16x8xf32> -> tensor<4x8xf32>
  %xa = mk.matmul %x, %a : tensor<4x16xf32>, tensor<16x2xf32> -> tensor<4x2xf32>
  %l = mk.matmul %xa, %b : tensor<4x2xf32>, tensor<2x8xf32> -> tensor<4x8xf32>
  %s = mk.mul_scalar %l, 0.5 : tensor<4x8xf32>
  %o = mk.add %y, %s : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}
// expected-error @below {{not equivalent to @lora_ref: output #0 element [}}
func.func @lora_scaled_twice(%x: tensor<4x16xf32>, %w: tensor<16x8xf32>, %a: tensor<16x2xf32>, %b: tensor<2x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @lora_ref} {
  %y = mk.matmul %x, %w : tensor<4x16xf32>, tensor<16x8xf32> -> tensor<4x8xf32>
  %xa = mk.matmul %x, %a : tensor<4x16xf32>, tensor<16x2xf32> -> tensor<4x2xf32>
  %sa = mk.mul_scalar %xa, 0.5 : tensor<4x2xf32>
  %l = mk.matmul %sa, %b : tensor<4x2xf32>, tensor<2x8xf32> -> tensor<4x8xf32>
  %s = mk.mul_scalar %l, 0.5 : tensor<4x8xf32>
  %o = mk.add %y, %s : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}
