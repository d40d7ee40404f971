// RUN: mirage-opt --mirage-import %s | FileCheck %s
// RUN: mirage-opt --mirage-import %s | mirage-opt --mirage-check-equivalence -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQ
// RUN: mirage-run --import-check %s | FileCheck %s --check-prefix=DIFF

// The differential check (docs/import.md): each function written in
// linalg/tosa, run by upstream MLIR's CPU lowering in f32, against the f64
// interpreter of its import, on the same seeded inputs.
// DIFF: PASS @linear
// DIFF: PASS @at
// DIFF: PASS @scores
// DIFF: PASS @softmax
// DIFF: PASS @mlp
// DIFF: 5 passed, 0 failed, 0 not checked

// Layout ops as torch-mlir and IREE write them: matmuls whose maps read an
// operand transposed, linalg.transpose, generics that only copy or permute,
// and reductions that drop the reduced dim and put it back with
// tensor.expand_shape. Each imported function is checked against an mk
// reference.

#map_a = affine_map<(d0, d1, d2) -> (d0, d2)>
#map_bt = affine_map<(d0, d1, d2) -> (d1, d2)>
#map_at = affine_map<(d0, d1, d2) -> (d2, d0)>
#map_b = affine_map<(d0, d1, d2) -> (d2, d1)>
#map_c = affine_map<(d0, d1, d2) -> (d0, d1)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#tr2 = affine_map<(d0, d1) -> (d1, d0)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#drop2 = affine_map<(d0, d1, d2) -> (d0, d1)>

// A linear layer: x W^T with the weight in [out, in] layout (nn.Linear).
// EQ-DAG: remark: equivalent to @linear_ref
func.func @linear_ref(%x: tensor<4x64xf32>, %w: tensor<32x64xf32>) -> tensor<4x32xf32> {
  %wt = mk.transpose %w perm = [1, 0] : tensor<32x64xf32> -> tensor<64x32xf32>
  %y = mk.matmul %x, %wt : tensor<4x64xf32>, tensor<64x32xf32> -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}
// CHECK-LABEL: func.func @linear(
// CHECK-NEXT: %[[T:.*]] = mk.transpose %arg1 perm = [1, 0]
// CHECK-NEXT: %[[Y:.*]] = mk.matmul %arg0, %[[T]]
// CHECK-NEXT: return %[[Y]]
func.func @linear(%x: tensor<4x64xf32>, %w: tensor<32x64xf32>) -> tensor<4x32xf32> attributes {mk.reference = @linear_ref} {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x32xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4x32xf32>) -> tensor<4x32xf32>
  %y = linalg.matmul indexing_maps = [#map_a, #map_bt, #map_c]
         ins(%x, %w : tensor<4x64xf32>, tensor<32x64xf32>) outs(%f : tensor<4x32xf32>) -> tensor<4x32xf32>
  return %y : tensor<4x32xf32>
}

// A read transposed; the result is permuted back by a generic copy.
// EQ-DAG: remark: equivalent to @at_ref
func.func @at_ref(%a: tensor<64x4xf32>, %b: tensor<64x32xf32>) -> tensor<32x4xf32> {
  %at = mk.transpose %a perm = [1, 0] : tensor<64x4xf32> -> tensor<4x64xf32>
  %y = mk.matmul %at, %b : tensor<4x64xf32>, tensor<64x32xf32> -> tensor<4x32xf32>
  %t = mk.transpose %y perm = [1, 0] : tensor<4x32xf32> -> tensor<32x4xf32>
  return %t : tensor<32x4xf32>
}
// CHECK-LABEL: func.func @at(
// CHECK-NEXT: mk.transpose %arg0 perm = [1, 0]
// CHECK-NEXT: mk.matmul
// CHECK-NEXT: mk.transpose %{{.*}} perm = [1, 0] : tensor<4x32xf32> -> tensor<32x4xf32>
// CHECK-NEXT: return
func.func @at(%a: tensor<64x4xf32>, %b: tensor<64x32xf32>) -> tensor<32x4xf32> attributes {mk.reference = @at_ref} {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x32xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4x32xf32>) -> tensor<4x32xf32>
  %y = linalg.matmul indexing_maps = [#map_at, #map_b, #map_c]
         ins(%a, %b : tensor<64x4xf32>, tensor<64x32xf32>) outs(%f : tensor<4x32xf32>) -> tensor<4x32xf32>
  %e2 = tensor.empty() : tensor<32x4xf32>
  %t = linalg.generic {indexing_maps = [#tr2, #id2], iterator_types = ["parallel", "parallel"]}
         ins(%y : tensor<4x32xf32>) outs(%e2 : tensor<32x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<32x4xf32>
  return %t : tensor<32x4xf32>
}

// Batched attention scores Q K^T through linalg.transpose, an identity copy,
// then a softmax whose max and sum drop the reduced dim (torch-mlir).
// EQ-DAG: remark: equivalent to @scores_ref
func.func @scores_ref(%q: tensor<2x8x16xf32>, %k: tensor<2x8x16xf32>) -> tensor<2x8x8xf32> {
  %kt = mk.transpose %k perm = [0, 2, 1] : tensor<2x8x16xf32> -> tensor<2x16x8xf32>
  %s = mk.matmul %q, %kt : tensor<2x8x16xf32>, tensor<2x16x8xf32> -> tensor<2x8x8xf32>
  %m = mk.reduce_max %s dim = 2 : tensor<2x8x8xf32> -> tensor<2x8x1xf32>
  %d = mk.sub %s, %m : tensor<2x8x8xf32>, tensor<2x8x1xf32> -> tensor<2x8x8xf32>
  %e = mk.exp %d : tensor<2x8x8xf32>
  %z = mk.reduce_sum %e dim = 2 : tensor<2x8x8xf32> -> tensor<2x8x1xf32>
  %p = mk.div %e, %z : tensor<2x8x8xf32>, tensor<2x8x1xf32> -> tensor<2x8x8xf32>
  return %p : tensor<2x8x8xf32>
}
// CHECK-LABEL: func.func @scores(
// CHECK-NEXT: mk.transpose %arg1 perm = [0, 2, 1]
// CHECK-NEXT: mk.matmul
// CHECK-NEXT: mk.reduce_max %{{.*}} dim = 2 : tensor<2x8x8xf32> -> tensor<2x8x1xf32>
// CHECK-NEXT: mk.sub
// CHECK-NEXT: mk.exp
// CHECK-NEXT: mk.reduce_sum %{{.*}} dim = 2 : tensor<2x8x8xf32> -> tensor<2x8x1xf32>
// CHECK-NEXT: mk.div
// CHECK-NEXT: return
func.func @scores(%q: tensor<2x8x16xf32>, %k: tensor<2x8x16xf32>) -> tensor<2x8x8xf32> attributes {mk.reference = @scores_ref} {
  %cst = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : tensor<2x16x8xf32>
  %kt = linalg.transpose ins(%k : tensor<2x8x16xf32>) outs(%e0 : tensor<2x16x8xf32>) permutation = [0, 2, 1]
  %e1 = tensor.empty() : tensor<2x8x8xf32>
  %f1 = linalg.fill ins(%cst : f32) outs(%e1 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s0 = linalg.batch_matmul ins(%q, %kt : tensor<2x8x16xf32>, tensor<2x16x8xf32>) outs(%f1 : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %s = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
         ins(%s0 : tensor<2x8x8xf32>) outs(%e1 : tensor<2x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<2x8x8xf32>
  %e2 = tensor.empty() : tensor<2x8xf32>
  %fm = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %m0 = linalg.generic {indexing_maps = [#id3, #drop2], iterator_types = ["parallel", "parallel", "reduction"]}
         ins(%s : tensor<2x8x8xf32>) outs(%fm : tensor<2x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.maximumf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<2x8xf32>
  %m = tensor.expand_shape %m0 [[0], [1, 2]] output_shape [2, 8, 1] : tensor<2x8xf32> into tensor<2x8x1xf32>
  %ex = linalg.generic {indexing_maps = [#id3, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
         ins(%s, %m : tensor<2x8x8xf32>, tensor<2x8x1xf32>) outs(%e1 : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %0 = arith.subf %a, %b : f32
    %1 = math.exp %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x8x8xf32>
  %fs = linalg.fill ins(%cst : f32) outs(%e2 : tensor<2x8xf32>) -> tensor<2x8xf32>
  %z0 = linalg.reduce ins(%ex : tensor<2x8x8xf32>) outs(%fs : tensor<2x8xf32>) dimensions = [2]
    (%in: f32, %acc: f32) {
      %0 = arith.addf %in, %acc : f32
      linalg.yield %0 : f32
    }
  %z = tensor.expand_shape %z0 [[0], [1, 2]] output_shape [2, 8, 1] : tensor<2x8xf32> into tensor<2x8x1xf32>
  %p = linalg.generic {indexing_maps = [#id3, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
         ins(%ex, %z : tensor<2x8x8xf32>, tensor<2x8x1xf32>) outs(%e1 : tensor<2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %0 = arith.divf %a, %b : f32
    linalg.yield %0 : f32
  } -> tensor<2x8x8xf32>
  return %p : tensor<2x8x8xf32>
}

// The named linalg.softmax becomes the max-subtracted form.
// EQ-DAG: remark: equivalent to @softmax_ref
func.func @softmax_ref(%x: tensor<4x32xf16>) -> tensor<4x32xf16> {
  %m = mk.reduce_max %x dim = 1 : tensor<4x32xf16> -> tensor<4x1xf16>
  %d = mk.sub %x, %m : tensor<4x32xf16>, tensor<4x1xf16> -> tensor<4x32xf16>
  %e = mk.exp %d : tensor<4x32xf16>
  %z = mk.reduce_sum %e dim = 1 : tensor<4x32xf16> -> tensor<4x1xf16>
  %p = mk.div %e, %z : tensor<4x32xf16>, tensor<4x1xf16> -> tensor<4x32xf16>
  return %p : tensor<4x32xf16>
}
// CHECK-LABEL: func.func @softmax(
// CHECK-NEXT: mk.reduce_max %arg0 dim = 1
// CHECK-NEXT: mk.sub
// CHECK-NEXT: mk.exp
// CHECK-NEXT: mk.reduce_sum %{{.*}} dim = 1
// CHECK-NEXT: mk.div
// CHECK-NEXT: return
func.func @softmax(%x: tensor<4x32xf16>) -> tensor<4x32xf16> attributes {mk.reference = @softmax_ref} {
  %e = tensor.empty() : tensor<4x32xf16>
  %p = linalg.softmax dimension(1) ins(%x : tensor<4x32xf16>) outs(%e : tensor<4x32xf16>) -> tensor<4x32xf16>
  return %p : tensor<4x32xf16>
}

// TPP's MLP layer: the bias broadcast into the output by a copy, the matmul
// accumulating into it, then relu: C = A B + bias.
// EQ-DAG: remark: equivalent to @mlp_ref
func.func @mlp_ref(%x: tensor<8x16xf32>, %w: tensor<16x32xf32>, %b: tensor<1x32xf32>, %unused: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %m = mk.matmul %x, %w : tensor<8x16xf32>, tensor<16x32xf32> -> tensor<8x32xf32>
  %a = mk.add %m, %b : tensor<8x32xf32>, tensor<1x32xf32> -> tensor<8x32xf32>
  %r = mk.relu %a : tensor<8x32xf32>
  return %r : tensor<8x32xf32>
}
// CHECK-LABEL: func.func @mlp(
// CHECK-NEXT: %[[M:.*]] = mk.matmul %arg0, %arg1
// CHECK-NEXT: %[[A:.*]] = mk.add %[[M]], %arg2 : tensor<8x32xf32>, tensor<1x32xf32> -> tensor<8x32xf32>
// CHECK-NEXT: %[[R:.*]] = mk.relu %[[A]]
// CHECK-NEXT: return %[[R]]
func.func @mlp(%x: tensor<8x16xf32>, %w: tensor<16x32xf32>, %b: tensor<1x32xf32>, %out: tensor<8x32xf32>) -> tensor<8x32xf32> attributes {mk.reference = @mlp_ref} {
  %c0 = arith.constant 0.0 : f32
  %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d1)>, #id2], iterator_types = ["parallel", "parallel"]}
         ins(%b : tensor<1x32xf32>) outs(%out : tensor<8x32xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<8x32xf32>
  %2 = linalg.matmul ins(%x, %w : tensor<8x16xf32>, tensor<16x32xf32>) outs(%1 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %3 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
         ins(%2 : tensor<8x32xf32>) outs(%out : tensor<8x32xf32>) {
  ^bb0(%in: f32, %o: f32):
    %4 = arith.maximumf %in, %c0 : f32
    linalg.yield %4 : f32
  } -> tensor<8x32xf32>
  return %3 : tensor<8x32xf32>
}
