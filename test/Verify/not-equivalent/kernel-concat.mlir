// Near misses: --mirage-check-equivalence rejects each candidate below with a
// counterexample.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

func.func @concat_ref(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<4x8xf32> {
  %c = mk.concat %a, %b dim = 1 : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}
// Concatenation in the wrong order.
// expected-error @below {{not equivalent to @concat_ref: output #0 element [0, 0]}}
func.func @concat_order(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<4x8xf32> attributes {mk.reference = @concat_ref} {
  %c = mk.concat %b, %a dim = 1 : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}
