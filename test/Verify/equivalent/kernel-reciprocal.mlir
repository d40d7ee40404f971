// --mirage-check-equivalence reports each candidate below equivalent to its
// reference.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

// reciprocal(x) * y = y / x: the field inverse.
func.func @recip_ref(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %d = mk.div %y, %x : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %d : tensor<4x8xf32>
}
// expected-remark @below {{equivalent to @recip_ref}}
func.func @recip(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @recip_ref} {
  %r = mk.reciprocal %x : tensor<4x8xf32>
  %m = mk.mul %r, %y : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}

// reciprocal(reciprocal(x)) = x, broadcast along a dim of size 1.
func.func @recip2_ref(%x: tensor<4x1xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %m = mk.mul %x, %y : tensor<4x1xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}
// expected-remark @below {{equivalent to @recip2_ref}}
func.func @recip2(%x: tensor<4x1xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @recip2_ref} {
  %r = mk.reciprocal %x : tensor<4x1xf32>
  %s = mk.reciprocal %r : tensor<4x1xf32>
  %m = mk.mul %y, %s : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}
