// --mirage-check-equivalence reports each candidate below equivalent to its
// reference.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

// relu and clamp are compared by structure: the same op on the same value.
func.func @relu_ref(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = mk.add %x, %y : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %r = mk.relu %s : tensor<4x8xf32>
  %c = mk.clamp %r min = -1.0 max = 1.0 : tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}
// expected-remark @below {{max/relu/clamp/pow/gelu_erf compared by structure only}}
func.func @relu(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @relu_ref} {
  %s = mk.add %y, %x : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %r = mk.relu %s : tensor<4x8xf32>
  %c = mk.clamp %r min = -1.0 max = 1.0 : tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}
