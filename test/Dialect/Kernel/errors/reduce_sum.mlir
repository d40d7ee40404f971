// RUN: not mirage-opt %s -split-input-file 2>&1 | FileCheck %s
// RUN: mirage-opt %s -split-input-file > /dev/null 2>&1; test $? -eq 1

// Malformed mk.reduce_sum: each case is a diagnostic at the op's line and the tool
// exits with 1 (an error, not a crash).

func.func @C0_9_dim_out_of_range(%x: tensor<2x8xf16>) -> tensor<2x1xf16> {
  // CHECK: errors/reduce_sum.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'mk.reduce_sum' op [C0.9] dim 2 is out of range for rank 2
  %0 = mk.reduce_sum %x dim = 2 : tensor<2x8xf16> -> tensor<2x1xf16>
  return %0 : tensor<2x1xf16>
}

// -----

func.func @result_drops_dim(%x: tensor<2x8xf32>) -> tensor<2xf32> {
  // CHECK: errors/reduce_sum.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'mk.reduce_sum' op [C0.14] result type 'tensor<2xf32>' should be 'tensor<2x1xf32>'
  %0 = mk.reduce_sum %x dim = 1 : tensor<2x8xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @wrong_element_type(%x: tensor<2x8xi1>) -> tensor<2x1xi1> {
  // CHECK: errors/reduce_sum.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'mk.reduce_sum' op operand #0 must be tensor of rank 1 to 4 with positive or dynamic dims and f16, bf16 or f32 elements [C0.1], but got 'tensor<2x8xi1>'
  %0 = mk.reduce_sum %x dim = 1 : tensor<2x8xi1> -> tensor<2x1xi1>
  return %0 : tensor<2x1xi1>
}
