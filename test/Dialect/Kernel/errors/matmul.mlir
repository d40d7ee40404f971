// RUN: not mirage-opt %s -split-input-file 2>&1 | FileCheck %s
// RUN: mirage-opt %s -split-input-file > /dev/null 2>&1; test $? -eq 1

// Malformed mk.matmul: each case is a diagnostic at the op's line and the tool
// exits with 1 (an error, not a crash).

func.func @C0_5_rank_1(%x: tensor<8xf16>, %w: tensor<8x4xf16>) -> tensor<4xf16> {
  // CHECK: errors/matmul.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'mk.matmul' op [C0.5] operands must have equal rank >= 2, got ranks 1 and 2
  %0 = mk.matmul %x, %w : tensor<8xf16>, tensor<8x4xf16> -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

func.func @C0_6_contraction_mismatch(%x: tensor<2x8xf16>, %w: tensor<4x8xf16>) -> tensor<2x8xf16> {
  // CHECK: errors/matmul.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'mk.matmul' op [C0.6] contraction dims differ: lhs [2, 8] has 8 columns but rhs [4, 8] has 4 rows
  %0 = mk.matmul %x, %w : tensor<2x8xf16>, tensor<4x8xf16> -> tensor<2x8xf16>
  return %0 : tensor<2x8xf16>
}

// -----

func.func @C0_8_element_types_differ(%x: tensor<2x2x8xf32>, %w: tensor<2x8x4xbf16>) -> tensor<2x2x4xf32> {
  // CHECK: errors/matmul.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'mk.matmul' op [C0.8] operand element types differ: 'f32' vs 'bf16'
  %0 = mk.matmul %x, %w : tensor<2x2x8xf32>, tensor<2x8x4xbf16> -> tensor<2x2x4xf32>
  return %0 : tensor<2x2x4xf32>
}
