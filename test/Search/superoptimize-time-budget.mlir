// With a time budget too small to finish the enumeration, nothing is
// verified: the function is left unchanged and the remark says why.
//
// RUN: mirage-opt --mirage-superoptimize="time-budget=0.000001" %s -verify-diagnostics
// RUN: mirage-opt --mirage-superoptimize="time-budget=0.000001" %s -o %t 2> %t.remarks
// RUN: FileCheck %s --input-file=%t
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks

// REMARK: remark: not superoptimized: no verified program ({{.*}}time budget reached in enumeration{{.*}})

// CHECK-LABEL: func.func @budget(
// CHECK-NEXT:    mk.rms_norm
// CHECK-NEXT:    mk.matmul
// expected-remark@+1 {{not superoptimized: no verified program}}
func.func @budget(%x: tensor<2x4096xf16>, %w: tensor<4096x6144xf16>) -> tensor<2x6144xf16> {
  %n = mk.rms_norm %x eps = 1.0e-06 : tensor<2x4096xf16>
  %o = mk.matmul %n, %w : tensor<2x4096xf16>, tensor<4096x6144xf16> -> tensor<2x6144xf16>
  return %o : tensor<2x6144xf16>
}

// The budget bounds verification too: with no time for it (1e-12 s rounds
// to no clock tick, so no check starts), the enumerated
// candidates are left unchecked and the remark says so.
// RUN: mirage-opt --mirage-superoptimize="verify-budget=1e-12" %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=VERIFY
// VERIFY: remark: not superoptimized: no verified program ({{.*}}candidates {{[1-9][0-9]*}}{{.*}}, time budget reached in verification ({{[1-9][0-9]*}} candidate(s) not checked))
