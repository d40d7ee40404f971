// RUN: mirage-opt %s -split-input-file -verify-diagnostics

// One split per constraint of the mt ops (docs/constraints/mt.md), named
// after the constraint it violates and holding exactly one error. Unless a
// split says otherwise, the thread graph sits after the loop of a kernel
// whose loop yields %acc#0 (4x16xf16) and %acc#1 (4x1xf16).

//===----------------------------------------------------------------------===//
// [C0.1], [C0.2], [C0.3]
//===----------------------------------------------------------------------===//

func.func @C0_2_scalar_op_outside_kernel(%x: f16) -> f16 {
  // expected-error @+1 {{'mt.exp' op [C0.2] must be nested inside a graph-defined kernel}}
  %0 = mt.exp %x : f16
  return %0 : f16
}

// -----

func.func @C0_2_binary_op_outside_kernel(%x: f32) -> f32 {
  // expected-error @+1 {{'mt.add' op [C0.2] must be nested inside a graph-defined kernel}}
  %0 = mt.add %x, %x : f32
  return %0 : f32
}

// -----

func.func @C0_2_thread_graph_outside_kernel(%x: tensor<4x16xf16>) -> tensor<4x16xf16> {
  // expected-error @+1 {{'mt.thread_graph' op [C0.2] must be nested inside a graph-defined kernel}}
  %0 = mt.thread_graph (%x) : (tensor<4x16xf16>) -> tensor<4x16xf16> {
  ^bb0(%a: f16):
    mt.yield %a : f16
  }
  return %0 : tensor<4x16xf16>
}

// -----

func.func @C0_2_yield_outside_kernel(%x: f16) {
  // expected-error @+1 {{'mt.yield' op [C0.2] must be nested inside a graph-defined kernel}}
  mt.yield %x : f16
}

// -----

func.func @C0_1_f64_result_tile(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc:2 = mb.for_loop -> (tensor<4x16xf16>, tensor<4x1xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      %r = mb.accum_rms_last %xt eps = 0.0 : tensor<4x16xf16> -> tensor<4x1xf16>
      mb.yield %s, %r : tensor<4x16xf16>, tensor<4x1xf16>
    }
    // expected-error @+1 {{'mt.thread_graph' op result #0 must be variadic of static tensor of rank 1 to 4}}
    %t = mt.thread_graph (%acc#0) : (tensor<4x16xf16>) -> tensor<4x16xf64> {
    ^bb0(%a: f16):
      mt.yield %a : f16
    }
    %o = mb.output_saver %acc#0 omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @C0_3_clamp_min_greater_than_max(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc:2 = mb.for_loop -> (tensor<4x16xf16>, tensor<4x1xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      %r = mb.accum_rms_last %xt eps = 0.0 : tensor<4x16xf16> -> tensor<4x1xf16>
      mb.yield %s, %r : tensor<4x16xf16>, tensor<4x1xf16>
    }
    %t = mt.thread_graph (%acc#0, %acc#1) : (tensor<4x16xf16>, tensor<4x1xf16>) -> tensor<4x16xf16> {
    ^bb0(%a: f16, %b: f16):
      // expected-error @+1 {{'mt.clamp' op [C0.3] requires min <= max, got min = 1.000000e+00 and max = -1.000000e+00}}
      %c = mt.clamp %a min = 1.0 max = -1.0 : f16
      mt.yield %c : f16
    }
    %o = mb.output_saver %t omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

//===----------------------------------------------------------------------===//
// [T1]..[T4] mt.thread_graph
//===----------------------------------------------------------------------===//

// -----

func.func @T1_no_inputs(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc:2 = mb.for_loop -> (tensor<4x16xf16>, tensor<4x1xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      %r = mb.accum_rms_last %xt eps = 0.0 : tensor<4x16xf16> -> tensor<4x1xf16>
      mb.yield %s, %r : tensor<4x16xf16>, tensor<4x1xf16>
    }
    // expected-error @+1 {{'mt.thread_graph' op [T1] needs at least one input and one result}}
    %t = mt.thread_graph () : () -> tensor<4x16xf16> {
      mt.yield
    }
    %o = mb.output_saver %acc#0 omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @T1_no_results(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc:2 = mb.for_loop -> (tensor<4x16xf16>, tensor<4x1xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      %r = mb.accum_rms_last %xt eps = 0.0 : tensor<4x16xf16> -> tensor<4x1xf16>
      mb.yield %s, %r : tensor<4x16xf16>, tensor<4x1xf16>
    }
    // expected-error @+1 {{'mt.thread_graph' op [T1] needs at least one input and one result}}
    mt.thread_graph (%acc#1) : (tensor<4x1xf16>) -> () {
    ^bb0(%a: f16):
      mt.yield
    }
    %o = mb.output_saver %acc#0 omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @T2_results_of_different_shapes(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc:2 = mb.for_loop -> (tensor<4x16xf16>, tensor<4x1xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      %r = mb.accum_rms_last %xt eps = 0.0 : tensor<4x16xf16> -> tensor<4x1xf16>
      mb.yield %s, %r : tensor<4x16xf16>, tensor<4x1xf16>
    }
    // expected-error @+1 {{'mt.thread_graph' op [T2] all results must have the same shape, got 'tensor<4x1xf16>' and 'tensor<4x16xf16>'}}
    %t:2 = mt.thread_graph (%acc#0, %acc#1) : (tensor<4x16xf16>, tensor<4x1xf16>) -> (tensor<4x16xf16>, tensor<4x1xf16>) {
    ^bb0(%a: f16, %b: f16):
      mt.yield %a, %b : f16, f16
    }
    %o = mb.output_saver %t#0 omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @T2_input_does_not_broadcast(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc:2 = mb.for_loop -> (tensor<4x16xf16>, tensor<4x4xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      %p = mb.accum_sum_to %xt dimx = 4 : tensor<4x16xf16> -> tensor<4x4xf16>
      mb.yield %s, %p : tensor<4x16xf16>, tensor<4x4xf16>
    }
    // expected-error @+1 {{'mt.thread_graph' op [T2] input #1 of type 'tensor<4x4xf16>' does not broadcast to the result shape of 'tensor<4x16xf16>'}}
    %t = mt.thread_graph (%acc#0, %acc#1) : (tensor<4x16xf16>, tensor<4x4xf16>) -> tensor<4x16xf16> {
    ^bb0(%a: f16, %b: f16):
      %m = mt.mul %a, %b : f16
      mt.yield %m : f16
    }
    %o = mb.output_saver %t omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

// The input would broadcast the other way: the result is not its shape.
func.func @T2_input_larger_than_the_result(%x: tensor<8x64xf16>) -> tensor<8x1xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc:2 = mb.for_loop -> (tensor<4x16xf16>, tensor<4x1xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      %r = mb.accum_rms_last %xt eps = 0.0 : tensor<4x16xf16> -> tensor<4x1xf16>
      mb.yield %s, %r : tensor<4x16xf16>, tensor<4x1xf16>
    }
    // expected-error @+1 {{'mt.thread_graph' op [T2] input #0 of type 'tensor<4x16xf16>' does not broadcast to the result shape of 'tensor<4x1xf16>'}}
    %t = mt.thread_graph (%acc#0, %acc#1) : (tensor<4x16xf16>, tensor<4x1xf16>) -> tensor<4x1xf16> {
    ^bb0(%a: f16, %b: f16):
      %m = mt.mul %a, %b : f16
      mt.yield %m : f16
    }
    %o = mb.output_saver %t omap = [0, -1, -1] : tensor<4x1xf16> -> tensor<8x1xf16>
    mb.return %o : tensor<8x1xf16>
  } : (tensor<8x64xf16>) -> tensor<8x1xf16>
  return %y : tensor<8x1xf16>
}

// -----

func.func @T2_input_rank_differs(%x: tensor<8x64xf16>, %v: tensor<64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x, %v) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>, %V: tensor<64xf16>):
    %acc:2 = mb.for_loop -> (tensor<4x16xf16>, tensor<16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %vt = mb.input_iter %V imap = [-1, -1, -1] fmap = 0 : tensor<64xf16> -> tensor<16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      %w = mb.accum_sum %vt : tensor<16xf16> -> tensor<16xf16>
      mb.yield %s, %w : tensor<4x16xf16>, tensor<16xf16>
    }
    // expected-error @+1 {{'mt.thread_graph' op [T2] input #1 of type 'tensor<16xf16>' does not broadcast to the result shape of 'tensor<4x16xf16>'}}
    %t = mt.thread_graph (%acc#0, %acc#1) : (tensor<4x16xf16>, tensor<16xf16>) -> tensor<4x16xf16> {
    ^bb0(%a: f16, %b: f16):
      %m = mt.mul %a, %b : f16
      mt.yield %m : f16
    }
    %o = mb.output_saver %t omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>, tensor<64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @T3_argument_count_differs(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc:2 = mb.for_loop -> (tensor<4x16xf16>, tensor<4x1xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      %r = mb.accum_rms_last %xt eps = 0.0 : tensor<4x16xf16> -> tensor<4x1xf16>
      mb.yield %s, %r : tensor<4x16xf16>, tensor<4x1xf16>
    }
    // expected-error @+1 {{'mt.thread_graph' op [T3] body has 1 arguments for 2 inputs}}
    %t = mt.thread_graph (%acc#0, %acc#1) : (tensor<4x16xf16>, tensor<4x1xf16>) -> tensor<4x16xf16> {
    ^bb0(%a: f16):
      mt.yield %a : f16
    }
    %o = mb.output_saver %t omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @T3_argument_type_is_not_the_element_type(%x: tensor<8x64xf16>) -> tensor<8x16xf32> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc:2 = mb.for_loop -> (tensor<4x16xf16>, tensor<4x1xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      %r = mb.accum_rms_last %xt eps = 0.0 : tensor<4x16xf16> -> tensor<4x1xf16>
      mb.yield %s, %r : tensor<4x16xf16>, tensor<4x1xf16>
    }
    // expected-error @+1 {{'mt.thread_graph' op [T3] body argument #0 has type 'f32' but the input element type is 'f16'}}
    %t = mt.thread_graph (%acc#0) : (tensor<4x16xf16>) -> tensor<4x16xf32> {
    ^bb0(%a: f32):
      mt.yield %a : f32
    }
    %o = mb.output_saver %t omap = [0, -1, -1] : tensor<4x16xf32> -> tensor<8x16xf32>
    mb.return %o : tensor<8x16xf32>
  } : (tensor<8x64xf16>) -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// -----

func.func @T4_non_mt_op_in_body(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc:2 = mb.for_loop -> (tensor<4x16xf16>, tensor<4x1xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      %r = mb.accum_rms_last %xt eps = 0.0 : tensor<4x16xf16> -> tensor<4x1xf16>
      mb.yield %s, %r : tensor<4x16xf16>, tensor<4x1xf16>
    }
    %t = mt.thread_graph (%acc#0, %acc#1) : (tensor<4x16xf16>, tensor<4x1xf16>) -> tensor<4x16xf16> {
    ^bb0(%a: f16, %b: f16):
      // expected-error @+1 {{'arith.addf' op [T4] is not an mt element-wise op; only mt element-wise ops may appear in a thread graph}}
      %c = arith.addf %a, %b : f16
      mt.yield %c : f16
    }
    %o = mb.output_saver %t omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @T4_yield_count_differs_from_results(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc:2 = mb.for_loop -> (tensor<4x16xf16>, tensor<4x1xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      %r = mb.accum_rms_last %xt eps = 0.0 : tensor<4x16xf16> -> tensor<4x1xf16>
      mb.yield %s, %r : tensor<4x16xf16>, tensor<4x1xf16>
    }
    %t = mt.thread_graph (%acc#0, %acc#1) : (tensor<4x16xf16>, tensor<4x1xf16>) -> tensor<4x16xf16> {
    ^bb0(%a: f16, %b: f16):
      // expected-error @+1 {{'mt.yield' op [T4] yields 2 values for 1 results}}
      mt.yield %a, %b : f16, f16
    }
    %o = mb.output_saver %t omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @T4_yield_type_is_not_the_result_element_type(%x: tensor<8x64xf16>, %z: tensor<8x64xf32>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x, %z) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>, %Z: tensor<8x64xf32>):
    %acc:2 = mb.for_loop -> (tensor<4x16xf16>, tensor<4x16xf32>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %zt = mb.input_iter %Z imap = [0, -1, -1] fmap = 1 : tensor<8x64xf32> -> tensor<4x16xf32>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      %w = mb.accum_sum %zt : tensor<4x16xf32> -> tensor<4x16xf32>
      mb.yield %s, %w : tensor<4x16xf16>, tensor<4x16xf32>
    }
    %t = mt.thread_graph (%acc#0, %acc#1) : (tensor<4x16xf16>, tensor<4x16xf32>) -> tensor<4x16xf16> {
    ^bb0(%a: f16, %b: f32):
      // expected-error @+1 {{'mt.yield' op [T4] yields 'f32' for a result of type 'tensor<4x16xf16>'}}
      mt.yield %b : f32
    }
    %o = mb.output_saver %t omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>, tensor<8x64xf32>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @T4_body_does_not_end_in_mt_yield(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc:2 = mb.for_loop -> (tensor<4x16xf16>, tensor<4x1xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      %r = mb.accum_rms_last %xt eps = 0.0 : tensor<4x16xf16> -> tensor<4x1xf16>
      mb.yield %s, %r : tensor<4x16xf16>, tensor<4x1xf16>
    }
    // expected-error @+1 {{'mt.thread_graph' op [T4] body must end in mt.yield}}
    %t = mt.thread_graph (%acc#0) : (tensor<4x16xf16>) -> tensor<4x16xf16> {
    ^bb0(%a: f16):
      llvm.unreachable
    }
    %o = mb.output_saver %t omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

//===----------------------------------------------------------------------===//
// [T5] mt ops outside a thread graph (but inside a kernel)
//===----------------------------------------------------------------------===//

// -----

func.func @T5_scalar_op_in_a_loop_body(%x: tensor<8x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %c = arith.constant 1.0 : f16
      // expected-error @+1 {{'mt.exp' op [T5] must be directly in the body of an mt.thread_graph}}
      %e = mt.exp %c : f16
      %s = mb.accum_sum %xt : tensor<4x16xf16> -> tensor<4x16xf16>
      mb.yield %s : tensor<4x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// -----

func.func @T5_yield_terminating_a_loop_body(%x: tensor<8x64xf16>) {
  mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>):
    mb.for_loop {
      // expected-error @+1 {{'mt.yield' op [T5] must be directly in the body of an mt.thread_graph}}
      mt.yield
    }
    mb.return
  } : (tensor<8x64xf16>) -> ()
  return
}
