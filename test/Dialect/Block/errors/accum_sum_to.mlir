// RUN: not mirage-opt %s -split-input-file 2>&1 | FileCheck %s
// RUN: mirage-opt %s -split-input-file > /dev/null 2>&1; test $? -eq 1

// Malformed `mb.accum_sum_to`: each split is reported at the op's own line, with the
// constraint's tag (docs/constraints/mb.md), as a diagnostic, not a crash.

func.func @B12_accum_sum_to_dimx_does_not_divide(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      // CHECK: :[[@LINE+1]]:{{[0-9]+}}: error: 'mb.accum_sum_to' op [B12] dimx = 5 must be >= 1 and divide the last dim 16
      %bad = mb.accum_sum_to %xt dimx = 5 : tensor<4x16xf16> -> tensor<4x5xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      mb.yield %s : tensor<4x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @B12_accum_sum_to_negative_dimx(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      // CHECK: :[[@LINE+1]]:{{[0-9]+}}: error: 'mb.accum_sum_to' op [B12] dimx = -4 must be >= 1 and divide the last dim 16
      %bad = mb.accum_sum_to %xt dimx = -4 : tensor<4x16xf16> -> tensor<4x4xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      mb.yield %s : tensor<4x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @B12_accum_sum_to_result_type(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      // CHECK: :[[@LINE+1]]:{{[0-9]+}}: error: 'mb.accum_sum_to' op [B12] result type 'tensor<4x16xf16>' should be 'tensor<4x8xf16>'
      %bad = mb.accum_sum_to %xt dimx = 8 : tensor<4x16xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      mb.yield %s : tensor<4x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}
