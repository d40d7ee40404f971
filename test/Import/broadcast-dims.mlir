// RUN: mirage-opt --mirage-import %s -split-input-file | FileCheck %s
// RUN: mirage-run --import-check %s | FileCheck %s --check-prefix=DIFF
// RUN: mirage-opt --mirage-import %s -split-input-file 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK

// The differential check (docs/import.md): each function written in
// linalg/tosa, run by upstream MLIR's CPU lowering in f32, against the f64
// interpreter of its import, on the same seeded inputs. A function whose
// import leaves ops outside mk is checked too: those ops run upstream
// between the interpreter's mk calls.
// DIFF: PASS @linear_bias
// DIFF: PASS @scale_rows
// DIFF: PASS @permuted
// DIFF: @diagonal: upstream lowering vs import (0 mk ops, 0 outlined calls; 1 ops left outside, run upstream in 1 segments)
// DIFF-NEXT: PASS @diagonal
// DIFF: PASS @batch1_linear_relu
// DIFF: PASS @named_broadcast_row
// DIFF: PASS @named_broadcast_batch1_weight
// DIFF: @named_broadcast_returned: upstream lowering vs import (0 mk ops, 0 outlined calls; 1 ops left outside, run upstream in 1 segments)
// DIFF-NEXT: PASS @named_broadcast_returned
// DIFF: 8 passed, 0 failed, 0 not checked

// Broadcasts written in the indexing maps by dropping dims (a bias read
// with (d0, d1) -> (d1), a rank-0 scale): the input is expanded to the loop
// rank (size-1 dims, no data moves) right after its definition, as an
// mk.reshape (a view) when it is rank 1-4 and a tensor.expand_shape before
// the mk run otherwise, and the mk op broadcasts the size-1 dims.

// torch-mlir's nn.Linear: the weight transposed by a generic, the matmul,
// then the bias added by a generic that drops d0.
// CHECK-LABEL: func.func @linear_bias(
// CHECK-SAME: %[[X:.*]]: tensor<4x64xf32>, %[[W:.*]]: tensor<32x64xf32>, %[[B:.*]]: tensor<32xf32>
// CHECK-NEXT: %[[BE:.*]] = mk.reshape %[[B]] : tensor<32xf32> -> tensor<1x32xf32>
// CHECK-NEXT: %[[T:.*]] = mk.transpose %[[W]] perm = [1, 0]
// CHECK-NEXT: %[[M:.*]] = mk.matmul %[[X]], %[[T]]
// CHECK-NEXT: %[[A:.*]] = mk.add %[[M]], %[[BE]] : tensor<4x32xf32>, tensor<1x32xf32> -> tensor<4x32xf32>
// CHECK-NEXT: return %[[A]]
func.func @linear_bias(%x: tensor<4x64xf32>, %w: tensor<32x64xf32>, %b: tensor<32xf32>) -> tensor<4x32xf32> {
  %cst = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<64x32xf32>
  %wt = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
          ins(%w : tensor<32x64xf32>) outs(%e0 : tensor<64x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<64x32xf32>
  %e1 = tensor.empty() : tensor<4x32xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e1 : tensor<4x32xf32>) -> tensor<4x32xf32>
  %m = linalg.matmul ins(%x, %wt : tensor<4x64xf32>, tensor<64x32xf32>) outs(%f : tensor<4x32xf32>) -> tensor<4x32xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
         ins(%m, %b : tensor<4x32xf32>, tensor<32xf32>) outs(%e1 : tensor<4x32xf32>) {
  ^bb0(%a: f32, %c: f32, %out: f32):
    %0 = arith.addf %a, %c : f32
    linalg.yield %0 : f32
  } -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}

// -----

// A rank-0 scale and a per-row vector (d0) on a 3-d loop.
// CHECK-LABEL: func.func @scale_rows(
// CHECK-SAME: %[[X:.*]]: tensor<2x4x8xf32>, %[[S:.*]]: tensor<f32>, %[[R:.*]]: tensor<2xf32>
// CHECK-NEXT: %[[SE:.*]] = tensor.expand_shape %[[S]] [] output_shape [1, 1, 1] : tensor<f32> into tensor<1x1x1xf32>
// CHECK-NEXT: %[[Y:.*]] = call @scale_rows_mk0(%[[R]], %[[X]], %[[SE]])
// CHECK-NEXT: return %[[Y]]
// CHECK: func.func private @scale_rows_mk0
// CHECK-NEXT: mk.reshape %{{.*}} : tensor<2xf32> -> tensor<2x1x1xf32>
// CHECK-NEXT: mk.mul %{{.*}}, %{{.*}} : tensor<2x4x8xf32>, tensor<1x1x1xf32> -> tensor<2x4x8xf32>
// CHECK-NEXT: mk.sub %{{.*}}, %{{.*}} : tensor<2x4x8xf32>, tensor<2x1x1xf32> -> tensor<2x4x8xf32>
func.func @scale_rows(%x: tensor<2x4x8xf32>, %s: tensor<f32>, %r: tensor<2xf32>) -> tensor<2x4x8xf32> {
  %e = tensor.empty() : tensor<2x4x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> ()>, affine_map<(d0, d1, d2) -> (d0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
         ins(%x, %s, %r : tensor<2x4x8xf32>, tensor<f32>, tensor<2xf32>) outs(%e : tensor<2x4x8xf32>) {
  ^bb0(%a: f32, %c: f32, %d: f32, %out: f32):
    %0 = arith.mulf %a, %c : f32
    %1 = arith.subf %0, %d : f32
    linalg.yield %1 : f32
  } -> tensor<2x4x8xf32>
  return %y : tensor<2x4x8xf32>
}

// -----

// An input read through a permutation map is transposed to the loop order;
// a map that repeats a dim (a diagonal) is left outside, and nothing is
// inserted for it.
// CHECK-LABEL: func.func @permuted(
// CHECK-SAME: %[[X:.*]]: tensor<4x8xf32>, %[[V:.*]]: tensor<8x4xf32>
// CHECK-NEXT: %[[T:.*]] = mk.transpose %[[V]] perm = [1, 0] : tensor<8x4xf32> -> tensor<4x8xf32>
// CHECK-NEXT: mk.add %[[X]], %[[T]]
func.func @permuted(%x: tensor<4x8xf32>, %v: tensor<8x4xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
         ins(%x, %v : tensor<4x8xf32>, tensor<8x4xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %c: f32, %out: f32):
    %0 = arith.addf %a, %c : f32
    linalg.yield %0 : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @diagonal(
// CHECK-NOT: tensor.expand_shape
// CHECK-NOT: mk.
// CHECK: linalg.generic
func.func @diagonal(%x: tensor<4x4xf32>, %v: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %e = tensor.empty() : tensor<4x4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
         ins(%x, %v : tensor<4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a: f32, %c: f32, %out: f32):
    %0 = arith.addf %a, %c : f32
    linalg.yield %0 : f32
  } -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}

// -----

// torch-mlir's linear on a 3-d input: the transposed weight is broadcast to
// batch 1 by a copy that only adds a size-1 dim (a reshape), then
// batch_matmul; relu as max(x, 0). The batch of 1 is dropped: a 2-d matmul
// between reshapes of the input and the result.
// CHECK-LABEL: func.func @batch1_linear_relu(
// CHECK-SAME: %[[X:.*]]: tensor<1x4x64xf32>
// CHECK-NEXT: %[[T:.*]] = mk.transpose
// CHECK-NEXT: %[[X2:.*]] = mk.reshape %[[X]] : tensor<1x4x64xf32> -> tensor<4x64xf32>
// CHECK-NEXT: %[[M:.*]] = mk.matmul %[[X2]], %[[T]] : tensor<4x64xf32>, tensor<64x32xf32> -> tensor<4x32xf32>
// CHECK-NEXT: %[[R:.*]] = mk.relu %[[M]] : tensor<4x32xf32>
// CHECK-NEXT: mk.reshape %[[R]] : tensor<4x32xf32> -> tensor<1x4x32xf32>
func.func @batch1_linear_relu(%x: tensor<1x4x64xf32>, %w: tensor<32x64xf32>) -> tensor<1x4x32xf32> {
  %cst = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<64x32xf32>
  %wt = linalg.transpose ins(%w : tensor<32x64xf32>) outs(%e0 : tensor<64x32xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<1x64x32xf32>
  %wb = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
          ins(%wt : tensor<64x32xf32>) outs(%e1 : tensor<1x64x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x64x32xf32>
  %e2 = tensor.empty() : tensor<1x4x32xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e2 : tensor<1x4x32xf32>) -> tensor<1x4x32xf32>
  %m = linalg.batch_matmul ins(%x, %wb : tensor<1x4x64xf32>, tensor<1x64x32xf32>) outs(%f : tensor<1x4x32xf32>) -> tensor<1x4x32xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
         ins(%m : tensor<1x4x32xf32>) outs(%e2 : tensor<1x4x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.maximumf %in, %cst : f32
    linalg.yield %0 : f32
  } -> tensor<1x4x32xf32>
  return %y : tensor<1x4x32xf32>
}

// -----

// linalg.broadcast (IREE, TPP) of a row statistic over the columns: like the
// copy generic, it folds into the op reading it, which broadcasts the
// size-1 dim.
// CHECK-LABEL: func.func @named_broadcast_row(
// CHECK-NEXT: %[[S:.*]] = mk.reshape %arg1 : tensor<4xf32> -> tensor<4x1xf32>
// CHECK-NEXT: %[[D:.*]] = mk.sub %arg0, %[[S]] : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
// CHECK-NEXT: return %[[D]]
func.func @named_broadcast_row(%x: tensor<4x8xf32>, %m: tensor<4xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %b = linalg.broadcast ins(%m : tensor<4xf32>) outs(%e : tensor<4x8xf32>) dimensions = [1]
  %d = linalg.sub ins(%x, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %d : tensor<4x8xf32>
}

// -----

// A linalg.broadcast that only adds a size-1 batch dim (a weight for
// batch_matmul) is a reshape; the batch of 1 is then dropped again.
// CHECK-LABEL: func.func @named_broadcast_batch1_weight(
// CHECK-NOT: linalg.
// CHECK: mk.matmul {{.*}} : tensor<4x64xf32>, tensor<64x32xf32> -> tensor<4x32xf32>
// CHECK-NOT: linalg.
// CHECK: return
func.func @named_broadcast_batch1_weight(%x: tensor<1x4x64xf32>, %w: tensor<64x32xf32>) -> tensor<1x4x32xf32> {
  %cst = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<1x64x32xf32>
  %wb = linalg.broadcast ins(%w : tensor<64x32xf32>) outs(%e1 : tensor<1x64x32xf32>) dimensions = [0]
  %e2 = tensor.empty() : tensor<1x4x32xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e2 : tensor<1x4x32xf32>) -> tensor<1x4x32xf32>
  %m = linalg.batch_matmul ins(%x, %wb : tensor<1x4x64xf32>, tensor<1x64x32xf32>) outs(%f : tensor<1x4x32xf32>) -> tensor<1x4x32xf32>
  return %m : tensor<1x4x32xf32>
}

// -----

// A broadcast that nothing imported reads stays, with a remark.
// REMARK: remark: mirage-import: left outside: a broadcast copy not folded into its users (mk has no broadcast op: the copy folds only when every user is imported)
// CHECK-LABEL: func.func @named_broadcast_returned(
// CHECK: linalg.broadcast
func.func @named_broadcast_returned(%m: tensor<4xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %b = linalg.broadcast ins(%m : tensor<4xf32>) outs(%e : tensor<4x8xf32>) dimensions = [1]
  return %b : tensor<4x8xf32>
}
