// --mirage-check-equivalence reports each candidate below equivalent to its
// reference.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

// A batched matmul over [2, 8] rows equals one matmul over the 16 rows of
// its row-major reshape.
func.func @rows_ref(%x: tensor<2x8x4xf32>, %w: tensor<4x8xf32>) -> tensor<16x8xf32> {
  %y = mk.reshape %x : tensor<2x8x4xf32> -> tensor<16x4xf32>
  %m = mk.matmul %y, %w : tensor<16x4xf32>, tensor<4x8xf32> -> tensor<16x8xf32>
  return %m : tensor<16x8xf32>
}
// expected-remark @below {{equivalent to @rows_ref}}
func.func @rows(%x: tensor<2x8x4xf32>, %w: tensor<4x8xf32>) -> tensor<16x8xf32> attributes {mk.reference = @rows_ref} {
  %a = mk.reshape %x : tensor<2x8x4xf32> -> tensor<8x8xf32>
  %b = mk.reshape %a : tensor<8x8xf32> -> tensor<16x4xf32>
  %m = mk.matmul %b, %w : tensor<16x4xf32>, tensor<4x8xf32> -> tensor<16x8xf32>
  return %m : tensor<16x8xf32>
}

// Element-wise ops commute with a reshape.
func.func @exp_ref(%x: tensor<4x8xf32>) -> tensor<32xf32> {
  %e = mk.exp %x : tensor<4x8xf32>
  %r = mk.reshape %e : tensor<4x8xf32> -> tensor<32xf32>
  return %r : tensor<32xf32>
}
// expected-remark @below {{equivalent to @exp_ref}}
func.func @exp(%x: tensor<4x8xf32>) -> tensor<32xf32> attributes {mk.reference = @exp_ref} {
  %r = mk.reshape %x : tensor<4x8xf32> -> tensor<32xf32>
  %e = mk.exp %r : tensor<32xf32>
  return %e : tensor<32xf32>
}
