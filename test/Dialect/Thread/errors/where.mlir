// RUN: not mirage-opt %s -split-input-file 2>&1 | FileCheck %s
// RUN: mirage-opt %s -split-input-file > /dev/null 2>&1; test $? -eq 1

// Malformed `mt.where`: each split is reported at the op's own line, with the
// constraint's tag (docs/constraints/mt.md), as a diagnostic, not a crash.

func.func @C0_2_mt_where_outside_kernel(%m: f16, %x: f16) -> f16 {
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: error: 'mt.where' op [C0.2] must be nested inside a graph-defined kernel
  %r = mt.where %m, %x fill = 0.0 : f16
  return %r : f16
}

// -----

func.func @T5_mt_where_outside_a_thread_graph(%x: tensor<8x64xf16>) {
  mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    mb.for_loop {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<8x16xf16>
      %c = arith.constant 1.0 : f16
      // CHECK: :[[@LINE+1]]:{{[0-9]+}}: error: 'mt.where' op [T5] must be directly in the body of an mt.thread_graph
      %r = mt.where %c, %c fill = 0.0 : f16
      mb.yield
    }
    mb.return
  } : (tensor<8x64xf16>) -> ()
  return
}
