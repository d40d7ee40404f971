// RUN: not mirage-opt %s -split-input-file 2>&1 | FileCheck %s
// RUN: mirage-opt %s -split-input-file > /dev/null 2>&1; test $? -eq 1

// Malformed `mb.rms_norm`: each split is reported at the op's own line, with the
// constraint's tag (docs/constraints/mb.md), as a diagnostic, not a crash.

func.func @C0_2_rms_norm_outside_kernel(%x: tensor<8x16xf16>) -> tensor<8x16xf16> {
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: error: 'mb.rms_norm' op [C0.2] must be nested inside a graph-defined kernel
  %r = mb.rms_norm %x eps = 0.0 : tensor<8x16xf16>
  return %r : tensor<8x16xf16>
}

// -----

func.func @C0_10_rms_norm_negative_eps(%x: tensor<8x64xf16>) {
  mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    mb.for_loop {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<8x16xf16>
      // CHECK: :[[@LINE+1]]:{{[0-9]+}}: error: 'mb.rms_norm' op [C0.10] eps must be >= 0, got -5.000000e-01
      %r = mb.rms_norm %xt eps = -0.5 : tensor<8x16xf16>
      mb.yield
    }
    mb.return
  } : (tensor<8x64xf16>) -> ()
  return
}

// -----

func.func @C0_11_rms_norm_weight_of_rank_2(%x: tensor<8x64xf16>) {
  mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    mb.for_loop {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<8x16xf16>
      // CHECK: :[[@LINE+1]]:{{[0-9]+}}: error: 'mb.rms_norm' op [C0.11] weight must be a rank-1 tensor of 16 elements of 'f16', got 'tensor<8x16xf16>'
      %r = mb.rms_norm %xt weight(%xt : tensor<8x16xf16>) eps = 0.0 : tensor<8x16xf16>
      mb.yield
    }
    mb.return
  } : (tensor<8x64xf16>) -> ()
  return
}
