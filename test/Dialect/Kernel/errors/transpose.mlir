// RUN: not mirage-opt %s -split-input-file 2>&1 | FileCheck %s
// RUN: mirage-opt %s -split-input-file > /dev/null 2>&1; test $? -eq 1

// Malformed mk.transpose: each case is a diagnostic at the op's line and the tool
// exits with 1 (an error, not a crash).

func.func @K1_perm_size(%x: tensor<2x8xf16>) -> tensor<8x2xf16> {
  // CHECK: errors/transpose.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'mk.transpose' op [K1] perm has 3 entries but the operand has rank 2
  %0 = mk.transpose %x perm = [1, 0, 2] : tensor<2x8xf16> -> tensor<8x2xf16>
  return %0 : tensor<8x2xf16>
}

// -----

func.func @K2_not_a_permutation(%x: tensor<2x8xf16>) -> tensor<8x8xf16> {
  // CHECK: errors/transpose.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'mk.transpose' op [K2] perm [1, 1] is not a permutation of 0..1
  %0 = mk.transpose %x perm = [1, 1] : tensor<2x8xf16> -> tensor<8x8xf16>
  return %0 : tensor<8x8xf16>
}

// -----

func.func @result_not_permuted(%x: tensor<2x8xf16>) -> tensor<2x8xf16> {
  // CHECK: errors/transpose.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'mk.transpose' op [C0.14] result type 'tensor<2x8xf16>' should be 'tensor<8x2xf16>'
  %0 = mk.transpose %x perm = [1, 0] : tensor<2x8xf16> -> tensor<2x8xf16>
  return %0 : tensor<2x8xf16>
}
