// --mirage-check-equivalence reports each candidate below equivalent to its
// reference.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

// The RMSNorm+MatMul rewrite: the 1/rms scale moves after the matmul.
func.func @rms_mm_ref(%x: tensor<2x8xf32>, %w: tensor<8x6xf32>) -> tensor<2x6xf32> {
  %n = mk.rms_norm %x eps = 1.0e-6 : tensor<2x8xf32>
  %y = mk.matmul %n, %w : tensor<2x8xf32>, tensor<8x6xf32> -> tensor<2x6xf32>
  return %y : tensor<2x6xf32>
}
// expected-remark @below {{equivalent to @rms_mm_ref}}
func.func @rms_mm(%x: tensor<2x8xf32>, %w: tensor<8x6xf32>) -> tensor<2x6xf32> attributes {mk.reference = @rms_mm_ref} {
  %m = mk.matmul %x, %w : tensor<2x8xf32>, tensor<8x6xf32> -> tensor<2x6xf32>
  %sq = mk.square %x : tensor<2x8xf32>
  %s = mk.reduce_sum %sq dim = 1 : tensor<2x8xf32> -> tensor<2x1xf32>
  %mean = mk.mul_scalar %s, 0.125 : tensor<2x1xf32>
  %e = mk.add_scalar %mean, 1.0e-6 : tensor<2x1xf32>
  %r = mk.rsqrt %e : tensor<2x1xf32>
  %y = mk.mul %m, %r : tensor<2x6xf32>, tensor<2x1xf32> -> tensor<2x6xf32>
  return %y : tensor<2x6xf32>
}
