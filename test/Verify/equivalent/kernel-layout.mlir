// --mirage-check-equivalence reports each candidate below equivalent to its
// reference.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

// (A B)^T = B^T A^T.
func.func @mmt_ref(%a: tensor<4x8xf32>, %b: tensor<8x6xf32>) -> tensor<6x4xf32> {
  %m = mk.matmul %a, %b : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
  %t = mk.transpose %m perm = [1, 0] : tensor<4x6xf32> -> tensor<6x4xf32>
  return %t : tensor<6x4xf32>
}
// expected-remark @below {{equivalent to @mmt_ref}}
func.func @mmt(%a: tensor<4x8xf32>, %b: tensor<8x6xf32>) -> tensor<6x4xf32> attributes {mk.reference = @mmt_ref} {
  %bt = mk.transpose %b perm = [1, 0] : tensor<8x6xf32> -> tensor<6x8xf32>
  %at = mk.transpose %a perm = [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  %m = mk.matmul %bt, %at : tensor<6x8xf32>, tensor<8x4xf32> -> tensor<6x4xf32>
  return %m : tensor<6x4xf32>
}

// A matmul of a concatenation along k: [X1 X2] [W1; W2] = X1 W1 + X2 W2.
func.func @catmm_ref(%x1: tensor<4x3xf32>, %x2: tensor<4x5xf32>, %w1: tensor<3x6xf32>, %w2: tensor<5x6xf32>) -> tensor<4x6xf32> {
  %x = mk.concat %x1, %x2 dim = 1 : tensor<4x3xf32>, tensor<4x5xf32> -> tensor<4x8xf32>
  %w = mk.concat %w1, %w2 dim = 0 : tensor<3x6xf32>, tensor<5x6xf32> -> tensor<8x6xf32>
  %y = mk.matmul %x, %w : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}
// expected-remark @below {{equivalent to @catmm_ref}}
func.func @catmm(%x1: tensor<4x3xf32>, %x2: tensor<4x5xf32>, %w1: tensor<3x6xf32>, %w2: tensor<5x6xf32>) -> tensor<4x6xf32> attributes {mk.reference = @catmm_ref} {
  %y1 = mk.matmul %x1, %w1 : tensor<4x3xf32>, tensor<3x6xf32> -> tensor<4x6xf32>
  %y2 = mk.matmul %x2, %w2 : tensor<4x5xf32>, tensor<5x6xf32> -> tensor<4x6xf32>
  %y = mk.add %y2, %y1 : tensor<4x6xf32>, tensor<4x6xf32> -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}

// transpose(concat(a, b, dim 1)) = concat(a^T, b^T, dim 0).
func.func @catt_ref(%a: tensor<4x3xf32>, %b: tensor<4x5xf32>) -> tensor<8x4xf32> {
  %c = mk.concat %a, %b dim = 1 : tensor<4x3xf32>, tensor<4x5xf32> -> tensor<4x8xf32>
  %t = mk.transpose %c perm = [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  return %t : tensor<8x4xf32>
}
// expected-remark @below {{equivalent to @catt_ref}}
func.func @catt(%a: tensor<4x3xf32>, %b: tensor<4x5xf32>) -> tensor<8x4xf32> attributes {mk.reference = @catt_ref} {
  %at = mk.transpose %a perm = [1, 0] : tensor<4x3xf32> -> tensor<3x4xf32>
  %bt = mk.transpose %b perm = [1, 0] : tensor<4x5xf32> -> tensor<5x4xf32>
  %t = mk.concat %at, %bt dim = 0 : tensor<3x4xf32>, tensor<5x4xf32> -> tensor<8x4xf32>
  return %t : tensor<8x4xf32>
}

// A row bias through a matmul: (X + b) W = X W + b W, b of shape 1x8
// broadcast over the rows.
func.func @bias_ref(%x: tensor<4x8xf32>, %b: tensor<1x8xf32>, %w: tensor<8x6xf32>) -> tensor<4x6xf32> {
  %xb = mk.add %x, %b : tensor<4x8xf32>, tensor<1x8xf32> -> tensor<4x8xf32>
  %y = mk.matmul %xb, %w : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}
// expected-remark @below {{equivalent to @bias_ref}}
func.func @bias(%x: tensor<4x8xf32>, %b: tensor<1x8xf32>, %w: tensor<8x6xf32>) -> tensor<4x6xf32> attributes {mk.reference = @bias_ref} {
  %xw = mk.matmul %x, %w : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
  %bw = mk.matmul %b, %w : tensor<1x8xf32>, tensor<8x6xf32> -> tensor<1x6xf32>
  %y = mk.add %xw, %bw : tensor<4x6xf32>, tensor<1x6xf32> -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}

// Scaling the k dim of X or the rows of W: (X * s^T) W = X (W * s), s 8x1.
func.func @kscale_ref(%x: tensor<4x8xf32>, %s: tensor<8x1xf32>, %w: tensor<8x6xf32>) -> tensor<4x6xf32> {
  %st = mk.transpose %s perm = [1, 0] : tensor<8x1xf32> -> tensor<1x8xf32>
  %xs = mk.mul %x, %st : tensor<4x8xf32>, tensor<1x8xf32> -> tensor<4x8xf32>
  %y = mk.matmul %xs, %w : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}
// expected-remark @below {{equivalent to @kscale_ref}}
func.func @kscale(%x: tensor<4x8xf32>, %s: tensor<8x1xf32>, %w: tensor<8x6xf32>) -> tensor<4x6xf32> attributes {mk.reference = @kscale_ref} {
  %ws = mk.mul %w, %s : tensor<8x6xf32>, tensor<8x1xf32> -> tensor<8x6xf32>
  %y = mk.matmul %x, %ws : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}
