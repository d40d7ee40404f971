// RUN: mirage-opt --mirage-import %s | FileCheck %s
// RUN: mirage-run --import-check %s | FileCheck %s --check-prefix=DIFF

// Casts at the edges of a generic's body (bf16/f16 storage with f32
// compute): the body between them is imported in f32 and each cast is an
// mk.convert, so the function imports whole (mixed precision inside a run:
// mixed-precision.mlir).
// DIFF: PASS @ext_exp
// DIFF: PASS @bf16_storage
// DIFF: 2 passed, 0 failed, 0 not checked

#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @ext_exp(
// CHECK-NEXT: %[[C:.*]] = mk.convert %arg0 : tensor<4x8xbf16> -> tensor<4x8xf32>
// CHECK-NEXT: %[[R:.*]] = mk.exp %[[C]] : tensor<4x8xf32>
// CHECK-NEXT: return %[[R]]
func.func @ext_exp(%x: tensor<4x8xbf16>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
         ins(%x : tensor<4x8xbf16>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: bf16, %out: f32):
    %a = arith.extf %in : bf16 to f32
    %b = math.exp %a : f32
    linalg.yield %b : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
// CHECK-LABEL: func.func @bf16_storage(
// CHECK-DAG: %[[B:.*]] = mk.convert %arg1 : tensor<8xbf16> -> tensor<8xf32>
// CHECK-DAG: %[[X:.*]] = mk.convert %arg0 : tensor<4x8xbf16> -> tensor<4x8xf32>
// CHECK: mk.add %[[X]], {{.*}} -> tensor<4x8xf32>
// CHECK-NEXT: %[[H:.*]] = mk.tanh {{.*}} : tensor<4x8xf32>
// CHECK-NEXT: %[[T:.*]] = mk.convert %[[H]] : tensor<4x8xf32> -> tensor<4x8xbf16>
// CHECK-NEXT: return %[[T]]
func.func @bf16_storage(%x: tensor<4x8xbf16>, %bias: tensor<8xbf16>) -> tensor<4x8xbf16> {
  %e = tensor.empty() : tensor<4x8xbf16>
  %r = linalg.generic {indexing_maps = [#id, affine_map<(d0, d1) -> (d1)>, #id], iterator_types = ["parallel", "parallel"]}
         ins(%x, %bias : tensor<4x8xbf16>, tensor<8xbf16>) outs(%e : tensor<4x8xbf16>) {
  ^bb0(%in: bf16, %b: bf16, %out: bf16):
    %a = arith.extf %in : bf16 to f32
    %c = arith.extf %b : bf16 to f32
    %s = arith.addf %a, %c : f32
    %t = math.tanh %s : f32
    %u = arith.truncf %t : f32 to bf16
    linalg.yield %u : bf16
  } -> tensor<4x8xbf16>
  return %r : tensor<4x8xbf16>
}
