// Options that only mean something for the GPU, and an unknown target, are
// refused before anything is read or loaded.
// RUN: not mirage-run %s --chip=sm_90 2>&1 | FileCheck %s --check-prefix=CPU
// RUN: not mirage-run %s --ptx-dump-dir=%t 2>&1 | FileCheck %s --check-prefix=CPU
// RUN: not mirage-run %s --device=gpu --chip=sm_70 --compile-only 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not mirage-run %s --device=gpu --chip=rtx3090 --compile-only 2>&1 | FileCheck %s --check-prefix=PART
// CPU: mirage-run: --chip and --ptx-dump-dir need --device=gpu
// CHIP: mirage-run: unknown --chip=sm_70 (expected an architecture (sm_80, sm_86, sm_89, sm_90, sm_90a, sm_100, sm_100a, sm_120, sm_120a) or a part (a100-40gb, {{.*}}, rtx5090))
// PART: mirage-run: unknown --chip=rtx3090 (expected an architecture
func.func @f(%x: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %y = mk.exp %x : tensor<4x8xf16>
  return %y : tensor<4x8xf16>
}
