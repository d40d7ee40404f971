// RUN: mirage-opt %s -canonicalize | FileCheck %s

// CHECK-LABEL: func.func @neg_neg
// CHECK-SAME: (%[[X:.*]]: tensor<2x8xf16>)
// CHECK-NOT: mk.neg
// CHECK: return %[[X]]
func.func @neg_neg(%x: tensor<2x8xf16>) -> tensor<2x8xf16> {
  %0 = mk.neg %x : tensor<2x8xf16>
  %1 = mk.neg %0 : tensor<2x8xf16>
  return %1 : tensor<2x8xf16>
}

// Three negations leave one.
// CHECK-LABEL: func.func @neg_neg_neg
// CHECK-SAME: (%[[X:.*]]: tensor<2x8xbf16>)
// CHECK-NEXT: %[[N:.*]] = mk.neg %[[X]] : tensor<2x8xbf16>
// CHECK-NEXT: return %[[N]]
func.func @neg_neg_neg(%x: tensor<2x8xbf16>) -> tensor<2x8xbf16> {
  %0 = mk.neg %x : tensor<2x8xbf16>
  %1 = mk.neg %0 : tensor<2x8xbf16>
  %2 = mk.neg %1 : tensor<2x8xbf16>
  return %2 : tensor<2x8xbf16>
}

// CHECK-LABEL: func.func @mul_scalar_one
// CHECK-SAME: (%[[X:.*]]: tensor<2x8xf32>)
// CHECK-NEXT: return %[[X]]
func.func @mul_scalar_one(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %0 = mk.mul_scalar %x, 1.0 : tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// CHECK-LABEL: func.func @add_scalar_zero
// CHECK-SAME: (%[[X:.*]]: tensor<2x8xf16>)
// CHECK-NEXT: return %[[X]]
func.func @add_scalar_zero(%x: tensor<2x8xf16>) -> tensor<2x8xf16> {
  %0 = mk.add_scalar %x, 0.0 : tensor<2x8xf16>
  return %0 : tensor<2x8xf16>
}

// CHECK-LABEL: func.func @mul_scalar_chain
// CHECK-SAME: (%[[X:.*]]: tensor<2x8xf16>)
// CHECK-NEXT: %[[M:.*]] = mk.mul_scalar %[[X]], -7.500000e+00 : tensor<2x8xf16>
// CHECK-NEXT: return %[[M]]
func.func @mul_scalar_chain(%x: tensor<2x8xf16>) -> tensor<2x8xf16> {
  %0 = mk.mul_scalar %x, 2.5 : tensor<2x8xf16>
  %1 = mk.mul_scalar %0, -3.0 : tensor<2x8xf16>
  return %1 : tensor<2x8xf16>
}

// The chain combines to 0.5 * 2.0 = 1.0, which then folds away.
// CHECK-LABEL: func.func @mul_scalar_chain_to_identity
// CHECK-SAME: (%[[X:.*]]: tensor<2x8xf16>)
// CHECK-NEXT: return %[[X]]
func.func @mul_scalar_chain_to_identity(%x: tensor<2x8xf16>) -> tensor<2x8xf16> {
  %0 = mk.mul_scalar %x, 0.5 : tensor<2x8xf16>
  %1 = mk.mul_scalar %0, 2.0 : tensor<2x8xf16>
  return %1 : tensor<2x8xf16>
}

// CHECK-LABEL: func.func @add_scalar_chain
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[A:.*]] = mk.add_scalar %[[X]], 1.750000e+00 : tensor<4xf32>
// CHECK-NEXT: return %[[A]]
func.func @add_scalar_chain(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = mk.add_scalar %x, 1.5 : tensor<4xf32>
  %1 = mk.add_scalar %0, 0.25 : tensor<4xf32>
  return %1 : tensor<4xf32>
}

// The inner op has another use: the outer op is rewritten to read %x, the
// inner one stays for its other user.
// CHECK-LABEL: func.func @mul_scalar_chain_shared
// CHECK-SAME: (%[[X:.*]]: tensor<2x8xf16>)
// CHECK-DAG: %[[A:.*]] = mk.mul_scalar %[[X]], 2.000000e+00 : tensor<2x8xf16>
// CHECK-DAG: %[[B:.*]] = mk.mul_scalar %[[X]], 6.000000e+00 : tensor<2x8xf16>
// CHECK: return %[[A]], %[[B]]
func.func @mul_scalar_chain_shared(%x: tensor<2x8xf16>)
    -> (tensor<2x8xf16>, tensor<2x8xf16>) {
  %0 = mk.mul_scalar %x, 2.0 : tensor<2x8xf16>
  %1 = mk.mul_scalar %0, 3.0 : tensor<2x8xf16>
  return %0, %1 : tensor<2x8xf16>, tensor<2x8xf16>
}

// Different scalar ops do not combine.
// CHECK-LABEL: func.func @mul_then_add_scalar_no_fold
// CHECK-SAME: (%[[X:.*]]: tensor<2x8xf16>)
// CHECK-NEXT: %[[M:.*]] = mk.mul_scalar %[[X]], 2.000000e+00
// CHECK-NEXT: %[[A:.*]] = mk.add_scalar %[[M]], 3.000000e+00
// CHECK-NEXT: return %[[A]]
func.func @mul_then_add_scalar_no_fold(%x: tensor<2x8xf16>) -> tensor<2x8xf16> {
  %0 = mk.mul_scalar %x, 2.0 : tensor<2x8xf16>
  %1 = mk.add_scalar %0, 3.0 : tensor<2x8xf16>
  return %1 : tensor<2x8xf16>
}

// mul_scalar by 0 and add_scalar 1 are not identities.
// CHECK-LABEL: func.func @scalar_non_identity_no_fold
// CHECK-SAME: (%[[X:.*]]: tensor<2x8xf16>)
// CHECK-NEXT: %[[M:.*]] = mk.mul_scalar %[[X]], 0.000000e+00
// CHECK-NEXT: %[[A:.*]] = mk.add_scalar %[[X]], 1.000000e+00
// CHECK-NEXT: return %[[M]], %[[A]]
func.func @scalar_non_identity_no_fold(%x: tensor<2x8xf16>)
    -> (tensor<2x8xf16>, tensor<2x8xf16>) {
  %0 = mk.mul_scalar %x, 0.0 : tensor<2x8xf16>
  %1 = mk.add_scalar %x, 1.0 : tensor<2x8xf16>
  return %0, %1 : tensor<2x8xf16>, tensor<2x8xf16>
}

// A single neg, and neg of another unary op, stay.
// CHECK-LABEL: func.func @neg_no_fold
// CHECK-SAME: (%[[X:.*]]: tensor<2x8xf16>)
// CHECK-NEXT: %[[E:.*]] = mk.exp %[[X]]
// CHECK-NEXT: %[[N:.*]] = mk.neg %[[E]]
// CHECK-NEXT: return %[[N]]
func.func @neg_no_fold(%x: tensor<2x8xf16>) -> tensor<2x8xf16> {
  %0 = mk.exp %x : tensor<2x8xf16>
  %1 = mk.neg %0 : tensor<2x8xf16>
  return %1 : tensor<2x8xf16>
}

// CHECK-LABEL: func.func @reduce_size_one
// CHECK-SAME: (%[[X:.*]]: tensor<2x1x8xf16>)
// CHECK-NOT: mk.reduce
// CHECK: return %[[X]], %[[X]]
func.func @reduce_size_one(%x: tensor<2x1x8xf16>)
    -> (tensor<2x1x8xf16>, tensor<2x1x8xf16>) {
  %0 = mk.reduce_sum %x dim = 1 : tensor<2x1x8xf16> -> tensor<2x1x8xf16>
  %1 = mk.reduce_max %x dim = 1 : tensor<2x1x8xf16> -> tensor<2x1x8xf16>
  return %0, %1 : tensor<2x1x8xf16>, tensor<2x1x8xf16>
}

// Reducing the same dim twice: the second reduction is over a size-1 dim.
// CHECK-LABEL: func.func @reduce_twice
// CHECK-SAME: (%[[X:.*]]: tensor<2x8xf32>)
// CHECK-NEXT: %[[S:.*]] = mk.reduce_sum %[[X]] dim = 1 : tensor<2x8xf32> -> tensor<2x1xf32>
// CHECK-NEXT: return %[[S]]
func.func @reduce_twice(%x: tensor<2x8xf32>) -> tensor<2x1xf32> {
  %0 = mk.reduce_sum %x dim = 1 : tensor<2x8xf32> -> tensor<2x1xf32>
  %1 = mk.reduce_sum %0 dim = 1 : tensor<2x1xf32> -> tensor<2x1xf32>
  return %1 : tensor<2x1xf32>
}

// A reduction over a dim of size > 1 stays, even when another dim has size 1.
// CHECK-LABEL: func.func @reduce_no_fold
// CHECK-SAME: (%[[X:.*]]: tensor<2x1x8xf16>)
// CHECK-NEXT: %[[S:.*]] = mk.reduce_sum %[[X]] dim = 2 : tensor<2x1x8xf16> -> tensor<2x1x1xf16>
// CHECK-NEXT: %[[M:.*]] = mk.reduce_max %[[X]] dim = 0 : tensor<2x1x8xf16> -> tensor<1x1x8xf16>
// CHECK-NEXT: return %[[S]], %[[M]]
func.func @reduce_no_fold(%x: tensor<2x1x8xf16>)
    -> (tensor<2x1x1xf16>, tensor<1x1x8xf16>) {
  %0 = mk.reduce_sum %x dim = 2 : tensor<2x1x8xf16> -> tensor<2x1x1xf16>
  %1 = mk.reduce_max %x dim = 0 : tensor<2x1x8xf16> -> tensor<1x1x8xf16>
  return %0, %1 : tensor<2x1x1xf16>, tensor<1x1x8xf16>
}

// CHECK-LABEL: func.func @transpose_identity
// CHECK-SAME: (%[[X:.*]]: tensor<2x4x8xf16>)
// CHECK-NEXT: return %[[X]]
func.func @transpose_identity(%x: tensor<2x4x8xf16>) -> tensor<2x4x8xf16> {
  %0 = mk.transpose %x perm = [0, 1, 2] : tensor<2x4x8xf16> -> tensor<2x4x8xf16>
  return %0 : tensor<2x4x8xf16>
}

// CHECK-LABEL: func.func @transpose_transpose_identity
// CHECK-SAME: (%[[X:.*]]: tensor<2x8xf16>)
// CHECK-NEXT: return %[[X]]
func.func @transpose_transpose_identity(%x: tensor<2x8xf16>) -> tensor<2x8xf16> {
  %0 = mk.transpose %x perm = [1, 0] : tensor<2x8xf16> -> tensor<8x2xf16>
  %1 = mk.transpose %0 perm = [1, 0] : tensor<8x2xf16> -> tensor<2x8xf16>
  return %1 : tensor<2x8xf16>
}

// [1, 2, 0] then [2, 0, 1] is the identity (inverse permutations).
// CHECK-LABEL: func.func @transpose_inverse_rank3
// CHECK-SAME: (%[[X:.*]]: tensor<2x4x8xbf16>)
// CHECK-NEXT: return %[[X]]
func.func @transpose_inverse_rank3(%x: tensor<2x4x8xbf16>) -> tensor<2x4x8xbf16> {
  %0 = mk.transpose %x perm = [1, 2, 0] : tensor<2x4x8xbf16> -> tensor<4x8x2xbf16>
  %1 = mk.transpose %0 perm = [2, 0, 1] : tensor<4x8x2xbf16> -> tensor<2x4x8xbf16>
  return %1 : tensor<2x4x8xbf16>
}

// Result dim k of the composition is input dim p[q[k]]: p = [1, 2, 0],
// q = [1, 2, 0] gives [2, 0, 1], shape 8x2x4.
// CHECK-LABEL: func.func @transpose_compose
// CHECK-SAME: (%[[X:.*]]: tensor<2x4x8xf32>)
// CHECK-NEXT: %[[T:.*]] = mk.transpose %[[X]] perm = [2, 0, 1] : tensor<2x4x8xf32> -> tensor<8x2x4xf32>
// CHECK-NEXT: return %[[T]]
func.func @transpose_compose(%x: tensor<2x4x8xf32>) -> tensor<8x2x4xf32> {
  %0 = mk.transpose %x perm = [1, 2, 0] : tensor<2x4x8xf32> -> tensor<4x8x2xf32>
  %1 = mk.transpose %0 perm = [1, 2, 0] : tensor<4x8x2xf32> -> tensor<8x2x4xf32>
  return %1 : tensor<8x2x4xf32>
}

// Non-commuting permutations: p = [0, 2, 1, 3], q = [3, 0, 2, 1] compose to
// p[q[k]] = [3, 0, 1, 2]; q[p[k]] would be [3, 2, 0, 1].
// CHECK-LABEL: func.func @transpose_compose_order
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4x5xf16>)
// CHECK-NEXT: %[[T:.*]] = mk.transpose %[[X]] perm = [3, 0, 1, 2] : tensor<2x3x4x5xf16> -> tensor<5x2x3x4xf16>
// CHECK-NEXT: return %[[T]]
func.func @transpose_compose_order(%x: tensor<2x3x4x5xf16>) -> tensor<5x2x3x4xf16> {
  %0 = mk.transpose %x perm = [0, 2, 1, 3] : tensor<2x3x4x5xf16> -> tensor<2x4x3x5xf16>
  %1 = mk.transpose %0 perm = [3, 0, 2, 1] : tensor<2x4x3x5xf16> -> tensor<5x2x3x4xf16>
  return %1 : tensor<5x2x3x4xf16>
}

// A single non-identity transpose stays.
// CHECK-LABEL: func.func @transpose_no_fold
// CHECK-SAME: (%[[X:.*]]: tensor<2x8xf16>)
// CHECK-NEXT: %[[T:.*]] = mk.transpose %[[X]] perm = [1, 0] : tensor<2x8xf16> -> tensor<8x2xf16>
// CHECK-NEXT: return %[[T]]
func.func @transpose_no_fold(%x: tensor<2x8xf16>) -> tensor<8x2xf16> {
  %0 = mk.transpose %x perm = [1, 0] : tensor<2x8xf16> -> tensor<8x2xf16>
  return %0 : tensor<8x2xf16>
}

// A square transpose is not the identity even though the type is unchanged.
// CHECK-LABEL: func.func @transpose_square_no_fold
// CHECK-SAME: (%[[X:.*]]: tensor<4x4xf16>)
// CHECK-NEXT: %[[T:.*]] = mk.transpose %[[X]] perm = [1, 0] : tensor<4x4xf16> -> tensor<4x4xf16>
// CHECK-NEXT: return %[[T]]
func.func @transpose_square_no_fold(%x: tensor<4x4xf16>) -> tensor<4x4xf16> {
  %0 = mk.transpose %x perm = [1, 0] : tensor<4x4xf16> -> tensor<4x4xf16>
  return %0 : tensor<4x4xf16>
}

// A reshape to the input's type is the identity.
// CHECK-LABEL: func.func @reshape_same
// CHECK-SAME: (%[[X:.*]]: tensor<2x8xf16>)
// CHECK-NEXT: return %[[X]]
func.func @reshape_same(%x: tensor<2x8xf16>) -> tensor<2x8xf16> {
  %0 = mk.reshape %x : tensor<2x8xf16> -> tensor<2x8xf16>
  return %0 : tensor<2x8xf16>
}

// A reshape of a reshape reads the original; back to its shape, it is gone.
// CHECK-LABEL: func.func @reshape_reshape
// CHECK-SAME: (%[[X:.*]]: tensor<2x8xf16>)
// CHECK-NEXT: %[[R:.*]] = mk.reshape %[[X]] : tensor<2x8xf16> -> tensor<4x4xf16>
// CHECK-NEXT: return %[[R]], %[[X]]
func.func @reshape_reshape(%x: tensor<2x8xf16>) -> (tensor<4x4xf16>, tensor<2x8xf16>) {
  %0 = mk.reshape %x : tensor<2x8xf16> -> tensor<16xf16>
  %1 = mk.reshape %0 : tensor<16xf16> -> tensor<4x4xf16>
  %2 = mk.reshape %1 : tensor<4x4xf16> -> tensor<2x8xf16>
  return %1, %2 : tensor<4x4xf16>, tensor<2x8xf16>
}

// A conversion to the operand's own type, and a round trip through f32
// (exact), fold to the operand; a round trip through bf16 rounds and stays.
// CHECK-LABEL: func.func @convert_folds
// CHECK-SAME: (%[[X:.*]]: tensor<2x8xbf16>, %[[Y:.*]]: tensor<2x8xf32>)
// CHECK-NEXT: %[[D:.*]] = mk.convert %[[Y]] : tensor<2x8xf32> -> tensor<2x8xbf16>
// CHECK-NEXT: %[[U:.*]] = mk.convert %[[D]] : tensor<2x8xbf16> -> tensor<2x8xf32>
// CHECK-NEXT: return %[[X]], %[[X]], %[[U]]
func.func @convert_folds(%x: tensor<2x8xbf16>, %y: tensor<2x8xf32>) -> (tensor<2x8xbf16>, tensor<2x8xbf16>, tensor<2x8xf32>) {
  %0 = mk.convert %x : tensor<2x8xbf16> -> tensor<2x8xbf16>
  %1 = mk.convert %x : tensor<2x8xbf16> -> tensor<2x8xf32>
  %2 = mk.convert %1 : tensor<2x8xf32> -> tensor<2x8xbf16>
  %3 = mk.convert %y : tensor<2x8xf32> -> tensor<2x8xbf16>
  %4 = mk.convert %3 : tensor<2x8xbf16> -> tensor<2x8xf32>
  return %0, %2, %4 : tensor<2x8xbf16>, tensor<2x8xbf16>, tensor<2x8xf32>
}
