// Two graph-defined kernels may read the same inputs: with one output per
// kernel, the two results below need two kernels over (%x, %y).
//
// RUN: mirage-opt --mirage-superoptimize="max-kernel-outputs=1 max-kernel-ops=2 keep-reference=1" %s -o %t 2> %t.remarks
// RUN: FileCheck %s --input-file=%t.remarks
// RUN: mirage-opt --mirage-check-equivalence %t -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV

// CHECK: remark: superoptimized: graph_kernel {{.*}}; graph_kernel {{.*}}; 2 kernel(s)
// EQUIV: remark: equivalent to @f_reference
func.func @f(%x: tensor<64x256xf32>, %y: tensor<64x256xf32>) -> (tensor<64x256xf32>, tensor<64x256xf32>) {
  %e = mk.exp %x : tensor<64x256xf32>
  %a = mk.mul %e, %y : tensor<64x256xf32>, tensor<64x256xf32> -> tensor<64x256xf32>
  %r = mk.relu %x : tensor<64x256xf32>
  %b = mk.mul %r, %y : tensor<64x256xf32>, tensor<64x256xf32> -> tensor<64x256xf32>
  return %a, %b : tensor<64x256xf32>, tensor<64x256xf32>
}
