// REQUIRES: ptxas
// The GPU path of mirage-run up to the launch, without a GPU or a driver:
// mirage-to-ptx with device buffers, the kernels' PTX embedded as gpu.binary,
// the host code lowered by gpu-to-llvm and JIT-compiled with its mgpu* calls
// bound to a stub that is never called. The embedded PTX assembles.
// RUN: mirage-run %s --device=gpu --compile-only --ptx-dump-dir=%t | FileCheck %s
// RUN: for f in %t/*.ptx; do %ptxas -arch=sm_90 $f -o /dev/null || echo "FAILED $f"; done 2>&1 | FileCheck %s --allow-empty --check-prefix=PTXAS
// RUN: ls %t | FileCheck %s --check-prefix=FILES
// RUN: mirage-run %s --device=gpu --compile-only --chip=sm_80 | FileCheck %s --check-prefix=SM80
// A part names its architecture.
// RUN: mirage-run %s --device=gpu --compile-only --chip=l40s | FileCheck %s --check-prefix=L40S
// The fused GatedMLP kernel (tensor cores, cp.async, registers).
// RUN: mirage-run %mirage_src_root/test/Programs/gated_mlp_fused.mlir --func=gated_mlp_fused --device=gpu --compile-only | FileCheck %s --check-prefix=FUSED

// Two kernels, the first one's result a temporary in device memory, and a
// result that is an argument (a device copy).
// CHECK: @f on gpu (sm_90): compile-only: 2 kernel binaries (PTX, {{[0-9]+}} bytes), host code JIT-compiled in {{.*}} ms, 0 runtime calls made
// CHECK-NEXT: runtime functions: mgpuLaunchKernel mgpuMemAlloc mgpuMemFree mgpuMemcpy mgpuModuleGetFunction mgpuModuleLoadJIT mgpuModuleUnload mgpuStreamCreate mgpuStreamDestroy mgpuStreamSynchronize{{$}}
// PTXAS-NOT: FAILED
// FILES: f_kernel.ptx
// FILES: f_kernel_0.ptx
// FILES: manifest.json
// SM80: @f on gpu (sm_80): compile-only: 2 kernel binaries
// L40S: @f on gpu (sm_89): compile-only: 2 kernel binaries
// FUSED: @gated_mlp_fused on gpu (sm_90): compile-only: 1 kernel binaries
// FUSED-SAME: 0 runtime calls made

// Without libdevice the PTX would call an undefined __nv_expf, which the
// driver cannot load: an error before anything runs.
// RUN: env CUDA_HOME=%t/none not mirage-run %s --device=gpu --compile-only 2>&1 | FileCheck %s --check-prefix=NOLIBDEVICE
// NOLIBDEVICE: error: the PTX calls an undefined function ({{.*}}__nv_expf): libdevice was not linked; set CUDA_HOME to a CUDA toolkit
// NOLIBDEVICE: mirage-run: @f: the kernels cannot be loaded on a GPU
func.func @f(%x: tensor<4x8xf16>) -> (tensor<4x8xf16>, tensor<4x8xf16>) {
  %e = mk.exp %x : tensor<4x8xf16>
  %s = mk.mul %e, %x : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  return %s, %x : tensor<4x8xf16>, tensor<4x8xf16>
}
