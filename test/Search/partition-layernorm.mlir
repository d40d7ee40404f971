// LayerNorm (mean, centred variance, sqrt, division; with and without the
// affine weight and bias) followed by a matmul, at small shapes (issue 11
// item 3; bench/programs/layernorm_matmul.mlir has the real ones): the
// partitioned search finds each as 2 kernels, the row statistics and then the
// normalisation fused with the matmul, and the result is equivalent to the
// input. The affine tail with its matmul is one 6-op subprogram of 5
// arguments: a one-kernel subprogram search reads all of them, so the bound on
// a kernel's inputs (4) is lifted to the subprogram's argument count.
//
// RUN: mirage-opt --mirage-superoptimize="threads=2 keep-reference=1 cache-dir=none" %s -o %t 2> %t.remarks
// RUN: FileCheck %s --input-file=%t
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: mirage-opt --mirage-check-equivalence %t -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV

// REMARK: remark: superoptimized in 2 subprogram(s): 10 ops, 2 kernel(s) (unfused 10)
// REMARK: remark: subprogram 2 of 2: ops 6-11 (mk.add_scalar, mk.sqrt, mk.div, mk.mul, mk.add, mk.matmul): graph_kernel
// REMARK: remark: superoptimized in 2 subprogram(s): 12 ops, 2 kernel(s) (unfused 12)

// EQUIV: remark: equivalent to @layernorm_matmul_reference
// EQUIV: remark: equivalent to @layernorm_affine_matmul_reference

// CHECK-LABEL: func.func @layernorm_matmul(
// CHECK-NEXT:    %[[S:.*]]:2 = mk.graph_kernel(%arg0)
// CHECK:         %[[N:.*]] = mk.graph_kernel(%[[S]]#{{[01]}}, %[[S]]#{{[01]}}, %arg1)
// CHECK:           mb.sqrt
// CHECK:           mb.matmul
// CHECK:         return %[[N]]
// CHECK-LABEL: func.func @layernorm_affine_matmul(
// CHECK-NEXT:    %[[S:.*]]:2 = mk.graph_kernel(%arg0)
// CHECK:         %[[N:.*]] = mk.graph_kernel(
// CHECK:           mb.sqrt
// CHECK:           mb.matmul
// CHECK:         return %[[N]]
func.func @layernorm_matmul(%X: tensor<16x256xf16>, %W: tensor<256x256xf16>) -> tensor<16x256xf16> {
  %s = mk.reduce_sum %X dim = 1 : tensor<16x256xf16> -> tensor<16x1xf16>
  %mu = mk.mul_scalar %s, 0.00390625 : tensor<16x1xf16>
  %c = mk.sub %X, %mu : tensor<16x256xf16>, tensor<16x1xf16> -> tensor<16x256xf16>
  %c2 = mk.square %c : tensor<16x256xf16>
  %s2 = mk.reduce_sum %c2 dim = 1 : tensor<16x256xf16> -> tensor<16x1xf16>
  %var = mk.mul_scalar %s2, 0.00390625 : tensor<16x1xf16>
  %ve = mk.add_scalar %var, 1.0e-05 : tensor<16x1xf16>
  %sd = mk.sqrt %ve : tensor<16x1xf16>
  %n = mk.div %c, %sd : tensor<16x256xf16>, tensor<16x1xf16> -> tensor<16x256xf16>
  %o = mk.matmul %n, %W : tensor<16x256xf16>, tensor<256x256xf16> -> tensor<16x256xf16>
  return %o : tensor<16x256xf16>
}

func.func @layernorm_affine_matmul(%X: tensor<16x256xf16>, %gamma: tensor<1x256xf16>, %beta: tensor<1x256xf16>, %W: tensor<256x256xf16>) -> tensor<16x256xf16> {
  %s = mk.reduce_sum %X dim = 1 : tensor<16x256xf16> -> tensor<16x1xf16>
  %mu = mk.mul_scalar %s, 0.00390625 : tensor<16x1xf16>
  %c = mk.sub %X, %mu : tensor<16x256xf16>, tensor<16x1xf16> -> tensor<16x256xf16>
  %c2 = mk.square %c : tensor<16x256xf16>
  %s2 = mk.reduce_sum %c2 dim = 1 : tensor<16x256xf16> -> tensor<16x1xf16>
  %var = mk.mul_scalar %s2, 0.00390625 : tensor<16x1xf16>
  %ve = mk.add_scalar %var, 1.0e-05 : tensor<16x1xf16>
  %sd = mk.sqrt %ve : tensor<16x1xf16>
  %n = mk.div %c, %sd : tensor<16x256xf16>, tensor<16x1xf16> -> tensor<16x256xf16>
  %ng = mk.mul %n, %gamma : tensor<16x256xf16>, tensor<1x256xf16> -> tensor<16x256xf16>
  %nb = mk.add %ng, %beta : tensor<16x256xf16>, tensor<1x256xf16> -> tensor<16x256xf16>
  %o = mk.matmul %nb, %W : tensor<16x256xf16>, tensor<256x256xf16> -> tensor<16x256xf16>
  return %o : tensor<16x256xf16>
}

