// Constants cannot alias. exp's exponent lives mod q = 2147483659 in the
// field, so with exact images for every constant exp(x + 1) and
// exp(x + 2147483660) would be the same element. Only constants of small
// height (|n|, d < 2^24 and |n| * d < 2^30) get exact images; 2147483660
// gets a random image per test and the pair is rejected by the field tests
// (its f64 run overflows and decides nothing). 1 + 1 = 2 stays exact.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

func.func @exp_ref(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %a = mk.add_scalar %x, 1.0 : tensor<4x8xf32>
  %e = mk.exp %a : tensor<4x8xf32>
  return %e : tensor<4x8xf32>
}
// expected-error-re @below {{not equivalent to @exp_ref: output #0 element {{.*}} (field test 0); {{.*}}checks: field: differ in test 0}}
func.func @exp_alias(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @exp_ref} {
  %a = mk.add_scalar %x, 2147483660.0 : tensor<4x8xf32>
  %e = mk.exp %a : tensor<4x8xf32>
  return %e : tensor<4x8xf32>
}
// expected-remark @below {{equivalent to @exp_ref}}
func.func @exp_split(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @exp_ref} {
  %a = mk.add_scalar %x, 0.5 : tensor<4x8xf32>
  %b = mk.add_scalar %a, 0.5 : tensor<4x8xf32>
  %e = mk.exp %b : tensor<4x8xf32>
  return %e : tensor<4x8xf32>
}
