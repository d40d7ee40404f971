// RUN: mirage-opt %mirage_src_root/test/Run/dynamic-views.mlir --mirage-to-ptx="chip=sm_90 dump-dir=%t" -o /dev/null
// RUN: FileCheck %s --check-prefix=LINEAR < %t/linear_heads_kernel.ptx
// RUN: FileCheck %s --check-prefix=ATTN < %t/attention_heads_kernel.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json
// RUN: %if ptxas-sm_90 %{ %mirage_src_root/scripts/ptx-check mirage-opt %mirage_src_root/test/Run/dynamic-views.mlir sm_90 %t/ptxas %ptxas | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas-sm_80 %{ %mirage_src_root/scripts/ptx-check mirage-opt %mirage_src_root/test/Run/dynamic-views.mlir sm_80 %t/ptxas80 %ptxas | FileCheck %s --check-prefix=PTXAS %}

// The dynamic kernels of test/Run/dynamic-views.mlir, which read and write
// through views of the tokens dim (docs/dynamic.md, "Views"), in PTX: the
// head-split reads of Q and V and the Linear's rows keep 16-byte cp.async
// copies (clamped at the tail), the merged output 16-byte stores; K^T read
// in place walks the keys across rows, one 4-byte element at a time. The
// grids are ceil(tokens / tile) read from the arguments (the manifest);
// every kernel (the references' too) assembles for sm_90 and sm_80, the
// two fused ones without spills.

// LINEAR: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16;
// LINEAR: st.global.v4.b32
// ATTN-COUNT-4: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16;
// ATTN: cp.async.ca.shared.global [{{.*}}], [{{.*}}], 4;
// ATTN: st.global.v4.b32

// MANIFEST: "ceil_div": [
// MANIFEST-NEXT:   0,
// MANIFEST-NEXT:   0,
// MANIFEST-NEXT:   8

// PTXAS-DAG: attention_heads_kernel: registers {{[0-9]+}}, spill stores 0, spill loads 0
// PTXAS-DAG: linear_heads_kernel: registers {{[0-9]+}}, spill stores 0, spill loads 0
