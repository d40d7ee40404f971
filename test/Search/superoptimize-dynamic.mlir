// REQUIRES: libomp
// RUN: mirage-opt %s --mirage-superoptimize="keep-reference=1 cache-dir=none time-budget=30" -split-input-file -o %t.opt.mlir 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARKS < %t.remarks
// RUN: FileCheck %s < %t.opt.mlir
// RUN: mirage-opt %s --mirage-superoptimize="keep-reference=1 cache-dir=none" -o %t.rmsnorm.mlir 2>/dev/null
// RUN: mirage-run %t.rmsnorm.mlir --func=rmsnorm_matmul --sizes tokens=1..29:64:65:100:128 | FileCheck %s --check-prefix=SWEEP
// RUN: mirage-opt %t.rmsnorm.mlir --mirage-check-equivalence="sizes=tokens=1:8:9:16:17:128,rows=1:7,cols=1:33" -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV
// RUN: mirage-run %t.rmsnorm.mlir --func=two_sizes --sizes rows=1..13:64,cols=1..9:31:32:33:64 | FileCheck %s --check-prefix=SWEEP
// RUN: mirage-opt %t.rmsnorm.mlir --mirage-specialize-sizes="sizes=tokens=100,rows=2,cols=3" | FileCheck %s --check-prefix=AT100
// RUN: mirage-opt %s --mirage-superoptimize="cache-dir=none size-classes=128" -o %t.one.mlir 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: mirage-run %t.one.mlir --func=rmsnorm_matmul --sizes tokens=1..40:128 | FileCheck %s --check-prefix=SWEEP
// RUN: not mirage-opt %s --mirage-superoptimize="size-classes=16,8" 2>&1 | FileCheck %s --check-prefix=BADCLASSES
// RUN: rm -rf %t.cache
// RUN: mirage-opt %s --mirage-superoptimize="cache-dir=%t.cache" -split-input-file -o %t.first.mlir 2>/dev/null
// RUN: mirage-opt %s --mirage-superoptimize="cache-dir=%t.cache" -split-input-file -o %t.second.mlir 2>&1 | FileCheck %s --check-prefix=CACHED
// RUN: diff %t.first.mlir %t.second.mlir
// RUN: mirage-opt %s --mirage-superoptimize="cache-dir=none" -split-input-file 2>/dev/null | mirage-opt --mirage-superoptimize="cache-dir=none" -split-input-file 2>&1 >/dev/null | FileCheck %s --check-prefix=AGAIN

// A function with a dynamic token count is searched once per size class
// (docs/dynamic.md): specialised at the class's largest size, searched,
// generalised back to '?' grid dims, checked at sample sizes of the class
// and ranked by modelled time over them. Programs that differ between
// classes are dispatched on the run-time size (mk.size_dispatch); the
// result is one compiled program for every size, run here at every size
// from 1 to 3 tiles + 5 of the 8-row tiles and at the class bounds, and
// checked in the field and f64 at sizes of every class.

// REMARKS: remark: superoptimized per size class of tokens (1 <= tokens <= 128): {{.*}}; tokens 1..1: {{.*}}; tokens 2..16: {{.*}}; tokens 17..64: {{.*}}; tokens 65..128:
// REMARKS: remark: superoptimized per size class of tokens (1 <= tokens <= 128):
// Two sizes: the classes of the first, the second held at its largest value
// (docs/dynamic.md, "Several sizes").
// REMARKS: remark: superoptimized per size class of rows (1 <= rows <= 64), cols (1 <= cols <= 64) searched at 64:

// The body stays the input (what the interpreter runs); the programs are
// private functions with '?' grid dims.
// CHECK-LABEL: func.func @rmsnorm_matmul(
// CHECK-SAME:    mk.reference = @rmsnorm_matmul_reference
// CHECK-SAME:    mk.size_dispatch = {bounds = array<i64: {{.*}}>, programs = [@rmsnorm_matmul__tokens_{{.*}}], size = "tokens"}
// CHECK-NEXT:    mk.rms_norm
// CHECK:       func.func private @rmsnorm_matmul__tokens_
// CHECK:         mk.graph_kernel(%{{.*}}) grid = [{{.*}}?{{.*}}]
// CHECK-LABEL: func.func @gated_mlp(
// CHECK-SAME:    mk.size_dispatch
// CHECK-LABEL: func.func @two_sizes(
// CHECK-SAME:    tensor<?x?xf32>
// CHECK-NEXT:    mk.graph_kernel

// SWEEP: [[N:[0-9]+]] sizes, one compiled program: [[N]] passed
// SWEEP: PASS
// EQUIV-COUNT-6: remark: equivalent to @rmsnorm_matmul_reference at tokens={{[0-9]+}} (program rmsnorm_matmul__tokens_
// AT100-LABEL: func.func @rmsnorm_matmul(
// AT100-SAME:    tensor<100x64xf16>
// AT100-NEXT:    mk.graph_kernel
// ONE: remark: superoptimized per size class of tokens (1 <= tokens <= 128): one program for every size; tokens 1..128:
// A second search leaves a dispatching function as it is.
// AGAIN: remark: not superoptimized: the function already dispatches on its size to searched programs
// One search per class, cached: a second run takes every class's program
// (and the checks at its samples) from the cache and gives the same result.
// CACHED-COUNT-4: remark: size class tokens {{[0-9]+}}..{{[0-9]+}}: superoptimized (from the cache):
// CACHED: remark: superoptimized per size class of tokens
// BADCLASSES: error: mirage-superoptimize: size-classes must be positive and ascending

func.func @rmsnorm_matmul(%x: tensor<?x64xf16> {mk.sizes = [#mk.size<name = "tokens", max = 128>]},
                          %w: tensor<64x48xf16>) -> tensor<?x48xf16> {
  %n = mk.rms_norm %x eps = 1.0e-06 : tensor<?x64xf16>
  %o = mk.matmul %n, %w : tensor<?x64xf16>, tensor<64x48xf16> -> tensor<?x48xf16>
  return %o : tensor<?x48xf16>
}

// -----

func.func @gated_mlp(%x: tensor<?x64xf16> {mk.sizes = [#mk.size<name = "tokens", max = 128>]},
                     %w1: tensor<64x64xf16>, %w2: tensor<64x64xf16>) -> tensor<?x64xf16> {
  %a = mk.matmul %x, %w1 : tensor<?x64xf16>, tensor<64x64xf16> -> tensor<?x64xf16>
  %b = mk.matmul %x, %w2 : tensor<?x64xf16>, tensor<64x64xf16> -> tensor<?x64xf16>
  %s = mk.silu %a : tensor<?x64xf16>
  %o = mk.mul %s, %b : tensor<?x64xf16>, tensor<?x64xf16> -> tensor<?x64xf16>
  return %o : tensor<?x64xf16>
}

// -----

func.func @two_sizes(%x: tensor<?x?xf32> {mk.sizes = [#mk.size<name = "rows", max = 64>, #mk.size<name = "cols", max = 64>]}) -> tensor<?x?xf32> {
  %y = mk.exp %x : tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}
