// RUN: mirage-opt --mirage-import %s | FileCheck %s
// RUN: mirage-run --import-check %s | FileCheck %s --check-prefix=DIFF

// Contractions that are a (batched) matmul after a permutation of their dims
// (issue 30, item 2): linalg.matmul and batch_matmul with indexing maps
// that transpose the output or broadcast an operand, linalg.contract, and
// linalg.generic contractions of higher rank (TF's attention scores and
// context kept as [b, s, h, d]). Each operand is transposed to (batch, M, K)
// or (batch, K, N), groups of dims are joined by a view, one mk.matmul, then
// the result goes back to the output's order.
// DIFF: PASS @tout
// DIFF: PASS @bcast_b
// DIFF: PASS @contract
// DIFF: PASS @tf_scores
// DIFF: PASS @tf_context
// DIFF: PASS @bcast_a
// DIFF: PASS @grouped_k
// DIFF: PASS @batch_reduce
// DIFF: PASS @matvec
// DIFF: 9 passed, 0 failed, 0 not checked

// A matmul whose output map is transposed.
// CHECK-LABEL: func.func @tout(
// CHECK-NEXT: %[[M:.*]] = mk.matmul %arg0, %arg1 : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
// CHECK-NEXT: %[[T:.*]] = mk.transpose %[[M]] perm = [1, 0]
// CHECK-NEXT: return %[[T]]
func.func @tout(%a: tensor<4x8xf32>, %b: tensor<8x6xf32>) -> tensor<6x4xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6x4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<6x4xf32>) -> tensor<6x4xf32>
  %y = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d1, d0)>]
         ins(%a, %b : tensor<4x8xf32>, tensor<8x6xf32>) outs(%f : tensor<6x4xf32>) -> tensor<6x4xf32>
  return %y : tensor<6x4xf32>
}

// B shared by the batch (a weight): the batch joins A's rows.
// CHECK-LABEL: func.func @bcast_b(
// CHECK-NEXT: %[[A:.*]] = mk.reshape %arg0 : tensor<2x4x8xf32> -> tensor<8x8xf32>
// CHECK-NEXT: %[[M:.*]] = mk.matmul %[[A]], %arg1 : tensor<8x8xf32>, tensor<8x6xf32> -> tensor<8x6xf32>
// CHECK-NEXT: %[[R:.*]] = mk.reshape %[[M]] : tensor<8x6xf32> -> tensor<2x4x6xf32>
// CHECK-NEXT: return %[[R]]
func.func @bcast_b(%a: tensor<2x4x8xf32>, %b: tensor<8x6xf32>) -> tensor<2x4x6xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x6xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<2x4x6xf32>) -> tensor<2x4x6xf32>
  %y = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
         ins(%a, %b : tensor<2x4x8xf32>, tensor<8x6xf32>) outs(%f : tensor<2x4x6xf32>) -> tensor<2x4x6xf32>
  return %y : tensor<2x4x6xf32>
}

// linalg.contract with B read transposed (nn.Linear).
// CHECK-LABEL: func.func @contract(
// CHECK-NEXT: %[[T:.*]] = mk.transpose %arg1 perm = [1, 0]
// CHECK-NEXT: %[[M:.*]] = mk.matmul %arg0, %[[T]]
// CHECK-NEXT: return %[[M]]
func.func @contract(%a: tensor<4x8xf32>, %b: tensor<6x8xf32>) -> tensor<4x6xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x6xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
  %y = linalg.contract indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
         ins(%a, %b : tensor<4x8xf32>, tensor<6x8xf32>) outs(%f : tensor<4x6xf32>) -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}

// CHECK-LABEL: func.func @tf_scores(
// The two batch dims merge into one (a view): kernels take matmuls of rank 3.
// CHECK-NEXT: %[[Q:.*]] = mk.transpose %arg0 perm = [0, 2, 1, 3] : tensor<2x4x3x8xf32> -> tensor<2x3x4x8xf32>
// CHECK-NEXT: %[[Q3:.*]] = mk.reshape %[[Q]] : tensor<2x3x4x8xf32> -> tensor<6x4x8xf32>
// CHECK-NEXT: %[[K:.*]] = mk.transpose %arg1 perm = [0, 2, 3, 1] : tensor<2x5x3x8xf32> -> tensor<2x3x8x5xf32>
// CHECK-NEXT: %[[K3:.*]] = mk.reshape %[[K]] : tensor<2x3x8x5xf32> -> tensor<6x8x5xf32>
// CHECK-NEXT: %[[M:.*]] = mk.matmul %[[Q3]], %[[K3]] : tensor<6x4x8xf32>, tensor<6x8x5xf32> -> tensor<6x4x5xf32>
// CHECK-NEXT: %[[R:.*]] = mk.reshape %[[M]] : tensor<6x4x5xf32> -> tensor<2x3x4x5xf32>
// CHECK-NEXT: return %[[R]]
func.func @tf_scores(%q: tensor<2x4x3x8xf32>, %k: tensor<2x5x3x8xf32>) -> tensor<2x3x4x5xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3x4x5xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(b, h, s, t, d) -> (b, s, h, d)>, affine_map<(b, h, s, t, d) -> (b, t, h, d)>, affine_map<(b, h, s, t, d) -> (b, h, s, t)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
         ins(%q, %k : tensor<2x4x3x8xf32>, tensor<2x5x3x8xf32>) outs(%f : tensor<2x3x4x5xf32>) {
  ^bb0(%x: f32, %w: f32, %acc: f32):
    %m = arith.mulf %x, %w : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x3x4x5xf32>
  return %y : tensor<2x3x4x5xf32>
}

// CHECK-LABEL: func.func @tf_context(
// CHECK-NEXT: %[[P:.*]] = mk.reshape %arg0 : tensor<2x3x4x5xf32> -> tensor<6x4x5xf32>
// CHECK-NEXT: %[[V:.*]] = mk.transpose %arg1 perm = [0, 2, 1, 3] : tensor<2x5x3x8xf32> -> tensor<2x3x5x8xf32>
// CHECK-NEXT: %[[V3:.*]] = mk.reshape %[[V]] : tensor<2x3x5x8xf32> -> tensor<6x5x8xf32>
// CHECK-NEXT: %[[M:.*]] = mk.matmul %[[P]], %[[V3]] : tensor<6x4x5xf32>, tensor<6x5x8xf32> -> tensor<6x4x8xf32>
// CHECK-NEXT: %[[R:.*]] = mk.reshape %[[M]] : tensor<6x4x8xf32> -> tensor<2x3x4x8xf32>
// CHECK-NEXT: %[[T:.*]] = mk.transpose %[[R]] perm = [0, 2, 1, 3] : tensor<2x3x4x8xf32> -> tensor<2x4x3x8xf32>
// CHECK-NEXT: return %[[T]]
func.func @tf_context(%p: tensor<2x3x4x5xf32>, %v: tensor<2x5x3x8xf32>) -> tensor<2x4x3x8xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x3x8xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<2x4x3x8xf32>) -> tensor<2x4x3x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(b, s, h, d, t) -> (b, h, s, t)>, affine_map<(b, s, h, d, t) -> (b, t, h, d)>, affine_map<(b, s, h, d, t) -> (b, s, h, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
         ins(%p, %v : tensor<2x3x4x5xf32>, tensor<2x5x3x8xf32>) outs(%f : tensor<2x4x3x8xf32>) {
  ^bb0(%x: f32, %w: f32, %acc: f32):
    %m = arith.mulf %x, %w : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x4x3x8xf32>
  return %y : tensor<2x4x3x8xf32>
}

// A broadcast A (one matrix for every batch): the batch joins B's columns,
// and the result goes back to (batch, M, N).
// CHECK-LABEL: func.func @bcast_a(
// CHECK-NEXT: %[[B:.*]] = mk.transpose %arg1 perm = [1, 0, 2] : tensor<2x8x6xf32> -> tensor<8x2x6xf32>
// CHECK-NEXT: %[[V:.*]] = mk.reshape %[[B]] : tensor<8x2x6xf32> -> tensor<8x12xf32>
// CHECK-NEXT: %[[M:.*]] = mk.matmul %arg0, %[[V]] : tensor<4x8xf32>, tensor<8x12xf32> -> tensor<4x12xf32>
// CHECK-NEXT: %[[R:.*]] = mk.reshape %[[M]] : tensor<4x12xf32> -> tensor<4x2x6xf32>
// CHECK-NEXT: %[[T:.*]] = mk.transpose %[[R]] perm = [1, 0, 2] : tensor<4x2x6xf32> -> tensor<2x4x6xf32>
// CHECK-NEXT: return %[[T]]
func.func @bcast_a(%a: tensor<4x8xf32>, %b: tensor<2x8x6xf32>) -> tensor<2x4x6xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x6xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<2x4x6xf32>) -> tensor<2x4x6xf32>
  %y = linalg.batch_matmul indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>]
         ins(%a, %b : tensor<4x8xf32>, tensor<2x8x6xf32>) outs(%f : tensor<2x4x6xf32>) -> tensor<2x4x6xf32>
  return %y : tensor<2x4x6xf32>
}

// Two contracted dims (heads and head dim of an output projection,
// [s, h, d] x [h, d, n] -> [s, n]) joined into one, accumulating into a
// bias (C = init + A B).
// CHECK-LABEL: func.func @grouped_k(
// CHECK-NEXT: %[[A:.*]] = mk.reshape %arg0 : tensor<4x3x8xf32> -> tensor<4x24xf32>
// CHECK-NEXT: %[[B:.*]] = mk.reshape %arg1 : tensor<3x8x6xf32> -> tensor<24x6xf32>
// CHECK-NEXT: %[[M:.*]] = mk.matmul %[[A]], %[[B]] : tensor<4x24xf32>, tensor<24x6xf32> -> tensor<4x6xf32>
// CHECK-NEXT: %[[S:.*]] = mk.add %[[M]], %arg2
// CHECK-NEXT: return %[[S]]
func.func @grouped_k(%a: tensor<4x3x8xf32>, %b: tensor<3x8x6xf32>, %c: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %y = linalg.generic {indexing_maps = [affine_map<(s, n, h, d) -> (s, h, d)>, affine_map<(s, n, h, d) -> (h, d, n)>, affine_map<(s, n, h, d) -> (s, n)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
         ins(%a, %b : tensor<4x3x8xf32>, tensor<3x8x6xf32>) outs(%c : tensor<4x6xf32>) {
  ^bb0(%x: f32, %w: f32, %acc: f32):
    %m = arith.mulf %w, %x : f32
    %s = arith.addf %m, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}

// linalg.batch_reduce_matmul sums the products of the batch: the batch is
// contracted with K.
// CHECK-LABEL: func.func @batch_reduce(
// CHECK-NEXT: %[[A:.*]] = mk.transpose %arg0 perm = [1, 0, 2] : tensor<3x4x8xf32> -> tensor<4x3x8xf32>
// CHECK-NEXT: %[[AV:.*]] = mk.reshape %[[A]] : tensor<4x3x8xf32> -> tensor<4x24xf32>
// CHECK-NEXT: %[[BV:.*]] = mk.reshape %arg1 : tensor<3x8x6xf32> -> tensor<24x6xf32>
// CHECK-NEXT: %[[M:.*]] = mk.matmul %[[AV]], %[[BV]]
// CHECK-NEXT: return %[[M]]
func.func @batch_reduce(%a: tensor<3x4x8xf32>, %b: tensor<3x8x6xf32>) -> tensor<4x6xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x6xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4x6xf32>) -> tensor<4x6xf32>
  %y = linalg.batch_reduce_matmul ins(%a, %b : tensor<3x4x8xf32>, tensor<3x8x6xf32>) outs(%f : tensor<4x6xf32>) -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}

// A matrix-vector product: the vector is a one-column matrix (a view).
// CHECK-LABEL: func.func @matvec(
// CHECK-NEXT: %[[X:.*]] = mk.reshape %arg1 : tensor<8xf32> -> tensor<8x1xf32>
// CHECK-NEXT: %[[M:.*]] = mk.matmul %arg0, %[[X]] : tensor<4x8xf32>, tensor<8x1xf32> -> tensor<4x1xf32>
// CHECK-NEXT: %[[R:.*]] = mk.reshape %[[M]] : tensor<4x1xf32> -> tensor<4xf32>
// CHECK-NEXT: return %[[R]]
func.func @matvec(%a: tensor<4x8xf32>, %x: tensor<8xf32>) -> tensor<4xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %y = linalg.matvec ins(%a, %x : tensor<4x8xf32>, tensor<8xf32>) outs(%f : tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
