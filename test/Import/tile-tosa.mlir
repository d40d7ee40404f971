// RUN: mirage-opt --mirage-import %s 2>/dev/null | FileCheck %s
// RUN: mirage-opt --mirage-import %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: mirage-run --import-check %s | FileCheck %s --check-prefix=DIFF

// tosa.tile repeats a tensor along dims: exactly mk.concat of that many
// copies along each repeated dim. Size-1 dims that are not repeated carry
// nothing and are dropped, so repeat_kv's rank-5 form (reshape to insert the
// repeat dim, tile, reshape merging it into the heads) fits mk's rank 4.

// DIFF: PASS @tile_2d
// DIFF: PASS @repeat_kv
// The rank-5 tiles stay outside mk; upstream runs them in the check.
// DIFF: @tile_rank5_wide: upstream lowering vs import (0 mk ops, 0 outlined calls; 1 ops left outside, run upstream in 1 segments)
// DIFF-NEXT: PASS @tile_rank5_wide
// DIFF: @tile_rank5_used: upstream lowering vs import (0 mk ops, 0 outlined calls; 3 ops left outside, run upstream in 1 segments)
// DIFF-NEXT: PASS @tile_rank5_used
// DIFF: 4 passed, 0 failed, 0 not checked

// CHECK-LABEL: func.func @tile_2d(
// CHECK-NEXT: %[[E:.*]] = mk.exp %arg0 : tensor<4x8xf32>
// CHECK-NEXT: %[[C1:.*]] = mk.concat %[[E]], %[[E]], %[[E]] dim = 0 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32> -> tensor<12x8xf32>
// CHECK-NEXT: %[[C2:.*]] = mk.concat %[[C1]], %[[C1]] dim = 1 : tensor<12x8xf32>, tensor<12x8xf32> -> tensor<12x16xf32>
// CHECK-NEXT: return %[[C2]]
func.func @tile_2d(%x: tensor<4x8xf32>) -> tensor<12x16xf32> {
  %e = tosa.exp %x : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = tosa.const_shape {values = dense<[3, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %t = tosa.tile %e, %m : (tensor<4x8xf32>, !tosa.shape<2>) -> tensor<12x16xf32>
  return %t : tensor<12x16xf32>
}

// K of 2 heads repeated for 4 query heads, then q k^T.
// CHECK-LABEL: func.func @repeat_kv(
// CHECK: %[[K1:.*]] = mk.reshape %arg1 : tensor<1x2x8x16xf32> -> tensor<2x1x8x16xf32>
// CHECK-NEXT: %[[KR:.*]] = mk.concat %[[K1]], %[[K1]] dim = 1 : tensor<2x1x8x16xf32>, tensor<2x1x8x16xf32> -> tensor<2x2x8x16xf32>
// CHECK-NEXT: %[[K3:.*]] = mk.reshape %[[KR]] : tensor<2x2x8x16xf32> -> tensor<4x8x16xf32>
// CHECK-NEXT: %[[KT:.*]] = mk.transpose %[[K3]] perm = [0, 2, 1]
// CHECK-NEXT: mk.matmul %arg0, %[[KT]]
func.func @repeat_kv(%q: tensor<4x8x16xf32>, %k: tensor<1x2x8x16xf32>) -> tensor<4x8x8xf32> {
  %s5 = tosa.const_shape {values = dense<[1, 2, 1, 8, 16]> : tensor<5xindex>} : () -> !tosa.shape<5>
  %k5 = tosa.reshape %k, %s5 : (tensor<1x2x8x16xf32>, !tosa.shape<5>) -> tensor<1x2x1x8x16xf32>
  %m = tosa.const_shape {values = dense<[1, 1, 2, 1, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
  %kt = tosa.tile %k5, %m : (tensor<1x2x1x8x16xf32>, !tosa.shape<5>) -> tensor<1x2x2x8x16xf32>
  %s4 = tosa.const_shape {values = dense<[1, 4, 8, 16]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %k4 = tosa.reshape %kt, %s4 : (tensor<1x2x2x8x16xf32>, !tosa.shape<4>) -> tensor<1x4x8x16xf32>
  %s3 = tosa.const_shape {values = dense<[4, 8, 16]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %k3 = tosa.reshape %k4, %s3 : (tensor<1x4x8x16xf32>, !tosa.shape<3>) -> tensor<4x8x16xf32>
  %perm = tosa.transpose %k3 {perms = array<i32: 0, 2, 1>} : (tensor<4x8x16xf32>) -> tensor<4x16x8xf32>
  %zp = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
  %s = tosa.matmul %q, %perm, %zp, %zp : (tensor<4x8x16xf32>, tensor<4x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x8x8xf32>
  return %s : tensor<4x8x8xf32>
}

// Five dims of size > 1 do not fit mk: the tile stays, with a remark.
// REMARK: remark: mirage-import: left outside: tosa.tile repeats a tensor of more than 4 dims of size > 1
// CHECK-LABEL: func.func @tile_rank5_wide(
// CHECK: tosa.tile
func.func @tile_rank5_wide(%x: tensor<2x2x2x2x2xf32>) -> tensor<2x2x4x2x2xf32> {
  %m = tosa.const_shape {values = dense<[1, 1, 2, 1, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
  %t = tosa.tile %x, %m : (tensor<2x2x2x2x2xf32>, !tosa.shape<5>) -> tensor<2x2x4x2x2xf32>
  return %t : tensor<2x2x4x2x2xf32>
}

// A rank-5 tile read by something other than a reshape stays, with a remark.
// REMARK: remark: mirage-import: left outside: tosa.tile to a tensor mk cannot hold, not only read through reshapes to ones it can
// CHECK-LABEL: func.func @tile_rank5_used(
// CHECK: tosa.tile
// CHECK: tosa.exp
func.func @tile_rank5_used(%k: tensor<1x2x8x16xf32>) -> tensor<1x2x2x8x16xf32> {
  %s5 = tosa.const_shape {values = dense<[1, 2, 1, 8, 16]> : tensor<5xindex>} : () -> !tosa.shape<5>
  %k5 = tosa.reshape %k, %s5 : (tensor<1x2x8x16xf32>, !tosa.shape<5>) -> tensor<1x2x1x8x16xf32>
  %m = tosa.const_shape {values = dense<[1, 1, 2, 1, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
  %kt = tosa.tile %k5, %m : (tensor<1x2x1x8x16xf32>, !tosa.shape<5>) -> tensor<1x2x2x8x16xf32>
  %e = tosa.exp %kt : (tensor<1x2x2x8x16xf32>) -> tensor<1x2x2x8x16xf32>
  return %e : tensor<1x2x2x8x16xf32>
}
