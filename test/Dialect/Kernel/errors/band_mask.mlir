// RUN: not mirage-opt %s -split-input-file 2>&1 | FileCheck %s
// RUN: mirage-opt %s -split-input-file > /dev/null 2>&1; test $? -eq 1

// Malformed mk.band_mask (the rule-by-rule cases of [C0.17] are in
// ../invalid.mlir): each case is a diagnostic at the op's line and the tool
// exits with 1 (an error, not a crash).

func.func @missing_dims(%x: tensor<8x8xf16>) -> tensor<8x8xf16> {
  // CHECK: errors/band_mask.mlir:[[@LINE+1]]:{{[0-9]+}}: error: custom op 'mk.band_mask' expected 'dims'
  %0 = mk.band_mask %x upper = 0 fill = 0.0 : tensor<8x8xf16>
  return %0 : tensor<8x8xf16>
}

// -----

func.func @negative_dim(%x: tensor<8x8xf16>) -> tensor<8x8xf16> {
  // CHECK: errors/band_mask.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'mk.band_mask' op [C0.17] dim -1 is not a dim of a rank-2 tensor
  %0 = mk.band_mask %x dims = [-1, 1] upper = 0 fill = 0.0 : tensor<8x8xf16>
  return %0 : tensor<8x8xf16>
}

// -----

func.func @block_coordinates_at_kernel_level(%x: tensor<8x8xf16>) -> tensor<8x8xf16> {
  // CHECK: errors/band_mask.mlir:[[@LINE+1]]:{{[0-9]+}}: error: expected ':'
  %0 = mk.band_mask %x dims = [0, 1] upper = 0 fill = 0.0 imap = [0, -1, -1] fmap = -1 : tensor<8x8xf16>
  return %0 : tensor<8x8xf16>
}
