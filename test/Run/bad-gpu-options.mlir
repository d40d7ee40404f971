// Options that only mean something for the GPU, and an unknown target, are
// refused before anything is read or loaded.
// RUN: not mirage-run %s --chip=sm_90 2>&1 | FileCheck %s --check-prefix=CPU
// RUN: not mirage-run %s --ptx-dump-dir=%t 2>&1 | FileCheck %s --check-prefix=CPU
// RUN: not mirage-run %s --device=gpu --chip=sm_70 --compile-only 2>&1 | FileCheck %s --check-prefix=CHIP
// CPU: mirage-run: --chip and --ptx-dump-dir need --device=gpu
// CHIP: mirage-run: unknown --chip=sm_70 (expected sm_80 or sm_90)
func.func @f(%x: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %y = mk.exp %x : tensor<4x8xf16>
  return %y : tensor<4x8xf16>
}
