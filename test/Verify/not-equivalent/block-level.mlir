// Block-level near misses (issue 9 item 6): graph-defined kernels that differ
// from their reference over the reals by one detail of the block graph.
// --mirage-check-equivalence must reject each with a counterexample (the
// differing output element, from a field test or from the f64 check).
// Function names are unique across the splits so that mirage-verify-bench
// (test/Verify/flaky.mlir) can read the whole file as one module.
// RUN: not mirage-opt --mlir-print-op-on-diagnostic=false --mirage-check-equivalence -split-input-file %s -o /dev/null 2>&1 | FileCheck %s

// CHECK-NOT: remark: equivalent

// imap on the wrong grid dim: X's rows follow grid y (the dim that also picks
// W's columns) instead of grid x, so block (bx, by) computes rows by of X
// times columns by of W and saves them at (bx, by): output tile (0, 1) is
// X[0:2] W[:, 2:4] in the reference but X[2:4] W[:, 2:4] here.
func.func @nl_mm_ref(%x: tensor<4x8xf32>, %w: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %y = mk.matmul %x, %w : tensor<4x8xf32>, tensor<8x4xf32> -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}
// CHECK: block-level.mlir:[[@LINE+1]]:1: error: not equivalent to @nl_mm_ref: {{(in f64 on [a-z]+ inputs \(seed [0-9]+\): )?}}output #0 element [{{[0-9]+, [0-9]+}}]: reference {{.*}} vs candidate
func.func @nl_mm_imap_grid_dim(%x: tensor<4x8xf32>, %w: tensor<8x4xf32>) -> tensor<4x4xf32> attributes {mk.reference = @nl_mm_ref} {
  %y = mk.graph_kernel (%x, %w) grid = [2, 2, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x8xf32>, %W: tensor<8x4xf32>):
    %acc = mb.for_loop -> (tensor<2x2xf32>) {
      %xt = mb.input_iter %X imap = [-1, 0, -1] fmap = 1 : tensor<4x8xf32> -> tensor<2x4xf32>
      %wt = mb.input_iter %W imap = [-1, 1, -1] fmap = 0 : tensor<8x4xf32> -> tensor<4x2xf32>
      %m = mb.matmul %xt, %wt : tensor<2x4xf32>, tensor<4x2xf32> -> tensor<2x2xf32>
      %s = mb.accum_sum %m : tensor<2x2xf32> -> tensor<2x2xf32>
      mb.yield %s : tensor<2x2xf32>
    }
    %o = mb.output_saver %acc omap = [0, 1, -1] : tensor<2x2xf32> -> tensor<4x4xf32>
    mb.return %o : tensor<4x4xf32>
  } : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}

// omap writes the tiles at transposed block positions (without transposing
// them): block (bx, by) holds rows bx of X times columns by of W but saves
// it at rows by, columns bx.
// CHECK: block-level.mlir:[[@LINE+1]]:1: error: not equivalent to @nl_mm_ref: {{(in f64 on [a-z]+ inputs \(seed [0-9]+\): )?}}output #0 element [{{[0-9]+, [0-9]+}}]: reference {{.*}} vs candidate
func.func @nl_mm_omap_transposed(%x: tensor<4x8xf32>, %w: tensor<8x4xf32>) -> tensor<4x4xf32> attributes {mk.reference = @nl_mm_ref} {
  %y = mk.graph_kernel (%x, %w) grid = [2, 2, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x8xf32>, %W: tensor<8x4xf32>):
    %acc = mb.for_loop -> (tensor<2x2xf32>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<4x8xf32> -> tensor<2x4xf32>
      %wt = mb.input_iter %W imap = [-1, 1, -1] fmap = 0 : tensor<8x4xf32> -> tensor<4x2xf32>
      %m = mb.matmul %xt, %wt : tensor<2x4xf32>, tensor<4x2xf32> -> tensor<2x2xf32>
      %s = mb.accum_sum %m : tensor<2x2xf32> -> tensor<2x2xf32>
      mb.yield %s : tensor<2x2xf32>
    }
    %o = mb.output_saver %acc omap = [1, 0, -1] : tensor<2x2xf32> -> tensor<4x4xf32>
    mb.return %o : tensor<4x4xf32>
  } : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}

// accum_max instead of accum_sum over the K tiles: the element-wise maximum
// of the two partial products, not their sum.
// CHECK: block-level.mlir:[[@LINE+1]]:1: error: not equivalent to @nl_mm_ref: {{(in f64 on [a-z]+ inputs \(seed [0-9]+\): )?}}output #0 element [{{[0-9]+, [0-9]+}}]: reference {{.*}} vs candidate
func.func @nl_mm_accum_max(%x: tensor<4x8xf32>, %w: tensor<8x4xf32>) -> tensor<4x4xf32> attributes {mk.reference = @nl_mm_ref} {
  %y = mk.graph_kernel (%x, %w) grid = [2, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x8xf32>, %W: tensor<8x4xf32>):
    %acc = mb.for_loop -> (tensor<4x2xf32>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<4x8xf32> -> tensor<4x4xf32>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0 : tensor<8x4xf32> -> tensor<4x2xf32>
      %m = mb.matmul %xt, %wt : tensor<4x4xf32>, tensor<4x2xf32> -> tensor<4x2xf32>
      %s = mb.accum_max %m : tensor<4x2xf32> -> tensor<4x2xf32>
      mb.yield %s : tensor<4x2xf32>
    }
    %o = mb.output_saver %acc omap = [1, -1, -1] : tensor<4x2xf32> -> tensor<4x4xf32>
    mb.return %o : tensor<4x4xf32>
  } : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}

// -----

// Split K with the second kernel's loop over the wrong dim: it walks the rows
// of one partial (fmap 0, grid x over the partials) instead of the two
// partials, so output rows 2bx, 2bx+1 are the sums of rows r and r+2 of the
// partial over K half bx.
func.func @nl_splitk_ref(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>) -> tensor<4x6xf32> {
  %y = mk.matmul %x, %w : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}
// CHECK: block-level.mlir:[[@LINE+1]]:1: error: not equivalent to @nl_splitk_ref: {{(in f64 on [a-z]+ inputs \(seed [0-9]+\): )?}}output #0 element [{{[0-9]+, [0-9]+}}]: reference {{.*}} vs candidate
func.func @nl_splitk_fmap_rows(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>) -> tensor<4x6xf32> attributes {mk.reference = @nl_splitk_ref} {
  %p = mk.graph_kernel (%x, %w) grid = [2, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x8xf32>, %W: tensor<8x6xf32>):
    %acc = mb.for_loop -> (tensor<4x6xf32>) {
      %xt = mb.input_iter %X imap = [1, -1, -1] fmap = 1 : tensor<4x8xf32> -> tensor<4x2xf32>
      %wt = mb.input_iter %W imap = [0, -1, -1] fmap = 0 : tensor<8x6xf32> -> tensor<2x6xf32>
      %m = mb.matmul %xt, %wt : tensor<4x2xf32>, tensor<2x6xf32> -> tensor<4x6xf32>
      %s = mb.accum_sum %m : tensor<4x6xf32> -> tensor<4x6xf32>
      mb.yield %s : tensor<4x6xf32>
    }
    %o = mb.output_saver %acc omap = [1, -1, -1] : tensor<4x6xf32> -> tensor<4x12xf32>
    mb.return %o : tensor<4x12xf32>
  } : (tensor<4x8xf32>, tensor<8x6xf32>) -> tensor<4x12xf32>
  %y = mk.graph_kernel (%p) grid = [2, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%P: tensor<4x12xf32>):
    %acc = mb.for_loop -> (tensor<2x6xf32>) {
      %pt = mb.input_iter %P imap = [1, -1, -1] fmap = 0 : tensor<4x12xf32> -> tensor<2x6xf32>
      %s = mb.accum_sum %pt : tensor<2x6xf32> -> tensor<2x6xf32>
      mb.yield %s : tensor<2x6xf32>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<2x6xf32> -> tensor<4x6xf32>
    mb.return %o : tensor<4x6xf32>
  } : (tensor<4x12xf32>) -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}

// -----

// Row sums with imap and fmap swapped: grid x splits the columns and the loop
// walks the rows, so output row 2bx + r sums x[2i + r, 2bx + c] over i, c.
func.func @nl_rowsum_ref(%x: tensor<4x4xf32>) -> tensor<4x1xf32> {
  %s = mk.reduce_sum %x dim = 1 : tensor<4x4xf32> -> tensor<4x1xf32>
  return %s : tensor<4x1xf32>
}
// CHECK: block-level.mlir:[[@LINE+1]]:1: error: not equivalent to @nl_rowsum_ref: {{(in f64 on [a-z]+ inputs \(seed [0-9]+\): )?}}output #0 element [{{[0-9]+, [0-9]+}}]: reference {{.*}} vs candidate
func.func @nl_rowsum_loop_over_rows(%x: tensor<4x4xf32>) -> tensor<4x1xf32> attributes {mk.reference = @nl_rowsum_ref} {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x4xf32>):
    %acc = mb.for_loop -> (tensor<2x1xf32>) {
      %t = mb.input_iter %X imap = [1, -1, -1] fmap = 0 : tensor<4x4xf32> -> tensor<2x2xf32>
      %s = mb.accum_sum_last %t : tensor<2x2xf32> -> tensor<2x1xf32>
      mb.yield %s : tensor<2x1xf32>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<2x1xf32> -> tensor<4x1xf32>
    mb.return %o : tensor<4x1xf32>
  } : (tensor<4x4xf32>) -> tensor<4x1xf32>
  return %y : tensor<4x1xf32>
}

// -----

// exp applied before the accumulation instead of after: sum(exp(x)) per row
// against exp(sum(x)).
func.func @nl_exp_after_ref(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %s = mk.reduce_sum %x dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  %e = mk.exp %s : tensor<4x1xf32>
  return %e : tensor<4x1xf32>
}
// CHECK: block-level.mlir:[[@LINE+1]]:1: error: not equivalent to @nl_exp_after_ref: {{(in f64 on [a-z]+ inputs \(seed [0-9]+\): )?}}output #0 element [{{[0-9]+, [0-9]+}}]: reference {{.*}} vs candidate
func.func @nl_exp_before_accum(%x: tensor<4x8xf32>) -> tensor<4x1xf32> attributes {mk.reference = @nl_exp_after_ref} {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x8xf32>):
    %acc = mb.for_loop -> (tensor<2x1xf32>) {
      %t = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<4x8xf32> -> tensor<2x4xf32>
      %e = mb.exp %t : tensor<2x4xf32>
      %s = mb.accum_sum_last %e : tensor<2x4xf32> -> tensor<2x1xf32>
      mb.yield %s : tensor<2x1xf32>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<2x1xf32> -> tensor<4x1xf32>
    mb.return %o : tensor<4x1xf32>
  } : (tensor<4x8xf32>) -> tensor<4x1xf32>
  return %y : tensor<4x1xf32>
}

// -----

// Softmax normalised per tile: each block of the 2x2 grid divides exp of its
// 2x4 tile by the sum over its own 4 columns only, not over the row.
func.func @nl_softmax_ref(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = mk.exp %x : tensor<4x8xf32>
  %s = mk.reduce_sum %e dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  %p = mk.div %e, %s : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  return %p : tensor<4x8xf32>
}
// CHECK: block-level.mlir:[[@LINE+1]]:1: error: not equivalent to @nl_softmax_ref: {{(in f64 on [a-z]+ inputs \(seed [0-9]+\): )?}}output #0 element [{{[0-9]+, [0-9]+}}]: reference {{.*}} vs candidate
func.func @nl_softmax_per_tile(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @nl_softmax_ref} {
  %y = mk.graph_kernel (%x) grid = [2, 2, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<4x8xf32>):
    %acc:2 = mb.for_loop -> (tensor<2x4xf32>, tensor<2x1xf32>) {
      %t = mb.input_iter %X imap = [0, 1, -1] fmap = -1 : tensor<4x8xf32> -> tensor<2x4xf32>
      %e = mb.exp %t : tensor<2x4xf32>
      %a = mb.accum_sum %e : tensor<2x4xf32> -> tensor<2x4xf32>
      %s = mb.accum_sum_last %e : tensor<2x4xf32> -> tensor<2x1xf32>
      mb.yield %a, %s : tensor<2x4xf32>, tensor<2x1xf32>
    }
    %q = mb.div %acc#0, %acc#1 : tensor<2x4xf32>, tensor<2x1xf32> -> tensor<2x4xf32>
    %o = mb.output_saver %q omap = [0, 1, -1] : tensor<2x4xf32> -> tensor<4x8xf32>
    mb.return %o : tensor<4x8xf32>
  } : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// RMSNorm with the rms over the block's column tile: rms_last sees the 4
// columns of the block's 2x4 tile (F = 1), not the row of 8.
func.func @nl_rms_ref(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %n = mk.rms_norm %x eps = 1.0e-6 : tensor<4x8xf32>
  return %n : tensor<4x8xf32>
}
// CHECK: block-level.mlir:[[@LINE+1]]:1: error: not equivalent to @nl_rms_ref: {{(in f64 on [a-z]+ inputs \(seed [0-9]+\): )?}}output #0 element [{{[0-9]+, [0-9]+}}]: reference {{.*}} vs candidate
func.func @nl_rms_per_tile(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @nl_rms_ref} {
  %y = mk.graph_kernel (%x) grid = [2, 2, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<4x8xf32>):
    %acc:2 = mb.for_loop -> (tensor<2x1xf32>, tensor<2x4xf32>) {
      %t = mb.input_iter %X imap = [0, 1, -1] fmap = -1 : tensor<4x8xf32> -> tensor<2x4xf32>
      %r = mb.accum_rms_last %t eps = 1.0e-6 : tensor<2x4xf32> -> tensor<2x1xf32>
      %s = mb.accum_sum %t : tensor<2x4xf32> -> tensor<2x4xf32>
      mb.yield %r, %s : tensor<2x1xf32>, tensor<2x4xf32>
    }
    %q = mb.div %acc#1, %acc#0 : tensor<2x4xf32>, tensor<2x1xf32> -> tensor<2x4xf32>
    %o = mb.output_saver %q omap = [0, 1, -1] : tensor<2x4xf32> -> tensor<4x8xf32>
    mb.return %o : tensor<4x8xf32>
  } : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// Mean over the row of 16 as sum_last times 1/8 (the tile width) instead of
// 1/(F * n) = 1/16: twice the mean.
func.func @nl_mean_ref(%x: tensor<4x16xf32>) -> tensor<4x1xf32> {
  %s = mk.reduce_sum %x dim = 1 : tensor<4x16xf32> -> tensor<4x1xf32>
  %m = mk.mul_scalar %s, 0.0625 : tensor<4x1xf32>
  return %m : tensor<4x1xf32>
}
// CHECK: block-level.mlir:[[@LINE+1]]:1: error: not equivalent to @nl_mean_ref: {{(in f64 on [a-z]+ inputs \(seed [0-9]+\): )?}}output #0 element [{{[0-9]+, [0-9]+}}]: reference {{.*}} vs candidate
func.func @nl_mean_tile_width(%x: tensor<4x16xf32>) -> tensor<4x1xf32> attributes {mk.reference = @nl_mean_ref} {
  %y = mk.graph_kernel (%x) grid = [4, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x16xf32>):
    %acc = mb.for_loop -> (tensor<1x1xf32>) {
      %t = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<4x16xf32> -> tensor<1x8xf32>
      %s = mb.accum_sum_last %t : tensor<1x8xf32> -> tensor<1x1xf32>
      mb.yield %s : tensor<1x1xf32>
    }
    %m = mb.mul_scalar %acc, 0.125 : tensor<1x1xf32>
    %o = mb.output_saver %m omap = [0, -1, -1] : tensor<1x1xf32> -> tensor<4x1xf32>
    mb.return %o : tensor<4x1xf32>
  } : (tensor<4x16xf32>) -> tensor<4x1xf32>
  return %y : tensor<4x1xf32>
}

// -----

// Attention scores scaled by 1/sqrt(8) instead of 1/sqrt(d) = 1/sqrt(16).
func.func @nl_scale_ref(%q: tensor<4x16xf32>, %k: tensor<16x4xf32>) -> tensor<4x4xf32> {
  %s = mk.matmul %q, %k : tensor<4x16xf32>, tensor<16x4xf32> -> tensor<4x4xf32>
  %r = mk.mul_scalar %s, 0.25 : tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
// CHECK: block-level.mlir:[[@LINE+1]]:1: error: not equivalent to @nl_scale_ref: {{(in f64 on [a-z]+ inputs \(seed [0-9]+\): )?}}output #0 element [{{[0-9]+, [0-9]+}}]: reference {{.*}} vs candidate
func.func @nl_scale_wrong_d(%q: tensor<4x16xf32>, %k: tensor<16x4xf32>) -> tensor<4x4xf32> attributes {mk.reference = @nl_scale_ref} {
  %y = mk.graph_kernel (%q, %k) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%Q: tensor<4x16xf32>, %K: tensor<16x4xf32>):
    %acc = mb.for_loop -> (tensor<2x4xf32>) {
      %qt = mb.input_iter %Q imap = [0, -1, -1] fmap = 1 : tensor<4x16xf32> -> tensor<2x4xf32>
      %kt = mb.input_iter %K imap = [-1, -1, -1] fmap = 0 : tensor<16x4xf32> -> tensor<4x4xf32>
      %qs = mb.mul_scalar %qt, 0.35355339059327373 : tensor<2x4xf32>
      %m = mb.matmul %qs, %kt : tensor<2x4xf32>, tensor<4x4xf32> -> tensor<2x4xf32>
      %s = mb.accum_sum %m : tensor<2x4xf32> -> tensor<2x4xf32>
      mb.yield %s : tensor<2x4xf32>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<2x4xf32> -> tensor<4x4xf32>
    mb.return %o : tensor<4x4xf32>
  } : (tensor<4x16xf32>, tensor<16x4xf32>) -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}
