// RUN: not mirage-opt %s -split-input-file 2>&1 | FileCheck %s
// RUN: mirage-opt %s -split-input-file > /dev/null 2>&1; test $? -eq 1

// Malformed `mb.reduce_sum`: each split is reported at the op's own line, with the
// constraint's tag (docs/constraints/mb.md), as a diagnostic, not a crash.

func.func @C0_2_reduce_sum_outside_kernel(%x: tensor<8x16xf16>) -> tensor<8x1xf16> {
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: error: 'mb.reduce_sum' op [C0.2] must be nested inside a graph-defined kernel
  %r = mb.reduce_sum %x dim = 1 : tensor<8x16xf16> -> tensor<8x1xf16>
  return %r : tensor<8x1xf16>
}

// -----

func.func @C0_9_reduce_sum_dim_out_of_range(%x: tensor<8x64xf16>) {
  mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    mb.for_loop {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<8x16xf16>
      // CHECK: :[[@LINE+1]]:{{[0-9]+}}: error: 'mb.reduce_sum' op [C0.9] dim 2 is out of range for rank 2
      %r = mb.reduce_sum %xt dim = 2 : tensor<8x16xf16> -> tensor<8x16xf16>
      mb.yield
    }
    mb.return
  } : (tensor<8x64xf16>) -> ()
  return
}

// -----

func.func @C0_9_reduce_sum_negative_dim(%x: tensor<8x64xf16>) {
  mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    mb.for_loop {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<8x16xf16>
      // CHECK: :[[@LINE+1]]:{{[0-9]+}}: error: 'mb.reduce_sum' op [C0.9] dim -1 is out of range for rank 2
      %r = mb.reduce_sum %xt dim = -1 : tensor<8x16xf16> -> tensor<8x1xf16>
      mb.yield
    }
    mb.return
  } : (tensor<8x64xf16>) -> ()
  return
}
