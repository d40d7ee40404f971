// REQUIRES: libomp
// RUN: mirage-run %s --func=rmsnorm_matmul --sizes tokens=1..29:100:1000 | FileCheck %s --check-prefix=SWEEP
// RUN: mirage-run %s --func=rmsnorm_matmul --sizes tokens=13:8 --omp-threads=0 | FileCheck %s
// RUN: mirage-opt %s --mirage-specialize-sizes="sizes=tokens=13" --mirage-check-equivalence 2>&1 | FileCheck %s --check-prefix=EQUIV
// RUN: mirage-opt %s --mirage-check-equivalence="sizes=tokens=1:7:8:13:100" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SIZES
// RUN: not mirage-opt %s --mirage-check-equivalence -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOSIZES
// RUN: not mirage-opt %s --mirage-check-equivalence="sizes=tokens=0:4" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADSIZES
// RUN: not mirage-opt %s --mirage-check-equivalence="sizes=tokens=8:5000" -o /dev/null 2>&1 | FileCheck %s --check-prefix=FACTS
// RUN: not mirage-opt %s --mirage-check-equivalence="sizes=tokens=8,heads=2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNUSED
// RUN: mirage-opt %s --mirage-specialize-sizes="sizes=tokens=13" | FileCheck %s --check-prefix=STATIC
// RUN: not mirage-opt %s --convert-mirage-to-gpu 2>&1 | FileCheck %s --check-prefix=LOWER

// One dynamic program for every token count (docs/dynamic.md): a fused
// RMSNorm+MatMul whose rows are partitioned by the '?' grid dim y in tiles
// of 8. It is compiled once and run at every size of the sweep (every size
// from 1 to 3 tiles + 5, and two larger ones), each run checked against the
// interpreter at its size: ceil(rows / 8) blocks along y, the last tile
// clamped and masked when 8 does not divide the rows. At each size it is
// also, in the field and f64, equivalent to its unfused reference, one size
// at a time or at a list of sizes (--mirage-check-equivalence="sizes=...").

// SWEEP: @rmsnorm_matmul at tokens=1 on cpu
// SWEEP: @rmsnorm_matmul at tokens=29 on cpu
// SWEEP: @rmsnorm_matmul at tokens=1000 on cpu
// SWEEP: 31 sizes, one compiled program: 31 passed
// SWEEP-NEXT: PASS
// CHECK: PASS
// EQUIV: remark: equivalent to @rmsnorm_matmul_ref
// SIZES: remark: equivalent to @rmsnorm_matmul_ref at tokens=1 (
// SIZES: remark: equivalent to @rmsnorm_matmul_ref at tokens=7 (
// SIZES: remark: equivalent to @rmsnorm_matmul_ref at tokens=8 (
// SIZES: remark: equivalent to @rmsnorm_matmul_ref at tokens=13 (
// SIZES: remark: equivalent to @rmsnorm_matmul_ref at tokens=100 (
// NOSIZES: error: has dynamic dims: give the sizes to check at with sizes=name=v1:v2:... (docs/dynamic.md)
// BADSIZES: error: sizes entry 'tokens=0:4' is not name=v1:v2:... with positive integers
// FACTS: remark: equivalent to @rmsnorm_matmul_ref at tokens=8 (
// FACTS: error: size tokens = 5000 breaks its facts tokens (1 <= tokens <= 4096)
// Functions may have different sizes, each checked at its own; a name no
// checked function has is an error.
// UNUSED: remark: equivalent to @rmsnorm_matmul_ref at tokens=8 (
// UNUSED: error: --mirage-check-equivalence: no checked function has a dynamic size named 'heads'
// STATIC-LABEL: func.func @rmsnorm_matmul(
// STATIC:       grid = [3, 2, 1]
// STATIC:       mb.output_saver %{{.*}} omap = [1, 0, -1] : tensor<8x16xf16> -> tensor<13x48xf16>
// LOWER: error: 'mk.rms_norm' op is not supported by convert-mirage-to-gpu: only graph-defined kernels

func.func @rmsnorm_matmul_ref(%x: tensor<?x64xf16> {mk.sizes = [#mk.size<name = "tokens", max = 4096>]}, %w: tensor<64x48xf16>) -> tensor<?x48xf16> {
  %n = mk.rms_norm %x eps = 1.0e-06 : tensor<?x64xf16>
  %o = mk.matmul %n, %w : tensor<?x64xf16>, tensor<64x48xf16> -> tensor<?x48xf16>
  return %o : tensor<?x48xf16>
}

func.func @rmsnorm_matmul(%x: tensor<?x64xf16> {mk.sizes = [#mk.size<name = "tokens", max = 4096>]}, %w: tensor<64x48xf16>) -> tensor<?x48xf16> attributes {mk.reference = @rmsnorm_matmul_ref} {
  %y = mk.graph_kernel (%x, %w) grid = [3, ?, 1] block = [128, 1, 1] forloop = 2 {
  ^bb0(%X: tensor<?x64xf16>, %W: tensor<64x48xf16>):
    %acc:2 = mb.for_loop -> (tensor<8x1xf16>, tensor<8x16xf16>) {
      %xt = mb.input_iter %X imap = [-1, 0, -1] fmap = 1 : tensor<?x64xf16> -> tensor<8x32xf16>
      %wt = mb.input_iter %W imap = [1, -1, -1] fmap = 0 : tensor<64x48xf16> -> tensor<32x16xf16>
      %m = mb.matmul %xt, %wt : tensor<8x32xf16>, tensor<32x16xf16> -> tensor<8x16xf16>
      %r = mb.accum_rms_last %xt eps = 1.0e-06 : tensor<8x32xf16> -> tensor<8x1xf16>
      %s = mb.accum_sum %m : tensor<8x16xf16> -> tensor<8x16xf16>
      mb.yield %r, %s : tensor<8x1xf16>, tensor<8x16xf16>
    }
    %q = mb.div %acc#1, %acc#0 : tensor<8x16xf16>, tensor<8x1xf16> -> tensor<8x16xf16>
    %o = mb.output_saver %q omap = [1, 0, -1] : tensor<8x16xf16> -> tensor<?x48xf16>
    mb.return %o : tensor<?x48xf16>
  } : (tensor<?x64xf16>, tensor<64x48xf16>) -> tensor<?x48xf16>
  return %y : tensor<?x48xf16>
}
