// --mirage-check-equivalence reports each candidate below equivalent to its
// reference.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

// LoRA with a scaled low-rank term, y = X W + 0.5 (X A) B: the scale may sit
// on any factor of the low-rank product.
func.func @slora_ref(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>, %a: tensor<8x2xf32>, %b: tensor<2x6xf32>) -> tensor<4x6xf32> {
  %xw = mk.matmul %x, %w : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
  %xa = mk.matmul %x, %a : tensor<4x8xf32>, tensor<8x2xf32> -> tensor<4x2xf32>
  %xab = mk.matmul %xa, %b : tensor<4x2xf32>, tensor<2x6xf32> -> tensor<4x6xf32>
  %s = mk.mul_scalar %xab, 0.5 : tensor<4x6xf32>
  %y = mk.add %xw, %s : tensor<4x6xf32>, tensor<4x6xf32> -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}
// The scale folded into A.
// expected-remark @below {{equivalent to @slora_ref}}
func.func @slora_a(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>, %a: tensor<8x2xf32>, %b: tensor<2x6xf32>) -> tensor<4x6xf32> attributes {mk.reference = @slora_ref} {
  %sa = mk.mul_scalar %a, 0.5 : tensor<8x2xf32>
  %xw = mk.matmul %x, %w : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
  %xa = mk.matmul %x, %sa : tensor<4x8xf32>, tensor<8x2xf32> -> tensor<4x2xf32>
  %xab = mk.matmul %xa, %b : tensor<4x2xf32>, tensor<2x6xf32> -> tensor<4x6xf32>
  %y = mk.add %xw, %xab : tensor<4x6xf32>, tensor<4x6xf32> -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}
// The low-rank update merged into the weight: X (W + 0.5 A B).
// expected-remark @below {{equivalent to @slora_ref}}
func.func @slora_merged(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>, %a: tensor<8x2xf32>, %b: tensor<2x6xf32>) -> tensor<4x6xf32> attributes {mk.reference = @slora_ref} {
  %ab = mk.matmul %a, %b : tensor<8x2xf32>, tensor<2x6xf32> -> tensor<8x6xf32>
  %s = mk.mul_scalar %ab, 0.5 : tensor<8x6xf32>
  %w2 = mk.add %w, %s : tensor<8x6xf32>, tensor<8x6xf32> -> tensor<8x6xf32>
  %y = mk.matmul %x, %w2 : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}
