// --mirage-check-equivalence reports each candidate below equivalent to its
// reference.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

// relu and clamp are idempotent and commute with a transpose (compared by
// structure: the field max is a random total order, for which these
// identities hold too).
func.func @relu2_ref(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = mk.relu %x : tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
// expected-remark @below {{equivalent to @relu2_ref}}
func.func @relu2(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @relu2_ref} {
  %r = mk.relu %x : tensor<4x8xf32>
  %s = mk.relu %r : tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

func.func @clamp2_ref(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c = mk.clamp %x min = -1.0 max = 1.0 : tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}
// expected-remark @below {{equivalent to @clamp2_ref}}
func.func @clamp2(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @clamp2_ref} {
  %c = mk.clamp %x min = -1.0 max = 1.0 : tensor<4x8xf32>
  %d = mk.clamp %c min = -1.0 max = 1.0 : tensor<4x8xf32>
  return %d : tensor<4x8xf32>
}

func.func @relut_ref(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %r = mk.relu %x : tensor<4x8xf32>
  %t = mk.transpose %r perm = [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  return %t : tensor<8x4xf32>
}
// expected-remark @below {{equivalent to @relut_ref}}
func.func @relut(%x: tensor<4x8xf32>) -> tensor<8x4xf32> attributes {mk.reference = @relut_ref} {
  %t = mk.transpose %x perm = [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  %r = mk.relu %t : tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}
