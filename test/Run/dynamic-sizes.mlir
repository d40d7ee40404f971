// REQUIRES: libomp
// RUN: mirage-run %s --sizes tokens=1 | FileCheck %s
// RUN: mirage-run %s --sizes tokens=7 | FileCheck %s
// RUN: mirage-run %s --sizes=tokens=100 | FileCheck %s
// RUN: mirage-opt %s --mirage-wrap-kernels -o %t.wrapped.mlir
// RUN: mirage-run %t.wrapped.mlir --sizes tokens=1 | FileCheck %s
// RUN: mirage-run %t.wrapped.mlir --sizes tokens=37 | FileCheck %s
// RUN: mirage-run %t.wrapped.mlir --sizes tokens=100 --omp-threads=0 | FileCheck %s
// RUN: not mirage-run %s 2>&1 | FileCheck %s --check-prefix=NOSIZE
// RUN: not mirage-run %s --sizes tokens=5000 2>&1 | FileCheck %s --check-prefix=FACTS
// RUN: not mirage-run %s --sizes rows=4 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// A program with a dynamic token count runs at the sizes --sizes gives
// (specialised, then lowered and compared with the interpreter at those
// sizes), before and after --mirage-wrap-kernels made it dynamic kernels;
// without sizes, or with sizes the facts rule out, it stops with a
// diagnostic (docs/dynamic.md).

// CHECK: PASS

// NOSIZE: mirage-run: @rmsnorm_matmul has dynamic dims: give their sizes with --sizes name=value (tokens (1 <= tokens <= 4096))
// FACTS: error: size tokens = 5000 breaks its facts tokens (1 <= tokens <= 4096)
// FACTS: mirage-run: --sizes: cannot give the dynamic dims of @rmsnorm_matmul those sizes
// UNKNOWN: error: no value given for size tokens (1 <= tokens <= 4096) of @rmsnorm_matmul

func.func @rmsnorm_matmul(%x: tensor<?x64xf16> {mk.sizes = [#mk.size<name = "tokens", max = 4096>]},
                          %w: tensor<64x48xf16>) -> tensor<?x48xf16> {
  %n = mk.rms_norm %x eps = 1.0e-06 : tensor<?x64xf16>
  %o = mk.matmul %n, %w : tensor<?x64xf16>, tensor<64x48xf16> -> tensor<?x48xf16>
  %s = mk.silu %o : tensor<?x48xf16>
  return %s : tensor<?x48xf16>
}
