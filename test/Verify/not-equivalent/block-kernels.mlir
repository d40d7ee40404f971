// Near misses in graph-defined kernels: wrong imap/fmap/omap, wrong
// accumulator kinds, swapped operands and missing terms. Each is rejected
// with a counterexample.
// RUN: mirage-opt --mirage-check-equivalence %s -verify-diagnostics -o /dev/null

func.func @mm_ref(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> {
  %y = mk.matmul %x, %w : tensor<4x8xf32>, tensor<8x8xf32> -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// Wrong imap and fmap of the square weight: the grid splits W's rows and the
// loop walks its columns, which reads W transposed block-wise.
// expected-error @below {{not equivalent to @mm_ref: output #0 element [}}
func.func @mm_wrong_imap(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @mm_ref} {
  %y = mk.graph_kernel (%x, %w) grid = [2, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x8xf32>, %W: tensor<8x8xf32>):
    %acc = mb.for_loop -> (tensor<4x4xf32>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<4x8xf32> -> tensor<4x4xf32>
      %wt = mb.input_iter %W imap = [0, -1, -1] fmap = 1 : tensor<8x8xf32> -> tensor<4x4xf32>
      %m = mb.matmul %xt, %wt : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
      %s = mb.accum_sum %m : tensor<4x4xf32> -> tensor<4x4xf32>
      mb.yield %s : tensor<4x4xf32>
    }
    %o = mb.output_saver %acc omap = [1, -1, -1] : tensor<4x4xf32> -> tensor<4x8xf32>
    mb.return %o : tensor<4x8xf32>
  } : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// The loop walks the wrong dim of X (its rows instead of the shared dim).
// expected-error @below {{not equivalent to @mm_ref: output #0 element [}}
func.func @mm_wrong_fmap(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @mm_ref} {
  %y = mk.graph_kernel (%x, %w) grid = [2, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x8xf32>, %W: tensor<8x8xf32>):
    %acc = mb.for_loop -> (tensor<2x4xf32>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 0 : tensor<4x8xf32> -> tensor<2x8xf32>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = -1 : tensor<8x8xf32> -> tensor<8x4xf32>
      %m = mb.matmul %xt, %wt : tensor<2x8xf32>, tensor<8x4xf32> -> tensor<2x4xf32>
      %s = mb.accum_sum %m : tensor<2x4xf32> -> tensor<2x4xf32>
      mb.yield %s : tensor<2x4xf32>
    }
    %c = mb.concat %acc, %acc dim = 0 : tensor<2x4xf32>, tensor<2x4xf32> -> tensor<4x4xf32>
    %o = mb.output_saver %c omap = [1, -1, -1] : tensor<4x4xf32> -> tensor<4x8xf32>
    mb.return %o : tensor<4x8xf32>
  } : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// The second operand of the matmul reads X's tile instead of W's.
// expected-error @below {{not equivalent to @mm_ref: output #0 element [}}
func.func @mm_wrong_tensor(%x: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x8xf32> attributes {mk.reference = @mm_ref} {
  %y:2 = mk.graph_kernel (%x, %w) grid = [2, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x8xf32>, %W: tensor<8x8xf32>):
    %acc:2 = mb.for_loop -> (tensor<4x4xf32>, tensor<4x4xf32>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<4x8xf32> -> tensor<4x4xf32>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0 : tensor<8x8xf32> -> tensor<4x4xf32>
      %m = mb.matmul %xt, %xt : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
      %n = mb.matmul %wt, %wt : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
      %s = mb.accum_sum %m : tensor<4x4xf32> -> tensor<4x4xf32>
      %t = mb.accum_sum %n : tensor<4x4xf32> -> tensor<4x4xf32>
      mb.yield %s, %t : tensor<4x4xf32>, tensor<4x4xf32>
    }
    %o = mb.output_saver %acc#0 omap = [1, -1, -1] : tensor<4x4xf32> -> tensor<4x8xf32>
    %p = mb.output_saver %acc#1 omap = [1, -1, -1] : tensor<4x4xf32> -> tensor<4x8xf32>
    mb.return %o, %p : tensor<4x8xf32>, tensor<4x8xf32>
  } : (tensor<4x8xf32>, tensor<8x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
  return %y#0 : tensor<4x8xf32>
}

func.func @mm2d_ref(%x: tensor<4x4xf32>, %w: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %y = mk.matmul %x, %w : tensor<4x4xf32>, tensor<4x4xf32> -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}

// Wrong omap: the blocks' tiles land at transposed block positions.
// expected-error @below {{not equivalent to @mm2d_ref: output #0 element [}}
func.func @mm2d_wrong_omap(%x: tensor<4x4xf32>, %w: tensor<4x4xf32>) -> tensor<4x4xf32> attributes {mk.reference = @mm2d_ref} {
  %y = mk.graph_kernel (%x, %w) grid = [2, 2, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x4xf32>, %W: tensor<4x4xf32>):
    %acc = mb.for_loop -> (tensor<2x2xf32>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<4x4xf32> -> tensor<2x2xf32>
      %wt = mb.input_iter %W imap = [-1, 1, -1] fmap = 0 : tensor<4x4xf32> -> tensor<2x2xf32>
      %m = mb.matmul %xt, %wt : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<2x2xf32>
      %s = mb.accum_sum %m : tensor<2x2xf32> -> tensor<2x2xf32>
      mb.yield %s : tensor<2x2xf32>
    }
    %o = mb.output_saver %acc omap = [1, 0, -1] : tensor<2x2xf32> -> tensor<4x4xf32>
    mb.return %o : tensor<4x4xf32>
  } : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}

func.func @mean_ref(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %s = mk.reduce_sum %x dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  %m = mk.mul_scalar %s, 0.125 : tensor<4x1xf32>
  return %m : tensor<4x1xf32>
}

// Wrong accumulator kind: sum_last where the mean is needed.
// expected-error @below {{not equivalent to @mean_ref: output #0 element [}}
func.func @mean_sum_last(%x: tensor<4x8xf32>) -> tensor<4x1xf32> attributes {mk.reference = @mean_ref} {
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x8xf32>):
    %acc = mb.for_loop -> (tensor<4x1xf32>) {
      %t = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<4x8xf32> -> tensor<4x4xf32>
      %s = mb.accum_sum_last %t : tensor<4x4xf32> -> tensor<4x1xf32>
      mb.yield %s : tensor<4x1xf32>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<4x1xf32> -> tensor<4x1xf32>
    mb.return %o : tensor<4x1xf32>
  } : (tensor<4x8xf32>) -> tensor<4x1xf32>
  return %y : tensor<4x1xf32>
}

// Wrong accumulator kind: rms_last where the mean is needed.
// expected-error @below {{not equivalent to @mean_ref: output #0 element [}}
func.func @mean_rms_last(%x: tensor<4x8xf32>) -> tensor<4x1xf32> attributes {mk.reference = @mean_ref} {
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x8xf32>):
    %acc = mb.for_loop -> (tensor<4x1xf32>) {
      %t = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<4x8xf32> -> tensor<4x4xf32>
      %s = mb.accum_rms_last %t eps = 0.0 : tensor<4x4xf32> -> tensor<4x1xf32>
      mb.yield %s : tensor<4x1xf32>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<4x1xf32> -> tensor<4x1xf32>
    mb.return %o : tensor<4x1xf32>
  } : (tensor<4x8xf32>) -> tensor<4x1xf32>
  return %y : tensor<4x1xf32>
}

// Wrong accumulator kind: the running max instead of the sum of two halves.
func.func @halves_ref(%x: tensor<4x8xf32>) -> tensor<4x4xf32> {
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x8xf32>):
    %acc = mb.for_loop -> (tensor<4x4xf32>) {
      %t = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<4x8xf32> -> tensor<4x4xf32>
      %s = mb.accum_sum %t : tensor<4x4xf32> -> tensor<4x4xf32>
      mb.yield %s : tensor<4x4xf32>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<4x4xf32> -> tensor<4x4xf32>
    mb.return %o : tensor<4x4xf32>
  } : (tensor<4x8xf32>) -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}
// expected-error @below {{not equivalent to @halves_ref: output #0 element [}}
func.func @halves_max(%x: tensor<4x8xf32>) -> tensor<4x4xf32> attributes {mk.reference = @halves_ref} {
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x8xf32>):
    %acc = mb.for_loop -> (tensor<4x4xf32>) {
      %t = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<4x8xf32> -> tensor<4x4xf32>
      %s = mb.accum_max %t : tensor<4x4xf32> -> tensor<4x4xf32>
      mb.yield %s : tensor<4x4xf32>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<4x4xf32> -> tensor<4x4xf32>
    mb.return %o : tensor<4x4xf32>
  } : (tensor<4x8xf32>) -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}
// Wrong sum_to width (partial sums of 2 then a different fold).
// expected-error @below {{not equivalent to @halves_ref: output #0 element [}}
func.func @halves_sum_to(%x: tensor<4x8xf32>) -> tensor<4x4xf32> attributes {mk.reference = @halves_ref} {
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<4x8xf32>):
    %acc = mb.for_loop -> (tensor<4x4xf32>) {
      %t = mb.input_iter %X imap = [-1, -1, -1] fmap = -1 : tensor<4x8xf32> -> tensor<4x8xf32>
      %s = mb.accum_sum_to %t dimx = 4 : tensor<4x8xf32> -> tensor<4x4xf32>
      mb.yield %s : tensor<4x4xf32>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<4x4xf32> -> tensor<4x4xf32>
    mb.return %o : tensor<4x4xf32>
  } : (tensor<4x8xf32>) -> tensor<4x4xf32>
  return %y : tensor<4x4xf32>
}

func.func @rmsmm_ref(%x: tensor<2x8xf32>, %w: tensor<8x6xf32>) -> tensor<2x6xf32> {
  %n = mk.rms_norm %x eps = 1.0e-6 : tensor<2x8xf32>
  %y = mk.matmul %n, %w : tensor<2x8xf32>, tensor<8x6xf32> -> tensor<2x6xf32>
  return %y : tensor<2x6xf32>
}

// RMSNorm+MatMul without the epsilon in the rms accumulator.
// expected-error @below {{not equivalent to @rmsmm_ref: output #0 element [}}
func.func @rmsmm_no_eps(%x: tensor<2x8xf32>, %w: tensor<8x6xf32>) -> tensor<2x6xf32> attributes {mk.reference = @rmsmm_ref} {
  %y = mk.graph_kernel (%x, %w) grid = [3, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<2x8xf32>, %W: tensor<8x6xf32>):
    %acc:2 = mb.for_loop -> (tensor<2x1xf32>, tensor<2x2xf32>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x8xf32> -> tensor<2x4xf32>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0 : tensor<8x6xf32> -> tensor<4x2xf32>
      %m = mb.matmul %xt, %wt : tensor<2x4xf32>, tensor<4x2xf32> -> tensor<2x2xf32>
      %r = mb.accum_rms_last %xt eps = 0.0 : tensor<2x4xf32> -> tensor<2x1xf32>
      %s = mb.accum_sum %m : tensor<2x2xf32> -> tensor<2x2xf32>
      mb.yield %r, %s : tensor<2x1xf32>, tensor<2x2xf32>
    }
    %q = mb.div %acc#1, %acc#0 : tensor<2x2xf32>, tensor<2x1xf32> -> tensor<2x2xf32>
    %o = mb.output_saver %q omap = [1, -1, -1] : tensor<2x2xf32> -> tensor<2x6xf32>
    mb.return %o : tensor<2x6xf32>
  } : (tensor<2x8xf32>, tensor<8x6xf32>) -> tensor<2x6xf32>
  return %y : tensor<2x6xf32>
}

// Swapped div operands in the post-loop thread graph: rms / acc.
// expected-error @below {{not equivalent to @rmsmm_ref: output #0 element [}}
func.func @rmsmm_div_swapped(%x: tensor<2x8xf32>, %w: tensor<8x6xf32>) -> tensor<2x6xf32> attributes {mk.reference = @rmsmm_ref} {
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
      %d = mt.div %b, %a : f32
      mt.yield %d : f32
    }
    %o = mb.output_saver %q omap = [1, -1, -1] : tensor<2x2xf32> -> tensor<2x6xf32>
    mb.return %o : tensor<2x6xf32>
  } : (tensor<2x8xf32>, tensor<8x6xf32>) -> tensor<2x6xf32>
  return %y : tensor<2x6xf32>
}

func.func @gated_ref(%x: tensor<2x8xf32>, %w1: tensor<8x4xf32>, %w2: tensor<8x4xf32>) -> tensor<2x4xf32> {
  %a = mk.matmul %x, %w1 : tensor<2x8xf32>, tensor<8x4xf32> -> tensor<2x4xf32>
  %b = mk.matmul %x, %w2 : tensor<2x8xf32>, tensor<8x4xf32> -> tensor<2x4xf32>
  %s = mk.silu %a : tensor<2x4xf32>
  %y = mk.mul %s, %b : tensor<2x4xf32>, tensor<2x4xf32> -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}

// Gated MLP with silu applied to the wrong accumulator.
// expected-error @below {{not equivalent to @gated_ref: output #0 element [}}
func.func @gated_wrong_gate(%x: tensor<2x8xf32>, %w1: tensor<8x4xf32>, %w2: tensor<8x4xf32>) -> tensor<2x4xf32> attributes {mk.reference = @gated_ref} {
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
      %s = mt.silu %b : f32
      %p = mt.mul %s, %a : f32
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

// LoRA that forgets the X W term.
// expected-error @below {{not equivalent to @lora_ref: output #0 element [}}
func.func @lora_missing_term(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>, %a: tensor<8x2xf32>, %b: tensor<2x6xf32>) -> tensor<4x6xf32> attributes {mk.reference = @lora_ref} {
  %y:2 = mk.graph_kernel (%x, %w, %a, %b) grid = [2, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x8xf32>, %W: tensor<8x6xf32>, %A: tensor<8x2xf32>, %B: tensor<2x6xf32>):
    %acc:2 = mb.for_loop -> (tensor<4x3xf32>, tensor<4x3xf32>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<4x8xf32> -> tensor<4x4xf32>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0 : tensor<8x6xf32> -> tensor<4x3xf32>
      %at = mb.input_iter %A imap = [-1, -1, -1] fmap = 0 : tensor<8x2xf32> -> tensor<4x2xf32>
      %bt = mb.input_iter %B imap = [1, -1, -1] fmap = -1 : tensor<2x6xf32> -> tensor<2x3xf32>
      %xw = mb.matmul %xt, %wt : tensor<4x4xf32>, tensor<4x3xf32> -> tensor<4x3xf32>
      %xa = mb.matmul %xt, %at : tensor<4x4xf32>, tensor<4x2xf32> -> tensor<4x2xf32>
      %xab = mb.matmul %xa, %bt : tensor<4x2xf32>, tensor<2x3xf32> -> tensor<4x3xf32>
      %r = mb.accum_sum %xab : tensor<4x3xf32> -> tensor<4x3xf32>
      %u = mb.accum_sum %xw : tensor<4x3xf32> -> tensor<4x3xf32>
      mb.yield %r, %u : tensor<4x3xf32>, tensor<4x3xf32>
    }
    %o = mb.output_saver %acc#0 omap = [1, -1, -1] : tensor<4x3xf32> -> tensor<4x6xf32>
    %p = mb.output_saver %acc#1 omap = [1, -1, -1] : tensor<4x3xf32> -> tensor<4x6xf32>
    mb.return %o, %p : tensor<4x6xf32>, tensor<4x6xf32>
  } : (tensor<4x8xf32>, tensor<8x6xf32>, tensor<8x2xf32>, tensor<2x6xf32>) -> (tensor<4x6xf32>, tensor<4x6xf32>)
  return %y#0 : tensor<4x6xf32>
}

func.func @attn_ref(%q: tensor<2x4x4xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x8x4xf32>) -> tensor<2x4x4xf32> {
  %s = mk.matmul %q, %k : tensor<2x4x4xf32>, tensor<2x4x8xf32> -> tensor<2x4x8xf32>
  %e = mk.exp %s : tensor<2x4x8xf32>
  %d = mk.reduce_sum %e dim = 2 : tensor<2x4x8xf32> -> tensor<2x4x1xf32>
  %p = mk.div %e, %d : tensor<2x4x8xf32>, tensor<2x4x1xf32> -> tensor<2x4x8xf32>
  %o = mk.matmul %p, %v : tensor<2x4x8xf32>, tensor<2x8x4xf32> -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

// Split attention whose combining kernel keeps only the largest partial
// denominator (max accumulator) instead of their sum.
// expected-error @below {{not equivalent to @attn_ref: output #0 element [}}
func.func @attn_split_max(%q: tensor<2x4x4xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x8x4xf32>) -> tensor<2x4x4xf32> attributes {mk.reference = @attn_ref} {
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
      %ad = mb.accum_max %dt : tensor<1x4x1xf32> -> tensor<1x4x1xf32>
      mb.yield %an, %ad : tensor<1x4x4xf32>, tensor<1x4x1xf32>
    }
    %r = mb.div %acc#0, %acc#1 : tensor<1x4x4xf32>, tensor<1x4x1xf32> -> tensor<1x4x4xf32>
    %out = mb.output_saver %r omap = [0, -1, -1] : tensor<1x4x4xf32> -> tensor<2x4x4xf32>
    mb.return %out : tensor<2x4x4xf32>
  } : (tensor<2x4x8xf32>, tensor<2x4x2xf32>) -> tensor<2x4x4xf32>
  return %o : tensor<2x4x4xf32>
}

func.func @expsum_ref(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %e = mk.exp %x : tensor<4x8xf32>
  %s = mk.reduce_sum %e dim = 1 : tensor<4x8xf32> -> tensor<4x1xf32>
  return %s : tensor<4x1xf32>
}

// Online softmax denominator that forgets the final exp(M) correction.
// expected-error @below {{not equivalent to @expsum_ref: output #0 element [}}
func.func @expsum_no_rescale(%x: tensor<4x8xf32>) -> tensor<4x1xf32> attributes {mk.reference = @expsum_ref} {
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<4x8xf32>):
    %acc = mb.for_loop -> (tensor<4x1xf32>) {
      %t = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<4x8xf32> -> tensor<4x2xf32>
      %m = mb.reduce_max %t dim = 1 : tensor<4x2xf32> -> tensor<4x1xf32>
      %d = mb.sub %t, %m : tensor<4x2xf32>, tensor<4x1xf32> -> tensor<4x2xf32>
      %e = mb.exp %d : tensor<4x2xf32>
      %s = mb.reduce_sum %e dim = 1 : tensor<4x2xf32> -> tensor<4x1xf32>
      %r = mb.accum_rescaled_sum %s, %m : tensor<4x1xf32>, tensor<4x1xf32> -> tensor<4x1xf32>
      mb.yield %r : tensor<4x1xf32>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<4x1xf32> -> tensor<4x1xf32>
    mb.return %o : tensor<4x1xf32>
  } : (tensor<4x8xf32>) -> tensor<4x1xf32>
  return %y : tensor<4x1xf32>
}

// A thread graph with swapped sub operands.
func.func @sub_ref(%x: tensor<4x4xf32>, %y: tensor<4x1xf32>) -> tensor<4x4xf32> {
  %d = mk.sub %x, %y : tensor<4x4xf32>, tensor<4x1xf32> -> tensor<4x4xf32>
  return %d : tensor<4x4xf32>
}
// expected-error @below {{not equivalent to @sub_ref: output #0 element [}}
func.func @sub_swapped(%x: tensor<4x4xf32>, %y: tensor<4x1xf32>) -> tensor<4x4xf32> attributes {mk.reference = @sub_ref} {
  %r = mk.graph_kernel (%x, %y) grid = [1, 1, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<4x4xf32>, %Y: tensor<4x1xf32>):
    %acc:2 = mb.for_loop -> (tensor<4x4xf32>, tensor<4x1xf32>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = -1 : tensor<4x4xf32> -> tensor<4x4xf32>
      %yt = mb.input_iter %Y imap = [-1, -1, -1] fmap = -1 : tensor<4x1xf32> -> tensor<4x1xf32>
      %a = mb.accum_sum %xt : tensor<4x4xf32> -> tensor<4x4xf32>
      %b = mb.accum_sum %yt : tensor<4x1xf32> -> tensor<4x1xf32>
      mb.yield %a, %b : tensor<4x4xf32>, tensor<4x1xf32>
    }
    %d = mt.thread_graph (%acc#0, %acc#1) : (tensor<4x4xf32>, tensor<4x1xf32>) -> tensor<4x4xf32> {
    ^bb0(%a: f32, %b: f32):
      %s = mt.sub %b, %a : f32
      mt.yield %s : f32
    }
    %o = mb.output_saver %d omap = [-1, -1, -1] : tensor<4x4xf32> -> tensor<4x4xf32>
    mb.return %o : tensor<4x4xf32>
  } : (tensor<4x4xf32>, tensor<4x1xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}
