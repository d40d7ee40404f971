// RUN: mirage-opt %s --mirage-to-ptx="dump-dir=%t" -o /dev/null
// RUN: FileCheck %s < %t/manifest.json
// The kernel manifest names each temporary buffer, so that a GPU runner
// (bench/gpu/run) passes the buffer the first kernel writes to the second.
// CHECK: "host_argument": 0
// CHECK: "host_argument": "temporary",
// CHECK: "temporary_id": 0
// CHECK: "kernel": "f_kernel::f_kernel"
// CHECK: "host_argument": "temporary",
// CHECK: "temporary_id": 0
// CHECK: "host_argument": 1
// CHECK: "kernel": "f_kernel_0::f_kernel"
func.func @f(%x: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %e = mk.exp %x : tensor<4x8xf16>
  %s = mk.silu %e : tensor<4x8xf16>
  return %s : tensor<4x8xf16>
}
