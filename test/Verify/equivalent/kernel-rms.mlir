// --mirage-check-equivalence reports each candidate below equivalent to its
// reference.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

// rms_norm is x / sqrt(mean(x^2) + eps).
func.func @rms_ref(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %n = mk.rms_norm %x eps = 1.0e-6 : tensor<4x8xf32>
  return %n : tensor<4x8xf32>
}
// expected-remark @below {{equivalent to @rms_ref}}
func.func @rms(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @rms_ref} {
  %sq = mk.square %x : tensor<4x8xf32>
  %s = mk.reduce_sum %sq dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  %m = mk.mul_scalar %s, 0.125 : tensor<4x1xf32>
  %e = mk.add_scalar %m, 1.0e-6 : tensor<4x1xf32>
  %r = mk.sqrt %e : tensor<4x1xf32>
  %y = mk.div %x, %r : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
