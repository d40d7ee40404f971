// RUN: mirage-opt --mirage-import %s | FileCheck %s
// RUN: mirage-run --import-check %s | FileCheck %s --check-prefix=DIFF

// Named linalg ops of current MLIR (issue 30, item 2): linalg.elementwise
// of every kind with an mk counterpart, linalg.max/min, linalg.powf by a
// splat constant (2, 0.5, -0.5, -1, 1), linalg.copy without a cast, and the
// unary named ops. Each goes through its generic form, so its body imports
// as a generic's does.
// DIFF: PASS @elementwise_binary
// DIFF: PASS @elementwise_unary
// DIFF: PASS @max_min
// DIFF: PASS @powf_splat
// DIFF: PASS @copy_same_type
// DIFF: PASS @unary_named
// DIFF: PASS @reads_output
// DIFF: 7 passed, 0 failed, 0 not checked

// CHECK-LABEL: func.func @elementwise_binary(
// CHECK-NEXT: %[[A:.*]] = mk.add %arg0, %arg1
// CHECK-NEXT: %[[S:.*]] = mk.sub %[[A]], %arg1
// CHECK-NEXT: %[[M:.*]] = mk.mul %[[S]], %arg0
// CHECK-NEXT: %[[D:.*]] = mk.div %[[M]], %arg1
// CHECK-NEXT: %[[X:.*]] = mk.max %[[D]], %arg0
// CHECK-NEXT: %[[N1:.*]] = mk.neg %[[X]]
// CHECK-NEXT: %[[N2:.*]] = mk.neg %arg1
// CHECK-NEXT: %[[Y:.*]] = mk.max %[[N1]], %[[N2]]
// CHECK-NEXT: %[[N:.*]] = mk.neg %[[Y]]
// CHECK-NEXT: %[[E:.*]] = mk.exp %[[N]]
// CHECK-NEXT: %[[P:.*]] = mk.pow %[[E]], %arg1
// CHECK-NEXT: return %[[P]]
func.func @elementwise_binary(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %a = linalg.elementwise kind=#linalg.elementwise_kind<add> ins(%x, %y : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %s = linalg.elementwise kind=#linalg.elementwise_kind<sub> ins(%a, %y : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = linalg.elementwise kind=#linalg.elementwise_kind<mul> ins(%s, %x : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %d = linalg.elementwise kind=#linalg.elementwise_kind<div> ins(%m, %y : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %mx = linalg.elementwise kind=#linalg.elementwise_kind<max_signed> ins(%d, %x : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %mn = linalg.elementwise kind=#linalg.elementwise_kind<min_signed> ins(%mx, %y : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %ex = linalg.elementwise kind=#linalg.elementwise_kind<exp> ins(%mn : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %p = linalg.elementwise kind=#linalg.elementwise_kind<powf> ins(%ex, %y : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %p : tensor<4x8xf32>
}

// |x| is max(x, -x).
// CHECK-LABEL: func.func @elementwise_unary(
// CHECK-NEXT: %[[E:.*]] = mk.exp %arg0
// CHECK-NEXT: %[[Q:.*]] = mk.sqrt %[[E]]
// CHECK-NEXT: %[[R:.*]] = mk.rsqrt %[[Q]]
// CHECK-NEXT: %[[S:.*]] = mk.square %[[R]]
// CHECK-NEXT: %[[T:.*]] = mk.tanh %[[S]]
// CHECK-NEXT: %[[C:.*]] = mk.reciprocal %[[T]]
// CHECK-NEXT: %[[N:.*]] = mk.neg %[[C]]
// CHECK-NEXT: %[[M:.*]] = mk.neg %[[N]]
// CHECK-NEXT: %[[A:.*]] = mk.max %[[N]], %[[M]]
// CHECK-NEXT: return %[[A]]
func.func @elementwise_unary(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.elementwise kind=#linalg.elementwise_kind<exp> ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = linalg.elementwise kind=#linalg.elementwise_kind<sqrt> ins(%0 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = linalg.elementwise kind=#linalg.elementwise_kind<rsqrt> ins(%1 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %3 = linalg.elementwise kind=#linalg.elementwise_kind<square> ins(%2 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %4 = linalg.elementwise kind=#linalg.elementwise_kind<tanh> ins(%3 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %5 = linalg.elementwise kind=#linalg.elementwise_kind<reciprocal> ins(%4 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %6 = linalg.elementwise kind=#linalg.elementwise_kind<negf> ins(%5 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %7 = linalg.elementwise kind=#linalg.elementwise_kind<abs> ins(%6 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %7 : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @max_min(
// CHECK-NEXT: %[[X:.*]] = mk.max %arg0, %arg1
// CHECK-NEXT: %[[A:.*]] = mk.neg %[[X]]
// CHECK-NEXT: %[[B:.*]] = mk.neg %arg0
// CHECK-NEXT: %[[M:.*]] = mk.max %[[A]], %[[B]]
// CHECK-NEXT: %[[N:.*]] = mk.neg %[[M]]
// CHECK-NEXT: return %[[N]]
func.func @max_min(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %a = linalg.max ins(%x, %y : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %b = linalg.min ins(%a, %x : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %b : tensor<4x8xf32>
}

// x^2 (HF's x.pow(2)), x^0.5, x^-0.5, x^-1 and x^1 by splat exponents.
// CHECK-LABEL: func.func @powf_splat(
// CHECK-NEXT: %[[S:.*]] = mk.square %arg0
// CHECK-NEXT: %[[Q:.*]] = mk.sqrt %[[S]]
// CHECK-NEXT: %[[R:.*]] = mk.rsqrt %[[Q]]
// CHECK-NEXT: %[[C:.*]] = mk.reciprocal %[[R]]
// CHECK-NEXT: return %[[C]]
func.func @powf_splat(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %two = arith.constant dense<2.0> : tensor<4x8xf32>
  %half = arith.constant dense<0.5> : tensor<4x8xf32>
  %mhalf = arith.constant dense<-0.5> : tensor<4x8xf32>
  %mone = arith.constant dense<-1.0> : tensor<4x8xf32>
  %c1 = arith.constant 1.0 : f32
  %one = linalg.fill ins(%c1 : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %0 = linalg.powf ins(%x, %two : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = linalg.powf ins(%0, %half : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = linalg.powf ins(%1, %mhalf : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %3 = linalg.elementwise kind=#linalg.elementwise_kind<powf> ins(%2, %mone : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %4 = linalg.powf ins(%3, %one : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %4 : tensor<4x8xf32>
}

// A copy that keeps the element type is its input.
// CHECK-LABEL: func.func @copy_same_type(
// CHECK-NEXT: %[[E:.*]] = mk.exp %arg0
// CHECK-NEXT: return %[[E]]
func.func @copy_same_type(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %c = linalg.copy ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = linalg.exp ins(%c : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @unary_named(
// CHECK-NEXT: %[[R:.*]] = mk.reciprocal %arg0
// CHECK-NEXT: %[[S:.*]] = mk.square %[[R]]
// CHECK-NEXT: %[[T:.*]] = mk.tanh %[[S]]
// CHECK-NEXT: %[[N:.*]] = mk.neg %[[T]]
// CHECK-NEXT: %[[A:.*]] = mk.max %[[T]], %[[N]]
// CHECK-NEXT: return %[[A]]
func.func @unary_named(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.reciprocal ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = linalg.square ins(%0 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = linalg.tanh ins(%1 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %3 = linalg.abs ins(%2 : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %3 : tensor<4x8xf32>
}

// TPP's in-place forms: a bias added into the matmul's result through
// `outs`, and a ReLU with no input but its output. Element-wise, the output
// argument reads the init.
// CHECK-LABEL: func.func @reads_output(
// CHECK-NEXT: %[[M:.*]] = mk.matmul %arg0, %arg1
// CHECK-NEXT: %[[A:.*]] = mk.add %arg2, %[[M]]
// CHECK-NEXT: %[[R:.*]] = mk.relu %[[A]]
// CHECK-NEXT: return %[[R]]
func.func @reads_output(%x: tensor<4x16xf32>, %w: tensor<16x8xf32>, %bias: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = linalg.matmul ins(%x, %w : tensor<4x16xf32>, tensor<16x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
         ins(%bias : tensor<4x8xf32>) outs(%m : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
         outs(%a : tensor<4x8xf32>) {
  ^bb0(%out: f32):
    %0 = arith.maximumf %out, %zero : f32
    linalg.yield %0 : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
