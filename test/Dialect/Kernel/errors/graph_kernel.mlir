// RUN: not mirage-opt %s -split-input-file 2>&1 | FileCheck %s
// RUN: mirage-opt %s -split-input-file > /dev/null 2>&1; test $? -eq 1

// Malformed mk.graph_kernel: each case is a diagnostic at the kernel's line
// and the tool exits with 1 (an error, not a crash). The first two cases
// would divide by zero / index past the grid in mb.input_iter if the kernel's
// own checks did not stop verification first.

func.func @K5_forloop_zero(%x: tensor<2x128xf16>) -> tensor<2x32xf16> {
  // CHECK: errors/graph_kernel.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'mk.graph_kernel' op [K5] forloop must be >= 1 or '?', got 0
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 0 {
  ^bb0(%X: tensor<2x128xf16>):
    %acc = mb.for_loop -> (tensor<2x32xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x128xf16> -> tensor<2x32xf16>
      %s = mb.accum_sum %xt : tensor<2x32xf16> -> tensor<2x32xf16>
      mb.yield %s : tensor<2x32xf16>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<2x32xf16> -> tensor<2x32xf16>
    mb.return %o : tensor<2x32xf16>
  } : (tensor<2x128xf16>) -> tensor<2x32xf16>
  return %y : tensor<2x32xf16>
}

// -----

func.func @K3_grid_one_entry(%x: tensor<2x128xf16>) -> tensor<2x32xf16> {
  // CHECK: errors/graph_kernel.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'mk.graph_kernel' op [K3] grid must have 3 entries >= 1
  %y = mk.graph_kernel (%x) grid = [1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<2x128xf16>):
    %acc = mb.for_loop -> (tensor<2x32xf16>) {
      %xt = mb.input_iter %X imap = [0, 1, -1] fmap = 1 : tensor<2x128xf16> -> tensor<2x32xf16>
      %s = mb.accum_sum %xt : tensor<2x32xf16> -> tensor<2x32xf16>
      mb.yield %s : tensor<2x32xf16>
    }
    %o = mb.output_saver %acc omap = [0, 1, -1] : tensor<2x32xf16> -> tensor<2x32xf16>
    mb.return %o : tensor<2x32xf16>
  } : (tensor<2x128xf16>) -> tensor<2x32xf16>
  return %y : tensor<2x32xf16>
}

// -----

func.func @K6_region_argument_type(%x: tensor<2x128xf16>) -> tensor<2x32xbf16> {
  // CHECK: errors/graph_kernel.mlir:[[@LINE+1]]:{{[0-9]+}}: error: 'mk.graph_kernel' op [K6] region argument #0 has type 'tensor<2x128xbf16>' but operand has type 'tensor<2x128xf16>'
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<2x128xbf16>):
    %acc = mb.for_loop -> (tensor<2x32xbf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x128xbf16> -> tensor<2x32xbf16>
      %s = mb.accum_sum %xt : tensor<2x32xbf16> -> tensor<2x32xbf16>
      mb.yield %s : tensor<2x32xbf16>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<2x32xbf16> -> tensor<2x32xbf16>
    mb.return %o : tensor<2x32xbf16>
  } : (tensor<2x128xf16>) -> tensor<2x32xbf16>
  return %y : tensor<2x32xbf16>
}
