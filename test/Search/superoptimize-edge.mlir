// Edge cases of the search: rank-1 and rank-4 tensors, dims of size 1 only,
// bf16 and f32, two results, a result returned twice, scalar-parameter ops
// and max reductions, a shared-memory limit on the function, a quoted name,
// one operand used twice. Every function gets a verified program, which the
// equivalence checker confirms against the kept input.
//
// RUN: mirage-opt --mirage-superoptimize="keep-reference=1" %s -o %t 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: mirage-opt --mirage-check-equivalence %t -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV

// REMARK-COUNT-9: remark: superoptimized:
// REMARK-NOT: not superoptimized
// EQUIV: remark: equivalent to @rank1_reference
// EQUIV: remark: equivalent to @ones_reference
// EQUIV: remark: equivalent to @two_outputs_reference
// EQUIV: remark: equivalent to @same_twice_reference
// EQUIV: remark: equivalent to @scalars_reference
// EQUIV: remark: equivalent to @rank4_reference
// EQUIV: remark: equivalent to @small_smem_reference
// EQUIV: remark: equivalent to @quoted-name_reference
// EQUIV: remark: equivalent to @twice_reference
// EQUIV-NOT: error
func.func @rank1(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %a = mk.add %x, %y : tensor<64xf32>, tensor<64xf32> -> tensor<64xf32>
  %e = mk.exp %a : tensor<64xf32>
  return %e : tensor<64xf32>
}
func.func @ones(%x: tensor<1x1xf16>, %y: tensor<1x1xf16>) -> tensor<1x1xf16> {
  %m = mk.matmul %x, %y : tensor<1x1xf16>, tensor<1x1xf16> -> tensor<1x1xf16>
  return %m : tensor<1x1xf16>
}
func.func @two_outputs(%x: tensor<8x64xbf16>, %w: tensor<64x32xbf16>) -> (tensor<8x32xbf16>, tensor<8x1xbf16>) {
  %m = mk.matmul %x, %w : tensor<8x64xbf16>, tensor<64x32xbf16> -> tensor<8x32xbf16>
  %s = mk.reduce_sum %m dim = 1 : tensor<8x32xbf16> -> tensor<8x1xbf16>
  return %m, %s : tensor<8x32xbf16>, tensor<8x1xbf16>
}
func.func @same_twice(%x: tensor<8x64xf32>) -> (tensor<8x64xf32>, tensor<8x64xf32>) {
  %e = mk.exp %x : tensor<8x64xf32>
  return %e, %e : tensor<8x64xf32>, tensor<8x64xf32>
}
func.func @scalars(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %a = mk.mul_scalar %x, 2.5 : tensor<8x64xf32>
  %b = mk.add_scalar %a, -1.0 : tensor<8x64xf32>
  %c = mk.clamp %b min = -1.0 max = 1.0 : tensor<8x64xf32>
  %d = mk.reduce_max %c dim = 1 : tensor<8x64xf32> -> tensor<8x1xf32>
  %e = mk.sub %c, %d : tensor<8x64xf32>, tensor<8x1xf32> -> tensor<8x64xf32>
  return %e : tensor<8x64xf32>
}
func.func @rank4(%x: tensor<2x2x4x8xf32>, %y: tensor<2x2x8x4xf32>) -> tensor<2x2x4x4xf32> {
  %m = mk.matmul %x, %y : tensor<2x2x4x8xf32>, tensor<2x2x8x4xf32> -> tensor<2x2x4x4xf32>
  return %m : tensor<2x2x4x4xf32>
}

// A shared-memory limit on the function (not the module) bounds the tiles.
func.func @small_smem(%x: tensor<64x256xf16>, %y: tensor<64x256xf16>) -> tensor<64x256xf16> attributes {mk.smem_limit = 64 : i64} {
  %e = mk.exp %x : tensor<64x256xf16>
  %s = mk.mul %e, %y : tensor<64x256xf16>, tensor<64x256xf16> -> tensor<64x256xf16>
  return %s : tensor<64x256xf16>
}

// A name that needs quoting.
func.func @"quoted-name"(%x: tensor<64x256xf32>, %y: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %e = mk.exp %x : tensor<64x256xf32>
  %s = mk.mul %e, %y : tensor<64x256xf32>, tensor<64x256xf32> -> tensor<64x256xf32>
  return %s : tensor<64x256xf32>
}

// One operand twice.
func.func @twice(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %a = mk.add %x, %x : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  %b = mk.mul %a, %y : tensor<8x16xf32>, tensor<8x16xf32> -> tensor<8x16xf32>
  return %b : tensor<8x16xf32>
}
