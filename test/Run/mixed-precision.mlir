// REQUIRES: libomp
// RUN: mirage-run %s | FileCheck %s
// RUN: mirage-opt %s --mirage-superoptimize=time-budget=5 2>&1 >%t.opt.mlir | FileCheck %s --check-prefix=SEARCH
// RUN: FileCheck %s --check-prefix=OPT < %t.opt.mlir
// RUN: mirage-run %t.opt.mlir | FileCheck %s --check-prefix=CPU
// RUN: mirage-opt %t.opt.mlir --mirage-wrap-kernels --convert-mirage-to-gpu | FileCheck %s --check-prefix=GPU

// A mixed-precision program as the import writes it (issue 30 item 3): a
// bf16 matmul that writes its f32 accumulator, f32 compute, a bf16 gain
// converted to f32, the result converted back to bf16. The CPU path loads
// and stores every tensor in its own storage type and computes in f32; it
// is compared with the f64 interpreter in the input form and as the search
// returns it. The search reads through the conversions between its ops
// (docs/partitioning.md, "Conversions"): the matmul, silu and mul are one
// subprogram computed in f32, and the splice moves both conversions and the
// bf16 loads into the fused kernel, which reads bf16 and writes bf16: one
// kernel.
// CHECK: output 0 (bf16, 512 elements)
// CHECK: @mixed on cpu
// CHECK-NEXT: PASS
// SEARCH: ops 0-2 (mk.matmul, mk.silu, mk.mul): graph_kernel
// SEARCH: 3 ops, 1 kernel(s) (unfused 5){{.*}} 2 conversion(s) left as 0;
// OPT-NOT: mk.convert
// OPT: mk.graph_kernel(%arg0, %arg1, %arg2)
// OPT: mb.convert {{.*}}bf16> -> tensor<{{.*}}f32>
// OPT: mb.silu
// OPT: mb.convert {{.*}}f32> -> tensor<{{.*}}bf16>
// OPT: -> tensor<16x32xbf16>
// OPT-NOT: mk.convert
// CPU: output 0 (bf16, 512 elements)
// CPU: @mixed on cpu
// CPU-NEXT: PASS
// GPU-COUNT-1: gpu.launch blocks
// GPU-NOT: gpu.launch blocks
// GPU-DAG: arith.extf {{.*}} : bf16 to f32
// GPU-DAG: arith.truncf {{.*}} : f32 to bf16
func.func @mixed(%x: tensor<16x64xbf16>, %w: tensor<64x32xbf16>, %g: tensor<1x32xbf16>) -> tensor<16x32xbf16> {
  %m = mk.matmul %x, %w : tensor<16x64xbf16>, tensor<64x32xbf16> -> tensor<16x32xf32>
  %s = mk.silu %m : tensor<16x32xf32>
  %gf = mk.convert %g : tensor<1x32xbf16> -> tensor<1x32xf32>
  %p = mk.mul %s, %gf : tensor<16x32xf32>, tensor<1x32xf32> -> tensor<16x32xf32>
  %r = mk.convert %p : tensor<16x32xf32> -> tensor<16x32xbf16>
  return %r : tensor<16x32xbf16>
}
