// RUN: not mirage-opt %s -split-input-file 2>&1 | FileCheck %s
// RUN: mirage-opt %s -split-input-file > /dev/null 2>&1; test $? -eq 1

// Malformed mk.where: each case is a diagnostic at the op's line and the tool
// exits with 1 (an error, not a crash).

func.func @C0_4_rank_differs(%m: tensor<8xf16>, %x: tensor<2x8xf16>) -> tensor<2x8xf16> {
  // CHECK: errors/where.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'mk.where' op [C0.4] operands must have equal rank, got 1 and 2
  %0 = mk.where %m, %x fill = 0.0 : tensor<8xf16>, tensor<2x8xf16> -> tensor<2x8xf16>
  return %0 : tensor<2x8xf16>
}

// -----

func.func @C0_8_element_types_differ(%m: tensor<2x8xf32>, %x: tensor<2x8xf16>) -> tensor<2x8xf16> {
  // CHECK: errors/where.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'mk.where' op [C0.8] operand element types differ: 'f32' vs 'f16'
  %0 = mk.where %m, %x fill = 0.0 : tensor<2x8xf32>, tensor<2x8xf16> -> tensor<2x8xf16>
  return %0 : tensor<2x8xf16>
}

// -----

func.func @missing_fill(%m: tensor<2x8xf16>, %x: tensor<2x8xf16>) -> tensor<2x8xf16> {
  // CHECK: errors/where.mlir:[[@LINE+1]]:{{[0-9]+}}: error: custom op 'mk.where' expected 'fill'
  %0 = mk.where %m, %x : tensor<2x8xf16>, tensor<2x8xf16> -> tensor<2x8xf16>
  return %0 : tensor<2x8xf16>
}
