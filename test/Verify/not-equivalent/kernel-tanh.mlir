// Near misses: --mirage-check-equivalence rejects each candidate below with a
// counterexample.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

func.func @tanh_ref(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %t = mk.tanh %x : tensor<4x8xf32>
  return %t : tensor<4x8xf32>
}
// 2 sigmoid(x) - 1 = tanh(x / 2), not tanh(x).
// expected-error @below {{not equivalent to @tanh_ref: output #0 element [}}
func.func @tanh_half(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @tanh_ref} {
  %s = mk.sigmoid %x : tensor<4x8xf32>
  %b = mk.mul_scalar %s, 2.0 : tensor<4x8xf32>
  %t = mk.add_scalar %b, -1.0 : tensor<4x8xf32>
  return %t : tensor<4x8xf32>
}
// sigmoid(2x) alone: off by the affine map.
// expected-error @below {{not equivalent to @tanh_ref: output #0 element [}}
func.func @tanh_sigmoid_only(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @tanh_ref} {
  %a = mk.mul_scalar %x, 2.0 : tensor<4x8xf32>
  %s = mk.sigmoid %a : tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}
