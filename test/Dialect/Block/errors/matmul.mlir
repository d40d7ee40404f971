// RUN: not mirage-opt %s -split-input-file 2>&1 | FileCheck %s
// RUN: mirage-opt %s -split-input-file > /dev/null 2>&1; test $? -eq 1

// Malformed `mb.matmul`: each split is reported at the op's own line, with the
// constraint's tag (docs/constraints/mb.md), as a diagnostic, not a crash.

func.func @C0_5_matmul_of_rank_1(%x: tensor<8x64xf16>, %v: tensor<64xf16>) {
  mk.graph_kernel (%x, %v) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>, %V: tensor<64xf16>):
    mb.for_loop {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<8x16xf16>
      %vt = mb.input_iter %V imap = [-1, -1, -1] fmap = 0 : tensor<64xf16> -> tensor<16xf16>
      // CHECK: :[[@LINE+1]]:{{[0-9]+}}: error: 'mb.matmul' op [C0.5] operands must have equal rank >= 2, got ranks 1 and 1
      %r = mb.matmul %vt, %vt : tensor<16xf16>, tensor<16xf16> -> tensor<16xf16>
      mb.yield
    }
    mb.return
  } : (tensor<8x64xf16>, tensor<64xf16>) -> ()
  return
}

// -----

func.func @C0_6_matmul_contraction_dims_differ(%x: tensor<8x64xf16>) {
  mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    mb.for_loop {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<8x16xf16>
      // CHECK: :[[@LINE+1]]:{{[0-9]+}}: error: 'mb.matmul' op [C0.6] contraction dims differ: lhs [8, 16] has 16 columns but rhs [8, 16] has 8 rows
      %r = mb.matmul %xt, %xt : tensor<8x16xf16>, tensor<8x16xf16> -> tensor<8x16xf16>
      mb.yield
    }
    mb.return
  } : (tensor<8x64xf16>) -> ()
  return
}

// -----

func.func @C0_8_matmul_element_types_differ(%x: tensor<8x64xf16>, %w: tensor<64x8xf32>) {
  mk.graph_kernel (%x, %w) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>, %W: tensor<64x8xf32>):
    mb.for_loop {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<8x16xf16>
      %wt = mb.input_iter %W imap = [-1, -1, -1] fmap = 0 : tensor<64x8xf32> -> tensor<16x8xf32>
      // CHECK: :[[@LINE+1]]:{{[0-9]+}}: error: 'mb.matmul' op [C0.8] operand element types differ: 'f16' vs 'f32'
      %r = mb.matmul %xt, %wt : tensor<8x16xf16>, tensor<16x8xf32> -> tensor<8x8xf16>
      mb.yield
    }
    mb.return
  } : (tensor<8x64xf16>, tensor<64x8xf32>) -> ()
  return
}
