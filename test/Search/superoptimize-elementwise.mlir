// REQUIRES: libomp
// reciprocal, tanh, max and gelu_erf in the search: each is fused into a
// graph-defined kernel, x * reciprocal(m) is found as x / m (reciprocal is
// 1 / x in the abstract expressions), max's operands may be swapped, and the
// result runs on the CPU and matches the interpreter.
//
// RUN: mirage-opt --mirage-superoptimize="threads=2 time-budget=30" %s -o %t.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --input-file=%t.mlir
// RUN: mirage-run %t.mlir --func=chain | FileCheck %s --check-prefix=EXEC
// RUN: mirage-run %t.mlir --func=rownorm | FileCheck %s --check-prefix=EXEC

// REMARK: remark: superoptimized: graph_kernel {{.*}}1 kernel(s)
// REMARK: remark: superoptimized: graph_kernel {{.*}}1 kernel(s)
// EXEC: on cpu
// EXEC-NEXT: PASS

// CHECK-LABEL: func.func @chain(
// CHECK: mk.graph_kernel
// CHECK-DAG: mb.tanh
// CHECK-DAG: mb.max
// CHECK-DAG: mb.reciprocal
// CHECK-DAG: mb.gelu_erf
// CHECK: mb.return
// CHECK-NOT: mk.
// CHECK: return
func.func @chain(%x: tensor<16x64xf16>, %y: tensor<16x64xf16>) -> tensor<16x64xf16> {
  %t = mk.tanh %x : tensor<16x64xf16>
  %m = mk.max %t, %y : tensor<16x64xf16>, tensor<16x64xf16> -> tensor<16x64xf16>
  %r = mk.reciprocal %m : tensor<16x64xf16>
  %g = mk.gelu_erf %r : tensor<16x64xf16>
  return %g : tensor<16x64xf16>
}

// CHECK-LABEL: func.func @rownorm(
// CHECK: mk.graph_kernel
// CHECK: mb.reduce_max
// CHECK: mb.div
// CHECK: mb.tanh
// CHECK-NOT: mk.
// CHECK: return
func.func @rownorm(%x: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %m = mk.reduce_max %x dim = 1 : tensor<16x64xf32> -> tensor<16x1xf32>
  %r = mk.reciprocal %m : tensor<16x1xf32>
  %y = mk.mul %x, %r : tensor<16x64xf32>, tensor<16x1xf32> -> tensor<16x64xf32>
  %t = mk.tanh %y : tensor<16x64xf32>
  return %t : tensor<16x64xf32>
}
