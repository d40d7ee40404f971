// REQUIRES: libomp
// RUN: mirage-opt --mirage-import %s -o %t.mlir
// RUN: mirage-run %t.mlir --func=layernorm --sizes tokens=1..8:100 | FileCheck %s
// RUN: mirage-run %t.mlir --func=linear_heads --sizes s0=1..197 | FileCheck %s
// RUN: not mirage-run %t.mlir --func=layernorm --sizes tokens=5000 2>&1 | FileCheck %s --check-prefix=FACTS
// RUN: mirage-run %t.mlir --func=softmax_all_dynamic --sizes s0=1:3,s1=1..69:128:129 | FileCheck %s --check-prefix=SOFTMAX
// RUN: mirage-run %t.mlir --func=matmul_dynamic_k --sizes s0=1..69:128:129:300 | FileCheck %s --check-prefix=MATMUL

// Exports with a dynamic row count, imported with it (docs/dynamic.md),
// compiled once and run at several sizes on the CPU path, each compared
// with the interpreter at its size (the Linear at every size from 1 to 3
// tiles + 5 of its 64-row tiles): an IREE-style LayerNorm (generics sized by tensor.dim and
// tensor.empty) and a torch-mlir-style Linear with bias, ReLU and a head
// split.

// IREE's all-dynamic softmax (rows and row length dynamic: the row length is
// reduced, walked by '?' loops of 64 with its tail masked) at every length
// to 64 + 5 and around 128, and a matmul with a dynamic contracted dim
// (walked by a '?' loop of 128; docs/dynamic.md "The walked tail").

// CHECK: PASS
// SOFTMAX: 142 sizes, one compiled program: 142 passed
// MATMUL: 72 sizes, one compiled program: 72 passed
// FACTS: size tokens = 5000 breaks its facts tokens (1 <= tokens <= 4096)

#map = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @layernorm(%x: tensor<?x96xf32> {mk.sizes = [#mk.size<name = "tokens", max = 4096>]},
                     %g: tensor<96xf32>, %b: tensor<96xf32>) -> tensor<?x96xf32> {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %n = arith.constant 9.600000e+01 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %d = tensor.dim %x, %c0 : tensor<?x96xf32>
  %e = tensor.empty(%d) : tensor<?xf32>
  %z = linalg.fill ins(%cst : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %sum = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<?x96xf32>) outs(%z : tensor<?xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  %e2 = tensor.empty(%d) : tensor<?x96xf32>
  %cen = linalg.generic {indexing_maps = [#map, #row, #map], iterator_types = ["parallel", "parallel"]} ins(%x, %sum : tensor<?x96xf32>, tensor<?xf32>) outs(%e2 : tensor<?x96xf32>) {
  ^bb0(%in: f32, %s: f32, %o: f32):
    %m = arith.divf %s, %n : f32
    %c = arith.subf %in, %m : f32
    linalg.yield %c : f32
  } -> tensor<?x96xf32>
  %z2 = linalg.fill ins(%cst : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %var = linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "reduction"]} ins(%cen : tensor<?x96xf32>) outs(%z2 : tensor<?xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %sq = arith.mulf %in, %in : f32
    %s = arith.addf %sq, %acc : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  %e3 = tensor.empty(%d) : tensor<?x96xf32>
  %y = linalg.generic {indexing_maps = [#map, #row, #col, #col, #map], iterator_types = ["parallel", "parallel"]} ins(%cen, %var, %g, %b : tensor<?x96xf32>, tensor<?xf32>, tensor<96xf32>, tensor<96xf32>) outs(%e3 : tensor<?x96xf32>) {
  ^bb0(%c: f32, %v: f32, %gg: f32, %bb: f32, %o: f32):
    %vm = arith.divf %v, %n : f32
    %ve = arith.addf %vm, %eps : f32
    %r = math.rsqrt %ve : f32
    %t = arith.mulf %c, %r : f32
    %u = arith.mulf %t, %gg : f32
    %w = arith.addf %u, %bb : f32
    linalg.yield %w : f32
  } -> tensor<?x96xf32>
  return %y : tensor<?x96xf32>
}

func.func @linear_heads(%x: tensor<?x64xf32>, %w: tensor<64x128xf32>, %bias: tensor<128xf32>) -> tensor<?x4x32xf32> {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 0.000000e+00 : f32
  %d = tensor.dim %x, %c0 : tensor<?x64xf32>
  %e = tensor.empty(%d) : tensor<?x128xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<?x128xf32>) -> tensor<?x128xf32>
  %m = linalg.matmul ins(%x, %w : tensor<?x64xf32>, tensor<64x128xf32>) outs(%f : tensor<?x128xf32>) -> tensor<?x128xf32>
  %e2 = tensor.empty(%d) : tensor<?x128xf32>
  %y = linalg.generic {indexing_maps = [#map, #col, #map], iterator_types = ["parallel", "parallel"]} ins(%m, %bias : tensor<?x128xf32>, tensor<128xf32>) outs(%e2 : tensor<?x128xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %z = arith.maximumf %s, %cst : f32
    linalg.yield %z : f32
  } -> tensor<?x128xf32>
  %h = tensor.expand_shape %y [[0], [1, 2]] output_shape [%d, 4, 32] : tensor<?x128xf32> into tensor<?x4x32xf32>
  return %h : tensor<?x4x32xf32>
}

func.func @softmax_all_dynamic(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

func.func @matmul_dynamic_k(%x: tensor<4x?xf32>, %w: tensor<?x96xf32>) -> tensor<4x96xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<4x96xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4x96xf32>) -> tensor<4x96xf32>
  %m = linalg.matmul ins(%x, %w : tensor<4x?xf32>, tensor<?x96xf32>) outs(%f : tensor<4x96xf32>) -> tensor<4x96xf32>
  return %m : tensor<4x96xf32>
}
