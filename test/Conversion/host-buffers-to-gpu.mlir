// RUN: mirage-opt %s --mirage-wrap-kernels --convert-mirage-to-gpu --gpu-kernel-outlining --mirage-host-buffers-to-gpu | FileCheck %s
// RUN: mirage-opt %s --mirage-to-ptx="device-buffers=1" | FileCheck %s --check-prefix=LLVM
// RUN: mirage-opt %s --mirage-to-ptx | FileCheck %s --check-prefix=HOST

// Two kernels (the first one's result is a temporary) and a result that is
// an argument returned as it is (a copy). For a GPU, the temporary is
// allocated and freed in device memory and the copy is a device copy, each on
// a stream of its own that is waited for; the kernels get the device buffer.

// CHECK-LABEL: func.func @f(
// CHECK-SAME:      %[[X:.*]]: memref<4x8xf16>, %[[O0:.*]]: memref<4x8xf16>, %[[O1:.*]]: memref<4x8xf16>)
// CHECK-NOT:     memref.alloc
// CHECK:         %[[S0:.*]] = gpu.wait async
// CHECK-NEXT:    %[[T:.*]], %[[A0:.*]] = gpu.alloc async [%[[S0]]] () : memref<4x8xf16>
// CHECK-NEXT:    gpu.wait [%[[A0]]]
// CHECK:         gpu.launch_func @f_kernel::@f_kernel {{.*}} args(%[[X]] : memref<4x8xf16>, %[[T]] : memref<4x8xf16>)
// CHECK:         gpu.launch_func @f_kernel_0::@f_kernel {{.*}} args(%[[T]] : memref<4x8xf16>, %[[X]] : memref<4x8xf16>, %[[O0]] : memref<4x8xf16>)
// CHECK:         %[[S1:.*]] = gpu.wait async
// CHECK-NEXT:    %[[C:.*]] = gpu.memcpy async [%[[S1]]] %[[O1]], %[[X]]
// CHECK-NEXT:    gpu.wait [%[[C]]]
// CHECK:         %[[S2:.*]] = gpu.wait async
// CHECK-NEXT:    %[[D:.*]] = gpu.dealloc async [%[[S2]]] %[[T]]
// CHECK-NEXT:    gpu.wait [%[[D]]]
// CHECK-NOT:     memref.
// CHECK:         return

// Lowered with gpu-to-llvm, the host code calls the runtime for them and no
// longer allocates host memory.
// LLVM-LABEL: llvm.func @f(
// LLVM-NOT:     @malloc
// LLVM:         llvm.call @mgpuMemAlloc
// LLVM:         llvm.call @mgpuMemcpy
// LLVM:         llvm.call @mgpuMemFree
// LLVM-NOT:     @free
// LLVM:         llvm.return

// Without device-buffers (the kernel manifest's form for bench/gpu/run), the
// temporary stays a host allocation.
// HOST-LABEL: llvm.func @f(
// HOST:         llvm.call @malloc
// HOST-NOT:     @mgpuMemAlloc
// HOST:         llvm.return
func.func @f(%x: tensor<4x8xf16>) -> (tensor<4x8xf16>, tensor<4x8xf16>) {
  %e = mk.add %x, %x : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  %s = mk.mul %e, %x : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  return %s, %x : tensor<4x8xf16>, tensor<4x8xf16>
}
