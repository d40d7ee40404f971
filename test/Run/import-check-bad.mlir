// The differential check of the import (--import-check) on what it cannot
// check: every such function is named with the reason, and the run fails
// when nothing was checked or when the function named by --func was not.
// RUN: not mirage-run --import-check %s | FileCheck %s
// RUN: not mirage-run --import-check %s --func=kept_outside | FileCheck %s --check-prefix=ONE
// RUN: not mirage-run --import-check %s --func=nope 2>&1 | FileCheck %s --check-prefix=NOFUNC
// RUN: not mirage-run --import-check --device=gpu %s 2>&1 | FileCheck %s --check-prefix=GPU
// RUN: mirage-run --import-check %s --func=checked | FileCheck %s --check-prefix=PASS

// CHECK-DAG: NOT CHECKED @kept_outside: the import leaves 'tosa.erf' outside mk
// CHECK-DAG: NOT CHECKED @dynamic: type tensor<?x8xf32> is not a static tensor
// CHECK-DAG: NOT CHECKED @ints: element type i32 is not supported (f16, bf16, f32)
// CHECK-DAG: NOT CHECKED @rank5: the import leaves 'tosa.exp' outside mk
// CHECK: 0 passed, 0 failed, 4 not checked
// ONE: NOT CHECKED @kept_outside
// ONE: 0 passed, 0 failed, 1 not checked
// NOFUNC: mirage-run: no function @nope with a body
// GPU: mirage-run: --import-check runs on the CPU once
// PASS: PASS @checked
// PASS: 1 passed, 0 failed, 0 not checked

func.func @kept_outside(%a: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %0 = tosa.exp %a : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %1 = tosa.erf %0 : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %1 : tensor<2x8xf32>
}

func.func @dynamic(%a: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %0 = tosa.exp %a : (tensor<?x8xf32>) -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}

func.func @ints(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = tosa.add %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

func.func @rank5(%a: tensor<1x2x2x2x2xf32>) -> tensor<1x2x2x2x2xf32> {
  %0 = tosa.exp %a : (tensor<1x2x2x2x2xf32>) -> tensor<1x2x2x2x2xf32>
  return %0 : tensor<1x2x2x2x2xf32>
}

// Private: checked only when named.
func.func private @checked(%a: tensor<2x8xf32>, %b: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %0 = tosa.sub %a, %b : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %1 = tosa.exp %0 : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %1 : tensor<2x8xf32>
}
