// --mirage-check-equivalence reports each candidate below equivalent to its
// reference.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

// tanh(x) = 2 sigmoid(2x) - 1, both through the field exp.
func.func @tanh_ref(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %t = mk.tanh %x : tensor<4x8xf32>
  return %t : tensor<4x8xf32>
}
// expected-remark @below {{equivalent to @tanh_ref}}
func.func @tanh_sigmoid(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @tanh_ref} {
  %a = mk.mul_scalar %x, 2.0 : tensor<4x8xf32>
  %s = mk.sigmoid %a : tensor<4x8xf32>
  %b = mk.mul_scalar %s, 2.0 : tensor<4x8xf32>
  %t = mk.add_scalar %b, -1.0 : tensor<4x8xf32>
  return %t : tensor<4x8xf32>
}

// tanh is odd: tanh(x) = -tanh(-x).
// expected-remark @below {{equivalent to @tanh_ref}}
func.func @tanh_odd(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @tanh_ref} {
  %n = mk.neg %x : tensor<4x8xf32>
  %t = mk.tanh %n : tensor<4x8xf32>
  %m = mk.neg %t : tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}

// (e^2x - 1) / (e^2x + 1) spelled with exp and div.
// expected-remark @below {{equivalent to @tanh_ref}}
func.func @tanh_exp(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @tanh_ref} {
  %a = mk.mul_scalar %x, 2.0 : tensor<4x8xf32>
  %e = mk.exp %a : tensor<4x8xf32>
  %n = mk.add_scalar %e, -1.0 : tensor<4x8xf32>
  %d = mk.add_scalar %e, 1.0 : tensor<4x8xf32>
  %t = mk.div %n, %d : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %t : tensor<4x8xf32>
}
