// RUN: mirage-opt --mirage-import %s | FileCheck %s
// RUN: mirage-run --import-check %s | FileCheck %s --check-prefix=DIFF

// Selects of a compare against a constant, and max/min against a constant
// (issue 30, item 4, the part existing mk ops express exactly): ReLU as
// select(x > 0, x, 0) in either orientation, with the constant on either
// side of the compare, ordered or unordered, strict or not, is mk.relu;
// max/min against another constant is mk.clamp with an infinite other
// bound (no bound: exact for an infinite input too);
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
// DIFF: PASS @mlp3
// DIFF: 11 passed, 0 failed, 0 not checked

#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @relu_select(
// CHECK-NEXT: %[[R:.*]] = mk.relu %arg0
// CHECK-NEXT: return %[[R]]
// torch-mlir's aten.relu, the constant defined outside the body.
func.func @relu_select(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
         ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
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
// CHECK-NEXT: %[[C:.*]] = mk.clamp %[[S]] min = 0xFFF0000000000000 max = 5.000000e-01
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

// TFLite's ReLU, a clamp to [0, largest float], stays a clamp: it maps
// +inf to the largest float, where mk.relu keeps it.
// CHECK-LABEL: func.func @tosa_relu_clamp(
// CHECK-NEXT: %[[R:.*]] = mk.clamp %arg0 min = 0.000000e+00 max = 6.550400e+04
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

// TorchDynamo's 3-layer MLP (Linear + bias + ReLU, as torch-mlir lowers it:
// the weight transposed by linalg.transpose, the bias broadcast by its map,
// ReLU as a select): one mk function of 3 matmuls, 3 adds and 3 relus.
#bias = affine_map<(d0, d1) -> (d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func.func @mlp3(
// CHECK-NOT: linalg.
// CHECK-COUNT-3: mk.relu
// CHECK-NOT: call
// CHECK: return
func.func @mlp3(%x: tensor<4x16xf32>, %w1: tensor<32x16xf32>, %b1: tensor<32xf32>, %w2: tensor<32x32xf32>, %b2: tensor<32xf32>, %w3: tensor<8x32xf32>, %b3: tensor<8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %et1 = tensor.empty() : tensor<16x32xf32>
  %t1 = linalg.transpose ins(%w1 : tensor<32x16xf32>) outs(%et1 : tensor<16x32xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<4x32xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %m1 = linalg.matmul ins(%x, %t1 : tensor<4x16xf32>, tensor<16x32xf32>) outs(%f1 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %a1 = linalg.generic {indexing_maps = [#id, #bias, #id], iterator_types = ["parallel", "parallel"]}
         ins(%m1, %b1 : tensor<4x32xf32>, tensor<32xf32>) outs(%e1 : tensor<4x32xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.addf %in, %in_0 : f32
    linalg.yield %0 : f32
  } -> tensor<4x32xf32>
  %r1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
         ins(%a1 : tensor<4x32xf32>) outs(%e1 : tensor<4x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.cmpf ugt, %in, %zero : f32
    %1 = arith.select %0, %in, %zero : f32
    linalg.yield %1 : f32
  } -> tensor<4x32xf32>
  %et2 = tensor.empty() : tensor<32x32xf32>
  %t2 = linalg.transpose ins(%w2 : tensor<32x32xf32>) outs(%et2 : tensor<32x32xf32>) permutation = [1, 0]
  %f2 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %m2 = linalg.matmul ins(%r1, %t2 : tensor<4x32xf32>, tensor<32x32xf32>) outs(%f2 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %a2 = linalg.generic {indexing_maps = [#id, #bias, #id], iterator_types = ["parallel", "parallel"]}
         ins(%m2, %b2 : tensor<4x32xf32>, tensor<32xf32>) outs(%e1 : tensor<4x32xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.addf %in, %in_0 : f32
    linalg.yield %0 : f32
  } -> tensor<4x32xf32>
  %r2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
         ins(%a2 : tensor<4x32xf32>) outs(%e1 : tensor<4x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.cmpf ugt, %in, %zero : f32
    %1 = arith.select %0, %in, %zero : f32
    linalg.yield %1 : f32
  } -> tensor<4x32xf32>
  %et3 = tensor.empty() : tensor<32x8xf32>
  %t3 = linalg.transpose ins(%w3 : tensor<8x32xf32>) outs(%et3 : tensor<32x8xf32>) permutation = [1, 0]
  %e3 = tensor.empty() : tensor<4x8xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m3 = linalg.matmul ins(%r2, %t3 : tensor<4x32xf32>, tensor<32x8xf32>) outs(%f3 : tensor<4x8xf32>) -> tensor<4x8xf32>
  %a3 = linalg.generic {indexing_maps = [#id, #bias, #id], iterator_types = ["parallel", "parallel"]}
         ins(%m3, %b3 : tensor<4x8xf32>, tensor<8xf32>) outs(%e3 : tensor<4x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %0 = arith.addf %in, %in_0 : f32
    linalg.yield %0 : f32
  } -> tensor<4x8xf32>
  %r3 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
         ins(%a3 : tensor<4x8xf32>) outs(%e3 : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.cmpf ugt, %in, %zero : f32
    %1 = arith.select %0, %in, %zero : f32
    linalg.yield %1 : f32
  } -> tensor<4x8xf32>
  return %r3 : tensor<4x8xf32>
}
