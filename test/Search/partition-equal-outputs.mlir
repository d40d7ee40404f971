// torch-mlir's LayerNorm computes the mean twice and subtracts it twice, so a
// subprogram that holds both subtractions has two outputs that its searched
// program computes once: it returns one value for both. The next
// subprogram reads both outputs; its spliced boundary must keep two inputs
// (both the one value) rather than merging them into one. Before, the splice
// recomputed that boundary after the first splice and stopped with "internal
// error: a subprogram's program has another signature".
//
// RUN: mirage-opt --mirage-superoptimize="threads=1 keep-reference=1 cache-dir=none" %s -o %t 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: mirage-opt --mirage-check-equivalence %t -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV

// REMARK-NOT: internal error
// REMARK: remark: subprogram {{[0-9]+}} of {{[0-9]+}}: ops {{.*}}mk.sub, mk.reduce_sum, mk.mul_scalar, mk.sub{{.*}}: graph_kernel
// REMARK: remark: superoptimized in {{[0-9]+}} subprogram(s): 12 ops,

// EQUIV: remark: equivalent to @layernorm_twice_reference

func.func @layernorm_twice(%x: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %1 = mk.reduce_sum %x dim = 1 : tensor<64x128xf32> -> tensor<64x1xf32>
  %2 = mk.mul_scalar %1, 0.0078125 : tensor<64x1xf32>
  %3 = mk.sub %x, %2 : tensor<64x128xf32>, tensor<64x1xf32> -> tensor<64x128xf32>
  %4 = mk.square %3 : tensor<64x128xf32>
  %5 = mk.reduce_sum %4 dim = 1 : tensor<64x128xf32> -> tensor<64x1xf32>
  %6 = mk.mul_scalar %5, 0.0078125 : tensor<64x1xf32>
  %7 = mk.reduce_sum %x dim = 1 : tensor<64x128xf32> -> tensor<64x1xf32>
  %8 = mk.mul_scalar %7, 0.0078125 : tensor<64x1xf32>
  %9 = mk.add_scalar %6, 1.0e-5 : tensor<64x1xf32>
  %10 = mk.rsqrt %9 : tensor<64x1xf32>
  %11 = mk.sub %x, %8 : tensor<64x128xf32>, tensor<64x1xf32> -> tensor<64x128xf32>
  %12 = mk.mul %11, %10 : tensor<64x128xf32>, tensor<64x1xf32> -> tensor<64x128xf32>
  return %12 : tensor<64x128xf32>
}
