// Three nn.Linear + bias + ReLU layers as torch exports them (W[out, in]
// transposed, the bias reshaped to a row): the partitioned search leaves the
// transposes and reshapes out of its subprograms; layers 1 and 3 are kernels
// with their bias and ReLU (layer 2's bias and ReLU as layer 3's prologue),
// layer 2's matmul stays a pre-defined op. The cost model counts the
// transposes as the views they become (3 kernels), and --mirage-wrap-kernels
// (the lowering's first step) makes the matmul a kernel that reads its weight
// through a view: three kernels, no transpose.
// RUN: mirage-opt %s --mirage-superoptimize="keep-reference=1 cache-dir=none" -o %t.opt.mlir 2> %t.remarks
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: mirage-opt --mirage-wrap-kernels %t.opt.mlir | FileCheck %s
// RUN: mirage-opt --mirage-check-equivalence %t.opt.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV
// RUN: mirage-run --func=mlp3 %t.opt.mlir | FileCheck %s --check-prefix=CPU

// REMARK: remark: superoptimized in 3 subprogram(s): 9 ops, 3 kernel(s) (unfused 9)
// EQUIV: remark: equivalent to @mlp3_reference
// CPU: @mlp3 on cpu
// CPU-NEXT: PASS

// CHECK-LABEL: func.func @mlp3(
// CHECK-NOT: mk.transpose
// CHECK-COUNT-3: mk.graph_kernel
// CHECK-NOT: mk.graph_kernel
// CHECK-NOT: mk.transpose
// CHECK: return
func.func @mlp3(%x: tensor<8x512xf16>, %w1: tensor<1024x512xf16>, %b1: tensor<1024xf16>, %w2: tensor<1024x1024xf16>, %b2: tensor<1024xf16>, %w3: tensor<512x1024xf16>, %b3: tensor<512xf16>) -> tensor<8x512xf16> {
  %t1 = mk.transpose %w1 perm = [1, 0] : tensor<1024x512xf16> -> tensor<512x1024xf16>
  %m1 = mk.matmul %x, %t1 : tensor<8x512xf16>, tensor<512x1024xf16> -> tensor<8x1024xf16>
  %c1 = mk.reshape %b1 : tensor<1024xf16> -> tensor<1x1024xf16>
  %a1 = mk.add %m1, %c1 : tensor<8x1024xf16>, tensor<1x1024xf16> -> tensor<8x1024xf16>
  %h1 = mk.relu %a1 : tensor<8x1024xf16>
  %t2 = mk.transpose %w2 perm = [1, 0] : tensor<1024x1024xf16> -> tensor<1024x1024xf16>
  %m2 = mk.matmul %h1, %t2 : tensor<8x1024xf16>, tensor<1024x1024xf16> -> tensor<8x1024xf16>
  %c2 = mk.reshape %b2 : tensor<1024xf16> -> tensor<1x1024xf16>
  %a2 = mk.add %m2, %c2 : tensor<8x1024xf16>, tensor<1x1024xf16> -> tensor<8x1024xf16>
  %h2 = mk.relu %a2 : tensor<8x1024xf16>
  %t3 = mk.transpose %w3 perm = [1, 0] : tensor<512x1024xf16> -> tensor<1024x512xf16>
  %m3 = mk.matmul %h2, %t3 : tensor<8x1024xf16>, tensor<1024x512xf16> -> tensor<8x512xf16>
  %c3 = mk.reshape %b3 : tensor<512xf16> -> tensor<1x512xf16>
  %a3 = mk.add %m3, %c3 : tensor<8x512xf16>, tensor<1x512xf16> -> tensor<8x512xf16>
  %h3 = mk.relu %a3 : tensor<8x512xf16>
  return %h3 : tensor<8x512xf16>
}
