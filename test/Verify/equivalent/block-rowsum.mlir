// --mirage-check-equivalence reports each candidate below equivalent to its
// reference.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

func.func @rowsum_ref(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %s = mk.reduce_sum %x dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  return %s : tensor<4x1xf32>
}

// sum_last accumulates over iterations and the last dim.
// expected-remark @below {{equivalent to @rowsum_ref}}
func.func @rowsum_sum_last(%x: tensor<4x8xf32>) -> tensor<4x1xf32> attributes {mk.reference = @rowsum_ref} {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<4x8xf32>):
    %acc = mb.for_loop -> (tensor<2x1xf32>) {
      %t = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<4x8xf32> -> tensor<2x2xf32>
      %s = mb.accum_sum_last %t : tensor<2x2xf32> -> tensor<2x1xf32>
      mb.yield %s : tensor<2x1xf32>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<2x1xf32> -> tensor<4x1xf32>
    mb.return %o : tensor<4x1xf32>
  } : (tensor<4x8xf32>) -> tensor<4x1xf32>
  return %y : tensor<4x1xf32>
}

// sum_to keeps 2 partial sums per row; a second kernel walks them.
// expected-remark @below {{equivalent to @rowsum_ref}}
func.func @rowsum_sum_to(%x: tensor<4x8xf32>) -> tensor<4x1xf32> attributes {mk.reference = @rowsum_ref} {
  %p = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x8xf32>):
    %acc = mb.for_loop -> (tensor<4x2xf32>) {
      %t = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<4x8xf32> -> tensor<4x4xf32>
      %s = mb.accum_sum_to %t dimx = 2 : tensor<4x4xf32> -> tensor<4x2xf32>
      mb.yield %s : tensor<4x2xf32>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<4x2xf32> -> tensor<4x2xf32>
    mb.return %o : tensor<4x2xf32>
  } : (tensor<4x8xf32>) -> tensor<4x2xf32>
  %y = mk.graph_kernel (%p) grid = [4, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%P: tensor<4x2xf32>):
    %acc = mb.for_loop -> (tensor<1x1xf32>) {
      %t = mb.input_iter %P imap = [0, -1, -1] fmap = 1 : tensor<4x2xf32> -> tensor<1x1xf32>
      %s = mb.accum_sum %t : tensor<1x1xf32> -> tensor<1x1xf32>
      mb.yield %s : tensor<1x1xf32>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<1x1xf32> -> tensor<4x1xf32>
    mb.return %o : tensor<4x1xf32>
  } : (tensor<4x2xf32>) -> tensor<4x1xf32>
  return %y : tensor<4x1xf32>
}
