// Near misses: --mirage-check-equivalence rejects each candidate below with a
// counterexample.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

func.func @max_ref(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %m = mk.max %x, %y : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}
// max(x, -y) instead of max(x, y).
// expected-error @below {{not equivalent to @max_ref: output #0 element [}}
func.func @max_neg(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @max_ref} {
  %n = mk.neg %y : tensor<4x8xf32>
  %m = mk.max %x, %n : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}
// x + y: max is not a sum.
// expected-error @below {{not equivalent to @max_ref: output #0 element [}}
func.func @max_add(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @max_ref} {
  %m = mk.add %x, %y : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}
