// Partitioned search (docs/partitioning.md) of an 8-op chain shaped like the
// MLP half of a Llama decoder layer at small shapes: rms_norm, the weight,
// gate and up matmuls, silu, mul, down matmul, residual add. More ops than
// max-partition-ops (6), so the function is split; without joins
// (partition-joins=0) it becomes two graph-defined kernels, the first with
// the norm, the weight and both projections, the second with the down
// matmul and the residual (several splits between them model the same
// 7.2 us: which ops of silu and mul go with which half depends on what the
// waves searched), and the spliced result is equivalent to the input. At the default options the two
// chosen halves are joined (docs/partitioning.md, "Joined subprograms": 8
// ops and an accumulator, the default bound of 8 deepened to 9) and the
// whole MLP is one kernel at these small shapes.
//
// RUN: mirage-opt --mirage-superoptimize="threads=2 keep-reference=1 cache-dir=none partition-joins=0" %s -o %t 2> %t.remarks
// RUN: FileCheck %s --input-file=%t
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: mirage-opt --mirage-check-equivalence %t -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV
// RUN: mirage-opt --mirage-superoptimize="threads=2 keep-reference=1 cache-dir=none partition-searches=1" %s -o %t.joined 2> %t.joined.remarks
// RUN: FileCheck %s --check-prefix=JOINED --input-file=%t.joined.remarks
// RUN: mirage-opt --mirage-check-equivalence %t.joined -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV

// JOINED: remark: subprogram 1 of 1: ops 0-7 (mk.rms_norm, mk.mul, mk.matmul, mk.matmul, mk.silu, mk.mul, mk.matmul, mk.add): graph_kernel
// JOINED-SAME: 1 kernel(s)
// JOINED: remark: searched subprogram (mk.rms_norm; mk.mul; mk.matmul; mk.matmul; mk.silu; mk.mul; mk.matmul; mk.add) with max-block-ops=9
// JOINED: remark: superoptimized in 1 subprogram(s): 8 ops, 1 kernel(s) (unfused 8)

// REMARK: remark: subprogram 1 of 2: ops 0-{{[3-5]}} (mk.rms_norm, mk.mul, mk.matmul, mk.matmul{{.*}}): graph_kernel grid [{{[0-9,]+}}] forloop {{[0-9]+}} {rms_norm mul matmul matmul {{.*}}}; 1 kernel(s), modelled {{[0-9.]+}} us, unfused {{[0-9.]+}} us; searched in {{[0-9.]+}} s
// REMARK: remark: subprogram 2 of 2: ops {{[4-6]}}-7 ({{.*}}mk.matmul, mk.add): graph_kernel grid [{{[0-9,]+}}] forloop {{[0-9]+}} {{{.*}}matmul add accum_sum}; 1 kernel(s), modelled {{[0-9.]+}} us, unfused {{[0-9.]+}} us; searched in {{[0-9.]+}} s
// REMARK: remark: superoptimized in 2 subprogram(s): 8 ops, 2 kernel(s) (unfused 8), modelled 7.2 us, unfused {{[0-9.]+}} us on sm_90; 66 intervals over 2 topological order(s), 38 distinct, {{[0-9]+}} searched

// EQUIV: remark: equivalent to @mlp_reference

// CHECK-LABEL: func.func @mlp(
// CHECK-SAME:      attributes {mk.reference = @mlp_reference}
// CHECK-NEXT:    %[[A:[0-9]+]]{{(:2)?}} = mk.graph_kernel(%arg0, %arg1, %arg2, %arg3)
// CHECK:           mb.rms_norm
// CHECK:           mb.matmul
// CHECK:           mb.matmul
// CHECK:         } : (tensor<8x64xf16>, tensor<1x64xf16>, tensor<64x128xf16>, tensor<64x128xf16>) -> {{.*}}
// CHECK-NEXT:    %[[B:.*]] = mk.graph_kernel(%[[A]]{{.*}}, %arg4, %arg0)
// CHECK:           mb.matmul
// CHECK:           mb.add
// CHECK:         } : ({{.*}}, tensor<128x64xf16>, tensor<8x64xf16>) -> tensor<8x64xf16>
// CHECK-NEXT:    return %[[B]]
func.func @mlp(%x: tensor<8x64xf16>, %w: tensor<1x64xf16>, %wg: tensor<64x128xf16>, %wu: tensor<64x128xf16>, %wd: tensor<128x64xf16>) -> tensor<8x64xf16> {
  %n = mk.rms_norm %x eps = 1.0e-06 : tensor<8x64xf16>
  %h = mk.mul %n, %w : tensor<8x64xf16>, tensor<1x64xf16> -> tensor<8x64xf16>
  %g = mk.matmul %h, %wg : tensor<8x64xf16>, tensor<64x128xf16> -> tensor<8x128xf16>
  %u = mk.matmul %h, %wu : tensor<8x64xf16>, tensor<64x128xf16> -> tensor<8x128xf16>
  %s = mk.silu %g : tensor<8x128xf16>
  %p = mk.mul %s, %u : tensor<8x128xf16>, tensor<8x128xf16> -> tensor<8x128xf16>
  %d = mk.matmul %p, %wd : tensor<8x128xf16>, tensor<128x64xf16> -> tensor<8x64xf16>
  %o = mk.add %d, %x : tensor<8x64xf16>, tensor<8x64xf16> -> tensor<8x64xf16>
  return %o : tensor<8x64xf16>
}
