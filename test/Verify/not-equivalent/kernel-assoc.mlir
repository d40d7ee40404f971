// Near misses: --mirage-check-equivalence rejects each candidate below with a
// counterexample.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

func.func @assoc_ref(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %ab = mk.matmul %a, %b : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
  %r = mk.matmul %ab, %c : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
// Matmul does not commute: (A C) B.
// expected-error @below {{not equivalent to @assoc_ref: output #0 element [}}
func.func @assoc_commuted(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>, %c: tensor<4x4xf32>) -> tensor<4x4xf32> attributes {mk.reference = @assoc_ref} {
  %ac = mk.matmul %a, %c : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
  %r = mk.matmul %ac, %b : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
