// RUN: not mirage-opt %s -split-input-file 2>&1 | FileCheck %s
// RUN: mirage-opt %s -split-input-file > /dev/null 2>&1; test $? -eq 1

// Malformed mk.rms_norm: each case is a diagnostic at the op's line and the tool
// exits with 1 (an error, not a crash).

func.func @C0_10_negative_eps(%x: tensor<2x8xf16>) -> tensor<2x8xf16> {
  // CHECK: errors/rms_norm.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'mk.rms_norm' op [C0.10] eps must be >= 0, got -1.000000e+00
  %0 = mk.rms_norm %x eps = -1.0 : tensor<2x8xf16>
  return %0 : tensor<2x8xf16>
}

// -----

func.func @C0_11_weight_shape(%x: tensor<2x8xf16>, %w: tensor<2x8xf16>) -> tensor<2x8xf16> {
  // CHECK: errors/rms_norm.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'mk.rms_norm' op [C0.11] weight must be a rank-1 tensor of 8 elements of 'f16', got 'tensor<2x8xf16>'
  %0 = mk.rms_norm %x weight(%w : tensor<2x8xf16>) eps = 1.0e-6 : tensor<2x8xf16>
  return %0 : tensor<2x8xf16>
}

// -----

func.func @result_type_differs(%x: tensor<2x8xf16>) -> tensor<2x8xf32> {
  // CHECK: errors/rms_norm.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'mk.rms_norm' op failed to verify that all of {input, result} have same type
  %0 = "mk.rms_norm"(%x) <{eps = 1.0e-6 : f64}> : (tensor<2x8xf16>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}
