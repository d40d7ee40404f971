// RUN: not mirage-opt %s -split-input-file 2>&1 | FileCheck %s
// RUN: mirage-opt %s -split-input-file > /dev/null 2>&1; test $? -eq 1

// Malformed `mb.gelu_erf`: each split is reported at the op's own line, with the
// constraint's tag (docs/constraints/mb.md), as a diagnostic, not a crash.

func.func @C0_2_gelu_erf_outside_kernel(%x: tensor<8x16xf16>) -> tensor<8x16xf16> {
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: error: 'mb.gelu_erf' op [C0.2] must be nested inside a graph-defined kernel
  %r = mb.gelu_erf %x : tensor<8x16xf16>
  return %r : tensor<8x16xf16>
}

// -----

func.func @C0_1_gelu_erf_of_f64_result(%x: tensor<8x64xf16>) {
  mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    mb.for_loop {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<8x16xf16>
      // CHECK: :[[@LINE+1]]:{{[0-9]+}}: error: 'mb.gelu_erf' op result #0 must be static tensor of rank 1 to 4 with positive dims and f16, bf16 or f32 elements
      %r = "mb.gelu_erf"(%xt) : (tensor<8x16xf16>) -> tensor<8x16xf64>
      mb.yield
    }
    mb.return
  } : (tensor<8x64xf16>) -> ()
  return
}
