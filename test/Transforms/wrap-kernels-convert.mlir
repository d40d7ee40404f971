// RUN: mirage-opt %s --mirage-wrap-kernels | FileCheck %s

// Mixed precision: an mk.convert next to a graph-defined kernel (the search
// leaves conversions between its subprograms, which have one element type)
// moves into that kernel as an mb.convert after the input iterator or
// before the output saver, so the kernel reads or writes the other storage
// type and the thread graphs fuse the conversion. The other mk ops are
// wrapped first, so a conversion between two of them moves into the
// producer's kernel. A conversion with a user that is not a graph-defined
// kernel is wrapped on its own.

// CHECK-LABEL: func.func @absorbed
// CHECK-NOT: mk.convert
// CHECK: mk.graph_kernel(%arg0, %arg1)
// CHECK: %[[T:.*]] = mb.input_iter %{{.*}} : tensor<16x32xbf16> -> tensor<16x32xbf16>
// CHECK-NEXT: %[[C:.*]] = mb.convert %[[T]] : tensor<16x32xbf16> -> tensor<16x32xf32>
// CHECK: mb.silu %[[C]]
// CHECK: %[[N:.*]] = mb.convert %{{.*}} : tensor<16x32xf32> -> tensor<16x32xbf16>
// CHECK-NEXT: mb.output_saver %[[N]] omap = [-1, -1, -1] : tensor<16x32xbf16> -> tensor<16x32xbf16>
// CHECK: } : (tensor<16x32xbf16>, tensor<16x32xf32>) -> tensor<16x32xbf16>
func.func @absorbed(%x: tensor<16x32xbf16>, %y: tensor<16x32xf32>) -> tensor<16x32xbf16> {
  %xf = mk.convert %x : tensor<16x32xbf16> -> tensor<16x32xf32>
  %k = mk.graph_kernel (%xf, %y) grid = [1, 1, 1] block = [128, 1, 1] forloop = 1 {
  ^bb0(%X: tensor<16x32xf32>, %Y: tensor<16x32xf32>):
    %acc = mb.for_loop -> (tensor<16x32xf32>) {
      %xt = mb.input_iter %X imap = [-1, -1, -1] fmap = -1 : tensor<16x32xf32> -> tensor<16x32xf32>
      %yt = mb.input_iter %Y imap = [-1, -1, -1] fmap = -1 : tensor<16x32xf32> -> tensor<16x32xf32>
      %s = mb.silu %xt : tensor<16x32xf32>
      %m = mb.mul %s, %yt : tensor<16x32xf32>, tensor<16x32xf32> -> tensor<16x32xf32>
      %a = mb.accum_sum %m : tensor<16x32xf32> -> tensor<16x32xf32>
      mb.yield %a : tensor<16x32xf32>
    }
    %o = mb.output_saver %acc omap = [-1, -1, -1] : tensor<16x32xf32> -> tensor<16x32xf32>
    mb.return %o : tensor<16x32xf32>
  } : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
  %r = mk.convert %k : tensor<16x32xf32> -> tensor<16x32xbf16>
  return %r : tensor<16x32xbf16>
}

// The conversion is also returned: it stays a kernel of its own.
// CHECK-LABEL: func.func @also_returned
// CHECK: %[[C:.*]] = mk.graph_kernel(%arg0)
// CHECK: mb.convert %{{.*}} : tensor<4x8xbf16> -> tensor<4x8xf32>
// CHECK: %[[E:.*]] = mk.graph_kernel(%[[C]])
// CHECK: return %[[C]], %[[E]]
func.func @also_returned(%x: tensor<4x8xbf16>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %xf = mk.convert %x : tensor<4x8xbf16> -> tensor<4x8xf32>
  %e = mk.exp %xf : tensor<4x8xf32>
  return %xf, %e : tensor<4x8xf32>, tensor<4x8xf32>
}

// Between two plain mk ops: the exp's kernel writes f32.
// CHECK-LABEL: func.func @between_plain_ops
// CHECK-NOT: mk.convert
// CHECK: %[[E:.*]] = mk.graph_kernel(%arg0)
// CHECK: mb.exp
// CHECK: mb.convert %{{.*}} : tensor<4x8xbf16> -> tensor<4x8xf32>
// CHECK: } : (tensor<4x8xbf16>) -> tensor<4x8xf32>
// CHECK: mk.graph_kernel(%[[E]])
// CHECK: mb.mul_scalar
func.func @between_plain_ops(%x: tensor<4x8xbf16>) -> tensor<4x8xf32> {
  %e = mk.exp %x : tensor<4x8xbf16>
  %c = mk.convert %e : tensor<4x8xbf16> -> tensor<4x8xf32>
  %m = mk.mul_scalar %c, 2.0 : tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}
