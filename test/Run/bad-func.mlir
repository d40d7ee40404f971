// RUN: not mirage-run %s --func=nope 2>&1 | FileCheck %s
// CHECK: mirage-run: no function @nope with a body
func.func @f(%x: tensor<4x8xf16>) -> tensor<4x8xf16> {
  %y = mk.exp %x : tensor<4x8xf16>
  return %y : tensor<4x8xf16>
}
