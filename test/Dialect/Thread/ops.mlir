// RUN: mirage-opt %s | mirage-opt | FileCheck %s
// RUN: mirage-opt %s -mlir-print-op-generic | mirage-opt | FileCheck %s

// Round trip of every mt op, inside valid graph-defined kernels: every scalar
// unary and binary op, thread graphs in a loop body and after the loop, with
// broadcasting inputs and several results, and mt.yield.

// CHECK-LABEL: func.func @scalar_ops(
// CHECK-SAME: [[x:%[0-9a-z_]+]]: tensor<16x64xf16>, [[r:%[0-9a-z_]+]]: tensor<16x1xf16>) -> (tensor<16x16xf16>, tensor<16x16xf16>) {
// CHECK-NEXT: [[y:%[0-9a-z_]+]]:2 = mk.graph_kernel([[x]], [[r]]) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
// CHECK-NEXT: ^bb0([[X:%[0-9a-z_]+]]: tensor<16x64xf16>, [[R:%[0-9a-z_]+]]: tensor<16x1xf16>):
// CHECK-NEXT: [[acc:%[0-9a-z_]+]]:2 = mb.for_loop -> (tensor<8x16xf16>, tensor<8x16xf16>) {
// CHECK-NEXT: [[xt:%[0-9a-z_]+]] = mb.input_iter [[X]] imap = [0, -1, -1] fmap = 1 : tensor<16x64xf16> -> tensor<8x16xf16>
// CHECK-NEXT: [[rt:%[0-9a-z_]+]] = mb.input_iter [[R]] imap = [0, -1, -1] fmap = -1 : tensor<16x1xf16> -> tensor<8x1xf16>
// CHECK-NEXT: [[u:%[0-9a-z_]+]]:2 = mt.thread_graph([[xt]], [[rt]]) : (tensor<8x16xf16>, tensor<8x1xf16>) -> (tensor<8x16xf16>, tensor<8x16xf16>) {
// CHECK-NEXT: ^bb0([[a:%[0-9a-z_]+]]: f16, [[b:%[0-9a-z_]+]]: f16):
// CHECK-NEXT: [[V0:%[0-9a-z_]+]] = mt.exp [[a]] : f16
// CHECK-NEXT: [[V1:%[0-9a-z_]+]] = mt.square [[V0]] : f16
// CHECK-NEXT: [[V2:%[0-9a-z_]+]] = mt.sqrt [[V1]] : f16
// CHECK-NEXT: [[V3:%[0-9a-z_]+]] = mt.rsqrt [[V2]] : f16
// CHECK-NEXT: [[V4:%[0-9a-z_]+]] = mt.silu [[V3]] : f16
// CHECK-NEXT: [[V5:%[0-9a-z_]+]] = mt.gelu [[V4]] : f16
// CHECK-NEXT: [[V6:%[0-9a-z_]+]] = mt.relu [[V5]] : f16
// CHECK-NEXT: [[V7:%[0-9a-z_]+]] = mt.sigmoid [[V6]] : f16
// CHECK-NEXT: [[V8:%[0-9a-z_]+]] = mt.neg [[V7]] : f16
// CHECK-NEXT: [[V9:%[0-9a-z_]+]] = mt.mul_scalar [[V8]], 2.000000e+00 : f16
// CHECK-NEXT: [[V10:%[0-9a-z_]+]] = mt.add_scalar [[V9]], 5.000000e-01 : f16
// CHECK-NEXT: [[V11:%[0-9a-z_]+]] = mt.clamp [[V10]] min = -1.000000e+00 max = 1.000000e+00 : f16
// CHECK-NEXT: [[V12:%[0-9a-z_]+]] = mt.mul [[V11]], [[b]] : f16
// CHECK-NEXT: mt.yield [[V11]], [[V12]] : f16, f16
// CHECK-NEXT: }
// CHECK-NEXT: [[s0:%[0-9a-z_]+]] = mb.accum_sum [[u]]#0 : tensor<8x16xf16> -> tensor<8x16xf16>
// CHECK-NEXT: [[s1:%[0-9a-z_]+]] = mb.accum_max [[u]]#1 : tensor<8x16xf16> -> tensor<8x16xf16>
// CHECK-NEXT: mb.yield [[s0]], [[s1]] : tensor<8x16xf16>, tensor<8x16xf16>
// CHECK-NEXT: }
// CHECK-NEXT: [[v:%[0-9a-z_]+]]:2 = mt.thread_graph([[acc]]#0, [[acc]]#1) : (tensor<8x16xf16>, tensor<8x16xf16>) -> (tensor<8x16xf16>, tensor<8x16xf16>) {
// CHECK-NEXT: ^bb0([[a:%[0-9a-z_]+]]: f16, [[b:%[0-9a-z_]+]]: f16):
// CHECK-NEXT: [[V0:%[0-9a-z_]+]] = mt.add [[a]], [[b]] : f16
// CHECK-NEXT: [[V1:%[0-9a-z_]+]] = mt.sub [[V0]], [[b]] : f16
// CHECK-NEXT: [[V2:%[0-9a-z_]+]] = mt.mul [[V1]], [[a]] : f16
// CHECK-NEXT: [[V3:%[0-9a-z_]+]] = mt.div [[V2]], [[b]] : f16
// CHECK-NEXT: [[V4:%[0-9a-z_]+]] = mt.pow [[V3]], [[a]] : f16
// CHECK-NEXT: mt.yield [[V4]], [[V0]] : f16, f16
// CHECK-NEXT: }
// CHECK-NEXT: [[o0:%[0-9a-z_]+]] = mb.output_saver [[v]]#0 omap = [0, -1, -1] : tensor<8x16xf16> -> tensor<16x16xf16>
// CHECK-NEXT: [[o1:%[0-9a-z_]+]] = mb.output_saver [[v]]#1 omap = [0, -1, -1] : tensor<8x16xf16> -> tensor<16x16xf16>
// CHECK-NEXT: mb.return [[o0]], [[o1]] : tensor<16x16xf16>, tensor<16x16xf16>
// CHECK-NEXT: } : (tensor<16x64xf16>, tensor<16x1xf16>) -> (tensor<16x16xf16>, tensor<16x16xf16>)
// CHECK-NEXT: return [[y]]#0, [[y]]#1 : tensor<16x16xf16>, tensor<16x16xf16>
// CHECK-NEXT: }
func.func @scalar_ops(%x: tensor<16x64xf16>, %r: tensor<16x1xf16>) -> (tensor<16x16xf16>, tensor<16x16xf16>) {
  %y:2 = mk.graph_kernel (%x, %r) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<16x64xf16>, %R: tensor<16x1xf16>):
    %acc:2 = mb.for_loop -> (tensor<8x16xf16>, tensor<8x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<16x64xf16> -> tensor<8x16xf16>
      %rt = mb.input_iter %R imap = [0, -1, -1] fmap = -1 : tensor<16x1xf16> -> tensor<8x1xf16>
      // A thread graph in the loop body: broadcast input, two results.
      %u:2 = mt.thread_graph (%xt, %rt) : (tensor<8x16xf16>, tensor<8x1xf16>) -> (tensor<8x16xf16>, tensor<8x16xf16>) {
      ^bb0(%a: f16, %b: f16):
        %0 = mt.exp %a : f16
        %1 = mt.square %0 : f16
        %2 = mt.sqrt %1 : f16
        %3 = mt.rsqrt %2 : f16
        %4 = mt.silu %3 : f16
        %5 = mt.gelu %4 : f16
        %6 = mt.relu %5 : f16
        %7 = mt.sigmoid %6 : f16
        %8 = mt.neg %7 : f16
        %9 = mt.mul_scalar %8, 2.0 : f16
        %10 = mt.add_scalar %9, 0.5 : f16
        %11 = mt.clamp %10 min = -1.0 max = 1.0 : f16
        %12 = mt.mul %11, %b : f16
        mt.yield %11, %12 : f16, f16
      }
      %s0 = mb.accum_sum %u#0 : tensor<8x16xf16> -> tensor<8x16xf16>
      %s1 = mb.accum_max %u#1 : tensor<8x16xf16> -> tensor<8x16xf16>
      mb.yield %s0, %s1 : tensor<8x16xf16>, tensor<8x16xf16>
    }
    // A post-loop thread graph with every binary op.
    %v:2 = mt.thread_graph (%acc#0, %acc#1) : (tensor<8x16xf16>, tensor<8x16xf16>) -> (tensor<8x16xf16>, tensor<8x16xf16>) {
    ^bb0(%a: f16, %b: f16):
      %0 = mt.add %a, %b : f16
      %1 = mt.sub %0, %b : f16
      %2 = mt.mul %1, %a : f16
      %3 = mt.div %2, %b : f16
      %4 = mt.pow %3, %a : f16
      mt.yield %4, %0 : f16, f16
    }
    %o0 = mb.output_saver %v#0 omap = [0, -1, -1] : tensor<8x16xf16> -> tensor<16x16xf16>
    %o1 = mb.output_saver %v#1 omap = [0, -1, -1] : tensor<8x16xf16> -> tensor<16x16xf16>
    mb.return %o0, %o1 : tensor<16x16xf16>, tensor<16x16xf16>
  } : (tensor<16x64xf16>, tensor<16x1xf16>) -> (tensor<16x16xf16>, tensor<16x16xf16>)
  return %y#0, %y#1 : tensor<16x16xf16>, tensor<16x16xf16>
}

// CHECK-LABEL: func.func @broadcast_both_ways(
// CHECK-SAME: [[x:%[0-9a-z_]+]]: tensor<4x1x8xf32>, [[c:%[0-9a-z_]+]]: tensor<1x16x8xbf16>) -> (tensor<4x16x4xf32>, tensor<4x16x4xbf16>) {
// CHECK-NEXT: [[y:%[0-9a-z_]+]]:2 = mk.graph_kernel([[x]], [[c]]) grid = [1, 1, 1] block = [256, 1, 1] forloop = 2 {
// CHECK-NEXT: ^bb0([[X:%[0-9a-z_]+]]: tensor<4x1x8xf32>, [[C:%[0-9a-z_]+]]: tensor<1x16x8xbf16>):
// CHECK-NEXT: [[acc:%[0-9a-z_]+]]:2 = mb.for_loop -> (tensor<4x1x4xf32>, tensor<1x16x4xbf16>) {
// CHECK-NEXT: [[xt:%[0-9a-z_]+]] = mb.input_iter [[X]] imap = [-1, -1, -1] fmap = 2 : tensor<4x1x8xf32> -> tensor<4x1x4xf32>
// CHECK-NEXT: [[ct:%[0-9a-z_]+]] = mb.input_iter [[C]] imap = [-1, -1, -1] fmap = 2 : tensor<1x16x8xbf16> -> tensor<1x16x4xbf16>
// CHECK-NEXT: [[sx:%[0-9a-z_]+]] = mb.accum_sum [[xt]] : tensor<4x1x4xf32> -> tensor<4x1x4xf32>
// CHECK-NEXT: [[sc:%[0-9a-z_]+]] = mb.accum_sum [[ct]] : tensor<1x16x4xbf16> -> tensor<1x16x4xbf16>
// CHECK-NEXT: mb.yield [[sx]], [[sc]] : tensor<4x1x4xf32>, tensor<1x16x4xbf16>
// CHECK-NEXT: }
// CHECK-NEXT: [[v:%[0-9a-z_]+]]:2 = mt.thread_graph([[acc]]#0, [[acc]]#1) : (tensor<4x1x4xf32>, tensor<1x16x4xbf16>) -> (tensor<4x16x4xf32>, tensor<4x16x4xbf16>) {
// CHECK-NEXT: ^bb0([[a:%[0-9a-z_]+]]: f32, [[b:%[0-9a-z_]+]]: bf16):
// CHECK-NEXT: [[V0:%[0-9a-z_]+]] = mt.exp [[a]] : f32
// CHECK-NEXT: [[V1:%[0-9a-z_]+]] = mt.neg [[b]] : bf16
// CHECK-NEXT: mt.yield [[V0]], [[V1]] : f32, bf16
// CHECK-NEXT: }
// CHECK-NEXT: [[o0:%[0-9a-z_]+]] = mb.output_saver [[v]]#0 omap = [-1, -1, -1] : tensor<4x16x4xf32> -> tensor<4x16x4xf32>
// CHECK-NEXT: [[o1:%[0-9a-z_]+]] = mb.output_saver [[v]]#1 omap = [-1, -1, -1] : tensor<4x16x4xbf16> -> tensor<4x16x4xbf16>
// CHECK-NEXT: mb.return [[o0]], [[o1]] : tensor<4x16x4xf32>, tensor<4x16x4xbf16>
// CHECK-NEXT: } : (tensor<4x1x8xf32>, tensor<1x16x8xbf16>) -> (tensor<4x16x4xf32>, tensor<4x16x4xbf16>)
// CHECK-NEXT: return [[y]]#0, [[y]]#1 : tensor<4x16x4xf32>, tensor<4x16x4xbf16>
// CHECK-NEXT: }
func.func @broadcast_both_ways(%x: tensor<4x1x8xf32>, %c: tensor<1x16x8xbf16>) -> (tensor<4x16x4xf32>, tensor<4x16x4xbf16>) {
  %y:2 = mk.graph_kernel (%x, %c) grid = [1, 1, 1] block = [256, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<4x1x8xf32>, %C: tensor<1x16x8xbf16>):
    %acc:2 = mb.for_loop -> (tensor<4x1x4xf32>, tensor<1x16x4xbf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 2 : tensor<4x1x8xf32> -> tensor<4x1x4xf32>
      %ct = mb.input_iter %C imap = [-1, -1, -1] fmap = 2 : tensor<1x16x8xbf16> -> tensor<1x16x4xbf16>
      %sx = mb.accum_sum %xt : tensor<4x1x4xf32> -> tensor<4x1x4xf32>
      %sc = mb.accum_sum %ct : tensor<1x16x4xbf16> -> tensor<1x16x4xbf16>
      mb.yield %sx, %sc : tensor<4x1x4xf32>, tensor<1x16x4xbf16>
    }
    // Both inputs broadcast to the result shape; results of different
    // element types.
    %v:2 = mt.thread_graph (%acc#0, %acc#1) : (tensor<4x1x4xf32>, tensor<1x16x4xbf16>) -> (tensor<4x16x4xf32>, tensor<4x16x4xbf16>) {
    ^bb0(%a: f32, %b: bf16):
      %0 = mt.exp %a : f32
      %1 = mt.neg %b : bf16
      mt.yield %0, %1 : f32, bf16
    }
    %o0 = mb.output_saver %v#0 omap = [-1, -1, -1] : tensor<4x16x4xf32> -> tensor<4x16x4xf32>
    %o1 = mb.output_saver %v#1 omap = [-1, -1, -1] : tensor<4x16x4xbf16> -> tensor<4x16x4xbf16>
    mb.return %o0, %o1 : tensor<4x16x4xf32>, tensor<4x16x4xbf16>
  } : (tensor<4x1x8xf32>, tensor<1x16x8xbf16>) -> (tensor<4x16x4xf32>, tensor<4x16x4xbf16>)
  return %y#0, %y#1 : tensor<4x16x4xf32>, tensor<4x16x4xbf16>
}

// CHECK-LABEL: func.func @issue12_ops(
// CHECK: ^bb0([[a:%[0-9a-z_]+]]: f16, [[b:%[0-9a-z_]+]]: f16):
// CHECK-NEXT: [[V0:%[0-9a-z_]+]] = mt.reciprocal [[a]] : f16
// CHECK-NEXT: [[V1:%[0-9a-z_]+]] = mt.tanh [[V0]] : f16
// CHECK-NEXT: [[V2:%[0-9a-z_]+]] = mt.gelu_erf [[V1]] : f16
// CHECK-NEXT: [[V3:%[0-9a-z_]+]] = mt.max [[V2]], [[b]] : f16
// CHECK-NEXT: [[V4:%[0-9a-z_]+]] = mt.where [[b]], [[V3]] fill = 0xFFF0000000000000 : f16
// CHECK-NEXT: [[V5:%[0-9a-z_]+]] = mt.where [[b]], [[V4]] fill = 0.000000e+00 inverted : f16
// CHECK-NEXT: mt.yield [[V5]] : f16
func.func @issue12_ops(%x: tensor<16x64xf16>, %r: tensor<16x1xf16>) -> tensor<16x16xf16> {
  %y = mk.graph_kernel (%x, %r) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<16x64xf16>, %R: tensor<16x1xf16>):
    %acc = mb.for_loop -> (tensor<8x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<16x64xf16> -> tensor<8x16xf16>
      %rt = mb.input_iter %R imap = [0, -1, -1] fmap = -1 : tensor<16x1xf16> -> tensor<8x1xf16>
      %u = mt.thread_graph (%xt, %rt) : (tensor<8x16xf16>, tensor<8x1xf16>) -> tensor<8x16xf16> {
      ^bb0(%a: f16, %b: f16):
        %0 = mt.reciprocal %a : f16
        %1 = mt.tanh %0 : f16
        %2 = mt.gelu_erf %1 : f16
        %3 = mt.max %2, %b : f16
        %4 = mt.where %b, %3 fill = 0xFFF0000000000000 : f16
        %5 = mt.where %b, %4 fill = 0.0 inverted : f16
        mt.yield %5 : f16
      }
      %s = mb.accum_sum %u : tensor<8x16xf16> -> tensor<8x16xf16>
      mb.yield %s : tensor<8x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<8x16xf16> -> tensor<16x16xf16>
    mb.return %o : tensor<16x16xf16>
  } : (tensor<16x64xf16>, tensor<16x1xf16>) -> tensor<16x16xf16>
  return %y : tensor<16x16xf16>
}
