// --mirage-check-equivalence reports each candidate below equivalent to its
// reference.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

// exp(a + b) = exp(a) * exp(b): exact in the field by construction.
func.func @exphom_ref(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = mk.add %a, %b : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %e = mk.exp %s : tensor<4x8xf32>
  return %e : tensor<4x8xf32>
}
// expected-remark @below {{equivalent to @exphom_ref}}
func.func @exphom(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @exphom_ref} {
  %ea = mk.exp %a : tensor<4x8xf32>
  %eb = mk.exp %b : tensor<4x8xf32>
  %e = mk.mul %ea, %eb : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %e : tensor<4x8xf32>
}
