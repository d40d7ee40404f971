// RUN: not mirage-run %s 2>&1 | FileCheck %s
// CHECK: error: custom op 'mk.nonsense' is unknown
// CHECK: mirage-run: cannot parse
func.func @f(%x: tensor<4xf16>) -> tensor<4xf16> {
  %y = mk.nonsense %x : tensor<4xf16>
  return %y : tensor<4xf16>
}
