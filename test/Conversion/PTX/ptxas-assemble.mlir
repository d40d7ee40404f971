// REQUIRES: ptxas
// RUN: %mirage_src_root/scripts/ptx-check mirage-opt %mirage_src_root/test/Programs/rmsnorm_matmul_fused.mlir sm_90 %t/rms90 %ptxas | FileCheck %s --check-prefix=RMS
// RUN: %mirage_src_root/scripts/ptx-check mirage-opt %mirage_src_root/test/Programs/rmsnorm_matmul_fused.mlir sm_80 %t/rms80 %ptxas | FileCheck %s --check-prefix=RMS
// RUN: %mirage_src_root/scripts/ptx-check mirage-opt %mirage_src_root/test/Programs/gated_mlp_fused.mlir sm_90 %t/mlp90 %ptxas | FileCheck %s --check-prefix=MLP
// RUN: %mirage_src_root/scripts/ptx-check mirage-opt %mirage_src_root/test/Programs/gated_mlp_fused.mlir sm_80 %t/mlp80 %ptxas | FileCheck %s --check-prefix=MLP
// RUN: %mirage_src_root/scripts/ptx-check mirage-opt %mirage_src_root/test/Run/views.mlir sm_90 %t/views90 %ptxas 2>/dev/null | FileCheck %s --check-prefix=VIEWS

// The PTX of the fused RMSNorm+MatMul and GatedMLP kernels (and of their
// references, wrapped kernel by kernel) assembles with ptxas with no errors
// and no register spills; so do the kernels that read and write through
// views (test/Run/views.mlir).

// RMS: rmsnorm_matmul_fused_kernel: registers {{[0-9]+}}, spill stores 0, spill loads 0
// MLP: gated_mlp_fused_kernel: registers {{[0-9]+}}, spill stores 0, spill loads 0
// VIEWS-COUNT-5: _kernel: registers {{[0-9]+}}, spill stores 0, spill loads 0
