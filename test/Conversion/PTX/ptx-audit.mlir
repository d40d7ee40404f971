// RUN: for f in %mirage_src_root/bench/programs/*.mlir %mirage_src_root/bench/layers/*.mlir %mirage_src_root/test/Programs/*.mlir; do \
// RUN:   for chip in sm_80 sm_90; do \
// RUN:     rm -rf %t.d && mirage-opt $f --mirage-to-ptx="chip=$chip dump-dir=%t.d" -o /dev/null 2>/dev/null && \
// RUN:     %mirage_src_root/scripts/ptx-audit --min-loop-16b 0.9 %t.d/*.ptx > %t.log || { echo "FAILED $f $chip"; cat %t.log; }; \
// RUN:   done; \
// RUN: done > %t.out; echo done >> %t.out; FileCheck %s < %t.out
// RUN: rm -rf %t.s && mirage-opt %S/Inputs/scalar-rows.mlir --mirage-to-ptx="chip=sm_90 dump-dir=%t.s" -o /dev/null 2>/dev/null
// RUN: not %mirage_src_root/scripts/ptx-audit --min-loop-16b 0.9 %t.s/*.ptx | FileCheck %s --check-prefix=SCALAR

// The static audit of the generated code (docs/codegen.md): in the PTX of
// every benchmark program and layer (the input form, every op its own
// kernel) and of every known-good fused program, for sm_80 and sm_90, at
// least 90 % of the global loads in loop bodies move 16 bytes (cp.async or
// a vector load). A kernel whose loop goes back to scalar loads fails it.

// CHECK-NOT: FAILED
// CHECK: done

// SCALAR: scalar_rows_kernel loop-loads 16B 0/{{[1-9][0-9]*}} (0%) loads s2=
// SCALAR: FAILED: 0% of the loop-body global loads move 16 bytes, below 90%
