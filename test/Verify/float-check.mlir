// The f64 check is part of the verdict. It rejects what the finite field
// cannot see (the field's sqrt is multiplicative for every element, the real
// one is undefined below 0); an overflow in one program makes its
// distribution not decisive instead of a counterexample; float-check=0
// leaves the field tests alone (and then the sqrt pair is accepted).
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null
// RUN: not mirage-opt --mirage-check-equivalence="float-check=0" %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=FIELD
// RUN: not mirage-opt --mirage-check-equivalence="float-tolerance=-1" %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD

// FIELD: remark: equivalent to @sqrt_ref
// FIELD-SAME: float: not run
// BAD: error: --mirage-check-equivalence: float-tolerance, numerics-factor and numerics-floor must be non-negative

func.func @sqrt_ref(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %m = mk.mul %a, %b : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %s = mk.sqrt %m : tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}
// expected-error @below {{not equivalent to @sqrt_ref: in f64 on mixed inputs (seed 0): output #0 element [}}
func.func @sqrt_split(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @sqrt_ref} {
  %x = mk.sqrt %a : tensor<4x8xf32>
  %y = mk.sqrt %b : tensor<4x8xf32>
  %s = mk.mul %x, %y : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

// exp(100 x) overflows f64 on wide inputs (|x| up to 100) but not on the
// others (|x| < 2) in the max-free
// softmax only: that distribution does not decide, the others do.
func.func @softmax_ref(%x: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %t = mk.mul_scalar %x, 100.0 : tensor<16x64xf32>
  %m = mk.reduce_max %t dim = 1 : tensor<16x64xf32> -> tensor<16x1xf32>
  %d = mk.sub %t, %m : tensor<16x64xf32>, tensor<16x1xf32> -> tensor<16x64xf32>
  %e = mk.exp %d : tensor<16x64xf32>
  %s = mk.reduce_sum %e dim = 1 : tensor<16x64xf32> -> tensor<16x1xf32>
  %p = mk.div %e, %s : tensor<16x64xf32>, tensor<16x1xf32> -> tensor<16x64xf32>
  return %p : tensor<16x64xf32>
}
// expected-remark-re @below {{equivalent to @softmax_ref {{.*}}; float: {{.*}}: agree {{.*}}; not decisive on wide: overflow to inf in @softmax_nomax at 'mk.exp'}}
func.func @softmax_nomax(%x: tensor<16x64xf32>) -> tensor<16x64xf32> attributes {mk.reference = @softmax_ref} {
  %t = mk.mul_scalar %x, 100.0 : tensor<16x64xf32>
  %e = mk.exp %t : tensor<16x64xf32>
  %s = mk.reduce_sum %e dim = 1 : tensor<16x64xf32> -> tensor<16x1xf32>
  %p = mk.div %e, %s : tensor<16x64xf32>, tensor<16x1xf32> -> tensor<16x64xf32>
  return %p : tensor<16x64xf32>
}

// A relative difference far below the field's reach: x + 1e-9 * x against
// x. The field sees it too (1e-9 is exact), so this is decided by the field;
// the float check alone would need a tolerance below 1e-9.
func.func @tiny_ref(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  return %x : tensor<4x8xf32>
}
// expected-error @below {{not equivalent to @tiny_ref: output #0 element [}}
func.func @tiny(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @tiny_ref} {
  %s = mk.mul_scalar %x, 1.000001 : tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

// rsqrt(a * b) is rsqrt(a) * rsqrt(b) only for a, b > 0.
func.func @rsqrt_ref(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %m = mk.mul %a, %b : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %r = mk.rsqrt %m : tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
// The field's rsqrt is multiplicative too: only the f64 run sees this one.
// expected-error @below {{not equivalent to @rsqrt_ref: in f64 on mixed inputs (seed 0): output #0 element [}}
func.func @rsqrt_split(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @rsqrt_ref} {
  %x = mk.rsqrt %a : tensor<4x8xf32>
  %y = mk.rsqrt %b : tensor<4x8xf32>
  %r = mk.mul %x, %y : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
