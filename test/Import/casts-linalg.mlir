// RUN: mirage-opt --mirage-import %s | FileCheck %s
// RUN: mirage-run --import-check %s | FileCheck %s --check-prefix=DIFF

// Casts at the edges of a generic's body (bf16/f16 storage with f32
// compute, issue 30 item 2's copies that change the element type): mk ops
// have one element type on both sides and no cast op, so the casts stay
// outside as tensor casts, before the mk ops for the inputs and after them
// for the result, and the body between them is imported. A cast of an
// argument or of a result then no longer cuts the mk function; a cast
// between two mk ops still does (mixed precision inside a run is item 3).
// The check runs the casts left outside upstream and the mk code in the
// interpreter.
// DIFF: PASS @ext_exp
// DIFF: PASS @bf16_storage
// DIFF: 2 passed, 0 failed, 0 not checked

#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @ext_exp(
// CHECK-NEXT: %[[C:.*]] = arith.extf %arg0 : tensor<4x8xbf16> to tensor<4x8xf32>
// CHECK-NEXT: %[[R:.*]] = call @ext_exp_mk0(%[[C]])
// CHECK-NEXT: return %[[R]]
// CHECK: func.func private @ext_exp_mk0(
// CHECK-NEXT: mk.exp %arg0 : tensor<4x8xf32>
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
// CHECK-DAG: %[[B:.*]] = arith.extf %arg1 : tensor<8xbf16> to tensor<8xf32>
// CHECK-DAG: %[[X:.*]] = arith.extf %arg0 : tensor<4x8xbf16> to tensor<4x8xf32>
// CHECK: %[[R:.*]] = call @bf16_storage_mk0(%[[B]], %[[X]])
// CHECK-NEXT: %[[T:.*]] = arith.truncf %[[R]] : tensor<4x8xf32> to tensor<4x8xbf16>
// CHECK-NEXT: return %[[T]]
// CHECK: func.func private @bf16_storage_mk0(
// CHECK: mk.add {{.*}} -> tensor<4x8xf32>
// CHECK-NEXT: mk.tanh {{.*}} : tensor<4x8xf32>
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
