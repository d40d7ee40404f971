// RUN: mirage-opt %mirage_src_root/test/Programs/mqa_safe_split_seq.mlir --mirage-to-ptx="chip=sm_90 dump-dir=%t/sm_90" -o /dev/null
// RUN: cat %t/sm_90/*.ptx | FileCheck %s --check-prefix=SM90
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/sm_90/manifest.json

// The safe split-sequence multi-query attention (test/Programs/mqa_safe_split_seq.mlir:
// reduce_max, accum_rescaled_sum and accum_max in the kernels) lowers to PTX
// for sm_90: 7 kernel modules for the reference, 2 for the fused form.

// SM90-COUNT-9: .version 8.0
// SM90-NOT: .version
// MANIFEST: "functions"
// MANIFEST-COUNT-9: "kernel":
// MANIFEST-NOT: "kernel":
