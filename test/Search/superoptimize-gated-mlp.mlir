// The superoptimizer on GatedMLP (DESIGN.md section 8), real shapes: one
// graph-defined kernel with both matmuls accumulated over the loop and
// silu * mul after the loop.
//
// RUN: mirage-opt --mirage-superoptimize="threads=2 keep-reference=1" %mirage_src_root/bench/programs/gated_mlp.mlir -o %t 2> %t.remarks
// RUN: FileCheck %s --input-file=%t
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.remarks
// RUN: mirage-opt --mirage-check-equivalence %t -o /dev/null 2>&1 | FileCheck %s --check-prefix=EQUIV

// REMARK: remark: superoptimized: graph_kernel grid [{{[0-9]+}},1,1] forloop {{[0-9]+}} {matmul matmul accum_sum accum_sum | silu mul}; 1 kernel(s)

// EQUIV: remark: equivalent to @gated_mlp_reference

// CHECK-LABEL: func.func @gated_mlp(
// CHECK-SAME:      attributes {mk.reference = @gated_mlp_reference}
// CHECK-NEXT:    %[[K:.*]] = mk.graph_kernel(%{{.*}}, %{{.*}}, %{{.*}}) grid = [{{[0-9]+}}, 1, 1]
// CHECK:           %[[ACC:.*]]:2 = mb.for_loop
// CHECK-NEXT:        %[[XT:.*]] = mb.input_iter %{{.*}} imap = [-1, -1, -1] fmap = 1
// CHECK-NEXT:        %[[W1:.*]] = mb.input_iter %{{.*}} imap = [1, -1, -1] fmap = 0
// CHECK-NEXT:        %[[W2:.*]] = mb.input_iter %{{.*}} imap = [1, -1, -1] fmap = 0
// CHECK-NEXT:        %[[M1:.*]] = mb.matmul %[[XT]], %[[W1]]
// CHECK-NEXT:        %[[M2:.*]] = mb.matmul %[[XT]], %[[W2]]
// CHECK-NEXT:        %[[S1:.*]] = mb.accum_sum %[[M1]]
// CHECK-NEXT:        %[[S2:.*]] = mb.accum_sum %[[M2]]
// CHECK-NEXT:        mb.yield %[[S1]], %[[S2]]
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[G:.*]] = mb.silu %[[ACC]]#0
// CHECK-NEXT:      %[[P:.*]] = mb.mul %[[ACC]]#1, %[[G]]
// CHECK-NEXT:      %[[O:.*]] = mb.output_saver %[[P]] omap = [1, -1, -1]
// CHECK-NEXT:      mb.return %[[O]]
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[K]]
