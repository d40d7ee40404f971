// RUN: mirage-opt %s | mirage-opt | FileCheck %s
// RUN: mirage-opt %s -mlir-print-op-generic | mirage-opt | FileCheck %s

// Round trip of every mb op, inside valid graph-defined kernels: the tile
// ops in a loop body and after the loop, every accumulator, input iterators
// with replicated (-1), partitioned and loop-walked dims, and output savers.

// CHECK-LABEL: func.func @unary_ops(
// CHECK-SAME: [[x:%[0-9a-z_]+]]: tensor<64x32xf16>) -> tensor<64x32xf16> {
// CHECK-NEXT: [[y:%[0-9a-z_]+]] = mk.graph_kernel([[x]]) grid = [4, 1, 1] block = [128, 1, 1] forloop = 2 {
// CHECK-NEXT: ^bb0([[X:%[0-9a-z_]+]]: tensor<64x32xf16>):
// CHECK-NEXT: [[acc:%[0-9a-z_]+]] = mb.for_loop -> (tensor<16x32xf16>) {
// CHECK-NEXT: [[t:%[0-9a-z_]+]] = mb.input_iter [[X]] imap = [0, -1, -1] fmap = -1 : tensor<64x32xf16> -> tensor<16x32xf16>
// CHECK-NEXT: [[V0:%[0-9a-z_]+]] = mb.exp [[t]] : tensor<16x32xf16>
// CHECK-NEXT: [[V1:%[0-9a-z_]+]] = mb.square [[V0]] : tensor<16x32xf16>
// CHECK-NEXT: [[V2:%[0-9a-z_]+]] = mb.sqrt [[V1]] : tensor<16x32xf16>
// CHECK-NEXT: [[V3:%[0-9a-z_]+]] = mb.rsqrt [[V2]] : tensor<16x32xf16>
// CHECK-NEXT: [[V4:%[0-9a-z_]+]] = mb.silu [[V3]] : tensor<16x32xf16>
// CHECK-NEXT: [[V5:%[0-9a-z_]+]] = mb.gelu [[V4]] : tensor<16x32xf16>
// CHECK-NEXT: [[V6:%[0-9a-z_]+]] = mb.relu [[V5]] : tensor<16x32xf16>
// CHECK-NEXT: [[V7:%[0-9a-z_]+]] = mb.sigmoid [[V6]] : tensor<16x32xf16>
// CHECK-NEXT: [[V8:%[0-9a-z_]+]] = mb.neg [[V7]] : tensor<16x32xf16>
// CHECK-NEXT: [[V9:%[0-9a-z_]+]] = mb.mul_scalar [[V8]], 2.000000e+00 : tensor<16x32xf16>
// CHECK-NEXT: [[V10:%[0-9a-z_]+]] = mb.add_scalar [[V9]], 5.000000e-01 : tensor<16x32xf16>
// CHECK-NEXT: [[V11:%[0-9a-z_]+]] = mb.clamp [[V10]] min = -1.000000e+00 max = 1.000000e+00 : tensor<16x32xf16>
// CHECK-NEXT: [[s:%[0-9a-z_]+]] = mb.accum_sum [[V11]] : tensor<16x32xf16> -> tensor<16x32xf16>
// CHECK-NEXT: mb.yield [[s]] : tensor<16x32xf16>
// CHECK-NEXT: }
// CHECK-NEXT: [[o:%[0-9a-z_]+]] = mb.output_saver [[acc]] omap = [0, -1, -1] : tensor<16x32xf16> -> tensor<64x32xf16>
// CHECK-NEXT: mb.return [[o]] : tensor<64x32xf16>
// CHECK-NEXT: } : (tensor<64x32xf16>) -> tensor<64x32xf16>
// CHECK-NEXT: return [[y]] : tensor<64x32xf16>
// CHECK-NEXT: }
func.func @unary_ops(%x: tensor<64x32xf16>) -> tensor<64x32xf16> {
  %y = mk.graph_kernel (%x) grid = [4, 1, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<64x32xf16>):
    %acc = mb.for_loop -> (tensor<16x32xf16>) {
      %t = mb.input_iter %X imap = [0, -1, -1] fmap = -1 : tensor<64x32xf16> -> tensor<16x32xf16>
      %0 = mb.exp %t : tensor<16x32xf16>
      %1 = mb.square %0 : tensor<16x32xf16>
      %2 = mb.sqrt %1 : tensor<16x32xf16>
      %3 = mb.rsqrt %2 : tensor<16x32xf16>
      %4 = mb.silu %3 : tensor<16x32xf16>
      %5 = mb.gelu %4 : tensor<16x32xf16>
      %6 = mb.relu %5 : tensor<16x32xf16>
      %7 = mb.sigmoid %6 : tensor<16x32xf16>
      %8 = mb.neg %7 : tensor<16x32xf16>
      %9 = mb.mul_scalar %8, 2.0 : tensor<16x32xf16>
      %10 = mb.add_scalar %9, 0.5 : tensor<16x32xf16>
      %11 = mb.clamp %10 min = -1.0 max = 1.0 : tensor<16x32xf16>
      %s = mb.accum_sum %11 : tensor<16x32xf16> -> tensor<16x32xf16>
      mb.yield %s : tensor<16x32xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<16x32xf16> -> tensor<64x32xf16>
    mb.return %o : tensor<64x32xf16>
  } : (tensor<64x32xf16>) -> tensor<64x32xf16>
  return %y : tensor<64x32xf16>
}

// CHECK-LABEL: func.func @binary_ops(
// CHECK-SAME: [[x:%[0-9a-z_]+]]: tensor<8x64xf16>, [[r:%[0-9a-z_]+]]: tensor<8x1xf16>, [[c:%[0-9a-z_]+]]: tensor<1x64xf16>) -> tensor<8x16xf16> {
// CHECK-NEXT: [[y:%[0-9a-z_]+]] = mk.graph_kernel([[x]], [[r]], [[c]]) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
// CHECK-NEXT: ^bb0([[X:%[0-9a-z_]+]]: tensor<8x64xf16>, [[R:%[0-9a-z_]+]]: tensor<8x1xf16>, [[C:%[0-9a-z_]+]]: tensor<1x64xf16>):
// CHECK-NEXT: [[acc:%[0-9a-z_]+]] = mb.for_loop -> (tensor<4x16xf16>) {
// CHECK-NEXT: [[xt:%[0-9a-z_]+]] = mb.input_iter [[X]] imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
// CHECK-NEXT: [[rt:%[0-9a-z_]+]] = mb.input_iter [[R]] imap = [0, -1, -1] fmap = -1 : tensor<8x1xf16> -> tensor<4x1xf16>
// CHECK-NEXT: [[ct:%[0-9a-z_]+]] = mb.input_iter [[C]] imap = [-1, -1, -1] fmap = 1 : tensor<1x64xf16> -> tensor<1x16xf16>
// CHECK-NEXT: [[V0:%[0-9a-z_]+]] = mb.add [[xt]], [[rt]] : tensor<4x16xf16>, tensor<4x1xf16> -> tensor<4x16xf16>
// CHECK-NEXT: [[V1:%[0-9a-z_]+]] = mb.sub [[V0]], [[ct]] : tensor<4x16xf16>, tensor<1x16xf16> -> tensor<4x16xf16>
// CHECK-NEXT: [[V2:%[0-9a-z_]+]] = mb.mul [[rt]], [[ct]] : tensor<4x1xf16>, tensor<1x16xf16> -> tensor<4x16xf16>
// CHECK-NEXT: [[V3:%[0-9a-z_]+]] = mb.div [[V1]], [[V2]] : tensor<4x16xf16>, tensor<4x16xf16> -> tensor<4x16xf16>
// CHECK-NEXT: [[V4:%[0-9a-z_]+]] = mb.pow [[V3]], [[rt]] : tensor<4x16xf16>, tensor<4x1xf16> -> tensor<4x16xf16>
// CHECK-NEXT: [[s:%[0-9a-z_]+]] = mb.accum_sum [[V4]] : tensor<4x16xf16> -> tensor<4x16xf16>
// CHECK-NEXT: mb.yield [[s]] : tensor<4x16xf16>
// CHECK-NEXT: }
// CHECK-NEXT: [[o:%[0-9a-z_]+]] = mb.output_saver [[acc]] omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
// CHECK-NEXT: mb.return [[o]] : tensor<8x16xf16>
// CHECK-NEXT: } : (tensor<8x64xf16>, tensor<8x1xf16>, tensor<1x64xf16>) -> tensor<8x16xf16>
// CHECK-NEXT: return [[y]] : tensor<8x16xf16>
// CHECK-NEXT: }
func.func @binary_ops(%x: tensor<8x64xf16>, %r: tensor<8x1xf16>, %c: tensor<1x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x, %r, %c) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>, %R: tensor<8x1xf16>, %C: tensor<1x64xf16>):
    %acc = mb.for_loop -> (tensor<4x16xf16>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<4x16xf16>
      %rt = mb.input_iter %R imap = [0, -1, -1] fmap = -1 : tensor<8x1xf16> -> tensor<4x1xf16>
      %ct = mb.input_iter %C imap = [-1, -1, -1] fmap = 1 : tensor<1x64xf16> -> tensor<1x16xf16>
      %0 = mb.add %xt, %rt : tensor<4x16xf16>, tensor<4x1xf16> -> tensor<4x16xf16>
      %1 = mb.sub %0, %ct : tensor<4x16xf16>, tensor<1x16xf16> -> tensor<4x16xf16>
      %2 = mb.mul %rt, %ct : tensor<4x1xf16>, tensor<1x16xf16> -> tensor<4x16xf16>
      %3 = mb.div %1, %2 : tensor<4x16xf16>, tensor<4x16xf16> -> tensor<4x16xf16>
      %4 = mb.pow %3, %rt : tensor<4x16xf16>, tensor<4x1xf16> -> tensor<4x16xf16>
      %s = mb.accum_sum %4 : tensor<4x16xf16> -> tensor<4x16xf16>
      mb.yield %s : tensor<4x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>, tensor<8x1xf16>, tensor<1x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// CHECK-LABEL: func.func @tensor_ops(
// CHECK-SAME: [[a:%[0-9a-z_]+]]: tensor<2x8x64xbf16>, [[b:%[0-9a-z_]+]]: tensor<2x64x32xbf16>, [[w:%[0-9a-z_]+]]: tensor<32xbf16>) -> tensor<2x16x32xbf16> {
// CHECK-NEXT: [[y:%[0-9a-z_]+]] = mk.graph_kernel([[a]], [[b]], [[w]]) grid = [2, 1, 1] block = [64, 2, 1] forloop = 4 {
// CHECK-NEXT: ^bb0([[A:%[0-9a-z_]+]]: tensor<2x8x64xbf16>, [[B:%[0-9a-z_]+]]: tensor<2x64x32xbf16>, [[W:%[0-9a-z_]+]]: tensor<32xbf16>):
// CHECK-NEXT: [[acc:%[0-9a-z_]+]]:3 = mb.for_loop -> (tensor<1x8x1xbf16>, tensor<1x1x32xbf16>, tensor<1x16x32xbf16>) {
// CHECK-NEXT: [[at:%[0-9a-z_]+]] = mb.input_iter [[A]] imap = [0, -1, -1] fmap = 2 : tensor<2x8x64xbf16> -> tensor<1x8x16xbf16>
// CHECK-NEXT: [[bt:%[0-9a-z_]+]] = mb.input_iter [[B]] imap = [0, -1, -1] fmap = 1 : tensor<2x64x32xbf16> -> tensor<1x16x32xbf16>
// CHECK-NEXT: [[wt:%[0-9a-z_]+]] = mb.input_iter [[W]] imap = [-1, -1, -1] fmap = -1 : tensor<32xbf16> -> tensor<32xbf16>
// CHECK-NEXT: [[m:%[0-9a-z_]+]] = mb.matmul [[at]], [[bt]] : tensor<1x8x16xbf16>, tensor<1x16x32xbf16> -> tensor<1x8x32xbf16>
// CHECK-NEXT: [[rs:%[0-9a-z_]+]] = mb.reduce_sum [[m]] dim = 2 : tensor<1x8x32xbf16> -> tensor<1x8x1xbf16>
// CHECK-NEXT: [[rm:%[0-9a-z_]+]] = mb.reduce_max [[m]] dim = 1 : tensor<1x8x32xbf16> -> tensor<1x1x32xbf16>
// CHECK-NEXT: [[n0:%[0-9a-z_]+]] = mb.rms_norm [[m]] eps = 0.000000e+00 : tensor<1x8x32xbf16>
// CHECK-NEXT: [[n1:%[0-9a-z_]+]] = mb.rms_norm [[m]] weight([[wt]] : tensor<32xbf16>) eps = 1.250000e-01 : tensor<1x8x32xbf16>
// CHECK-NEXT: [[cat:%[0-9a-z_]+]] = mb.concat [[n0]], [[n1]] dim = 1 : tensor<1x8x32xbf16>, tensor<1x8x32xbf16> -> tensor<1x16x32xbf16>
// CHECK-NEXT: [[s0:%[0-9a-z_]+]] = mb.accum_sum [[rs]] : tensor<1x8x1xbf16> -> tensor<1x8x1xbf16>
// CHECK-NEXT: [[s1:%[0-9a-z_]+]] = mb.accum_max [[rm]] : tensor<1x1x32xbf16> -> tensor<1x1x32xbf16>
// CHECK-NEXT: [[s2:%[0-9a-z_]+]] = mb.accum_sum [[cat]] : tensor<1x16x32xbf16> -> tensor<1x16x32xbf16>
// CHECK-NEXT: mb.yield [[s0]], [[s1]], [[s2]] : tensor<1x8x1xbf16>, tensor<1x1x32xbf16>, tensor<1x16x32xbf16>
// CHECK-NEXT: }
// CHECK-NEXT: [[p0:%[0-9a-z_]+]] = mb.add [[acc]]#0, [[acc]]#1 : tensor<1x8x1xbf16>, tensor<1x1x32xbf16> -> tensor<1x8x32xbf16>
// CHECK-NEXT: [[p1:%[0-9a-z_]+]] = mb.concat [[p0]], [[p0]] dim = 1 : tensor<1x8x32xbf16>, tensor<1x8x32xbf16> -> tensor<1x16x32xbf16>
// CHECK-NEXT: [[p2:%[0-9a-z_]+]] = mb.sub [[acc]]#2, [[p1]] : tensor<1x16x32xbf16>, tensor<1x16x32xbf16> -> tensor<1x16x32xbf16>
// CHECK-NEXT: [[o:%[0-9a-z_]+]] = mb.output_saver [[p2]] omap = [0, -1, -1] : tensor<1x16x32xbf16> -> tensor<2x16x32xbf16>
// CHECK-NEXT: mb.return [[o]] : tensor<2x16x32xbf16>
// CHECK-NEXT: } : (tensor<2x8x64xbf16>, tensor<2x64x32xbf16>, tensor<32xbf16>) -> tensor<2x16x32xbf16>
// CHECK-NEXT: return [[y]] : tensor<2x16x32xbf16>
// CHECK-NEXT: }
func.func @tensor_ops(%a: tensor<2x8x64xbf16>, %b: tensor<2x64x32xbf16>, %w: tensor<32xbf16>) -> tensor<2x16x32xbf16> {
  %y = mk.graph_kernel (%a, %b, %w) grid = [2, 1, 1] block = [64, 2, 1] forloop = 4 {
  ^bb0(%A: tensor<2x8x64xbf16>, %B: tensor<2x64x32xbf16>, %W: tensor<32xbf16>):
    %acc:3 = mb.for_loop -> (tensor<1x8x1xbf16>, tensor<1x1x32xbf16>, tensor<1x16x32xbf16>) {
      %at = mb.input_iter %A imap = [0, -1, -1] fmap = 2 : tensor<2x8x64xbf16> -> tensor<1x8x16xbf16>
      %bt = mb.input_iter %B imap = [0, -1, -1] fmap = 1 : tensor<2x64x32xbf16> -> tensor<1x16x32xbf16>
      %wt = mb.input_iter %W imap = [-1, -1, -1] fmap = -1 : tensor<32xbf16> -> tensor<32xbf16>
      %m = mb.matmul %at, %bt : tensor<1x8x16xbf16>, tensor<1x16x32xbf16> -> tensor<1x8x32xbf16>
      %rs = mb.reduce_sum %m dim = 2 : tensor<1x8x32xbf16> -> tensor<1x8x1xbf16>
      %rm = mb.reduce_max %m dim = 1 : tensor<1x8x32xbf16> -> tensor<1x1x32xbf16>
      %n0 = mb.rms_norm %m eps = 0.0 : tensor<1x8x32xbf16>
      %n1 = mb.rms_norm %m weight(%wt : tensor<32xbf16>) eps = 1.250000e-01 : tensor<1x8x32xbf16>
      %cat = mb.concat %n0, %n1 dim = 1 : tensor<1x8x32xbf16>, tensor<1x8x32xbf16> -> tensor<1x16x32xbf16>
      %s0 = mb.accum_sum %rs : tensor<1x8x1xbf16> -> tensor<1x8x1xbf16>
      %s1 = mb.accum_max %rm : tensor<1x1x32xbf16> -> tensor<1x1x32xbf16>
      %s2 = mb.accum_sum %cat : tensor<1x16x32xbf16> -> tensor<1x16x32xbf16>
      mb.yield %s0, %s1, %s2 : tensor<1x8x1xbf16>, tensor<1x1x32xbf16>, tensor<1x16x32xbf16>
    }
    %p0 = mb.add %acc#0, %acc#1 : tensor<1x8x1xbf16>, tensor<1x1x32xbf16> -> tensor<1x8x32xbf16>
    %p1 = mb.concat %p0, %p0 dim = 1 : tensor<1x8x32xbf16>, tensor<1x8x32xbf16> -> tensor<1x16x32xbf16>
    %p2 = mb.sub %acc#2, %p1 : tensor<1x16x32xbf16>, tensor<1x16x32xbf16> -> tensor<1x16x32xbf16>
    %o = mb.output_saver %p2 omap = [0, -1, -1] : tensor<1x16x32xbf16> -> tensor<2x16x32xbf16>
    mb.return %o : tensor<2x16x32xbf16>
  } : (tensor<2x8x64xbf16>, tensor<2x64x32xbf16>, tensor<32xbf16>) -> tensor<2x16x32xbf16>
  return %y : tensor<2x16x32xbf16>
}

// CHECK-LABEL: func.func @iterators_and_savers(
// CHECK-SAME: [[x:%[0-9a-z_]+]]: tensor<8x16x32xf16>) -> (tensor<8x16x16xf16>, tensor<32x8x32xf16>, tensor<8x16x32xf16>) {
// CHECK-NEXT: [[y:%[0-9a-z_]+]]:3 = mk.graph_kernel([[x]]) grid = [2, 4, 1] block = [32, 1, 1] forloop = 2 {
// CHECK-NEXT: ^bb0([[X:%[0-9a-z_]+]]: tensor<8x16x32xf16>):
// CHECK-NEXT: [[acc:%[0-9a-z_]+]]:3 = mb.for_loop -> (tensor<4x16x4xf16>, tensor<8x4x32xf16>, tensor<2x16x16xf16>) {
// CHECK-NEXT: [[a:%[0-9a-z_]+]] = mb.input_iter [[X]] imap = [0, 2, -1] fmap = 2 : tensor<8x16x32xf16> -> tensor<4x16x4xf16>
// CHECK-NEXT: [[b:%[0-9a-z_]+]] = mb.input_iter [[X]] imap = [-1, -1, -1] fmap = 1 : tensor<8x16x32xf16> -> tensor<8x8x32xf16>
// CHECK-NEXT: [[c:%[0-9a-z_]+]] = mb.input_iter [[X]] imap = [2, 0, -1] fmap = -1 : tensor<8x16x32xf16> -> tensor<2x16x16xf16>
// CHECK-NEXT: [[br:%[0-9a-z_]+]] = mb.reduce_sum [[b]] dim = 1 : tensor<8x8x32xf16> -> tensor<8x1x32xf16>
// CHECK-NEXT: [[bc:%[0-9a-z_]+]] = mb.concat [[br]], [[br]], [[br]], [[br]] dim = 1 : tensor<8x1x32xf16>, tensor<8x1x32xf16>, tensor<8x1x32xf16>, tensor<8x1x32xf16> -> tensor<8x4x32xf16>
// CHECK-NEXT: [[sa:%[0-9a-z_]+]] = mb.accum_sum [[a]] : tensor<4x16x4xf16> -> tensor<4x16x4xf16>
// CHECK-NEXT: [[sb:%[0-9a-z_]+]] = mb.accum_sum [[bc]] : tensor<8x4x32xf16> -> tensor<8x4x32xf16>
// CHECK-NEXT: [[sc:%[0-9a-z_]+]] = mb.accum_max [[c]] : tensor<2x16x16xf16> -> tensor<2x16x16xf16>
// CHECK-NEXT: mb.yield [[sa]], [[sb]], [[sc]] : tensor<4x16x4xf16>, tensor<8x4x32xf16>, tensor<2x16x16xf16>
// CHECK-NEXT: }
// CHECK-NEXT: [[oa:%[0-9a-z_]+]] = mb.output_saver [[acc]]#0 omap = [0, 2, 1] : tensor<4x16x4xf16> -> tensor<8x16x16xf16>
// CHECK-NEXT: [[ob:%[0-9a-z_]+]] = mb.output_saver [[acc]]#1 omap = [1, 0, -1] : tensor<8x4x32xf16> -> tensor<32x8x32xf16>
// CHECK-NEXT: [[oc:%[0-9a-z_]+]] = mb.output_saver [[acc]]#2 omap = [2, 0, -1] : tensor<2x16x16xf16> -> tensor<8x16x32xf16>
// CHECK-NEXT: mb.return [[oa]], [[ob]], [[oc]] : tensor<8x16x16xf16>, tensor<32x8x32xf16>, tensor<8x16x32xf16>
// CHECK-NEXT: } : (tensor<8x16x32xf16>) -> (tensor<8x16x16xf16>, tensor<32x8x32xf16>, tensor<8x16x32xf16>)
// CHECK-NEXT: return [[y]]#0, [[y]]#1, [[y]]#2 : tensor<8x16x16xf16>, tensor<32x8x32xf16>, tensor<8x16x32xf16>
// CHECK-NEXT: }
func.func @iterators_and_savers(%x: tensor<8x16x32xf16>) -> (tensor<8x16x16xf16>, tensor<32x8x32xf16>, tensor<8x16x32xf16>) {
  %y:3 = mk.graph_kernel (%x) grid = [2, 4, 1] block = [32, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<8x16x32xf16>):
    %acc:3 = mb.for_loop -> (tensor<4x16x4xf16>, tensor<8x4x32xf16>, tensor<2x16x16xf16>) {
      // Dim 2 is split by grid dim y and then walked by the loop.
      %a = mb.input_iter %X imap = [0, 2, -1] fmap = 2 : tensor<8x16x32xf16> -> tensor<4x16x4xf16>
      %b = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x16x32xf16> -> tensor<8x8x32xf16>
      %c = mb.input_iter %X imap = [2, 0, -1] fmap = -1 : tensor<8x16x32xf16> -> tensor<2x16x16xf16>
      %br = mb.reduce_sum %b dim = 1 : tensor<8x8x32xf16> -> tensor<8x1x32xf16>
      %bc = mb.concat %br, %br, %br, %br dim = 1 : tensor<8x1x32xf16>, tensor<8x1x32xf16>, tensor<8x1x32xf16>, tensor<8x1x32xf16> -> tensor<8x4x32xf16>
      %sa = mb.accum_sum %a : tensor<4x16x4xf16> -> tensor<4x16x4xf16>
      %sb = mb.accum_sum %bc : tensor<8x4x32xf16> -> tensor<8x4x32xf16>
      %sc = mb.accum_max %c : tensor<2x16x16xf16> -> tensor<2x16x16xf16>
      mb.yield %sa, %sb, %sc : tensor<4x16x4xf16>, tensor<8x4x32xf16>, tensor<2x16x16xf16>
    }
    %oa = mb.output_saver %acc#0 omap = [0, 2, 1] : tensor<4x16x4xf16> -> tensor<8x16x16xf16>
    %ob = mb.output_saver %acc#1 omap = [1, 0, -1] : tensor<8x4x32xf16> -> tensor<32x8x32xf16>
    %oc = mb.output_saver %acc#2 omap = [2, 0, -1] : tensor<2x16x16xf16> -> tensor<8x16x32xf16>
    mb.return %oa, %ob, %oc : tensor<8x16x16xf16>, tensor<32x8x32xf16>, tensor<8x16x32xf16>
  } : (tensor<8x16x32xf16>) -> (tensor<8x16x16xf16>, tensor<32x8x32xf16>, tensor<8x16x32xf16>)
  return %y#0, %y#1, %y#2 : tensor<8x16x16xf16>, tensor<32x8x32xf16>, tensor<8x16x32xf16>
}

// CHECK-LABEL: func.func @accumulators(
// CHECK-SAME: [[x:%[0-9a-z_]+]]: tensor<4x64xf32>) -> (tensor<4x16xf32>, tensor<4x4xf32>) {
// CHECK-NEXT: [[y:%[0-9a-z_]+]]:2 = mk.graph_kernel([[x]]) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
// CHECK-NEXT: ^bb0([[X:%[0-9a-z_]+]]: tensor<4x64xf32>):
// CHECK-NEXT: [[acc:%[0-9a-z_]+]]:7 = mb.for_loop -> (tensor<4x16xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x4xf32>, tensor<4x1xf32>, tensor<4x16xf32>) {
// CHECK-NEXT: [[xt:%[0-9a-z_]+]] = mb.input_iter [[X]] imap = [-1, -1, -1] fmap = 1 : tensor<4x64xf32> -> tensor<4x16xf32>
// CHECK-NEXT: [[m:%[0-9a-z_]+]] = mb.reduce_max [[xt]] dim = 1 : tensor<4x16xf32> -> tensor<4x1xf32>
// CHECK-NEXT: [[a0:%[0-9a-z_]+]] = mb.accum_sum [[xt]] : tensor<4x16xf32> -> tensor<4x16xf32>
// CHECK-NEXT: [[a1:%[0-9a-z_]+]] = mb.accum_sum_last [[xt]] : tensor<4x16xf32> -> tensor<4x1xf32>
// CHECK-NEXT: [[a2:%[0-9a-z_]+]] = mb.accum_mean_last [[xt]] : tensor<4x16xf32> -> tensor<4x1xf32>
// CHECK-NEXT: [[a3:%[0-9a-z_]+]] = mb.accum_rms_last [[xt]] eps = 5.000000e-01 : tensor<4x16xf32> -> tensor<4x1xf32>
// CHECK-NEXT: [[a4:%[0-9a-z_]+]] = mb.accum_sum_to [[xt]] dimx = 4 : tensor<4x16xf32> -> tensor<4x4xf32>
// CHECK-NEXT: [[a5:%[0-9a-z_]+]] = mb.accum_max [[m]] : tensor<4x1xf32> -> tensor<4x1xf32>
// CHECK-NEXT: [[a6:%[0-9a-z_]+]] = mb.accum_rescaled_sum [[xt]], [[m]] : tensor<4x16xf32>, tensor<4x1xf32> -> tensor<4x16xf32>
// CHECK-NEXT: mb.yield [[a0]], [[a1]], [[a2]], [[a3]], [[a4]], [[a5]], [[a6]] : tensor<4x16xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x4xf32>, tensor<4x1xf32>, tensor<4x16xf32>
// CHECK-NEXT: }
// CHECK-NEXT: [[p0:%[0-9a-z_]+]] = mb.add [[acc]]#1, [[acc]]#2 : tensor<4x1xf32>, tensor<4x1xf32> -> tensor<4x1xf32>
// CHECK-NEXT: [[p1:%[0-9a-z_]+]] = mb.mul [[p0]], [[acc]]#3 : tensor<4x1xf32>, tensor<4x1xf32> -> tensor<4x1xf32>
// CHECK-NEXT: [[p2:%[0-9a-z_]+]] = mb.div [[acc]]#6, [[acc]]#5 : tensor<4x16xf32>, tensor<4x1xf32> -> tensor<4x16xf32>
// CHECK-NEXT: [[p3:%[0-9a-z_]+]] = mb.sub [[p2]], [[acc]]#0 : tensor<4x16xf32>, tensor<4x16xf32> -> tensor<4x16xf32>
// CHECK-NEXT: [[p4:%[0-9a-z_]+]] = mb.add [[p3]], [[p1]] : tensor<4x16xf32>, tensor<4x1xf32> -> tensor<4x16xf32>
// CHECK-NEXT: [[o0:%[0-9a-z_]+]] = mb.output_saver [[p4]] omap = [-1, -1, -1] : tensor<4x16xf32> -> tensor<4x16xf32>
// CHECK-NEXT: [[o1:%[0-9a-z_]+]] = mb.output_saver [[acc]]#4 omap = [-1, -1, -1] : tensor<4x4xf32> -> tensor<4x4xf32>
// CHECK-NEXT: mb.return [[o0]], [[o1]] : tensor<4x16xf32>, tensor<4x4xf32>
// CHECK-NEXT: } : (tensor<4x64xf32>) -> (tensor<4x16xf32>, tensor<4x4xf32>)
// CHECK-NEXT: return [[y]]#0, [[y]]#1 : tensor<4x16xf32>, tensor<4x4xf32>
// CHECK-NEXT: }
func.func @accumulators(%x: tensor<4x64xf32>) -> (tensor<4x16xf32>, tensor<4x4xf32>) {
  %y:2 = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<4x64xf32>):
    %acc:7 = mb.for_loop -> (tensor<4x16xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x4xf32>, tensor<4x1xf32>, tensor<4x16xf32>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<4x64xf32> -> tensor<4x16xf32>
      %m = mb.reduce_max %xt dim = 1 : tensor<4x16xf32> -> tensor<4x1xf32>
      %a0 = mb.accum_sum %xt : tensor<4x16xf32> -> tensor<4x16xf32>
      %a1 = mb.accum_sum_last %xt : tensor<4x16xf32> -> tensor<4x1xf32>
      %a2 = mb.accum_mean_last %xt : tensor<4x16xf32> -> tensor<4x1xf32>
      %a3 = mb.accum_rms_last %xt eps = 5.000000e-01 : tensor<4x16xf32> -> tensor<4x1xf32>
      %a4 = mb.accum_sum_to %xt dimx = 4 : tensor<4x16xf32> -> tensor<4x4xf32>
      %a5 = mb.accum_max %m : tensor<4x1xf32> -> tensor<4x1xf32>
      %a6 = mb.accum_rescaled_sum %xt, %m : tensor<4x16xf32>, tensor<4x1xf32> -> tensor<4x16xf32>
      mb.yield %a0, %a1, %a2, %a3, %a4, %a5, %a6 : tensor<4x16xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<4x4xf32>, tensor<4x1xf32>, tensor<4x16xf32>
    }
    %p0 = mb.add %acc#1, %acc#2 : tensor<4x1xf32>, tensor<4x1xf32> -> tensor<4x1xf32>
    %p1 = mb.mul %p0, %acc#3 : tensor<4x1xf32>, tensor<4x1xf32> -> tensor<4x1xf32>
    %p2 = mb.div %acc#6, %acc#5 : tensor<4x16xf32>, tensor<4x1xf32> -> tensor<4x16xf32>
    %p3 = mb.sub %p2, %acc#0 : tensor<4x16xf32>, tensor<4x16xf32> -> tensor<4x16xf32>
    %p4 = mb.add %p3, %p1 : tensor<4x16xf32>, tensor<4x1xf32> -> tensor<4x16xf32>
    %o0 = mb.output_saver %p4 omap = [-1, -1, -1] : tensor<4x16xf32> -> tensor<4x16xf32>
    %o1 = mb.output_saver %acc#4 omap = [-1, -1, -1] : tensor<4x4xf32> -> tensor<4x4xf32>
    mb.return %o0, %o1 : tensor<4x16xf32>, tensor<4x4xf32>
  } : (tensor<4x64xf32>) -> (tensor<4x16xf32>, tensor<4x4xf32>)
  return %y#0, %y#1 : tensor<4x16xf32>, tensor<4x4xf32>
}

// CHECK-LABEL: func.func @issue12_ops(
// CHECK: [[xt:%[0-9a-z_]+]] = mb.input_iter
// CHECK-NEXT: [[rt:%[0-9a-z_]+]] = mb.input_iter
// CHECK-NEXT: [[V0:%[0-9a-z_]+]] = mb.reciprocal [[xt]] : tensor<4x16xf32>
// CHECK-NEXT: [[V1:%[0-9a-z_]+]] = mb.tanh [[V0]] : tensor<4x16xf32>
// CHECK-NEXT: [[V2:%[0-9a-z_]+]] = mb.gelu_erf [[V1]] : tensor<4x16xf32>
// CHECK-NEXT: [[V3:%[0-9a-z_]+]] = mb.max [[V2]], [[rt]] : tensor<4x16xf32>, tensor<4x1xf32> -> tensor<4x16xf32>
// CHECK-NEXT: mb.accum_max [[V3]]
func.func @issue12_ops(%x: tensor<8x64xf32>, %r: tensor<8x1xf32>) -> tensor<8x16xf32> {
  %y = mk.graph_kernel (%x, %r) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf32>, %R: tensor<8x1xf32>):
    %acc = mb.for_loop -> (tensor<4x16xf32>) {
      %xt = mb.input_iter %X imap = [0, -1, -1] fmap = 1 : tensor<8x64xf32> -> tensor<4x16xf32>
      %rt = mb.input_iter %R imap = [0, -1, -1] fmap = -1 : tensor<8x1xf32> -> tensor<4x1xf32>
      %0 = mb.reciprocal %xt : tensor<4x16xf32>
      %1 = mb.tanh %0 : tensor<4x16xf32>
      %2 = mb.gelu_erf %1 : tensor<4x16xf32>
      %3 = mb.max %2, %rt : tensor<4x16xf32>, tensor<4x1xf32> -> tensor<4x16xf32>
      %s = mb.accum_max %3 : tensor<4x16xf32> -> tensor<4x16xf32>
      mb.yield %s : tensor<4x16xf32>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<4x16xf32> -> tensor<8x16xf32>
    mb.return %o : tensor<8x16xf32>
  } : (tensor<8x64xf32>, tensor<8x1xf32>) -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}

// Mixed precision: a bf16 tile converted to f32 after loading, a bf16
// matmul writing its f32 accumulator, a conversion in a thread graph, the
// result rounded to bf16 before it is saved.
// CHECK-LABEL: func.func @mixed_precision
// CHECK: mb.convert %{{.*}} : tensor<8x16xbf16> -> tensor<8x16xf32>
// CHECK: mb.matmul %{{.*}}, %{{.*}} : tensor<8x16xbf16>, tensor<16x8xbf16> -> tensor<8x8xf32>
// CHECK: mt.convert %{{.*}} : f32 -> bf16
// CHECK: mb.convert %{{.*}} : tensor<8x8xf32> -> tensor<8x8xbf16>
func.func @mixed_precision(%a: tensor<8x64xbf16>, %b: tensor<64x8xbf16>) -> (tensor<8x8xbf16>, tensor<8x16xf32>) {
  %y:2 = mk.graph_kernel (%a, %b) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%A: tensor<8x64xbf16>, %B: tensor<64x8xbf16>):
    %acc:2 = mb.for_loop -> (tensor<8x8xf32>, tensor<8x16xf32>) {
      %at = mb.input_iter %A imap = [-1, -1, -1] fmap = 1 : tensor<8x64xbf16> -> tensor<8x16xbf16>
      %bt = mb.input_iter %B imap = [-1, -1, -1] fmap = 0 : tensor<64x8xbf16> -> tensor<16x8xbf16>
      %af = mb.convert %at : tensor<8x16xbf16> -> tensor<8x16xf32>
      %m = mb.matmul %at, %bt : tensor<8x16xbf16>, tensor<16x8xbf16> -> tensor<8x8xf32>
      %s = mb.accum_sum %m : tensor<8x8xf32> -> tensor<8x8xf32>
      %t = mb.accum_sum %af : tensor<8x16xf32> -> tensor<8x16xf32>
      mb.yield %s, %t : tensor<8x8xf32>, tensor<8x16xf32>
    }
    %r = mt.thread_graph (%acc#0) : (tensor<8x8xf32>) -> tensor<8x8xf32> {
    ^bb0(%x: f32):
      %c = mt.convert %x : f32 -> bf16
      %w = mt.convert %c : bf16 -> f32
      mt.yield %w : f32
    }
    %n = mb.convert %r : tensor<8x8xf32> -> tensor<8x8xbf16>
    %o = mb.output_saver %n omap = [-1, -1, -1] : tensor<8x8xbf16> -> tensor<8x8xbf16>
    %p = mb.output_saver %acc#1 omap = [-1, -1, -1] : tensor<8x16xf32> -> tensor<8x16xf32>
    mb.return %o, %p : tensor<8x8xbf16>, tensor<8x16xf32>
  } : (tensor<8x64xbf16>, tensor<64x8xbf16>) -> (tensor<8x8xbf16>, tensor<8x16xf32>)
  return %y#0, %y#1 : tensor<8x8xbf16>, tensor<8x16xf32>
}

// A causal mask on score tiles: the rows follow grid dim x, the columns the
// for-loop; after the loop, a length mask on the rows' sums.
// CHECK-LABEL: func.func @band_mask_tiles
func.func @band_mask_tiles(%s: tensor<64x128xf16>) -> tensor<64x1xf16> {
  %y = mk.graph_kernel (%s) grid = [4, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%S: tensor<64x128xf16>):
    %acc = mb.for_loop -> (tensor<16x1xf16>) {
      %t = mb.input_iter %S imap = [0, -1, -1] fmap = 1 : tensor<64x128xf16> -> tensor<16x32xf16>
      // CHECK: mb.band_mask %{{.*}} dims = [0, 1] upper = 0 fill = 0xFFF0000000000000 imap = [0, -1, -1] fmap = 1 : tensor<16x32xf16>
      %m = mb.band_mask %t dims = [0, 1] upper = 0 fill = 0xFFF0000000000000 imap = [0, -1, -1] fmap = 1 : tensor<16x32xf16>
      %a = mb.accum_sum_last %m : tensor<16x32xf16> -> tensor<16x1xf16>
      mb.yield %a : tensor<16x1xf16>
    }
    // CHECK: mb.band_mask %{{.*}} dims = [0] lower = 2 fill = 0.000000e+00 additive imap = [0, -1, -1] fmap = -1 : tensor<16x1xf16>
    %l = mb.band_mask %acc dims = [0] lower = 2 fill = 0.0 additive imap = [0, -1, -1] fmap = -1 : tensor<16x1xf16>
    %o = mb.output_saver %l omap = [0, -1, -1] : tensor<16x1xf16> -> tensor<64x1xf16>
    mb.return %o : tensor<64x1xf16>
  } : (tensor<64x128xf16>) -> tensor<64x1xf16>
  return %y : tensor<64x1xf16>
}

// An epilogue input ([B21]): the bias tile of the block's columns, read once
// after the loop, added to the accumulated matmul and saved; a second
// epilogue input is saved as it is.
// CHECK-LABEL: func.func @epilogue_inputs(
// CHECK-SAME: [[x:%[0-9a-z_]+]]: tensor<8x64xf16>, [[w:%[0-9a-z_]+]]: tensor<64x32xf16>, [[b:%[0-9a-z_]+]]: tensor<1x32xf16>, [[r:%[0-9a-z_]+]]: tensor<8x32xf16>)
// CHECK: mb.for_loop
// CHECK: mb.yield
// CHECK-NEXT: }
// CHECK-NEXT: [[bt:%[0-9a-z_]+]] = mb.input_iter %{{.*}} imap = [1, -1, -1] fmap = -1 : tensor<1x32xf16> -> tensor<1x16xf16>
// CHECK-NEXT: [[s:%[0-9a-z_]+]] = mb.add %{{.*}}, [[bt]] : tensor<8x16xf16>, tensor<1x16xf16> -> tensor<8x16xf16>
// CHECK-NEXT: [[rt:%[0-9a-z_]+]] = mb.input_iter %{{.*}} imap = [1, -1, -1] fmap = -1 : tensor<8x32xf16> -> tensor<8x16xf16>
// CHECK-NEXT: mb.output_saver [[s]] omap = [1, -1, -1]
// CHECK-NEXT: mb.output_saver [[rt]] omap = [1, -1, -1]
func.func @epilogue_inputs(%x: tensor<8x64xf16>, %w: tensor<64x32xf16>, %b: tensor<1x32xf16>, %r: tensor<8x32xf16>) -> (tensor<8x32xf16>, tensor<8x32xf16>) {
  %y:2 = mk.graph_kernel (%x, %w, %b, %r) grid = [2, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>, %W: tensor<64x32xf16>, %B: tensor<1x32xf16>, %R: tensor<8x32xf16>):
    %acc = mb.for_loop -> (tensor<8x16xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<8x16xf16>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0 : tensor<64x32xf16> -> tensor<16x16xf16>
      %m = mb.matmul %xt, %wt : tensor<8x16xf16>, tensor<16x16xf16> -> tensor<8x16xf16>
      %s = mb.accum_sum %m : tensor<8x16xf16> -> tensor<8x16xf16>
      mb.yield %s : tensor<8x16xf16>
    }
    %bt = mb.input_iter %B imap = [1, -1, -1] fmap = -1 : tensor<1x32xf16> -> tensor<1x16xf16>
    %sum = mb.add %acc, %bt : tensor<8x16xf16>, tensor<1x16xf16> -> tensor<8x16xf16>
    %rt = mb.input_iter %R imap = [1, -1, -1] fmap = -1 : tensor<8x32xf16> -> tensor<8x16xf16>
    %o = mb.output_saver %sum omap = [1, -1, -1] : tensor<8x16xf16> -> tensor<8x32xf16>
    %o2 = mb.output_saver %rt omap = [1, -1, -1] : tensor<8x16xf16> -> tensor<8x32xf16>
    mb.return %o, %o2 : tensor<8x32xf16>, tensor<8x32xf16>
  } : (tensor<8x64xf16>, tensor<64x32xf16>, tensor<1x32xf16>, tensor<8x32xf16>) -> (tensor<8x32xf16>, tensor<8x32xf16>)
  return %y#0, %y#1 : tensor<8x32xf16>, tensor<8x32xf16>
}

// Views ([B22]-[B25]): head h of Q[tokens, heads * 16] read as
// [heads, tokens, 16], W[out, in] read transposed, and the result written
// back in the merged layout.
// CHECK-LABEL: func.func @views(
// CHECK: mb.input_iter %{{.*}} imap = [0, -1, -1] fmap = -1 view = #map : tensor<8x64xf16> -> tensor<1x8x16xf16>
// CHECK: mb.input_iter %{{.*}} imap = [-1, -1, -1] fmap = -1 view = #map1 : tensor<16x16xf16> -> tensor<1x16x16xf16>
// CHECK: mb.output_saver %{{.*}} omap = [0, -1, -1] view = #map : tensor<1x8x16xf16> -> tensor<8x64xf16>
func.func @views(%q: tensor<8x64xf16>, %w: tensor<16x16xf16>) -> tensor<8x64xf16> {
  %y = mk.graph_kernel (%q, %w) grid = [4, 1, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%Q: tensor<8x64xf16>, %W: tensor<16x16xf16>):
    %acc = mb.for_loop -> (tensor<1x8x16xf16>) {
      %qt = mb.input_iter %Q imap = [0, -1, -1] fmap = -1 view = affine_map<(h, t, d) -> (t, h * 16 + d)> : tensor<8x64xf16> -> tensor<1x8x16xf16>
      %wt = mb.input_iter %W imap = [-1, -1, -1] fmap = -1 view = affine_map<(b, k, n) -> (n, k)> : tensor<16x16xf16> -> tensor<1x16x16xf16>
      %m = mb.matmul %qt, %wt : tensor<1x8x16xf16>, tensor<1x16x16xf16> -> tensor<1x8x16xf16>
      %s = mb.accum_sum %m : tensor<1x8x16xf16> -> tensor<1x8x16xf16>
      mb.yield %s : tensor<1x8x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] view = affine_map<(h, t, d) -> (t, h * 16 + d)> : tensor<1x8x16xf16> -> tensor<8x64xf16>
    mb.return %o : tensor<8x64xf16>
  } : (tensor<8x64xf16>, tensor<16x16xf16>) -> tensor<8x64xf16>
  return %y : tensor<8x64xf16>
}

// mb.where keeps the scores where the key mask tile is set; the inverted
// form fills where it is set (masked_fill).
// CHECK-LABEL: func.func @where_ops(
// CHECK: [[mt:%[0-9a-z_]+]] = mb.input_iter %{{.*}} imap = [-1, -1, -1] fmap = 1 : tensor<1x64xf16> -> tensor<1x16xf16>
// CHECK-NEXT: [[k:%[0-9a-z_]+]] = mb.where [[mt]], %{{.*}} fill = 0xFFF0000000000000 : tensor<1x16xf16>, tensor<8x16xf16> -> tensor<8x16xf16>
// CHECK-NEXT: mb.where [[mt]], [[k]] fill = -1.000000e+04 inverted : tensor<1x16xf16>, tensor<8x16xf16> -> tensor<8x16xf16>
func.func @where_ops(%x: tensor<8x64xf16>, %m: tensor<1x64xf16>) -> tensor<8x16xf16> {
  %y = mk.graph_kernel (%x, %m) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x64xf16>, %M: tensor<1x64xf16>):
    %acc = mb.for_loop -> (tensor<8x16xf16>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x64xf16> -> tensor<8x16xf16>
      %mt = mb.input_iter %M imap = [-1, -1, -1] fmap = 1 : tensor<1x64xf16> -> tensor<1x16xf16>
      %k = mb.where %mt, %xt fill = 0xFFF0000000000000 : tensor<1x16xf16>, tensor<8x16xf16> -> tensor<8x16xf16>
      %i = mb.where %mt, %k fill = -1.0e4 inverted : tensor<1x16xf16>, tensor<8x16xf16> -> tensor<8x16xf16>
      %s = mb.accum_sum %i : tensor<8x16xf16> -> tensor<8x16xf16>
      mb.yield %s : tensor<8x16xf16>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<8x16xf16> -> tensor<8x16xf16>
    mb.return %o : tensor<8x16xf16>
  } : (tensor<8x64xf16>, tensor<1x64xf16>) -> tensor<8x16xf16>
  return %y : tensor<8x16xf16>
}

// A tail tiling ([B26]): 100 rows in 7 blocks of 16, the last tile
// overhanging the input and the output by 12 rows.
// CHECK-LABEL: func.func @tail_tiles(
// CHECK:       grid = [7, 1, 1]
// CHECK:       mb.input_iter %{{.*}} imap = [0, -1, -1] fmap = -1 : tensor<100x64xf16> -> tensor<16x64xf16>
// CHECK:       mb.output_saver %{{.*}} omap = [0, -1, -1] : tensor<16x64xf16> -> tensor<100x64xf16>
func.func @tail_tiles(%x: tensor<100x64xf16>) -> tensor<100x64xf16> {
  %y = mk.graph_kernel (%x) grid = [7, 1, 1] block = [64, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<100x64xf16>):
    %acc = mb.for_loop -> (tensor<16x64xf16>) {
      %t = mb.input_iter %X imap = [0, -1, -1] fmap = -1 : tensor<100x64xf16> -> tensor<16x64xf16>
      %a = mb.accum_sum %t : tensor<16x64xf16> -> tensor<16x64xf16>
      mb.yield %a : tensor<16x64xf16>
    }
    %o = mb.output_saver %acc omap = [0, -1, -1] : tensor<16x64xf16> -> tensor<100x64xf16>
    mb.return %o : tensor<100x64xf16>
  } : (tensor<100x64xf16>) -> tensor<100x64xf16>
  return %y : tensor<100x64xf16>
}

// [B26] A tail along a dim the view passes through: 13 tokens in blocks
// of 8, read head by head from [13, 4 * 16] (the last block's reads past
// token 12 repeat it, its writes there are dropped).
// CHECK-LABEL: func.func @view_tail_passed_through(
// CHECK:         mb.output_saver %{{.*}} omap = [0, 1, -1] view = #{{.*}} : tensor<1x8x16xf16> -> tensor<13x64xf16>
func.func @view_tail_passed_through(%x: tensor<13x64xf16>) -> tensor<13x64xf16> {
  %y = mk.graph_kernel (%x) grid = [4, 2, 1] block = [64, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<13x64xf16>):
    %acc = mb.for_loop -> (tensor<1x8x16xf16>) {
      %t = mb.input_iter %X imap = [0, 1, -1] fmap = -1 view = affine_map<(h, t, d) -> (t, h * 16 + d)> : tensor<13x64xf16> -> tensor<1x8x16xf16>
      %a = mb.accum_sum %t : tensor<1x8x16xf16> -> tensor<1x8x16xf16>
      mb.yield %a : tensor<1x8x16xf16>
    }
    %o = mb.output_saver %acc omap = [0, 1, -1] view = affine_map<(h, t, d) -> (t, h * 16 + d)> : tensor<1x8x16xf16> -> tensor<13x64xf16>
    mb.return %o : tensor<13x64xf16>
  } : (tensor<13x64xf16>) -> tensor<13x64xf16>
  return %y : tensor<13x64xf16>
}
