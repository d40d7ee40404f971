// REQUIRES: ptxas
// RUN: for f in %mirage_src_root/bench/programs/*.mlir %mirage_src_root/test/Programs/*.mlir; do \
// RUN:   for chip in sm_80 sm_90; do \
// RUN:     %mirage_src_root/scripts/ptx-check mirage-opt $f $chip %t/ptx %ptxas || echo "FAILED $f $chip"; \
// RUN:   done; \
// RUN: done | FileCheck %s

// Every benchmark program, in its input form and its known-good fused form,
// assembles for sm_80 and sm_90 with 0 errors and no spills.

// CHECK-NOT: FAILED
// CHECK-NOT: spill stores {{[1-9]}}
// CHECK: _kernel: registers
// CHECK-NOT: FAILED
// CHECK-NOT: spill stores {{[1-9]}}
