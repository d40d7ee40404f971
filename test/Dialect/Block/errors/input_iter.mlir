// RUN: not mirage-opt %s -split-input-file 2>&1 | FileCheck %s
// RUN: mirage-opt %s -split-input-file > /dev/null 2>&1; test $? -eq 1

// Malformed `mb.input_iter`: each split is reported at the op's own line, with the
// constraint's tag (docs/constraints/mb.md), as a diagnostic, not a crash.

func.func @B4_input_iter_of_a_tile(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      %w = mb.input_iter %X imap = [-1, -1, -1] fmap = -1 : tensor<8x64xf16> -> tensor<8x64xf16>
      // CHECK: :[[@LINE+1]]:{{[0-9]+}}: error: 'mb.input_iter' op [B4] operand must be an argument of the enclosing graph-defined kernel
      %xt = mb.input_iter %w imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      mb.yield %s : tensor<4x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @B5_input_iter_imap_maps_a_dim_twice(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      // CHECK: :[[@LINE+1]]:{{[0-9]+}}: error: 'mb.input_iter' op [B5] imap maps dim 1 twice
      %xt = mb.input_iter %X imap = [0, 1, 1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      mb.yield %s : tensor<4x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @B7_input_iter_tile_not_divisible_by_grid(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [3, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      // CHECK: :[[@LINE+1]]:{{[0-9]+}}: error: 'mb.input_iter' op [B7] dim 0 of size 8 is not divisible by grid dim 0 = 3
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      mb.yield %s : tensor<4x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}
