// Every equivalent and near-miss pair of test/Verify gets the same, expected
// verdict under 20 different seeds (4 field tests each): no flaky outcome.
// The bs 1 programs of test/Programs are covered by the same driver with
// `--seeds=20` in docs/verification.md (too slow for every lit run).
// RUN: %mirage_verify_bench --seeds=20 --tests=4 %S/equivalent/kernel-*.mlir %S/equivalent/block-*.mlir %S/block-level-equivalent.mlir %S/not-equivalent/kernel-*.mlir %S/not-equivalent/block-*.mlir | FileCheck %s

// CHECK-NOT: FLAKY
// CHECK-NOT: WRONG
// CHECK: 145 pairs, 0 flaky or wrong
