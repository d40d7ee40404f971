// Near misses: --mirage-check-equivalence rejects each candidate below with a
// counterexample.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

func.func @gelu_erf_ref(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %g = mk.gelu_erf %x : tensor<4x8xf32>
  return %g : tensor<4x8xf32>
}
// The tanh approximation is a different function.
// expected-error @below {{not equivalent to @gelu_erf_ref: output #0 element [}}
func.func @gelu_tanh_form(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @gelu_erf_ref} {
  %g = mk.gelu %x : tensor<4x8xf32>
  return %g : tensor<4x8xf32>
}
// gelu_erf(-x) is not gelu_erf(x).
// expected-error @below {{not equivalent to @gelu_erf_ref: output #0 element [}}
func.func @gelu_erf_neg(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @gelu_erf_ref} {
  %n = mk.neg %x : tensor<4x8xf32>
  %g = mk.gelu_erf %n : tensor<4x8xf32>
  return %g : tensor<4x8xf32>
}
