// RUN: mirage-opt --mirage-import %s 2>/dev/null | FileCheck %s
// RUN: mirage-opt --mirage-import %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: mirage-run --import-check %s | FileCheck %s --check-prefix=DIFF

// Forms torch-mlir emits for a BERT layer, each on its own: the max generic
// of a softmax that also yields an unused argmax, a copy that broadcasts to a
// higher rank folded into its consumer, and a constant written as an f64
// literal truncated to f32 in the body.

// DIFF: PASS @softmax_max_with_argmax
// The check compares float results only (the argmax is i64).
// DIFF: NOT CHECKED @max_and_argmax_used: element type i64 is not supported
// DIFF: PASS @rank_raising_copy
// DIFF: PASS @eps_truncf
// DIFF: @transposed_broadcast_copy: upstream lowering vs import (1 mk ops, 1 outlined calls; 1 ops left outside, run upstream in 1 segments)
// DIFF-NEXT: PASS @transposed_broadcast_copy
// DIFF: 4 passed, 0 failed, 1 not checked

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#row1 = affine_map<(d0, d1) -> (d0, 0)>

// The argmax result is never read: the generic is the max reduction alone,
// and the safe softmax is imported as its parts, the max kept.
// CHECK-LABEL: func.func @softmax_max_with_argmax(
// CHECK-NEXT: %[[M:.*]] = mk.reduce_max %arg0 dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
// CHECK-NEXT: %[[D:.*]] = mk.sub %arg0, %[[M]]
// CHECK-NEXT: %[[E:.*]] = mk.exp %[[D]]
// CHECK-NEXT: %[[S:.*]] = mk.reduce_sum %[[E]] dim = 1
// CHECK-NEXT: %[[R:.*]] = mk.div %[[E]], %[[S]]
// CHECK-NEXT: return %[[R]]
func.func @softmax_max_with_argmax(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : i64
  %ei = tensor.empty() : tensor<4xi64>
  %idx0 = linalg.fill ins(%c0 : i64) outs(%ei : tensor<4xi64>) -> tensor<4xi64>
  %ef = tensor.empty() : tensor<4xf32>
  %max0 = linalg.fill ins(%ninf : f32) outs(%ef : tensor<4xf32>) -> tensor<4xf32>
  %m:2 = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%max0, %idx0 : tensor<4xf32>, tensor<4xi64>) {
  ^bb0(%in: f32, %out: f32, %out_i: i64):
    %i = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i64
    %mx = arith.maximumf %in, %out : f32
    %gt = arith.cmpf ogt, %in, %out : f32
    %sel = arith.select %gt, %ii, %out_i : i64
    linalg.yield %mx, %sel : f32, i64
  } -> (tensor<4xf32>, tensor<4xi64>)
  %m1 = tensor.expand_shape %m#0 [[0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %d = linalg.generic {indexing_maps = [#id, #row1, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m1 : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.subf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %ex = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%d : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = math.exp %a : f32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  %e1 = tensor.empty() : tensor<4x1xf32>
  %z1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x1xf32>) -> tensor<4x1xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row1], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<4x8xf32>) outs(%z1 : tensor<4x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.addf %a, %o : f32
    linalg.yield %v : f32
  } -> tensor<4x1xf32>
  %r = linalg.generic {indexing_maps = [#id, #row1, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ex, %sum : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %v = arith.divf %a, %b : f32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// Both results read: mk has no argmax, the generic stays with a remark and
// the rest around it is imported.
// REMARK: remark: mirage-import: left outside: a generic with several used results is not imported
// CHECK-LABEL: func.func @max_and_argmax_used(
// CHECK: linalg.generic
// CHECK: return
func.func @max_and_argmax_used(%x: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xi64>) {
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i64
  %ei = tensor.empty() : tensor<4xi64>
  %idx0 = linalg.fill ins(%c0 : i64) outs(%ei : tensor<4xi64>) -> tensor<4xi64>
  %ef = tensor.empty() : tensor<4xf32>
  %max0 = linalg.fill ins(%ninf : f32) outs(%ef : tensor<4xf32>) -> tensor<4xf32>
  %m:2 = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x8xf32>) outs(%max0, %idx0 : tensor<4xf32>, tensor<4xi64>) {
  ^bb0(%in: f32, %out: f32, %out_i: i64):
    %i = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i64
    %mx = arith.maximumf %in, %out : f32
    %gt = arith.cmpf ogt, %in, %out : f32
    %sel = arith.select %gt, %ii, %out_i : i64
    linalg.yield %mx, %sel : f32, i64
  } -> (tensor<4xf32>, tensor<4xi64>)
  return %m#0, %m#1 : tensor<4xf32>, tensor<4xi64>
}

// A per-row scale collapsed to rank 1 and broadcast back over the columns
// by a copy: the copy folds into the mul, which reads the rank-1 scale as a
// broadcast column.
// CHECK-LABEL: func.func @rank_raising_copy(
// CHECK-NEXT: %[[M:.*]] = mk.mul %arg0, %arg1 : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
// CHECK-NEXT: return %[[M]]
func.func @rank_raising_copy(%x: tensor<4x8xf32>, %s: tensor<4x1xf32>) -> tensor<4x8xf32> {
  %c = tensor.collapse_shape %s [[0, 1]] : tensor<4x1xf32> into tensor<4xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %b = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<4xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %v: f32, %o: f32):
    %m = arith.mulf %a, %v : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// torch's eps is an f64 literal truncated in the body: the constant is the
// f32 value of 1e-12, not the f64 one.
// CHECK-LABEL: func.func @eps_truncf(
// CHECK-NEXT: mk.add_scalar %arg0, 9.999999960041972E-13 : tensor<4x8xf32>
func.func @eps_truncf(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %eps = arith.constant 1.000000e-12 : f64
  %e = tensor.empty() : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %t = arith.truncf %eps : f64 to f32
    %v = arith.addf %a, %t : f32
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// A copy that broadcasts and transposes at once is not a view mk has: it
// stays, the op reading it is imported on its own.
// REMARK: remark: mirage-import: left outside: a copy that broadcasts or drops dims (it repeats data or is not a reshape: mk has no such op)
// CHECK-LABEL: func.func @transposed_broadcast_copy(
// CHECK: %[[B:.*]] = linalg.generic
// CHECK: call @transposed_broadcast_copy_mk0(%[[B]], %arg1)
func.func @transposed_broadcast_copy(%x: tensor<8x4xf32>, %y: tensor<4x8x2xf32>) -> tensor<4x8x2xf32> {
  %e = tensor.empty() : tensor<4x8x2xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : tensor<8x4xf32>) outs(%e : tensor<4x8x2xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<4x8x2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%b, %y : tensor<4x8x2xf32>, tensor<4x8x2xf32>) outs(%e : tensor<4x8x2xf32>) {
  ^bb0(%a: f32, %v: f32, %o: f32):
    %m = arith.addf %a, %v : f32
    linalg.yield %m : f32
  } -> tensor<4x8x2xf32>
  return %r : tensor<4x8x2xf32>
}
