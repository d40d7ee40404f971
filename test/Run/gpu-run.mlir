// REQUIRES: cuda-gpu, cuda-runtime
// On a GPU: the PTX lowering runs in-process (device buffers allocated and
// copied through the runtime, kernels loaded from the embedded PTX) and its
// outputs are compared with the f64 interpreter as on the CPU. Not run yet:
// no GPU was lent to the session that wrote it (docs/running.md).
// RUN: mirage-run %s --device=gpu --runs=3 | FileCheck %s
// RUN: not mirage-run %s --device=gpu --tol-scale=0 | FileCheck %s --check-prefix=MISMATCH
// RUN: mirage-run %s --device=gpu --func=second | FileCheck %s --check-prefix=SECOND
// A superoptimized layer (several graph-defined kernels, temporaries).
// RUN: mirage-opt %mirage_src_root/test/Run/layers/llama3_8b_mlp_decode.mlir --mirage-superoptimize="threads=2 time-budget=4 cache-dir=none" \
// RUN: | mirage-run - --device=gpu --input-scale=0.25 | FileCheck %s --check-prefix=LAYER
// CHECK: output 0 (f16, 32 elements)
// CHECK: output 1 (f16, 32 elements): max abs err 0.000e+00
// CHECK: @f on gpu (sm_{{[89]}}0): max abs err {{.*}} (3 timed runs, first run {{.*}} ms, module load {{.*}} ms)
// CHECK-NEXT: PASS
// MISMATCH: MISMATCH output 0 element
// MISMATCH: FAIL
// SECOND: output 0 (f32, 32 elements)
// SECOND: output 1 (bf16, 32 elements)
// SECOND: @second on gpu
// SECOND-NEXT: PASS
// LAYER: @llama3_8b_mlp_decode on gpu
// LAYER-NEXT: PASS
func.func @f(%x: tensor<4x8xf16>) -> (tensor<4x8xf16>, tensor<4x8xf16>) {
  %e = mk.exp %x : tensor<4x8xf16>
  %s = mk.mul %e, %x : tensor<4x8xf16>, tensor<4x8xf16> -> tensor<4x8xf16>
  return %s, %x : tensor<4x8xf16>, tensor<4x8xf16>
}
func.func @second(%x: tensor<4x8xf32>, %y: tensor<4x8xbf16>) -> (tensor<4x8xf32>, tensor<4x8xbf16>) {
  %e = mk.exp %x : tensor<4x8xf32>
  %s = mk.silu %y : tensor<4x8xbf16>
  return %e, %s : tensor<4x8xf32>, tensor<4x8xbf16>
}
