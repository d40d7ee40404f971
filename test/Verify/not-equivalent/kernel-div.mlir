// Near misses: --mirage-check-equivalence rejects each candidate below with a
// counterexample.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

func.func @div_ref(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %d = mk.div %a, %b : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %d : tensor<4x8xf32>
}
// Swapped div operands.
// expected-error @below {{not equivalent to @div_ref: output #0 element [}}
func.func @div_swapped(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @div_ref} {
  %d = mk.div %b, %a : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %d : tensor<4x8xf32>
}
