// RUN: not mirage-opt %s -split-input-file 2>&1 | FileCheck %s
// RUN: mirage-opt %s -split-input-file > /dev/null 2>&1; test $? -eq 1

// Malformed `mt.yield`: each split is reported at the op's own line, with the
// constraint's tag (docs/constraints/mt.md), as a diagnostic, not a crash.

func.func @C0_2_mt_yield_outside_kernel(%x: f16) {
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: error: 'mt.yield' op [C0.2] must be nested inside a graph-defined kernel
  mt.yield %x : f16
}

// -----

func.func @T4_mt_yield_count_differs_from_results(%x: tensor<8x64xf16>) {
  mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    mb.for_loop {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<8x16xf16>
      %t = mt.thread_graph (%xt, %xt) : (tensor<8x16xf16>, tensor<8x16xf16>) -> tensor<8x16xf16> {
      ^bb0(%a: f16, %b: f16):
        // CHECK: :[[@LINE+1]]:{{[0-9]+}}: error: 'mt.yield' op [T4] yields 2 values for 1 results
        mt.yield %a, %b : f16, f16
      }
      mb.yield
    }
    mb.return
  } : (tensor<8x64xf16>) -> ()
  return
}

// -----

func.func @T5_mt_yield_terminating_a_loop_body(%x: tensor<8x64xf16>) {
  mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    mb.for_loop {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<8x16xf16>
      // CHECK: :[[@LINE+1]]:{{[0-9]+}}: error: 'mt.yield' op [T5] must be directly in the body of an mt.thread_graph
      mt.yield
    }
    mb.return
  } : (tensor<8x64xf16>) -> ()
  return
}
