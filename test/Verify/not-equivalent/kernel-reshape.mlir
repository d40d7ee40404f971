// Near misses: --mirage-check-equivalence rejects each candidate below with a
// counterexample.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

func.func @flat_ref(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %r = mk.reshape %x : tensor<4x8xf32> -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}
// A transpose has the shape of the reshape but not its order.
// expected-error @below {{not equivalent to @flat_ref: output #0 element [}}
func.func @flat_transpose(%x: tensor<4x8xf32>) -> tensor<8x4xf32> attributes {mk.reference = @flat_ref} {
  %t = mk.transpose %x perm = [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  return %t : tensor<8x4xf32>
}
