// REQUIRES: ptxas, cuda-runtime
// Every mgpu* function that the JIT-compiled GPU host code calls (module
// load, launch, streams, device memory and copies) is defined by the Mirage
// CUDA runtime that mirage-run --device=gpu loads.
// RUN: mirage-run %s --device=gpu --compile-only | sed -n 's/^runtime functions: //p' | tr ' ' '\n' > %t.calls
// RUN: FileCheck %s --input-file=%t.calls
// RUN: nm -D --defined-only %cuda_runtime | awk '{print $3}' > %t.defined
// RUN: not grep -vxFf %t.defined %t.calls
// CHECK-DAG: mgpuLaunchKernel
// CHECK-DAG: mgpuMemAlloc
// CHECK-DAG: mgpuMemcpy
// CHECK-DAG: mgpuModuleLoadJIT
func.func @f(%x: tensor<4x8xf16>) -> (tensor<4x8xf16>, tensor<4x8xf16>) {
  %e = mk.exp %x : tensor<4x8xf16>
  %s = mk.mul %e, %x : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  return %s, %x : tensor<4x8xf16>, tensor<4x8xf16>
}
