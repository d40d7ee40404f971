// RUN: not mirage-opt %s -split-input-file 2>&1 | FileCheck %s
// RUN: mirage-opt %s -split-input-file > /dev/null 2>&1; test $? -eq 1

// Malformed mk.reshape: each case is a diagnostic at the op's line and the tool
// exits with 1 (an error, not a crash).

func.func @K14_fewer_elements(%x: tensor<2x8x4xf32>) -> tensor<8x3xf32> {
  // CHECK: errors/reshape.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'mk.reshape' op [K14] result has 24 elements, the input 64
  %0 = mk.reshape %x : tensor<2x8x4xf32> -> tensor<8x3xf32>
  return %0 : tensor<8x3xf32>
}

// -----

func.func @K15_bf16_to_f16(%x: tensor<4x4xbf16>) -> tensor<16xf16> {
  // CHECK: errors/reshape.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'mk.reshape' op [K15] result element type 'f16' differs from the input's 'bf16'
  %0 = mk.reshape %x : tensor<4x4xbf16> -> tensor<16xf16>
  return %0 : tensor<16xf16>
}

// -----

func.func @C0_1_rank_5_result(%x: tensor<32xf16>) -> tensor<2x2x2x2x2xf16> {
  // CHECK: errors/reshape.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'mk.reshape' op result #0 must be tensor of rank 1 to 4 with positive or dynamic dims and f16, bf16 or f32 elements [C0.1], but got 'tensor<2x2x2x2x2xf16>'
  %0 = mk.reshape %x : tensor<32xf16> -> tensor<2x2x2x2x2xf16>
  return %0 : tensor<2x2x2x2x2xf16>
}
