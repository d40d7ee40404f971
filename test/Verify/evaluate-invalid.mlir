// Bad inputs to --mirage-evaluate get diagnostics.
// RUN: mirage-opt --mirage-evaluate %s -split-input-file -verify-diagnostics -o /dev/null
// RUN: not mirage-opt --mirage-evaluate="domain=complex" %s -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=DOMAIN

// DOMAIN: error: --mirage-evaluate: domain must be 'float' or 'field', got 'complex'

// expected-error @below {{cannot evaluate @f: unsupported op 'arith.mulf': the evaluator knows only mk, mb and mt ops}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-note @below {{evaluation stopped here}}
  %y = arith.mulf %x, %x : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// expected-error @below {{cannot evaluate @g: argument #0 has type i32; the evaluator needs static float tensors of rank 1 to 4}}
func.func @g(%x: i32) -> i32 {
  return %x : i32
}
