// RUN: not mirage-opt %s -split-input-file 2>&1 | FileCheck %s
// RUN: mirage-opt %s -split-input-file > /dev/null 2>&1; test $? -eq 1

// Malformed mk.rsqrt: each case is a diagnostic at the op's line and the tool
// exits with 1 (an error, not a crash).

func.func @wrong_element_type(%x: tensor<2x8xi32>) -> tensor<2x8xi32> {
  // CHECK: errors/rsqrt.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'mk.rsqrt' op operand #0 must be tensor of rank 1 to 4 with positive or dynamic dims and f16, bf16 or f32 elements [C0.1], but got 'tensor<2x8xi32>'
  %0 = mk.rsqrt %x : tensor<2x8xi32>
  return %0 : tensor<2x8xi32>
}

// -----

func.func @wrong_rank(%x: tensor<1x2x3x4x5xbf16>) -> tensor<1x2x3x4x5xbf16> {
  // CHECK: errors/rsqrt.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'mk.rsqrt' op operand #0 must be tensor of rank 1 to 4 with positive or dynamic dims and f16, bf16 or f32 elements [C0.1], but got 'tensor<1x2x3x4x5xbf16>'
  %0 = mk.rsqrt %x : tensor<1x2x3x4x5xbf16>
  return %0 : tensor<1x2x3x4x5xbf16>
}

// -----

func.func @result_type_differs(%x: tensor<2x8xf16>) -> tensor<2x8xf32> {
  // CHECK: errors/rsqrt.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'mk.rsqrt' op requires the same type for all operands and results
  %0 = "mk.rsqrt"(%x) : (tensor<2x8xf16>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}
