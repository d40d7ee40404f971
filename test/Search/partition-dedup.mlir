// Partitioned search of two identical layers in one function, and of a
// second function equal to the first: identical subprograms (the same
// canonical text, whatever their value names and weights) are searched once.
// Each layer is rms_norm, a weight, a matmul and the residual add; the
// second layer's subprogram and the whole second function are answered from
// the first one's search. Without joins (partition-joins=0): the join of
// the two layers is one kernel at these shapes and would leave no second
// subprogram to deduplicate. One search at a time (partition-wave=1): a wave
// also searches {norm .. add, norm}, whose kernel models the same 3.6 us
// at these launch-bound shapes, and the cover that takes it cuts the layers
// elsewhere (as cheap, nothing to deduplicate).
//
// RUN: mirage-opt --mirage-superoptimize="threads=2 keep-reference=1 cache-dir=none partition-joins=0 partition-wave=1" %s -o %t 2> %t.remarks
// RUN: FileCheck %s --input-file=%t
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: mirage-opt --mirage-check-equivalence %t -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV

// REMARK: remark: subprogram 1 of 2: ops 0-3 (mk.rms_norm, mk.mul, mk.matmul, mk.add): graph_kernel {{.*}}; 1 kernel(s), modelled {{[0-9.]+}} us, unfused {{[0-9.]+}} us; searched in {{[0-9.]+}} s
// REMARK: remark: subprogram 2 of 2: ops 4-7 (mk.rms_norm, mk.mul, mk.matmul, mk.add): graph_kernel {{.*}}; 1 kernel(s), modelled {{[0-9.]+}} us, unfused {{[0-9.]+}} us; deduplicated
// REMARK: remark: superoptimized in 2 subprogram(s): 8 ops, 2 kernel(s) (unfused 8), {{.*}} 1 chosen deduplicated
// REMARK: remark: subprogram 1 of 2: {{.*}}; deduplicated
// REMARK: remark: subprogram 2 of 2: {{.*}}; deduplicated
// REMARK: remark: superoptimized in 2 subprogram(s): 8 ops, 2 kernel(s) (unfused 8), {{.*}} 0 searched, {{.*}} 2 chosen deduplicated

// EQUIV: remark: equivalent to @two_layers_reference
// EQUIV: remark: equivalent to @again_reference

// CHECK-LABEL: func.func @two_layers(
// CHECK-NEXT:    %[[A:.*]] = mk.graph_kernel(%arg0, %arg1, %arg2)
// CHECK:         %[[B:.*]] = mk.graph_kernel(%[[A]], %arg3, %arg4)
// CHECK:         return %[[B]]
// CHECK-LABEL: func.func @again(
// CHECK-NEXT:    mk.graph_kernel
// CHECK:         mk.graph_kernel
func.func @two_layers(%x: tensor<8x64xf16>, %w1: tensor<1x64xf16>, %m1: tensor<64x64xf16>, %w2: tensor<1x64xf16>, %m2: tensor<64x64xf16>) -> tensor<8x64xf16> {
  %n1 = mk.rms_norm %x eps = 1.0e-05 : tensor<8x64xf16>
  %h1 = mk.mul %n1, %w1 : tensor<8x64xf16>, tensor<1x64xf16> -> tensor<8x64xf16>
  %p1 = mk.matmul %h1, %m1 : tensor<8x64xf16>, tensor<64x64xf16> -> tensor<8x64xf16>
  %y1 = mk.add %p1, %x : tensor<8x64xf16>, tensor<8x64xf16> -> tensor<8x64xf16>
  %n2 = mk.rms_norm %y1 eps = 1.0e-05 : tensor<8x64xf16>
  %h2 = mk.mul %n2, %w2 : tensor<8x64xf16>, tensor<1x64xf16> -> tensor<8x64xf16>
  %p2 = mk.matmul %h2, %m2 : tensor<8x64xf16>, tensor<64x64xf16> -> tensor<8x64xf16>
  %y2 = mk.add %p2, %y1 : tensor<8x64xf16>, tensor<8x64xf16> -> tensor<8x64xf16>
  return %y2 : tensor<8x64xf16>
}

func.func @again(%a: tensor<8x64xf16>, %b: tensor<1x64xf16>, %c: tensor<64x64xf16>, %d: tensor<1x64xf16>, %e: tensor<64x64xf16>) -> tensor<8x64xf16> {
  %0 = mk.rms_norm %a eps = 1.0e-05 : tensor<8x64xf16>
  %1 = mk.mul %0, %b : tensor<8x64xf16>, tensor<1x64xf16> -> tensor<8x64xf16>
  %2 = mk.matmul %1, %c : tensor<8x64xf16>, tensor<64x64xf16> -> tensor<8x64xf16>
  %3 = mk.add %2, %a : tensor<8x64xf16>, tensor<8x64xf16> -> tensor<8x64xf16>
  %4 = mk.rms_norm %3 eps = 1.0e-05 : tensor<8x64xf16>
  %5 = mk.mul %4, %d : tensor<8x64xf16>, tensor<1x64xf16> -> tensor<8x64xf16>
  %6 = mk.matmul %5, %e : tensor<8x64xf16>, tensor<64x64xf16> -> tensor<8x64xf16>
  %7 = mk.add %6, %3 : tensor<8x64xf16>, tensor<8x64xf16> -> tensor<8x64xf16>
  return %7 : tensor<8x64xf16>
}
