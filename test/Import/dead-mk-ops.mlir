// RUN: mirage-opt --mirage-import %s 2>/dev/null | FileCheck %s
// RUN: mirage-run --import-check %s | FileCheck %s --check-prefix=DIFF

// Dead code of the input is imported like the rest, then erased: the mk ops
// that nothing reads (here a chain behind an op left outside) do not become
// an outlined function without results and a call that computes nothing.
// DIFF: PASS @dead_chain
// DIFF: 1 passed, 0 failed, 0 not checked

// CHECK-LABEL: func.func @dead_chain(
// CHECK-NEXT: %[[E:.*]] = call @dead_chain_mk0(%arg0)
// CHECK-NEXT: %[[A:.*]] = tosa.erf %[[E]]
// CHECK-NEXT: return %[[A]]
// CHECK-NOT: call
// CHECK-LABEL: func.func private @dead_chain_mk0(
// CHECK-NEXT: mk.exp
// CHECK-NEXT: return
// CHECK-NOT: func.func private @dead_chain_mk1
func.func @dead_chain(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = tosa.exp %a : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = tosa.erf %0 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = tosa.tanh %0 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %3 = tosa.reciprocal %2 : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %1 : tensor<4x8xf32>
}
