// RUN: not mirage-opt %s -split-input-file 2>&1 | FileCheck %s
// RUN: mirage-opt %s -split-input-file > /dev/null 2>&1; test $? -eq 1

// Malformed `mb.where` (a select by a mask tile, which the search now puts
// in kernels): each split is reported at the op's own line, with the
// constraint's tag (docs/constraints/mb.md), as a diagnostic, not a crash.

func.func @C0_2_where_outside_kernel(%m: tensor<1x16xf16>, %x: tensor<8x16xf16>) -> tensor<8x16xf16> {
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: error: 'mb.where' op [C0.2] must be nested inside a graph-defined kernel
  %r = mb.where %m, %x fill = 0.0 : tensor<1x16xf16>, tensor<8x16xf16> -> tensor<8x16xf16>
  return %r : tensor<8x16xf16>
}

// -----

func.func @C0_4_where_mask_does_not_broadcast(%x: tensor<8x64xf16>, %m: tensor<1x64xf16>) {
  mk.graph_kernel (%x, %m) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>, %M: tensor<1x64xf16>):
    mb.for_loop {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<8x16xf16>
      // The mask read whole while the scores walk the loop: [1, 64] and [8, 16].
      %mt = mb.input_iter %M imap = [-1, -1, -1] fmap = -1 : tensor<1x64xf16> -> tensor<1x64xf16>
      // CHECK: :[[@LINE+1]]:{{[0-9]+}}: error: 'mb.where' op [C0.4] shapes [1, 64] and [8, 16] do not broadcast
      %r = mb.where %mt, %xt fill = 0xFFF0000000000000 inverted : tensor<1x64xf16>, tensor<8x16xf16> -> tensor<8x16xf16>
      mb.yield
    }
    mb.return
  } : (tensor<8x64xf16>, tensor<1x64xf16>) -> ()
  return
}

// -----

func.func @C0_8_where_element_types_differ(%x: tensor<8x64xf16>, %m: tensor<1x64xf32>) {
  mk.graph_kernel (%x, %m) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>, %M: tensor<1x64xf32>):
    mb.for_loop {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<8x16xf16>
      %mt = mb.input_iter %M imap = [-1, -1, -1] fmap = 1 : tensor<1x64xf32> -> tensor<1x16xf32>
      // CHECK: :[[@LINE+1]]:{{[0-9]+}}: error: 'mb.where' op [C0.8] operand element types differ: 'f32' vs 'f16'
      %r = mb.where %mt, %xt fill = 0.0 : tensor<1x16xf32>, tensor<8x16xf16> -> tensor<8x16xf16>
      mb.yield
    }
    mb.return
  } : (tensor<8x64xf16>, tensor<1x64xf32>) -> ()
  return
}

// -----

func.func @C0_18_where_fill_is_nan(%x: tensor<8x64xf16>, %m: tensor<1x64xf16>) {
  mk.graph_kernel (%x, %m) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>, %M: tensor<1x64xf16>):
    mb.for_loop {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<8x16xf16>
      %mt = mb.input_iter %M imap = [-1, -1, -1] fmap = 1 : tensor<1x64xf16> -> tensor<1x16xf16>
      // CHECK: :[[@LINE+1]]:{{[0-9]+}}: error: 'mb.where' op [C0.18] fill must not be NaN
      %r = mb.where %mt, %xt fill = 0x7FF8000000000000 : tensor<1x16xf16>, tensor<8x16xf16> -> tensor<8x16xf16>
      mb.yield
    }
    mb.return
  } : (tensor<8x64xf16>, tensor<1x64xf16>) -> ()
  return
}
