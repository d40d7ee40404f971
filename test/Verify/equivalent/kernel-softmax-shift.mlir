// --mirage-check-equivalence reports each candidate below equivalent to its
// reference.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

// Softmax is invariant under subtracting any per-row value: all three
// candidates are equivalent over the reals. (That the max-free form
// overflows in f16 is the numerics check's business, not this one's.)
func.func @softmax_ref(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %m = mk.reduce_max %x dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  %d = mk.sub %x, %m : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  %e = mk.exp %d : tensor<4x8xf32>
  %s = mk.reduce_sum %e dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  %p = mk.div %e, %s : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  return %p : tensor<4x8xf32>
}

// Without the max subtraction.
// expected-remark @below {{equivalent to @softmax_ref}}
func.func @softmax_nomax(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @softmax_ref} {
  %e = mk.exp %x : tensor<4x8xf32>
  %s = mk.reduce_sum %e dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  %p = mk.div %e, %s : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  return %p : tensor<4x8xf32>
}

// The row mean subtracted instead of the row max.
// expected-remark @below {{equivalent to @softmax_ref}}
func.func @softmax_mean(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @softmax_ref} {
  %t = mk.reduce_sum %x dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  %m = mk.mul_scalar %t, 0.125 : tensor<4x1xf32>
  %d = mk.sub %x, %m : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  %e = mk.exp %d : tensor<4x8xf32>
  %s = mk.reduce_sum %e dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  %p = mk.div %e, %s : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  return %p : tensor<4x8xf32>
}

// The global maximum (max of the row maxima) subtracted: still one value per
// row.
// expected-remark @below {{equivalent to @softmax_ref}}
func.func @softmax_globalmax(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @softmax_ref} {
  %r = mk.reduce_max %x dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  %m = mk.reduce_max %r dim = 0 : tensor<4x1xf32> -> tensor<1x1xf32>
  %d = mk.sub %x, %m : tensor<4x8xf32>, tensor<1x1xf32> -> tensor<4x8xf32>
  %e = mk.exp %d : tensor<4x8xf32>
  %s = mk.reduce_sum %e dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  %p = mk.div %e, %s : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  return %p : tensor<4x8xf32>
}
