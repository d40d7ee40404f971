// RUN: not mirage-opt %s -split-input-file 2>&1 | FileCheck %s
// RUN: mirage-opt %s -split-input-file > /dev/null 2>&1; test $? -eq 1

// Malformed `mb.return`: each split is reported at the op's own line, with the
// constraint's tag (docs/constraints/mb.md), as a diagnostic, not a crash.

func.func @C0_2_return_outside_kernel(%x: tensor<8x16xf16>) -> tensor<8x16xf16> {
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: error: 'mb.return' op [C0.2] must be nested inside a graph-defined kernel
  mb.return %x : tensor<8x16xf16>
}

// -----

func.func @B18_return_of_a_loop_result(%x: tensor<8x64xf16>) -> tensor<4x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      mb.yield %s : tensor<4x16xf16>
    }
    // CHECK: :[[@LINE+1]]:{{[0-9]+}}: error: 'mb.return' op [B18] operands must be mb.output_saver results
    mb.return %acc : tensor<4x16xf16>
  } : (tensor<8x64xf16>) -> tensor<4x16xf16>
  return %y : tensor<4x16xf16>
}
