// RUN: not mirage-opt %s --mirage-evaluate 2>&1 | FileCheck %s --check-prefix=EVAL
// RUN: not mirage-opt %s --mirage-cost-report 2>&1 | FileCheck %s -DPASS=--mirage-cost-report
// RUN: mirage-opt %s --mirage-to-cpu | FileCheck %s --check-prefix=LOWERED
// RUN: mirage-opt %s --mirage-specialize-sizes="sizes=tokens=24" --mirage-wrap-kernels | FileCheck %s --check-prefix=STATIC

// The passes that need static shapes refuse a function with dynamic dims
// with a diagnostic that says how to give the sizes (docs/dynamic.md);
// specialised, the same function goes through. The lowering takes it as it
// is: one program for every size (--mirage-wrap-kernels wraps the dynamic
// ops into dynamic kernels, wrap-kernels-dynamic.mlir; the kernels read
// the size at run time, test/Conversion/mirage-to-gpu-dynamic.mlir).

// EVAL: error: cannot evaluate @f: argument #0 has type tensor<?x64xf16>; the evaluator needs static float tensors of rank 1 to 4

// CHECK: error: [[PASS]] needs static shapes, but @f has dynamic dims: give their sizes with --mirage-specialize-sizes (docs/dynamic.md)

// LOWERED: llvm.func @f(

// STATIC-LABEL: func.func @f(
// STATIC-SAME:    tensor<24x64xf16>
// STATIC:         mk.graph_kernel
func.func @f(%x: tensor<?x64xf16> {mk.sizes = [#mk.size<name = "tokens">]}) -> tensor<?x64xf16> {
  %y = mk.exp %x : tensor<?x64xf16>
  return %y : tensor<?x64xf16>
}
