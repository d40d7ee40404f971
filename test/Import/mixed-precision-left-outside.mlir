// RUN: mirage-opt --mirage-import %s -split-input-file -verify-diagnostics | FileCheck %s

// The forms of mixed precision that mk does not hold stay untouched, each
// with a remark (never a crash): a contraction into a narrower type than its
// operands (linalg rounds the operands first), casts to integer or f64 types,
// f64 values that leave the function or reach an op the demotion cannot
// retype, and a body that reads an input both cast and uncast.

// f32 operands, a bf16 result: linalg rounds the operands to bf16 before the
// multiply; mk.matmul computes with the operands as stored.
// CHECK-LABEL: func.func @matmul_narrower_result
// CHECK: linalg.matmul
func.func @matmul_narrower_result(%a: tensor<4x8xf32>, %b: tensor<8x6xf32>, %c: tensor<4x6xbf16>) -> tensor<4x6xbf16> {
  // expected-remark @below {{left outside: mixed element types: the operands are rounded to a narrower result type before the multiply (mk has no such matmul)}}
  %y = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x6xf32>) outs(%c : tensor<4x6xbf16>) -> tensor<4x6xbf16>
  return %y : tensor<4x6xbf16>
}

// -----

// A cast to an integer type (a mask): not a change of float storage type.
// CHECK-LABEL: func.func @tosa_cast_to_int
// CHECK: tosa.cast
func.func @tosa_cast_to_int(%x: tensor<4x8xf32>) -> tensor<4x8xi32> {
  // expected-remark @below {{left outside: tosa.cast: result type is not an f16/bf16/f32 tensor of rank 1-4 without encoding}}
  %c = tosa.cast %x : (tensor<4x8xf32>) -> tensor<4x8xi32>
  return %c : tensor<4x8xi32>
}

// -----

// An f64 result: the f64 values leave the function, so they are not
// demoted to f32, and the cast to f64 stays.
// CHECK-LABEL: func.func @f64_result
// CHECK: linalg.copy
// expected-remark @below {{mirage-import: f64 ops stay in f64 (outside): an f64 argument or result}}
func.func @f64_result(%x: tensor<4x8xf32>) -> tensor<4x8xf64> {
  %e = tensor.empty() : tensor<4x8xf64>
  // expected-remark @below {{left outside: result type is not an f16/bf16/f32 tensor of rank 1-4 without encoding}}
  %c = linalg.copy ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf64>) -> tensor<4x8xf64>
  return %c : tensor<4x8xf64>
}

// -----

// An f64 body converting to an integer: the demotion retypes only float
// arithmetic, so nothing of the function is demoted.
// CHECK-LABEL: func.func @f64_to_int_body
// CHECK: tensor<4x8xf64>
#id = affine_map<(d0, d1) -> (d0, d1)>
// expected-remark @below {{mirage-import: f64 ops stay in f64 (outside): 'arith.fptosi' in a body}}
func.func @f64_to_int_body(%x: tensor<4x8xf32>) -> tensor<4x8xi32> {
  %e = tensor.empty() : tensor<4x8xf64>
  // expected-remark @below {{left outside: result type is not an f16/bf16/f32 tensor of rank 1-4 without encoding}}
  %w = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf64>) {
  ^bb0(%in: f32, %o: f64):
    %v = arith.extf %in : f32 to f64
    linalg.yield %v : f64
  } -> tensor<4x8xf64>
  %ei = tensor.empty() : tensor<4x8xi32>
  // expected-remark @below {{left outside: mixed element types (a cast) have no mk counterpart}}
  %i = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<4x8xf64>) outs(%ei : tensor<4x8xi32>) {
  ^bb0(%in: f64, %o: i32):
    %v = arith.fptosi %in : f64 to i32
    linalg.yield %v : i32
  } -> tensor<4x8xi32>
  return %i : tensor<4x8xi32>
}

// -----

// A body that reads a bf16 input both widened and as it is: the input has
// no single compute type.
// CHECK-LABEL: func.func @cast_and_raw_use
// CHECK: linalg.generic
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @cast_and_raw_use(%x: tensor<4x8xbf16>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  // expected-remark @below {{left outside: mixed element types (a cast) have no mk counterpart}}
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xbf16>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: bf16, %o: f32):
    %a = arith.extf %in : bf16 to f32
    %m = arith.mulf %in, %in : bf16
    %b = arith.extf %m : bf16 to f32
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
