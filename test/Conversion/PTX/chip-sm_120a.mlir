// RUN: mirage-opt %S/Inputs/chip-kernels.mlir --mirage-to-ptx="chip=sm_120a dump-dir=%t" -o /dev/null
// RUN: FileCheck %s < %t/gated_mlp_kernel.ptx
// RUN: FileCheck %s --check-prefix=EW < %t/thread_ops_kernel.ptx
// RUN: %if ptxas-sm_120a %{ %mirage_src_root/scripts/ptx-check mirage-opt %S/Inputs/chip-kernels.mlir sm_120a %t/ptxas %ptxas | FileCheck %s --check-prefix=PTXAS %}

// sm_120a: RTX 5090 with the architecture-specific features (compute
// capability 12.0 only). PTX 8.7, the lowest version LLVM 22's NVPTX backend
// takes for sm_120a. The tensor-core GatedMLP kernel (cp.async tiles,
// ldmatrix, mma.sync) and the element-wise kernel lower to PTX for sm_120a;
// where the installed ptxas knows sm_120a, both assemble without spills.

// CHECK: .version 8.7
// CHECK-NEXT: .target sm_120a{{$}}
// CHECK: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16;
// CHECK: cp.async.wait_group
// CHECK: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK: ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16
// CHECK: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// EW: .version 8.7
// EW-NEXT: .target sm_120a{{$}}
// EW: max.NaN.f32
// PTXAS-DAG: gated_mlp_kernel: registers {{[0-9]+}}, spill stores 0, spill loads 0
// PTXAS-DAG: thread_ops_kernel: registers {{[0-9]+}}, spill stores 0, spill loads 0
