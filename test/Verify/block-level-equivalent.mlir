// Block-level pairs (issue 9 item 6): graph-defined kernels that compute
// exactly their reference over the reals. --mirage-check-equivalence must
// report each candidate equivalent (field tests and the f64 check agree).
// Function names are unique across the splits so that mirage-verify-bench
// (test/Verify/flaky.mlir) can read the whole file as one module.
// RUN: mirage-opt --mlir-print-op-on-diagnostic=false --mirage-check-equivalence -split-input-file %s -o /dev/null 2>&1 | FileCheck %s

// CHECK-NOT: error

// The same matmul tiled two more ways (block-mm.mlir has a 2x1 and a 2x3
// grid): a 3x2 grid with the x dim over W's columns and the y dim over X's
// rows, the loop walking K one element per iteration, saved with omap
// [1, 0]; and one block, one iteration.
func.func @bl_mm_ref(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>) -> tensor<4x6xf32> {
  %y = mk.matmul %x, %w : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}
// CHECK: block-level-equivalent.mlir:[[@LINE+1]]:1: remark: equivalent to @bl_mm_ref (
func.func @bl_mm_grid3x2_k1(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>) -> tensor<4x6xf32> attributes {mk.reference = @bl_mm_ref} {
  %y = mk.graph_kernel (%x, %w) grid = [3, 2, 1] block = [128, 1, 1] forloop = 8 {
  ^bb0(%X: tensor<4x8xf32>, %W: tensor<8x6xf32>):
    %acc = mb.for_loop -> (tensor<2x2xf32>) {
      %xt = mb.input_iter %X imap = [-1, 0, -1] fmap = 1 : tensor<4x8xf32> -> tensor<2x1xf32>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0 : tensor<8x6xf32> -> tensor<1x2xf32>
      %m = mb.matmul %xt, %wt : tensor<2x1xf32>, tensor<1x2xf32> -> tensor<2x2xf32>
      %s = mb.accum_sum %m : tensor<2x2xf32> -> tensor<2x2xf32>
      mb.yield %s : tensor<2x2xf32>
    }
    %o = mb.output_saver %acc omap = [1, 0, -1] : tensor<2x2xf32> -> tensor<4x6xf32>
    mb.return %o : tensor<4x6xf32>
  } : (tensor<4x8xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}
// CHECK: block-level-equivalent.mlir:[[@LINE+1]]:1: remark: equivalent to @bl_mm_ref (
func.func @bl_mm_one_block(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>) -> tensor<4x6xf32> attributes {mk.reference = @bl_mm_ref} {
  %y = mk.graph_kernel (%x, %w) grid = [1, 1, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<4x8xf32>, %W: tensor<8x6xf32>):
    %acc = mb.for_loop -> (tensor<4x6xf32>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = -1 : tensor<4x8xf32> -> tensor<4x8xf32>
      %wt = mb.input_iter %W imap = [-1, -1, -1] fmap = -1 : tensor<8x6xf32> -> tensor<8x6xf32>
      %m = mb.matmul %xt, %wt : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
      %s = mb.accum_sum %m : tensor<4x6xf32> -> tensor<4x6xf32>
      mb.yield %s : tensor<4x6xf32>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<4x6xf32> -> tensor<4x6xf32>
    mb.return %o : tensor<4x6xf32>
  } : (tensor<4x8xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}

// -----

// Split K: block bx of the first kernel sums the products over K half bx
// (columns 4bx + 2i of X, rows 4bx + 2i of W) and saves its partial as
// columns 6bx.. of a 4x12 tensor; the second kernel's loop walks the two
// partials and sums them.
func.func @bl_splitk_ref(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>) -> tensor<4x6xf32> {
  %y = mk.matmul %x, %w : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}
// CHECK: block-level-equivalent.mlir:[[@LINE+1]]:1: remark: equivalent to @bl_splitk_ref (
func.func @bl_splitk(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>) -> tensor<4x6xf32> attributes {mk.reference = @bl_splitk_ref} {
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
      %pt = mb.input_iter %P imap = [0, -1, -1] fmap = 1 : tensor<4x12xf32> -> tensor<2x6xf32>
      %s = mb.accum_sum %pt : tensor<2x6xf32> -> tensor<2x6xf32>
      mb.yield %s : tensor<2x6xf32>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<2x6xf32> -> tensor<4x6xf32>
    mb.return %o : tensor<4x6xf32>
  } : (tensor<4x12xf32>) -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}

// -----

// RMSNorm fused: rms_last over the row (F * n = 4 * 2 = 8 elements) and the
// block's 2x4 output tile, which every iteration reads whole, so accum_sum
// holds 4 x; the post-loop scale 1/4 undoes that.
func.func @bl_rms_ref(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %n = mk.rms_norm %x eps = 1.0e-6 : tensor<4x8xf32>
  return %n : tensor<4x8xf32>
}
// CHECK: block-level-equivalent.mlir:[[@LINE+1]]:1: remark: equivalent to @bl_rms_ref (
func.func @bl_rms_fused(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @bl_rms_ref} {
  %y = mk.graph_kernel (%x) grid = [2, 2, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<4x8xf32>):
    %acc:2 = mb.for_loop -> (tensor<2x1xf32>, tensor<2x4xf32>) {
      %rt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<4x8xf32> -> tensor<2x2xf32>
      %xt = mb.input_iter %X imap = [0, 1, -1] fmap = -1 : tensor<4x8xf32> -> tensor<2x4xf32>
      %r = mb.accum_rms_last %rt eps = 1.0e-6 : tensor<2x2xf32> -> tensor<2x1xf32>
      %s = mb.accum_sum %xt : tensor<2x4xf32> -> tensor<2x4xf32>
      mb.yield %r, %s : tensor<2x1xf32>, tensor<2x4xf32>
    }
    %q = mb.div %acc#1, %acc#0 : tensor<2x4xf32>, tensor<2x1xf32> -> tensor<2x4xf32>
    %v = mb.mul_scalar %q, 0.25 : tensor<2x4xf32>
    %o = mb.output_saver %v omap = [0, 1, -1] : tensor<2x4xf32> -> tensor<4x8xf32>
    mb.return %o : tensor<4x8xf32>
  } : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// The output saver's omap is the input's imap permutation: grid x over the
// columns and y over the rows on both sides.
func.func @bl_perm_ref(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %e = mk.exp %x : tensor<4x6xf32>
  return %e : tensor<4x6xf32>
}
// CHECK: block-level-equivalent.mlir:[[@LINE+1]]:1: remark: equivalent to @bl_perm_ref (
func.func @bl_perm_omap(%x: tensor<4x6xf32>) -> tensor<4x6xf32> attributes {mk.reference = @bl_perm_ref} {
  %y = mk.graph_kernel (%x) grid = [3, 2, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<4x6xf32>):
    %acc = mb.for_loop -> (tensor<2x2xf32>) {
      %t = mb.input_iter %X imap = [1, 0, -1] fmap = -1 : tensor<4x6xf32> -> tensor<2x2xf32>
      %e = mb.exp %t : tensor<2x2xf32>
      %s = mb.accum_sum %e : tensor<2x2xf32> -> tensor<2x2xf32>
      mb.yield %s : tensor<2x2xf32>
    }
    %o = mb.output_saver %acc omap = [1, 0, -1] : tensor<2x2xf32> -> tensor<4x6xf32>
    mb.return %o : tensor<4x6xf32>
  } : (tensor<4x6xf32>) -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}

// -----

// A commuted add in the loop body: y + x summed per row.
func.func @bl_addsum_ref(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %a = mk.add %x, %y : tensor<4x8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %s = mk.reduce_sum %a dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  return %s : tensor<4x1xf32>
}
// CHECK: block-level-equivalent.mlir:[[@LINE+1]]:1: remark: equivalent to @bl_addsum_ref (
func.func @bl_addsum_commuted(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x1xf32> attributes {mk.reference = @bl_addsum_ref} {
  %r = mk.graph_kernel (%x, %y) grid = [2, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x8xf32>, %Y: tensor<4x8xf32>):
    %acc = mb.for_loop -> (tensor<2x1xf32>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<4x8xf32> -> tensor<2x4xf32>
      %yt = mb.input_iter %Y imap = [0, -1, -1] fmap = 1 : tensor<4x8xf32> -> tensor<2x4xf32>
      %a = mb.add %yt, %xt : tensor<2x4xf32>, tensor<2x4xf32> -> tensor<2x4xf32>
      %s = mb.accum_sum_last %a : tensor<2x4xf32> -> tensor<2x1xf32>
      mb.yield %s : tensor<2x1xf32>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<2x1xf32> -> tensor<4x1xf32>
    mb.return %o : tensor<4x1xf32>
  } : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x1xf32>
  return %r : tensor<4x1xf32>
}

// -----

// Both programs graph-defined: mean_last (F * n = 4 * 4 = 16) against
// sum_last over another tiling (F * n = 2 * 8) times 1/16 after the loop.
func.func @bl_mean_ref(%x: tensor<4x16xf32>) -> tensor<4x1xf32> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<4x16xf32>):
    %acc = mb.for_loop -> (tensor<2x1xf32>) {
      %t = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<4x16xf32> -> tensor<2x4xf32>
      %m = mb.accum_mean_last %t : tensor<2x4xf32> -> tensor<2x1xf32>
      mb.yield %m : tensor<2x1xf32>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<2x1xf32> -> tensor<4x1xf32>
    mb.return %o : tensor<4x1xf32>
  } : (tensor<4x16xf32>) -> tensor<4x1xf32>
  return %y : tensor<4x1xf32>
}
// CHECK: block-level-equivalent.mlir:[[@LINE+1]]:1: remark: equivalent to @bl_mean_ref (
func.func @bl_mean_sum_scaled(%x: tensor<4x16xf32>) -> tensor<4x1xf32> attributes {mk.reference = @bl_mean_ref} {
  %y = mk.graph_kernel (%x) grid = [4, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x16xf32>):
    %acc = mb.for_loop -> (tensor<1x1xf32>) {
      %t = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<4x16xf32> -> tensor<1x8xf32>
      %s = mb.accum_sum_last %t : tensor<1x8xf32> -> tensor<1x1xf32>
      mb.yield %s : tensor<1x1xf32>
    }
    %m = mb.mul_scalar %acc, 0.0625 : tensor<1x1xf32>
    %o = mb.output_saver %m omap = [0, -1, -1] : tensor<1x1xf32> -> tensor<4x1xf32>
    mb.return %o : tensor<4x1xf32>
  } : (tensor<4x16xf32>) -> tensor<4x1xf32>
  return %y : tensor<4x1xf32>
}

// -----

// Softmax (without the max) in two kernels: the row sums of exp(x) over two
// iterations, then exp(x) / sum on a 2x2 grid of 2x4 tiles, the sums read by
// the blocks of a row with the column grid dim replicated.
func.func @bl_softmax_ref(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = mk.exp %x : tensor<4x8xf32>
  %s = mk.reduce_sum %e dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  %p = mk.div %e, %s : tensor<4x8xf32>, tensor<4x1xf32> -> tensor<4x8xf32>
  return %p : tensor<4x8xf32>
}
// CHECK: block-level-equivalent.mlir:[[@LINE+1]]:1: remark: equivalent to @bl_softmax_ref (
func.func @bl_softmax_two_kernels(%x: tensor<4x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @bl_softmax_ref} {
  %s = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x8xf32>):
    %acc = mb.for_loop -> (tensor<2x1xf32>) {
      %t = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<4x8xf32> -> tensor<2x4xf32>
      %e = mb.exp %t : tensor<2x4xf32>
      %r = mb.accum_sum_last %e : tensor<2x4xf32> -> tensor<2x1xf32>
      mb.yield %r : tensor<2x1xf32>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<2x1xf32> -> tensor<4x1xf32>
    mb.return %o : tensor<4x1xf32>
  } : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %p = mk.graph_kernel (%x, %s) grid = [2, 2, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<4x8xf32>, %S: tensor<4x1xf32>):
    %acc:2 = mb.for_loop -> (tensor<2x4xf32>, tensor<2x1xf32>) {
      %t = mb.input_iter %X imap = [0, 1, -1] fmap = -1 : tensor<4x8xf32> -> tensor<2x4xf32>
      %st = mb.input_iter %S imap = [0, -1, -1] fmap = -1 : tensor<4x1xf32> -> tensor<2x1xf32>
      %e = mb.exp %t : tensor<2x4xf32>
      %a = mb.accum_sum %e : tensor<2x4xf32> -> tensor<2x4xf32>
      %b = mb.accum_sum %st : tensor<2x1xf32> -> tensor<2x1xf32>
      mb.yield %a, %b : tensor<2x4xf32>, tensor<2x1xf32>
    }
    %q = mb.div %acc#0, %acc#1 : tensor<2x4xf32>, tensor<2x1xf32> -> tensor<2x4xf32>
    %o = mb.output_saver %q omap = [0, 1, -1] : tensor<2x4xf32> -> tensor<4x8xf32>
    mb.return %o : tensor<4x8xf32>
  } : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  return %p : tensor<4x8xf32>
}

// -----

// (X W)^T: each block transposes its 2x2 tile of X W after the loop and saves
// it with omap [0, 1] although its input tiles come from grid y (rows of X)
// and grid x (columns of W): tile (by, bx) of X W is tile (bx, by) of the
// transpose.
func.func @bl_mmt_ref(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>) -> tensor<6x4xf32> {
  %y = mk.matmul %x, %w : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
  %t = mk.transpose %y perm = [1, 0] : tensor<4x6xf32> -> tensor<6x4xf32>
  return %t : tensor<6x4xf32>
}
// CHECK: block-level-equivalent.mlir:[[@LINE+1]]:1: remark: equivalent to @bl_mmt_ref (
func.func @bl_mmt_tiles(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>) -> tensor<6x4xf32> attributes {mk.reference = @bl_mmt_ref} {
  %y = mk.graph_kernel (%x, %w) grid = [3, 2, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x8xf32>, %W: tensor<8x6xf32>):
    %acc = mb.for_loop -> (tensor<2x2xf32>) {
      %xt = mb.input_iter %X imap = [-1, 0, -1] fmap = 1 : tensor<4x8xf32> -> tensor<2x4xf32>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0 : tensor<8x6xf32> -> tensor<4x2xf32>
      %m = mb.matmul %xt, %wt : tensor<2x4xf32>, tensor<4x2xf32> -> tensor<2x2xf32>
      %s = mb.accum_sum %m : tensor<2x2xf32> -> tensor<2x2xf32>
      mb.yield %s : tensor<2x2xf32>
    }
    %t = mb.transpose %acc perm = [1, 0] : tensor<2x2xf32> -> tensor<2x2xf32>
    %o = mb.output_saver %t omap = [0, 1, -1] : tensor<2x2xf32> -> tensor<6x4xf32>
    mb.return %o : tensor<6x4xf32>
  } : (tensor<4x8xf32>, tensor<8x6xf32>) -> tensor<6x4xf32>
  return %y : tensor<6x4xf32>
}

// -----

// Attention scores scaled by 1/sqrt(d), d = 16: the candidate scales each
// Q tile in the loop body before the product (the sum is linear).
func.func @bl_scale_ref(%q: tensor<4x16xf32>, %k: tensor<16x4xf32>) -> tensor<4x4xf32> {
  %s = mk.matmul %q, %k : tensor<4x16xf32>, tensor<16x4xf32> -> tensor<4x4xf32>
  %r = mk.mul_scalar %s, 0.25 : tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
// CHECK: block-level-equivalent.mlir:[[@LINE+1]]:1: remark: equivalent to @bl_scale_ref (
func.func @bl_scale_in_loop(%q: tensor<4x16xf32>, %k: tensor<16x4xf32>) -> tensor<4x4xf32> attributes {mk.reference = @bl_scale_ref} {
  %y = mk.graph_kernel (%q, %k) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%Q: tensor<4x16xf32>, %K: tensor<16x4xf32>):
    %acc = mb.for_loop -> (tensor<2x4xf32>) {
      %qt = mb.input_iter %Q imap = [0, -1, -1] fmap = 1 : tensor<4x16xf32> -> tensor<2x4xf32>
      %kt = mb.input_iter %K imap = [-1, -1, -1] fmap = 0 : tensor<16x4xf32> -> tensor<4x4xf32>
      %qs = mb.mul_scalar %qt, 0.25 : tensor<2x4xf32>
      %m = mb.matmul %qs, %kt : tensor<2x4xf32>, tensor<4x4xf32> -> tensor<2x4xf32>
      %s = mb.accum_sum %m : tensor<2x4xf32> -> tensor<2x4xf32>
      mb.yield %s : tensor<2x4xf32>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<2x4xf32> -> tensor<4x4xf32>
    mb.return %o : tensor<4x4xf32>
  } : (tensor<4x16xf32>, tensor<16x4xf32>) -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}
