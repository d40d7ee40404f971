// RUN: mirage-opt %s --mirage-wrap-kernels | FileCheck %s
// RUN: mirage-opt %s --mirage-wrap-kernels="max-tile=32" | FileCheck %s --check-prefix=T32

// Each mk op becomes a graph-defined kernel computing it on tiles.

// CHECK: #[[T:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func.func @rmsnorm_matmul
// The rms_norm keeps its rows whole: one block per row.
// CHECK: %[[N:.*]] = mk.graph_kernel(%{{.*}}) grid = [2, 1, 1] block = [128, 1, 1] forloop = 1
// CHECK:   mb.input_iter %{{.*}} imap = [0, -1, -1] fmap = -1 : tensor<2x4096xf16> -> tensor<1x4096xf16>
// CHECK:   mb.rms_norm %{{.*}} eps = 9.9999999999999995E-7 : tensor<1x4096xf16>
// CHECK:   mb.accum_sum
// CHECK:   mb.output_saver %{{.*}} omap = [0, -1, -1] : tensor<1x4096xf16> -> tensor<2x4096xf16>
// The matmul: the grid splits the 6144 columns into tiles of 64 (96
// blocks, enough), the loop walks the 4096-long contracted dim in chunks of
// 128 (twice the cap).
// CHECK: mk.graph_kernel(%[[N]], %{{.*}}) grid = [96, 1, 1] block = [128, 1, 1] forloop = 32
// CHECK:   mb.input_iter %{{.*}} imap = [-1, -1, -1] fmap = 1 : tensor<2x4096xf16> -> tensor<2x128xf16>
// CHECK:   mb.input_iter %{{.*}} imap = [1, -1, -1] fmap = 0 : tensor<4096x6144xf16> -> tensor<128x64xf16>
// CHECK:   mb.matmul %{{.*}}, %{{.*}} : tensor<2x128xf16>, tensor<128x64xf16> -> tensor<2x64xf16>
// CHECK:   mb.accum_sum
// CHECK:   mb.output_saver %{{.*}} omap = [1, -1, -1] : tensor<2x64xf16> -> tensor<2x6144xf16>
// CHECK-NOT: mk.rms_norm
// CHECK-NOT: mk.matmul
// T32-LABEL: func.func @rmsnorm_matmul
// T32: grid = [2, 1, 1] block = [128, 1, 1] forloop = 1
// T32: grid = [192, 1, 1] block = [128, 1, 1] forloop = 64
func.func @rmsnorm_matmul(%x: tensor<2x4096xf16>, %w: tensor<4096x6144xf16>) -> tensor<2x6144xf16> {
  %n = mk.rms_norm %x eps = 1.0e-06 : tensor<2x4096xf16>
  %y = mk.matmul %n, %w : tensor<2x4096xf16>, tensor<4096x6144xf16> -> tensor<2x6144xf16>
  return %y : tensor<2x6144xf16>
}

// CHECK-LABEL: func.func @softmax_parts
// The reduction: one block per row, the loop walks the row in chunks of 64.
// A broadcast operand is replicated along its size-1 dim.
// CHECK: mk.graph_kernel(%{{.*}}) grid = [4, 1, 1] block = [128, 1, 1] forloop = 4
// CHECK:   mb.reduce_max %{{.*}} dim = 1 : tensor<1x64xf32> -> tensor<1x1xf32>
// CHECK:   mb.accum_max
// The sub: 4 blocks of 4x64 are too few; tiles of 4x16 give 16 (the
// splits stop there, at 16 columns).
// CHECK: mk.graph_kernel
// CHECK:   mb.input_iter %{{.*}} imap = [1, -1, -1] fmap = -1 : tensor<4x256xf32> -> tensor<4x16xf32>
// CHECK:   mb.input_iter %{{.*}} imap = [-1, -1, -1] fmap = -1 : tensor<4x1xf32> -> tensor<4x1xf32>
// CHECK:   mb.sub
// The transpose of the result is no kernel of its own: the sub's kernel
// writes the transposed layout through its saver's view (absorbViews).
// CHECK:   mb.output_saver %{{.*}} omap = [1, -1, -1] view = #[[T]] : tensor<4x16xf32> -> tensor<256x4xf32>
// CHECK-NOT: mk.graph_kernel
// CHECK: return
func.func @softmax_parts(%x: tensor<4x256xf32>) -> tensor<256x4xf32> {
  %m = mk.reduce_max %x dim = 1 : tensor<4x256xf32> -> tensor<4x1xf32>
  %d = mk.sub %x, %m : tensor<4x256xf32>, tensor<4x1xf32> -> tensor<4x256xf32>
  %t = mk.transpose %d perm = [1, 0] : tensor<4x256xf32> -> tensor<256x4xf32>
  return %t : tensor<256x4xf32>
}

// CHECK-LABEL: func.func @decode_matmul
// Eight rows: 64-column tiles would be 8 blocks; 16-column tiles give 32
// (the smallest tile), and the contracted dim is walked in 16 chunks of 128.
// CHECK: mk.graph_kernel(%{{.*}}, %{{.*}}) grid = [32, 1, 1] block = [128, 1, 1] forloop = 16
// CHECK:   mb.matmul %{{.*}}, %{{.*}} : tensor<8x128xf16>, tensor<128x16xf16> -> tensor<8x16xf16>
// T32-LABEL: func.func @decode_matmul
// T32: grid = [32, 1, 1] block = [128, 1, 1] forloop = 32
func.func @decode_matmul(%x: tensor<8x2048xf16>, %w: tensor<2048x512xf16>) -> tensor<8x512xf16> {
  %o = mk.matmul %x, %w : tensor<8x2048xf16>, tensor<2048x512xf16> -> tensor<8x512xf16>
  return %o : tensor<8x512xf16>
}
