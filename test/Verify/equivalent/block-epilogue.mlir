// Epilogue inputs ([B21]): input tiles read once after the loop and combined
// with the accumulated values. --mirage-check-equivalence (finite field and
// f64) reports each candidate below equivalent to its reference.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

// relu(x . w + bias) + residual.
func.func @mm_bias_relu_res_ref(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>, %b: tensor<1x6xf32>, %r: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %m = mk.matmul %x, %w : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
  %a = mk.add %m, %b : tensor<4x6xf32>, tensor<1x6xf32> -> tensor<4x6xf32>
  %h = mk.relu %a : tensor<4x6xf32>
  %y = mk.add %h, %r : tensor<4x6xf32>, tensor<4x6xf32> -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}

// Grid over the columns, loop over the shared dim; the bias tile is the
// block's columns of the one row, the residual tile the block's columns.
// expected-remark @below {{equivalent to @mm_bias_relu_res_ref}}
func.func @mm_bias_relu_res_cols(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>, %b: tensor<1x6xf32>, %r: tensor<4x6xf32>) -> tensor<4x6xf32> attributes {mk.reference = @mm_bias_relu_res_ref} {
  %y = mk.graph_kernel (%x, %w, %b, %r) grid = [2, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x8xf32>, %W: tensor<8x6xf32>, %B: tensor<1x6xf32>, %R: tensor<4x6xf32>):
    %acc = mb.for_loop -> (tensor<4x3xf32>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<4x8xf32> -> tensor<4x4xf32>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0 : tensor<8x6xf32> -> tensor<4x3xf32>
      %m = mb.matmul %xt, %wt : tensor<4x4xf32>, tensor<4x3xf32> -> tensor<4x3xf32>
      %s = mb.accum_sum %m : tensor<4x3xf32> -> tensor<4x3xf32>
      mb.yield %s : tensor<4x3xf32>
    }
    %bt = mb.input_iter %B imap = [1, -1, -1] fmap = -1 : tensor<1x6xf32> -> tensor<1x3xf32>
    %a = mb.add %acc, %bt : tensor<4x3xf32>, tensor<1x3xf32> -> tensor<4x3xf32>
    %h = mb.relu %a : tensor<4x3xf32>
    %rt = mb.input_iter %R imap = [1, -1, -1] fmap = -1 : tensor<4x6xf32> -> tensor<4x3xf32>
    %sum = mb.add %h, %rt : tensor<4x3xf32>, tensor<4x3xf32> -> tensor<4x3xf32>
    %o = mb.output_saver %sum omap = [1, -1, -1] : tensor<4x3xf32> -> tensor<4x6xf32>
    mb.return %o : tensor<4x6xf32>
  } : (tensor<4x8xf32>, tensor<8x6xf32>, tensor<1x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}

// A two-dimensional grid: rows by x, columns by y; the bias follows the
// columns only, the residual both.
// expected-remark @below {{equivalent to @mm_bias_relu_res_ref}}
func.func @mm_bias_relu_res_2d(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>, %b: tensor<1x6xf32>, %r: tensor<4x6xf32>) -> tensor<4x6xf32> attributes {mk.reference = @mm_bias_relu_res_ref} {
  %y = mk.graph_kernel (%x, %w, %b, %r) grid = [2, 3, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<4x8xf32>, %W: tensor<8x6xf32>, %B: tensor<1x6xf32>, %R: tensor<4x6xf32>):
    %acc = mb.for_loop -> (tensor<2x2xf32>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<4x8xf32> -> tensor<2x2xf32>
      %wt = mb.input_iter %W imap = [-1, 1, -1] fmap = 0 : tensor<8x6xf32> -> tensor<2x2xf32>
      %m = mb.matmul %xt, %wt : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<2x2xf32>
      %s = mb.accum_sum %m : tensor<2x2xf32> -> tensor<2x2xf32>
      mb.yield %s : tensor<2x2xf32>
    }
    %bt = mb.input_iter %B imap = [-1, 1, -1] fmap = -1 : tensor<1x6xf32> -> tensor<1x2xf32>
    %a = mb.add %acc, %bt : tensor<2x2xf32>, tensor<1x2xf32> -> tensor<2x2xf32>
    %h = mb.relu %a : tensor<2x2xf32>
    %rt = mb.input_iter %R imap = [0, 1, -1] fmap = -1 : tensor<4x6xf32> -> tensor<2x2xf32>
    %sum = mb.add %h, %rt : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<2x2xf32>
    %o = mb.output_saver %sum omap = [0, 1, -1] : tensor<2x2xf32> -> tensor<4x6xf32>
    mb.return %o : tensor<4x6xf32>
  } : (tensor<4x8xf32>, tensor<8x6xf32>, tensor<1x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}

// rms_norm(x) . w + residual: the row statistic and the matmul are
// accumulated, the division and the residual come after the loop.
func.func @rms_mm_res_ref(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>, %r: tensor<4x6xf32>) -> (tensor<4x6xf32>, tensor<4x6xf32>) {
  %n = mk.rms_norm %x eps = 0.0 : tensor<4x8xf32>
  %m = mk.matmul %n, %w : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
  %y = mk.add %m, %r : tensor<4x6xf32>, tensor<4x6xf32> -> tensor<4x6xf32>
  return %y, %r : tensor<4x6xf32>, tensor<4x6xf32>
}

// A second output is an epilogue input saved as it is (a copy).
// expected-remark @below {{equivalent to @rms_mm_res_ref}}
func.func @rms_mm_res(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>, %r: tensor<4x6xf32>) -> (tensor<4x6xf32>, tensor<4x6xf32>) attributes {mk.reference = @rms_mm_res_ref} {
  %y:2 = mk.graph_kernel (%x, %w, %r) grid = [3, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x8xf32>, %W: tensor<8x6xf32>, %R: tensor<4x6xf32>):
    %acc:2 = mb.for_loop -> (tensor<4x1xf32>, tensor<4x2xf32>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<4x8xf32> -> tensor<4x4xf32>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0 : tensor<8x6xf32> -> tensor<4x2xf32>
      %m = mb.matmul %xt, %wt : tensor<4x4xf32>, tensor<4x2xf32> -> tensor<4x2xf32>
      %q = mb.accum_rms_last %xt eps = 0.0 : tensor<4x4xf32> -> tensor<4x1xf32>
      %s = mb.accum_sum %m : tensor<4x2xf32> -> tensor<4x2xf32>
      mb.yield %q, %s : tensor<4x1xf32>, tensor<4x2xf32>
    }
    %d = mb.div %acc#1, %acc#0 : tensor<4x2xf32>, tensor<4x1xf32> -> tensor<4x2xf32>
    %rt = mb.input_iter %R imap = [1, -1, -1] fmap = -1 : tensor<4x6xf32> -> tensor<4x2xf32>
    %sum = mb.add %d, %rt : tensor<4x2xf32>, tensor<4x2xf32> -> tensor<4x2xf32>
    %o = mb.output_saver %sum omap = [1, -1, -1] : tensor<4x2xf32> -> tensor<4x6xf32>
    %o2 = mb.output_saver %rt omap = [1, -1, -1] : tensor<4x2xf32> -> tensor<4x6xf32>
    mb.return %o, %o2 : tensor<4x6xf32>, tensor<4x6xf32>
  } : (tensor<4x8xf32>, tensor<8x6xf32>, tensor<4x6xf32>) -> (tensor<4x6xf32>, tensor<4x6xf32>)
  return %y#0, %y#1 : tensor<4x6xf32>, tensor<4x6xf32>
}
