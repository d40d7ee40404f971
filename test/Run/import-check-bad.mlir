// The differential check of the import (--import-check) on what it cannot
// check: every such function is named with the reason, and the run fails
// when nothing was checked or when the function named by --func was not.
// RUN: not mirage-run --import-check %s | FileCheck %s
// RUN: not mirage-run --import-check %s --func=control_flow | FileCheck %s --check-prefix=ONE
// RUN: not mirage-run --import-check %s --func=nope 2>&1 | FileCheck %s --check-prefix=NOFUNC
// RUN: not mirage-run --import-check --device=gpu %s 2>&1 | FileCheck %s --check-prefix=GPU
// RUN: mirage-run --import-check %s --func=checked | FileCheck %s --check-prefix=PASS

// CHECK-DAG: NOT CHECKED @dynamic: it has dynamic dims: give their sizes with --sizes name=v1:v2,... (docs/dynamic.md)
// CHECK-DAG: NOT CHECKED @ints: element type i32 is not supported (f16, bf16, f32; integer arguments)
// CHECK-DAG: NOT CHECKED @control_flow: the imported function has 2 blocks (control flow); the check evaluates one block
// CHECK-DAG: NOT CHECKED @mk_in_loop: an mk op or call is nested in 'scf.for', which the import leaves outside; the check evaluates mk code at the function's top level only
// CHECK: 0 passed, 0 failed, 4 not checked
// ONE: NOT CHECKED @control_flow
// ONE: 0 passed, 0 failed, 1 not checked
// NOFUNC: mirage-run: no function @nope with a body
// GPU: mirage-run: --import-check runs on the CPU once
// PASS: PASS @checked
// PASS: 1 passed, 0 failed, 0 not checked

// Functions whose import leaves ops outside mk are checked
// (import-check-outside.mlir), but not those with control flow between
// blocks, nor mk code inside an op left outside.
func.func @control_flow(%a: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %0 = tosa.exp %a : (tensor<2x8xf32>) -> tensor<2x8xf32>
  cf.br ^bb1(%0 : tensor<2x8xf32>)
^bb1(%1: tensor<2x8xf32>):
  %2 = tosa.tanh %1 : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %2 : tensor<2x8xf32>
}

func.func @mk_in_loop(%a: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%x = %a) -> (tensor<2x8xf32>) {
    %y = tosa.tanh %x : (tensor<2x8xf32>) -> tensor<2x8xf32>
    scf.yield %y : tensor<2x8xf32>
  }
  return %r : tensor<2x8xf32>
}

func.func @dynamic(%a: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %0 = tosa.exp %a : (tensor<?x8xf32>) -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}

func.func @ints(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = tosa.add %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// Private: checked only when named.
func.func private @checked(%a: tensor<2x8xf32>, %b: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %0 = tosa.sub %a, %b : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %1 = tosa.exp %0 : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %1 : tensor<2x8xf32>
}
