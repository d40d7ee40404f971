// RUN: not mirage-opt %s -split-input-file 2>&1 | FileCheck %s
// RUN: mirage-opt %s -split-input-file > /dev/null 2>&1; test $? -eq 1

// Malformed mk.max: each case is a diagnostic at the op's line and the tool
// exits with 1 (an error, not a crash).

func.func @C0_4_no_broadcast(%x: tensor<2x8xf16>, %y: tensor<2x3xf16>) -> tensor<2x8xf16> {
  // CHECK: errors/max.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'mk.max' op [C0.4] shapes [2, 8] and [2, 3] do not broadcast (each dim must be equal or 1)
  %0 = mk.max %x, %y : tensor<2x8xf16>, tensor<2x3xf16> -> tensor<2x8xf16>
  return %0 : tensor<2x8xf16>
}

// -----

func.func @C0_4_rank_differs(%x: tensor<2x8xbf16>, %y: tensor<8xbf16>) -> tensor<2x8xbf16> {
  // CHECK: errors/max.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'mk.max' op [C0.4] operands must have equal rank, got 2 and 1
  %0 = mk.max %x, %y : tensor<2x8xbf16>, tensor<8xbf16> -> tensor<2x8xbf16>
  return %0 : tensor<2x8xbf16>
}

// -----

func.func @C0_8_element_types_differ(%x: tensor<2x8xf32>, %y: tensor<2x8xf16>) -> tensor<2x8xf32> {
  // CHECK: errors/max.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'mk.max' op [C0.8] operand element types differ: 'f32' vs 'f16'
  %0 = mk.max %x, %y : tensor<2x8xf32>, tensor<2x8xf16> -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}
