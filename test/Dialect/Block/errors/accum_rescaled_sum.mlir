// RUN: not mirage-opt %s -split-input-file 2>&1 | FileCheck %s
// RUN: mirage-opt %s -split-input-file > /dev/null 2>&1; test $? -eq 1

// Malformed `mb.accum_rescaled_sum`: each split is reported at the op's own line, with the
// constraint's tag (docs/constraints/mb.md), as a diagnostic, not a crash.

func.func @B13_accum_rescaled_sum_max_does_not_broadcast(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %p = mb.input_iter %X imap = [0, -1, -1] fmap = 0 : tensor<8x64xf16> -> tensor<1x64xf16>
      // CHECK: :[[@LINE+1]]:{{[0-9]+}}: error: 'mb.accum_rescaled_sum' op [B13] max operand 'tensor<1x64xf16>' must have the element type and rank of 'tensor<4x16xf16>' and broadcast to it
      %bad = mb.accum_rescaled_sum %xt, %p : tensor<4x16xf16>, tensor<1x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      mb.yield %s : tensor<4x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @B9_accum_rescaled_sum_changes_the_type(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %m = mb.reduce_max %xt dim = 1 : tensor<4x16xf16> -> tensor<4x1xf16>
      // CHECK: :[[@LINE+1]]:{{[0-9]+}}: error: 'mb.accum_rescaled_sum' op [B9] result type 'tensor<4x1xf16>' should equal the input type 'tensor<4x16xf16>'
      %bad = mb.accum_rescaled_sum %xt, %m : tensor<4x16xf16>, tensor<4x1xf16> -> tensor<4x1xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      mb.yield %s : tensor<4x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}
