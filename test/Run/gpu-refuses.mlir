// UNSUPPORTED: cuda-gpu
// Without a GPU (and without the runtime, where the CUDA toolkit was not
// found), --device=gpu refuses before it lowers anything.
// RUN: not mirage-run %s --device=gpu 2>&1 | FileCheck %s
// RUN: not mirage-run %s --device=tpu 2>&1 | FileCheck %s --check-prefix=DEV
// CHECK: mirage-run: --device=gpu{{( needs the Mirage CUDA runtime|: no usable CUDA driver or GPU|: no CUDA GPU is present)}}
// DEV: mirage-run: unknown --device=tpu
func.func @f(%x: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %y = mk.exp %x : tensor<4x8xf16>
  return %y : tensor<4x8xf16>
}
