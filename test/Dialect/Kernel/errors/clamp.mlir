// RUN: not mirage-opt %s -split-input-file 2>&1 | FileCheck %s
// RUN: mirage-opt %s -split-input-file > /dev/null 2>&1; test $? -eq 1

// Malformed mk.clamp: each case is a diagnostic at the op's line and the tool
// exits with 1 (an error, not a crash).

func.func @C0_3_min_above_max(%x: tensor<2x8xf16>) -> tensor<2x8xf16> {
  // CHECK: errors/clamp.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'mk.clamp' op [C0.3] requires min <= max, got min = 1.000000e+00 and max = -1.000000e+00
  %0 = mk.clamp %x min = 1.0 max = -1.0 : tensor<2x8xf16>
  return %0 : tensor<2x8xf16>
}

// -----

func.func @missing_max(%x: tensor<2x8xf16>) -> tensor<2x8xf16> {
  // CHECK: errors/clamp.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'mk.clamp' op requires attribute 'max'
  %0 = "mk.clamp"(%x) <{min = 1.0 : f64}> : (tensor<2x8xf16>) -> tensor<2x8xf16>
  return %0 : tensor<2x8xf16>
}

// -----

func.func @wrong_rank(%x: tensor<f32>) -> tensor<f32> {
  // CHECK: errors/clamp.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'mk.clamp' op operand #0 must be tensor of rank 1 to 4 with positive or dynamic dims and f16, bf16 or f32 elements [C0.1], but got 'tensor<f32>'
  %0 = mk.clamp %x min = 0.0 max = 1.0 : tensor<f32>
  return %0 : tensor<f32>
}
