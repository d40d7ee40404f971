// RUN: mirage-opt %s | mirage-opt | FileCheck %s

// CHECK-LABEL: func.func @smoke
func.func @smoke(%x: tensor<2x8xf16>) -> tensor<2x8xf16> {
  // CHECK: mk.exp %{{.*}} : tensor<2x8xf16>
  %0 = mk.exp %x : tensor<2x8xf16>
  return %0 : tensor<2x8xf16>
}
