// RUN: mirage-opt %s -split-input-file -verify-diagnostics

// The walked tail of a loop ([B27], [B28], docs/dynamic.md "The walked
// tail"): one split per rule, each with exactly one error. The kernels are
// decode attention over a dynamic key length, walked by a '?' loop in tiles
// of 32 keys.

func.func @B27_tail_mask_after_the_loop(%q: tensor<8x1x64xf32>, %k: tensor<8x?x64xf32>) -> tensor<8x1x32xf32> {
  %o = mk.graph_kernel (%q, %k) grid = [8, 1, 1] block = [128, 1, 1] forloop = ? {
  ^bb0(%Q: tensor<8x1x64xf32>, %K: tensor<8x?x64xf32>):
    %acc = mb.for_loop -> (tensor<1x1x32xf32>) {
      %qt = mb.input_iter %Q imap = [0, -1, -1] fmap = -1 : tensor<8x1x64xf32> -> tensor<1x1x64xf32>
      %kt = mb.input_iter %K imap = [0, -1, -1] fmap = 1 : tensor<8x?x64xf32> -> tensor<1x32x64xf32>
      %ktt = mb.transpose %kt perm = [0, 2, 1] : tensor<1x32x64xf32> -> tensor<1x64x32xf32>
      %s = mb.matmul %qt, %ktt : tensor<1x1x64xf32>, tensor<1x64x32xf32> -> tensor<1x1x32xf32>
      %a = mb.accum_max %s : tensor<1x1x32xf32> -> tensor<1x1x32xf32>
      mb.yield %a : tensor<1x1x32xf32>
    }
    // expected-error @+1 {{'mb.tail_mask' op [B27] must be directly in the body of an mb.for_loop}}
    %m = mb.tail_mask %acc dim = 2 fill = 0.0 : tensor<1x1x32xf32>
    %out = mb.output_saver %m omap = [0, -1, -1] : tensor<1x1x32xf32> -> tensor<8x1x32xf32>
    mb.return %out : tensor<8x1x32xf32>
  } : (tensor<8x1x64xf32>, tensor<8x?x64xf32>) -> tensor<8x1x32xf32>
  return %o : tensor<8x1x32xf32>
}

// -----

func.func @B27_tail_mask_dim_of_another_size(%q: tensor<8x1x64xf32>, %k: tensor<8x?x64xf32>) -> tensor<8x1x1xf32> {
  %o = mk.graph_kernel (%q, %k) grid = [8, 1, 1] block = [128, 1, 1] forloop = ? {
  ^bb0(%Q: tensor<8x1x64xf32>, %K: tensor<8x?x64xf32>):
    %acc = mb.for_loop -> (tensor<1x1x1xf32>) {
      %qt = mb.input_iter %Q imap = [0, -1, -1] fmap = -1 : tensor<8x1x64xf32> -> tensor<1x1x64xf32>
      %kt = mb.input_iter %K imap = [0, -1, -1] fmap = 1 : tensor<8x?x64xf32> -> tensor<1x32x64xf32>
      // expected-error @+1 {{'mb.tail_mask' op [B27] dim 2 has 64 elements, but the loop walks 32 per trip}}
      %m = mb.tail_mask %kt dim = 2 fill = 0.0 : tensor<1x32x64xf32>
      %r = mb.reduce_sum %m dim = 1 : tensor<1x32x64xf32> -> tensor<1x1x64xf32>
      %s = mb.reduce_sum %r dim = 2 : tensor<1x1x64xf32> -> tensor<1x1x1xf32>
      %a = mb.accum_sum %s : tensor<1x1x1xf32> -> tensor<1x1x1xf32>
      mb.yield %a : tensor<1x1x1xf32>
    }
    %out = mb.output_saver %acc omap = [0, -1, -1] : tensor<1x1x1xf32> -> tensor<8x1x1xf32>
    mb.return %out : tensor<8x1x1xf32>
  } : (tensor<8x1x64xf32>, tensor<8x?x64xf32>) -> tensor<8x1x1xf32>
  return %o : tensor<8x1x1xf32>
}

// -----

func.func @B27_tail_mask_dim_out_of_range(%k: tensor<8x?x64xf32>) -> tensor<8x1x64xf32> {
  %o = mk.graph_kernel (%k) grid = [8, 1, 1] block = [128, 1, 1] forloop = ? {
  ^bb0(%K: tensor<8x?x64xf32>):
    %acc = mb.for_loop -> (tensor<1x1x64xf32>) {
      %kt = mb.input_iter %K imap = [0, -1, -1] fmap = 1 : tensor<8x?x64xf32> -> tensor<1x32x64xf32>
      // expected-error @+1 {{'mb.tail_mask' op [B27] dim 3 is not a dim of a rank-3 tile}}
      %m = mb.tail_mask %kt dim = 3 fill = 0.0 : tensor<1x32x64xf32>
      %r = mb.reduce_sum %m dim = 1 : tensor<1x32x64xf32> -> tensor<1x1x64xf32>
      %a = mb.accum_sum %r : tensor<1x1x64xf32> -> tensor<1x1x64xf32>
      mb.yield %a : tensor<1x1x64xf32>
    }
    %out = mb.output_saver %acc omap = [0, -1, -1] : tensor<1x1x64xf32> -> tensor<8x1x64xf32>
    mb.return %out : tensor<8x1x64xf32>
  } : (tensor<8x?x64xf32>) -> tensor<8x1x64xf32>
  return %o : tensor<8x1x64xf32>
}

// -----

func.func @B27_tail_mask_without_a_walk(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %o = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<8x64xf32>):
    %acc = mb.for_loop -> (tensor<8x64xf32>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = -1 : tensor<8x64xf32> -> tensor<8x64xf32>
      // expected-error @+1 {{'mb.tail_mask' op [B27] no input iterator of the loop walks it: there is no walked dim to mask}}
      %m = mb.tail_mask %xt dim = 1 fill = 0.0 : tensor<8x64xf32>
      %a = mb.accum_sum %m : tensor<8x64xf32> -> tensor<8x64xf32>
      mb.yield %a : tensor<8x64xf32>
    }
    %out = mb.output_saver %acc omap = [-1, -1, -1] : tensor<8x64xf32> -> tensor<8x64xf32>
    mb.return %out : tensor<8x64xf32>
  } : (tensor<8x64xf32>) -> tensor<8x64xf32>
  return %o : tensor<8x64xf32>
}

// -----

func.func @B27_tail_mask_nan_fill(%k: tensor<8x?x64xf32>) -> tensor<8x1x64xf32> {
  %o = mk.graph_kernel (%k) grid = [8, 1, 1] block = [128, 1, 1] forloop = ? {
  ^bb0(%K: tensor<8x?x64xf32>):
    %acc = mb.for_loop -> (tensor<1x1x64xf32>) {
      %kt = mb.input_iter %K imap = [0, -1, -1] fmap = 1 : tensor<8x?x64xf32> -> tensor<1x32x64xf32>
      // expected-error @+1 {{'mb.tail_mask' op [B27] fill must not be NaN}}
      %m = mb.tail_mask %kt dim = 1 fill = 0x7FF8000000000000 : tensor<1x32x64xf32>
      %r = mb.reduce_sum %m dim = 1 : tensor<1x32x64xf32> -> tensor<1x1x64xf32>
      %a = mb.accum_sum %r : tensor<1x1x64xf32> -> tensor<1x1x64xf32>
      mb.yield %a : tensor<1x1x64xf32>
    }
    %out = mb.output_saver %acc omap = [0, -1, -1] : tensor<1x1x64xf32> -> tensor<8x1x64xf32>
    mb.return %out : tensor<8x1x64xf32>
  } : (tensor<8x?x64xf32>) -> tensor<8x1x64xf32>
  return %o : tensor<8x1x64xf32>
}

// -----

// exp(S) is 1, not 0, where the keys past the end read zeros: the
// contraction with V must read it masked.
func.func @B28_contraction_unmasked(%q: tensor<8x1x64xf32>, %k: tensor<8x?x64xf32>, %v: tensor<8x?x64xf32>) -> tensor<8x1x64xf32> {
  %o = mk.graph_kernel (%q, %k, %v) grid = [8, 1, 1] block = [128, 1, 1] forloop = ? {
  ^bb0(%Q: tensor<8x1x64xf32>, %K: tensor<8x?x64xf32>, %V: tensor<8x?x64xf32>):
    %acc = mb.for_loop -> (tensor<1x1x64xf32>) {
      %qt = mb.input_iter %Q imap = [0, -1, -1] fmap = -1 : tensor<8x1x64xf32> -> tensor<1x1x64xf32>
      %kt = mb.input_iter %K imap = [0, -1, -1] fmap = 1 : tensor<8x?x64xf32> -> tensor<1x32x64xf32>
      %vt = mb.input_iter %V imap = [0, -1, -1] fmap = 1 : tensor<8x?x64xf32> -> tensor<1x32x64xf32>
      %ktt = mb.transpose %kt perm = [0, 2, 1] : tensor<1x32x64xf32> -> tensor<1x64x32xf32>
      %s = mb.matmul %qt, %ktt : tensor<1x1x64xf32>, tensor<1x64x32xf32> -> tensor<1x1x32xf32>
      %e = mb.exp %s : tensor<1x1x32xf32>
      // expected-error @+1 {{'mb.matmul' op [B28] operand #0 runs along the walked dim of a loop with a tail (dim 2): it must be read through mb.tail_mask with fill 0 (or, for a sum, straight from its input iterator)}}
      %pv = mb.matmul %e, %vt : tensor<1x1x32xf32>, tensor<1x32x64xf32> -> tensor<1x1x64xf32>
      %a = mb.accum_sum %pv : tensor<1x1x64xf32> -> tensor<1x1x64xf32>
      mb.yield %a : tensor<1x1x64xf32>
    }
    %out = mb.output_saver %acc omap = [0, -1, -1] : tensor<1x1x64xf32> -> tensor<8x1x64xf32>
    mb.return %out : tensor<8x1x64xf32>
  } : (tensor<8x1x64xf32>, tensor<8x?x64xf32>, tensor<8x?x64xf32>) -> tensor<8x1x64xf32>
  return %o : tensor<8x1x64xf32>
}

// -----

// A maximum's identity is -inf: zeros past the end would win over negative
// scores.
func.func @B28_max_masked_with_zero(%q: tensor<8x1x64xf32>, %k: tensor<8x?x64xf32>) -> tensor<8x1x1xf32> {
  %o = mk.graph_kernel (%q, %k) grid = [8, 1, 1] block = [128, 1, 1] forloop = ? {
  ^bb0(%Q: tensor<8x1x64xf32>, %K: tensor<8x?x64xf32>):
    %acc = mb.for_loop -> (tensor<1x1x1xf32>) {
      %qt = mb.input_iter %Q imap = [0, -1, -1] fmap = -1 : tensor<8x1x64xf32> -> tensor<1x1x64xf32>
      %kt = mb.input_iter %K imap = [0, -1, -1] fmap = 1 : tensor<8x?x64xf32> -> tensor<1x32x64xf32>
      %ktt = mb.transpose %kt perm = [0, 2, 1] : tensor<1x32x64xf32> -> tensor<1x64x32xf32>
      %s = mb.matmul %qt, %ktt : tensor<1x1x64xf32>, tensor<1x64x32xf32> -> tensor<1x1x32xf32>
      %m = mb.tail_mask %s dim = 2 fill = 0.0 : tensor<1x1x32xf32>
      // expected-error @+1 {{'mb.reduce_max' op [B28] operand #0 runs along the walked dim of a loop with a tail (dim 2): it must be read through mb.tail_mask with fill -inf}}
      %r = mb.reduce_max %m dim = 2 : tensor<1x1x32xf32> -> tensor<1x1x1xf32>
      %a = mb.accum_max %r : tensor<1x1x1xf32> -> tensor<1x1x1xf32>
      mb.yield %a : tensor<1x1x1xf32>
    }
    %out = mb.output_saver %acc omap = [0, -1, -1] : tensor<1x1x1xf32> -> tensor<8x1x1xf32>
    mb.return %out : tensor<8x1x1xf32>
  } : (tensor<8x1x64xf32>, tensor<8x?x64xf32>) -> tensor<8x1x1xf32>
  return %o : tensor<8x1x1xf32>
}

// -----

// A mean divides by the trips times the tile: a tail would count the keys
// past the end.
func.func @B28_mean_across_the_walked_dim(%x: tensor<8x?xf32>) -> tensor<8x1xf32> {
  %o = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = ? {
  ^bb0(%X: tensor<8x?xf32>):
    %acc = mb.for_loop -> (tensor<8x1xf32>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x?xf32> -> tensor<8x32xf32>
      // expected-error @+1 {{'mb.accum_mean_last' op [B28] divides by the count of the walked elements, which a tail would change}}
      %a = mb.accum_mean_last %xt : tensor<8x32xf32> -> tensor<8x1xf32>
      mb.yield %a : tensor<8x1xf32>
    }
    %out = mb.output_saver %acc omap = [-1, -1, -1] : tensor<8x1xf32> -> tensor<8x1xf32>
    mb.return %out : tensor<8x1xf32>
  } : (tensor<8x?xf32>) -> tensor<8x1xf32>
  return %o : tensor<8x1xf32>
}

// -----

func.func @B28_rms_norm_across_the_walked_dim(%x: tensor<8x?xf32>) -> tensor<8x32xf32> {
  %o = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = ? {
  ^bb0(%X: tensor<8x?xf32>):
    %acc = mb.for_loop -> (tensor<8x32xf32>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x?xf32> -> tensor<8x32xf32>
      // expected-error @+1 {{'mb.rms_norm' op [B28] normalises across the walked dim of a loop with a tail (its mean would count the elements past the end)}}
      %n = mb.rms_norm %xt eps = 1.0e-06 : tensor<8x32xf32>
      %a = mb.accum_sum %n : tensor<8x32xf32> -> tensor<8x32xf32>
      mb.yield %a : tensor<8x32xf32>
    }
    %out = mb.output_saver %acc omap = [-1, -1, -1] : tensor<8x32xf32> -> tensor<8x32xf32>
    mb.return %out : tensor<8x32xf32>
  } : (tensor<8x?xf32>) -> tensor<8x32xf32>
  return %o : tensor<8x32xf32>
}

// -----

// A static walked tail ([B26]: 100 keys in 4 trips of 32) has the same
// rules; its walking iterators must agree on the extent.
func.func @B28_walking_iterators_disagree(%k: tensor<8x100x64xf32>, %v: tensor<8x128x64xf32>) -> tensor<8x1x64xf32> {
  %o = mk.graph_kernel (%k, %v) grid = [8, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%K: tensor<8x100x64xf32>, %V: tensor<8x128x64xf32>):
    // expected-error @+1 {{'mb.for_loop' op [B28] walking input iterators of a loop with a tail must walk one extent with one tile}}
    %acc = mb.for_loop -> (tensor<1x1x64xf32>) {
      %kt = mb.input_iter %K imap = [0, -1, -1] fmap = 1 : tensor<8x100x64xf32> -> tensor<1x32x64xf32>
      %vt = mb.input_iter %V imap = [0, -1, -1] fmap = 1 : tensor<8x128x64xf32> -> tensor<1x32x64xf32>
      %p = mb.mul %kt, %vt : tensor<1x32x64xf32>, tensor<1x32x64xf32> -> tensor<1x32x64xf32>
      %m = mb.tail_mask %p dim = 1 fill = 0.0 : tensor<1x32x64xf32>
      %r = mb.reduce_sum %m dim = 1 : tensor<1x32x64xf32> -> tensor<1x1x64xf32>
      %a = mb.accum_sum %r : tensor<1x1x64xf32> -> tensor<1x1x64xf32>
      mb.yield %a : tensor<1x1x64xf32>
    }
    %out = mb.output_saver %acc omap = [0, -1, -1] : tensor<1x1x64xf32> -> tensor<8x1x64xf32>
    mb.return %out : tensor<8x1x64xf32>
  } : (tensor<8x100x64xf32>, tensor<8x128x64xf32>) -> tensor<8x1x64xf32>
  return %o : tensor<8x1x64xf32>
}

// -----

// A square tile: masking dim 2 leaves the keys (dim 1) unmasked.
func.func @B28_mask_of_another_dim(%k: tensor<8x?x32xf32>) -> tensor<8x1x32xf32> {
  %o = mk.graph_kernel (%k) grid = [8, 1, 1] block = [128, 1, 1] forloop = ? {
  ^bb0(%K: tensor<8x?x32xf32>):
    %acc = mb.for_loop -> (tensor<1x1x32xf32>) {
      %kt = mb.input_iter %K imap = [0, -1, -1] fmap = 1 : tensor<8x?x32xf32> -> tensor<1x32x32xf32>
      %e = mb.exp %kt : tensor<1x32x32xf32>
      // expected-error @+1 {{'mb.tail_mask' op [B28] masks dim 2, but dim 1 runs along the walked dim}}
      %m = mb.tail_mask %e dim = 2 fill = 0.0 : tensor<1x32x32xf32>
      %r = mb.reduce_sum %m dim = 1 : tensor<1x32x32xf32> -> tensor<1x1x32xf32>
      %a = mb.accum_sum %r : tensor<1x1x32xf32> -> tensor<1x1x32xf32>
      mb.yield %a : tensor<1x1x32xf32>
    }
    %out = mb.output_saver %acc omap = [0, -1, -1] : tensor<1x1x32xf32> -> tensor<8x1x32xf32>
    mb.return %out : tensor<8x1x32xf32>
  } : (tensor<8x?x32xf32>) -> tensor<8x1x32xf32>
  return %o : tensor<8x1x32xf32>
}
