// Near misses: --mirage-check-equivalence rejects each candidate below with a
// counterexample.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

func.func @two_ref(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %s = mk.add %x, %y : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %d = mk.sub %x, %y : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %s, %d : tensor<4x8xf32>, tensor<4x8xf32>
}
// The second output differs: the counterexample names output #1.
// expected-error @below {{not equivalent to @two_ref: output #1 element [}}
func.func @two_second_wrong(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) attributes {mk.reference = @two_ref} {
  %s = mk.add %y, %x : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %d = mk.sub %y, %x : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %s, %d : tensor<4x8xf32>, tensor<4x8xf32>
}
