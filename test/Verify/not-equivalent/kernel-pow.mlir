// Near misses: --mirage-check-equivalence rejects each candidate below with a
// counterexample.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

func.func @pow_ref(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %p = mk.pow %a, %b : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %p : tensor<4x8xf32>
}
// Swapped pow operands.
// expected-error @below {{not equivalent to @pow_ref: output #0 element [}}
func.func @pow_swapped(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @pow_ref} {
  %p = mk.pow %b, %a : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %p : tensor<4x8xf32>
}
