// RUN: mirage-opt %s -split-input-file -verify-diagnostics

// One split per constraint of the mb ops and of the whole-graph rules on
// block graphs (docs/constraints/mb.md), each named after the constraint it
// violates and holding exactly one error.

//===----------------------------------------------------------------------===//
// [C0.2] block-level ops outside a graph-defined kernel
//===----------------------------------------------------------------------===//

func.func @C0_2_tile_op_outside_kernel(%x: tensor<4x16xf16>) -> tensor<4x16xf16> {
  // expected-error @+1 {{'mb.exp' op [C0.2] must be nested inside a graph-defined kernel}}
  %0 = mb.exp %x : tensor<4x16xf16>
  return %0 : tensor<4x16xf16>
}

// -----

func.func @C0_2_for_loop_outside_kernel() {
  // expected-error @+1 {{'mb.for_loop' op [C0.2] must be nested inside a graph-defined kernel}}
  mb.for_loop {
    mb.yield
  }
  return
}

// -----

func.func @C0_2_input_iter_outside_kernel(%x: tensor<8x64xf16>) -> tensor<4x16xf16> {
  // expected-error @+1 {{'mb.input_iter' op [C0.2] must be nested inside a graph-defined kernel}}
  %0 = mb.input_iter %x imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
  return %0 : tensor<4x16xf16>
}

// -----

func.func @C0_2_accumulator_outside_kernel(%x: tensor<4x16xf16>) -> tensor<4x16xf16> {
  // expected-error @+1 {{'mb.accum_sum' op [C0.2] must be nested inside a graph-defined kernel}}
  %0 = mb.accum_sum %x : tensor<4x16xf16> -> tensor<4x16xf16>
  return %0 : tensor<4x16xf16>
}

// -----

func.func @C0_2_output_saver_outside_kernel(%x: tensor<4x16xf16>) -> tensor<8x16xf16> {
  // expected-error @+1 {{'mb.output_saver' op [C0.2] must be nested inside a graph-defined kernel}}
  %0 = mb.output_saver %x omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
  return %0 : tensor<8x16xf16>
}

// -----

func.func @C0_2_return_outside_kernel(%x: tensor<8x16xf16>) -> tensor<8x16xf16> {
  // expected-error @+1 {{'mb.return' op [C0.2] must be nested inside a graph-defined kernel}}
  mb.return %x : tensor<8x16xf16>
}

//===----------------------------------------------------------------------===//
// [C0.1], [C0.3]..[C0.13]: the shape rules of the tile ops. Each split is a
// kernel with no results whose loop body loads tiles and breaks one tile op.
// Each violation gives exactly one diagnostic, tagged with its rule.
//===----------------------------------------------------------------------===//

// -----

func.func @C0_1_tile_of_rank_5(%x: tensor<8x64xf16>) {
  mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    mb.for_loop {
      // expected-error @+1 {{'mb.input_iter' op result #0 must be static tensor of rank 1 to 4}}
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<8x16x1x1x1xf16>
      mb.yield
    }
    mb.return
  } : (tensor<8x64xf16>) -> ()
  return
}

// -----

func.func @C0_1_f64_tile(%x: tensor<8x64xf16>) {
  mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    mb.for_loop {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<8x16xf16>
      // expected-error @+1 {{'mb.reduce_sum' op result #0 must be static tensor of rank 1 to 4 with positive dims and f16, bf16 or f32 elements}}
      %r = "mb.reduce_sum"(%xt) {dim = 1 : i64} : (tensor<8x16xf16>) -> tensor<8x1xf64>
      mb.yield
    }
    mb.return
  } : (tensor<8x64xf16>) -> ()
  return
}

// -----

func.func @C0_3_clamp_min_greater_than_max(%x: tensor<8x64xf16>) {
  mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    mb.for_loop {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<8x16xf16>
      // expected-error @+1 {{'mb.clamp' op [C0.3] requires min <= max, got min = 2.000000e+00 and max = 1.000000e+00}}
      %r = mb.clamp %xt min = 2.0 max = 1.0 : tensor<8x16xf16>
      mb.yield
    }
    mb.return
  } : (tensor<8x64xf16>) -> ()
  return
}

// -----

func.func @C0_4_binary_shapes_do_not_broadcast(%x: tensor<8x64xf16>) {
  mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    mb.for_loop {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<8x16xf16>
      %wt = mb.input_iter %X imap = [-1, -1, -1] fmap = -1 : tensor<8x64xf16> -> tensor<8x64xf16>
      // expected-error @+1 {{'mb.add' op [C0.4] shapes [8, 16] and [8, 64] do not broadcast}}
      %r = mb.add %xt, %wt : tensor<8x16xf16>, tensor<8x64xf16> -> tensor<8x64xf16>
      mb.yield
    }
    mb.return
  } : (tensor<8x64xf16>) -> ()
  return
}

// -----

func.func @C0_4_binary_ranks_differ(%x: tensor<8x64xf16>, %v: tensor<64xf16>) {
  mk.graph_kernel (%x, %v) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>, %V: tensor<64xf16>):
    mb.for_loop {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<8x16xf16>
      %vt = mb.input_iter %V imap = [-1, -1, -1] fmap = 0 : tensor<64xf16> -> tensor<16xf16>
      // expected-error @+1 {{'mb.sub' op [C0.4] operands must have equal rank, got 2 and 1}}
      %r = mb.sub %xt, %vt : tensor<8x16xf16>, tensor<16xf16> -> tensor<8x16xf16>
      mb.yield
    }
    mb.return
  } : (tensor<8x64xf16>, tensor<64xf16>) -> ()
  return
}

// -----

func.func @C0_5_matmul_of_rank_1(%v: tensor<64xf16>) {
  mk.graph_kernel (%v) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%V: tensor<64xf16>):
    mb.for_loop {
      %vt = mb.input_iter %V imap = [-1, -1, -1] fmap = 0 : tensor<64xf16> -> tensor<16xf16>
      // expected-error @+1 {{'mb.matmul' op [C0.5] operands must have equal rank >= 2, got ranks 1 and 1}}
      %r = mb.matmul %vt, %vt : tensor<16xf16>, tensor<16xf16> -> tensor<16xf16>
      mb.yield
    }
    mb.return
  } : (tensor<64xf16>) -> ()
  return
}

// -----

func.func @C0_6_matmul_contraction_dims_differ(%x: tensor<8x64xf16>) {
  mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    mb.for_loop {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<8x16xf16>
      // expected-error @+1 {{'mb.matmul' op [C0.6] contraction dims differ: lhs [8, 16] has 16 columns but rhs [8, 16] has 8 rows}}
      %r = mb.matmul %xt, %xt : tensor<8x16xf16>, tensor<8x16xf16> -> tensor<8x16xf16>
      mb.yield
    }
    mb.return
  } : (tensor<8x64xf16>) -> ()
  return
}

// -----

func.func @C0_7_matmul_batch_dims_differ(%a: tensor<2x8x64xf16>, %b: tensor<4x64x8xf16>) {
  mk.graph_kernel (%a, %b) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%A: tensor<2x8x64xf16>, %B: tensor<4x64x8xf16>):
    mb.for_loop {
      %at = mb.input_iter %A imap = [-1, -1, -1] fmap = 2 : tensor<2x8x64xf16> -> tensor<2x8x16xf16>
      %bt = mb.input_iter %B imap = [-1, -1, -1] fmap = 1 : tensor<4x64x8xf16> -> tensor<4x16x8xf16>
      // expected-error @+1 {{'mb.matmul' op [C0.7] batch dims differ: [2, 8, 16] vs [4, 16, 8]}}
      %r = mb.matmul %at, %bt : tensor<2x8x16xf16>, tensor<4x16x8xf16> -> tensor<2x8x8xf16>
      mb.yield
    }
    mb.return
  } : (tensor<2x8x64xf16>, tensor<4x64x8xf16>) -> ()
  return
}

// -----

func.func @C0_8_matmul_element_types_differ(%a: tensor<8x64xf16>, %b: tensor<64x8xf32>) {
  mk.graph_kernel (%a, %b) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%A: tensor<8x64xf16>, %B: tensor<64x8xf32>):
    mb.for_loop {
      %at = mb.input_iter %A imap = [-1, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<8x16xf16>
      %bt = mb.input_iter %B imap = [-1, -1, -1] fmap = 0 : tensor<64x8xf32> -> tensor<16x8xf32>
      // expected-error @+1 {{'mb.matmul' op [C0.8] operand element types differ: 'f16' vs 'f32'}}
      %r = mb.matmul %at, %bt : tensor<8x16xf16>, tensor<16x8xf32> -> tensor<8x8xf16>
      mb.yield
    }
    mb.return
  } : (tensor<8x64xf16>, tensor<64x8xf32>) -> ()
  return
}

// -----

func.func @C0_9_reduce_dim_out_of_range(%x: tensor<8x64xf16>) {
  mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    mb.for_loop {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<8x16xf16>
      // expected-error @+1 {{'mb.reduce_max' op [C0.9] dim 2 is out of range for rank 2}}
      %r = mb.reduce_max %xt dim = 2 : tensor<8x16xf16> -> tensor<8x1xf16>
      mb.yield
    }
    mb.return
  } : (tensor<8x64xf16>) -> ()
  return
}

// -----

func.func @C0_9_concat_dim_out_of_range(%x: tensor<8x64xf16>) {
  mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    mb.for_loop {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<8x16xf16>
      // expected-error @+1 {{'mb.concat' op [C0.9] dim -1 is out of range for rank 2}}
      %r = mb.concat %xt, %xt dim = -1 : tensor<8x16xf16>, tensor<8x16xf16> -> tensor<8x32xf16>
      mb.yield
    }
    mb.return
  } : (tensor<8x64xf16>) -> ()
  return
}

// -----

func.func @C0_10_rms_norm_negative_eps(%x: tensor<8x64xf16>) {
  mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    mb.for_loop {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<8x16xf16>
      // expected-error @+1 {{'mb.rms_norm' op [C0.10] eps must be >= 0, got -1.000000e+00}}
      %r = mb.rms_norm %xt eps = -1.0 : tensor<8x16xf16>
      mb.yield
    }
    mb.return
  } : (tensor<8x64xf16>) -> ()
  return
}

// -----

func.func @C0_11_rms_norm_weight_of_wrong_size(%x: tensor<8x64xf16>, %v: tensor<32xf16>) {
  mk.graph_kernel (%x, %v) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>, %V: tensor<32xf16>):
    mb.for_loop {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<8x16xf16>
      %vt = mb.input_iter %V imap = [-1, -1, -1] fmap = -1 : tensor<32xf16> -> tensor<32xf16>
      // expected-error @+1 {{'mb.rms_norm' op [C0.11] weight must be a rank-1 tensor of 16 elements of 'f16', got 'tensor<32xf16>'}}
      %r = mb.rms_norm %xt weight(%vt : tensor<32xf16>) eps = 0.0 : tensor<8x16xf16>
      mb.yield
    }
    mb.return
  } : (tensor<8x64xf16>, tensor<32xf16>) -> ()
  return
}

// -----

func.func @C0_12_concat_of_one_operand(%x: tensor<8x64xf16>) {
  mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    mb.for_loop {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<8x16xf16>
      // expected-error @+1 {{'mb.concat' op [C0.12] needs at least two operands, got 1}}
      %r = mb.concat %xt dim = 0 : tensor<8x16xf16> -> tensor<8x16xf16>
      mb.yield
    }
    mb.return
  } : (tensor<8x64xf16>) -> ()
  return
}

// -----

func.func @C0_12_concat_element_types_differ(%x: tensor<8x64xf16>, %z: tensor<8x64xf32>) {
  mk.graph_kernel (%x, %z) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>, %Z: tensor<8x64xf32>):
    mb.for_loop {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<8x16xf16>
      %zt = mb.input_iter %Z imap = [-1, -1, -1] fmap = 1 : tensor<8x64xf32> -> tensor<8x16xf32>
      // expected-error @+1 {{'mb.concat' op [C0.12] operand #1 of type 'tensor<8x16xf32>' differs in rank or element type from operand #0}}
      %r = mb.concat %xt, %zt dim = 0 : tensor<8x16xf16>, tensor<8x16xf32> -> tensor<16x16xf16>
      mb.yield
    }
    mb.return
  } : (tensor<8x64xf16>, tensor<8x64xf32>) -> ()
  return
}

// -----

func.func @C0_13_concat_other_dims_differ(%x: tensor<8x64xf16>) {
  mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    mb.for_loop {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<8x16xf16>
      %wt = mb.input_iter %X imap = [-1, -1, -1] fmap = -1 : tensor<8x64xf16> -> tensor<8x64xf16>
      // expected-error @+1 {{'mb.concat' op [C0.13] operand #1 differs in dim 1 (64 vs 16)}}
      %r = mb.concat %xt, %wt dim = 0 : tensor<8x16xf16>, tensor<8x64xf16> -> tensor<16x16xf16>
      mb.yield
    }
    mb.return
  } : (tensor<8x64xf16>) -> ()
  return
}

//===----------------------------------------------------------------------===//
// [B1]..[B3] the for-loop
//===----------------------------------------------------------------------===//

// -----

func.func @B1_no_for_loop() {
  // expected-error @+1 {{'mk.graph_kernel' op [B1] block graph must have exactly one mb.for_loop, found 0}}
  mk.graph_kernel () grid = [1, 1, 1] block = [32, 1, 1] forloop = 1 {
    mb.return
  } : () -> ()
  return
}

// -----

func.func @B1_two_for_loops(%x: tensor<8x64xf16>) -> (tensor<8x16xf16>, tensor<8x16xf16>) {
  // expected-error @+1 {{'mk.graph_kernel' op [B1] block graph must have exactly one mb.for_loop, found 2}}
  %y:2 = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %a = mb.for_loop -> (tensor<4x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      mb.yield %s : tensor<4x16xf16>
    }
    %b = mb.for_loop -> (tensor<4x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_max %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      mb.yield %s : tensor<4x16xf16>
    }
    %oa = mb.output_saver %a omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    %ob = mb.output_saver %b omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %oa, %ob : tensor<8x16xf16>, tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> (tensor<8x16xf16>, tensor<8x16xf16>)
  return %y#0, %y#1 : tensor<8x16xf16>, tensor<8x16xf16>
}

// -----

func.func @B1_nested_for_loop(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      // expected-error @+1 {{'mb.for_loop' op [B1] for-loops do not nest}}
      %in = mb.for_loop -> (tensor<4x16xf16>) {
        %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
        %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
        mb.yield %s : tensor<4x16xf16>
      }
      %s = mb.accum_sum %in : tensor<4x16xf16> -> tensor<4x16xf16>
      mb.yield %s : tensor<4x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @B2_body_with_arguments(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    // expected-error @+1 {{'mb.for_loop' op [B2] body must have no arguments}}
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
    ^bb0(%i: tensor<1xf32>):
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      mb.yield %s : tensor<4x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @B2_body_does_not_end_in_yield(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    // expected-error @+1 {{'mb.for_loop' op [B2] body must end in mb.yield}}
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      mb.return %s : tensor<4x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @B2_yield_types_differ_from_results(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      %m = mb.accum_max %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      // expected-error @+1 {{'mb.yield' op [B2] yields 2 values whose types do not match the loop's result types}}
      mb.yield %s, %m : tensor<4x16xf16>, tensor<4x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @B3_yield_of_a_non_accumulator(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %e = mb.exp %xt : tensor<4x16xf16>
      // expected-error @+1 {{'mb.yield' op [B3] yields a value that is not the result of an accumulator of this loop}}
      mb.yield %e : tensor<4x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

// The loaded tile would reach the output saver without an accumulator.
func.func @B3_loop_body_value_saved_without_accumulator(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      // expected-error @+1 {{'mb.yield' op [B3] yields a value that is not the result of an accumulator of this loop; loop-body values must pass through an accumulator}}
      mb.yield %xt : tensor<4x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @B3_accumulator_result_used_in_loop(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      // expected-error @+1 {{'mb.exp' op [B3] uses an accumulator result inside the loop}}
      %e = mb.exp %s : tensor<4x16xf16>
      %t = mb.accum_sum %e : tensor<4x16xf16> -> tensor<4x16xf16>
      mb.yield %t : tensor<4x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

//===----------------------------------------------------------------------===//
// [B4]..[B8] input iterators
//===----------------------------------------------------------------------===//

// -----

func.func @B4_input_iter_on_a_non_kernel_value(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = -1 : tensor<8x64xf16> -> tensor<8x64xf16>
      // expected-error @+1 {{'mb.input_iter' op [B4] operand must be an argument of the enclosing graph-defined kernel}}
      %tt = mb.input_iter %xt imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %tt : tensor<4x16xf16> -> tensor<4x16xf16>
      mb.yield %s : tensor<4x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @B5_imap_with_two_entries(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      // expected-error @+1 {{'mb.input_iter' op [B5] imap must have 3 entries (one per grid dim), got 2}}
      %xt = mb.input_iter %X imap = [0, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      mb.yield %s : tensor<4x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @B5_imap_dim_out_of_range(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      // expected-error @+1 {{'mb.input_iter' op [B5] imap entry 2 is neither -1 nor a dim of a rank-2 tensor}}
      %xt = mb.input_iter %X imap = [2, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      mb.yield %s : tensor<4x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @B5_imap_entry_below_minus_one(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      // expected-error @+1 {{'mb.input_iter' op [B5] imap entry -2 is neither -1 nor a dim of a rank-2 tensor}}
      %xt = mb.input_iter %X imap = [0, -2, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      mb.yield %s : tensor<4x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @B5_imap_maps_a_dim_twice(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      // expected-error @+1 {{'mb.input_iter' op [B5] imap maps dim 0 twice}}
      %xt = mb.input_iter %X imap = [0, 0, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      mb.yield %s : tensor<4x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @B6_fmap_out_of_range(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      // expected-error @+1 {{'mb.input_iter' op [B6] fmap 2 is neither -1 nor a dim of a rank-2 tensor}}
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 2 : tensor<8x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      mb.yield %s : tensor<4x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @B6_fmap_below_minus_one(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      // expected-error @+1 {{'mb.input_iter' op [B6] fmap -3 is neither -1 nor a dim of a rank-2 tensor}}
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = -3 : tensor<8x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      mb.yield %s : tensor<4x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @B7_tile_not_divisible_by_grid(%x: tensor<6x64xf16>) -> tensor<4x16xf16> {
  %y = mk.graph_kernel (%x) grid = [4, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<6x64xf16>):
    %acc = mb.for_loop -> (tensor<1x16xf16>) {
      // expected-error @+1 {{'mb.input_iter' op [B7] dim 0 of size 6 is not divisible by grid dim 0 = 4}}
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<6x64xf16> -> tensor<1x16xf16>
      %s = mb.accum_sum %xt : tensor<1x16xf16> -> tensor<1x16xf16>
      mb.yield %s : tensor<1x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<1x16xf16> -> tensor<4x16xf16>
    mb.return %o : tensor<4x16xf16>
  } : (tensor<6x64xf16>) -> tensor<4x16xf16>
  return %y : tensor<4x16xf16>
}

// -----

func.func @B7_tile_not_divisible_by_forloop(%x: tensor<8x60xf16>) -> tensor<8x7xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 8 {
  ^bb0(%X: tensor<8x60xf16>):
    %acc = mb.for_loop -> (tensor<4x7xf16>) {
      // expected-error @+1 {{'mb.input_iter' op [B7] dim 1 of size 60 (after grid partitioning) is not divisible by forloop = 8}}
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x60xf16> -> tensor<4x7xf16>
      %s = mb.accum_sum %xt : tensor<4x7xf16> -> tensor<4x7xf16>
      mb.yield %s : tensor<4x7xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x7xf16> -> tensor<8x7xf16>
    mb.return %o : tensor<8x7xf16>
  } : (tensor<8x60xf16>) -> tensor<8x7xf16>
  return %y : tensor<8x7xf16>
}

// -----

// Dim 1 (64) divides by grid dim y (4), but its 16-wide share does not divide
// by the loop's 32 iterations.
func.func @B7_grid_share_not_divisible_by_forloop(%x: tensor<8x64xf16>) -> tensor<8x64xf16> {
  %y = mk.graph_kernel (%x) grid = [1, 4, 1] block = [128, 1, 1] forloop = 32 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<8x16xf16>) {
      // expected-error @+1 {{'mb.input_iter' op [B7] dim 1 of size 16 (after grid partitioning) is not divisible by forloop = 32}}
      %xt = mb.input_iter %X imap = [-1, 1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<8x16xf16>
      %s = mb.accum_sum %xt : tensor<8x16xf16> -> tensor<8x16xf16>
      mb.yield %s : tensor<8x16xf16>
    }
    %o = mb.output_saver %acc omap = [-1, 1, -1] : tensor<8x16xf16> -> tensor<8x64xf16>
    mb.return %o : tensor<8x64xf16>
  } : (tensor<8x64xf16>) -> tensor<8x64xf16>
  return %y : tensor<8x64xf16>
}

// -----

func.func @B8_result_is_not_the_tile_type(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      // expected-error @+1 {{'mb.input_iter' op [B8] result type 'tensor<8x16xf16>' is not the tile type 'tensor<4x16xf16>'}}
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<8x16xf16>
      %s = mb.accum_sum %xt : tensor<8x16xf16> -> tensor<8x16xf16>
      mb.yield %s : tensor<8x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @B8_result_element_type_differs(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      // expected-error @+1 {{'mb.input_iter' op [B8] result type 'tensor<4x16xf32>' is not the tile type 'tensor<4x16xf16>'}}
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf32>
      mb.yield %xt : tensor<4x16xf32>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

//===----------------------------------------------------------------------===//
// [B9]..[B13] accumulators
//===----------------------------------------------------------------------===//

// -----

func.func @B9_accum_sum_changes_the_type(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      // expected-error @+1 {{'mb.accum_sum' op [B9] result type 'tensor<4x1xf16>' should equal the input type 'tensor<4x16xf16>'}}
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x1xf16>
      mb.yield %s : tensor<4x1xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @B9_accum_max_changes_the_type(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      // expected-error @+1 {{'mb.accum_max' op [B9] result type 'tensor<4x16xf32>' should equal the input type 'tensor<4x16xf16>'}}
      %s = mb.accum_max %xt : tensor<4x16xf16> -> tensor<4x16xf32>
      mb.yield %s : tensor<4x16xf32>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @B9_accum_rescaled_sum_changes_the_type(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %m = mb.reduce_max %xt dim = 1 : tensor<4x16xf16> -> tensor<4x1xf16>
      // expected-error @+1 {{'mb.accum_rescaled_sum' op [B9] result type 'tensor<4x1xf16>' should equal the input type 'tensor<4x16xf16>'}}
      %s = mb.accum_rescaled_sum %xt, %m : tensor<4x16xf16>, tensor<4x1xf16> -> tensor<4x1xf16>
      mb.yield %s : tensor<4x1xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @B10_accum_sum_last_keeps_the_last_dim(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      // expected-error @+1 {{'mb.accum_sum_last' op [B10] result type 'tensor<4x16xf16>' should be 'tensor<4x1xf16>'}}
      %s = mb.accum_sum_last %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      mb.yield %s : tensor<4x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @B10_accum_mean_last_reduces_the_wrong_dim(%x: tensor<8x64xf16>) -> tensor<2x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<1x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      // expected-error @+1 {{'mb.accum_mean_last' op [B10] result type 'tensor<1x16xf16>' should be 'tensor<4x1xf16>'}}
      %s = mb.accum_mean_last %xt : tensor<4x16xf16> -> tensor<1x16xf16>
      mb.yield %s : tensor<1x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<1x16xf16> -> tensor<2x16xf16>
    mb.return %o : tensor<2x16xf16>
  } : (tensor<8x64xf16>) -> tensor<2x16xf16>
  return %y : tensor<2x16xf16>
}

// -----

func.func @B10_accum_rms_last_changes_the_element_type(%x: tensor<8x64xf16>) -> tensor<8x1xf32> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x1xf32>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      // expected-error @+1 {{'mb.accum_rms_last' op [B10] result type 'tensor<4x1xf32>' should be 'tensor<4x1xf16>'}}
      %s = mb.accum_rms_last %xt eps = 0.0 : tensor<4x16xf16> -> tensor<4x1xf32>
      mb.yield %s : tensor<4x1xf32>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x1xf32> -> tensor<8x1xf32>
    mb.return %o : tensor<8x1xf32>
  } : (tensor<8x64xf16>) -> tensor<8x1xf32>
  return %y : tensor<8x1xf32>
}

// -----

func.func @B11_accum_rms_last_negative_eps(%x: tensor<8x64xf16>) -> tensor<8x1xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x1xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      // expected-error @+1 {{'mb.accum_rms_last' op [B11] eps must be >= 0, got -1.000000e-06}}
      %s = mb.accum_rms_last %xt eps = -1.0e-6 : tensor<4x16xf16> -> tensor<4x1xf16>
      mb.yield %s : tensor<4x1xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x1xf16> -> tensor<8x1xf16>
    mb.return %o : tensor<8x1xf16>
  } : (tensor<8x64xf16>) -> tensor<8x1xf16>
  return %y : tensor<8x1xf16>
}

// -----

func.func @B12_accum_sum_to_dimx_does_not_divide(%x: tensor<8x64xf16>) -> tensor<8x3xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x3xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      // expected-error @+1 {{'mb.accum_sum_to' op [B12] dimx = 3 must be >= 1 and divide the last dim 16}}
      %s = mb.accum_sum_to %xt dimx = 3 : tensor<4x16xf16> -> tensor<4x3xf16>
      mb.yield %s : tensor<4x3xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x3xf16> -> tensor<8x3xf16>
    mb.return %o : tensor<8x3xf16>
  } : (tensor<8x64xf16>) -> tensor<8x3xf16>
  return %y : tensor<8x3xf16>
}

// -----

func.func @B12_accum_sum_to_dimx_zero(%x: tensor<8x64xf16>) -> tensor<8x1xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x1xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      // expected-error @+1 {{'mb.accum_sum_to' op [B12] dimx = 0 must be >= 1 and divide the last dim 16}}
      %s = mb.accum_sum_to %xt dimx = 0 : tensor<4x16xf16> -> tensor<4x1xf16>
      mb.yield %s : tensor<4x1xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x1xf16> -> tensor<8x1xf16>
    mb.return %o : tensor<8x1xf16>
  } : (tensor<8x64xf16>) -> tensor<8x1xf16>
  return %y : tensor<8x1xf16>
}

// -----

func.func @B12_accum_sum_to_result_type(%x: tensor<8x64xf16>) -> tensor<8x8xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x8xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      // expected-error @+1 {{'mb.accum_sum_to' op [B12] result type 'tensor<4x8xf16>' should be 'tensor<4x4xf16>'}}
      %s = mb.accum_sum_to %xt dimx = 4 : tensor<4x16xf16> -> tensor<4x8xf16>
      mb.yield %s : tensor<4x8xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x8xf16> -> tensor<8x8xf16>
    mb.return %o : tensor<8x8xf16>
  } : (tensor<8x64xf16>) -> tensor<8x8xf16>
  return %y : tensor<8x8xf16>
}

// -----

func.func @B13_rescaled_sum_max_does_not_broadcast(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %w = mb.input_iter %X imap = [0, -1, -1] fmap = -1 : tensor<8x64xf16> -> tensor<4x64xf16>
      // expected-error @+1 {{'mb.accum_rescaled_sum' op [B13] max operand 'tensor<4x64xf16>' must have the element type and rank of 'tensor<4x16xf16>' and broadcast to it}}
      %s = mb.accum_rescaled_sum %xt, %w : tensor<4x16xf16>, tensor<4x64xf16> -> tensor<4x16xf16>
      mb.yield %s : tensor<4x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

// The max operand must broadcast to x, not x to it.
func.func @B13_rescaled_sum_max_larger_than_input(%x: tensor<8x64xf16>) -> tensor<8x1xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x1xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %r = mb.reduce_sum %xt dim = 1 : tensor<4x16xf16> -> tensor<4x1xf16>
      // expected-error @+1 {{'mb.accum_rescaled_sum' op [B13] max operand 'tensor<4x16xf16>' must have the element type and rank of 'tensor<4x1xf16>' and broadcast to it}}
      %s = mb.accum_rescaled_sum %r, %xt : tensor<4x1xf16>, tensor<4x16xf16> -> tensor<4x1xf16>
      mb.yield %s : tensor<4x1xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x1xf16> -> tensor<8x1xf16>
    mb.return %o : tensor<8x1xf16>
  } : (tensor<8x64xf16>) -> tensor<8x1xf16>
  return %y : tensor<8x1xf16>
}

// -----

func.func @B13_rescaled_sum_max_element_type_differs(%x: tensor<8x64xf16>, %z: tensor<8x64xf32>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x, %z) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>, %Z: tensor<8x64xf32>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %zt = mb.input_iter %Z imap = [0, -1, -1] fmap = 1 : tensor<8x64xf32> -> tensor<4x16xf32>
      %m = mb.reduce_max %zt dim = 1 : tensor<4x16xf32> -> tensor<4x1xf32>
      // expected-error @+1 {{'mb.accum_rescaled_sum' op [B13] max operand 'tensor<4x1xf32>' must have the element type and rank of 'tensor<4x16xf16>'}}
      %s = mb.accum_rescaled_sum %xt, %m : tensor<4x16xf16>, tensor<4x1xf32> -> tensor<4x16xf16>
      mb.yield %s : tensor<4x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>, tensor<8x64xf32>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

//===----------------------------------------------------------------------===//
// [B14]..[B18] output savers and mb.return
//===----------------------------------------------------------------------===//

// -----

func.func @B14_output_saver_inside_the_loop(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      // expected-error @+1 {{'mb.output_saver' op [B14] must be directly in the body of a graph-defined kernel, after the loop}}
      %bad = mb.output_saver %xt omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      mb.yield %s : tensor<4x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @B14_output_saver_result_read_by_a_tile_op(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      mb.yield %s : tensor<4x16xf16>
    }
    // expected-error @+1 {{'mb.output_saver' op [B14] result is a device tensor and may only be used by mb.return}}
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    %e = mb.exp %o : tensor<8x16xf16>
    %o2 = mb.output_saver %e omap = [-1, -1, -1] : tensor<8x16xf16> -> tensor<8x16xf16>
    mb.return %o2 : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @B15_omap_with_four_entries(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      mb.yield %s : tensor<4x16xf16>
    }
    // expected-error @+1 {{'mb.output_saver' op [B15] omap must have 3 entries (one per grid dim), got 4}}
    %o = mb.output_saver %acc omap = [0, -1, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @B15_omap_dim_out_of_range(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      mb.yield %s : tensor<4x16xf16>
    }
    // expected-error @+1 {{'mb.output_saver' op [B15] omap entry 2 is neither -1 nor a dim of a rank-2 tensor}}
    %o = mb.output_saver %acc omap = [2, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @B15_omap_maps_a_dim_twice(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      mb.yield %s : tensor<4x16xf16>
    }
    // expected-error @+1 {{'mb.output_saver' op [B15] omap maps dim 0 twice}}
    %o = mb.output_saver %acc omap = [0, -1, 0] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @B16_grid_dim_greater_than_one_unmapped(%x: tensor<8x64xf16>) -> tensor<4x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      mb.yield %s : tensor<4x16xf16>
    }
    // expected-error @+1 {{'mb.output_saver' op [B16] grid dim 0 = 2 is not mapped to an output dim, so blocks would overwrite each other's tiles}}
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<4x16xf16> -> tensor<4x16xf16>
    mb.return %o : tensor<4x16xf16>
  } : (tensor<8x64xf16>) -> tensor<4x16xf16>
  return %y : tensor<4x16xf16>
}

// -----

// Grid dim z > 1 left unmapped while x and y are mapped.
func.func @B16_grid_dim_z_unmapped(%x: tensor<8x64xf16>) -> tensor<8x64xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 4, 2] block = [128, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      %xt = mb.input_iter %X imap = [0, 1, -1] fmap = -1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      mb.yield %s : tensor<4x16xf16>
    }
    // expected-error @+1 {{'mb.output_saver' op [B16] grid dim 2 = 2 is not mapped to an output dim}}
    %o = mb.output_saver %acc omap = [0, 1, -1] : tensor<4x16xf16> -> tensor<8x64xf16>
    mb.return %o : tensor<8x64xf16>
  } : (tensor<8x64xf16>) -> tensor<8x64xf16>
  return %y : tensor<8x64xf16>
}

// -----

func.func @B17_result_is_not_the_scaled_tile(%x: tensor<8x64xf16>) -> tensor<8x32xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      mb.yield %s : tensor<4x16xf16>
    }
    // expected-error @+1 {{'mb.output_saver' op [B17] result type 'tensor<8x32xf16>' should be 'tensor<8x16xf16>' (the tile scaled by the grid along omap)}}
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x32xf16>
    mb.return %o : tensor<8x32xf16>
  } : (tensor<8x64xf16>) -> tensor<8x32xf16>
  return %y : tensor<8x32xf16>
}

// -----

func.func @B18_return_of_a_non_saved_value(%x: tensor<8x64xf16>) -> tensor<1x16xf16> {
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<1x16xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = -1 : tensor<8x64xf16> -> tensor<8x64xf16>
      %h = mb.reduce_sum %xt dim = 0 : tensor<8x64xf16> -> tensor<1x64xf16>
      %r = mb.accum_sum_to %h dimx = 16 : tensor<1x64xf16> -> tensor<1x16xf16>
      mb.yield %r : tensor<1x16xf16>
    }
    // expected-error @+1 {{'mb.return' op [B18] operands must be mb.output_saver results}}
    mb.return %acc : tensor<1x16xf16>
  } : (tensor<8x64xf16>) -> tensor<1x16xf16>
  return %y : tensor<1x16xf16>
}

//===----------------------------------------------------------------------===//
// [B19] ops that only exist in a for-loop body
//===----------------------------------------------------------------------===//

// -----

// An input iterator in a thread graph is neither in a loop body nor an
// epilogue input.
func.func @B19_input_iter_in_a_thread_graph(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      mb.yield %s : tensor<4x16xf16>
    }
    %r = mt.thread_graph (%acc) : (tensor<4x16xf16>) -> tensor<4x16xf16> {
    ^bb0(%a: tensor<4x16xf16>):
      // expected-error @+1 {{'mb.input_iter' op [B19] must be directly in the body of an mb.for_loop or, as an epilogue input, directly in the body of the graph-defined kernel}}
      %t = mb.input_iter %a imap = [0, -1, -1] fmap = -1 : tensor<4x16xf16> -> tensor<2x16xf16>
      mt.yield %a : tensor<4x16xf16>
    }
    %o = mb.output_saver %r omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @B19_accumulator_after_the_loop(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      mb.yield %s : tensor<4x16xf16>
    }
    // expected-error @+1 {{'mb.accum_max' op [B19] must be directly in the body of an mb.for_loop}}
    %m = mb.accum_max %acc : tensor<4x16xf16> -> tensor<4x16xf16>
    %o = mb.output_saver %m omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @B19_yield_terminating_the_kernel(%x: tensor<8x64xf16>) {
  mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    mb.for_loop {
      mb.yield
    }
    // expected-error @+1 {{'mb.yield' op [B19] must be directly in the body of an mb.for_loop}}
    mb.yield
  } : (tensor<8x64xf16>) -> ()
  return
}

//===----------------------------------------------------------------------===//
// [K7]..[K10] whole-graph rules of a block graph (verified by the enclosing
// mk.graph_kernel)
//===----------------------------------------------------------------------===//

// -----

// Two 64x1024xf16 tiles (the loaded one and its accumulator) take 256 KiB.
func.func @K7_shared_memory_exceeded(%x: tensor<64x1024xf16>) -> tensor<64x1024xf16> {
  // expected-error @+1 {{'mk.graph_kernel' op [K7] block graph needs 262144 bytes of shared memory but the target allows 98304}}
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<64x1024xf16>):
    %acc = mb.for_loop -> (tensor<64x1024xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = -1 : tensor<64x1024xf16> -> tensor<64x1024xf16>
      %s = mb.accum_sum %xt : tensor<64x1024xf16> -> tensor<64x1024xf16>
      mb.yield %s : tensor<64x1024xf16>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<64x1024xf16> -> tensor<64x1024xf16>
    mb.return %o : tensor<64x1024xf16>
  } : (tensor<64x1024xf16>) -> tensor<64x1024xf16>
  return %y : tensor<64x1024xf16>
}

// -----

// The same kernel as above with a tile of 8x16xf16 fits the default but not
// a 256-byte limit set on an ancestor.
func.func @K7_shared_memory_exceeds_smem_limit(%x: tensor<8x64xf16>) -> tensor<8x16xf16> attributes {mk.smem_limit = 256 : i64} {
  // expected-error @+1 {{'mk.graph_kernel' op [K7] block graph needs 512 bytes of shared memory but the target allows 256}}
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<8x16xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<8x16xf16>
      %s = mb.accum_sum %xt : tensor<8x16xf16> -> tensor<8x16xf16>
      mb.yield %s : tensor<8x16xf16>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<8x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @K8_kernel_op_after_the_loop(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      mb.yield %s : tensor<4x16xf16>
    }
    // expected-error @+1 {{'mk.exp' op [K8] is not allowed directly in a block graph}}
    %e = mk.exp %acc : tensor<4x16xf16>
    %o = mb.output_saver %e omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @K8_kernel_op_in_the_loop_body(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      // expected-error @+1 {{'mk.exp' op [K8] is not allowed in a for-loop body}}
      %e = mk.exp %xt : tensor<4x16xf16>
      %s = mb.accum_sum %e : tensor<4x16xf16> -> tensor<4x16xf16>
      mb.yield %s : tensor<4x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @K9_kernel_argument_read_by_a_tile_op(%x: tensor<8x64xf16>) -> tensor<8x64xf16> {
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<8x64xf16>) {
      // expected-error @+1 {{'mb.exp' op [K9] reads kernel argument #0 directly; device tensors are read through mb.input_iter}}
      %e = mb.exp %X : tensor<8x64xf16>
      %s = mb.accum_sum %e : tensor<8x64xf16> -> tensor<8x64xf16>
      mb.yield %s : tensor<8x64xf16>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<8x64xf16> -> tensor<8x64xf16>
    mb.return %o : tensor<8x64xf16>
  } : (tensor<8x64xf16>) -> tensor<8x64xf16>
  return %y : tensor<8x64xf16>
}

// -----

func.func @K10_loop_body_value_never_accumulated(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      // expected-error @+1 {{'mb.exp' op [K10] result is never used; every loop-body value must reach an accumulator}}
      %e = mb.exp %xt : tensor<4x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      mb.yield %s : tensor<4x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @K10_accumulator_never_yielded(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      // expected-error @+1 {{'mb.accum_max' op [K10] result is never used; every accumulator must be yielded by mb.yield}}
      %m = mb.accum_max %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      mb.yield %s : tensor<4x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @K10_loop_result_never_saved(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    // expected-error @+1 {{'mb.for_loop' op [K10] result #1 is never used; every accumulated value must reach an output saver}}
    %acc:2 = mb.for_loop -> (tensor<4x16xf16>, tensor<4x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      %m = mb.accum_max %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      mb.yield %s, %m : tensor<4x16xf16>, tensor<4x16xf16>
    }
    %o = mb.output_saver %acc#0 omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @K10_post_loop_value_never_saved(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      mb.yield %s : tensor<4x16xf16>
    }
    // expected-error @+1 {{'mb.neg' op [K10] result is never used; every post-loop value must reach an output saver}}
    %n = mb.neg %acc : tensor<4x16xf16>
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

//===----------------------------------------------------------------------===//
// [B20] the tile coordinates of mb.band_mask
//===----------------------------------------------------------------------===//

// -----

func.func @B20_band_mask_imap_repeats_a_dim(%s: tensor<64x128xf16>) -> tensor<64x128xf16> {
  %y = mk.graph_kernel (%s) grid = [4, 1, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%S: tensor<64x128xf16>):
    %t = mb.for_loop -> (tensor<16x128xf16>) {
      %x = mb.input_iter %S imap = [0, -1, -1] fmap = -1 : tensor<64x128xf16> -> tensor<16x128xf16>
      %a = mb.accum_sum %x : tensor<16x128xf16> -> tensor<16x128xf16>
      mb.yield %a : tensor<16x128xf16>
    }
    // expected-error @+1 {{'mb.band_mask' op [B20] imap maps dim 0 twice}}
    %m = mb.band_mask %t dims = [0, 1] upper = 0 fill = 0.0 imap = [0, 0, -1] fmap = -1 : tensor<16x128xf16>
    %o = mb.output_saver %m omap = [0, -1, -1] : tensor<16x128xf16> -> tensor<64x128xf16>
    mb.return %o : tensor<64x128xf16>
  } : (tensor<64x128xf16>) -> tensor<64x128xf16>
  return %y : tensor<64x128xf16>
}

// -----

func.func @B20_band_mask_fmap_out_of_range(%s: tensor<64x128xf16>) -> tensor<64x1xf16> {
  %y = mk.graph_kernel (%s) grid = [4, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%S: tensor<64x128xf16>):
    %acc = mb.for_loop -> (tensor<16x1xf16>) {
      %t = mb.input_iter %S imap = [0, -1, -1] fmap = 1 : tensor<64x128xf16> -> tensor<16x32xf16>
      // expected-error @+1 {{'mb.band_mask' op [B20] fmap 2 is neither -1 nor a dim of a rank-2 tensor}}
      %m = mb.band_mask %t dims = [0, 1] upper = 0 fill = 0.0 imap = [0, -1, -1] fmap = 2 : tensor<16x32xf16>
      %a = mb.accum_sum_last %m : tensor<16x32xf16> -> tensor<16x1xf16>
      mb.yield %a : tensor<16x1xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<16x1xf16> -> tensor<64x1xf16>
    mb.return %o : tensor<64x1xf16>
  } : (tensor<64x128xf16>) -> tensor<64x1xf16>
  return %y : tensor<64x1xf16>
}

// -----

func.func @B20_band_mask_fmap_after_the_loop(%s: tensor<64x128xf16>) -> tensor<64x128xf16> {
  %y = mk.graph_kernel (%s) grid = [4, 1, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%S: tensor<64x128xf16>):
    %t = mb.for_loop -> (tensor<16x128xf16>) {
      %x = mb.input_iter %S imap = [0, -1, -1] fmap = -1 : tensor<64x128xf16> -> tensor<16x128xf16>
      %a = mb.accum_sum %x : tensor<16x128xf16> -> tensor<16x128xf16>
      mb.yield %a : tensor<16x128xf16>
    }
    // expected-error @+1 {{'mb.band_mask' op [B20] fmap 1 names a dim the for-loop walks, but the op is not in the for-loop's body}}
    %m = mb.band_mask %t dims = [0, 1] upper = 0 fill = 0.0 imap = [0, -1, -1] fmap = 1 : tensor<16x128xf16>
    %o = mb.output_saver %m omap = [0, -1, -1] : tensor<16x128xf16> -> tensor<64x128xf16>
    mb.return %o : tensor<64x128xf16>
  } : (tensor<64x128xf16>) -> tensor<64x128xf16>
  return %y : tensor<64x128xf16>
}

// -----

func.func @C0_17_band_mask_in_block_graph(%s: tensor<64x128xf16>) -> tensor<64x128xf16> {
  %y = mk.graph_kernel (%s) grid = [4, 1, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%S: tensor<64x128xf16>):
    %t = mb.for_loop -> (tensor<16x128xf16>) {
      %x = mb.input_iter %S imap = [0, -1, -1] fmap = -1 : tensor<64x128xf16> -> tensor<16x128xf16>
      %a = mb.accum_sum %x : tensor<16x128xf16> -> tensor<16x128xf16>
      mb.yield %a : tensor<16x128xf16>
    }
    // expected-error @+1 {{'mb.band_mask' op [C0.17] needs a lower or an upper bound}}
    %m = mb.band_mask %t dims = [0, 1] fill = 0.0 imap = [0, -1, -1] fmap = -1 : tensor<16x128xf16>
    %o = mb.output_saver %m omap = [0, -1, -1] : tensor<16x128xf16> -> tensor<64x128xf16>
    mb.return %o : tensor<64x128xf16>
  } : (tensor<64x128xf16>) -> tensor<64x128xf16>
  return %y : tensor<64x128xf16>
}

//===----------------------------------------------------------------------===//
// [B21] epilogue inputs: input iterators in the kernel body, after the loop
//===----------------------------------------------------------------------===//

// -----

func.func @B21_epilogue_input_before_the_loop(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    // expected-error @+1 {{'mb.input_iter' op [B21] an epilogue input (in the kernel body) must come after the mb.for_loop}}
    %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      mb.yield %s : tensor<4x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @B21_epilogue_input_walks_the_loop(%x: tensor<8x64xf16>, %r: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x, %r) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>, %R: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      mb.yield %s : tensor<4x16xf16>
    }
    // expected-error @+1 {{'mb.input_iter' op [B21] an epilogue input is read once after the loop: fmap must be -1, got 1}}
    %rt = mb.input_iter %R imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
    %sum = mb.add %acc, %rt : tensor<4x16xf16>, tensor<4x16xf16> -> tensor<4x16xf16>
    %o = mb.output_saver %sum omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>, tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

// An epilogue input that no post-loop op or saver reads is a dead path.
func.func @B21_epilogue_input_never_used(%x: tensor<8x64xf16>, %b: tensor<8x16xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x, %b) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>, %B: tensor<8x16xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      mb.yield %s : tensor<4x16xf16>
    }
    // expected-error @+1 {{'mb.input_iter' op [K10] result is never used; every post-loop value must reach an output saver}}
    %bt = mb.input_iter %B imap = [0, -1, -1] fmap = -1 : tensor<8x16xf16> -> tensor<4x16xf16>
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>, tensor<8x16xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

//===----------------------------------------------------------------------===//
// [B22]-[B25] views of the device tensor
//===----------------------------------------------------------------------===//

// -----

func.func @B22_view_arity(%q: tensor<8x64xf32>) -> tensor<4x8x16xf32> {
  %y = mk.graph_kernel (%q) grid = [4, 1, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%Q: tensor<8x64xf32>):
    %t = mb.for_loop -> (tensor<1x8x16xf32>) {
      // expected-error @+1 {{'mb.input_iter' op [B22] the view must map the 3 dims of the logical tensor to the 2 dims of the device tensor, without symbols}}
      %qt = mb.input_iter %Q imap = [0, -1, -1] fmap = -1 view = affine_map<(h, t) -> (t, h * 16)> : tensor<8x64xf32> -> tensor<1x8x16xf32>
      %s = mb.accum_sum %qt : tensor<1x8x16xf32> -> tensor<1x8x16xf32>
      mb.yield %s : tensor<1x8x16xf32>
    }
    %o = mb.output_saver %t omap = [0, -1, -1] : tensor<1x8x16xf32> -> tensor<4x8x16xf32>
    mb.return %o : tensor<4x8x16xf32>
  } : (tensor<8x64xf32>) -> tensor<4x8x16xf32>
  return %y : tensor<4x8x16xf32>
}

// -----

func.func @B23_view_not_digits(%q: tensor<8x64xf32>) -> tensor<4x8x16xf32> {
  %y = mk.graph_kernel (%q) grid = [4, 1, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%Q: tensor<8x64xf32>):
    %t = mb.for_loop -> (tensor<1x8x16xf32>) {
      // expected-error @+1 {{'mb.input_iter' op [B23] result 1 of the view: '(d0 + d2) mod 64' is not an index digit}}
      %qt = mb.input_iter %Q imap = [0, -1, -1] fmap = -1 view = affine_map<(h, t, d) -> (t, (h + d) mod 64)> : tensor<8x64xf32> -> tensor<1x8x16xf32>
      %s = mb.accum_sum %qt : tensor<1x8x16xf32> -> tensor<1x8x16xf32>
      mb.yield %s : tensor<1x8x16xf32>
    }
    %o = mb.output_saver %t omap = [0, -1, -1] : tensor<1x8x16xf32> -> tensor<4x8x16xf32>
    mb.return %o : tensor<4x8x16xf32>
  } : (tensor<8x64xf32>) -> tensor<4x8x16xf32>
  return %y : tensor<4x8x16xf32>
}

// -----

func.func @B24_view_outside_the_tensor(%q: tensor<8x48xf32>) -> tensor<4x8x16xf32> {
  %y = mk.graph_kernel (%q) grid = [4, 1, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%Q: tensor<8x48xf32>):
    %t = mb.for_loop -> (tensor<1x8x16xf32>) {
      // expected-error @+1 {{'mb.input_iter' op [B24] the view reaches index 63 of device dim 1 of size 48}}
      %qt = mb.input_iter %Q imap = [0, -1, -1] fmap = -1 view = affine_map<(h, t, d) -> (t, h * 16 + d)> : tensor<8x48xf32> -> tensor<1x8x16xf32>
      %s = mb.accum_sum %qt : tensor<1x8x16xf32> -> tensor<1x8x16xf32>
      mb.yield %s : tensor<1x8x16xf32>
    }
    %o = mb.output_saver %t omap = [0, -1, -1] : tensor<1x8x16xf32> -> tensor<4x8x16xf32>
    mb.return %o : tensor<4x8x16xf32>
  } : (tensor<8x48xf32>) -> tensor<4x8x16xf32>
  return %y : tensor<4x8x16xf32>
}

// -----

func.func @B25_output_view_overlaps(%q: tensor<4x8x16xf32>) -> tensor<8x64xf32> {
  %y = mk.graph_kernel (%q) grid = [4, 1, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%Q: tensor<4x8x16xf32>):
    %t = mb.for_loop -> (tensor<1x8x16xf32>) {
      %qt = mb.input_iter %Q imap = [0, -1, -1] fmap = -1 : tensor<4x8x16xf32> -> tensor<1x8x16xf32>
      %s = mb.accum_sum %qt : tensor<1x8x16xf32> -> tensor<1x8x16xf32>
      mb.yield %s : tensor<1x8x16xf32>
    }
    // expected-error @+1 {{'mb.output_saver' op [B25] the view's strides leave gaps or overlaps in the device tensor}}
    %o = mb.output_saver %t omap = [0, -1, -1] view = affine_map<(h, t, d) -> (t, h * 8 + d)> : tensor<1x8x16xf32> -> tensor<8x64xf32>
    mb.return %o : tensor<8x64xf32>
  } : (tensor<4x8x16xf32>) -> tensor<8x64xf32>
  return %y : tensor<8x64xf32>
}

// -----

func.func @B25_output_view_broadcast(%q: tensor<4x8x16xf32>) -> tensor<8x16xf32> {
  %y = mk.graph_kernel (%q) grid = [4, 1, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%Q: tensor<4x8x16xf32>):
    %t = mb.for_loop -> (tensor<1x8x16xf32>) {
      %qt = mb.input_iter %Q imap = [0, -1, -1] fmap = -1 : tensor<4x8x16xf32> -> tensor<1x8x16xf32>
      %s = mb.accum_sum %qt : tensor<1x8x16xf32> -> tensor<1x8x16xf32>
      mb.yield %s : tensor<1x8x16xf32>
    }
    // expected-error @+1 {{'mb.output_saver' op [B25] the view has 512 elements and the device tensor 128}}
    %o = mb.output_saver %t omap = [0, -1, -1] view = affine_map<(h, t, d) -> (t, d)> : tensor<1x8x16xf32> -> tensor<8x16xf32>
    mb.return %o : tensor<8x16xf32>
  } : (tensor<4x8x16xf32>) -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// -----

// [B26] A tail tiling needs ceil(size / tile) blocks: 100 rows in tiles of
// 16 take 7 blocks, not 6.
func.func @B26_tail_too_few_blocks(%x: tensor<100x64xf16>) -> tensor<96x64xf16> {
  %y = mk.graph_kernel (%x) grid = [6, 1, 1] block = [64, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<100x64xf16>):
    %acc = mb.for_loop -> (tensor<16x64xf16>) {
      // expected-error @+1 {{'mb.input_iter' op [B7] dim 0 of size 100 is not divisible by grid dim 0 = 6; nor is it a tail tiling ([B26]: a grid dim of ceil(size / tile) blocks along a dim the loop does not walk, or a loop of ceil(size / tile) trips along a dim the grid does not partition)}}
      %t = mb.input_iter %X imap = [0, -1, -1] fmap = -1 : tensor<100x64xf16> -> tensor<16x64xf16>
      %a = mb.accum_sum %t : tensor<16x64xf16> -> tensor<16x64xf16>
      mb.yield %a : tensor<16x64xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<16x64xf16> -> tensor<96x64xf16>
    mb.return %o : tensor<96x64xf16>
  } : (tensor<100x64xf16>) -> tensor<96x64xf16>
  return %y : tensor<96x64xf16>
}

// -----

// [B26] A walked tail takes ceil(size / tile) trips: 100 columns in tiles
// of 16 take 7, and an eighth trip would start past the end.
func.func @B26_walked_tail_too_many_trips(%x: tensor<8x100xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [1, 1, 1] block = [64, 1, 1] forloop = 8 {
  ^bb0(%X: tensor<8x100xf16>):
    %acc = mb.for_loop -> (tensor<8x16xf16>) {
      // expected-error @+1 {{'mb.input_iter' op [B7] dim 1 of size 100 (after grid partitioning) is not divisible by forloop = 8; nor is it a tail tiling ([B26]}}
      %t = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x100xf16> -> tensor<8x16xf16>
      %a = mb.accum_sum %t : tensor<8x16xf16> -> tensor<8x16xf16>
      mb.yield %a : tensor<8x16xf16>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<8x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x100xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

// [B26] An output of 120 rows needs 8 blocks of 16; a grid of 7 leaves its
// last 8 rows unwritten.
func.func @B26_output_tail_too_few_blocks(%x: tensor<100x64xf16>) -> tensor<120x64xf16> {
  %y = mk.graph_kernel (%x) grid = [7, 1, 1] block = [64, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<100x64xf16>):
    %acc = mb.for_loop -> (tensor<16x64xf16>) {
      %t = mb.input_iter %X imap = [0, -1, -1] fmap = -1 : tensor<100x64xf16> -> tensor<16x64xf16>
      %a = mb.accum_sum %t : tensor<16x64xf16> -> tensor<16x64xf16>
      mb.yield %a : tensor<16x64xf16>
    }
    // expected-error @+1 {{'mb.output_saver' op [B17] result type 'tensor<120x64xf16>' should be 'tensor<112x64xf16>' (the tile scaled by the grid along omap); nor is it a tail tiling ([B26]}}
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<16x64xf16> -> tensor<120x64xf16>
    mb.return %o : tensor<120x64xf16>
  } : (tensor<100x64xf16>) -> tensor<120x64xf16>
  return %y : tensor<120x64xf16>
}

// -----

// [B26] Through a view, a tile may overhang only a dim the view passes
// through (there the logical extent is the device's): 3 of 4 heads a block
// overhangs the heads, which the view merges with the head dim, so the
// last block would read past the row.
func.func @B26_view_tail_on_merged_dim(%x: tensor<8x64xf16>) -> tensor<6x8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [64, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<3x8x16xf16>) {
      // expected-error @+1 {{'mb.input_iter' op [B24] the view reaches index 95 of device dim 1 of size 64}}
      %t = mb.input_iter %X imap = [0, -1, -1] fmap = -1 view = affine_map<(h, t, d) -> (t, h * 16 + d)> : tensor<8x64xf16> -> tensor<3x8x16xf16>
      %a = mb.accum_sum %t : tensor<3x8x16xf16> -> tensor<3x8x16xf16>
      mb.yield %a : tensor<3x8x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<3x8x16xf16> -> tensor<6x8x16xf16>
    mb.return %o : tensor<6x8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<6x8x16xf16>
  return %y : tensor<6x8x16xf16>
}
