// RUN: mirage-opt %s --mirage-form-thread-graphs -split-input-file | FileCheck %s
// RUN: mirage-opt %s --mirage-form-thread-graphs --mirage-form-thread-graphs -split-input-file | FileCheck %s --check-prefix=TWICE
// RUN: mirage-opt %s --mirage-form-thread-graphs="min-ops=1" -split-input-file | FileCheck %s --check-prefix=MIN1

// A chain in the loop body and a chain after the loop, each fused into one
// thread graph; the matmul between them stays a block-level op.

// CHECK-LABEL: func.func @chains
// TWICE-LABEL: func.func @chains
// MIN1-LABEL: func.func @chains
func.func @chains(%x: tensor<2x4096xf16>, %w: tensor<4096x6144xf16>) -> tensor<2x6144xf16> {
  %y:2 = mk.graph_kernel (%x, %w) grid = [256, 1, 1] block = [128, 1, 1] forloop = 32 {
  ^bb0(%X: tensor<2x4096xf16>, %W: tensor<4096x6144xf16>):
    %acc:2 = mb.for_loop -> (tensor<2x1xf16>, tensor<2x24xf16>) {
      // CHECK: %[[XT:.*]] = mb.input_iter
      // CHECK: %[[WT:.*]] = mb.input_iter
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<2x4096xf16> -> tensor<2x128xf16>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0 : tensor<4096x6144xf16> -> tensor<128x24xf16>
      // CHECK: %[[E:.*]] = mt.thread_graph(%[[XT]]) : (tensor<2x128xf16>) -> tensor<2x128xf16> {
      // CHECK-NEXT: ^bb0(%[[A:.*]]: f16):
      // CHECK-NEXT:   %[[EXP:.*]] = mt.exp %[[A]] : f16
      // CHECK-NEXT:   %[[NEG:.*]] = mt.neg %[[EXP]] : f16
      // CHECK-NEXT:   mt.yield %[[NEG]] : f16
      %e = mb.exp %xt : tensor<2x128xf16>
      %n = mb.neg %e : tensor<2x128xf16>
      // CHECK: %[[M:.*]] = mb.matmul %[[E]], %[[WT]]
      %m = mb.matmul %n, %wt : tensor<2x128xf16>, tensor<128x24xf16> -> tensor<2x24xf16>
      // CHECK: %[[S:.*]] = mt.thread_graph(%[[M]])
      // CHECK:   mt.silu
      // CHECK:   mt.mul
      %s1 = mb.silu %m : tensor<2x24xf16>
      %s2 = mb.mul %s1, %m : tensor<2x24xf16>, tensor<2x24xf16> -> tensor<2x24xf16>
      // CHECK: mb.accum_rms_last %[[XT]]
      // CHECK: mb.accum_sum %[[S]]
      %r = mb.accum_rms_last %xt eps = 1.0e-06 : tensor<2x128xf16> -> tensor<2x1xf16>
      %s = mb.accum_sum %s2 : tensor<2x24xf16> -> tensor<2x24xf16>
      mb.yield %r, %s : tensor<2x1xf16>, tensor<2x24xf16>
    }
    // The 2x1 operand broadcasts into the 2x24 thread graph; the value used
    // by two savers becomes a second result.
    // CHECK: %[[T:.*]]:2 = mt.thread_graph(%{{.*}}#1, %{{.*}}#0) : (tensor<2x24xf16>, tensor<2x1xf16>) -> (tensor<2x24xf16>, tensor<2x24xf16>)
    // CHECK:   %[[D:.*]] = mt.div
    // CHECK:   %[[C:.*]] = mt.clamp %[[D]] min = -1.000000e+00 max = 2.000000e+00 : f16
    // CHECK:   %[[P:.*]] = mt.add_scalar %[[C]], 3.000000e+00 : f16
    // CHECK:   mt.yield %[[C]], %[[P]] : f16, f16
    // CHECK: mb.output_saver %[[T]]#1
    // CHECK: mb.output_saver %[[T]]#0
    // TWICE-COUNT-3: mt.thread_graph
    // TWICE-NOT: mt.thread_graph
    %q = mb.div %acc#1, %acc#0 : tensor<2x24xf16>, tensor<2x1xf16> -> tensor<2x24xf16>
    %c = mb.clamp %q min = -1.0 max = 2.0 : tensor<2x24xf16>
    %d = mb.add_scalar %c, 3.0 : tensor<2x24xf16>
    %o = mb.output_saver %d omap = [1, -1, -1] : tensor<2x24xf16> -> tensor<2x6144xf16>
    %o2 = mb.output_saver %c omap = [1, -1, -1] : tensor<2x24xf16> -> tensor<2x6144xf16>
    mb.return %o, %o2 : tensor<2x6144xf16>, tensor<2x6144xf16>
  } : (tensor<2x4096xf16>, tensor<4096x6144xf16>) -> (tensor<2x6144xf16>, tensor<2x6144xf16>)
  return %y#0 : tensor<2x6144xf16>
}

// -----

// exp feeds both the reduction and the division that consumes the
// reduction: fusing exp with div would need the reduction inside the thread
// graph (a cycle), so exp stays alone and div fuses with its successor.

// CHECK-LABEL: func.func @convex
// MIN1-LABEL: func.func @convex
// TWICE-LABEL: func.func @convex
func.func @convex(%x: tensor<2x256xf16>) -> tensor<2x256xf16> {
  %y = mk.graph_kernel (%x) grid = [2, 1, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<2x256xf16>):
    %acc = mb.for_loop -> (tensor<1x256xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = -1 : tensor<2x256xf16> -> tensor<1x256xf16>
      // CHECK: %[[E:.*]] = mb.exp
      // CHECK: %[[R:.*]] = mb.reduce_sum %[[E]]
      // CHECK: mt.thread_graph(%[[E]], %[[R]]) : (tensor<1x256xf16>, tensor<1x1xf16>) -> tensor<1x256xf16>
      // CHECK:   mt.div
      // CHECK:   mt.neg
      // MIN1: mt.thread_graph
      // MIN1:   mt.exp
      // MIN1: mb.reduce_sum
      // MIN1: mt.thread_graph
      // MIN1:   mt.div
      // MIN1:   mt.neg
      %e = mb.exp %xt : tensor<1x256xf16>
      %r = mb.reduce_sum %e dim = 1 : tensor<1x256xf16> -> tensor<1x1xf16>
      %d = mb.div %e, %r : tensor<1x256xf16>, tensor<1x1xf16> -> tensor<1x256xf16>
      %n = mb.neg %d : tensor<1x256xf16>
      %s = mb.accum_sum %n : tensor<1x256xf16> -> tensor<1x256xf16>
      mb.yield %s : tensor<1x256xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<1x256xf16> -> tensor<2x256xf16>
    mb.return %o : tensor<2x256xf16>
  } : (tensor<2x256xf16>) -> tensor<2x256xf16>
  return %y : tensor<2x256xf16>
}

// -----

// Element-wise ops of different result shapes are not fused together, and a
// lone element-wise op is left alone unless min-ops=1.

// CHECK-LABEL: func.func @shapes
// MIN1-LABEL: func.func @shapes
func.func @shapes(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %y = mk.graph_kernel (%x) grid = [4, 1, 1] block = [32, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x64xf32>):
    %acc = mb.for_loop -> (tensor<1x32xf32>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<4x64xf32> -> tensor<1x32xf32>
      // CHECK-NOT: mt.thread_graph
      // CHECK: mb.reduce_max
      // CHECK: mb.sqrt
      // CHECK: mb.sub
      // MIN1-COUNT-2: mt.thread_graph
      %m = mb.reduce_max %xt dim = 1 : tensor<1x32xf32> -> tensor<1x1xf32>
      %q = mb.sqrt %m : tensor<1x1xf32>
      %d = mb.sub %xt, %q : tensor<1x32xf32>, tensor<1x1xf32> -> tensor<1x32xf32>
      %s = mb.accum_max %d : tensor<1x32xf32> -> tensor<1x32xf32>
      mb.yield %s : tensor<1x32xf32>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<1x32xf32> -> tensor<4x32xf32>
    mb.return %o : tensor<4x32xf32>
  } : (tensor<4x64xf32>) -> tensor<4x32xf32>
  %z = mk.concat %y, %y dim = 1 : tensor<4x32xf32>, tensor<4x32xf32> -> tensor<4x64xf32>
  return %z : tensor<4x64xf32>
}

// -----

// Two candidate groups that would depend on each other: {exp(p), add} feeds
// the mul of {exp(x), mul}, whose exp feeds the add through a reduction.
// Fusing both would create a cycle between the two thread graphs, so only
// the first is formed.

// CHECK-LABEL: func.func @two_groups
// CHECK: %[[E:.*]] = mb.exp
// CHECK: %[[R:.*]] = mb.reduce_sum %[[E]]
// CHECK: %[[T:.*]]:2 = mt.thread_graph(%{{.*}}, %[[R]])
// CHECK: mb.mul %[[E]], %[[T]]#0
// CHECK-NOT: mt.thread_graph
// MIN1-LABEL: func.func @two_groups
// TWICE-LABEL: func.func @two_groups
func.func @two_groups(%x: tensor<16x64xf32>, %p: tensor<16x1xf32>) -> (tensor<16x1xf32>, tensor<16x64xf32>) {
  %y:2 = mk.graph_kernel (%x, %p) grid = [1, 1, 1] block = [32, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<16x64xf32>, %P: tensor<16x1xf32>):
    %acc:2 = mb.for_loop -> (tensor<16x1xf32>, tensor<16x64xf32>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = -1 : tensor<16x64xf32> -> tensor<16x64xf32>
      %pt = mb.input_iter %P imap = [-1, -1, -1] fmap = -1 : tensor<16x1xf32> -> tensor<16x1xf32>
      %a1 = mb.exp %pt : tensor<16x1xf32>
      %b2 = mb.exp %xt : tensor<16x64xf32>
      %r = mb.reduce_sum %b2 dim = 1 : tensor<16x64xf32> -> tensor<16x1xf32>
      %a2 = mb.add %a1, %r : tensor<16x1xf32>, tensor<16x1xf32> -> tensor<16x1xf32>
      %b1 = mb.mul %b2, %a1 : tensor<16x64xf32>, tensor<16x1xf32> -> tensor<16x64xf32>
      %s1 = mb.accum_sum %a2 : tensor<16x1xf32> -> tensor<16x1xf32>
      %s2 = mb.accum_sum %b1 : tensor<16x64xf32> -> tensor<16x64xf32>
      mb.yield %s1, %s2 : tensor<16x1xf32>, tensor<16x64xf32>
    }
    %o1 = mb.output_saver %acc#0 omap = [-1, -1, -1] : tensor<16x1xf32> -> tensor<16x1xf32>
    %o2 = mb.output_saver %acc#1 omap = [-1, -1, -1] : tensor<16x64xf32> -> tensor<16x64xf32>
    mb.return %o1, %o2 : tensor<16x1xf32>, tensor<16x64xf32>
  } : (tensor<16x64xf32>, tensor<16x1xf32>) -> (tensor<16x1xf32>, tensor<16x64xf32>)
  return %y#0, %y#1 : tensor<16x1xf32>, tensor<16x64xf32>
}

// -----

// Epilogue inputs ([B21]) feed the post-loop chain like accumulator results:
// bias (broadcast over the rows), relu and residual are one thread graph
// reading the loop result and both epilogue tiles.

// CHECK-LABEL: func.func @epilogue_inputs
// CHECK: %[[ACC:.*]] = mb.for_loop
// CHECK: %[[BT:.*]] = mb.input_iter %{{.*}} imap = [1, -1, -1] fmap = -1
// CHECK: %[[RT:.*]] = mb.input_iter %{{.*}} imap = [1, -1, -1] fmap = -1
// CHECK: %[[T:.*]] = mt.thread_graph(%[[ACC]], %[[BT]], %[[RT]]) : (tensor<8x32xf16>, tensor<1x32xf16>, tensor<8x32xf16>) -> tensor<8x32xf16> {
// CHECK:   mt.add
// CHECK:   mt.relu
// CHECK:   mt.add
// CHECK: mb.output_saver %[[T]]
func.func @epilogue_inputs(%h: tensor<8x256xf16>, %w: tensor<256x128xf16>, %b: tensor<1x128xf16>, %r: tensor<8x128xf16>) -> tensor<8x128xf16> {
  %y = mk.graph_kernel (%h, %w, %b, %r) grid = [4, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%H: tensor<8x256xf16>, %W: tensor<256x128xf16>, %B: tensor<1x128xf16>, %R: tensor<8x128xf16>):
    %acc = mb.for_loop -> (tensor<8x32xf16>) {
      %ht = mb.input_iter %H imap = [-1, -1, -1] fmap = 1 : tensor<8x256xf16> -> tensor<8x64xf16>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0 : tensor<256x128xf16> -> tensor<64x32xf16>
      %hw = mb.matmul %ht, %wt : tensor<8x64xf16>, tensor<64x32xf16> -> tensor<8x32xf16>
      %s = mb.accum_sum %hw : tensor<8x32xf16> -> tensor<8x32xf16>
      mb.yield %s : tensor<8x32xf16>
    }
    %bt = mb.input_iter %B imap = [1, -1, -1] fmap = -1 : tensor<1x128xf16> -> tensor<1x32xf16>
    %rt = mb.input_iter %R imap = [1, -1, -1] fmap = -1 : tensor<8x128xf16> -> tensor<8x32xf16>
    %a = mb.add %acc, %bt : tensor<8x32xf16>, tensor<1x32xf16> -> tensor<8x32xf16>
    %x = mb.relu %a : tensor<8x32xf16>
    %sum = mb.add %x, %rt : tensor<8x32xf16>, tensor<8x32xf16> -> tensor<8x32xf16>
    %o = mb.output_saver %sum omap = [1, -1, -1] : tensor<8x32xf16> -> tensor<8x128xf16>
    mb.return %o : tensor<8x128xf16>
  } : (tensor<8x256xf16>, tensor<256x128xf16>, tensor<1x128xf16>, tensor<8x128xf16>) -> tensor<8x128xf16>
  return %y : tensor<8x128xf16>
}
