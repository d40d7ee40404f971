// REQUIRES: libomp
// A tolerance of zero makes the f16 rounding of the generated code a
// mismatch: exit 1 with the output index, the element and both values.
// RUN: not mirage-run %s --tol-scale=0 | FileCheck %s
// CHECK: MISMATCH output 0 element {{[0-9]+}} [{{[0-9]+}}, {{[0-9]+}}]: got {{.*}}, expected {{.*}} ({{[0-9]+}} of 32 elements out of tolerance)
// CHECK: FAIL
func.func @f(%x: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %y = mk.exp %x : tensor<4x8xf16>
  return %y : tensor<4x8xf16>
}
