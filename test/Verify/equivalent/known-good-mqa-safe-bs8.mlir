// The known-good split-sequence multi-query attention with a safe softmax
// (test/Programs/mqa_safe_split_seq_bs8.mlir) is equivalent to its kernel-level
// reference and passes the f16 numerics check (logits of magnitude 30
// included): per-chunk maxima rescaled by exp(m_j - M) lose nothing.
// RUN: mirage-opt --mlir-print-op-on-diagnostic=false --mirage-check-equivalence="tests=1 seed=1 numerics=1" %S/../../Programs/mqa_safe_split_seq_bs8.mlir -o /dev/null 2>&1 | FileCheck %s

// CHECK: remark: equivalent to @mqa_safe_ref (1 test, P(false equivalent) <= {{[0-9.e+-]+}})
// CHECK-SAME: f16 numerics: accepted
// CHECK-SAME: logits error
// CHECK-NOT: error:
// CHECK-NOT: warning
