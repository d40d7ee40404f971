// REQUIRES: libomp
// RUN: mirage-run %s --func=reshape | FileCheck %s
// RUN: mirage-run %s --func=flatten_sum | FileCheck %s --check-prefix=SUM

// mk.reshape JIT-compiled through --mirage-to-cpu (a view of the buffer)
// agrees with the f64 interpreter: feeding a kernel, and returned.

// CHECK: output 0 (f32, 128 elements)
// CHECK: output 1 (f32, 64 elements)
// CHECK: @reshape on cpu
// CHECK-NEXT: PASS
func.func @reshape(%x: tensor<2x8x4xf32>, %w: tensor<4x8xf32>) -> (tensor<16x8xf32>, tensor<64xf32>) {
  %y = mk.reshape %x : tensor<2x8x4xf32> -> tensor<16x4xf32>
  %m = mk.matmul %y, %w : tensor<16x4xf32>, tensor<4x8xf32> -> tensor<16x8xf32>
  %e = mk.exp %x : tensor<2x8x4xf32>
  %f = mk.reshape %e : tensor<2x8x4xf32> -> tensor<64xf32>
  return %m, %f : tensor<16x8xf32>, tensor<64xf32>
}

// A reshape between two kernels, and of an argument returned directly.
// SUM: output 0 (f16, 4 elements)
// SUM: output 1 (f16, 32 elements)
// SUM: @flatten_sum on cpu
// SUM-NEXT: PASS
func.func @flatten_sum(%x: tensor<4x2x4xf16>) -> (tensor<4x1xf16>, tensor<32xf16>) {
  %s = mk.square %x : tensor<4x2x4xf16>
  %r = mk.reshape %s : tensor<4x2x4xf16> -> tensor<4x8xf16>
  %t = mk.reduce_sum %r dim = 1 : tensor<4x8xf16> -> tensor<4x1xf16>
  %f = mk.reshape %x : tensor<4x2x4xf16> -> tensor<32xf16>
  return %t, %f : tensor<4x1xf16>, tensor<32xf16>
}
