// RUN: mirage-opt --mirage-import %s | FileCheck %s
// RUN: mirage-run --import-check %s | FileCheck %s --check-prefix=DIFF

// Selects of a compare against a constant, and max/min against a constant
// (issue 30, item 4, the part existing mk ops express exactly): ReLU as
// select(x > 0, x, 0) in either orientation, with the constant on either
// side of the compare, ordered or unordered, strict or not, is mk.relu;
// max/min against another constant is mk.clamp with the largest finite
// value of the element type as the other bound (mk's constants are finite:
// it differs from max/min only for an infinite input);
// torch-mlir's clamp (two selects) and relu6 (max then min) are one
// mk.clamp. min of two tensors is -max(-x, -y).
// DIFF: PASS @relu_select
// DIFF: PASS @relu_select_reversed
// DIFF: PASS @clamp_torch
// DIFF: PASS @relu6_max_min
// DIFF: PASS @min_tensors
// DIFF: PASS @tosa_relu_select
// DIFF: PASS @tosa_clamp
// DIFF: PASS @tosa_relu_clamp
// DIFF: PASS @tosa_min_max_const
// DIFF: PASS @tosa_min_tensors
// DIFF: 10 passed, 0 failed, 0 not checked

#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @relu_select(
// CHECK-NEXT: %[[R:.*]] = mk.relu %arg0
// CHECK-NEXT: return %[[R]]
func.func @relu_select(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
         ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %zero = arith.constant 0.0 : f32
    %p = arith.cmpf ugt, %in, %zero : f32
    %s = arith.select %p, %in, %zero : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// 0 > x ? 0 : x, and (x - 1) < 0.5 ? (x - 1) : 0.5 = min(x - 1, 0.5).
// CHECK-LABEL: func.func @relu_select_reversed(
// CHECK-NEXT: %[[R:.*]] = mk.relu %arg0
// CHECK-NEXT: %[[S:.*]] = mk.add_scalar %[[R]], -1.000000e+00
// CHECK-NEXT: %[[C:.*]] = mk.clamp %[[S]] min = -3.4028234663852886E+38 max = 5.000000e-01
// CHECK-NEXT: return %[[C]]
func.func @relu_select_reversed(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
         ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %half = arith.constant 0.5 : f32
    %p = arith.cmpf ogt, %zero, %in : f32
    %s = arith.select %p, %zero, %in : f32
    %t = arith.subf %s, %one : f32
    %q = arith.cmpf olt, %t, %half : f32
    %u = arith.select %q, %t, %half : f32
    linalg.yield %u : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// torch-mlir's aten.clamp: select(x <u lo, lo, x), then select(y >u hi, hi, y).
// CHECK-LABEL: func.func @clamp_torch(
// CHECK-NEXT: %[[C:.*]] = mk.clamp %arg0 min = -5.000000e-01 max = 5.000000e-01
// CHECK-NEXT: return %[[C]]
func.func @clamp_torch(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
         ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %lo = arith.constant -0.5 : f32
    %hi = arith.constant 0.5 : f32
    %p = arith.cmpf ult, %in, %lo : f32
    %s = arith.select %p, %lo, %in : f32
    %q = arith.cmpf ugt, %s, %hi : f32
    %t = arith.select %q, %hi, %s : f32
    linalg.yield %t : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// relu6 as linalg.max and linalg.min against splat constants.
// CHECK-LABEL: func.func @relu6_max_min(
// CHECK-NEXT: %[[C:.*]] = mk.clamp %arg0 min = 0.000000e+00 max = 6.000000e+00
// CHECK-NEXT: return %[[C]]
func.func @relu6_max_min(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant dense<0.0> : tensor<4x8xf32>
  %six = arith.constant dense<6.0> : tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %m = linalg.max ins(%x, %zero : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %n = linalg.min ins(%m, %six : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %n : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @min_tensors(
// CHECK-NEXT: %[[A:.*]] = mk.neg %arg0
// CHECK-NEXT: %[[B:.*]] = mk.neg %arg1
// CHECK-NEXT: %[[M:.*]] = mk.max %[[A]], %[[B]]
// CHECK-NEXT: %[[N:.*]] = mk.neg %[[M]]
// CHECK-NEXT: return %[[N]]
func.func @min_tensors(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
         ins(%x, %y : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %m = arith.minimumf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @tosa_relu_select(
// CHECK-NEXT: %[[R:.*]] = mk.relu %arg0
// CHECK-NEXT: return %[[R]]
func.func @tosa_relu_select(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<2x8xf32>}> : () -> tensor<2x8xf32>
  %p = tosa.greater %x, %zero : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xi1>
  %s = tosa.select %p, %x, %zero : (tensor<2x8xi1>, tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  return %s : tensor<2x8xf32>
}

// TFLite's relu6 and a clamp to the largest float as tosa.clamp (both
// users of the first clamp keep it apart).
// CHECK-LABEL: func.func @tosa_clamp(
// CHECK-NEXT: %[[A:.*]] = mk.clamp %arg0 min = 0.000000e+00 max = 6.000000e+00
// CHECK-NEXT: %[[E:.*]] = mk.exp %[[A]]
// CHECK-NEXT: %[[B:.*]] = mk.clamp %[[A]] min = -1.000000e+00 max = 3.4028234663852886E+38
// CHECK-NEXT: %[[S:.*]] = mk.add %[[B]], %[[E]]
// CHECK-NEXT: return %[[S]]
func.func @tosa_clamp(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %a = tosa.clamp %x {min_val = 0.0 : f32, max_val = 6.0 : f32} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %e = tosa.exp %a : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %b = tosa.clamp %a {min_val = -1.0 : f32, max_val = 3.40282347e+38 : f32} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %s = tosa.add %b, %e : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  return %s : tensor<2x8xf32>
}

// TFLite's ReLU: a clamp to [0, largest float].
// CHECK-LABEL: func.func @tosa_relu_clamp(
// CHECK-NEXT: %[[R:.*]] = mk.relu %arg0
// CHECK-NEXT: return %[[R]]
func.func @tosa_relu_clamp(%x: tensor<2x8xf16>) -> tensor<2x8xf16> {
  %a = tosa.clamp %x {min_val = 0.0 : f16, max_val = 65504.0 : f16} : (tensor<2x8xf16>) -> tensor<2x8xf16>
  return %a : tensor<2x8xf16>
}

// CHECK-LABEL: func.func @tosa_min_max_const(
// CHECK-NEXT: %[[C:.*]] = mk.clamp %arg0 min = -2.000000e+00 max = 2.000000e+00
// CHECK-NEXT: return %[[C]]
func.func @tosa_min_max_const(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %lo = "tosa.const"() <{values = dense<-2.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %hi = "tosa.const"() <{values = dense<2.0> : tensor<2x8xf32>}> : () -> tensor<2x8xf32>
  %a = tosa.maximum %x, %lo : (tensor<2x8xf32>, tensor<1x1xf32>) -> tensor<2x8xf32>
  %b = tosa.minimum %hi, %a : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  return %b : tensor<2x8xf32>
}

// CHECK-LABEL: func.func @tosa_min_tensors(
// CHECK-NEXT: %[[A:.*]] = mk.neg %arg0
// CHECK-NEXT: %[[B:.*]] = mk.neg %arg1
// CHECK-NEXT: %[[M:.*]] = mk.max %[[A]], %[[B]]
// CHECK-NEXT: %[[N:.*]] = mk.neg %[[M]]
// CHECK-NEXT: return %[[N]]
func.func @tosa_min_tensors(%x: tensor<2x8xf32>, %y: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %m = tosa.minimum %x, %y : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  return %m : tensor<2x8xf32>
}
