// Bad inputs to --mirage-check-equivalence: each gets a diagnostic, never a
// crash or a verdict.
// RUN: mirage-opt --mirage-check-equivalence %s -split-input-file -verify-diagnostics -o /dev/null

// An op the evaluator does not know.
func.func @ref(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
// expected-error @below {{cannot check equivalence to @ref: in @cand: unsupported op 'arith.addf': the evaluator knows only mk, mb and mt ops}}
func.func @cand(%x: tensor<4xf32>) -> tensor<4xf32> attributes {mk.reference = @ref} {
  // expected-note @below {{evaluation stopped here}}
  %y = arith.addf %x, %x : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// Argument shapes differ between the two functions.
func.func @ref(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  return %x : tensor<4x8xf32>
}
// expected-error @below {{cannot check equivalence to @ref: signatures differ: argument #0 is tensor<4x8xf32> in @ref but tensor<8x4xf32> in @cand}}
func.func @cand(%x: tensor<8x4xf32>) -> tensor<4x8xf32> attributes {mk.reference = @ref} {
  %t = mk.transpose %x perm = [1, 0] : tensor<8x4xf32> -> tensor<4x8xf32>
  return %t : tensor<4x8xf32>
}

// -----

// Result counts differ.
func.func @ref(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  return %x, %x : tensor<4xf32>, tensor<4xf32>
}
// expected-error @below {{cannot check equivalence to @ref: signatures differ: @ref returns 2 values but @cand returns 1}}
func.func @cand(%x: tensor<4xf32>) -> tensor<4xf32> attributes {mk.reference = @ref} {
  return %x : tensor<4xf32>
}

// -----

// The referenced function does not exist.
// expected-error @below {{reference function @missing does not exist}}
func.func @cand(%x: tensor<4xf32>) -> tensor<4xf32> attributes {mk.reference = @missing} {
  return %x : tensor<4xf32>
}

// -----

// The reference is a declaration without a body.
func.func private @decl(%x: tensor<4xf32>) -> tensor<4xf32>
// expected-error @below {{cannot check equivalence to @decl: @decl has no body}}
func.func @cand(%x: tensor<4xf32>) -> tensor<4xf32> attributes {mk.reference = @decl} {
  return %x : tensor<4xf32>
}

// -----

// Dynamic dims without the sizes to check at (sizes=..., docs/dynamic.md).
func.func @ref(%x: tensor<?xf32>) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}
// expected-error @below {{has dynamic dims: give the sizes to check at with sizes=name=v1:v2:... (docs/dynamic.md)}}
func.func @cand(%x: tensor<?xf32>) -> tensor<?xf32> attributes {mk.reference = @ref} {
  return %x : tensor<?xf32>
}

// -----

// An element count that overflows int64 would make every tensor empty and
// every comparison vacuous: rejected before evaluation.
func.func @ref(%x: tensor<4294967296x4294967296xf32>) -> tensor<4294967296x4294967296xf32> {
  return %x : tensor<4294967296x4294967296xf32>
}
// expected-error @below {{cannot check equivalence to @ref: @ref: tensor type tensor<4294967296x4294967296xf32> has more elements than the evaluator handles (268435456)}}
func.func @cand(%x: tensor<4294967296x4294967296xf32>) -> tensor<4294967296x4294967296xf32> attributes {mk.reference = @ref} {
  %y = mk.mul_scalar %x, 2.0 : tensor<4294967296x4294967296xf32>
  return %y : tensor<4294967296x4294967296xf32>
}

// -----

// inf and NaN have no field image.
func.func @ref(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = mk.mul_scalar %x, 0.0 : tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}
// expected-error @below {{cannot check equivalence to @ref: @inf: 'mk.mul_scalar' has a non-finite constant, which has no field image}}
func.func @inf(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @ref} {
  %s = mk.mul_scalar %x, 0x7FF0000000000000 : tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}
// expected-error @below {{cannot check equivalence to @ref: @nan: 'mk.mul_scalar' has a non-finite constant, which has no field image}}
func.func @nan(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @ref} {
  %s = mk.mul_scalar %x, 0x7FF8000000000000 : tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}
