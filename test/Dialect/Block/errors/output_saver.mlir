// RUN: not mirage-opt %s -split-input-file 2>&1 | FileCheck %s
// RUN: mirage-opt %s -split-input-file > /dev/null 2>&1; test $? -eq 1

// Malformed `mb.output_saver`: each split is reported at the op's own line, with the
// constraint's tag (docs/constraints/mb.md), as a diagnostic, not a crash.

func.func @B14_output_saver_in_the_loop_body(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      // CHECK: :[[@LINE+1]]:{{[0-9]+}}: error: 'mb.output_saver' op [B14] must be directly in the body of a graph-defined kernel, after the loop
      %bad = mb.output_saver %xt omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      mb.yield %s : tensor<4x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @B15_output_saver_omap_dim_out_of_range(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      mb.yield %s : tensor<4x16xf16>
    }
    // CHECK: :[[@LINE+1]]:{{[0-9]+}}: error: 'mb.output_saver' op [B15] omap entry 3 is neither -1 nor a dim of a rank-2 tensor
    %o = mb.output_saver %acc omap = [3, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @B16_output_saver_grid_dim_unmapped(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      mb.yield %s : tensor<4x16xf16>
    }
    // CHECK: :[[@LINE+1]]:{{[0-9]+}}: error: 'mb.output_saver' op [B16] grid dim 0 = 2 is not mapped to an output dim
    %o = mb.output_saver %acc omap = [-1, 1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}
