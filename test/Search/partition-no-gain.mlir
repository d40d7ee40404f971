// Partitioned search where fusing does not pay: the unfused subprograms are
// chosen and the function is never modelled slower than the input. First, a
// 2 KiB shared-memory limit leaves no single kernel for matmul + rms_norm or
// rms_norm + exp (no verified program), and no kernel for the exp alone
// models 1 % below the kernel the lowering wraps mk.exp into (no gain); the
// matmul alone gets the search's kernel, which beats the wrapped one. Second,
// the two matmuls of one input have no one-kernel form; the matmul with its
// bias add is fused and the other matmul gets the search's kernel (modelled
// about 3.6 us where the wrapped mk.matmul models 10 us).
//
// RUN: mirage-opt --mirage-superoptimize="threads=2 max-partition-ops=2 partition-min-ops=3 max-block-ops=4 partition-searches=1 cache-dir=none" %s -split-input-file -o %t 2> %t.remarks
// RUN: FileCheck %s --input-file=%t
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks

// REMARK-DAG: remark: subprogram 1 of 2: op 0 (mk.matmul): graph_kernel {{.*}} {matmul accum_sum}; 1 kernel(s)
// REMARK-DAG: remark: searched subprogram (mk.matmul; mk.rms_norm) in wave {{[0-9]+}} with a budget of {{[0-9.]+}} s in {{[0-9.]+}} s: unfused: no verified program
// REMARK-DAG: remark: searched subprogram (mk.rms_norm; mk.exp) in wave {{[0-9]+}} with a budget of {{[0-9.]+}} s in {{[0-9.]+}} s: unfused: no verified program
// REMARK-DAG: remark: searched subprogram (mk.exp) in wave {{[0-9]+}} with a budget of {{[0-9.]+}} s in {{[0-9.]+}} s: unfused: no gain: {{[0-9]+}} candidate(s), none modelled below the unfused
// REMARK: remark: superoptimized in 2 subprogram(s): 3 ops, 3 kernel(s) (unfused 3)

// REMARK-DAG: remark: subprogram 1 of 2: ops 0,2 (mk.matmul, mk.add): graph_kernel {{.*}}; 1 kernel(s), modelled {{[0-9.]+}} us, unfused {{[0-9.]+}} us; searched in
// REMARK-DAG: remark: subprogram 2 of 2: op 1 (mk.matmul): graph_kernel {{.*}}; 1 kernel(s), modelled {{[0-9.]+}} us, unfused {{[0-9.]+}} us; searched in
// REMARK-DAG: remark: searched subprogram (mk.matmul; mk.matmul; mk.add) in wave {{[0-9]+}} with a budget of {{[0-9.]+}} s in {{[0-9.]+}} s: unfused: no verified program
// REMARK: remark: superoptimized in 2 subprogram(s): 3 ops, 2 kernel(s) (unfused 3)

// CHECK-LABEL: func.func @no_kernel(
// CHECK-NEXT:    %[[M:.*]] = mk.graph_kernel(%arg0, %arg1)
// CHECK:         %[[N:.*]] = mk.rms_norm %[[M]]
// CHECK-NEXT:    %[[E:.*]] = mk.exp %[[N]]
// CHECK-NEXT:    return %[[E]]
module attributes {mk.smem_limit = 2048 : i64} {
func.func @no_kernel(%x: tensor<2x64xf16>, %w: tensor<64x512xf16>) -> tensor<2x512xf16> {
  %m = mk.matmul %x, %w : tensor<2x64xf16>, tensor<64x512xf16> -> tensor<2x512xf16>
  %n = mk.rms_norm %m eps = 1.0e-06 : tensor<2x512xf16>
  %e = mk.exp %n : tensor<2x512xf16>
  return %e : tensor<2x512xf16>
}
}

// -----

// CHECK-LABEL: func.func @two_matmuls(
// CHECK-NEXT:    %[[K:.*]] = mk.graph_kernel(%arg0, %arg1, %arg3)
// CHECK:         %[[V:.*]] = mk.graph_kernel(%arg0, %arg2)
// CHECK:         return %[[K]], %[[V]]
func.func @two_matmuls(%h: tensor<8x2048xf16>, %a: tensor<2048x512xf16>, %b: tensor<2048x256xf16>, %c: tensor<8x512xf16>) -> (tensor<8x512xf16>, tensor<8x256xf16>) {
  %k = mk.matmul %h, %a : tensor<8x2048xf16>, tensor<2048x512xf16> -> tensor<8x512xf16>
  %v = mk.matmul %h, %b : tensor<8x2048xf16>, tensor<2048x256xf16> -> tensor<8x256xf16>
  %r = mk.add %k, %c : tensor<8x512xf16>, tensor<8x512xf16> -> tensor<8x512xf16>
  return %r, %v : tensor<8x512xf16>, tensor<8x256xf16>
}
