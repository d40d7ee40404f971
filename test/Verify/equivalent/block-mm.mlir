// --mirage-check-equivalence reports each candidate below equivalent to its
// reference.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

func.func @mm_ref(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>) -> tensor<4x6xf32> {
  %y = mk.matmul %x, %w : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}

// Grid over the columns of W, loop over the shared dim.
// expected-remark @below {{equivalent to @mm_ref}}
func.func @mm_cols(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>) -> tensor<4x6xf32> attributes {mk.reference = @mm_ref} {
  %y = mk.graph_kernel (%x, %w) grid = [2, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x8xf32>, %W: tensor<8x6xf32>):
    %acc = mb.for_loop -> (tensor<4x3xf32>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<4x8xf32> -> tensor<4x4xf32>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0 : tensor<8x6xf32> -> tensor<4x3xf32>
      %m = mb.matmul %xt, %wt : tensor<4x4xf32>, tensor<4x3xf32> -> tensor<4x3xf32>
      %s = mb.accum_sum %m : tensor<4x3xf32> -> tensor<4x3xf32>
      mb.yield %s : tensor<4x3xf32>
    }
    %o = mb.output_saver %acc omap = [1, -1, -1] : tensor<4x3xf32> -> tensor<4x6xf32>
    mb.return %o : tensor<4x6xf32>
  } : (tensor<4x8xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}

// Two-dimensional grid: x over the rows of X, y over the columns of W.
// expected-remark @below {{equivalent to @mm_ref}}
func.func @mm_2d(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>) -> tensor<4x6xf32> attributes {mk.reference = @mm_ref} {
  %y = mk.graph_kernel (%x, %w) grid = [2, 3, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<4x8xf32>, %W: tensor<8x6xf32>):
    %acc = mb.for_loop -> (tensor<2x2xf32>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<4x8xf32> -> tensor<2x2xf32>
      %wt = mb.input_iter %W imap = [-1, 1, -1] fmap = 0 : tensor<8x6xf32> -> tensor<2x2xf32>
      %m = mb.matmul %xt, %wt : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<2x2xf32>
      %s = mb.accum_sum %m : tensor<2x2xf32> -> tensor<2x2xf32>
      mb.yield %s : tensor<2x2xf32>
    }
    %o = mb.output_saver %acc omap = [0, 1, -1] : tensor<2x2xf32> -> tensor<4x6xf32>
    mb.return %o : tensor<4x6xf32>
  } : (tensor<4x8xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}
