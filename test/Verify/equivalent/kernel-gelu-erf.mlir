// --mirage-check-equivalence reports each candidate below equivalent to its
// reference.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

// gelu_erf has no field image (an opaque function): the same op on an
// equivalent argument is equivalent.
func.func @gelu_erf_ref(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = mk.add %x, %y : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %g = mk.gelu_erf %s : tensor<4x8xf32>
  return %g : tensor<4x8xf32>
}
// expected-remark @below {{max/relu/clamp/pow/gelu_erf compared by structure only}}
func.func @gelu_erf_comm(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @gelu_erf_ref} {
  %s = mk.add %y, %x : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %g = mk.gelu_erf %s : tensor<4x8xf32>
  return %g : tensor<4x8xf32>
}
