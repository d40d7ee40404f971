// --mirage-check-equivalence reports each candidate below equivalent to its
// reference.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

// Softmax with the maximum subtracted (numerically stable form).
func.func @softmax_ref(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = mk.exp %x : tensor<4x8xf32>
  %s = mk.reduce_sum %e dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  %p = mk.div %e, %s : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  return %p : tensor<4x8xf32>
}
// expected-remark @below {{equivalent to @softmax_ref}}
func.func @softmax(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @softmax_ref} {
  %m = mk.reduce_max %x dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  %d = mk.sub %x, %m : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  %e = mk.exp %d : tensor<4x8xf32>
  %s = mk.reduce_sum %e dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  %p = mk.div %e, %s : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  return %p : tensor<4x8xf32>
}
