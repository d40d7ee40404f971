// RUN: mirage-opt --mirage-import-to-ptx %s | FileCheck %s
// RUN: mirage-run --import-check %s | FileCheck %s --check-prefix=DIFF
// RUN: mirage-opt --mirage-import-to-ptx="chip=a100-40gb time-budget=5 threads=2 cache-dir=none" %s 2>&1 | FileCheck %s --check-prefix=PART
// RUN: not mirage-opt --mirage-import-to-ptx="chip=sm_70" %s 2>&1 | FileCheck %s --check-prefix=BADCHIP
// RUN: not mirage-opt --mirage-import-to-ptx='dump-dir=a"b' %s 2>&1 | FileCheck %s --check-prefix=QUOTE
// RUN: not mirage-opt --mirage-import-to-ptx="depth=3" %s 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// The differential check (docs/import.md): each function written in
// linalg/tosa, run by upstream MLIR's CPU lowering in f32, against the f64
// interpreter of its import, on the same seeded inputs.
// DIFF: PASS @small
// DIFF: 1 passed, 0 failed, 0 not checked

// The named pipeline: tosa -> mk (mirage-import) -> mirage-superoptimize ->
// mirage-to-ptx. The kernel is PTX for sm_90 (the default chip).

// CHECK-NOT: tosa.
// CHECK-LABEL: llvm.func @small(
// CHECK: gpu.launch_func @small_kernel::@small_kernel
// CHECK: gpu.binary @small_kernel [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">
// CHECK-SAME: .target sm_90
// CHECK-SAME: .visible .entry small_kernel
// The pipeline's options go to the search (the part's cost model) and to the
// lowering (the part's architecture).
// PART: remark: superoptimized: {{.*}} modelled {{.*}} on a100-40gb
// PART: chip = "sm_80", features = "+ptx70"
// PART-SAME: .target sm_80
// BADCHIP: error: mirage-import-to-ptx: unknown chip 'sm_70' (expected an architecture (sm_80, {{.*}}) or a part (a100-40gb, {{.*}}))
// QUOTE: error: mirage-import-to-ptx: option values may not contain '"'
// UNKNOWN: no such option depth

func.func @small(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tosa.exp %a : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %0 = tosa.add %e, %b : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}
