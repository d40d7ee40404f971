// Near misses: --mirage-check-equivalence rejects each candidate below with a
// counterexample.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

func.func @clamp_ref(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c = mk.clamp %x min = -1.0 max = 1.0 : tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}
// Different clamp bounds.
// expected-error @below {{not equivalent to @clamp_ref: output #0 element [}}
func.func @clamp_bounds(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @clamp_ref} {
  %c = mk.clamp %x min = -2.0 max = 2.0 : tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}
