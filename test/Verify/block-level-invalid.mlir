// Block-level near misses that are not valid programs (issue 9 item 6): a
// graph-defined kernel's result covers grid x tile by construction ([B8],
// [B17]), so a grid one block too small cannot leave part of the output
// unwritten, and every loop-body value reaches the output through an
// accumulator ([B3]), so a loop cannot keep only its last iteration. Both
// are rejected with the verifier's diagnostic, before any verdict.
// RUN: mirage-opt --mirage-check-equivalence %s -split-input-file -verify-diagnostics -o /dev/null

// Off-by-one grid: 2 blocks instead of 3, with the 4x2 tiles of W that 3
// blocks would read (the 2 blocks read 4x3 tiles).
func.func @bi_grid_ref(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>) -> tensor<4x6xf32> {
  %y = mk.matmul %x, %w : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}
func.func @bi_grid_too_small(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>) -> tensor<4x6xf32> attributes {mk.reference = @bi_grid_ref} {
  %y = mk.graph_kernel (%x, %w) grid = [2, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x8xf32>, %W: tensor<8x6xf32>):
    %acc = mb.for_loop -> (tensor<4x2xf32>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<4x8xf32> -> tensor<4x4xf32>
      // expected-error @+1 {{'mb.input_iter' op [B8] result type 'tensor<4x2xf32>' is not the tile type 'tensor<4x3xf32>'}}
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0 : tensor<8x6xf32> -> tensor<4x2xf32>
      %m = mb.matmul %xt, %wt : tensor<4x4xf32>, tensor<4x2xf32> -> tensor<4x2xf32>
      %s = mb.accum_sum %m : tensor<4x2xf32> -> tensor<4x2xf32>
      mb.yield %s : tensor<4x2xf32>
    }
    %o = mb.output_saver %acc omap = [1, -1, -1] : tensor<4x2xf32> -> tensor<4x6xf32>
    mb.return %o : tensor<4x6xf32>
  } : (tensor<4x8xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}

// -----

// A missing accumulator: the loop yields the product of its last K tile.
func.func @bi_accum_ref(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>) -> tensor<4x6xf32> {
  %y = mk.matmul %x, %w : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}
func.func @bi_no_accumulator(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>) -> tensor<4x6xf32> attributes {mk.reference = @bi_accum_ref} {
  %y = mk.graph_kernel (%x, %w) grid = [2, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x8xf32>, %W: tensor<8x6xf32>):
    %acc = mb.for_loop -> (tensor<4x3xf32>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<4x8xf32> -> tensor<4x4xf32>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0 : tensor<8x6xf32> -> tensor<4x3xf32>
      %m = mb.matmul %xt, %wt : tensor<4x4xf32>, tensor<4x3xf32> -> tensor<4x3xf32>
      // expected-error @+1 {{'mb.yield' op [B3] yields a value that is not the result of an accumulator of this loop; loop-body values must pass through an accumulator}}
      mb.yield %m : tensor<4x3xf32>
    }
    %o = mb.output_saver %acc omap = [1, -1, -1] : tensor<4x3xf32> -> tensor<4x6xf32>
    mb.return %o : tensor<4x6xf32>
  } : (tensor<4x8xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}
