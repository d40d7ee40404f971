// RUN: not mirage-run %s 2>&1 | FileCheck %s
// An op outside the mk dialect: the interpreter refuses it before lowering.
// CHECK: mirage-run: @f: the interpreter cannot evaluate it
func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %y = arith.addf %x, %x : tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
