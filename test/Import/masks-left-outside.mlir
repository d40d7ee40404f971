// RUN: mirage-opt --mirage-import %s -split-input-file -verify-diagnostics | FileCheck %s

// Selects by index compares that are no band of diagonals stay outside, each
// with a remark that says why (never a crash): an inequality, an index
// scaled by 2, the outside of a two-sided window, a boolean mask that selects
// between two tensors.

#id2 = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @inequality
// CHECK: linalg.generic
func.func @inequality(%s: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  // expected-remark @below {{left outside: a compare for inequality (its elements are no band)}}
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %off = arith.cmpi ne, %j, %i : index
    %v = arith.select %off, %in, %zero : f32
    linalg.yield %v : f32
  } -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @scaled_index
// CHECK: linalg.generic
func.func @scaled_index(%s: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %c2 = arith.constant 2 : index
  %e = tensor.empty() : tensor<8x8xf32>
  // expected-remark @below {{left outside: a compare of values other than loop indices and constants}}
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %i2 = arith.muli %i, %c2 : index
    %keep = arith.cmpi sle, %j, %i2 : index
    %v = arith.select %keep, %in, %zero : f32
    linalg.yield %v : f32
  } -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @outside_of_a_window
// CHECK: linalg.generic
func.func @outside_of_a_window(%s: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %c3 = arith.constant 3 : index
  %e = tensor.empty() : tensor<8x8xf32>
  // expected-remark @below {{left outside: the complement of two compares (no band)}}
  %r = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %causal = arith.cmpi sle, %j, %i : index
    %start = arith.subi %i, %c3 : index
    %recent = arith.cmpi sgt, %j, %start : index
    %window = arith.andi %causal, %recent : i1
    %v = arith.select %window, %zero, %in : f32
    linalg.yield %v : f32
  } -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>

// A boolean mask that selects between two tensors: no mk.where form.
// CHECK-LABEL: func.func @mask_argument_two_values
// CHECK: linalg.generic
func.func @mask_argument_two_values(%s: tensor<8x8xf32>, %t: tensor<8x8xf32>, %m: tensor<8x8xi1>) -> tensor<8x8xf32> {
  %e = tensor.empty() : tensor<8x8xf32>
  // expected-remark @below {{left outside: a select by a boolean mask that does not choose between a value and a constant}}
  %r = linalg.generic {indexing_maps = [#id2, #id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s, %t, %m : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xi1>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%in: f32, %other: f32, %keep: i1, %out: f32):
    %v = arith.select %keep, %in, %other : f32
    linalg.yield %v : f32
  } -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// -----

// tosa.select by a boolean tensor between two tensors, with a NaN fill, or
// broadcasting the selected value: left outside.
// CHECK-LABEL: func.func @tosa_select_two_values
// CHECK: tosa.select
func.func @tosa_select_two_values(%s: tensor<8x8xf32>, %t: tensor<8x8xf32>, %m: tensor<8x8xi1>) -> tensor<8x8xf32> {
  // expected-remark @below {{left outside: tosa.select by a boolean tensor that does not choose between a value and a constant}}
  %0 = tosa.select %m, %s, %t : (tensor<8x8xi1>, tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
// CHECK-LABEL: func.func @tosa_select_nan_fill
// CHECK: tosa.select
func.func @tosa_select_nan_fill(%s: tensor<8x8xf32>, %m: tensor<8x8xi1>) -> tensor<8x8xf32> {
  %c = "tosa.const"() <{values = dense<0x7FC00000> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  // expected-remark @below {{left outside: a mask filled with NaN}}
  %0 = tosa.select %m, %s, %c : (tensor<8x8xi1>, tensor<8x8xf32>, tensor<1x1xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
// CHECK-LABEL: func.func @tosa_select_broadcast_value
// CHECK: tosa.select
func.func @tosa_select_broadcast_value(%s: tensor<1x8xf32>, %m: tensor<8x8xi1>) -> tensor<8x8xf32> {
  %c = "tosa.const"() <{values = dense<0.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  // expected-remark @below {{left outside: a select that broadcasts the selected value}}
  %0 = tosa.select %m, %s, %c : (tensor<8x8xi1>, tensor<1x8xf32>, tensor<1x1xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}
