// --mirage-check-equivalence reports each candidate below equivalent to its
// reference.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

// rsqrt(x) * y = y / sqrt(x).
func.func @rsqrt_ref(%x: tensor<4x1xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = mk.rsqrt %x : tensor<4x1xf32>
  %p = mk.mul %y, %r : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  return %p : tensor<4x8xf32>
}
// expected-remark @below {{equivalent to @rsqrt_ref}}
func.func @rsqrt(%x: tensor<4x1xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @rsqrt_ref} {
  %r = mk.sqrt %x : tensor<4x1xf32>
  %p = mk.div %y, %r : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  return %p : tensor<4x8xf32>
}
