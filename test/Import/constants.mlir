// RUN: mirage-opt --mirage-import %s | FileCheck %s
// RUN: mirage-run --import-check %s | FileCheck %s --check-prefix=DIFF

// Splat constants of any shape are scalars (issue 30, item 1): a dense
// splat of the full shape (TF's 1/sqrt(d) as tensor<1x32x40x40xf32>, a
// zero point), a tosa.const, or a linalg.fill of a scalar used as an
// operand. Identities fold (x + 0, x - 0, x * 1, x / 1, x ^ 1, reshapes and
// transposes that keep the layout); a constant that is not a splat stays an
// input.
// DIFF: PASS @scale_full_shape
// DIFF: PASS @fill_operand
// DIFF: PASS @named_div_by_splat
// DIFF: PASS @const_minus_x
// DIFF: PASS @identities
// DIFF: PASS @tosa_full_splat
// DIFF: PASS @tosa_identities
// DIFF: PASS @same_layout
// DIFF: PASS @not_a_splat
// DIFF: PASS @splat_forms
// DIFF: PASS @reshape_same_type
// DIFF: PASS @reciprocal_of_splat
// DIFF: PASS @scale_from_arith
// DIFF: 13 passed, 0 failed, 0 not checked

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#id = affine_map<(d0, d1) -> (d0, d1)>

// The reshapes that drop and restore the unit dim around an element-wise op
// cancel out.
// CHECK-LABEL: func.func @scale_full_shape(
// CHECK-NEXT: %[[S:.*]] = mk.mul_scalar %arg0, 11.310000419616699 : tensor<1x4x8x8xf32>
// CHECK-NEXT: return %[[S]]
func.func @scale_full_shape(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> {
  %c = arith.constant dense<11.31> : tensor<1x4x8x8xf32>
  %e = tensor.empty() : tensor<1x4x8x8xf32>
  %y = linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
         ins(%x, %c : tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) outs(%e : tensor<1x4x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<1x4x8x8xf32>
  return %y : tensor<1x4x8x8xf32>
}

// A fill of a scalar into a full tensor, read by a named op.
// CHECK-LABEL: func.func @fill_operand(
// CHECK-NEXT: %[[A:.*]] = mk.add_scalar %arg0, 2.500000e-01 : tensor<4x8xf32>
// CHECK-NEXT: return %[[A]]
func.func @fill_operand(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %q = arith.constant 0.25 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%q : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = linalg.add ins(%x, %f : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// Division by a splat is a multiplication by its reciprocal.
// CHECK-LABEL: func.func @named_div_by_splat(
// CHECK-NEXT: %[[D:.*]] = mk.mul_scalar %arg0, 2.500000e-01 : tensor<4x8xf32>
// CHECK-NEXT: return %[[D]]
func.func @named_div_by_splat(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c = arith.constant dense<4.0> : tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %y = linalg.div ins(%x, %c : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// c - x is add_scalar(neg(x), c).
// CHECK-LABEL: func.func @const_minus_x(
// CHECK-NEXT: %[[N:.*]] = mk.neg %arg0
// CHECK-NEXT: %[[A:.*]] = mk.add_scalar %[[N]], 1.000000e+00
// CHECK-NEXT: return %[[A]]
func.func @const_minus_x(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c = arith.constant dense<1.0> : tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %y = linalg.sub ins(%c, %x : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// x + 0, x * 1, x / 1, x - 0 and x ^ 1 are x: only the exp is left.
// CHECK-LABEL: func.func @identities(
// CHECK-NEXT: %[[E:.*]] = mk.exp %arg0
// CHECK-NEXT: return %[[E]]
func.func @identities(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant dense<0.0> : tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %a = linalg.add ins(%x, %zero : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
         ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %z = arith.constant 0.0 : f32
    %m = arith.mulf %in, %one : f32
    %d = arith.divf %m, %one : f32
    %s = arith.subf %d, %z : f32
    %p = math.powf %s, %one : f32
    %x2 = math.exp %p : f32
    linalg.yield %x2 : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// tosa.const splats of the full shape.
// CHECK-LABEL: func.func @tosa_full_splat(
// CHECK-NEXT: %[[M:.*]] = mk.mul_scalar %arg0, 1.250000e-01 : tensor<2x4x8xf32>
// CHECK-NEXT: %[[S:.*]] = mk.add_scalar %[[M]], -3.000000e+00 : tensor<2x4x8xf32>
// CHECK-NEXT: return %[[S]]
func.func @tosa_full_splat(%x: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %c = "tosa.const"() <{values = dense<0.125> : tensor<2x4x8xf32>}> : () -> tensor<2x4x8xf32>
  %three = "tosa.const"() <{values = dense<3.0> : tensor<2x4x8xf32>}> : () -> tensor<2x4x8xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %m = tosa.mul %x, %c, %shift : (tensor<2x4x8xf32>, tensor<2x4x8xf32>, tensor<1xi8>) -> tensor<2x4x8xf32>
  %s = tosa.sub %m, %three : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  return %s : tensor<2x4x8xf32>
}

// A zero point added and a multiplication by 1 go; tosa.pow by 1 too.
// CHECK-LABEL: func.func @tosa_identities(
// CHECK-NEXT: %[[E:.*]] = mk.exp %arg0
// CHECK-NEXT: return %[[E]]
func.func @tosa_identities(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<2x8xf32>}> : () -> tensor<2x8xf32>
  %one = "tosa.const"() <{values = dense<1.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %a = tosa.add %x, %zero : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %m = tosa.mul %one, %a, %shift : (tensor<1x1xf32>, tensor<2x8xf32>, tensor<1xi8>) -> tensor<2x8xf32>
  %p = tosa.pow %m, %one : (tensor<2x8xf32>, tensor<1x1xf32>) -> tensor<2x8xf32>
  %e = tosa.exp %p : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %e : tensor<2x8xf32>
}

// A transpose that only moves size-1 dims keeps the layout: a view
// (mk.reshape); an identity transpose is its input.
// CHECK-LABEL: func.func @same_layout(
// CHECK-NEXT: %[[V:.*]] = mk.reshape %arg0 : tensor<1x4x1x8xf32> -> tensor<4x1x1x8xf32>
// CHECK-NEXT: %[[E:.*]] = mk.exp %[[V]]
// CHECK-NEXT: return %[[E]]
func.func @same_layout(%x: tensor<1x4x1x8xf32>) -> tensor<4x1x1x8xf32> {
  %e = tensor.empty() : tensor<4x1x1x8xf32>
  %t = linalg.transpose ins(%x : tensor<1x4x1x8xf32>) outs(%e : tensor<4x1x1x8xf32>) permutation = [1, 2, 0, 3]
  %e2 = tensor.empty() : tensor<4x1x1x8xf32>
  %x2 = linalg.exp ins(%t : tensor<4x1x1x8xf32>) outs(%e2 : tensor<4x1x1x8xf32>) -> tensor<4x1x1x8xf32>
  %e3 = tensor.empty() : tensor<4x1x1x8xf32>
  %i = linalg.transpose ins(%x2 : tensor<4x1x1x8xf32>) outs(%e3 : tensor<4x1x1x8xf32>) permutation = [0, 1, 2, 3]
  return %i : tensor<4x1x1x8xf32>
}

// A constant that is not a splat stays an input of the mk function.
// CHECK-LABEL: func.func @not_a_splat(
// CHECK: %[[C:.*]] = arith.constant dense<{{\[}}1.000000e+00, 2.000000e+00{{\]}}> : tensor<2xf32>
// CHECK: call @not_a_splat_mk0(%arg0, %[[C]])
// CHECK: func.func private @not_a_splat_mk0
// CHECK-NEXT: mk.mul
func.func @not_a_splat(%x: tensor<2xf32>) -> tensor<2xf32> {
  %c = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %e = tensor.empty() : tensor<2xf32>
  %y = linalg.mul ins(%x, %c : tensor<2xf32>, tensor<2xf32>) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}

// A tensor.splat of a constant, and a rank-0 constant broadcast by a copy
// (torch-mlir's scalar tensor): scalars too.
// CHECK-LABEL: func.func @splat_forms(
// CHECK-NEXT: %[[M:.*]] = mk.mul_scalar %arg0, 3.000000e+00
// CHECK-NEXT: %[[A:.*]] = mk.add_scalar %[[M]], 5.000000e-01
// CHECK-NEXT: return %[[A]]
func.func @splat_forms(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %three = arith.constant 3.0 : f32
  %s = tensor.splat %three : tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %m = linalg.mul ins(%x, %s : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %half = arith.constant dense<0.5> : tensor<f32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>, #id], iterator_types = ["parallel", "parallel"]}
         ins(%half : tensor<f32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<4x8xf32>
  %y = linalg.add ins(%m, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// A reshape to its own type goes, even between ops that stay outside.
// CHECK-LABEL: func.func @reshape_same_type(
// CHECK-NOT: tosa.reshape
// CHECK: return
func.func @reshape_same_type(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %shape = tosa.const_shape {values = dense<[2, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %r = tosa.reshape %x, %shape : (tensor<2x8xf32>, !tosa.shape<2>) -> tensor<2x8xf32>
  %e = tosa.exp %r : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %e : tensor<2x8xf32>
}

// Ops that compute a splat from constants are evaluated in f64 (IREE's
// LayerNorm: the mean as a sum times tosa.reciprocal of a full-shape splat
// of n): the product is a scalar multiplication by the real 1/n, not by 1/n
// rounded to f32, and no constant is left behind.
// CHECK-LABEL: func.func @reciprocal_of_splat(
// CHECK-NOT: tosa.
// CHECK: %[[S:.*]] = mk.reduce_sum %arg0 dim = 1
// CHECK-NEXT: mk.mul_scalar %[[S]], 0.0026041666666666665
// CHECK-NOT: tosa.
func.func @reciprocal_of_splat(%x: tensor<16x384xf32>) -> tensor<16x1xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %n = "tosa.const"() <{values = dense<384.0> : tensor<16x1xf32>}> : () -> tensor<16x1xf32>
  %sum = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<16x384xf32>) -> tensor<16x1xf32>
  %r = tosa.reciprocal %n : (tensor<16x1xf32>) -> tensor<16x1xf32>
  %mean = tosa.mul %sum, %r, %shift : (tensor<16x1xf32>, tensor<16x1xf32>, tensor<1xi8>) -> tensor<16x1xf32>
  return %mean : tensor<16x1xf32>
}

// Scalar arith on constants (a scale computed at the top level, filled
// into a tensor) is evaluated as well.
// CHECK-LABEL: func.func @scale_from_arith(
// CHECK-NOT: arith.
// CHECK: mk.mul_scalar %arg0, 1.250000e-01
// CHECK-NOT: arith.
func.func @scale_from_arith(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %one = arith.constant 1.0 : f32
  %eight = arith.constant 8.0 : f32
  %s = arith.divf %one, %eight : f32
  %e = tensor.empty() : tensor<8x4xf32>
  %f = linalg.fill ins(%s : f32) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  %y = linalg.mul ins(%x, %f : tensor<8x4xf32>, tensor<8x4xf32>) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %y : tensor<8x4xf32>
}
