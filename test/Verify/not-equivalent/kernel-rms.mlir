// Near misses: --mirage-check-equivalence rejects each candidate below with a
// counterexample.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

func.func @rms_ref(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %n = mk.rms_norm %x eps = 1.0e-6 : tensor<4x8xf32>
  return %n : tensor<4x8xf32>
}
// Missing rms epsilon.
// expected-error @below {{not equivalent to @rms_ref: output #0 element [}}
func.func @rms_no_eps(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @rms_ref} {
  %sq = mk.square %x : tensor<4x8xf32>
  %s = mk.reduce_sum %sq dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  %m = mk.mul_scalar %s, 0.125 : tensor<4x1xf32>
  %r = mk.sqrt %m : tensor<4x1xf32>
  %y = mk.div %x, %r : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
// Off by one: the mean divides by n - 1.
// expected-error @below {{not equivalent to @rms_ref: output #0 element [}}
func.func @rms_off_by_one(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @rms_ref} {
  %sq = mk.square %x : tensor<4x8xf32>
  %s = mk.reduce_sum %sq dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  %m = mk.mul_scalar %s, 0.14285714285714285 : tensor<4x1xf32>
  %e = mk.add_scalar %m, 1.0e-6 : tensor<4x1xf32>
  %r = mk.sqrt %e : tensor<4x1xf32>
  %y = mk.div %x, %r : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
// A different epsilon.
// expected-error @below {{not equivalent to @rms_ref: output #0 element [}}
func.func @rms_wrong_eps(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @rms_ref} {
  %n = mk.rms_norm %x eps = 1.0e-5 : tensor<4x8xf32>
  return %n : tensor<4x8xf32>
}
