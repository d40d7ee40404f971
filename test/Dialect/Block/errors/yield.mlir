// RUN: not mirage-opt %s -split-input-file 2>&1 | FileCheck %s
// RUN: mirage-opt %s -split-input-file > /dev/null 2>&1; test $? -eq 1

// Malformed `mb.yield`: each split is reported at the op's own line, with the
// constraint's tag (docs/constraints/mb.md), as a diagnostic, not a crash.

func.func @B2_yield_types_differ_from_results(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum_last %xt : tensor<4x16xf16> -> tensor<4x1xf16>
      // CHECK: :[[@LINE+1]]:{{[0-9]+}}: error: 'mb.yield' op [B2] yields 1 values whose types do not match the loop's result types
      mb.yield %s : tensor<4x1xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @B3_yield_of_a_loop_body_value(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      // CHECK: :[[@LINE+1]]:{{[0-9]+}}: error: 'mb.yield' op [B3] yields a value that is not the result of an accumulator of this loop
      mb.yield %xt : tensor<4x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @B19_yield_outside_a_loop(%x: tensor<8x16xf16>) {
  mk.graph_kernel (%x) grid = [1, 1, 1] block = [32, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<8x16xf16>):
    mb.for_loop {
      mb.yield
    }
    // CHECK: :[[@LINE+1]]:{{[0-9]+}}: error: 'mb.yield' op [B19] must be directly in the body of an mb.for_loop
    mb.yield
  } : (tensor<8x16xf16>) -> ()
  return
}
