// RUN: mirage-opt --mirage-import %s | FileCheck %s
// RUN: mirage-opt --mirage-import %s | mirage-opt --mirage-check-equivalence -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQ
// RUN: mirage-run --import-check %s | FileCheck %s --check-prefix=DIFF

// The differential check (docs/import.md): each function written in
// linalg/tosa, run by upstream MLIR's CPU lowering in f32, against the f64
// interpreter of its import, on the same seeded inputs.
// DIFF: PASS @torch
// DIFF: 1 passed, 0 failed, 0 not checked

// The gated_mlp benchmark (bench/programs/gated_mlp.mlir) as torch-mlir
// emits it: two matmuls into one zero fill, sigmoid written out as
// 1 / (1 + exp(-x)) in its own generic, then x * sigmoid(x) and the gate
// product. The pieces become mk.silu.

// EQ: remark: equivalent to @gated_mlp

func.func @gated_mlp(%X: tensor<8x4096xf16>, %W1: tensor<4096x4096xf16>, %W2: tensor<4096x4096xf16>) -> tensor<8x4096xf16> {
  %a = mk.matmul %X, %W1 : tensor<8x4096xf16>, tensor<4096x4096xf16> -> tensor<8x4096xf16>
  %b = mk.matmul %X, %W2 : tensor<8x4096xf16>, tensor<4096x4096xf16> -> tensor<8x4096xf16>
  %s = mk.silu %a : tensor<8x4096xf16>
  %o = mk.mul %s, %b : tensor<8x4096xf16>, tensor<8x4096xf16> -> tensor<8x4096xf16>
  return %o : tensor<8x4096xf16>
}

#id = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @torch
// CHECK-SAME: (%[[X:.*]]: tensor<8x4096xf16>, %[[W1:.*]]: tensor<4096x4096xf16>, %[[W2:.*]]: tensor<4096x4096xf16>)
// CHECK-NEXT: %[[A:.*]] = mk.matmul %[[X]], %[[W1]]
// CHECK-NEXT: %[[S:.*]] = mk.silu %[[A]] : tensor<8x4096xf16>
// CHECK-NEXT: %[[B:.*]] = mk.matmul %[[X]], %[[W2]]
// CHECK-NEXT: %[[O:.*]] = mk.mul %[[S]], %[[B]]
// CHECK-NEXT: return %[[O]]
func.func @torch(%x: tensor<8x4096xf16>, %w1: tensor<4096x4096xf16>, %w2: tensor<4096x4096xf16>) -> tensor<8x4096xf16> attributes {mk.reference = @gated_mlp} {
  %cst = arith.constant 0.000000e+00 : f16
  %one = arith.constant 1.000000e+00 : f16
  %0 = tensor.empty() : tensor<8x4096xf16>
  %1 = linalg.fill ins(%cst : f16) outs(%0 : tensor<8x4096xf16>) -> tensor<8x4096xf16>
  %2 = linalg.matmul ins(%x, %w1 : tensor<8x4096xf16>, tensor<4096x4096xf16>) outs(%1 : tensor<8x4096xf16>) -> tensor<8x4096xf16>
  %3 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%2 : tensor<8x4096xf16>) outs(%0 : tensor<8x4096xf16>) {
  ^bb0(%in: f16, %out: f16):
    %n = arith.negf %in : f16
    %e = math.exp %n : f16
    %a = arith.addf %e, %one : f16
    %d = arith.divf %one, %a : f16
    linalg.yield %d : f16
  } -> tensor<8x4096xf16>
  %4 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%2, %3 : tensor<8x4096xf16>, tensor<8x4096xf16>) outs(%0 : tensor<8x4096xf16>) {
  ^bb0(%in: f16, %in_0: f16, %out: f16):
    %m = arith.mulf %in, %in_0 : f16
    linalg.yield %m : f16
  } -> tensor<8x4096xf16>
  %5 = linalg.matmul ins(%x, %w2 : tensor<8x4096xf16>, tensor<4096x4096xf16>) outs(%1 : tensor<8x4096xf16>) -> tensor<8x4096xf16>
  %6 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%4, %5 : tensor<8x4096xf16>, tensor<8x4096xf16>) outs(%0 : tensor<8x4096xf16>) {
  ^bb0(%in: f16, %in_0: f16, %out: f16):
    %m = arith.mulf %in, %in_0 : f16
    linalg.yield %m : f16
  } -> tensor<8x4096xf16>
  return %6 : tensor<8x4096xf16>
}
