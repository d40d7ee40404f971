// REQUIRES: cuda-runtime
// The runtime was built (the CUDA toolkit was found) and exports the mgpu*
// ABI that gpu-to-llvm host code calls.
// RUN: nm -D --defined-only %cuda_runtime | FileCheck %s
// CHECK-DAG: T mgpuLaunchKernel
// CHECK-DAG: T mgpuMemAlloc
// CHECK-DAG: T mgpuMemcpy
// CHECK-DAG: T mgpuModuleGetFunction
// CHECK-DAG: T mgpuModuleLoad
// CHECK-DAG: T mgpuStreamCreate
// CHECK-DAG: T mgpuEventCreate
// CHECK-DAG: T mgpuModuleLoadJIT
// CHECK-DAG: T mgpuMemFree
// CHECK-DAG: T mgpuStreamSynchronize
// What mirage-run --device=gpu asks before it lowers anything.
// CHECK-DAG: T mgpuMirageDeviceCount
// CHECK-DAG: T mgpuMirageComputeCapability
// CHECK-DAG: T mgpuMirageErrorCount
