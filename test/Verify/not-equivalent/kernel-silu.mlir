// Near misses: --mirage-check-equivalence rejects each candidate below with a
// counterexample.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

func.func @silu_ref(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = mk.silu %x : tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}
// x * sigmoid(-x) instead of x * sigmoid(x).
// expected-error @below {{not equivalent to @silu_ref: output #0 element [}}
func.func @silu_wrong_sign(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @silu_ref} {
  %n = mk.neg %x : tensor<4x8xf32>
  %g = mk.sigmoid %n : tensor<4x8xf32>
  %s = mk.mul %x, %g : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}
// gelu instead of silu.
// expected-error @below {{not equivalent to @silu_ref: output #0 element [}}
func.func @silu_gelu(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @silu_ref} {
  %s = mk.gelu %x : tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}
