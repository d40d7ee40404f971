// Graph-defined kernels against their kernel-level references: tilings,
// grids, accumulators, post-loop ops and thread graphs that preserve the
// semantics. Every pair is reported equivalent.
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

func.func @rowmean_ref(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %s = mk.reduce_sum %x dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  %m = mk.mul_scalar %s, 0.125 : tensor<4x1xf32>
  return %m : tensor<4x1xf32>
}

// mean_last divides by F * n = 8.
// expected-remark @below {{equivalent to @rowmean_ref}}
func.func @rowmean(%x: tensor<4x8xf32>) -> tensor<4x1xf32> attributes {mk.reference = @rowmean_ref} {
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x8xf32>):
    %acc = mb.for_loop -> (tensor<4x1xf32>) {
      %t = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<4x8xf32> -> tensor<4x4xf32>
      %s = mb.accum_mean_last %t : tensor<4x4xf32> -> tensor<4x1xf32>
      mb.yield %s : tensor<4x1xf32>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<4x1xf32> -> tensor<4x1xf32>
    mb.return %o : tensor<4x1xf32>
  } : (tensor<4x8xf32>) -> tensor<4x1xf32>
  return %y : tensor<4x1xf32>
}

func.func @rms_ref(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %sq = mk.square %x : tensor<4x8xf32>
  %s = mk.reduce_sum %sq dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  %m = mk.mul_scalar %s, 0.125 : tensor<4x1xf32>
  %e = mk.add_scalar %m, 1.0e-6 : tensor<4x1xf32>
  %r = mk.sqrt %e : tensor<4x1xf32>
  return %r : tensor<4x1xf32>
}

// rms_last is sqrt(sum(x^2) / (F * n) + eps).
// expected-remark @below {{equivalent to @rms_ref}}
func.func @rms(%x: tensor<4x8xf32>) -> tensor<4x1xf32> attributes {mk.reference = @rms_ref} {
  %y = mk.graph_kernel (%x) grid = [4, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<4x8xf32>):
    %acc = mb.for_loop -> (tensor<1x1xf32>) {
      %t = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<4x8xf32> -> tensor<1x2xf32>
      %s = mb.accum_rms_last %t eps = 1.0e-6 : tensor<1x2xf32> -> tensor<1x1xf32>
      mb.yield %s : tensor<1x1xf32>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<1x1xf32> -> tensor<4x1xf32>
    mb.return %o : tensor<4x1xf32>
  } : (tensor<4x8xf32>) -> tensor<4x1xf32>
  return %y : tensor<4x1xf32>
}

func.func @rowmax_ref(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %m = mk.reduce_max %x dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  return %m : tensor<4x1xf32>
}

// A maximum taken tile by tile (reduce_max in the body, max accumulator).
// expected-remark @below {{compared by structure only}}
func.func @rowmax(%x: tensor<4x8xf32>) -> tensor<4x1xf32> attributes {mk.reference = @rowmax_ref} {
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<4x8xf32>):
    %acc = mb.for_loop -> (tensor<4x1xf32>) {
      %t = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<4x8xf32> -> tensor<4x2xf32>
      %m = mb.reduce_max %t dim = 1 : tensor<4x2xf32> -> tensor<4x1xf32>
      %s = mb.accum_max %m : tensor<4x1xf32> -> tensor<4x1xf32>
      mb.yield %s : tensor<4x1xf32>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<4x1xf32> -> tensor<4x1xf32>
    mb.return %o : tensor<4x1xf32>
  } : (tensor<4x8xf32>) -> tensor<4x1xf32>
  return %y : tensor<4x1xf32>
}

func.func @expsum_ref(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %e = mk.exp %x : tensor<4x8xf32>
  %s = mk.reduce_sum %e dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  return %s : tensor<4x1xf32>
}

// Online softmax denominator: rescaled_sum of per-tile sums of exp(x - m),
// then times exp(M) with M the running maximum.
// expected-remark @below {{equivalent to @expsum_ref}}
func.func @expsum_online(%x: tensor<4x8xf32>) -> tensor<4x1xf32> attributes {mk.reference = @expsum_ref} {
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<4x8xf32>):
    %acc:2 = mb.for_loop -> (tensor<4x1xf32>, tensor<4x1xf32>) {
      %t = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<4x8xf32> -> tensor<4x2xf32>
      %m = mb.reduce_max %t dim = 1 : tensor<4x2xf32> -> tensor<4x1xf32>
      %d = mb.sub %t, %m : tensor<4x2xf32>, tensor<4x1xf32> -> tensor<4x2xf32>
      %e = mb.exp %d : tensor<4x2xf32>
      %s = mb.reduce_sum %e dim = 1 : tensor<4x2xf32> -> tensor<4x1xf32>
      %r = mb.accum_rescaled_sum %s, %m : tensor<4x1xf32>, tensor<4x1xf32> -> tensor<4x1xf32>
      %big = mb.accum_max %m : tensor<4x1xf32> -> tensor<4x1xf32>
      mb.yield %r, %big : tensor<4x1xf32>, tensor<4x1xf32>
    }
    %eb = mb.exp %acc#1 : tensor<4x1xf32>
    %v = mb.mul %acc#0, %eb : tensor<4x1xf32>, tensor<4x1xf32> -> tensor<4x1xf32>
    %o = mb.output_saver %v omap = [-1, -1, -1] : tensor<4x1xf32> -> tensor<4x1xf32>
    mb.return %o : tensor<4x1xf32>
  } : (tensor<4x8xf32>) -> tensor<4x1xf32>
  return %y : tensor<4x1xf32>
}

func.func @bmm_ref(%a: tensor<2x4x8xf32>, %b: tensor<2x8x4xf32>) -> tensor<2x4x4xf32> {
  %y = mk.matmul %a, %b : tensor<2x4x8xf32>, tensor<2x8x4xf32> -> tensor<2x4x4xf32>
  return %y : tensor<2x4x4xf32>
}

// Batched matmul: grid x over the batch dim, z over the rows.
// expected-remark @below {{equivalent to @bmm_ref}}
func.func @bmm(%a: tensor<2x4x8xf32>, %b: tensor<2x8x4xf32>) -> tensor<2x4x4xf32> attributes {mk.reference = @bmm_ref} {
  %y = mk.graph_kernel (%a, %b) grid = [2, 1, 2] block = [128, 1, 1] forloop = 2 {
  ^bb0(%A: tensor<2x4x8xf32>, %B: tensor<2x8x4xf32>):
    %acc = mb.for_loop -> (tensor<1x2x4xf32>) {
      %at = mb.input_iter %A imap = [0, -1, 1] fmap = 2 : tensor<2x4x8xf32> -> tensor<1x2x4xf32>
      %bt = mb.input_iter %B imap = [0, -1, -1] fmap = 1 : tensor<2x8x4xf32> -> tensor<1x4x4xf32>
      %m = mb.matmul %at, %bt : tensor<1x2x4xf32>, tensor<1x4x4xf32> -> tensor<1x2x4xf32>
      %s = mb.accum_sum %m : tensor<1x2x4xf32> -> tensor<1x2x4xf32>
      mb.yield %s : tensor<1x2x4xf32>
    }
    %o = mb.output_saver %acc omap = [0, -1, 1] : tensor<1x2x4xf32> -> tensor<2x4x4xf32>
    mb.return %o : tensor<2x4x4xf32>
  } : (tensor<2x4x8xf32>, tensor<2x8x4xf32>) -> tensor<2x4x4xf32>
  return %y : tensor<2x4x4xf32>
}

func.func @gated_ref(%x: tensor<2x8xf32>, %w1: tensor<8x4xf32>, %w2: tensor<8x4xf32>) -> tensor<2x4xf32> {
  %a = mk.matmul %x, %w1 : tensor<2x8xf32>, tensor<8x4xf32> -> tensor<2x4xf32>
  %b = mk.matmul %x, %w2 : tensor<2x8xf32>, tensor<8x4xf32> -> tensor<2x4xf32>
  %s = mk.silu %a : tensor<2x4xf32>
  %y = mk.mul %s, %b : tensor<2x4xf32>, tensor<2x4xf32> -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}

// Gated MLP: both matmuls accumulated, silu * mul in a post-loop thread graph.
// expected-remark @below {{equivalent to @gated_ref}}
func.func @gated(%x: tensor<2x8xf32>, %w1: tensor<8x4xf32>, %w2: tensor<8x4xf32>) -> tensor<2x4xf32> attributes {mk.reference = @gated_ref} {
  %y = mk.graph_kernel (%x, %w1, %w2) grid = [2, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<2x8xf32>, %W1: tensor<8x4xf32>, %W2: tensor<8x4xf32>):
    %acc:2 = mb.for_loop -> (tensor<2x2xf32>, tensor<2x2xf32>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x8xf32> -> tensor<2x4xf32>
      %at = mb.input_iter %W1 imap = [1, -1, -1] fmap = 0 : tensor<8x4xf32> -> tensor<4x2xf32>
      %bt = mb.input_iter %W2 imap = [1, -1, -1] fmap = 0 : tensor<8x4xf32> -> tensor<4x2xf32>
      %ma = mb.matmul %xt, %at : tensor<2x4xf32>, tensor<4x2xf32> -> tensor<2x2xf32>
      %mb = mb.matmul %xt, %bt : tensor<2x4xf32>, tensor<4x2xf32> -> tensor<2x2xf32>
      %sa = mb.accum_sum %ma : tensor<2x2xf32> -> tensor<2x2xf32>
      %sb = mb.accum_sum %mb : tensor<2x2xf32> -> tensor<2x2xf32>
      mb.yield %sa, %sb : tensor<2x2xf32>, tensor<2x2xf32>
    }
    %g = mt.thread_graph (%acc#0, %acc#1) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32> {
    ^bb0(%a: f32, %b: f32):
      %s = mt.silu %a : f32
      %p = mt.mul %s, %b : f32
      mt.yield %p : f32
    }
    %o = mb.output_saver %g omap = [1, -1, -1] : tensor<2x2xf32> -> tensor<2x4xf32>
    mb.return %o : tensor<2x4xf32>
  } : (tensor<2x8xf32>, tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}

func.func @lora_ref(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>, %a: tensor<8x2xf32>, %b: tensor<2x6xf32>) -> tensor<4x6xf32> {
  %xw = mk.matmul %x, %w : tensor<4x8xf32>, tensor<8x6xf32> -> tensor<4x6xf32>
  %xa = mk.matmul %x, %a : tensor<4x8xf32>, tensor<8x2xf32> -> tensor<4x2xf32>
  %xab = mk.matmul %xa, %b : tensor<4x2xf32>, tensor<2x6xf32> -> tensor<4x6xf32>
  %y = mk.add %xw, %xab : tensor<4x6xf32>, tensor<4x6xf32> -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}

// LoRA as one kernel: (X_k A_k) B is linear in the loop's sum; B replicated.
// expected-remark @below {{equivalent to @lora_ref}}
func.func @lora(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>, %a: tensor<8x2xf32>, %b: tensor<2x6xf32>) -> tensor<4x6xf32> attributes {mk.reference = @lora_ref} {
  %y = mk.graph_kernel (%x, %w, %a, %b) grid = [2, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x8xf32>, %W: tensor<8x6xf32>, %A: tensor<8x2xf32>, %B: tensor<2x6xf32>):
    %acc = mb.for_loop -> (tensor<4x3xf32>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<4x8xf32> -> tensor<4x4xf32>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0 : tensor<8x6xf32> -> tensor<4x3xf32>
      %at = mb.input_iter %A imap = [-1, -1, -1] fmap = 0 : tensor<8x2xf32> -> tensor<4x2xf32>
      %bt = mb.input_iter %B imap = [1, -1, -1] fmap = -1 : tensor<2x6xf32> -> tensor<2x3xf32>
      %xw = mb.matmul %xt, %wt : tensor<4x4xf32>, tensor<4x3xf32> -> tensor<4x3xf32>
      %xa = mb.matmul %xt, %at : tensor<4x4xf32>, tensor<4x2xf32> -> tensor<4x2xf32>
      %xab = mb.matmul %xa, %bt : tensor<4x2xf32>, tensor<2x3xf32> -> tensor<4x3xf32>
      %s = mb.add %xw, %xab : tensor<4x3xf32>, tensor<4x3xf32> -> tensor<4x3xf32>
      %r = mb.accum_sum %s : tensor<4x3xf32> -> tensor<4x3xf32>
      mb.yield %r : tensor<4x3xf32>
    }
    %o = mb.output_saver %acc omap = [1, -1, -1] : tensor<4x3xf32> -> tensor<4x6xf32>
    mb.return %o : tensor<4x6xf32>
  } : (tensor<4x8xf32>, tensor<8x6xf32>, tensor<8x2xf32>, tensor<2x6xf32>) -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}

func.func @attn_ref(%q: tensor<2x4x4xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x8x4xf32>) -> tensor<2x4x4xf32> {
  %s = mk.matmul %q, %k : tensor<2x4x4xf32>, tensor<2x4x8xf32> -> tensor<2x4x8xf32>
  %e = mk.exp %s : tensor<2x4x8xf32>
  %d = mk.reduce_sum %e dim = 2 : tensor<2x4x8xf32> -> tensor<2x4x1xf32>
  %p = mk.div %e, %d : tensor<2x4x8xf32>, tensor<2x4x1xf32> -> tensor<2x4x8xf32>
  %o = mk.matmul %p, %v : tensor<2x4x8xf32>, tensor<2x8x4xf32> -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// Attention split over the sequence (grid y, 2 chunks) with partial
// numerators and denominators, combined by a second kernel.
// expected-remark @below {{equivalent to @attn_ref}}
func.func @attn_split(%q: tensor<2x4x4xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x8x4xf32>) -> tensor<2x4x4xf32> attributes {mk.reference = @attn_ref} {
  %part:2 = mk.graph_kernel (%q, %k, %v) grid = [2, 2, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%Q: tensor<2x4x4xf32>, %K: tensor<2x4x8xf32>, %V: tensor<2x8x4xf32>):
    %acc:2 = mb.for_loop -> (tensor<1x4x4xf32>, tensor<1x4x1xf32>) {
      %qt = mb.input_iter %Q imap = [0, -1, -1] fmap = -1 : tensor<2x4x4xf32> -> tensor<1x4x4xf32>
      %kt = mb.input_iter %K imap = [0, 2, -1] fmap = 2 : tensor<2x4x8xf32> -> tensor<1x4x2xf32>
      %vt = mb.input_iter %V imap = [0, 1, -1] fmap = 1 : tensor<2x8x4xf32> -> tensor<1x2x4xf32>
      %s = mb.matmul %qt, %kt : tensor<1x4x4xf32>, tensor<1x4x2xf32> -> tensor<1x4x2xf32>
      %e = mb.exp %s : tensor<1x4x2xf32>
      %n = mb.matmul %e, %vt : tensor<1x4x2xf32>, tensor<1x2x4xf32> -> tensor<1x4x4xf32>
      %an = mb.accum_sum %n : tensor<1x4x4xf32> -> tensor<1x4x4xf32>
      %ad = mb.accum_sum_last %e : tensor<1x4x2xf32> -> tensor<1x4x1xf32>
      mb.yield %an, %ad : tensor<1x4x4xf32>, tensor<1x4x1xf32>
    }
    %on = mb.output_saver %acc#0 omap = [0, 2, -1] : tensor<1x4x4xf32> -> tensor<2x4x8xf32>
    %od = mb.output_saver %acc#1 omap = [0, 2, -1] : tensor<1x4x1xf32> -> tensor<2x4x2xf32>
    mb.return %on, %od : tensor<2x4x8xf32>, tensor<2x4x2xf32>
  } : (tensor<2x4x4xf32>, tensor<2x4x8xf32>, tensor<2x8x4xf32>) -> (tensor<2x4x8xf32>, tensor<2x4x2xf32>)
  %o = mk.graph_kernel (%part#0, %part#1) grid = [2, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%N: tensor<2x4x8xf32>, %D: tensor<2x4x2xf32>):
    %acc:2 = mb.for_loop -> (tensor<1x4x4xf32>, tensor<1x4x1xf32>) {
      %nt = mb.input_iter %N imap = [0, -1, -1] fmap = 2 : tensor<2x4x8xf32> -> tensor<1x4x4xf32>
      %dt = mb.input_iter %D imap = [0, -1, -1] fmap = 2 : tensor<2x4x2xf32> -> tensor<1x4x1xf32>
      %an = mb.accum_sum %nt : tensor<1x4x4xf32> -> tensor<1x4x4xf32>
      %ad = mb.accum_sum %dt : tensor<1x4x1xf32> -> tensor<1x4x1xf32>
      mb.yield %an, %ad : tensor<1x4x4xf32>, tensor<1x4x1xf32>
    }
    %r = mb.div %acc#0, %acc#1 : tensor<1x4x4xf32>, tensor<1x4x1xf32> -> tensor<1x4x4xf32>
    %out = mb.output_saver %r omap = [0, -1, -1] : tensor<1x4x4xf32> -> tensor<2x4x4xf32>
    mb.return %out : tensor<2x4x4xf32>
  } : (tensor<2x4x8xf32>, tensor<2x4x2xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

func.func @rmsmm_ref(%x: tensor<2x8xf32>, %w: tensor<8x6xf32>) -> tensor<2x6xf32> {
  %n = mk.rms_norm %x eps = 1.0e-6 : tensor<2x8xf32>
  %y = mk.matmul %n, %w : tensor<2x8xf32>, tensor<8x6xf32> -> tensor<2x6xf32>
  return %y : tensor<2x6xf32>
}

// RMSNorm+MatMul as in DESIGN §3.2, the division in a thread graph.
// expected-remark @below {{equivalent to @rmsmm_ref}}
func.func @rmsmm(%x: tensor<2x8xf32>, %w: tensor<8x6xf32>) -> tensor<2x6xf32> attributes {mk.reference = @rmsmm_ref} {
  %y = mk.graph_kernel (%x, %w) grid = [3, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<2x8xf32>, %W: tensor<8x6xf32>):
    %acc:2 = mb.for_loop -> (tensor<2x1xf32>, tensor<2x2xf32>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x8xf32> -> tensor<2x4xf32>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0 : tensor<8x6xf32> -> tensor<4x2xf32>
      %m = mb.matmul %xt, %wt : tensor<2x4xf32>, tensor<4x2xf32> -> tensor<2x2xf32>
      %r = mb.accum_rms_last %xt eps = 1.0e-6 : tensor<2x4xf32> -> tensor<2x1xf32>
      %s = mb.accum_sum %m : tensor<2x2xf32> -> tensor<2x2xf32>
      mb.yield %r, %s : tensor<2x1xf32>, tensor<2x2xf32>
    }
    %q = mt.thread_graph (%acc#1, %acc#0) : (tensor<2x2xf32>, tensor<2x1xf32>) -> tensor<2x2xf32> {
    ^bb0(%a: f32, %b: f32):
      %d = mt.div %a, %b : f32
      mt.yield %d : f32
    }
    %o = mb.output_saver %q omap = [1, -1, -1] : tensor<2x2xf32> -> tensor<2x6xf32>
    mb.return %o : tensor<2x6xf32>
  } : (tensor<2x8xf32>, tensor<8x6xf32>) -> tensor<2x6xf32>
  return %y : tensor<2x6xf32>
}

func.func @copy_ref(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  return %x : tensor<4x6xf32>
}

// A copy kernel with swapped grid roles: grid x over dim 1, y over dim 0.
// expected-remark @below {{equivalent to @copy_ref}}
func.func @copy(%x: tensor<4x6xf32>) -> tensor<4x6xf32> attributes {mk.reference = @copy_ref} {
  %y = mk.graph_kernel (%x) grid = [3, 2, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<4x6xf32>):
    %acc = mb.for_loop -> (tensor<2x2xf32>) {
      %t = mb.input_iter %X imap = [1, 0, -1] fmap = -1 : tensor<4x6xf32> -> tensor<2x2xf32>
      %s = mb.accum_sum %t : tensor<2x2xf32> -> tensor<2x2xf32>
      mb.yield %s : tensor<2x2xf32>
    }
    %o = mb.output_saver %acc omap = [1, 0, -1] : tensor<2x2xf32> -> tensor<4x6xf32>
    mb.return %o : tensor<4x6xf32>
  } : (tensor<4x6xf32>) -> tensor<4x6xf32>
  return %y : tensor<4x6xf32>
}
