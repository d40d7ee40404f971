// RUN: not mirage-run %s 2>&1 | FileCheck %s
// RUN: not mirage-run %s --func=decl 2>&1 | FileCheck %s --check-prefix=DECL
// The mk ops accept f16, bf16 and f32 only; a function that forwards an f64
// argument passes the parser and is refused by mirage-run.
// CHECK: mirage-run: @f: {{.*}}f64
// DECL: mirage-run: no function @decl with a body
func.func @f(%x: tensor<4x8xf64>) -> tensor<4x8xf64> {
  return %x : tensor<4x8xf64>
}
func.func private @decl(tensor<4xf16>) -> tensor<4xf16>
