// --mirage-check-equivalence reports each candidate below equivalent to its
// reference.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

func.func @transpose_ref(%x: tensor<4x6xf32>) -> tensor<6x4xf32> {
  %t = mk.transpose %x perm = [1, 0] : tensor<4x6xf32> -> tensor<6x4xf32>
  return %t : tensor<6x4xf32>
}

// Blocks take 2 rows each, transpose them after the loop (mb.transpose) and
// save them as 2 columns of the result.
// expected-remark @below {{equivalent to @transpose_ref}}
func.func @transpose(%x: tensor<4x6xf32>) -> tensor<6x4xf32> attributes {mk.reference = @transpose_ref} {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<4x6xf32>):
    %acc = mb.for_loop -> (tensor<2x6xf32>) {
      %t = mb.input_iter %X imap = [0, -1, -1] fmap = -1 : tensor<4x6xf32> -> tensor<2x6xf32>
      %s = mb.accum_sum %t : tensor<2x6xf32> -> tensor<2x6xf32>
      mb.yield %s : tensor<2x6xf32>
    }
    %tt = mb.transpose %acc perm = [1, 0] : tensor<2x6xf32> -> tensor<6x2xf32>
    %o = mb.output_saver %tt omap = [1, -1, -1] : tensor<6x2xf32> -> tensor<6x4xf32>
    mb.return %o : tensor<6x4xf32>
  } : (tensor<4x6xf32>) -> tensor<6x4xf32>
  return %y : tensor<6x4xf32>
}

func.func @transpose_sq_ref(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %t = mk.transpose %x perm = [1, 0] : tensor<4x4xf32> -> tensor<4x4xf32>
  return %t : tensor<4x4xf32>
}

// 2x2 tiles transposed in the block and saved at the mirrored block position
// (omap [1, 0]).
// expected-remark @below {{equivalent to @transpose_sq_ref}}
func.func @transpose_mirrored(%x: tensor<4x4xf32>) -> tensor<4x4xf32> attributes {mk.reference = @transpose_sq_ref} {
  %y = mk.graph_kernel (%x) grid = [2, 2, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<4x4xf32>):
    %acc = mb.for_loop -> (tensor<2x2xf32>) {
      %t = mb.input_iter %X imap = [0, 1, -1] fmap = -1 : tensor<4x4xf32> -> tensor<2x2xf32>
      %s = mb.accum_sum %t : tensor<2x2xf32> -> tensor<2x2xf32>
      mb.yield %s : tensor<2x2xf32>
    }
    %tt = mb.transpose %acc perm = [1, 0] : tensor<2x2xf32> -> tensor<2x2xf32>
    %o = mb.output_saver %tt omap = [1, 0, -1] : tensor<2x2xf32> -> tensor<4x4xf32>
    mb.return %o : tensor<4x4xf32>
  } : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}
