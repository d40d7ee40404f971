// RUN: not mirage-opt %s -split-input-file 2>&1 | FileCheck %s
// RUN: mirage-opt %s -split-input-file > /dev/null 2>&1; test $? -eq 1

// Malformed `mt.thread_graph`: each split is reported at the op's own line, with the
// constraint's tag (docs/constraints/mt.md), as a diagnostic, not a crash.

func.func @T1_thread_graph_without_results(%x: tensor<8x64xf16>) {
  mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    mb.for_loop {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<8x16xf16>
      %rt = mb.reduce_sum %xt dim = 1 : tensor<8x16xf16> -> tensor<8x1xf16>
      // CHECK: :[[@LINE+1]]:{{[0-9]+}}: error: 'mt.thread_graph' op [T1] needs at least one input and one result
      mt.thread_graph (%xt) : (tensor<8x16xf16>) -> () {
      ^bb0(%a: f16):
        mt.yield
      }
      mb.yield
    }
    mb.return
  } : (tensor<8x64xf16>) -> ()
  return
}

// -----

func.func @T2_thread_graph_input_does_not_broadcast(%x: tensor<8x64xf16>) {
  mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    mb.for_loop {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<8x16xf16>
      %rt = mb.reduce_sum %xt dim = 1 : tensor<8x16xf16> -> tensor<8x1xf16>
      // CHECK: :[[@LINE+1]]:{{[0-9]+}}: error: 'mt.thread_graph' op [T2] input #0 of type 'tensor<8x16xf16>' does not broadcast to the result shape of 'tensor<8x1xf16>'
      %t = mt.thread_graph (%xt, %rt) : (tensor<8x16xf16>, tensor<8x1xf16>) -> tensor<8x1xf16> {
      ^bb0(%a: f16, %b: f16):
        mt.yield %b : f16
      }
      mb.yield
    }
    mb.return
  } : (tensor<8x64xf16>) -> ()
  return
}

// -----

func.func @T3_thread_graph_argument_count_differs(%x: tensor<8x64xf16>) {
  mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    mb.for_loop {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<8x16xf16>
      %rt = mb.reduce_sum %xt dim = 1 : tensor<8x16xf16> -> tensor<8x1xf16>
      // CHECK: :[[@LINE+1]]:{{[0-9]+}}: error: 'mt.thread_graph' op [T3] body has 2 arguments for 1 inputs
      %t = mt.thread_graph (%xt) : (tensor<8x16xf16>) -> tensor<8x16xf16> {
      ^bb0(%a: f16, %b: f16):
        mt.yield %a : f16
      }
      mb.yield
    }
    mb.return
  } : (tensor<8x64xf16>) -> ()
  return
}
