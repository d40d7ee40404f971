// Near misses: --mirage-check-equivalence rejects each candidate below with a
// counterexample.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

func.func @recip_ref(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %d = mk.div %y, %x : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %d : tensor<4x8xf32>
}
// x / y instead of y / x.
// expected-error @below {{not equivalent to @recip_ref: output #0 element [}}
func.func @recip_swapped(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @recip_ref} {
  %r = mk.reciprocal %y : tensor<4x8xf32>
  %m = mk.mul %r, %x : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}
// -y / x: reciprocal is not negation.
// expected-error @below {{not equivalent to @recip_ref: output #0 element [}}
func.func @recip_neg(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @recip_ref} {
  %n = mk.neg %x : tensor<4x8xf32>
  %r = mk.reciprocal %n : tensor<4x8xf32>
  %m = mk.mul %r, %y : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}
