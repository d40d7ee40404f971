// RUN: not mirage-opt %s -split-input-file 2>&1 | FileCheck %s
// RUN: mirage-opt %s -split-input-file > /dev/null 2>&1; test $? -eq 1

// Malformed `mb.concat`: each split is reported at the op's own line, with the
// constraint's tag (docs/constraints/mb.md), as a diagnostic, not a crash.

func.func @C0_12_concat_of_one_operand(%x: tensor<8x64xf16>) {
  mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    mb.for_loop {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<8x16xf16>
      // CHECK: :[[@LINE+1]]:{{[0-9]+}}: error: 'mb.concat' op [C0.12] needs at least two operands, got 1
      %r = mb.concat %xt dim = 0 : tensor<8x16xf16> -> tensor<8x16xf16>
      mb.yield
    }
    mb.return
  } : (tensor<8x64xf16>) -> ()
  return
}

// -----

func.func @C0_13_concat_other_dims_differ(%x: tensor<8x64xf16>) {
  mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    mb.for_loop {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<8x16xf16>
      %w = mb.input_iter %X imap = [-1, -1, -1] fmap = -1 : tensor<8x64xf16> -> tensor<8x64xf16>
      // CHECK: :[[@LINE+1]]:{{[0-9]+}}: error: 'mb.concat' op [C0.13] operand #1 differs in dim 1 (64 vs 16)
      %r = mb.concat %xt, %w dim = 0 : tensor<8x16xf16>, tensor<8x64xf16> -> tensor<16x16xf16>
      mb.yield
    }
    mb.return
  } : (tensor<8x64xf16>) -> ()
  return
}

// -----

func.func @C0_9_concat_dim_out_of_range(%x: tensor<8x64xf16>) {
  mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    mb.for_loop {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<8x16xf16>
      // CHECK: :[[@LINE+1]]:{{[0-9]+}}: error: 'mb.concat' op [C0.9] dim 2 is out of range for rank 2
      %r = mb.concat %xt, %xt dim = 2 : tensor<8x16xf16>, tensor<8x16xf16> -> tensor<8x16xf16>
      mb.yield
    }
    mb.return
  } : (tensor<8x64xf16>) -> ()
  return
}
