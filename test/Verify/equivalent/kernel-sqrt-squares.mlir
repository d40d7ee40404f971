// --mirage-check-equivalence reports each candidate below equivalent to its
// reference.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

// sqrt of squares: every argument is >= 0, so the field's multiplicative sqrt
// and the real one agree: |x| * |y| = |x * y|.
func.func @sqsq_ref(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %x2 = mk.square %x : tensor<4x8xf32>
  %y2 = mk.square %y : tensor<4x8xf32>
  %p = mk.mul %x2, %y2 : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %s = mk.sqrt %p : tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}
// expected-remark @below {{equivalent to @sqsq_ref}}
func.func @sqsq(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @sqsq_ref} {
  %x2 = mk.square %x : tensor<4x8xf32>
  %y2 = mk.square %y : tensor<4x8xf32>
  %sx = mk.sqrt %x2 : tensor<4x8xf32>
  %sy = mk.sqrt %y2 : tensor<4x8xf32>
  %s = mk.mul %sx, %sy : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

// |x|^2 = x^2.
func.func @abs2_ref(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %x2 = mk.square %x : tensor<4x8xf32>
  return %x2 : tensor<4x8xf32>
}
// expected-remark @below {{equivalent to @abs2_ref}}
func.func @abs2(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @abs2_ref} {
  %x2 = mk.square %x : tensor<4x8xf32>
  %a = mk.sqrt %x2 : tensor<4x8xf32>
  %s = mk.mul %a, %a : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

// sign(x) two ways: x / |x| = |x| / x.
func.func @sign_ref(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %x2 = mk.square %x : tensor<4x8xf32>
  %a = mk.sqrt %x2 : tensor<4x8xf32>
  %s = mk.div %x, %a : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}
// expected-remark @below {{equivalent to @sign_ref}}
func.func @sign(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @sign_ref} {
  %x2 = mk.square %x : tensor<4x8xf32>
  %a = mk.sqrt %x2 : tensor<4x8xf32>
  %s = mk.div %a, %x : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}
