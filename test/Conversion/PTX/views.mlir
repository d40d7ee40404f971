// RUN: mirage-opt %mirage_src_root/test/Run/views.mlir --mirage-to-ptx="chip=sm_90 dump-dir=%t" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --check-prefix=HEADS < %t/heads_kernel.ptx
// RUN: FileCheck %s --check-prefix=LINEAR < %t/linear_kernel.ptx

// The kernels with views of `test/Run/views.mlir` in PTX (docs/lowering.md,
// Views). The head split, (h, t, d) -> (t, h * 16 + d), keeps 16-byte
// cp.async copies in (the pipeline's three iterations ahead, then one per
// iteration) and 16-byte stores out, with no scalar global access. W^T
// read in place, (k, n) -> (n, k), is copied one f16 at a time with the
// remark that says why, next to X's 16-byte cp.async and the rank-1
// bias's 16-byte loads; so is GQA's K^T.

// REMARK: views.mlir:{{[0-9]+}}:{{[0-9]+}}: remark: input tile copied one element (2 bytes) at a time: the view's last dim is not contiguous in the device tensor (stride 32)
// REMARK: views.mlir:{{[0-9]+}}:{{[0-9]+}}: remark: input tile copied one element (2 bytes) at a time: the view's last dim is not contiguous in the device tensor (stride 64)
// REMARK-NEXT: %wt = mb.input_iter %W

// HEADS-COUNT-4: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16;
// HEADS-NOT: ld.global
// HEADS: st.global.v4.b32
// HEADS-NOT: st.global

// LINEAR: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16;
// LINEAR: ld.global.b16
// LINEAR: ld.global.v4.b32
// LINEAR: st.global.v4.b32
