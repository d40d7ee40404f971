// RUN: for f in %mirage_src_root/bench/programs/*.mlir %mirage_src_root/bench/layers/*.mlir %mirage_src_root/test/Programs/*.mlir; do \
// RUN:   echo "FILE $f"; mirage-opt $f --mirage-to-gpu="tensor-cores=1 async-copies=1" -o /dev/null 2>&1 | grep "bank conflicts"; \
// RUN: done > %t.out; echo done >> %t.out; FileCheck %s < %t.out
// RUN: mirage-opt %mirage_src_root/test/Programs/gated_mlp_fused.mlir --mirage-wrap-kernels --convert-mirage-to-gpu="tensor-cores=1 async-copies=1 swizzle-shared=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PLAIN

// The static bank rule over every benchmark program and layer (input
// form) and every known-good fused program, lowered as the PTX pipeline
// lowers them (tensor cores, cp.async): no ldmatrix, fragment load or tile
// copy of theirs takes more shared-memory wavefronts than a conflict-free
// access (docs/codegen.md). Without the swizzle, the fused GatedMLP kernel's
// tensor-core loads conflict.

// CHECK-NOT: bank conflicts
// CHECK: FILE {{.*}}gated_mlp_fused.mlir
// CHECK-NOT: bank conflicts
// CHECK: done

// PLAIN: remark: shared-memory bank conflicts in the tensor-core operand loads
