// --mirage-check-equivalence reports each candidate below equivalent to its
// reference.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

// max is commutative under the field's random total order.
func.func @max_ref(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %m = mk.max %x, %y : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}
// expected-remark @below {{max/relu/clamp/pow/gelu_erf compared by structure only}}
func.func @max_comm(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @max_ref} {
  %m = mk.max %y, %x : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}

// Associative, idempotent and broadcasting: max(max(x, r), max(r, x)) with a
// row vector r equals max(x, r).
func.func @max3_ref(%x: tensor<4x8xf32>, %r: tensor<4x1xf32>) -> tensor<4x8xf32> {
  %m = mk.max %x, %r : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}
// expected-remark @below {{equivalent to @max3_ref}}
func.func @max3(%x: tensor<4x8xf32>, %r: tensor<4x1xf32>) -> tensor<4x8xf32> attributes {mk.reference = @max3_ref} {
  %a = mk.max %x, %r : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  %b = mk.max %r, %x : tensor<4x1xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %m = mk.max %a, %b : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}

// max(x, x) = x: the reduce_max of max(x, x) is that of x.
func.func @maxself_ref(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %m = mk.reduce_max %x dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  return %m : tensor<4x1xf32>
}
// expected-remark @below {{equivalent to @maxself_ref}}
func.func @maxself(%x: tensor<4x8xf32>) -> tensor<4x1xf32> attributes {mk.reference = @maxself_ref} {
  %a = mk.max %x, %x : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %m = mk.reduce_max %a dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  return %m : tensor<4x1xf32>
}
