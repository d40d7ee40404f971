// REQUIRES: libomp
// RUN: mirage-run %s --func=softmax --sizes tokens=1..64 | FileCheck %s
// RUN: mirage-run %s --func=layernorm --sizes tokens=1..64 | FileCheck %s
// RUN: mirage-opt %s --mirage-superoptimize="cache-dir=none time-budget=5" -o %t.opt.mlir 2> %t.remarks
// RUN: FileCheck %s --check-prefix=SEARCHED < %t.remarks
// RUN: mirage-run %t.opt.mlir --func=softmax --sizes tokens=1..64 | FileCheck %s
// RUN: mirage-run %t.opt.mlir --func=layernorm --sizes tokens=1..64 --omp-threads=0 | FileCheck %s

// A softmax and a LayerNorm over a dynamic row count, unfused (one dynamic
// kernel per op) and as the search per size class leaves them, each
// compiled once and run at every size from 1 to 64 (at least 3 tiles + 5
// of any row tile up to 16, across the class bounds 1, 16 and 64), every
// run checked against the interpreter at its size (docs/dynamic.md).

// CHECK: 64 sizes, one compiled program: 64 passed
// CHECK-NEXT: PASS
// SEARCHED-COUNT-2: remark: superoptimized per size class of tokens (1 <= tokens <= 64)

func.func @softmax(%s: tensor<?x64xf32> {mk.sizes = [#mk.size<name = "tokens", max = 64>]}) -> tensor<?x64xf32> {
  %m = mk.reduce_max %s dim = 1 : tensor<?x64xf32> -> tensor<?x1xf32>
  %d = mk.sub %s, %m : tensor<?x64xf32>, tensor<?x1xf32> -> tensor<?x64xf32>
  %e = mk.exp %d : tensor<?x64xf32>
  %t = mk.reduce_sum %e dim = 1 : tensor<?x64xf32> -> tensor<?x1xf32>
  %o = mk.div %e, %t : tensor<?x64xf32>, tensor<?x1xf32> -> tensor<?x64xf32>
  return %o : tensor<?x64xf32>
}

func.func @layernorm(%x: tensor<?x64xf16> {mk.sizes = [#mk.size<name = "tokens", max = 64>]},
                     %g: tensor<1x64xf16>, %b: tensor<1x64xf16>) -> tensor<?x64xf16> {
  %s = mk.reduce_sum %x dim = 1 : tensor<?x64xf16> -> tensor<?x1xf16>
  %m = mk.mul_scalar %s, 1.5625e-02 : tensor<?x1xf16>
  %c = mk.sub %x, %m : tensor<?x64xf16>, tensor<?x1xf16> -> tensor<?x64xf16>
  %q = mk.mul %c, %c : tensor<?x64xf16>, tensor<?x64xf16> -> tensor<?x64xf16>
  %v = mk.reduce_sum %q dim = 1 : tensor<?x64xf16> -> tensor<?x1xf16>
  %w = mk.mul_scalar %v, 1.5625e-02 : tensor<?x1xf16>
  %e = mk.add_scalar %w, 1.0e-05 : tensor<?x1xf16>
  %r = mk.rsqrt %e : tensor<?x1xf16>
  %n = mk.mul %c, %r : tensor<?x64xf16>, tensor<?x1xf16> -> tensor<?x64xf16>
  %y = mk.mul %n, %g : tensor<?x64xf16>, tensor<1x64xf16> -> tensor<?x64xf16>
  %o = mk.add %y, %b : tensor<?x64xf16>, tensor<1x64xf16> -> tensor<?x64xf16>
  return %o : tensor<?x64xf16>
}
