// The differential check of the import (--import-check) on functions whose
// import leaves ops outside mk: the outlined mk calls run in the f64
// interpreter, each run of ops left outside (with the constants and empties
// it reads) as a function that upstream MLIR lowers and runs, in program
// order, values passed as host tensors (docs/import.md).
// RUN: mirage-run --import-check %s | FileCheck %s
// A wrong result in either part is found: a fault injected into the steps
// run upstream, or into the interpreter's steps.
// RUN: not mirage-run --import-check %s --func=unsupported_between --import-check-fault=outside | FileCheck %s --check-prefix=FAULT-OUT
// RUN: not mirage-run --import-check %s --func=rank5_between --import-check-fault=mk | FileCheck %s --check-prefix=FAULT-MK
// RUN: not mirage-run --import-check %s --func=loop_outside --import-check-fault=outside | FileCheck %s --check-prefix=FAULT-LOOP

// CHECK: @empty_between: upstream lowering vs import (2 mk ops, 2 outlined calls; 1 ops left outside, run upstream in 1 segments)
// CHECK-NEXT: PASS @empty_between
// CHECK: @unsupported_between: upstream lowering vs import (3 mk ops, 2 outlined calls; 1 ops left outside, run upstream in 1 segments)
// CHECK-NEXT: PASS @unsupported_between
// CHECK: @rank5_between: upstream lowering vs import (3 mk ops, 2 outlined calls; 4 ops left outside, run upstream in 1 segments)
// CHECK-NEXT: PASS @rank5_between
// CHECK: @loop_outside: upstream lowering vs import (2 mk ops, 2 outlined calls; 1 ops left outside, run upstream in 1 segments)
// CHECK-NEXT: PASS @loop_outside
// One buffer returned twice, by a segment (a value and its tosa.identity,
// both used later) and by the function itself: upstream's
// buffer-results-to-out-params crashed on it with hoist-static-allocs
// (found by bench/import/mutate).
// CHECK: @same_buffer_twice: upstream lowering vs import (2 mk ops, 2 outlined calls; 2 ops left outside, run upstream in 1 segments)
// CHECK-NEXT: PASS @same_buffer_twice
// CHECK: @returned_twice: upstream lowering vs import
// CHECK-NEXT: PASS @returned_twice
// CHECK: 6 passed, 0 failed, 0 not checked

// FAULT-OUT: MISMATCH output 0 element 0 [0, 0]
// FAULT-OUT: FAIL @unsupported_between
// FAULT-OUT: 0 passed, 1 failed, 0 not checked
// FAULT-MK: MISMATCH output 0 element 0 [0, 0]
// FAULT-MK: FAIL @rank5_between
// FAULT-LOOP: MISMATCH output 0 element 0 [0, 0]
// FAULT-LOOP: FAIL @loop_outside

// A generic the import leaves outside (it reads a diagonal), with the
// tensor.empty of its destination, between two mk calls.
func.func @empty_between(%a: tensor<4x4xf32>, %v: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %x = tosa.exp %a : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %e = tensor.empty() : tensor<4x4xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
         ins(%x, %v : tensor<4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%p: f32, %q: f32, %out: f32):
    %0 = arith.addf %p, %q : f32
    linalg.yield %0 : f32
  } -> tensor<4x4xf32>
  %z = tosa.tanh %y : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %z : tensor<4x4xf32>
}

// An op mk has no counterpart of (tosa.erf) between two mk runs.
func.func @unsupported_between(%a: tensor<2x8xf32>, %b: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %0 = tosa.sub %a, %b : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %1 = tosa.erf %0 : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %2 = tosa.tanh %1 : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %3 = tosa.add %2, %a : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  return %3 : tensor<2x8xf32>
}

// Rank-5 ops (a reshape to rank 5, a tile, a tanh) between two mk runs; the
// reshapes next to mk code are views for the interpreter.
func.func @rank5_between(%a: tensor<2x8xf32>) -> tensor<2x16xf32> {
  %0 = tosa.exp %a : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %s5 = tosa.const_shape {values = dense<[1, 2, 2, 2, 2]> : tensor<5xindex>} : () -> !tosa.shape<5>
  %1 = tosa.reshape %0, %s5 : (tensor<2x8xf32>, !tosa.shape<5>) -> tensor<1x2x2x2x2xf32>
  %t = tosa.const_shape {values = dense<[1, 1, 1, 1, 2]> : tensor<5xindex>} : () -> !tosa.shape<5>
  %2 = tosa.tile %1, %t : (tensor<1x2x2x2x2xf32>, !tosa.shape<5>) -> tensor<1x2x2x2x4xf32>
  %3 = tosa.tanh %2 : (tensor<1x2x2x2x4xf32>) -> tensor<1x2x2x2x4xf32>
  %s2 = tosa.const_shape {values = dense<[4, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %4 = tosa.reshape %3, %s2 : (tensor<1x2x2x2x4xf32>, !tosa.shape<2>) -> tensor<4x8xf32>
  %5 = tosa.exp %4 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %s2b = tosa.const_shape {values = dense<[2, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %6 = tosa.reshape %5, %s2b : (tensor<4x8xf32>, !tosa.shape<2>) -> tensor<2x16xf32>
  return %6 : tensor<2x16xf32>
}

// A loop left outside (scf.for over tosa.erf) between two mk calls.
func.func @loop_outside(%a: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %e = tosa.exp %a : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%x = %e) -> (tensor<2x8xf32>) {
    %y = tosa.erf %x : (tensor<2x8xf32>) -> tensor<2x8xf32>
    scf.yield %y : tensor<2x8xf32>
  }
  %t = tosa.tanh %r : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %t : tensor<2x8xf32>
}

func.func @same_buffer_twice(%a: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = tosa.exp %a : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = tosa.abs %0 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = tosa.identity %1 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %3 = tosa.tanh %1 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %2, %3 : tensor<4x8xf32>, tensor<4x8xf32>
}

func.func @returned_twice(%a: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %0 = tosa.exp %a : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0, %0 : tensor<4x8xf32>, tensor<4x8xf32>
}
