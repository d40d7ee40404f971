// RUN: mirage-opt %s --mirage-wrap-kernels | FileCheck %s --check-prefix=WRAP
// RUN: mirage-opt %s --mirage-wrap-kernels --convert-mirage-to-gpu | FileCheck %s

// mk.reshape is no kernel: --mirage-wrap-kernels folds a reshape next to a
// kernel into the kernel's view of the buffer (the matmul reads X[2, 8, 4]
// as 16x4; the exp kernel writes its result straight into the returned
// 64-element buffer), so the lowering neither copies nor allocates.

// WRAP-DAG: #[[IN:.*]] = affine_map<(d0, d1) -> (d0 floordiv 8, d0 mod 8, d1)>
// WRAP-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2) -> (d2 + d1 * 4 + d0 * 32)>
// WRAP-LABEL: func.func @reshape(
// WRAP-NOT: mk.reshape
// WRAP: mb.input_iter %{{.*}} view = #[[IN]] : tensor<2x8x4xf32> -> tensor<16x4xf32>
// WRAP: mb.output_saver %{{.*}} view = #[[OUT]] : tensor<1x8x4xf32> -> tensor<64xf32>

// CHECK-LABEL: func.func @reshape(
// CHECK-SAME: %[[X:.*]]: memref<2x8x4xf32>, %[[W:.*]]: memref<4x8xf32>, %[[Y:.*]]: memref<16x8xf32>, %[[F:.*]]: memref<64xf32>)
// CHECK-NOT: memref.alloc(
// CHECK-NOT: memref.copy
// CHECK: gpu.launch
// CHECK: memref.collapse_shape %[[X]] {{\[\[}}0, 1, 2]] : memref<2x8x4xf32> into memref<64xf32>
// CHECK: gpu.terminator
// CHECK: gpu.launch
// CHECK: vector.store %{{.*}}, %[[F]]
// CHECK: gpu.terminator
// CHECK-NOT: memref.copy
// CHECK-NOT: mk.
func.func @reshape(%x: tensor<2x8x4xf32>, %w: tensor<4x8xf32>) -> (tensor<16x8xf32>, tensor<64xf32>) {
  %y = mk.reshape %x : tensor<2x8x4xf32> -> tensor<16x4xf32>
  %m = mk.matmul %y, %w : tensor<16x4xf32>, tensor<4x8xf32> -> tensor<16x8xf32>
  %e = mk.exp %x : tensor<2x8x4xf32>
  %f = mk.reshape %e : tensor<2x8x4xf32> -> tensor<64xf32>
  return %m, %f : tensor<16x8xf32>, tensor<64xf32>
}
