// RUN: mirage-opt --mirage-import %s | FileCheck %s
// RUN: mirage-opt --mirage-import %s | mirage-opt --mirage-check-equivalence -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQ
// RUN: mirage-run --import-check %s | FileCheck %s --check-prefix=DIFF

// Sigmoid and SiLU written out, as graph-compiler's llama2 and decomposing
// exporters write them: 1 / (1 + exp(-x)) is mk.sigmoid, x times it or
// x / (1 + exp(-x)) is mk.silu, so that a gated MLP's activation is one op
// of the search's vocabulary rather than four.
// DIFF: PASS @silu_named
// DIFF: PASS @sigmoid_generic
// DIFF: PASS @silu_div_generic
// DIFF: PASS @exp_used_twice
// DIFF: 4 passed, 0 failed, 0 not checked

#id = affine_map<(d0, d1) -> (d0, d1)>

// EQ-DAG: remark: equivalent to @silu_ref
func.func @silu_ref(%x: tensor<4x32xbf16>) -> tensor<4x32xbf16> {
  %s = mk.silu %x : tensor<4x32xbf16>
  return %s : tensor<4x32xbf16>
}
// CHECK-LABEL: func.func @silu_named(
// CHECK-NEXT: %[[S:.*]] = mk.silu %arg0 : tensor<4x32xbf16>
// CHECK-NEXT: return %[[S]]
func.func @silu_named(%x: tensor<4x32xbf16>) -> tensor<4x32xbf16> attributes {mk.reference = @silu_ref} {
  %one = arith.constant dense<1.000000e+00> : tensor<4x32xbf16>
  %e = tensor.empty() : tensor<4x32xbf16>
  %n = linalg.negf ins(%x : tensor<4x32xbf16>) outs(%e : tensor<4x32xbf16>) -> tensor<4x32xbf16>
  %x1 = linalg.exp ins(%n : tensor<4x32xbf16>) outs(%e : tensor<4x32xbf16>) -> tensor<4x32xbf16>
  %d = linalg.add ins(%one, %x1 : tensor<4x32xbf16>, tensor<4x32xbf16>) outs(%e : tensor<4x32xbf16>) -> tensor<4x32xbf16>
  %r = linalg.div ins(%one, %d : tensor<4x32xbf16>, tensor<4x32xbf16>) outs(%e : tensor<4x32xbf16>) -> tensor<4x32xbf16>
  %e2 = tensor.empty() : tensor<4x32xbf16>
  %s = linalg.mul ins(%r, %x : tensor<4x32xbf16>, tensor<4x32xbf16>) outs(%e2 : tensor<4x32xbf16>) -> tensor<4x32xbf16>
  return %s : tensor<4x32xbf16>
}

// EQ-DAG: remark: equivalent to @sigmoid_ref
func.func @sigmoid_ref(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %s = mk.sigmoid %x : tensor<8x16xf32>
  return %s : tensor<8x16xf32>
}
// CHECK-LABEL: func.func @sigmoid_generic(
// CHECK-NEXT: %[[S:.*]] = mk.sigmoid %arg0 : tensor<8x16xf32>
// CHECK-NEXT: return %[[S]]
func.func @sigmoid_generic(%x: tensor<8x16xf32>) -> tensor<8x16xf32> attributes {mk.reference = @sigmoid_ref} {
  %one = arith.constant 1.000000e+00 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
         ins(%x : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.negf %in : f32
    %1 = math.exp %0 : f32
    %2 = arith.addf %1, %one : f32
    %3 = arith.divf %one, %2 : f32
    linalg.yield %3 : f32
  } -> tensor<8x16xf32>
  return %s : tensor<8x16xf32>
}

// EQ-DAG: remark: equivalent to @silu_ref2
func.func @silu_ref2(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %s = mk.silu %x : tensor<8x16xf32>
  return %s : tensor<8x16xf32>
}
// CHECK-LABEL: func.func @silu_div_generic(
// CHECK-NEXT: %[[S:.*]] = mk.silu %arg0 : tensor<8x16xf32>
// CHECK-NEXT: return %[[S]]
func.func @silu_div_generic(%x: tensor<8x16xf32>) -> tensor<8x16xf32> attributes {mk.reference = @silu_ref2} {
  %one = arith.constant 1.000000e+00 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
         ins(%x : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.negf %in : f32
    %1 = math.exp %0 : f32
    %2 = arith.addf %1, %one : f32
    %3 = arith.divf %in, %2 : f32
    linalg.yield %3 : f32
  } -> tensor<8x16xf32>
  return %s : tensor<8x16xf32>
}

// An exp(-x) that is used elsewhere too stays as it is: no sigmoid.
// CHECK-LABEL: func.func @exp_used_twice(
// CHECK-NOT: mk.sigmoid
// CHECK-NOT: mk.silu
// CHECK: return
func.func @exp_used_twice(%x: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %one = arith.constant dense<1.000000e+00> : tensor<8x16xf32>
  %e = tensor.empty() : tensor<8x16xf32>
  %n = linalg.negf ins(%x : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %x1 = linalg.exp ins(%n : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %d = linalg.add ins(%one, %x1 : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %r = linalg.div ins(%one, %d : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %r, %x1 : tensor<8x16xf32>, tensor<8x16xf32>
}
