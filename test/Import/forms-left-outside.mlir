// RUN: mirage-opt --mirage-import %s -split-input-file -verify-diagnostics | FileCheck %s

// The forms of issue 30's constructs that have no exact mk counterpart stay
// untouched, each with a remark (never a crash): selects that are masks or
// not a max/min against a constant, compares of two values, element-wise
// kinds mk lacks, powf by other exponents of a
// tensor, and contractions that are not matmuls. Casts between element types
// import (mixed-precision.mlir); their unsupported forms are in
// mixed-precision-left-outside.mlir.


// Leaky ReLU, select(x > 0, x, 0.01 x): not a max against a constant.
// CHECK-LABEL: func.func @leaky_relu
// CHECK: linalg.generic
func.func @leaky_relu(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  // expected-remark @below {{left outside: an arith.select that does not choose between the compared value and the same constant (only max/min/clamp against a constant are imported)}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
         ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %zero = arith.constant 0.0 : f32
    %slope = arith.constant 0.01 : f32
    %p = arith.cmpf ogt, %in, %zero : f32
    %l = arith.mulf %in, %slope : f32
    %s = arith.select %p, %in, %l : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// A mask: the compare is of two tensors.
// CHECK-LABEL: func.func @select_two_values
// CHECK: linalg.generic
func.func @select_two_values(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  // expected-remark @below {{left outside: an arith.select of a compare that is not of a value against a constant (a mask of two tensors' values)}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
         ins(%x, %y : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %zero = arith.constant 0.0 : f32
    %p = arith.cmpf ogt, %a, %b : f32
    %s = arith.select %p, %a, %zero : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// An equality compare selects one point: no max/min.
// CHECK-LABEL: func.func @select_eq
// CHECK: linalg.generic
func.func @select_eq(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  // expected-remark @below {{left outside: an arith.select of a compare other than <, <=, >, >=}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
         ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %zero = arith.constant 0.0 : f32
    %p = arith.cmpf oeq, %in, %zero : f32
    %s = arith.select %p, %in, %zero : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// tosa.select with a mask computed from two tensors; its compare stays too.
// CHECK-LABEL: func.func @tosa_mask
// CHECK: tosa.greater
// CHECK: tosa.select
func.func @tosa_mask(%x: tensor<2x8xf32>, %y: tensor<2x8xf32>) -> tensor<2x8xf32> {
  // expected-remark @below {{left outside: a compare whose selects were not all imported (a mask of two tensors' values)}}
  %p = tosa.greater %x, %y : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xi1>
  // expected-remark @below {{left outside: tosa.select of a compare that is not of a value against a constant (a mask of two tensors' values)}}
  %s = tosa.select %p, %x, %y : (tensor<2x8xi1>, tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  return %s : tensor<2x8xf32>
}

// -----

// tosa.clamp of integers.
// CHECK-LABEL: func.func @tosa_clamp_int
// CHECK: tosa.clamp
func.func @tosa_clamp_int(%x: tensor<2x8xi32>) -> tensor<2x8xi32> {
  // expected-remark @below {{left outside: tosa.clamp with integer bounds}}
  %c = tosa.clamp %x {min_val = 0 : i32, max_val = 6 : i32} : (tensor<2x8xi32>) -> tensor<2x8xi32>
  return %c : tensor<2x8xi32>
}

// -----

// Kinds without an mk counterpart.
// CHECK-LABEL: func.func @log_floor
// CHECK: linalg.elementwise
// CHECK: linalg.floor
func.func @log_floor(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  // expected-remark @below {{left outside: body op 'math.log' has no mk counterpart}}
  %l = linalg.elementwise kind=#linalg.elementwise_kind<log> ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  // expected-remark @below {{left outside: body op 'math.floor' has no mk counterpart}}
  %f = linalg.floor ins(%l : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %f : tensor<4x8xf32>
}

// -----

// A diagonal read (a map that repeats a dim) is no matmul.
// CHECK-LABEL: func.func @contraction_diagonal
// CHECK: linalg.generic
func.func @contraction_diagonal(%a: tensor<8x8xf32>, %b: tensor<8x6xf32>, %c: tensor<8x6xf32>) -> tensor<8x6xf32> {
  // expected-remark @below {{left outside: an indexing map of the contraction is not a projected permutation (a diagonal, a constant index or a repeated dim)}}
  %y = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (k, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
         ins(%a, %b : tensor<8x8xf32>, tensor<8x6xf32>) outs(%c : tensor<8x6xf32>) {
  ^bb0(%x: f32, %w: f32, %acc: f32):
    %m = arith.mulf %x, %w : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<8x6xf32>
  return %y : tensor<8x6xf32>
}

// -----

// A dim that only A reads: sum_j a[i, j, k] * b[k, n] is not one matmul.
// CHECK-LABEL: func.func @contraction_sum_of_a
// CHECK: linalg.generic
func.func @contraction_sum_of_a(%a: tensor<4x3x8xf32>, %b: tensor<8x6xf32>, %c: tensor<4x6xf32>) -> tensor<4x6xf32> {
  // expected-remark @below {{left outside: a dim that only A reads (a sum of A alone)}}
  %y = linalg.generic {indexing_maps = [affine_map<(m, n, j, k) -> (m, j, k)>, affine_map<(m, n, j, k) -> (k, n)>, affine_map<(m, n, j, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
         ins(%a, %b : tensor<4x3x8xf32>, tensor<8x6xf32>) outs(%c : tensor<4x6xf32>) {
  ^bb0(%x: f32, %w: f32, %acc: f32):
    %m = arith.mulf %x, %w : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}

// -----

// Slices of a computed value that cannot move to the inputs: a strided one,
// one of a reduction, and one of a value that is also read whole. Each
// splits the mk function.
// CHECK-LABEL: func.func @slices_left
// CHECK-COUNT-3: tensor.extract_slice
func.func @slices_left(%x: tensor<8x16xf32>) -> (tensor<8x4xf32>, tensor<4x1xf32>, tensor<4x16xf32>, tensor<8x16xf32>) {
  %e = tensor.empty() : tensor<8x16xf32>
  %a = linalg.exp ins(%x : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  // expected-remark @below {{left outside: a slice that is not static, of unit strides and of the same rank, of a value mk computes (mk has no slice op)}}
  %s1 = tensor.extract_slice %a[0, 0] [8, 4] [1, 2] : tensor<8x16xf32> to tensor<8x4xf32>
  %cst = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e1 : tensor<8xf32>) -> tensor<8xf32>
  %r = linalg.reduce ins(%x : tensor<8x16xf32>) outs(%f : tensor<8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %0 = arith.addf %in, %acc : f32
      linalg.yield %0 : f32
    }
  %r2 = tensor.expand_shape %r [[0, 1]] output_shape [8, 1] : tensor<8xf32> into tensor<8x1xf32>
  // expected-remark @below {{left outside: a slice of a value that 'mk.reduce_sum' computes (mk has no slice op; it moves to the inputs only through element-wise ops, transposes and matmuls)}}
  %s2 = tensor.extract_slice %r2[0, 0] [4, 1] [1, 1] : tensor<8x1xf32> to tensor<4x1xf32>
  %b = linalg.negf ins(%x : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  // expected-remark @below {{left outside: a slice of a value that is also read whole (mk has no slice op)}}
  %s3 = tensor.extract_slice %b[4, 0] [4, 16] [1, 1] : tensor<8x16xf32> to tensor<4x16xf32>
  return %s1, %s2, %s3, %b : tensor<8x4xf32>, tensor<4x1xf32>, tensor<4x16xf32>, tensor<8x16xf32>
}

// -----

// A reshape to its own type between ops that stay outside goes (it is its
// input), without a remark.
// CHECK-LABEL: func.func @reshape_same_type_outside
// CHECK: %[[A:.*]] = tosa.erf %arg0
// CHECK-NEXT: %[[B:.*]] = tosa.erf %[[A]]
func.func @reshape_same_type_outside(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  // expected-remark @below {{left outside: tosa.erf outside an exact GELU (mk has no erf)}}
  %a = tosa.erf %x : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %shape = tosa.const_shape {values = dense<[2, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %r = tosa.reshape %a, %shape : (tensor<2x8xf32>, !tosa.shape<2>) -> tensor<2x8xf32>
  // expected-remark @below {{left outside: tosa.erf outside an exact GELU (mk has no erf)}}
  %b = tosa.erf %r : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %b : tensor<2x8xf32>
}

// -----

// A cast inside the body (bf16 compute, then extf): the input is not read
// only through casts to the compute type, so nothing is split off.
// CHECK-LABEL: func.func @cast_inside_body
// CHECK: linalg.generic
func.func @cast_inside_body(%x: tensor<4x8xbf16>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  // expected-remark @below {{left outside: mixed element types (a cast) have no mk counterpart}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
         ins(%x : tensor<4x8xbf16>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: bf16, %out: f32):
    %a = arith.mulf %in, %in : bf16
    %b = arith.extf %a : bf16 to f32
    %c = math.exp %b : f32
    linalg.yield %c : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// A body that reads the output of a tensor.empty reads undefined values.
// CHECK-LABEL: func.func @reads_empty_output
// CHECK: linalg.generic
func.func @reads_empty_output(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  // expected-remark @below {{left outside: the body reads the output of a tensor.empty (undefined)}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
         ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
