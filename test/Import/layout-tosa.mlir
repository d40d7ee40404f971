// RUN: mirage-opt --mirage-import %s | FileCheck %s
// RUN: mirage-opt --mirage-import %s | mirage-opt --mirage-check-equivalence -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQ
// RUN: mirage-run --import-check %s | FileCheck %s --check-prefix=DIFF

// The differential check (docs/import.md): each function written in
// linalg/tosa, run by upstream MLIR's CPU lowering in f32, against the f64
// interpreter of its import, on the same seeded inputs.
// DIFF: PASS @qkv
// DIFF: 1 passed, 0 failed, 0 not checked

// tosa.concat (QKV weights packed along the output dim) becomes mk.concat.

// EQ: remark: equivalent to @qkv_ref
func.func @qkv_ref(%x: tensor<1x4x64xf32>, %wq: tensor<1x64x16xf32>, %wk: tensor<1x64x16xf32>) -> tensor<1x4x32xf32> {
  %w = mk.concat %wq, %wk dim = 2 : tensor<1x64x16xf32>, tensor<1x64x16xf32> -> tensor<1x64x32xf32>
  %y = mk.matmul %x, %w : tensor<1x4x64xf32>, tensor<1x64x32xf32> -> tensor<1x4x32xf32>
  return %y : tensor<1x4x32xf32>
}
// The batch of 1 is dropped (views of the arguments and the result).
// CHECK-LABEL: func.func @qkv(
// CHECK-NEXT: %[[Q:.*]] = mk.reshape %arg1 : tensor<1x64x16xf32> -> tensor<64x16xf32>
// CHECK-NEXT: %[[K:.*]] = mk.reshape %arg2 : tensor<1x64x16xf32> -> tensor<64x16xf32>
// CHECK-NEXT: %[[W:.*]] = mk.concat %[[Q]], %[[K]] dim = 1
// CHECK-NEXT: %[[X:.*]] = mk.reshape %arg0
// CHECK-NEXT: %[[M:.*]] = mk.matmul %[[X]], %[[W]]
// CHECK-NEXT: mk.reshape %[[M]] : tensor<4x32xf32> -> tensor<1x4x32xf32>
// CHECK-NEXT: return
func.func @qkv(%x: tensor<1x4x64xf32>, %wq: tensor<1x64x16xf32>, %wk: tensor<1x64x16xf32>) -> tensor<1x4x32xf32> attributes {mk.reference = @qkv_ref} {
  %w = tosa.concat %wq, %wk {axis = 2 : i32} : (tensor<1x64x16xf32>, tensor<1x64x16xf32>) -> tensor<1x64x32xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %y = tosa.matmul %x, %w, %zp, %zp : (tensor<1x4x64xf32>, tensor<1x64x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x32xf32>
  return %y : tensor<1x4x32xf32>
}
