// Near misses: --mirage-check-equivalence rejects each candidate below with a
// counterexample.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

func.func @exp_ref(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = mk.add %a, %b : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %e = mk.exp %s : tensor<4x8xf32>
  return %e : tensor<4x8xf32>
}
// exp(a + b) is not exp(a) + exp(b).
// expected-error @below {{not equivalent to @exp_ref: output #0 element [}}
func.func @exp_sum(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @exp_ref} {
  %ea = mk.exp %a : tensor<4x8xf32>
  %eb = mk.exp %b : tensor<4x8xf32>
  %e = mk.add %ea, %eb : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %e : tensor<4x8xf32>
}
