// Near misses: --mirage-check-equivalence rejects each candidate below with a
// counterexample.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

func.func @relu_ref(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = mk.relu %x : tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
// A missing relu.
// expected-error @below {{not equivalent to @relu_ref: output #0 element [}}
func.func @relu_missing(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @relu_ref} {
  %r = mk.neg %x : tensor<4x8xf32>
  %s = mk.neg %r : tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}
