// --mirage-import-to-ptx does not fail because of what the import leaves
// outside mk. Those ops stay in the output, on tensors, for upstream to
// lower. mirage-to-ptx's LLVM conversions (convert-arith-to-llvm among them)
// run over the whole module, including the bodies of those ops: a named
// linalg op whose mulf/addf became llvm.fmul/fadd failed its verifier
// ("expected add/mul op in the body"). The lowering now generalizes named
// linalg ops first, and upstream's linalg lowering still takes the result.
// RUN: mirage-opt --mirage-import-to-ptx="time-budget=5 cache-dir=none" %s 2>/dev/null | FileCheck %s
// RUN: mirage-opt --mirage-import-to-ptx="time-budget=5 cache-dir=none" %s 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: mirage-opt --mirage-import-to-ptx="time-budget=5 cache-dir=none" %s 2>/dev/null | mlir-opt --one-shot-bufferize=bufferize-function-boundaries --convert-linalg-to-loops | FileCheck %s --check-prefix=UPSTREAM

// REMARK-NOT: error
// REMARK: remark: mirage-import: left outside: operand type is not an f16/bf16/f32 tensor
// REMARK-NOT: error

// A matmul whose contracted dim is dynamic in one operand and static in
// the other (a run-time checked equality), left outside whole (a dynamic
// contracted dim in both is imported now, docs/dynamic.md).
// CHECK-LABEL: func.func @mixed_k_matmul(
// CHECK: linalg.generic
// CHECK: llvm.fmul
// CHECK: llvm.fadd
// CHECK: linalg.yield
// UPSTREAM-LABEL: func.func @mixed_k_matmul(
// UPSTREAM: scf.for
// UPSTREAM: llvm.fmul
func.func @mixed_k_matmul(%a: tensor<8x?xf32>, %b: tensor<16x8xf32>, %c: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<8x?xf32>, tensor<16x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}

// An integer matmul beside an imported f32 one: the f32 part becomes a
// kernel, the i32 matmul stays outside.
// CHECK-LABEL: func.func @int_matmul_beside(
// CHECK: llvm.call @int_matmul_beside_mk0(
// CHECK: linalg.generic
// CHECK-SAME: tensor<8x16xi32>
// CHECK: llvm.mul
// CHECK-LABEL: llvm.func @int_matmul_beside_mk0(
// CHECK: gpu.launch_func
func.func @int_matmul_beside(%a: tensor<8x16xf32>, %b: tensor<16x8xf32>, %i: tensor<8x16xi32>, %j: tensor<16x8xi32>, %c: tensor<8x8xi32>) -> (tensor<8x8xf32>, tensor<8x8xi32>) {
  %e = tosa.exp %a : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %z = arith.constant 0.0 : f32
  %o = tensor.empty() : tensor<8x8xf32>
  %f = linalg.fill ins(%z : f32) outs(%o : tensor<8x8xf32>) -> tensor<8x8xf32>
  %m = linalg.matmul ins(%e, %b : tensor<8x16xf32>, tensor<16x8xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
  %n = linalg.matmul ins(%i, %j : tensor<8x16xi32>, tensor<16x8xi32>) outs(%c : tensor<8x8xi32>) -> tensor<8x8xi32>
  return %m, %n : tensor<8x8xf32>, tensor<8x8xi32>
}
