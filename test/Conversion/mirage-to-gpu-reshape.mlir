// RUN: mirage-opt %s --mirage-wrap-kernels --convert-mirage-to-gpu | FileCheck %s

// mk.reshape is no kernel: --mirage-wrap-kernels leaves it, and the lowering
// views the buffer with the new shape (collapse to one dim, then expand), no
// copy; a returned reshape is copied into its result buffer.

// CHECK-LABEL: func.func @reshape(
// CHECK-SAME: %[[X:.*]]: memref<2x8x4xf32>, %[[W:.*]]: memref<4x8xf32>, %[[Y:.*]]: memref<16x8xf32>, %[[F:.*]]: memref<64xf32>)
// CHECK: %[[C:.*]] = memref.collapse_shape %[[X]] {{\[\[}}0, 1, 2]] : memref<2x8x4xf32> into memref<64xf32>
// CHECK: %[[V:.*]] = memref.expand_shape %[[C]] {{\[\[}}0, 1]] output_shape [16, 4] : memref<64xf32> into memref<16x4xf32>
// CHECK: gpu.launch
// CHECK: %[[VT:.*]] = memref.collapse_shape %[[V]] {{\[\[}}0, 1]] : memref<16x4xf32> into memref<64xf32>
// CHECK: vector.load %[[VT]]
// CHECK: gpu.terminator
// CHECK: %[[E:.*]] = memref.alloc() : memref<2x8x4xf32>
// CHECK: gpu.launch
// CHECK: gpu.terminator
// CHECK: %[[EF:.*]] = memref.collapse_shape %[[E]] {{\[\[}}0, 1, 2]] : memref<2x8x4xf32> into memref<64xf32>
// CHECK: memref.copy %[[EF]], %[[F]]
// CHECK-NOT: mk.
func.func @reshape(%x: tensor<2x8x4xf32>, %w: tensor<4x8xf32>) -> (tensor<16x8xf32>, tensor<64xf32>) {
  %y = mk.reshape %x : tensor<2x8x4xf32> -> tensor<16x4xf32>
  %m = mk.matmul %y, %w : tensor<16x4xf32>, tensor<4x8xf32> -> tensor<16x8xf32>
  %e = mk.exp %x : tensor<2x8x4xf32>
  %f = mk.reshape %e : tensor<2x8x4xf32> -> tensor<64xf32>
  return %m, %f : tensor<16x8xf32>, tensor<64xf32>
}
