// --mirage-check-equivalence reports each candidate below equivalent to its
// reference.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

// exp(a - b) = exp(a) / exp(b).
func.func @expdiv_ref(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %d = mk.sub %a, %b : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %e = mk.exp %d : tensor<4x8xf32>
  return %e : tensor<4x8xf32>
}
// expected-remark @below {{equivalent to @expdiv_ref}}
func.func @expdiv(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @expdiv_ref} {
  %ea = mk.exp %a : tensor<4x8xf32>
  %eb = mk.exp %b : tensor<4x8xf32>
  %e = mk.div %ea, %eb : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %e : tensor<4x8xf32>
}

// exp(2x) = exp(x)^2.
func.func @exp2x_ref(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %d = mk.mul_scalar %x, 2.0 : tensor<4x8xf32>
  %e = mk.exp %d : tensor<4x8xf32>
  return %e : tensor<4x8xf32>
}
// expected-remark @below {{equivalent to @exp2x_ref}}
func.func @exp2x(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @exp2x_ref} {
  %e = mk.exp %x : tensor<4x8xf32>
  %s = mk.square %e : tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

// A row-broadcast exponent: exp(x - m) * exp(m) = exp(x), m of shape 4x1.
func.func @expbc_ref(%x: tensor<4x8xf32>, %m: tensor<4x1xf32>) -> tensor<4x8xf32> {
  %e = mk.exp %x : tensor<4x8xf32>
  return %e : tensor<4x8xf32>
}
// expected-remark @below {{equivalent to @expbc_ref}}
func.func @expbc(%x: tensor<4x8xf32>, %m: tensor<4x1xf32>) -> tensor<4x8xf32> attributes {mk.reference = @expbc_ref} {
  %d = mk.sub %x, %m : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  %e = mk.exp %d : tensor<4x8xf32>
  %em = mk.exp %m : tensor<4x1xf32>
  %r = mk.mul %e, %em : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// sigmoid(x) = exp(x) / (1 + exp(x)).
func.func @sigexp_ref(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = mk.sigmoid %x : tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}
// expected-remark @below {{equivalent to @sigexp_ref}}
func.func @sigexp(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @sigexp_ref} {
  %e = mk.exp %x : tensor<4x8xf32>
  %d = mk.add_scalar %e, 1.0 : tensor<4x8xf32>
  %s = mk.div %e, %d : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}
