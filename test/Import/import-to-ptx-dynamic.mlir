// RUN: mirage-opt --mirage-import-to-ptx="time-budget=1 cache-dir=none" %S/dynamic-dims.mlir -split-input-file -o %t.mlir 2> %t.remarks
// RUN: FileCheck %s < %t.mlir
// RUN: FileCheck %s --check-prefix=REMARKS < %t.remarks

// The dynamic exports of dynamic-dims.mlir through --mirage-import-to-ptx
// (docs/dynamic.md): imported with their dynamic dims, searched per size
// class, lowered to host code that reads the sizes at run time and PTX
// kernels with '?' grids (what each class's search finds within its budget
// may vary: the checks take any outcome); the ops the import leaves
// outside are lowered upstream. IREE's all-dynamic softmax (two sizes:
// searched per class of the rows, the row length held at its largest; its
// kernels walk the rows' dynamic length with '?' loops) and a
// matmul with a dynamic contracted dim come through whole, and so does
// the torch-mlir-style Linear with a dynamic batch and head split: its
// fused kernels write the head split through a view that passes the batch
// through (docs/dynamic.md, "Views"), a program per class.

// CHECK:       llvm.func @layernorm(
// CHECK:       gpu.binary @layernorm
// CHECK:       llvm.func @softmax_rows(
// CHECK:       gpu.binary @softmax_rows
// CHECK:       llvm.func @softmax_all_dynamic(
// CHECK:       gpu.binary @softmax_all_dynamic
// CHECK:       llvm.func @linear_heads(
// CHECK:       gpu.binary @linear_heads__s0_{{[0-9_]+}}kernel
// CHECK:       llvm.func @matmul_dynamic_k(
// CHECK:       gpu.binary @matmul_dynamic_k
// CHECK:       llvm.func @tosa_rows(
// CHECK:       gpu.binary @tosa_rows

// REMARKS: dynamic-dims.mlir:36:1: remark: superoptimized per size class of tokens (1 <= tokens <= 4096):
// REMARKS: dynamic-dims.mlir:90:1: remark: superoptimized per size class of s0 (1 <= s0):
// REMARKS: dynamic-dims.mlir:106:1: remark: superoptimized per size class of s0 (1 <= s0), s1 (1 <= s1) searched at 4096:
// REMARKS: dynamic-dims.mlir:127:1: remark: superoptimized per size class of s0 (1 <= s0):
// REMARKS: dynamic-dims.mlir:150:1: remark: superoptimized per size class of s0 (1 <= s0):
