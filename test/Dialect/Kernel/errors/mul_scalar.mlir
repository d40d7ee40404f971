// RUN: not mirage-opt %s -split-input-file 2>&1 | FileCheck %s
// RUN: mirage-opt %s -split-input-file > /dev/null 2>&1; test $? -eq 1

// Malformed mk.mul_scalar: each case is a diagnostic at the op's line and the tool
// exits with 1 (an error, not a crash).

func.func @wrong_element_type(%x: tensor<4xi8>) -> tensor<4xi8> {
  // CHECK: errors/mul_scalar.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'mk.mul_scalar' op operand #0 must be tensor of rank 1 to 4 with positive or dynamic dims and f16, bf16 or f32 elements [C0.1], but got 'tensor<4xi8>'
  %0 = mk.mul_scalar %x, 2.0 : tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

func.func @scalar_not_f64(%x: tensor<2x8xf16>) -> tensor<2x8xf16> {
  // CHECK: errors/mul_scalar.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'mk.mul_scalar' op attribute 'scalar' failed to satisfy constraint: 64-bit float attribute
  %0 = "mk.mul_scalar"(%x) <{scalar = 2.0 : f32}> : (tensor<2x8xf16>) -> tensor<2x8xf16>
  return %0 : tensor<2x8xf16>
}

// -----

func.func @missing_scalar(%x: tensor<2x8xf16>) -> tensor<2x8xf16> {
  // CHECK: errors/mul_scalar.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'mk.mul_scalar' op requires attribute 'scalar'
  %0 = "mk.mul_scalar"(%x) : (tensor<2x8xf16>) -> tensor<2x8xf16>
  return %0 : tensor<2x8xf16>
}
