// RUN: mirage-opt --mirage-import %s | FileCheck %s
// RUN: mirage-opt --mirage-import %s | mirage-opt --mirage-check-equivalence -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQ
// RUN: mirage-run --import-check %s | FileCheck %s --check-prefix=DIFF

// The differential check (docs/import.md): each function written in
// linalg/tosa, run by upstream MLIR's CPU lowering in f32, against the f64
// interpreter of its import, on the same seeded inputs.
// DIFF: PASS @linalg_lora
// DIFF: 1 passed, 0 failed, 0 not checked

// The lora benchmark (bench/programs/lora.mlir) in linalg: three matmuls into
// zero fills (one fill shared by two of them) and the named linalg.add.

// EQ: remark: equivalent to @lora

func.func @lora(%X: tensor<16x256xf16>, %W: tensor<256x4096xf16>, %A: tensor<256x16xf16>, %B: tensor<16x4096xf16>) -> tensor<16x4096xf16> {
  %xw = mk.matmul %X, %W : tensor<16x256xf16>, tensor<256x4096xf16> -> tensor<16x4096xf16>
  %xa = mk.matmul %X, %A : tensor<16x256xf16>, tensor<256x16xf16> -> tensor<16x16xf16>
  %xab = mk.matmul %xa, %B : tensor<16x16xf16>, tensor<16x4096xf16> -> tensor<16x4096xf16>
  %o = mk.add %xw, %xab : tensor<16x4096xf16>, tensor<16x4096xf16> -> tensor<16x4096xf16>
  return %o : tensor<16x4096xf16>
}

// CHECK-LABEL: func.func @linalg_lora
// CHECK-NEXT: %[[XW:.*]] = mk.matmul
// CHECK-NEXT: %[[XA:.*]] = mk.matmul
// CHECK-NEXT: %[[XAB:.*]] = mk.matmul %[[XA]]
// CHECK-NEXT: %[[O:.*]] = mk.add %[[XW]], %[[XAB]]
// CHECK-NEXT: return %[[O]]
func.func @linalg_lora(%x: tensor<16x256xf16>, %w: tensor<256x4096xf16>, %a: tensor<256x16xf16>, %b: tensor<16x4096xf16>) -> tensor<16x4096xf16> attributes {mk.reference = @lora} {
  %cst = arith.constant 0.000000e+00 : f16
  %e0 = tensor.empty() : tensor<16x4096xf16>
  %f0 = linalg.fill ins(%cst : f16) outs(%e0 : tensor<16x4096xf16>) -> tensor<16x4096xf16>
  %xw = linalg.matmul ins(%x, %w : tensor<16x256xf16>, tensor<256x4096xf16>) outs(%f0 : tensor<16x4096xf16>) -> tensor<16x4096xf16>
  %e1 = tensor.empty() : tensor<16x16xf16>
  %f1 = linalg.fill ins(%cst : f16) outs(%e1 : tensor<16x16xf16>) -> tensor<16x16xf16>
  %xa = linalg.matmul ins(%x, %a : tensor<16x256xf16>, tensor<256x16xf16>) outs(%f1 : tensor<16x16xf16>) -> tensor<16x16xf16>
  %xab = linalg.matmul ins(%xa, %b : tensor<16x16xf16>, tensor<16x4096xf16>) outs(%f0 : tensor<16x4096xf16>) -> tensor<16x4096xf16>
  %o = linalg.add ins(%xw, %xab : tensor<16x4096xf16>, tensor<16x4096xf16>) outs(%e0 : tensor<16x4096xf16>) -> tensor<16x4096xf16>
  return %o : tensor<16x4096xf16>
}
