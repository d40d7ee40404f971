// Programs outside the verifiable fragment get a warning with the reason,
// never a verdict.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

func.func @expexp_ref(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %a = mk.exp %x : tensor<4x8xf32>
  // expected-note @below {{evaluation stopped here}}
  %b = mk.exp %a : tensor<4x8xf32>
  return %b : tensor<4x8xf32>
}
// expected-warning @below {{equivalence to @expexp_ref unknown: in @expexp_ref: exp of a value whose exponent component is undefined (a second exp on one path): outside the verifiable fragment; fall back to float tests}}
func.func @expexp(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @expexp_ref} {
  %a = mk.exp %x : tensor<4x8xf32>
  %b = mk.exp %a : tensor<4x8xf32>
  return %b : tensor<4x8xf32>
}

// silu(silu(x)) nests exp inside exp as well.
func.func @silu2_ref(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %a = mk.silu %x : tensor<4x8xf32>
  // expected-note @below {{evaluation stopped here}}
  %b = mk.silu %a : tensor<4x8xf32>
  return %b : tensor<4x8xf32>
}
// expected-warning @below {{equivalence to @silu2_ref unknown: in @silu2_ref: exp of a value}}
func.func @silu2(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @silu2_ref} {
  %a = mk.silu %x : tensor<4x8xf32>
  %b = mk.silu %a : tensor<4x8xf32>
  return %b : tensor<4x8xf32>
}

// Division by a value that is zero in the field (x - x).
func.func @divzero_ref(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  return %x : tensor<4x8xf32>
}
// expected-warning @below {{equivalence to @divzero_ref unknown: in @divzero: division by a value that is zero in the field}}
func.func @divzero(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @divzero_ref} {
  %z = mk.sub %x, %x : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  // expected-note @below {{evaluation stopped here}}
  %d = mk.div %x, %z : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  return %d : tensor<4x8xf32>
}

// reciprocal of a value that is zero in the field (x - x): the field inverse
// has no value, as for a division.
func.func @recipzero_ref(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  return %x : tensor<4x8xf32>
}
// expected-warning @below {{equivalence to @recipzero_ref unknown: in @recipzero: division by a value that is zero in the field}}
func.func @recipzero(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @recipzero_ref} {
  %z = mk.sub %x, %x : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  // expected-note @below {{evaluation stopped here}}
  %r = mk.reciprocal %z : tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
