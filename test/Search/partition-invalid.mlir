// Partitioned search: absurd options are errors, and functions it cannot
// partition or subprograms the search does not support get remarks; the pass
// never crashes.
//
// RUN: not mirage-opt --mirage-superoptimize="max-partition-ops=0 cache-dir=none" %s 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not mirage-opt --mirage-superoptimize="max-partition-ops=17 cache-dir=none" %s 2>&1 | FileCheck %s --check-prefix=MANY
// RUN: not mirage-opt --mirage-superoptimize="partition-min-ops=0 cache-dir=none" %s 2>&1 | FileCheck %s --check-prefix=MIN
// RUN: not mirage-opt --mirage-superoptimize="partition-wave=0 cache-dir=none" %s 2>&1 | FileCheck %s --check-prefix=WAVE
// RUN: mirage-opt --mirage-superoptimize="max-partition-ops=2 partition-min-ops=3 partition-searches=1 cache-dir=none" %s -split-input-file -verify-diagnostics -o /dev/null
// RUN: mirage-opt --mirage-superoptimize="max-partition-ops=2 partition-min-ops=3 cache-dir=none" %s -split-input-file 2>/dev/null | FileCheck %s

// ZERO: error: mirage-superoptimize: max-partition-ops must be in [1, 16], got 0
// MANY: error: mirage-superoptimize: max-partition-ops must be in [1, 16], got 17
// MIN: error: mirage-superoptimize: partition-min-ops must be >= 1
// WAVE: error: mirage-superoptimize: partition-wave must be in [1, 64], got 0

// An op the cost model cannot read: the function is left unchanged.
// CHECK-LABEL: func.func @arith(
// CHECK-NEXT:    arith.addf
// CHECK-NEXT:    mk.exp
// CHECK-NEXT:    mk.exp
// expected-remark@+1 {{not superoptimized: the cost model cannot read the function: the cost model cannot read 'arith.addf'}}
func.func @arith(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %a = arith.addf %x, %x : tensor<4x8xf32>
  %b = mk.exp %a : tensor<4x8xf32>
  %c = mk.exp %b : tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}

// -----

// A weighted rms_norm (which the search does not take): it stays on its own,
// unfused and not searched, and the other subprograms are still searched (in
// one wave: the pair and each op alone, which gains nothing).
// CHECK-LABEL: func.func @weighted(
// CHECK-NEXT:    mk.rms_norm
// CHECK-NEXT:    mk.graph_kernel
// expected-remark@+4 {{searched subprogram (mk.exp) in wave 1 with a budget of}}
// expected-remark@+3 {{searched subprogram (mk.mul_scalar) in wave 1 with a budget of}}
// expected-remark@+2 {{searched subprogram (mk.exp; mk.mul_scalar) in wave 1 with a budget of}}
// expected-remark@+1 {{superoptimized in 2 subprogram(s): 3 ops, 2 kernel(s) (unfused 3)}}
func.func @weighted(%x: tensor<4x8xf32>, %w: tensor<8xf32>) -> tensor<4x8xf32> {
  // expected-remark@+1 {{subprogram 1 of 2: op 0 (mk.rms_norm): mk.rms_norm; 1 kernel(s), modelled 3.8 us, unfused 3.8 us; unfused (the search does not take this op)}}
  %n = mk.rms_norm %x weight(%w : tensor<8xf32>) eps = 1.0e-06 : tensor<4x8xf32>
  // expected-remark@+1 {{subprogram 2 of 2: ops 1-2 (mk.exp, mk.mul_scalar): graph_kernel}}
  %e = mk.exp %n : tensor<4x8xf32>
  %s = mk.mul_scalar %e, 2.0 : tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}
