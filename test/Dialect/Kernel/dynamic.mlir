// RUN: mirage-opt %s | mirage-opt | FileCheck %s
// RUN: mirage-opt %s -mlir-print-op-generic | mirage-opt | FileCheck %s

// Kernel-level programs with dynamic dims (docs/dynamic.md): the ops that
// allow them ([C0.19]-[C0.21], [K16]) and the `mk.sizes` facts survive a
// round trip, in the custom and in the generic form.

// CHECK-LABEL: func.func @rmsnorm_matmul(
// CHECK-SAME:    %{{.*}}: tensor<?x4096xf16> {mk.sizes = [#mk.size<name = "tokens", max = 4096, divisor = 8>]}
// CHECK-SAME:    -> tensor<?x512xf16>
// CHECK:       mk.rms_norm %{{.*}} eps = {{.*}} : tensor<?x4096xf16>
// CHECK:       mk.matmul %{{.*}}, %{{.*}} : tensor<?x4096xf16>, tensor<4096x512xf16> -> tensor<?x512xf16>
func.func @rmsnorm_matmul(%x: tensor<?x4096xf16> {mk.sizes = [#mk.size<name = "tokens", max = 4096, divisor = 8>]},
                          %w: tensor<4096x512xf16>) -> tensor<?x512xf16> {
  %n = mk.rms_norm %x eps = 1.0e-06 : tensor<?x4096xf16>
  %o = mk.matmul %n, %w : tensor<?x4096xf16>, tensor<4096x512xf16> -> tensor<?x512xf16>
  return %o : tensor<?x512xf16>
}

// Every parameter of #mk.size is optional; the defaults are not printed.
// CHECK-LABEL: func.func @defaults(
// CHECK-SAME:    {mk.sizes = [#mk.size<>, #mk.size<min = 2>]}
func.func @defaults(%x: tensor<?x?x8xf32> {mk.sizes = [#mk.size<>, #mk.size<min = 2, divisor = 1>]}) -> tensor<?x?x8xf32> {
  return %x : tensor<?x?x8xf32>
}

// Element-wise ops pair dynamic dims with dynamic dims or broadcast a static
// 1; a reduction keeps a dynamic dim it does not reduce; transposes and a
// head split and merge of a dynamic token count.
// CHECK-LABEL: func.func @layernorm_like(
// CHECK:       mk.reduce_sum %{{.*}} dim = 1 : tensor<?x64xf32> -> tensor<?x1xf32>
// CHECK:       mk.mul_scalar %{{.*}}, {{.*}} : tensor<?x1xf32>
// CHECK:       mk.sub %{{.*}}, %{{.*}} : tensor<?x64xf32>, tensor<?x1xf32> -> tensor<?x64xf32>
// CHECK:       mk.mul %{{.*}}, %{{.*}} : tensor<?x64xf32>, tensor<1x64xf32> -> tensor<?x64xf32>
// CHECK:       mk.reshape %{{.*}} : tensor<?x64xf32> -> tensor<?x4x16xf32>
// CHECK:       mk.transpose %{{.*}} perm = [1, 0, 2] : tensor<?x4x16xf32> -> tensor<4x?x16xf32>
// CHECK:       mk.transpose %{{.*}} perm = [1, 0, 2] : tensor<4x?x16xf32> -> tensor<?x4x16xf32>
// CHECK:       mk.reshape %{{.*}} : tensor<?x4x16xf32> -> tensor<?x64xf32>
// CHECK:       mk.concat %{{.*}}, %{{.*}} dim = 1 : tensor<?x64xf32>, tensor<?x64xf32> -> tensor<?x128xf32>
// CHECK:       mk.band_mask %{{.*}} dims = [0, 1] upper = 0 fill = {{.*}} : tensor<?x128xf32>
// CHECK:       mk.convert %{{.*}} : tensor<?x128xf32> -> tensor<?x128xbf16>
func.func @layernorm_like(%x: tensor<?x64xf32>, %g: tensor<1x64xf32>) -> tensor<?x128xbf16> {
  %s = mk.reduce_sum %x dim = 1 : tensor<?x64xf32> -> tensor<?x1xf32>
  %m = mk.mul_scalar %s, 1.562500e-02 : tensor<?x1xf32>
  %c = mk.sub %x, %m : tensor<?x64xf32>, tensor<?x1xf32> -> tensor<?x64xf32>
  %y = mk.mul %c, %g : tensor<?x64xf32>, tensor<1x64xf32> -> tensor<?x64xf32>
  %h = mk.reshape %y : tensor<?x64xf32> -> tensor<?x4x16xf32>
  %t = mk.transpose %h perm = [1, 0, 2] : tensor<?x4x16xf32> -> tensor<4x?x16xf32>
  %u = mk.transpose %t perm = [1, 0, 2] : tensor<4x?x16xf32> -> tensor<?x4x16xf32>
  %v = mk.reshape %u : tensor<?x4x16xf32> -> tensor<?x64xf32>
  %w = mk.concat %v, %y dim = 1 : tensor<?x64xf32>, tensor<?x64xf32> -> tensor<?x128xf32>
  %b = mk.band_mask %w dims = [0, 1] upper = 0 fill = 0.0 : tensor<?x128xf32>
  %o = mk.convert %b : tensor<?x128xf32> -> tensor<?x128xbf16>
  return %o : tensor<?x128xbf16>
}

// A graph-defined kernel over a dynamic row count ([K19]): grid dim y is
// '?' (ceil(rows / 8) blocks at run time), the rows' tiles are 8.
// CHECK-LABEL: func.func @dynamic_kernel(
// CHECK:       mk.graph_kernel(%{{.*}}, %{{.*}}) grid = [3, ?, 1] block = [128, 1, 1] forloop = 2
// CHECK:       mb.input_iter %{{.*}} imap = [-1, 0, -1] fmap = 1 : tensor<?x64xf16> -> tensor<8x32xf16>
// CHECK:       mb.output_saver %{{.*}} omap = [1, 0, -1] : tensor<8x16xf16> -> tensor<?x48xf16>
// CHECK:       mb.return %{{.*}} : tensor<?x48xf16>
// CHECK:       } : (tensor<?x64xf16>, tensor<64x48xf16>) -> tensor<?x48xf16>
func.func @dynamic_kernel(%x: tensor<?x64xf16> {mk.sizes = [#mk.size<name = "tokens", max = 4096>]}, %w: tensor<64x48xf16>) -> tensor<?x48xf16> {
  %y = mk.graph_kernel (%x, %w) grid = [3, ?, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<?x64xf16>, %W: tensor<64x48xf16>):
    %acc:2 = mb.for_loop -> (tensor<8x1xf16>, tensor<8x16xf16>) {
      %xt = mb.input_iter %X imap = [-1, 0, -1] fmap = 1 : tensor<?x64xf16> -> tensor<8x32xf16>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0 : tensor<64x48xf16> -> tensor<32x16xf16>
      %m = mb.matmul %xt, %wt : tensor<8x32xf16>, tensor<32x16xf16> -> tensor<8x16xf16>
      %r = mb.accum_rms_last %xt eps = 1.0e-06 : tensor<8x32xf16> -> tensor<8x1xf16>
      %s = mb.accum_sum %m : tensor<8x16xf16> -> tensor<8x16xf16>
      mb.yield %r, %s : tensor<8x1xf16>, tensor<8x16xf16>
    }
    %q = mb.div %acc#1, %acc#0 : tensor<8x16xf16>, tensor<8x1xf16> -> tensor<8x16xf16>
    %o = mb.output_saver %q omap = [1, 0, -1] : tensor<8x16xf16> -> tensor<?x48xf16>
    mb.return %o : tensor<?x48xf16>
  } : (tensor<?x64xf16>, tensor<64x48xf16>) -> tensor<?x48xf16>
  return %y : tensor<?x48xf16>
}

// [K20] A function that dispatches on a size to one program per class
// (what --mirage-superoptimize makes of a dynamic function).
// CHECK-LABEL: func.func @dispatch(
// CHECK-SAME:    attributes {mk.size_dispatch = {bounds = array<i64: 16>, programs = [@dispatch_small, @dispatch_large], size = "rows"}}
func.func @dispatch(%x: tensor<?x8xf32> {mk.sizes = [#mk.size<name = "rows">]}) -> tensor<?x8xf32>
    attributes {mk.size_dispatch = {size = "rows", bounds = array<i64: 16>, programs = [@dispatch_small, @dispatch_large]}} {
  %y = mk.exp %x : tensor<?x8xf32>
  return %y : tensor<?x8xf32>
}
func.func private @dispatch_small(%x: tensor<?x8xf32> {mk.sizes = [#mk.size<name = "rows">]}) -> tensor<?x8xf32> {
  %y = mk.exp %x : tensor<?x8xf32>
  return %y : tensor<?x8xf32>
}
func.func private @dispatch_large(%x: tensor<?x8xf32> {mk.sizes = [#mk.size<name = "rows">]}) -> tensor<?x8xf32> {
  %y = mk.exp %x : tensor<?x8xf32>
  return %y : tensor<?x8xf32>
}

// [C0.20], [C0.21] A dynamic contraction and a reduction over a dynamic dim:
// decode attention over a dynamic key length.
// CHECK-LABEL: func.func @decode_attention(
// CHECK:         mk.reduce_max %{{.*}} dim = 2 : tensor<8x1x?xf32> -> tensor<8x1x1xf32>
// CHECK:         mk.matmul %{{.*}}, %{{.*}} : tensor<8x1x?xf32>, tensor<8x?x64xf32> -> tensor<8x1x64xf32>
func.func @decode_attention(%q: tensor<8x1x64xf32>, %k: tensor<8x?x64xf32> {mk.sizes = [#mk.size<name = "kv">]}, %v: tensor<8x?x64xf32>) -> tensor<8x1x64xf32> {
  %kt = mk.transpose %k perm = [0, 2, 1] : tensor<8x?x64xf32> -> tensor<8x64x?xf32>
  %s = mk.matmul %q, %kt : tensor<8x1x64xf32>, tensor<8x64x?xf32> -> tensor<8x1x?xf32>
  %m = mk.reduce_max %s dim = 2 : tensor<8x1x?xf32> -> tensor<8x1x1xf32>
  %d = mk.sub %s, %m : tensor<8x1x?xf32>, tensor<8x1x1xf32> -> tensor<8x1x?xf32>
  %e = mk.exp %d : tensor<8x1x?xf32>
  %sum = mk.reduce_sum %e dim = 2 : tensor<8x1x?xf32> -> tensor<8x1x1xf32>
  %o = mk.matmul %e, %v : tensor<8x1x?xf32>, tensor<8x?x64xf32> -> tensor<8x1x64xf32>
  %r = mk.div %o, %sum : tensor<8x1x64xf32>, tensor<8x1x1xf32> -> tensor<8x1x64xf32>
  return %r : tensor<8x1x64xf32>
}

// [K21], [B27], [B28] A '?' loop walks the key length in tiles of 32; the
// reductions across it read the last trip's tail masked.
// CHECK-LABEL: func.func @dynamic_loop(
// CHECK:         mk.graph_kernel(%{{.*}}) grid = [8, 1, 1] block = [128, 1, 1] forloop = ? {
// CHECK:           mb.tail_mask %{{.*}} dim = 2 fill = 0.000000e+00 : tensor<1x1x32xf32>
// CHECK:           mb.tail_mask %{{.*}} dim = 2 fill = 0xFFF0000000000000 : tensor<1x1x32xf32>
func.func @dynamic_loop(%q: tensor<8x1x64xf32>, %k: tensor<8x?x64xf32>, %v: tensor<8x?x64xf32>) -> tensor<8x1x64xf32> {
  %o = mk.graph_kernel (%q, %k, %v) grid = [8, 1, 1] block = [128, 1, 1] forloop = ? {
  ^bb0(%Q: tensor<8x1x64xf32>, %K: tensor<8x?x64xf32>, %V: tensor<8x?x64xf32>):
    %acc:3 = mb.for_loop -> (tensor<1x1x64xf32>, tensor<1x1x1xf32>, tensor<1x1x1xf32>) {
      %qt = mb.input_iter %Q imap = [0, -1, -1] fmap = -1 : tensor<8x1x64xf32> -> tensor<1x1x64xf32>
      %kt = mb.input_iter %K imap = [0, -1, -1] fmap = 1 : tensor<8x?x64xf32> -> tensor<1x32x64xf32>
      %vt = mb.input_iter %V imap = [0, -1, -1] fmap = 1 : tensor<8x?x64xf32> -> tensor<1x32x64xf32>
      %ktt = mb.transpose %kt perm = [0, 2, 1] : tensor<1x32x64xf32> -> tensor<1x64x32xf32>
      %s = mb.matmul %qt, %ktt : tensor<1x1x64xf32>, tensor<1x64x32xf32> -> tensor<1x1x32xf32>
      %e = mb.exp %s : tensor<1x1x32xf32>
      %em = mb.tail_mask %e dim = 2 fill = 0.0 : tensor<1x1x32xf32>
      %sm = mb.tail_mask %s dim = 2 fill = 0xFFF0000000000000 : tensor<1x1x32xf32>
      %mx = mb.reduce_max %sm dim = 2 : tensor<1x1x32xf32> -> tensor<1x1x1xf32>
      %pv = mb.matmul %em, %vt : tensor<1x1x32xf32>, tensor<1x32x64xf32> -> tensor<1x1x64xf32>
      %a = mb.accum_sum %pv : tensor<1x1x64xf32> -> tensor<1x1x64xf32>
      %se = mb.accum_sum_last %em : tensor<1x1x32xf32> -> tensor<1x1x1xf32>
      %am = mb.accum_max %mx : tensor<1x1x1xf32> -> tensor<1x1x1xf32>
      mb.yield %a, %se, %am : tensor<1x1x64xf32>, tensor<1x1x1xf32>, tensor<1x1x1xf32>
    }
    %w = mb.div %acc#0, %acc#1 : tensor<1x1x64xf32>, tensor<1x1x1xf32> -> tensor<1x1x64xf32>
    %r = mb.add %w, %acc#2 : tensor<1x1x64xf32>, tensor<1x1x1xf32> -> tensor<1x1x64xf32>
    %out = mb.output_saver %r omap = [0, -1, -1] : tensor<1x1x64xf32> -> tensor<8x1x64xf32>
    mb.return %out : tensor<8x1x64xf32>
  } : (tensor<8x1x64xf32>, tensor<8x?x64xf32>, tensor<8x?x64xf32>) -> tensor<8x1x64xf32>
  return %o : tensor<8x1x64xf32>
}

// [B26] A static walked tail: 100 keys in 4 trips of 32, the sum straight
// from the iterator (whose reads past the end are zeros).
// CHECK-LABEL: func.func @static_walked_tail(
// CHECK:         forloop = 4
func.func @static_walked_tail(%x: tensor<8x100xf32>) -> tensor<8x1xf32> {
  %o = mk.graph_kernel (%x) grid = [1, 1, 1] block = [128, 1, 1] forloop = 4 {
  ^bb0(%X: tensor<8x100xf32>):
    %acc = mb.for_loop -> (tensor<8x1xf32>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = 1 : tensor<8x100xf32> -> tensor<8x32xf32>
      %a = mb.accum_sum_last %xt : tensor<8x32xf32> -> tensor<8x1xf32>
      mb.yield %a : tensor<8x1xf32>
    }
    %out = mb.output_saver %acc omap = [-1, -1, -1] : tensor<8x1xf32> -> tensor<8x1xf32>
    mb.return %out : tensor<8x1xf32>
  } : (tensor<8x100xf32>) -> tensor<8x1xf32>
  return %o : tensor<8x1xf32>
}

// [K19] A dynamic kernel reads and writes through views that pass the
// tokens dim through as it is: Q[tokens, 4 * 16] read head by head as
// [4, tokens, 16], and the result merged back into [tokens, 64] (a '?'
// grid dim of 8-token tiles, the last one a tail along the tokens).
// CHECK-LABEL: func.func @dynamic_head_split(
// CHECK:         grid = [4, ?, 1]
// CHECK:         mb.input_iter %{{.*}} imap = [0, 1, -1] fmap = -1 view = #{{.*}} : tensor<?x64xf32> -> tensor<1x8x16xf32>
// CHECK:         mb.output_saver %{{.*}} omap = [0, 1, -1] view = #{{.*}} : tensor<1x8x16xf32> -> tensor<?x64xf32>
func.func @dynamic_head_split(%q: tensor<?x64xf32> {mk.sizes = [#mk.size<name = "tokens">]}) -> tensor<?x64xf32> {
  %y = mk.graph_kernel (%q) grid = [4, ?, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%Q: tensor<?x64xf32>):
    %acc = mb.for_loop -> (tensor<1x8x16xf32>) {
      %t = mb.input_iter %Q imap = [0, 1, -1] fmap = -1 view = affine_map<(h, t, d) -> (t, h * 16 + d)> : tensor<?x64xf32> -> tensor<1x8x16xf32>
      %e = mb.exp %t : tensor<1x8x16xf32>
      %a = mb.accum_sum %e : tensor<1x8x16xf32> -> tensor<1x8x16xf32>
      mb.yield %a : tensor<1x8x16xf32>
    }
    %o = mb.output_saver %acc omap = [0, 1, -1] view = affine_map<(h, t, d) -> (t, h * 16 + d)> : tensor<1x8x16xf32> -> tensor<?x64xf32>
    mb.return %o : tensor<?x64xf32>
  } : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}
