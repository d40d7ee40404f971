// RUN: not mirage-opt %s -split-input-file 2>&1 | FileCheck %s
// RUN: mirage-opt %s -split-input-file > /dev/null 2>&1; test $? -eq 1

// Malformed mk.concat: each case is a diagnostic at the op's line and the tool
// exits with 1 (an error, not a crash).

func.func @C0_12_one_operand(%x: tensor<2x8xf16>) -> tensor<2x8xf16> {
  // CHECK: errors/concat.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'mk.concat' op [C0.12] needs at least two operands, got 1
  %0 = mk.concat %x dim = 0 : tensor<2x8xf16> -> tensor<2x8xf16>
  return %0 : tensor<2x8xf16>
}

// -----

func.func @C0_13_other_dim_differs(%x: tensor<2x8xf16>, %y: tensor<3x4xf16>) -> tensor<5x8xf16> {
  // CHECK: errors/concat.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'mk.concat' op [C0.13] operand #1 differs in dim 1 (4 vs 8)
  %0 = mk.concat %x, %y dim = 0 : tensor<2x8xf16>, tensor<3x4xf16> -> tensor<5x8xf16>
  return %0 : tensor<5x8xf16>
}

// -----

func.func @wrong_result_size(%x: tensor<2x8xf16>) -> tensor<2x17xf16> {
  // CHECK: errors/concat.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'mk.concat' op [C0.14] result type 'tensor<2x17xf16>' should be 'tensor<2x16xf16>'
  %0 = mk.concat %x, %x dim = 1 : tensor<2x8xf16>, tensor<2x8xf16> -> tensor<2x17xf16>
  return %0 : tensor<2x17xf16>
}
