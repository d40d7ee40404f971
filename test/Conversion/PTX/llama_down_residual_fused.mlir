// RUN: mirage-opt %mirage_src_root/test/Programs/llama_down_residual_fused.mlir --mirage-to-ptx="chip=sm_90 dump-dir=%t/sm_90" -o /dev/null
// RUN: cat %t/sm_90/*.ptx | FileCheck %s --check-prefix=SM90
// RUN: FileCheck %s --check-prefix=FUSED < %t/sm_90/llama_down_residual_kernel.ptx
// RUN: mirage-opt %mirage_src_root/test/Programs/llama_down_residual_fused.mlir --mirage-to-ptx="chip=sm_80 dump-dir=%t/sm_80" -o /dev/null
// RUN: cat %t/sm_80/*.ptx | FileCheck %s --check-prefix=SM80
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/sm_90/manifest.json

// The known-good program (reference and fused forms)
// `test/Programs/llama_down_residual_fused.mlir` lowers to PTX for sm_80 and
// sm_90: 3 kernel module(s) (the reference's matmul and add, the fused
// kernel), one entry point each, and a manifest entry per launch. The fused
// kernel streams H and W_down through cp.async into tensor-core mmas and
// loads its residual tile once after the loop with 16-byte loads.

// SM90-COUNT-3: .version 8.0
// SM90-NOT: .version
// SM80-COUNT-3: .version 7.0
// SM80-NOT: .version
// FUSED: cp.async.cg.shared.global
// FUSED: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// FUSED-NOT: cp.async
// FUSED: ld.global.v4.b32
// FUSED: st.global.v4.b32
// MANIFEST: "functions"
// MANIFEST-COUNT-3: "kernel":
// MANIFEST-NOT: "kernel":
