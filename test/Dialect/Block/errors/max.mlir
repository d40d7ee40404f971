// RUN: not mirage-opt %s -split-input-file 2>&1 | FileCheck %s
// RUN: mirage-opt %s -split-input-file > /dev/null 2>&1; test $? -eq 1

// Malformed `mb.max`: each split is reported at the op's own line, with the
// constraint's tag (docs/constraints/mb.md), as a diagnostic, not a crash.

func.func @C0_2_max_outside_kernel(%x: tensor<8x16xf16>, %y: tensor<8x1xf16>) -> tensor<8x16xf16> {
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: error: 'mb.max' op [C0.2] must be nested inside a graph-defined kernel
  %r = mb.max %x, %y : tensor<8x16xf16>, tensor<8x1xf16> -> tensor<8x16xf16>
  return %r : tensor<8x16xf16>
}

// -----

func.func @C0_4_max_shapes_do_not_broadcast(%x: tensor<8x64xf16>) {
  mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    mb.for_loop {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<8x16xf16>
      %w = mb.input_iter %X imap = [-1, -1, -1] fmap = -1 : tensor<8x64xf16> -> tensor<8x64xf16>
      // CHECK: :[[@LINE+1]]:{{[0-9]+}}: error: 'mb.max' op [C0.4] shapes [8, 16] and [8, 64] do not broadcast
      %r = mb.max %xt, %w : tensor<8x16xf16>, tensor<8x64xf16> -> tensor<8x64xf16>
      mb.yield
    }
    mb.return
  } : (tensor<8x64xf16>) -> ()
  return
}

// -----

func.func @C0_4_max_ranks_differ(%x: tensor<8x64xf16>, %v: tensor<64xf16>) {
  mk.graph_kernel (%x, %v) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>, %V: tensor<64xf16>):
    mb.for_loop {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<8x16xf16>
      %vt = mb.input_iter %V imap = [-1, -1, -1] fmap = 0 : tensor<64xf16> -> tensor<16xf16>
      // CHECK: :[[@LINE+1]]:{{[0-9]+}}: error: 'mb.max' op [C0.4] operands must have equal rank, got 1 and 2
      %r = mb.max %vt, %xt : tensor<16xf16>, tensor<8x16xf16> -> tensor<8x16xf16>
      mb.yield
    }
    mb.return
  } : (tensor<8x64xf16>, tensor<64xf16>) -> ()
  return
}
