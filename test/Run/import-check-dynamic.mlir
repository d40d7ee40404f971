// REQUIRES: libomp
// The differential check of the import at given sizes (docs/dynamic.md):
// a function with dynamic dims is imported with them, the import is
// specialised at every combination of --sizes, and the original runs
// upstream at the same shapes. The exports of test/Import/dynamic-dims.mlir
// (Inputs/dynamic-exports.mlir: a dynamic LayerNorm, a softmax with every
// dim dynamic, a Linear with a head split of a dynamic batch, a matmul with
// a dynamic contraction) pass at sizes from 1 to 300, unnamed sizes by the
// names the import gives them (s0, s1). Sizes the program's static
// dims rule out (7 rows added to 4) are an error, never an out-of-bounds
// run; an unknown size name says which sizes there are.
// RUN: mirage-run --import-check %S/Inputs/dynamic-exports.mlir --func=layernorm --sizes tokens=1:7:100 | FileCheck %s --check-prefix=LN
// RUN: mirage-run --import-check %S/Inputs/dynamic-exports.mlir --func=softmax_all_dynamic --sizes s0=1:7,s1=1:33:128 | FileCheck %s --check-prefix=SOFTMAX
// RUN: mirage-run --import-check %S/Inputs/dynamic-exports.mlir --func=linear_heads --sizes s0=1:7:100 | FileCheck %s --check-prefix=HEADS
// RUN: mirage-run --import-check %S/Inputs/dynamic-exports.mlir --func=matmul_dynamic_k --sizes s0=1:65:300 | FileCheck %s --check-prefix=K
// RUN: not mirage-run --import-check %S/Inputs/dynamic-exports.mlir --func=mixed --sizes s0=1:4:7 2>&1 | FileCheck %s --check-prefix=MIXED
// RUN: not mirage-run --import-check %S/Inputs/dynamic-exports.mlir --func=tosa_matmul_mixed --sizes s0=7 2>&1 | FileCheck %s --check-prefix=MATMUL
// RUN: not mirage-run --import-check %S/Inputs/dynamic-exports.mlir --func=layernorm --sizes rows=7 2>&1 | FileCheck %s --check-prefix=NAME
// RUN: mirage-run --import-check %S/Inputs/dynamic-exports.mlir --func=layernorm --sizes tokens=7,s0=3 | FileCheck %s --check-prefix=OTHER

// LN: PASS @layernorm at tokens=1
// LN: PASS @layernorm at tokens=7
// LN: PASS @layernorm at tokens=100
// LN: 3 passed, 0 failed, 0 not checked
// SOFTMAX: PASS @softmax_all_dynamic at s0=7, s1=128
// SOFTMAX: 6 passed, 0 failed, 0 not checked
// HEADS: @linear_heads at s0=100: upstream lowering vs import
// HEADS: 3 passed, 0 failed, 0 not checked
// K: PASS @matmul_dynamic_k at s0=300
// K: 3 passed, 0 failed, 0 not checked
// MIXED: PASS @mixed at s0=1
// MIXED: PASS @mixed at s0=4
// MIXED: mirage-run: @mixed at s0=7: the sizes do not fit the program: 'tosa.add' op operands don't have broadcast-compatible shapes
// MIXED: 2 passed, 1 failed, 0 not checked
// MATMUL: mirage-run: @tosa_matmul_mixed at s0=7: the original: the upstream lowering failed: {{.*}}to be 7, but found 4
// A size of other functions (s0) is left to them.
// OTHER: PASS @layernorm at tokens=7, s0=3
// OTHER: 1 passed, 0 failed, 0 not checked
// NAME: NOT CHECKED @layernorm at rows=7: the import cannot be specialised at these sizes: no value given for size tokens (1 <= tokens <= 4096) of @layernorm
