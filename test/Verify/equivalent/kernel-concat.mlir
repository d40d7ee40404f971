// --mirage-check-equivalence reports each candidate below equivalent to its
// reference.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

// The sum of a concatenation is the sum of the sums.
func.func @concat_ref(%a: tensor<4x3xf32>, %b: tensor<4x5xf32>) -> tensor<4x1xf32> {
  %c = mk.concat %a, %b dim = 1 : tensor<4x3xf32>, tensor<4x5xf32> -> tensor<4x8xf32>
  %s = mk.reduce_sum %c dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  return %s : tensor<4x1xf32>
}
// expected-remark @below {{equivalent to @concat_ref}}
func.func @concat(%a: tensor<4x3xf32>, %b: tensor<4x5xf32>) -> tensor<4x1xf32> attributes {mk.reference = @concat_ref} {
  %sa = mk.reduce_sum %a dim = 1 : tensor<4x3xf32> -> tensor<4x1xf32>
  %sb = mk.reduce_sum %b dim = 1 : tensor<4x5xf32> -> tensor<4x1xf32>
  %s = mk.add %sb, %sa : tensor<4x1xf32>, tensor<4x1xf32> -> tensor<4x1xf32>
  return %s : tensor<4x1xf32>
}
